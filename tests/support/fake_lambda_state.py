"""The state of the fake Lambda Cloud (tests/support/fake-lambda-cloud.py): its SSH keys,
filesystems, capacity, quota and instances, and each instance's life. An instance is booting
until its test host is up (tests/support/test-hosts.sh, a network namespace with its own sshd)
and its boot time has passed; then active with the host's address; terminating while the host is
taken down; terminated afterwards, visible by ID for a while and then gone. With no hosts script
an instance gets an address in 198.18.255.0/24 that nothing answers on.

Every change happens under one lock; test-hosts.sh runs outside it, in one thread per instance,
so that the API answers while hosts come up and go down.
"""

import copy
import glob
import os
import secrets
import subprocess
import threading
import time

import fake_lambda_api as api

# States in which an instance still exists (and counts against the quota).
LIVE = ("booting", "active", "unhealthy", "terminating")
# Final states: the instance is gone but GET /instances/{id} shows it for a while.
ENDED = ("terminated", "preempted")

HOST_UP_TIMEOUT_S = 180
HOST_DOWN_TIMEOUT_S = 60


class Instance:
    """One launched instance: what the launch asked for and where its life stands."""

    def __init__(self, launch, region_description, instance_type, authorized_keys, host_key,
                 boot_seconds):
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
        self.jupyter_token = secrets.token_hex(16)
        self.launched_at = time.time()
        self.boot_deadline = time.monotonic() + boot_seconds
        self.status = "booting"
        self.ip = None
        self.hostname = None
        self.host = None          # {"name", "address", "ns", "dir"} once test-hosts.sh made it
        self.reason = None        # why the instance is unhealthy, when the fake knows
        self.hidden = False       # vanished: no longer in any answer
        self.ended_at = None      # monotonic time of the final state
        self.final_status = None  # what terminating leads to: terminated, preempted, vanished
        self.stop = threading.Event()
        self.thread = None

    def to_api(self):
        """The Instance object of the API (spec v1.10.0): fields without a value are left out,
        as the spec's optional fields are (ip, private_ip, hostname, jupyter_* while booting)."""
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
        return {"instance": self.to_api(), "host": self.host, "reason": self.reason,
                "hidden": self.hidden, "final_status": self.final_status}


class Cloud:
    """The account the fake serves: SSH keys, filesystems, capacity, quota and instances."""

    def __init__(self, catalog, state_dir, hosts_script, boot_seconds, retention_seconds, log):
        self.lock = threading.RLock()
        self.catalog = copy.deepcopy(catalog)
        self.initial = {"boot_seconds": boot_seconds, "retention_seconds": retention_seconds}
        self.instances = {}
        self.state_dir = state_dir
        self.hosts_script = hosts_script
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

    def reset(self):
        """A fresh account for the next test: every instance ends (its host is down when this
        returns) and is forgotten; SSH keys, filesystems, capacity and settings start over."""
        self._end_all("the fake is reset")
        with self.lock:
            self.instances.clear()
            self._start_over()
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
            return [i.to_api() for i in self.instances.values()
                    if not i.hidden and i.status in LIVE]

    def get_instance(self, instance_id):
        """The data of GET /instances/{id}, or ApiError 404."""
        with self.lock:
            inst = self.instances.get(instance_id)
            if inst is None or not self._visible(inst):
                raise api.instance_not_found()
            return inst.to_api()

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
            if req["firewall_rulesets"]:
                raise api.launch_resource_not_found(
                    f"Firewall ruleset '{req['firewall_rulesets'][0]['id']}' does not exist.",
                    "Check your firewall ruleset ID and try again.")
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
                            host_key, self.boot_seconds)
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
            return [inst.to_api() for inst in targets]

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
            return inst.to_api()

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
        r = self._script(action, host["dir"], "1", timeout=HOST_DOWN_TIMEOUT_S)
        if r is None or r.returncode != 0:
            raise api.internal_error()

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
        """One instance from launch to its end: host up, boot time, then wait for the end."""
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
        inst.stop.wait()
        if inst.host is not None or self.hosts_script:
            self._host_down(inst)
        with self.lock:
            if inst.final_status == "vanished":
                self.instances.pop(inst.id, None)
            else:
                inst.status = inst.final_status or "terminated"
                if inst.ended_at is None:
                    inst.ended_at = time.monotonic()
                self.log(f"instance {inst.id}: {inst.status}")

    def _host_dir(self, inst):
        return os.path.join(self.state_dir, f"inst-{inst.id}")

    def _script(self, *args, env=None, timeout):
        """test-hosts.sh ARGS; None (and a log line) when it could not run or timed out."""
        try:
            return subprocess.run(["/bin/sh", self.hosts_script, *args], capture_output=True,
                                  text=True, env=env, timeout=timeout, check=False)
        except (OSError, subprocess.SubprocessError) as e:
            self.log(f"test-hosts.sh {args[0]} {args[1]}: {e}")
            return None

    def _host_up(self, inst):
        """Brings up the instance's test host with the launch's SSH key and host key; False
        (with inst.reason set and logged) when that fails."""
        d = self._host_dir(inst)
        env = dict(os.environ)
        keys_file = d + ".authorized_keys"
        with open(keys_file, "w", encoding="utf-8") as f:
            f.write("".join(k + "\n" for k in inst.authorized_keys))
        env["TEST_HOSTS_AUTHORIZED_KEYS"] = keys_file
        env.pop("TEST_HOSTS_HOST_KEY", None)
        if inst.host_key is not None:
            key_file = d + ".host_key"
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(inst.host_key[0])
            if os.path.exists(key_file + ".pub"):
                os.unlink(key_file + ".pub")
            if inst.host_key[1]:
                with open(key_file + ".pub", "w", encoding="utf-8") as f:
                    f.write(inst.host_key[1].strip() + "\n")
            env["TEST_HOSTS_HOST_KEY"] = key_file
        r = self._script("up", d, "1", env=env, timeout=HOST_UP_TIMEOUT_S)
        fields = r.stdout.split() if r is not None and r.returncode == 0 else []
        if len(fields) != 3:
            detail = "did not finish" if r is None else \
                (r.stderr.strip() or r.stdout.strip() or f"exit code {r.returncode}")
            inst.reason = f"test-hosts.sh up failed: {detail}"
            self.log(f"instance {inst.id}: {inst.reason}")
            return False
        with self.lock:
            inst.host = {"name": fields[0], "address": fields[1], "ns": fields[2], "dir": d}
        self.log(f"instance {inst.id}: test host {fields[0]} at {fields[1]} ({fields[2]})")
        return True

    def _host_down(self, inst):
        """Takes the instance's test host down (a no-op when it never came up)."""
        d = self._host_dir(inst)
        r = self._script("down", d, timeout=HOST_DOWN_TIMEOUT_S)
        if r is None or r.returncode != 0:
            self.log(f"instance {inst.id}: test-hosts.sh down failed: "
                     f"{'' if r is None else r.stderr.strip()}")
        elif inst.host is not None:
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
        killed with SIGKILL leaves them; the next one on the same folder cleans up)."""
        if not self.hosts_script:
            return
        for subnet in glob.glob(os.path.join(self.state_dir, "inst-*", "subnet")):
            d = os.path.dirname(subnet)
            self.log(f"taking down the test hosts left in {d}")
            self._script("down", d, timeout=HOST_DOWN_TIMEOUT_S)

    def close(self):
        """Ends every instance and waits until their hosts are down; then runs 'down' on any
        host folder left, so that no namespace or bridge outlives the fake."""
        self.closing.set()
        self._end_all("the fake is stopping")
        self._take_down_leftovers()
