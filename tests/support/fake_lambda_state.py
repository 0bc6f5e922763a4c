"""The state of the fake Lambda Cloud (tests/support/fake-lambda-cloud.py): its SSH keys,
filesystems, firewall rules, capacity, quota and instances, and each instance's life. An instance
is booting until its test host is up (tests/support/test-hosts.sh, a network namespace with its
own sshd) and its boot time has passed; then active with the host's address; terminating while
the host is taken down; terminated afterwards, visible by ID for a while and then gone. With no
hosts script an instance gets an address in 198.18.255.0/24 that nothing answers on.

All instances of one fake are hosts of one test-hosts.sh folder (STATE/hosts, `up DIR 0` at the
first launch, one `add` per instance, `remove` at its end), so they share one bridge and subnet
as a region's instances share a network: they reach each other, and the firewall (nftables in
each host, fake_lambda_firewall.py) decides what gets in. A host's firewall is in place before
its sshd starts, and follows every change of the rules that apply to it.

Every change happens under one lock; test-hosts.sh runs outside it, in one thread per instance
(or in the request that changed a firewall rule), so that the API answers while hosts come up
and go down.
"""

import copy
import glob
import os
import secrets
import subprocess
import threading
import time

import fake_lambda_api as api
import fake_lambda_firewall as fw

# States in which an instance still exists (and counts against the quota).
LIVE = ("booting", "active", "unhealthy", "terminating")
# Final states: the instance is gone but GET /instances/{id} shows it for a while.
ENDED = ("terminated", "preempted")

HOST_UP_TIMEOUT_S = 180
HOST_DOWN_TIMEOUT_S = 60
FIREWALL_TIMEOUT_S = 30
# Environment of the caller that test-hosts.sh would read for every host; the fake sets them per
# instance (bare hosts, TEST_HOSTS_BARE, stay the caller's choice).
PER_HOST_ENV = ("TEST_HOSTS_AUTHORIZED_KEYS", "TEST_HOSTS_HOST_KEY", "TEST_HOSTS_FIREWALL")


