#!/usr/bin/python3
"""A faithful local double of Lambda Cloud's public REST API (https://cloud.lambda.ai/api/v1,
OpenAPI v1.10.0) for Tessera's Lambda Cloud provider tests: no cloud API can be reached from
the tests, so they talk to this on 127.0.0.1. Its instances are real test hosts
(tests/support/test-hosts.sh: a network namespace with its own sshd at 198.18.K.(10+i)) that
accept the launch's SSH key and use the host key of the launch's cloud-config. All instances of
one fake share one bridge and subnet (a region's network: they reach each other), and each host
enforces the account's firewall with nftables, as the real cloud does: "By default, Lambda
allows only incoming ICMP traffic and traffic on port 22 (SSH)" (Lambda's Firewalls page), so a
port the provider did not open is really closed, from the tests' machine (198.18.K.1) as from
the other instances. The documented rate limits are on by default.

    /usr/bin/python3 tests/support/fake-lambda-cloud.py (--api-key KEY | --api-key-file F)
        --state-dir DIR [--port 0] [--boot-seconds S] [--hosts-script tests/support/test-hosts.sh]
        [--no-hosts] [--catalog F] [--terminated-retention S] [--no-rate-limits]
        [--enforce-rate-limits (accepted, a no-op: the limits are on unless --no-rate-limits)]

Prints one line "listening on http://127.0.0.1:PORT/api/v1" once it serves, then logs to stderr
(never the API key). SIGTERM or SIGINT takes down every test host it brought up, those still
coming up included, and exits 0. The hosts live in DIR/hosts (test-hosts.sh up DIR/hosts 0 at
the first launch, one `add` per instance, its index the order of the adds); a fake killed with
SIGKILL leaves them to the next one on the same state folder, which takes them down at start.

The API lives under /api/v1 (instance-types, instances, instances/{id},
instance-operations/launch and /terminate, ssh-keys, ssh-keys/{id}, file-systems, regions,
firewall-rules, firewall-rulesets, firewall-rulesets/global, firewall-rulesets/{id}; a launch
may name firewall_rulesets [{"id"}] of its region). Where the spec is silent the double's
choice is marked "not documented" in the code (fake_lambda_api.py, fake_lambda_firewall.py).
Tests steer the fake through /_fake/ (JSON in and out, no key needed, never rate limited):

    GET  /_fake/state                    everything the fake holds, hosts and hidden ones included;
                                         per instance "firewall" {"rules" (applied; null: open),
                                         "nft", "error"} and "host_key" {"delay", "applied"};
                                         "rate_limited" (429s the limits sent) and
                                         "requests_per_path" {"/api/v1/...": count}
    POST /_fake/reset                    a fresh account: every instance ended (hosts down) and
                                         forgotten, no SSH keys, no rulesets, the default global
                                         firewall rules, all settings, counters and the log cleared
    GET  /_fake/log   DELETE /_fake/log  the API requests received (method, path, time, status,
                                         auth scheme, body with user_data's size only)
    POST /_fake/capacity      {"instance_type", "regions": [names] | {name: launches left}}
    POST /_fake/rate-limit    {"count", "retry_after": S, "path"?, "method"?, "html"?}
    POST /_fake/rate-limits   {"enforce": bool}   the documented limits: 1 request/s, launch 1/12 s
                                                   with bursts of 5 a minute (on by default)
    POST /_fake/fail          {"count", "status": 503, "html"?, "path"?, "method"?, "apply"?,
                               "code"?, "message"?}  ("apply": the request takes effect, the reply
                               is the failure; "count": 0 clears every fail and rate-limit rule)
    POST /_fake/boot-seconds  {"seconds"}
    POST /_fake/hold-launch   {"seconds": S | null (until the fake stops), "drop"?, "count"?}
                               the launch reply waits after the instance is recorded (replies
                               held by an earlier hold go out now); "drop" closes the connection
                               instead of replying; "count": for that many launches (else all)
    POST /_fake/quota         {"max_instances": N | null}
    POST /_fake/account       {"status": "active" | "inactive" | "invalid-address"}
    POST /_fake/retention     {"seconds"}   how long terminated instances stay visible by ID
    POST /_fake/file-systems  {"name", "region"}
    POST /_fake/firewall      {"enforce": bool}  false: every host open (no nftables table), as
                               before firewalls were modelled; true (the default): enforced
    POST /_fake/tags          {"listed": bool}   false: every Instance the API returns (list, by
                               ID, terminate's reply) leaves out "tags" (optional in the spec);
                               the fake still knows them (true, the default: shown)
    POST /_fake/host-key-delay {"seconds": S | null}  for later launches with a cloud-config host
                               key: the host starts with a fresh key of its own (an image's,
                               before cloud-init ran) and gets the launch's S seconds after it
                               turned active; null: never; 0 (the default): from the start
    POST /_fake/instances/{id}/status  {"status": booting|active|unhealthy|preempted|terminated}
    POST /_fake/instances/{id}/vanish  gone from every answer, its host taken down
    POST /_fake/instances/{id}/host    {"action": "kill" | "cut" | "mend"}  (test-hosts.sh)
"""