class Instance:
    """One launched instance: what the launch asked for and where its life stands."""

    def __init__(self, launch, region_description, instance_type, authorized_keys, host_key,
                 boot_seconds, host_key_delay):
        self.id = secrets.token_hex(16)
        self.name = launch["name"]
        self.region = {"name": launch["region"], "description": region_description}
        self.instance_type = instance_type
        self.ssh_key_names = [launch["ssh_key_name"]]
        self.file_system_names = list(launch["file_system_names"])
        self.file_system_mounts = launch["file_system_mounts"]
        self.requested_hostname = launch["hostname"]
        self.tags = launch["tags"]
        self.firewall_rulesets = launch["firewall_rulesets"]
        self.authorized_keys = authorized_keys
        self.host_key = host_key
        # Seconds after active until cloud-init's ssh_keys take effect (0: from the start, None:
        # never); until then the host has a key of its own, as an image does. Applied: None when
        # the launch has no host key to apply.
        self.host_key_delay = host_key_delay if host_key is not None else 0
        self.host_key_applied = None if host_key is None else self.host_key_delay == 0
        self.jupyter_token = secrets.token_hex(16)
        self.launched_at = time.time()
        self.boot_deadline = time.monotonic() + boot_seconds
        self.status = "booting"
        self.ip = None
        self.hostname = None
        self.host = None          # {"name", "address", "ns", "dir", "index"} once it is up
        self.host_gone = False    # its host is being taken down: no more firewall changes
        self.firewall_lock = threading.Lock()  # one firewall change at a time, the latest last
        self.firewall = {"rules": None, "nft": "", "error": None}  # what its host applied
        self.reason = None        # why the instance is unhealthy, when the fake knows
        self.hidden = False       # vanished: no longer in any answer
        self.ended_at = None      # monotonic time of the final state
        self.final_status = None  # what terminating leads to: terminated, preempted, vanished
        self.stop = threading.Event()
        self.thread = None

    def to_api(self, tags=True):
        """The Instance object of the API (spec v1.10.0): fields without a value are left out,
        as the spec's optional fields are (ip, private_ip, hostname, jupyter_* while booting);
        tags too when `tags` is false (optional in the spec: a listing may leave them out)."""
        o = {"id": self.id}
        if self.name is not None:
            o["name"] = self.name
        if self.ip is not None:
            o["ip"] = self.ip
            o["private_ip"] = self.ip
        o["status"] = self.status
        o["ssh_key_names"] = list(self.ssh_key_names)
        o["file_system_names"] = list(self.file_system_names)
        if self.file_system_mounts:
            o["file_system_mounts"] = [dict(m) for m in self.file_system_mounts]
        o["region"] = dict(self.region)
        o["instance_type"] = dict(self.instance_type, specs=dict(self.instance_type["specs"]))
        if self.hostname is not None:
            o["hostname"] = self.hostname
        if self.status == "active":
            o["jupyter_token"] = self.jupyter_token
            o["jupyter_url"] = (f"https://jupyter-{self.id}.lambdaspaces.com/"
                                f"?token={self.jupyter_token}")
        o["actions"] = self._actions()
        if tags:
            o["tags"] = [dict(t) for t in self.tags]
        if self.firewall_rulesets:
            o["firewall_rulesets"] = [dict(r) for r in self.firewall_rulesets]
        return o

    def _actions(self):
        """The spec's InstanceActionAvailability for the current status."""
        def blocked(code, text):
            return {"available": False, "reason_code": code, "reason_description": text}
        ok = {"available": True}
        if self.status == "booting":
            waiting = blocked("vm-has-not-launched", "The instance has not launched yet.")
            return {"migrate": waiting, "rebuild": waiting, "restart": waiting,
                    "cold_reboot": waiting, "terminate": ok}
        if self.status in ("active", "unhealthy"):
            return {"migrate": ok, "rebuild": ok, "restart": ok, "cold_reboot": ok,
                    "terminate": ok}
        ending = blocked("vm-is-terminating", "The instance is terminating.")
        return {"migrate": ending, "rebuild": ending, "restart": ending, "cold_reboot": ending,
                "terminate": ending}

    def internal(self):
        """What GET /_fake/state shows of the instance: the API view plus the fake's own."""
        firewall = dict(self.firewall)
        firewall["rules"] = None if firewall["rules"] is None else fw.copy_rules(firewall["rules"])
        return {"instance": self.to_api(), "host": self.host, "reason": self.reason,
                "hidden": self.hidden, "final_status": self.final_status,
                "firewall": firewall,
                "host_key": {"delay": self.host_key_delay, "applied": self.host_key_applied}}


class Cloud:
    """The account the fake serves: SSH keys, filesystems, capacity, quota and instances."""

    def __init__(self, catalog, state_dir, hosts_script, boot_seconds, retention_seconds, log):
        self.lock = threading.RLock()
        self.catalog = copy.deepcopy(catalog)
        self.initial = {"boot_seconds": boot_seconds, "retention_seconds": retention_seconds}
        self.instances = {}
        self.state_dir = state_dir
        self.hosts_script = hosts_script
        self.hosts_dir = os.path.join(state_dir, "hosts")
        self.hosts_lock = threading.Lock()  # bringing the shared bridge up or down
        self.log = log
        self.closing = threading.Event()
        self._next_fake_address = 0
        self._start_over()
        self._take_down_leftovers()

    def _start_over(self):
        """The account as the fake starts it (under the lock): the catalog's types, capacity
        and filesystems, no SSH keys, no quota, active, the command line's times."""
        catalog = copy.deepcopy(self.catalog)
        self.regions = catalog["regions"]
        self.types = catalog["instance_types"]
        self.file_systems = {}
        for fs in catalog["file_systems"]:
            self.add_file_system(fs["name"], fs["region"])
        self.ssh_keys = {}
        self.boot_seconds = self.initial["boot_seconds"]
        self.retention_seconds = self.initial["retention_seconds"]
        self.max_instances = None
        self.account = "active"
        self.firewalls = fw.Firewalls(self.regions)
        self.firewall_enforce = True
        self.tags_listed = True
        self.host_key_delay = 0

    def reset(self):
        """A fresh account for the next test: every instance ends (its host is down when this
        returns) and is forgotten; SSH keys, filesystems, capacity and settings start over."""
        self._end_all("the fake is reset")
        with self.lock:
            self.instances.clear()
            self._start_over()
        self._hosts_down()  # the next launch brings a fresh bridge up: indices start over
        self.log("reset")

    # -- instance types and capacity ----------------------------------------------------------

    def instance_types(self):
        """The data of GET /instance-types."""
        with self.lock:
            return {name: {
                "instance_type": dict(t["instance_type"], specs=dict(t["instance_type"]["specs"])),
                "regions_with_capacity_available": [
                    {"name": r, "description": self.regions[r]}
                    for r, n in t["capacity"].items() if n is None or n > 0],
            } for name, t in self.types.items()}

    def set_capacity(self, type_name, value):
        """Capacity of one instance type: a list of regions (unlimited there) or {region: count}
        (launches left there); raises ApiError 400/404 for an unknown type or region."""
        with self.lock:
            if type_name not in self.types:
                raise api.ApiError(404, "global/object-does-not-exist",
                                   f"'{type_name}' is not an instance type")
            try:
                self.types[type_name]["capacity"] = api.capacity_from_json(
                    value, self.regions, "regions")
            except ValueError as e:
                raise api.invalid(str(e)) from None

    # -- SSH keys and filesystems -------------------------------------------------------------

    def list_ssh_keys(self):
        """The data of GET /ssh-keys."""
        with self.lock:
            return [dict(k) for k in self.ssh_keys.values()]

    def add_ssh_key(self, name, public_key):
        """POST /ssh-keys: stores the key, or generates a pair when public_key is None (the
        private key is in the answer only). Not documented: a second key of the same name is
        refused with 400 global/invalid-parameters."""
        private_key = None
        with self.lock:
            self._check_key_name(name)
        if public_key is None:
            try:
                private_key, public_key = api.generate_key_pair(name)
            except (OSError, subprocess.SubprocessError) as e:
                self.log(f"cannot generate a key pair: {e}")
                raise api.internal_error() from None
        with self.lock:
            self._check_key_name(name)
            key = {"id": secrets.token_hex(16), "name": name, "public_key": public_key}
            self.ssh_keys[key["id"]] = key
            answer = dict(key)
        if private_key is not None:
            answer["private_key"] = private_key
        return answer

    def _check_key_name(self, name):
        if any(k["name"] == name for k in self.ssh_keys.values()):
            raise api.invalid(f"name: an SSH key named '{name}' already exists")

    def delete_ssh_key(self, key_id):
        """DELETE /ssh-keys/{id}. Not documented: an unknown ID is refused with 400
        global/invalid-parameters (the only refusal besides auth the spec lists), and a key in
        use may be deleted (v1.10.0 no longer has ssh-keys/key-in-use)."""
        with self.lock:
            if self.ssh_keys.pop(key_id, None) is None:
                raise api.invalid(f"id: no SSH key has the ID '{key_id}'")

    def add_file_system(self, name, region):
        """A filesystem of the account (launches may name it), as GET /file-systems shows it."""
        with self.lock:
            if region not in self.regions:
                raise api.invalid(f"region: '{region}' is not a region")
            fs = {"id": secrets.token_hex(16), "name": name,
                  "mount_point": f"/lambda/nfs/{name}",
                  "created": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
                  "created_by": {"id": "0" * 32, "email": "tests@example.com",
                                 "status": "active"},
                  "is_in_use": False, "region": {"name": region,
                                                 "description": self.regions[region]},
                  "bytes_used": 0}
            self.file_systems[name] = fs
            return dict(fs)

    def list_file_systems(self):
        """The data of GET /file-systems."""
        with self.lock:
            in_use = {n for i in self.instances.values() if i.status in LIVE
                      for n in i.file_system_names}
            return [dict(fs, is_in_use=fs["name"] in in_use) for fs in self.file_systems.values()]

    # -- instances ----------------------------------------------------------------------------

    def _visible(self, inst):
        """Whether GET /instances/{id} still finds the instance (and forgets expired ones)."""
        if inst.hidden:
            return False
        if inst.status in ENDED and inst.ended_at is not None and \
                time.monotonic() - inst.ended_at > self.retention_seconds:
            return False
        return True

    def list_instances(self):
        """The data of GET /instances: the account's instances that are not gone (terminated
        and preempted ones are left out: "List running instances")."""
        with self.lock:
            return [i.to_api(self.tags_listed) for i in self.instances.values()
                    if not i.hidden and i.status in LIVE]

    def get_instance(self, instance_id):
        """The data of GET /instances/{id}, or ApiError 404."""
        with self.lock:
            inst = self.instances.get(instance_id)
            if inst is None or not self._visible(inst):
                raise api.instance_not_found()
            return inst.to_api(self.tags_listed)

    def find(self, instance_id):
        """The instance of a control request (hidden and ended ones included), or ApiError 404."""
        with self.lock:
            inst = self.instances.get(instance_id)
            if inst is None:
                raise api.instance_not_found()
            return inst

    def launch(self, body):
        """POST /instance-operations/launch: checks the request as the API does, records the
        instance as booting and starts its life; returns its ID."""
        with self.lock:
            if self.closing.is_set():
                raise api.internal_error(503)
            req = api.check_launch(body, self.regions, self.types)
            key = next((k for k in self.ssh_keys.values() if k["name"] == req["ssh_key_name"]),
                       None)
            if key is None:
                # Not documented whether this is the 404 or the 400 ApiErrorLaunchResourceNotFound.
                raise api.launch_resource_not_found(
                    f"SSH key '{req['ssh_key_name']}' does not exist.",
                    "Check the SSH key's name, or add the key, then try again.")
            for name in req["file_system_names"]:
                fs = self.file_systems.get(name)
                if fs is None:
                    raise api.launch_resource_not_found(
                        f"File system '{name}' does not exist.",
                        "Check the file system's name, then try again.")
                if fs["region"]["name"] != req["region"]:
                    raise api.file_system_in_wrong_region(name, fs["region"]["name"],
                                                          req["region"])
            ids = {fs["id"] for fs in self.file_systems.values()}
            for m in req["file_system_mounts"]:
                if m["file_system_id"] not in ids:
                    raise api.launch_resource_not_found(
                        f"File system '{m['file_system_id']}' does not exist.",
                        "Check the file system's ID, then try again.")
            for ref in req["firewall_rulesets"]:
                ruleset = self.firewalls.rulesets.get(ref["id"])
                if ruleset is None:
                    raise api.launch_resource_not_found(
                        f"Firewall ruleset '{ref['id']}' does not exist.",
                        "Check your firewall ruleset ID and try again.")
                if ruleset["region"] != req["region"]:
                    raise api.firewall_ruleset_in_wrong_region(ref["id"], ruleset["region"],
                                                               req["region"])
            if self.account == "invalid-address":
                raise api.invalid_address()
            live = sum(1 for i in self.instances.values() if i.status in LIVE and not i.hidden)
            if self.max_instances is not None and live >= self.max_instances:
                raise api.quota_exceeded()
            capacity = self.types[req["type_name"]]["capacity"]
            if req["region"] not in capacity or capacity[req["region"]] == 0:
                raise api.insufficient_capacity()
            if capacity[req["region"]] is not None:
                capacity[req["region"]] -= 1
            host_key = api.host_key_from_user_data(req["user_data"])
            if req["user_data"] and host_key is None and "ssh_keys:" in req["user_data"]:
                self.log("launch: the user data has ssh_keys but no ed25519 host key the fake "
                         "can read; the instance gets a fresh host key")
            inst = Instance(req, self.regions[req["region"]],
                            self.types[req["type_name"]]["instance_type"], [key["public_key"]],
                            host_key, self.boot_seconds, self.host_key_delay)
            self.instances[inst.id] = inst
            inst.thread = threading.Thread(target=self._life, args=(inst,),
                                           name=f"instance-{inst.id[:8]}", daemon=True)
            inst.thread.start()
            self.log(f"instance {inst.id}: launched ({req['type_name']} in {req['region']})")
            return inst.id

    def terminate(self, body):
        """POST /instance-operations/terminate: every named instance turns terminating (its host
        goes down in the background); one unknown or ended ID refuses the whole request with
        404. Returns the Instance objects."""
        ids = api.check_terminate(body)
        with self.lock:
            targets = []
            for instance_id in ids:
                inst = self.instances.get(instance_id)
                if inst is None or inst.hidden or inst.status not in LIVE:
                    raise api.instance_not_found()
                targets.append(inst)
            for inst in targets:
                self._end(inst, "terminated", "terminate request")
            return [inst.to_api(self.tags_listed) for inst in targets]

    def _end(self, inst, final, why):
        """Starts the end of an instance's life (under the lock): terminating, then `final`."""
        if inst.final_status is None:
            inst.final_status = final
            inst.status = "terminating" if final == "terminated" else final
            if final == "preempted":
                inst.ended_at = time.monotonic()
            self.log(f"instance {inst.id}: {final} ({why})")
        inst.stop.set()

    def set_status(self, instance_id, status):
        """A test turns an instance's status: booting, active or unhealthy stay with the host;
        terminated and preempted end the instance as terminate would (preempted at once)."""
        with self.lock:
            inst = self.find(instance_id)
            if inst.status in ENDED or inst.hidden:
                raise api.invalid(f"instance {instance_id} has ended")
            if status in ("terminated", "preempted"):
                self._end(inst, status, "status set by the test")
            elif status in ("booting", "active", "unhealthy"):
                if status == "active" and inst.host is None and self.hosts_script:
                    raise api.invalid("the instance has no host yet")
                if inst.final_status is not None:
                    raise api.invalid(f"instance {instance_id} is terminating")
                if status == "active" and inst.ip is None:
                    self._give_address(inst)
                inst.status = status
                inst.reason = "status set by the test" if status == "unhealthy" else None
                self.log(f"instance {inst.id}: {status} (status set by the test)")
            else:
                raise api.invalid(f"status: '{status}' is not one the fake can set")
            answer = inst.to_api()
        self._sync_firewall(inst)
        return answer

    def vanish(self, instance_id):
        """The instance disappears as if deleted behind the account's back: no answer shows it
        any more, and its host goes down."""
        with self.lock:
            inst = self.find(instance_id)
            inst.hidden = True
            inst.final_status = inst.final_status or "vanished"
            inst.stop.set()
            self.log(f"instance {inst.id}: vanished")

    def host_action(self, instance_id, action):
        """kill, cut or mend the instance's test host (test-hosts.sh); the API does not notice."""
        with self.lock:
            inst = self.find(instance_id)
            host = inst.host
        if host is None:
            raise api.invalid(f"instance {instance_id} has no test host")
        if action not in ("kill", "cut", "mend"):
            raise api.invalid(f"action: '{action}' is not kill, cut or mend")
        r = self._script(action, host["dir"], str(host["index"]), timeout=HOST_DOWN_TIMEOUT_S)
        if r is None or r.returncode != 0:
            raise api.internal_error()

    # -- firewalls ----------------------------------------------------------------------------

    def firewall_rules(self):
        """GET /firewall-rules: the global ruleset's rules (not documented: the double's
        choice; the spec says they are the rules "currently active for your account's
        instances", which is what the global ruleset is)."""
        with self.lock:
            return fw.copy_rules(self.firewalls.global_rules)

    def set_firewall_rules(self, rules):
        """PUT /firewall-rules and PATCH /firewall-rulesets/global: the global rules become
        `rules` (checked already); every filtered instance's host follows before this returns
        (not documented: how long the real API takes to apply them). Returns them."""
        with self.lock:
            self.firewalls.set_global_rules(rules)
            affected = self._hosted_instances()
        self._sync_firewalls(affected)
        return self.firewall_rules()

    def global_ruleset(self):
        """GET /firewall-rulesets/global."""
        with self.lock:
            return self.firewalls.global_ruleset()

    def _ruleset_users(self, ruleset_id):
        """The live instances associated with a ruleset (under the lock)."""
        return [i for i in self.instances.values()
                if i.status in LIVE and not i.hidden and
                any(r["id"] == ruleset_id for r in i.firewall_rulesets)]

    def _ruleset_api(self, ruleset):
        """The API object of a ruleset, with its instances (under the lock)."""
        return self.firewalls.to_api(ruleset, [i.id for i in self._ruleset_users(ruleset["id"])])

    def list_rulesets(self):
        """GET /firewall-rulesets: the account's rulesets (the global one has its own path)."""
        with self.lock:
            return [self._ruleset_api(r) for r in self.firewalls.rulesets.values()]

    def create_ruleset(self, body):
        """POST /firewall-rulesets."""
        with self.lock:
            return self._ruleset_api(self.firewalls.create(body))

    def get_ruleset(self, ruleset_id):
        """GET /firewall-rulesets/{id}, or ApiError 404."""
        with self.lock:
            return self._ruleset_api(self.firewalls.find(ruleset_id))

    def patch_ruleset(self, ruleset_id, body):
        """PATCH /firewall-rulesets/{id}: its instances' hosts follow before this returns."""
        with self.lock:
            ruleset = self.firewalls.patch(ruleset_id, body)
            affected = [i for i in self._ruleset_users(ruleset_id) if i.host is not None]
        self._sync_firewalls(affected)
        with self.lock:
            return self._ruleset_api(ruleset)

    def delete_ruleset(self, ruleset_id):
        """DELETE /firewall-rulesets/{id}: refused while a live instance uses it."""
        with self.lock:
            self.firewalls.delete(ruleset_id, bool(self._ruleset_users(ruleset_id)))

    def set_firewall_enforce(self, enforce):
        """/_fake/firewall: with enforcement off every host is open (no nftables table)."""
        with self.lock:
            self.firewall_enforce = enforce
            affected = self._hosted_instances()
        self._sync_firewalls(affected)

    def _hosted_instances(self):
        """The instances whose host is up (under the lock)."""
        return [i for i in self.instances.values() if i.host is not None and not i.host_gone]

    def _firewall_rules_of(self, inst):
        """The rules the instance's host should enforce, or None for an open host (enforcement
        off, or a region the firewall does not apply to); under the lock."""
        if not self.firewall_enforce:
            return None
        return self.firewalls.rules_for(inst.region["name"],
                                        [r["id"] for r in inst.firewall_rulesets])

    def _sync_firewalls(self, instances):
        """_sync_firewall for each of `instances`."""
        for inst in instances:
            self._sync_firewall(inst)

    def _sync_firewall(self, inst):
        """Makes the instance's host enforce the rules that apply to it now (a no-op when it
        already does or has no host). Runs outside the lock; one change per instance at a time,
        the rules computed inside it, so the last change applied is the latest."""
        if not self.hosts_script:
            return
        with inst.firewall_lock:
            with self.lock:
                if inst.host is None or inst.host_gone:
                    return
                rules = self._firewall_rules_of(inst)
                index = inst.host["index"]
            text = "" if rules is None else fw.nft_ruleset(rules)
            if text == inst.firewall["nft"] and inst.firewall["error"] is None:
                return
            r = self._script("firewall", self.hosts_dir, str(index), input=text,
                             timeout=FIREWALL_TIMEOUT_S)
            with self.lock:
                if r is not None and r.returncode == 0:
                    inst.firewall = {"rules": rules, "nft": text, "error": None}
                    self.log(f"instance {inst.id}: firewall "
                             f"{'open' if rules is None else f'of {len(rules)} rule(s)'} applied")
                else:
                    inst.firewall["error"] = "test-hosts.sh firewall failed: " + (
                        "did not finish" if r is None else r.stderr.strip())
                    self.log(f"instance {inst.id}: {inst.firewall['error']}")

    # -- an instance's life -------------------------------------------------------------------

    def _give_address(self, inst):
        """The instance's address and host name (under the lock): its test host's, or for a
        host-less fake 198.18.255.1 .. .254 in turn with an address-based name, as the real API
        names an instance launched without a hostname."""
        if inst.host is not None:
            inst.ip = inst.host["address"]
            inst.hostname = inst.requested_hostname or inst.host["name"]
            return
        self._next_fake_address = self._next_fake_address % 254 + 1
        inst.ip = f"198.18.255.{self._next_fake_address}"
        inst.hostname = inst.requested_hostname or inst.ip.replace(".", "-")

    def _life(self, inst):
        """One instance from launch to its end: host up, boot time, active, cloud-init's host
        key when it comes late, then wait for the end."""
        host_ok = self._host_up(inst) if self.hosts_script else True
        remaining = inst.boot_deadline - time.monotonic()
        if remaining > 0 and host_ok:
            inst.stop.wait(remaining)
        with self.lock:
            if not inst.stop.is_set() and inst.status == "booting":
                if not host_ok:
                    inst.status = "unhealthy"
                    self.log(f"instance {inst.id}: unhealthy ({inst.reason})")
                else:
                    self._give_address(inst)
                    inst.status = "active"
                    self.log(f"instance {inst.id}: active at {inst.ip}")
        if inst.host is not None and inst.host_key_applied is False:
            if inst.host_key_delay is None:
                self.log(f"instance {inst.id}: cloud-init's host key is never applied")
            elif not inst.stop.wait(inst.host_key_delay):
                self._rekey(inst)
        inst.stop.wait()
        if inst.host is not None:
            self._host_down(inst)
        with self.lock:
            if inst.final_status == "vanished":
                self.instances.pop(inst.id, None)
            else:
                inst.status = inst.final_status or "terminated"
                if inst.ended_at is None:
                    inst.ended_at = time.monotonic()
                self.log(f"instance {inst.id}: {inst.status}")

    def _files(self, inst):
        """The prefix of the instance's own files in the state folder (keys, firewall)."""
        return os.path.join(self.state_dir, f"inst-{inst.id}")

    def _script(self, *args, env=None, input=None, timeout):  # noqa: A002 (subprocess's name)
        """test-hosts.sh ARGS; None (and a log line) when it could not run or timed out."""
        try:
            return subprocess.run(["/bin/sh", self.hosts_script, *args], capture_output=True,
                                  text=True, env=env, input=input, timeout=timeout,
                                  stdin=None if input is not None else subprocess.DEVNULL,
                                  check=False)
        except (OSError, subprocess.SubprocessError) as e:
            self.log(f"test-hosts.sh {args[0]} {args[1]}: {e}")
            return None

    def _script_env(self):
        """The environment for test-hosts.sh: the caller's, without the per-host variables."""
        env = dict(os.environ)
        for name in PER_HOST_ENV:
            env.pop(name, None)
        return env

    def _hosts_up(self):
        """The shared hosts folder with its bridge (test-hosts.sh up DIR 0), made at the first
        launch; None when it is up, else why not."""
        with self.hosts_lock:
            if os.path.exists(os.path.join(self.hosts_dir, "subnet")):
                return None
            r = self._script("up", self.hosts_dir, "0", env=self._script_env(),
                             timeout=HOST_UP_TIMEOUT_S)
            if r is not None and r.returncode == 0:
                self.log(f"test hosts in {self.hosts_dir}")
                return None
            return "test-hosts.sh up failed: " + ("did not finish" if r is None else
                                                  (r.stderr.strip() or f"exit code {r.returncode}"))

    def _hosts_down(self):
        """'down' on the shared hosts folder (no host is left in it)."""
        if not self.hosts_script:
            return
        with self.hosts_lock:
            if os.path.exists(os.path.join(self.hosts_dir, "subnet")):
                self._script("down", self.hosts_dir, timeout=HOST_DOWN_TIMEOUT_S)

    def _write(self, path, text, mode=0o644):
        """Writes `text` to `path` (created with `mode`)."""
        if os.path.exists(path):
            os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)

    def _write_host_key(self, inst):
        """The launch's host key in the state folder (private, and its .pub when the
        cloud-config gave it); returns the private key's path."""
        key_file = self._files(inst) + ".host_key"
        self._write(key_file, inst.host_key[0], 0o600)
        if os.path.exists(key_file + ".pub"):
            os.unlink(key_file + ".pub")
        if inst.host_key[1]:
            self._write(key_file + ".pub", inst.host_key[1].strip() + "\n")
        return key_file

    def _host_up(self, inst):
        """Adds the instance's test host to the shared folder with the launch's SSH key, the
        launch's host key (or a fresh one while cloud-init's is late) and its firewall in place
        before its sshd starts; False (with inst.reason set and logged) when that fails."""
        why = self._hosts_up()
        if why is not None:
            inst.reason = why
            self.log(f"instance {inst.id}: {inst.reason}")
            return False
        prefix = self._files(inst)
        env = self._script_env()
        self._write(prefix + ".authorized_keys", "".join(k + "\n" for k in inst.authorized_keys))
        env["TEST_HOSTS_AUTHORIZED_KEYS"] = prefix + ".authorized_keys"
        if inst.host_key is not None:
            key_file = self._write_host_key(inst)
            if inst.host_key_applied:
                env["TEST_HOSTS_HOST_KEY"] = key_file
        with inst.firewall_lock:
            with self.lock:
                rules = self._firewall_rules_of(inst)
            text = "" if rules is None else fw.nft_ruleset(rules)
            if rules is not None:
                self._write(prefix + ".firewall.nft", text)
                env["TEST_HOSTS_FIREWALL"] = prefix + ".firewall.nft"
            r = self._script("add", self.hosts_dir, env=env, timeout=HOST_UP_TIMEOUT_S)
            fields = r.stdout.split() if r is not None and r.returncode == 0 else []
            if len(fields) != 3:
                detail = "did not finish" if r is None else \
                    (r.stderr.strip() or r.stdout.strip() or f"exit code {r.returncode}")
                inst.reason = f"test-hosts.sh add failed: {detail}"
                self.log(f"instance {inst.id}: {inst.reason}")
                return False
            with self.lock:
                inst.host = {"name": fields[0], "address": fields[1], "ns": fields[2],
                             "dir": self.hosts_dir, "index": int(fields[2].rsplit("h", 1)[1])}
                inst.firewall = {"rules": rules, "nft": text, "error": None}
        self.log(f"instance {inst.id}: test host {fields[0]} at {fields[1]} ({fields[2]}), "
                 f"firewall {'open' if rules is None else f'of {len(rules)} rule(s)'}")
        self._sync_firewall(inst)  # the rules may have changed while it came up
        return True

    def _rekey(self, inst):
        """cloud-init's ssh_keys take effect late: the host's sshd gets the launch's key."""
        key_file = self._write_host_key(inst)
        r = self._script("rekey", self.hosts_dir, str(inst.host["index"]), key_file,
                         timeout=HOST_UP_TIMEOUT_S)
        if r is None or r.returncode != 0:
            self.log(f"instance {inst.id}: test-hosts.sh rekey failed: "
                     f"{'' if r is None else r.stderr.strip()}")
            return
        with self.lock:
            inst.host_key_applied = True
        self.log(f"instance {inst.id}: cloud-init's host key applied")

    def _host_down(self, inst):
        """Removes the instance's test host from the shared folder."""
        with inst.firewall_lock:
            inst.host_gone = True
        r = self._script("remove", self.hosts_dir, str(inst.host["index"]),
                         timeout=HOST_DOWN_TIMEOUT_S)
        if r is None or r.returncode != 0:
            self.log(f"instance {inst.id}: test-hosts.sh remove failed: "
                     f"{'' if r is None else r.stderr.strip()}")
        else:
            self.log(f"instance {inst.id}: test host {inst.host['name']} is down")

    # -- the end ------------------------------------------------------------------------------

    def _end_all(self, why, timeout=HOST_UP_TIMEOUT_S + HOST_DOWN_TIMEOUT_S):
        """Ends every instance and waits until their hosts are down, hosts still coming up
        included."""
        with self.lock:
            lives = list(self.instances.values())
            for inst in lives:
                if inst.status in LIVE:
                    self._end(inst, "terminated", why)
                inst.stop.set()
        deadline = time.monotonic() + timeout
        for inst in lives:
            if inst.thread is not None:
                inst.thread.join(max(0.0, deadline - time.monotonic()))

    def _take_down_leftovers(self):
        """'down' on every host folder of the state folder that still holds hosts (a fake
        killed with SIGKILL leaves them; the next one on the same folder cleans up), the shared
        one and those of earlier versions of the fake (one folder per instance) alike."""
        if not self.hosts_script:
            return
        for subnet in glob.glob(os.path.join(self.state_dir, "hosts", "subnet")) + \
                glob.glob(os.path.join(self.state_dir, "inst-*", "subnet")):
            d = os.path.dirname(subnet)
            self.log(f"taking down the test hosts in {d}")
            self._script("down", d, timeout=HOST_DOWN_TIMEOUT_S)

    def close(self):
        """Ends every instance and waits until their hosts are down; then runs 'down' on any
        host folder left, so that no namespace or bridge outlives the fake."""
        self.closing.set()
        self._end_all("the fake is stopping")
        self._take_down_leftovers()