import argparse
import base64
import hmac
import http
import json
import os
import shutil
import signal
import sys
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fake_lambda_api as api  # noqa: E402
import fake_lambda_firewall as fw  # noqa: E402
from fake_lambda_control import REQUIRED, Faults, RateLimiter, flag, number, text  # noqa: E402
from fake_lambda_state import Cloud  # noqa: E402

API_PREFIX = "/api/v1"
MAX_BODY_BYTES = 8 * 1024 * 1024  # user_data's 1 MB, JSON-escaped at worst, fits


def log(message):
    """One line on stderr, with the time."""
    now = time.time()
    stamp = time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now % 1 * 1000):03d}"
    sys.stderr.write(f"fake-lambda-cloud {stamp} {message}\n")
    sys.stderr.flush()


class Dropped(Exception):
    """The launch reply is not to come: the connection closes without an answer."""


class FakeServer(ThreadingHTTPServer):
    """The HTTP server with the fake's state attached."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, cloud, api_key, enforce_rate_limits):
        super().__init__(address, Handler)
        self.cloud = cloud
        self.api_key = api_key
        self.faults = Faults()
        self.enforce_rate_limits = enforce_rate_limits
        self.limiter = RateLimiter(enforce_rate_limits)
        self.requests = []
        self.requests_lock = threading.Lock()
        self.rate_limited = 0          # 429s the limiter sent (not those of /_fake/rate-limit)
        self.requests_per_path = {}    # API path: requests received
        self.hold = {"seconds": 0, "drop": False, "count": None}
        # Held launch replies wait on this until their time is up, the tests change the hold
        # (a new generation) or the fake stops.
        self.hold_changed = threading.Condition()
        self.hold_generation = 0
        self.closing = threading.Event()

    def set_hold(self, hold):
        """A new hold for launch replies; replies held by the old one go out now."""
        with self.hold_changed:
            self.hold = hold
            self.hold_generation += 1
            self.hold_changed.notify_all()

    def wait_hold(self, seconds, generation):
        """Waits `seconds` (None: until the fake stops) or until the hold is no longer the one of
        `generation` (what take_hold returned: a hold set in between releases it too)."""
        with self.hold_changed:
            self.hold_changed.wait_for(
                lambda: self.closing.is_set() or self.hold_generation != generation, seconds)

    def stop_holding(self):
        """Lets every held launch reply go (the fake stops)."""
        with self.hold_changed:
            self.closing.set()
            self.hold_changed.notify_all()

    def reset(self):
        """Everything the tests steered back to the start: no faults, no hold, the command
        line's rate limits (with full buckets), an empty request log and counters (the account
        itself: Cloud.reset)."""
        self.faults.add({"count": 0})
        self.limiter = RateLimiter(self.enforce_rate_limits)
        self.set_hold({"seconds": 0, "drop": False, "count": None})
        with self.requests_lock:
            self.requests.clear()
            self.rate_limited = 0
            self.requests_per_path.clear()

    def scrub(self, value):
        """`value` (str, list, dict) with every occurrence of the API key replaced."""
        if isinstance(value, str):
            return value.replace(self.api_key, "<api key>") if self.api_key in value else value
        if isinstance(value, list):
            return [self.scrub(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub(v) for k, v in value.items()}
        return value

    def take_hold(self):
        """(seconds or None, drop, generation) for this launch's reply, or None to reply at once.
        The generation is the hold's as taken, so a new hold set before the reply starts waiting
        still releases it."""
        with self.hold_changed:
            h = self.hold
            if h["seconds"] == 0 and not h["drop"]:
                return None
            generation = self.hold_generation
            if h["count"] is not None:
                h["count"] -= 1
                if h["count"] <= 0:
                    self.hold = {"seconds": 0, "drop": False, "count": None}
            return h["seconds"], h["drop"], generation


class BadRequest(Exception):
    """A request the fake cannot read (body size, encoding)."""


class Handler(BaseHTTPRequestHandler):
    """One HTTP request: the API under /api/v1, the tests' controls under /_fake/."""

    protocol_version = "HTTP/1.1"
    server_version = "fake-lambda-cloud"
    sys_version = ""
    timeout = 60  # a client that stops sending mid-request loses its connection

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        """Silenced: the fake logs each request itself, without the default's details."""

    def do_GET(self):
        self._handle()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    # -- plumbing -----------------------------------------------------------------------------

    def _handle(self):
        path = urllib.parse.urlsplit(self.path).path
        try:
            raw = self._read_body()
        except BadRequest as e:
            self.close_connection = True
            self._send_json(400, api.invalid(str(e)).body(), close=True)
            log(f"{self.command} {self.server.scrub(path)}: 400 ({e})")
            return
        if path == "/_fake" or path.startswith("/_fake/"):
            self._control(path, raw)
        elif path == API_PREFIX or path.startswith(API_PREFIX + "/"):
            self._api(path, raw)
        else:
            self._send_error(api.not_found())

    def _read_body(self):
        """The request body (chunked or with Content-Length), at most MAX_BODY_BYTES."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks, size = [], 0
            while True:
                line = self.rfile.readline(1024)
                try:
                    n = int(line.split(b";")[0].strip(), 16)
                except ValueError:
                    raise BadRequest("malformed chunked body") from None
                if n == 0:
                    while self.rfile.readline(1024).strip():
                        pass
                    return b"".join(chunks)
                size += n
                if size > MAX_BODY_BYTES:
                    raise BadRequest("Request body is too large.")
                chunks.append(self.rfile.read(n))
                self.rfile.readline(1024)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            n = int(length)
        except ValueError:
            raise BadRequest("Content-Length is not a number.") from None
        if n < 0 or n > MAX_BODY_BYTES:
            raise BadRequest("Request body is too large.")
        return self.rfile.read(n)

    def _send(self, status, data, content_type, headers=None, close=False):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def _send_json(self, status, obj, headers=None, close=False):
        self._send(status, json.dumps(obj).encode("utf-8"), "application/json", headers, close)

    def _send_error(self, err):
        self._send_json(err.status, err.body(), err.headers)

    def handle_one_request(self):
        """The base class's, quiet when a client goes away mid-request."""
        try:
            super().handle_one_request()
        except ConnectionError:
            self.close_connection = True

    @staticmethod
    def _json(raw, required=True):
        """The request body as a JSON object, or ApiError 400 (never a traceback)."""
        if not raw.strip():
            if required:
                raise api.invalid("Invalid request data: the body must be a JSON object.")
            return {}

        def no_constant(name):
            raise ValueError(f"{name} is not JSON")
        try:
            value = json.loads(raw.decode("utf-8"), parse_constant=no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise api.invalid("Invalid request data: the body is not valid JSON.") from None
        if not isinstance(value, dict):
            raise api.invalid("Invalid request data: the body must be a JSON object.")
        return value

    # -- the API ------------------------------------------------------------------------------

    def _api(self, path, raw):
        server = self.server
        started = time.monotonic()
        entry = {"time": time.time(), "method": self.command, "path": path, "status": None,
                 "auth": None}
        with server.requests_lock:  # in the order of arrival; filled in as the request goes
            entry["seq"] = len(server.requests) + 1
            server.requests.append(entry)
            server.requests_per_path[path] = server.requests_per_path.get(path, 0) + 1
        api_path = path[len(API_PREFIX):] or "/"
        try:
            rule = server.faults.take(self.command, api_path, apply=False)
            if rule is not None:
                entry["fault"] = rule["status"]
                self._send_fault(rule, entry)
                return
            entry["auth"] = self._authenticate()
            if server.cloud.account == "inactive":
                raise api.account_inactive()
            wait = server.limiter.take(api_path == "/instance-operations/launch")
            if wait:
                with server.requests_lock:
                    server.rate_limited += 1
                entry["rate_limited"] = True
                raise api.rate_limited(wait)
            status, data = self._route(api_path, raw, entry)
            rule = server.faults.take(self.command, api_path, apply=True)
            if rule is not None:
                entry["fault"] = rule["status"]
                self._send_fault(rule, entry)
                return
            entry["status"] = status
            self._send_json(status, {"data": data})
        except api.ApiError as e:
            entry["status"] = e.status
            entry["error"] = e.code
            self._send_error(e)
        except Dropped:
            entry["status"] = "dropped"
            self.close_connection = True
        except ConnectionError:
            entry["client"] = "gone before the reply"
            self.close_connection = True
        except Exception:  # noqa: BLE001 (a bug in the fake answers 500 and says where)
            log("internal error:\n" + server.scrub(traceback.format_exc()))
            entry["status"] = 500
            self._send_error(api.internal_error())
        finally:
            gone = " (the client had gone)" if "client" in entry else ""
            log(server.scrub(f"{entry['method']} {entry['path']} {entry['status']} "
                             f"({(time.monotonic() - started) * 1000:.1f} ms){gone}"))

    def _authenticate(self):
        """"bearer" or "basic" for a request that carries the API key, else ApiError 401.
        Basic takes the key as user name with an empty password (curl -u KEY:), or the bare
        key, as the spec's security schemes allow."""
        header = self.headers.get("Authorization", "")
        scheme, _, credential = header.strip().partition(" ")
        credential = credential.strip()
        key = self.server.api_key.encode("utf-8")

        def same(text):
            return hmac.compare_digest(text.encode("utf-8", "replace"), key)
        if scheme.lower() == "bearer" and credential and same(credential):
            return "bearer"
        if scheme.lower() == "basic" and credential:
            if same(credential):
                return "basic"
            try:
                decoded = base64.b64decode(credential, validate=True).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                decoded = None
            if decoded is not None:
                user, colon, password = decoded.partition(":")
                if same(user) and (not colon or password == ""):
                    return "basic"
        raise api.unauthorized()

    def _route(self, path, raw, entry):
        """(status, data) of an authenticated API request, or ApiError."""
        cloud = self.server.cloud
        method = self.command
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/instance-types":
            return 200, cloud.instance_types()
        if method == "GET" and path == "/instances":
            return 200, cloud.list_instances()
        if method == "GET" and len(parts) == 2 and parts[0] == "instances" and parts[1]:
            return 200, cloud.get_instance(urllib.parse.unquote(parts[1]))
        if method == "POST" and path == "/instance-operations/launch":
            body = self._json(raw)
            entry["body"] = summary(body)
            instance_id = cloud.launch(body)
            entry["instance_ids"] = [instance_id]
            self._hold_launch(instance_id)
            return 200, {"instance_ids": [instance_id]}
        if method == "POST" and path == "/instance-operations/terminate":
            body = self._json(raw)
            entry["body"] = summary(body)
            terminated = cloud.terminate(body)
            entry["instance_ids"] = [i["id"] for i in terminated]
            return 200, {"terminated_instances": terminated}
        if method == "GET" and path == "/ssh-keys":
            return 200, cloud.list_ssh_keys()
        if method == "POST" and path == "/ssh-keys":
            body = self._json(raw)
            entry["body"] = summary(body)
            return 200, cloud.add_ssh_key(*api.check_add_ssh_key(body))
        if method == "DELETE" and len(parts) == 2 and parts[0] == "ssh-keys" and parts[1]:
            cloud.delete_ssh_key(urllib.parse.unquote(parts[1]))
            return 200, {}
        if method == "GET" and path == "/file-systems":
            return 200, cloud.list_file_systems()
        if method == "GET" and path == "/regions":
            return 200, [{"name": n, "description": d} for n, d in cloud.regions.items()]
        if parts[0] in ("firewall-rules", "firewall-rulesets"):
            return 200, self._route_firewall(method, parts, raw, entry)
        raise api.not_found()

    def _route_firewall(self, method, parts, raw, entry):
        """The data of a Firewalls request (the spec's Firewalls tag), or ApiError."""
        cloud = self.server.cloud
        if parts == ["firewall-rules"]:
            if method == "GET":
                return cloud.firewall_rules()
            if method == "PUT":
                body = self._json(raw)
                entry["body"] = body
                return cloud.set_firewall_rules(fw.check_rules(body.get("data"), "data"))
        elif parts == ["firewall-rulesets"]:
            if method == "GET":
                return cloud.list_rulesets()
            if method == "POST":
                body = self._json(raw)
                entry["body"] = body
                return cloud.create_ruleset(body)
        elif len(parts) == 2 and parts[1] == fw.GLOBAL_ID and method in ("GET", "PATCH"):
            if method == "GET":
                return cloud.global_ruleset()
            body = self._json(raw)
            entry["body"] = body
            if body.get("rules") is not None:
                cloud.set_firewall_rules(fw.check_rules(body["rules"], "rules"))
            return cloud.global_ruleset()
        elif len(parts) == 2 and parts[1]:
            ruleset_id = urllib.parse.unquote(parts[1])
            if method == "GET":
                return cloud.get_ruleset(ruleset_id)
            if method == "PATCH":
                body = self._json(raw)
                entry["body"] = body
                return cloud.patch_ruleset(ruleset_id, body)
            if method == "DELETE":
                cloud.delete_ruleset(ruleset_id)
                return {}
        raise api.not_found()

    def _hold_launch(self, instance_id):
        """Delays (or drops) the reply of a recorded launch, as tests asked."""
        hold = self.server.take_hold()
        if hold is None:
            return
        seconds, drop, generation = hold
        log(f"launch of {instance_id}: reply held "
            f"{'until the fake stops' if seconds is None else f'{seconds} s'}"
            f"{', then dropped' if drop else ''}")
        self.server.wait_hold(seconds, generation)
        if drop:
            raise Dropped()

    def _send_fault(self, rule, entry):
        """The answer of a fail or rate-limit rule."""
        status = rule["status"]
        entry["status"] = status
        headers = {}
        if status == 429:
            headers["Retry-After"] = str(rule["retry_after"])
        if rule["html"]:
            phrase = http.HTTPStatus(status).phrase
            page = (f"<html>\r\n<head><title>{status} {phrase}</title></head>\r\n<body>\r\n"
                    f"<center><h1>{status} {phrase}</h1></center>\r\n<hr><center>nginx</center>"
                    "\r\n</body>\r\n</html>\r\n")
            self._send(status, page.encode("ascii"), "text/html", headers)
            return
        if status == 429:
            err = api.rate_limited(rule["retry_after"])
        elif status >= 500:
            err = api.internal_error(status)
        else:
            err = api.invalid()
        err.status = status
        err.code = rule["code"] or err.code
        err.message = rule["message"] or err.message
        self._send_json(status, err.body(), headers)

    # -- the tests' controls ------------------------------------------------------------------

    def _control(self, path, raw):
        try:
            if not self.client_address[0].startswith("127."):
                raise api.ApiError(403, "global/forbidden", "The controls answer loopback only.")
            data = self._control_route(path, self._json(raw, required=False))
            self._send_json(200, {"data": data})
            status = 200
        except api.ApiError as e:
            self._send_error(e)
            status = e.status
        except Exception:  # noqa: BLE001
            log("internal error:\n" + self.server.scrub(traceback.format_exc()))
            self._send_error(api.internal_error())
            status = 500
        log(f"control {self.command} {path} {status}")

    def _control_route(self, path, body):
        server = self.server
        cloud = server.cloud
        method = self.command
        parts = path.strip("/").split("/")[1:]
        if method == "GET" and parts == ["state"]:
            return state_of(server)
        if method == "POST" and parts == ["reset"]:
            server.reset()
            cloud.reset()
            return state_of(server)
        if parts == ["log"] and method in ("GET", "DELETE"):
            with server.requests_lock:
                if method == "DELETE":
                    server.requests.clear()
                return server.scrub([dict(e) for e in server.requests])
        if method != "POST":
            raise api.not_found()
        if parts == ["capacity"]:
            cloud.set_capacity(text(body, "instance_type"), body.get("regions"))
            return cloud.instance_types()[body["instance_type"]]
        if parts in (["rate-limit"], ["fail"]):
            is_429 = parts == ["rate-limit"]
            status = 429 if is_429 else number(body, "status", 503, low=400, high=599)
            rule = {"count": number(body, "count", 1, low=0, allow_null=True),
                    "status": status,
                    "retry_after": number(body, "retry_after", 1, low=0),
                    "html": flag(body, "html"), "apply": flag(body, "apply"),
                    "path": text(body, "path", None), "method": text(body, "method", None),
                    "code": text(body, "code", None), "message": text(body, "message", None)}
            server.faults.add(rule)
            return server.faults.state()
        if parts == ["rate-limits"]:
            server.limiter.enforce = flag(body, "enforce")
            return {"enforce": server.limiter.enforce}
        if parts == ["boot-seconds"]:
            with cloud.lock:
                cloud.boot_seconds = number(body, "seconds", None, low=0, real=True)
            return {"seconds": cloud.boot_seconds}
        if parts == ["hold-launch"]:
            seconds = number(body, "seconds", 0, low=0, real=True, allow_null=True)
            hold = {"seconds": seconds, "drop": flag(body, "drop"),
                    "count": number(body, "count", None, low=1, allow_null=True)}
            server.set_hold(hold)
            return hold
        if parts == ["quota"]:
            with cloud.lock:
                cloud.max_instances = number(body, "max_instances", None, low=0,
                                             allow_null=True)
            return {"max_instances": cloud.max_instances}
        if parts == ["account"]:
            status = text(body, "status")
            if status not in ("active", "inactive", "invalid-address"):
                raise api.invalid("status: active, inactive or invalid-address")
            cloud.account = status
            return {"status": status}
        if parts == ["retention"]:
            with cloud.lock:
                cloud.retention_seconds = number(body, "seconds", None, low=0, real=True)
            return {"seconds": cloud.retention_seconds}
        if parts == ["file-systems"]:
            return cloud.add_file_system(text(body, "name"), text(body, "region"))
        if parts == ["firewall"]:
            cloud.set_firewall_enforce(flag(body, "enforce", REQUIRED))
            return {"enforce": cloud.firewall_enforce}
        if parts == ["tags"]:
            with cloud.lock:
                cloud.tags_listed = flag(body, "listed", REQUIRED)
            return {"listed": cloud.tags_listed}
        if parts == ["host-key-delay"]:
            with cloud.lock:
                cloud.host_key_delay = number(body, "seconds", 0, low=0, real=True,
                                              allow_null=True)
            return {"seconds": cloud.host_key_delay}
        if len(parts) == 3 and parts[0] == "instances":
            instance_id = urllib.parse.unquote(parts[1])
            if parts[2] == "status":
                return cloud.set_status(instance_id, text(body, "status"))
            if parts[2] == "vanish":
                cloud.vanish(instance_id)
                return {}
            if parts[2] == "host":
                cloud.host_action(instance_id, text(body, "action"))
                return {}
        raise api.not_found()


def summary(body):
    """A request body for the request log: user_data only by its size."""
    s = dict(body)
    if isinstance(s.get("user_data"), str):
        s["user_data"] = f"<{len(s['user_data'].encode('utf-8'))} bytes>"
    return s


def state_of(server):
    """GET /_fake/state: the fake's whole state."""
    cloud = server.cloud
    with server.requests_lock:
        rate_limited = server.rate_limited
        per_path = server.scrub(dict(server.requests_per_path))  # a path may hold the key
    with cloud.lock:
        return {
            "instances": [i.internal() for i in cloud.instances.values()],
            "ssh_keys": cloud.list_ssh_keys(),
            "capacity": {n: t["capacity"] for n, t in cloud.types.items()},
            "boot_seconds": cloud.boot_seconds,
            "retention_seconds": cloud.retention_seconds,
            "max_instances": cloud.max_instances,
            "account": cloud.account,
            "hosts": cloud.hosts_script is not None,
            "faults": server.faults.state(),
            "hold_launch": dict(server.hold),
            "enforce_rate_limits": server.limiter.enforce,
            "firewall": dict(cloud.firewalls.state(), enforce=cloud.firewall_enforce),
            "tags_listed": cloud.tags_listed,
            "host_key_delay": cloud.host_key_delay,
            "rate_limited": rate_limited,
            "requests_per_path": per_path,
        }


# -- the program ------------------------------------------------------------------------------


def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description="A local double of Lambda Cloud's REST API.")
    key = p.add_mutually_exclusive_group(required=True)
    key.add_argument("--api-key", help="the API key clients must send")
    key.add_argument("--api-key-file", help="a file holding the API key")
    p.add_argument("--state-dir", required=True, help="where test hosts and key files go")
    p.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: any free)")
    p.add_argument("--boot-seconds", type=float, default=0.0,
                   help="seconds from launch to active (at least until the host is up)")
    p.add_argument("--hosts-script", default=os.path.join(here, "test-hosts.sh"),
                   help="test-hosts.sh, which makes the instances' hosts")
    p.add_argument("--no-hosts", action="store_true",
                   help="no real hosts: instances get 198.18.255.x addresses nothing answers on")
    p.add_argument("--catalog", help="a JSON file with instance types, regions, file systems")
    p.add_argument("--terminated-retention", type=float, default=60.0,
                   help="seconds a terminated instance stays visible by ID")
    p.add_argument("--no-rate-limits", action="store_true",
                   help="never answer 429 on its own (the documented limits, 1/s and launch "
                        "1/12 s with bursts of 5 a minute, are on by default)")
    p.add_argument("--enforce-rate-limits", action="store_true",
                   help="accepted for older callers; a no-op (the limits are on by default)")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.api_key_file:
        try:
            with open(args.api_key_file, encoding="utf-8") as f:
                api_key = f.read().strip()
        except OSError as e:
            print(f"fake-lambda-cloud: cannot read the API key file: {e.strerror}",
                  file=sys.stderr)
            return 2
    else:
        api_key = args.api_key.strip()
    if not api_key:
        print("fake-lambda-cloud: the API key is empty", file=sys.stderr)
        return 2
    try:
        catalog = api.load_catalog(args.catalog) if args.catalog else api.built_in_catalog()
    except (OSError, ValueError) as e:
        print(f"fake-lambda-cloud: {e}", file=sys.stderr)
        return 2
    state_dir = os.path.abspath(args.state_dir)
    os.makedirs(state_dir, exist_ok=True)
    hosts_script = None if args.no_hosts else os.path.abspath(args.hosts_script)
    if hosts_script is not None:
        if not os.path.isfile(hosts_script):
            print(f"fake-lambda-cloud: no hosts script at {hosts_script}", file=sys.stderr)
            return 2
        if os.geteuid() != 0:
            log("not root: test-hosts.sh cannot make hosts, so instances will turn unhealthy")
        elif not shutil.which("nft") and not os.path.exists("/usr/sbin/nft"):
            log("'nft' is missing: the hosts cannot enforce the firewall, so instances will turn "
                "unhealthy (apt-get install nftables; or /_fake/firewall {\"enforce\": false} "
                "before launching)")
    cloud = Cloud(catalog, state_dir, hosts_script, args.boot_seconds,
                  args.terminated_retention, log)
    server = FakeServer(("127.0.0.1", args.port), cloud, api_key, not args.no_rate_limits)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                               name="http", daemon=True)
    serving.start()
    port = server.server_address[1]
    print(f"listening on http://127.0.0.1:{port}{API_PREFIX}", flush=True)
    log(f"state in {state_dir}; "
        f"{'no hosts' if hosts_script is None else 'hosts by ' + hosts_script}")
    try:
        while not stop.wait(0.5):
            pass
        log("stopping" + (": taking down the test hosts" if hosts_script else ""))
    finally:
        server.stop_holding()
        server.shutdown()
        cloud.close()
        server.server_close()
    log("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
