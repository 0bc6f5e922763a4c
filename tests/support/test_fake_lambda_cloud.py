#!/usr/bin/python3
"""Tests of the fake Lambda Cloud (tests/support/fake-lambda-cloud.py), the double that
Tessera's Lambda Cloud provider is tested against: its endpoints, fields and errors as Lambda's
OpenAPI description has them (firewall rules and rulesets included), 429 with Retry-After and
the documented rate limits (on by default, counted), capacity, quota, the terminate lifecycle,
the /_fake/ controls, hostile input, and that the API key never shows up in its output. Without
hosts (--no-hosts) everywhere; with root, iproute2, openssh and nftables also with real test
hosts: an instance launched with a generated key and a cloud-config host key answers ssh with
exactly that host key (at once, after a delay, or never, as the test asks); instances share one
subnet and their firewalls let in only what the rules allow; no namespace, bridge or veth
outlives an instance or the fake. Most tests run with --no-rate-limits (faster); their waits
have deadlines, never fixed sleeps.

    /usr/bin/python3 tests/support/test_fake_lambda_cloud.py [-v] [TestClass.test_name]
"""

import base64
import http.client
import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake-lambda-cloud.py")
PYTHON = "/usr/bin/python3"

sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import fake_lambda_api  # noqa: E402

A10 = "gpu_1x_a10"


def wait_for(predicate, timeout, what):
    """predicate()'s first truthy value within `timeout` seconds, else a test failure."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


class Fake:
    """One fake-lambda-cloud.py process and an HTTP client for it."""

    def __init__(self, *extra, hosts=False, rate_limits=False):
        self.tmp = tempfile.mkdtemp(prefix="fake-lambda-test-")
        self.key = "lk-" + secrets.token_hex(12)
        key_file = os.path.join(self.tmp, "api-key")
        with open(key_file, "w", encoding="utf-8") as f:
            f.write(self.key + "\n")
        self.state_dir = os.path.join(self.tmp, "state")
        self.stderr_path = os.path.join(self.tmp, "stderr.txt")
        self.stderr = open(self.stderr_path, "w", encoding="utf-8")  # noqa: SIM115
        cmd = [PYTHON, FAKE, "--api-key-file", key_file, "--state-dir", self.state_dir,
               "--port", "0", *extra]
        if not hosts:
            cmd.append("--no-hosts")
        if not rate_limits:  # the documented limits are on by default; most tests are quicker
            cmd.append("--no-rate-limits")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith("listening on http://127.0.0.1:"):
            self.stop()
            raise AssertionError(f"the fake did not start: {line!r}\n{self.stderr_text()}")
        self.first_line = line
        self.base = line.split()[-1]
        self.port = int(self.base.split(":")[2].split("/")[0])

    def request(self, method, path, body=None, headers=None, raw=None, timeout=30):
        """(status, response, parsed body) of one request on a fresh connection."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = raw if raw is not None else \
                (json.dumps(body).encode("utf-8") if body is not None else None)
            conn.request(method, path, body=data, headers=headers or {})
            r = conn.getresponse()
            payload = r.read()
        finally:
            conn.close()
        if r.getheader("Content-Type", "").startswith("application/json"):
            return r.status, r, json.loads(payload)
        return r.status, r, payload.decode("utf-8", "replace")

    def call(self, method, path, body=None, key=None, **kw):
        """An API request (path below /api/v1) with the API key as a Bearer token."""
        headers = dict(kw.pop("headers", {}))
        headers.setdefault("Authorization", f"Bearer {key or self.key}")
        return self.request(method, "/api/v1" + path, body, headers=headers, **kw)

    def control(self, method, path, body=None):
        """A /_fake/ control request; fails the test unless it answers 200."""
        status, _, reply = self.request(method, "/_fake/" + path, body)
        if status != 200:
            raise AssertionError(f"control {path}: {status} {reply}")
        return reply["data"]

    def add_key(self, name="k1", public_key=None):
        if public_key is None:
            public_key = "ssh-ed25519 " + base64.b64encode(
                b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + secrets.token_bytes(32)).decode() + " t"
        status, _, reply = self.call("POST", "/ssh-keys", {"name": name,
                                                            "public_key": public_key})
        assert status == 200, reply
        return reply["data"]

    def launch(self, **fields):
        body = {"region_name": "us-east-1", "instance_type_name": A10,
                "ssh_key_names": ["k1"], "file_system_names": [], "quantity": 1,
                "name": "node-1"}
        body.update(fields)
        return self.call("POST", "/instance-operations/launch", body)

    def instance(self, instance_id):
        status, _, reply = self.call("GET", f"/instances/{instance_id}")
        return reply["data"] if status == 200 else None

    def stop(self):
        """SIGTERM; the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=200)
        finally:
            self.proc.stdout.close()
            self.stderr.close()
        return code

    def stderr_text(self):
        """What the fake wrote to stderr so far."""
        with open(self.stderr_path, encoding="utf-8") as f:
            return f.read()

    def cleanup(self):
        if self.proc.poll() is None:
            self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


class FakeTestCase(unittest.TestCase):
    """A fresh fake without hosts for every test."""

    extra_args = ("--boot-seconds", "0.3")

    def setUp(self):
        self.fake = Fake(*self.extra_args)
        self.addCleanup(self.fake.cleanup)

    def assertError(self, reply, status, code, http_status, text=None):
        """The reply is the API's error object with this status and code (and message text)."""
        self.assertEqual(http_status, status, reply)
        self.assertIsInstance(reply, dict, reply)
        self.assertEqual(set(reply), {"error"}, reply)
        self.assertEqual(reply["error"]["code"], code, reply)
        self.assertIsInstance(reply["error"]["message"], str)
        if text is not None:
            self.assertIn(text, reply["error"]["message"])

    def active(self, instance_id, timeout=10):
        return wait_for(lambda: (i := self.fake.instance(instance_id)) and
                        i["status"] == "active" and i, timeout, f"{instance_id} active")


class AuthTest(FakeTestCase):
    def test_the_first_line_names_the_api_base_url(self):
        self.assertRegex(self.fake.first_line, r"^listening on http://127\.0\.0\.1:\d+/api/v1\n$")

    def test_a_missing_or_wrong_key_is_401_with_the_documented_body(self):
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer"},
                        {"Authorization": "Basic " + base64.b64encode(
                            (self.fake.key + ":pw").encode()).decode()},
                        {"Authorization": "Basic %%%"}, {"Authorization": "Token x"}):
            status, _, reply = self.fake.request("GET", "/api/v1/instances", headers=headers)
            self.assertEqual(401, status, headers)
            self.assertEqual(reply, {"error": {
                "code": "global/invalid-api-key",
                "message": "API key was invalid, expired, or deleted.",
                "suggestion": "Check your API key or create a new one, then try again."}})

    def test_bearer_and_basic_with_the_key_pass(self):
        key = self.fake.key
        for value in (f"Bearer {key}", "Basic " + base64.b64encode(f"{key}:".encode()).decode(),
                      f"Basic {key}"):
            status, _, reply = self.fake.request("GET", "/api/v1/instances",
                                                 headers={"Authorization": value})
            self.assertEqual((200, {"data": []}), (status, reply), value)

    def test_an_inactive_account_is_403(self):
        self.fake.control("POST", "account", {"status": "inactive"})
        status, _, reply = self.fake.call("GET", "/instance-types")
        self.assertError(reply, 403, "global/account-inactive", status)
        self.fake.control("POST", "account", {"status": "invalid-address"})
        self.fake.add_key()
        status, _, reply = self.fake.launch()
        self.assertError(reply, 403, "global/invalid-address", status)


class CatalogTest(FakeTestCase):
    def test_instance_types_have_the_documented_fields(self):
        status, _, reply = self.fake.call("GET", "/instance-types")
        self.assertEqual(200, status)
        types = reply["data"]
        for name in (A10, "gpu_1x_a100_sxm4", "gpu_1x_h100_pcie", "gpu_8x_a100_80gb_sxm4",
                     "gpu_8x_h100_sxm5"):
            item = types[name]
            self.assertEqual({"instance_type", "regions_with_capacity_available"}, set(item))
            t = item["instance_type"]
            self.assertEqual({"name", "description", "gpu_description", "price_cents_per_hour",
                              "specs"}, set(t))
            self.assertEqual(name, t["name"])
            self.assertEqual({"vcpus", "memory_gib", "storage_gib", "gpus"}, set(t["specs"]))
            for region in item["regions_with_capacity_available"]:
                self.assertEqual({"name", "description"}, set(region))
        self.assertEqual(75, types[A10]["instance_type"]["price_cents_per_hour"])
        self.assertEqual(2392, types["gpu_8x_h100_sxm5"]["instance_type"]["price_cents_per_hour"])

    def test_capacity_follows_the_control_and_refuses_launches(self):
        self.fake.add_key()
        self.fake.control("POST", "capacity", {"instance_type": A10, "regions": []})
        _, _, reply = self.fake.call("GET", "/instance-types")
        self.assertEqual([], reply["data"][A10]["regions_with_capacity_available"])
        status, _, reply = self.fake.launch()
        self.assertError(reply, 400, "instance-operations/launch/insufficient-capacity", status)
        self.fake.control("POST", "capacity", {"instance_type": A10, "regions": {"us-west-1": 1}})
        status, _, reply = self.fake.launch()
        self.assertError(reply, 400, "instance-operations/launch/insufficient-capacity", status)
        status, _, reply = self.fake.launch(region_name="us-west-1")
        self.assertEqual(200, status, reply)
        _, _, types = self.fake.call("GET", "/instance-types")
        self.assertEqual([], types["data"][A10]["regions_with_capacity_available"])
        status, _, reply = self.fake.launch(region_name="us-west-1")
        self.assertError(reply, 400, "instance-operations/launch/insufficient-capacity", status)
        status, _, reply = self.fake.request("POST", "/_fake/capacity",
                                             {"instance_type": A10, "regions": ["nowhere-1"]})
        self.assertEqual(400, status, reply)

    def test_a_catalog_file_replaces_the_instance_types(self):
        path = os.path.join(self.fake.tmp, "catalog.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"regions": {"lab-1": "The lab"},
                       "instance_types": {"gpu_2x_test": {
                           "gpu_description": "Test (1 GB)", "price_cents_per_hour": 1,
                           "specs": {"vcpus": 2, "memory_gib": 4, "storage_gib": 8, "gpus": 2},
                           "capacity": {"lab-1": 2}}},
                       "file_systems": [{"name": "shared", "region": "lab-1"}]}, f)
        fake = Fake("--catalog", path)
        self.addCleanup(fake.cleanup)
        _, _, reply = fake.call("GET", "/instance-types")
        self.assertEqual(["gpu_2x_test"], list(reply["data"]))
        item = reply["data"]["gpu_2x_test"]
        self.assertEqual("2x Test (1 GB)", item["instance_type"]["description"])
        self.assertEqual([{"name": "lab-1", "description": "The lab"}],
                         item["regions_with_capacity_available"])
        _, _, fs = fake.call("GET", "/file-systems")
        self.assertEqual(["shared"], [f["name"] for f in fs["data"]])
        bad = os.path.join(self.fake.tmp, "bad.json")
        with open(bad, "w", encoding="utf-8") as f:
            f.write('{"instance_types": {"x": {"specs": {}}}}')
        r = subprocess.run([PYTHON, FAKE, "--api-key", "k", "--state-dir", self.fake.tmp,
                            "--no-hosts", "--catalog", bad], capture_output=True, text=True,
                           timeout=30, check=False)
        self.assertEqual(2, r.returncode)
        self.assertIn("instance type 'x'", r.stderr)


class SshKeyTest(FakeTestCase):
    def test_keys_are_added_listed_and_deleted(self):
        key = self.fake.add_key("laptop")
        self.assertEqual({"id", "name", "public_key"}, set(key))
        _, _, reply = self.fake.call("GET", "/ssh-keys")
        self.assertEqual([key], reply["data"])
        status, _, reply = self.fake.call("POST", "/ssh-keys", {"name": "laptop",
                                                               "public_key": key["public_key"]})
        self.assertError(reply, 400, "global/invalid-parameters", status, "name")
        for bad in ("ssh-ed25519", "ssh-ed25519 !!!", "ssh-rsa " + key["public_key"].split()[1],
                    "nonsense AAAA", "a" * 5000):
            status, _, reply = self.fake.call("POST", "/ssh-keys", {"name": "x",
                                                                   "public_key": bad})
            self.assertError(reply, 400, "global/invalid-parameters", status, "public_key")
        status, _, reply = self.fake.call("DELETE", f"/ssh-keys/{key['id']}")
        self.assertEqual((200, {"data": {}}), (status, reply))
        status, _, reply = self.fake.call("DELETE", f"/ssh-keys/{key['id']}")
        self.assertError(reply, 400, "global/invalid-parameters", status)
        _, _, reply = self.fake.call("GET", "/ssh-keys")
        self.assertEqual([], reply["data"])

    @unittest.skipUnless(shutil.which("ssh-keygen"), "ssh-keygen is missing (openssh-client)")
    def test_a_key_without_public_key_is_generated_and_its_private_key_returned_once(self):
        status, _, reply = self.fake.call("POST", "/ssh-keys", {"name": "generated"})
        self.assertEqual(200, status, reply)
        key = reply["data"]
        self.assertEqual({"id", "name", "public_key", "private_key"}, set(key))
        self.assertTrue(key["private_key"].startswith("-----BEGIN RSA PRIVATE KEY-----"))
        path = os.path.join(self.fake.tmp, "generated")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key["private_key"])
        derived = subprocess.run(["ssh-keygen", "-y", "-f", path], capture_output=True,
                                 text=True, check=True).stdout.split()[:2]
        self.assertEqual(derived, key["public_key"].split()[:2])
        _, _, listed = self.fake.call("GET", "/ssh-keys")
        self.assertNotIn("private_key", listed["data"][0])


class LaunchTest(FakeTestCase):
    def test_an_instance_boots_turns_active_and_terminates(self):
        self.fake.add_key()
        status, _, reply = self.fake.launch(tags=[{"key": "tessera:cluster", "value": "c1"}],
                                            user_data="#!/bin/sh\necho hi\n")
        self.assertEqual(200, status, reply)
        self.assertEqual({"instance_ids"}, set(reply["data"]))
        (instance_id,) = reply["data"]["instance_ids"]
        self.assertRegex(instance_id, r"^[0-9a-f]{32}$")
        booting = self.fake.instance(instance_id)
        self.assertEqual("booting", booting["status"])
        for absent in ("ip", "private_ip", "hostname", "jupyter_token", "jupyter_url"):
            self.assertNotIn(absent, booting)
        self.assertEqual(["k1"], booting["ssh_key_names"])
        self.assertEqual([], booting["file_system_names"])
        self.assertEqual({"name": "us-east-1", "description": "Virginia, USA"}, booting["region"])
        self.assertEqual(A10, booting["instance_type"]["name"])
        self.assertEqual("node-1", booting["name"])
        self.assertEqual([{"key": "tessera:cluster", "value": "c1"}], booting["tags"])
        self.assertEqual({"migrate", "rebuild", "restart", "cold_reboot", "terminate"},
                         set(booting["actions"]))
        self.assertTrue(booting["actions"]["terminate"]["available"])
        active = self.active(instance_id)
        self.assertRegex(active["ip"], r"^198\.18\.255\.\d+$")
        self.assertEqual(active["ip"].replace(".", "-"), active["hostname"])
        self.assertIn("jupyter_url", active)
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual([active], listed["data"])

        status, _, reply = self.fake.call("POST", "/instance-operations/terminate",
                                          {"instance_ids": [instance_id]})
        self.assertEqual(200, status, reply)
        (gone,) = reply["data"]["terminated_instances"]
        self.assertEqual((instance_id, "terminating"), (gone["id"], gone["status"]))
        wait_for(lambda: self.fake.instance(instance_id)["status"] == "terminated", 10,
                 "terminated")
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual([], listed["data"])
        status, _, reply = self.fake.call("POST", "/instance-operations/terminate",
                                          {"instance_ids": [instance_id]})
        self.assertError(reply, 404, "global/object-does-not-exist", status)
        self.fake.control("POST", "retention", {"seconds": 0})
        status, _, reply = self.fake.call("GET", f"/instances/{instance_id}")
        self.assertError(reply, 404, "global/object-does-not-exist", status,
                         "Specified instance does not exist.")

    def test_a_requested_hostname_is_the_instance_hostname(self):
        self.fake.add_key()
        _, _, reply = self.fake.launch(hostname="head-1")
        self.assertEqual("head-1", self.active(reply["data"]["instance_ids"][0])["hostname"])

    def test_bad_launch_requests_are_400_naming_the_field(self):
        self.fake.add_key()
        cases = [
            ({"region_name": None}, "region_name"),
            ({"region_name": "mars-1"}, "region_name"),
            ({"instance_type_name": "gpu_99x_z"}, "instance_type_name"),
            ({"instance_type_name": 5}, "instance_type_name"),
            ({"ssh_key_names": []}, "ssh_key_names"),
            ({"ssh_key_names": ["k1", "k2"]}, "ssh_key_names"),
            ({"ssh_key_names": "k1"}, "ssh_key_names"),
            ({"hostname": "Bad_Host"}, "hostname"),
            ({"name": "n" * 65}, "name"),
            ({"tags": [{"key": "Upper", "value": "v"}]}, "tags"),
            ({"tags": [{"key": "k" * 56, "value": "v"}]}, "tags"),
            ({"tags": [{"key": "ok", "value": "v" * 129}]}, "tags"),
            ({"tags": {"key": "ok"}}, "tags"),
            ({"user_data": "x" * (1024 * 1024 + 1)}, "user_data"),
            ({"user_data": 7}, "user_data"),
            ({"quantity": 2}, "quantity"),
            ({"quantity": True}, "quantity"),
            ({"image": {"id": "a", "family": "b"}}, "image"),
            ({"file_system_names": [1]}, "file_system_names"),
        ]
        for fields, field in cases:
            status, _, reply = self.fake.launch(**fields)
            self.assertError(reply, 400, "global/invalid-parameters", status, field)
        for raw in (b"", b"not json", b"[1, 2]", b'{"region_name": NaN}', b"\xff\xfe",
                    b"[" * 100000):
            status, _, reply = self.fake.call("POST", "/instance-operations/launch", raw=raw)
            self.assertError(reply, 400, "global/invalid-parameters", status)
        status, _, reply = self.fake.launch(ssh_key_names=["nobody"])
        self.assertError(reply, 404, "global/object-does-not-exist", status, "nobody")
        self.assertIn("suggestion", reply["error"])
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual([], listed["data"])

    def test_file_systems_must_exist_and_share_the_region(self):
        self.fake.add_key()
        self.fake.control("POST", "file-systems", {"name": "data", "region": "us-west-1"})
        status, _, reply = self.fake.launch(file_system_names=["data"])
        self.assertError(reply, 400, "instance-operations/launch/file-system-in-wrong-region",
                         status)
        status, _, reply = self.fake.launch(file_system_names=["nope"])
        self.assertError(reply, 404, "global/object-does-not-exist", status)
        status, _, reply = self.fake.launch(region_name="us-west-1", file_system_names=["data"])
        self.assertEqual(200, status, reply)
        _, _, fs = self.fake.call("GET", "/file-systems")
        self.assertTrue(fs["data"][0]["is_in_use"])

    def test_the_quota_refuses_launches_beyond_it(self):
        self.fake.add_key()
        self.fake.control("POST", "quota", {"max_instances": 1})
        _, _, first = self.fake.launch()
        status, _, reply = self.fake.launch()
        self.assertError(reply, 400, "global/quota-exceeded", status)
        self.assertEqual("Quota exceeded.", reply["error"]["message"])
        self.fake.call("POST", "/instance-operations/terminate",
                       {"instance_ids": first["data"]["instance_ids"]})
        wait_for(lambda: self.fake.instance(first["data"]["instance_ids"][0])["status"] ==
                 "terminated", 10, "terminated")
        status, _, reply = self.fake.launch()
        self.assertEqual(200, status, reply)

    def test_terminate_refuses_unknown_ids_and_bad_bodies(self):
        self.fake.add_key()
        _, _, launched = self.fake.launch()
        known = launched["data"]["instance_ids"][0]
        status, _, reply = self.fake.call("POST", "/instance-operations/terminate",
                                          {"instance_ids": [known, "0" * 32]})
        self.assertError(reply, 404, "global/object-does-not-exist", status)
        self.assertEqual("booting", self.fake.instance(known)["status"])
        for body in ({}, {"instance_ids": []}, {"instance_ids": "x"}, {"instance_ids": [1]}):
            status, _, reply = self.fake.call("POST", "/instance-operations/terminate", body)
            self.assertError(reply, 400, "global/invalid-parameters", status, "instance_ids")


class ControlTest(FakeTestCase):
    def test_rate_limit_answers_429_with_retry_after(self):
        self.fake.control("POST", "rate-limit", {"count": 2, "retry_after": 7})
        for _ in range(2):
            status, response, reply = self.fake.call("GET", "/instances")
            self.assertEqual(429, status)
            self.assertEqual("7", response.getheader("Retry-After"))
            self.assertEqual({"error"}, set(reply))
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])
        self.fake.control("POST", "rate-limit", {"count": 1, "retry_after": 3, "html": True})
        status, response, reply = self.fake.call("GET", "/instances")
        self.assertEqual((429, "3"), (status, response.getheader("Retry-After")))
        self.assertTrue(response.getheader("Content-Type").startswith("text/html"))
        self.assertIn("429 Too Many Requests", reply)

    def test_enforced_rate_limits_refuse_a_second_request_within_a_second(self):
        self.fake.control("POST", "rate-limits", {"enforce": True})
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])
        status, response, reply = self.fake.call("GET", "/instances")
        self.assertEqual(429, status, reply)
        self.assertGreaterEqual(int(response.getheader("Retry-After")), 1)
        time.sleep(1.05)
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])

    def test_fail_answers_5xx_as_json_or_as_a_proxy_page(self):
        self.fake.control("POST", "fail", {"count": 1, "status": 503})
        status, _, reply = self.fake.call("GET", "/instances")
        self.assertError(reply, 503, "global/internal-error", status)
        self.fake.control("POST", "fail", {"count": 1, "status": 502, "html": True})
        status, response, reply = self.fake.call("GET", "/instances")
        self.assertEqual(502, status)
        self.assertIn("<h1>502 Bad Gateway</h1>", reply)
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])

    def test_fail_can_target_one_endpoint_and_apply_the_request_first(self):
        self.fake.add_key()
        self.fake.control("POST", "fail", {"count": 1, "status": 500, "apply": True,
                                           "path": "/instance-operations/launch"})
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])
        status, _, reply = self.fake.launch()
        self.assertError(reply, 500, "global/internal-error", status)
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual(1, len(listed["data"]), "the failed launch still made an instance")
        self.fake.control("POST", "fail", {"count": None, "status": 503})
        self.assertEqual(503, self.fake.call("GET", "/instances")[0])
        self.assertEqual(503, self.fake.call("GET", "/instances")[0])
        self.fake.control("POST", "fail", {"count": 0})
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])

    def test_a_held_launch_is_recorded_before_its_reply(self):
        self.fake.add_key()
        self.fake.control("POST", "hold-launch", {"seconds": 1.5, "count": 1})
        result = {}
        t = threading.Thread(target=lambda: result.update(reply=self.fake.launch()))
        started = time.monotonic()
        t.start()
        listed = wait_for(lambda: self.fake.call("GET", "/instances")[2]["data"], 5,
                          "the held launch's instance")
        self.assertNotIn("reply", result)
        t.join(10)
        self.assertGreaterEqual(time.monotonic() - started, 1.4)
        self.assertEqual([listed[0]["id"]], result["reply"][2]["data"]["instance_ids"])
        started = time.monotonic()
        self.assertEqual(200, self.fake.launch()[0])
        self.assertLess(time.monotonic() - started, 1.0, "the hold was for one launch")

    def test_a_dropped_launch_reply_never_comes_but_the_instance_exists(self):
        self.fake.add_key()
        self.fake.control("POST", "hold-launch", {"seconds": 0, "drop": True})
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.fake.launch()
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual(1, len(listed["data"]))
        log = self.fake.control("GET", "log")
        self.assertEqual("dropped", log[-2]["status"])

    def test_a_new_hold_releases_the_held_replies(self):
        self.fake.add_key()
        self.fake.control("POST", "hold-launch", {"seconds": 600})
        result = {}
        t = threading.Thread(target=lambda: result.update(reply=self.fake.launch()))
        t.start()
        wait_for(lambda: self.fake.call("GET", "/instances")[2]["data"], 5, "the instance")
        started = time.monotonic()
        self.fake.control("POST", "hold-launch", {"seconds": 0})
        t.join(10)
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(200, result["reply"][0])

    def test_reset_gives_a_fresh_account(self):
        self.fake.add_key()
        instance_id = self.fake.launch()[2]["data"]["instance_ids"][0]
        self.fake.control("POST", "quota", {"max_instances": 0})
        self.fake.control("POST", "capacity", {"instance_type": A10, "regions": []})
        self.fake.control("POST", "fail", {"count": None, "status": 503})
        self.fake.control("POST", "hold-launch", {"seconds": 30})
        self.fake.control("POST", "boot-seconds", {"seconds": 30})
        self.fake.control("POST", "account", {"status": "inactive"})
        state = self.fake.control("POST", "reset", {})
        self.assertEqual(([], [], [], None, "active", 0.3),
                         (state["instances"], state["ssh_keys"], state["faults"],
                          state["max_instances"], state["account"], state["boot_seconds"]))
        self.assertEqual([], self.fake.control("GET", "log"))
        status, _, reply = self.fake.call("GET", f"/instances/{instance_id}")
        self.assertEqual(404, status, reply)
        self.fake.add_key()
        status, _, reply = self.fake.launch()
        self.assertEqual(200, status, reply)
        self.active(reply["data"]["instance_ids"][0])

    def test_status_vanish_and_preemption(self):
        self.fake.add_key()
        ids = [self.fake.launch()[2]["data"]["instance_ids"][0] for _ in range(3)]
        for i in ids:
            self.active(i)
        self.fake.control("POST", f"instances/{ids[0]}/status", {"status": "unhealthy"})
        self.assertEqual("unhealthy", self.fake.instance(ids[0])["status"])
        self.fake.control("POST", f"instances/{ids[1]}/vanish")
        status, _, reply = self.fake.call("GET", f"/instances/{ids[1]}")
        self.assertError(reply, 404, "global/object-does-not-exist", status)
        self.fake.control("POST", f"instances/{ids[2]}/status", {"status": "preempted"})
        self.assertEqual("preempted", self.fake.instance(ids[2])["status"])
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual([ids[0]], [i["id"] for i in listed["data"]])
        status, _, _ = self.fake.request("POST", f"/_fake/instances/{ids[0]}/status",
                                         {"status": "sleeping"})
        self.assertEqual(400, status)

    def test_boot_seconds_control_the_time_to_active(self):
        self.fake.add_key()
        self.fake.control("POST", "boot-seconds", {"seconds": 60})
        instance_id = self.fake.launch()[2]["data"]["instance_ids"][0]
        time.sleep(0.5)
        self.assertEqual("booting", self.fake.instance(instance_id)["status"])
        self.fake.control("POST", f"instances/{instance_id}/status", {"status": "active"})
        self.assertEqual("active", self.fake.instance(instance_id)["status"])

    def test_bad_control_requests_are_400_not_tracebacks(self):
        for path, body in (("quota", {"max_instances": -1}), ("quota", {"max_instances": "x"}),
                           ("boot-seconds", {}), ("fail", {"status": 200}),
                           ("rate-limit", {"retry_after": "soon"}), ("hold-launch",
                                                                     {"drop": "yes"}),
                           ("capacity", {"instance_type": "gpu_99x"}), ("account", {}),
                           ("firewall", {}), ("firewall", {"enforce": "yes"}),
                           ("tags", {"listed": 1}), ("tags", {}),
                           ("host-key-delay", {"seconds": -1}),
                           ("host-key-delay", {"seconds": "soon"})):
            status, _, reply = self.fake.request("POST", "/_fake/" + path, body)
            self.assertIn(status, (400, 404), (path, body, reply))
            self.assertIn("error", reply)
        status, _, _ = self.fake.request("POST", "/_fake/quota", raw=b"{")
        self.assertEqual(400, status)
        self.assertNotIn("Traceback", self.fake.stderr_text())

    def test_tags_can_be_left_out_of_what_the_api_returns(self):
        self.fake.add_key()
        tags = [{"key": "tessera:cluster", "value": "c1"}]
        first = self.fake.launch(tags=tags)[2]["data"]["instance_ids"][0]
        second = self.fake.launch(tags=tags)[2]["data"]["instance_ids"][0]
        self.assertEqual({"listed": False}, self.fake.control("POST", "tags", {"listed": False}))
        _, _, listed = self.fake.call("GET", "/instances")
        self.assertEqual(2, len(listed["data"]))
        for instance in listed["data"] + [self.fake.instance(first)]:
            self.assertNotIn("tags", instance)
            self.assertEqual("node-1", instance["name"])
        _, _, reply = self.fake.call("POST", "/instance-operations/terminate",
                                     {"instance_ids": [second]})
        self.assertNotIn("tags", reply["data"]["terminated_instances"][0])
        state = self.fake.control("GET", "state")
        self.assertFalse(state["tags_listed"])
        self.assertEqual([tags, tags], [i["instance"]["tags"] for i in state["instances"]])
        self.fake.control("POST", "tags", {"listed": True})
        self.assertEqual(tags, self.fake.instance(first)["tags"])

    def test_reset_restores_the_firewall_tags_and_host_key_settings(self):
        status, _, _ = self.fake.call("PUT", "/firewall-rules", {"data": []})
        self.assertEqual(200, status)
        self.fake.call("POST", "/firewall-rulesets", {"name": "r", "region": "us-east-1",
                                                     "rules": []})
        self.fake.control("POST", "firewall", {"enforce": False})
        self.fake.control("POST", "tags", {"listed": False})
        self.assertEqual({"seconds": None},
                         self.fake.control("POST", "host-key-delay", {"seconds": None}))
        state = self.fake.control("POST", "reset", {})
        self.assertEqual((True, True, 0, []),
                         (state["firewall"]["enforce"], state["tags_listed"],
                          state["host_key_delay"], state["firewall"]["rulesets"]))
        self.assertEqual(["SSH", "ICMP"],
                         [r["description"] for r in state["firewall"]["global"]["rules"]])


SSH_RULE = {"protocol": "tcp", "port_range": [22, 22], "source_network": "0.0.0.0/0",
            "description": "SSH"}
ICMP_RULE = {"protocol": "icmp", "source_network": "0.0.0.0/0", "description": "ICMP"}


class FirewallApiTest(FakeTestCase):
    """The Firewalls endpoints of the spec (no hosts: what the API says, not what it does)."""

    def test_the_global_rules_start_as_ssh_and_icmp_and_are_one_list(self):
        status, _, reply = self.fake.call("GET", "/firewall-rulesets/global")
        self.assertEqual((200, {"data": {"id": "global", "name": "Default Workspace Global Rules",
                                         "rules": [SSH_RULE, ICMP_RULE]}}), (status, reply))
        status, _, reply = self.fake.call("GET", "/firewall-rules")
        self.assertEqual((200, {"data": [SSH_RULE, ICMP_RULE]}), (status, reply))
        web = {"protocol": "tcp", "port_range": [443, 443], "source_network": "203.0.113.7",
               "description": "web"}
        status, _, reply = self.fake.call("PUT", "/firewall-rules", {"data": [SSH_RULE, web]})
        self.assertEqual((200, {"data": [SSH_RULE, web]}), (status, reply))
        _, _, reply = self.fake.call("GET", "/firewall-rulesets/global")
        self.assertEqual([SSH_RULE, web], reply["data"]["rules"])
        status, _, reply = self.fake.call("PATCH", "/firewall-rulesets/global", {})
        self.assertEqual((200, [SSH_RULE, web]), (status, reply["data"]["rules"]))
        status, _, reply = self.fake.call("PATCH", "/firewall-rulesets/global",
                                          {"rules": [ICMP_RULE]})
        self.assertEqual((200, [ICMP_RULE]), (status, reply["data"]["rules"]))
        self.assertEqual([ICMP_RULE], self.fake.call("GET", "/firewall-rules")[2]["data"])
        _, _, reply = self.fake.call("GET", "/firewall-rulesets")
        self.assertEqual([], reply["data"], "the global ruleset has a path of its own")
        for method, path in (("DELETE", "/firewall-rules"), ("POST", "/firewall-rules"),
                             ("PUT", "/firewall-rulesets")):
            status, _, reply = self.fake.call(method, path, {})
            self.assertError(reply, 404, "global/not-found", status)

    def test_rulesets_are_created_read_patched_and_deleted(self):
        rules = [{"protocol": "udp", "port_range": [6000, 6010], "source_network": "10.0.0.0/8",
                  "description": ""},
                 {"protocol": "all", "port_range": [1, 65535],
                  "source_network": "198.18.3.12/32", "description": "the other node"},
                 dict(ICMP_RULE, description="Ping für alle " + "x" * 114)]
        status, _, reply = self.fake.call("POST", "/firewall-rulesets",
                                          {"name": "cluster", "region": "us-west-1",
                                           "rules": rules})
        self.assertEqual(200, status, reply)
        made = reply["data"]
        self.assertEqual({"id", "name", "region", "rules", "created", "instance_ids"}, set(made))
        self.assertRegex(made["id"], r"^[0-9a-f]{32}$")
        self.assertEqual(("cluster", {"name": "us-west-1", "description": "California, USA"},
                          rules, []),
                         (made["name"], made["region"], made["rules"], made["instance_ids"]))
        self.assertRegex(made["created"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
        path = f"/firewall-rulesets/{made['id']}"
        self.assertEqual((200, {"data": made}), self.fake.call("GET", path)[::2])
        self.assertEqual([made], self.fake.call("GET", "/firewall-rulesets")[2]["data"])
        status, _, reply = self.fake.call("PATCH", path, {"name": "renamed"})
        self.assertEqual((200, "renamed", rules),
                         (status, reply["data"]["name"], reply["data"]["rules"]))
        status, _, reply = self.fake.call("PATCH", path, {"rules": []})
        self.assertEqual((200, "renamed", []),
                         (status, reply["data"]["name"], reply["data"]["rules"]))
        self.assertEqual((200, {"data": {}}), self.fake.call("DELETE", path)[::2])
        gone = {"error": {
            "code": "global/object-does-not-exist",
            "message": "Firewall ruleset does not exist or you do not have permission to "
                       "access it.",
            "suggestion": "Check your firewall ruleset ID and try again."}}
        for method in ("GET", "PATCH", "DELETE"):
            status, _, reply = self.fake.call(method, path, {"name": "x"})
            self.assertEqual((404, gone), (status, reply), method)
        status, _, reply = self.fake.call("DELETE", "/firewall-rulesets/global")
        self.assertEqual((404, gone), (status, reply))
        self.assertEqual([], self.fake.call("GET", "/firewall-rulesets")[2]["data"])
        body = {"name": "many", "region": "us-east-1", "rules": []}
        self.assertEqual([200] * 100, [self.fake.call("POST", "/firewall-rulesets", body)[0]
                                       for _ in range(100)])
        status, _, reply = self.fake.call("POST", "/firewall-rulesets", body)
        self.assertError(reply, 400, "global/quota-exceeded", status)

    def test_bad_rules_and_rulesets_are_400_naming_the_field(self):
        def rule(**fields):
            """A valid rule changed by `fields` (Ellipsis: the field left out)."""
            r = {"protocol": "tcp", "port_range": [8000, 8000], "source_network": "0.0.0.0/0",
                 "description": "d"}
            r.update(fields)
            return {k: v for k, v in r.items() if v is not Ellipsis}
        bad_rules = [
            rule(protocol="TCP"), rule(protocol=6), rule(protocol=None), rule(protocol="\uff54cp"),
            rule(protocol=...), rule(protocol="icmp"), rule(port_range=...),
            rule(port_range=None), rule(port_range=[0, 1]), rule(port_range=[1, 65536]),
            rule(port_range=[10, 5]), rule(port_range=[22]), rule(port_range=[22, 22, 22]),
            rule(port_range=["22", "22"]), rule(port_range=[True, 22]),
            rule(port_range=[22.0, 22]), rule(port_range="22-22"), rule(port_range={}),
            rule(source_network="1.2.3.4/33"), rule(source_network="256.1.1.1"),
            rule(source_network="1.2.3"), rule(source_network="1.2.3.4/"),
            rule(source_network="1.2.3.4/24/1"), rule(source_network="::/0"),
            rule(source_network="\uff11.2.3.4"), rule(source_network="1.2.3.\u0664"),
            rule(source_network="1.2.3.4 "), rule(source_network="01.2.3.4"),
            rule(source_network=5), rule(source_network=...), rule(source_network=""),
            rule(source_network="1.2.3.4/255.0.0.0"), rule(description="x" * 129),
            rule(description=5), rule(description=...), "tcp", None, [SSH_RULE],
        ]
        for bad in bad_rules:
            status, _, reply = self.fake.call("PUT", "/firewall-rules", {"data": [bad]})
            self.assertError(reply, 400, "global/invalid-parameters", status, "data")
            status, _, reply = self.fake.call("POST", "/firewall-rulesets",
                                              {"name": "n", "region": "us-east-1",
                                               "rules": [SSH_RULE, bad]})
            self.assertError(reply, 400, "global/invalid-parameters", status, "rules[1]")
        for data in (None, "all", {"0": SSH_RULE}, [SSH_RULE] * 1001):
            status, _, reply = self.fake.call("PUT", "/firewall-rules", {"data": data})
            self.assertError(reply, 400, "global/invalid-parameters", status, "data")
        base = {"name": "n", "region": "us-east-1", "rules": []}
        for fields, field in (({"name": None}, "name"), ({"name": "n" * 65}, "name"),
                              ({"name": 5}, "name"), ({"region": None}, "region"),
                              ({"region": "mars-1"}, "region"), ({"region": ["us-east-1"]},
                                                                 "region"),
                              ({"rules": None}, "rules"), ({"rules": ICMP_RULE}, "rules")):
            status, _, reply = self.fake.call("POST", "/firewall-rulesets", {**base, **fields})
            self.assertError(reply, 400, "global/invalid-parameters", status, field)
        for raw in (b"", b"[]", b"{", b"\xff\xfe", b"[" * 100000):
            for method, path in (("PUT", "/firewall-rules"), ("POST", "/firewall-rulesets"),
                                 ("PATCH", "/firewall-rulesets/global")):
                status, _, reply = self.fake.call(method, path, raw=raw)
                self.assertError(reply, 400, "global/invalid-parameters", status)
        made = self.fake.call("POST", "/firewall-rulesets", base)[2]["data"]
        for body in ({"name": "n" * 65}, {"rules": [rule(port_range=[0, 0])]}, {"rules": "x"}):
            status, _, reply = self.fake.call("PATCH", f"/firewall-rulesets/{made['id']}", body)
            self.assertError(reply, 400, "global/invalid-parameters", status)
        kept = self.fake.call("GET", f"/firewall-rulesets/{made['id']}")[2]["data"]
        self.assertEqual(("n", []), (kept["name"], kept["rules"]))
        self.assertEqual([SSH_RULE, ICMP_RULE], self.fake.call("GET", "/firewall-rules")[2]["data"])
        for fine in ("198.18.1.12", "10.0.0.0/8", "0.0.0.0/0", "192.168.1.77/24"):
            status, _, reply = self.fake.call("PUT", "/firewall-rules",
                                              {"data": [rule(source_network=fine)]})
            self.assertEqual(200, status, (fine, reply))
        self.assertNotIn("Traceback", self.fake.stderr_text())

    def test_a_launch_names_rulesets_of_its_region_and_they_know_their_instances(self):
        self.fake.add_key()
        east = self.fake.call("POST", "/firewall-rulesets", {"name": "east",
                                                            "region": "us-east-1",
                                                            "rules": []})[2]["data"]
        west = self.fake.call("POST", "/firewall-rulesets", {"name": "west",
                                                            "region": "us-west-1",
                                                            "rules": []})[2]["data"]
        status, _, reply = self.fake.launch(firewall_rulesets=[{"id": "f" * 32}])
        self.assertError(reply, 404, "global/object-does-not-exist", status, "f" * 32)
        self.assertIn("suggestion", reply["error"])
        status, _, reply = self.fake.launch(firewall_rulesets=[{"id": west["id"]}])
        self.assertError(reply, 400, "global/invalid-parameters", status, "firewall_rulesets")
        for bad in ("x", [{"id": 5}], [east["id"]], [{}]):
            status, _, reply = self.fake.launch(firewall_rulesets=bad)
            self.assertError(reply, 400, "global/invalid-parameters", status, "firewall_rulesets")
        self.assertEqual([], self.fake.call("GET", "/instances")[2]["data"])
        status, _, reply = self.fake.launch(firewall_rulesets=[{"id": east["id"]},
                                                               {"id": east["id"]}])
        self.assertEqual(200, status, reply)
        (instance_id,) = reply["data"]["instance_ids"]
        self.assertEqual([{"id": east["id"]}], self.fake.instance(instance_id)["firewall_rulesets"])
        path = f"/firewall-rulesets/{east['id']}"
        self.assertEqual([instance_id], self.fake.call("GET", path)[2]["data"]["instance_ids"])
        status, _, reply = self.fake.call("DELETE", path)
        self.assertEqual((400, {"error": {
            "code": "firewall-rulesets/firewall-ruleset-in-use",
            "message": "Firewall ruleset is in use by one or more instances.",
            "suggestion": "Terminate all instances that are using the ruleset before deleting "
                          "it."}}), (status, reply))
        self.assertEqual((200, {"data": {}}),
                         self.fake.call("DELETE", f"/firewall-rulesets/{west['id']}")[::2])
        self.fake.call("POST", "/instance-operations/terminate", {"instance_ids": [instance_id]})
        wait_for(lambda: self.fake.instance(instance_id)["status"] == "terminated", 10,
                 "terminated")
        self.assertEqual([], self.fake.call("GET", path)[2]["data"]["instance_ids"])
        self.assertEqual((200, {"data": {}}), self.fake.call("DELETE", path)[::2])


class RateLimitTest(unittest.TestCase):
    """The documented rate limits: on by default, counted in the state, off on request."""

    def fake(self, *extra, rate_limits=True):
        """A fake without hosts, with the documented limits unless `rate_limits` is false."""
        fake = Fake(*extra, rate_limits=rate_limits)
        self.addCleanup(fake.cleanup)
        return fake

    def test_the_limits_are_on_by_default_and_their_429s_are_counted(self):
        fake = self.fake("--enforce-rate-limits")  # accepted: a no-op now
        statuses = [fake.call("GET", "/instances")[0] for _ in range(5)]
        self.assertEqual(200, statuses[0])
        self.assertIn(429, statuses, "five requests in a row within the 1/s limit")
        for _ in range(10):  # the controls are never limited
            state = fake.control("GET", "state")
        self.assertTrue(state["enforce_rate_limits"])
        self.assertEqual(statuses.count(429), state["rate_limited"])
        self.assertEqual({"/api/v1/instances": 5}, state["requests_per_path"])
        log = fake.control("GET", "log")
        self.assertEqual(statuses.count(429), sum(1 for e in log if e.get("rate_limited")))
        self.assertEqual({"enforce": False},
                         fake.control("POST", "rate-limits", {"enforce": False}))
        self.assertEqual([200] * 5, [fake.call("GET", "/ssh-keys")[0] for _ in range(5)])
        state = fake.control("POST", "reset", {})
        self.assertEqual((True, 0, {}), (state["enforce_rate_limits"], state["rate_limited"],
                                         state["requests_per_path"]))

    def test_no_rate_limits_draws_no_429(self):
        fake = self.fake(rate_limits=False)
        fake.add_key()
        self.assertEqual([200] * 6, [fake.launch()[0] for _ in range(6)])
        self.assertEqual([200] * 10, [fake.call("GET", "/instances")[0] for _ in range(10)])
        state = fake.control("GET", "state")
        self.assertEqual((False, 0), (state["enforce_rate_limits"], state["rate_limited"]))
        self.assertEqual(6, state["requests_per_path"]["/api/v1/instance-operations/launch"])


class RobustnessTest(FakeTestCase):
    def test_unknown_paths_and_methods_are_404(self):
        for method, path in (("GET", "/nope"), ("DELETE", "/instances"), ("GET", "/instances/"),
                             ("PUT", "/ssh-keys")):
            status, _, reply = self.fake.call(method, path)
            self.assertError(reply, 404, "global/not-found", status)
        status, _, reply = self.fake.request("GET", "/")
        self.assertEqual(404, status)

    def test_hostile_bodies_are_400_and_the_fake_lives_on(self):
        auth = {"Authorization": f"Bearer {self.fake.key}"}
        for headers in ({"Content-Length": "abc"}, {"Content-Length": str(64 * 1024 * 1024)}):
            conn = http.client.HTTPConnection("127.0.0.1", self.fake.port, timeout=10)
            conn.putrequest("POST", "/api/v1/instance-operations/launch")
            for k, v in {**auth, **headers}.items():
                conn.putheader(k, v)
            conn.endheaders()
            r = conn.getresponse()
            self.assertEqual(400, r.status)
            self.assertEqual("global/invalid-parameters", json.loads(r.read())["error"]["code"])
            conn.close()
        self.fake.add_key()
        conn = http.client.HTTPConnection("127.0.0.1", self.fake.port, timeout=10)
        body = json.dumps({"region_name": "us-east-1", "instance_type_name": A10,
                           "ssh_key_names": ["k1"]}).encode()
        conn.request("POST", "/api/v1/instance-operations/launch", body=iter([body[:10],
                                                                              body[10:]]),
                     headers={**auth, "Transfer-Encoding": "chunked"}, encode_chunked=True)
        self.assertEqual(200, conn.getresponse().status)
        conn.close()
        self.assertEqual(200, self.fake.call("GET", "/instances")[0])
        self.assertNotIn("Traceback", self.fake.stderr_text())

    def test_keep_alive_connections_serve_several_requests(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.fake.port, timeout=10)
        for _ in range(3):
            conn.request("GET", "/api/v1/ssh-keys",
                         headers={"Authorization": f"Bearer {self.fake.key}"})
            r = conn.getresponse()
            self.assertEqual((200, b'{"data": []}'), (r.status, r.read()))
        conn.close()

    def test_the_log_lists_requests_and_nothing_shows_the_key(self):
        key = self.fake.key
        self.fake.add_key()
        self.fake.call("GET", "/instances", key="wrong")
        self.fake.call("GET", f"/instances/{key}")
        self.fake.launch(user_data="#cloud-config\n" + "x" * 100, name=key[:20])
        self.fake.request("GET", f"/api/v1/instances?api_key={key}",
                          headers={"Authorization": "Basic " + base64.b64encode(
                              f"{key}:".encode()).decode()})
        log = self.fake.control("GET", "log")
        self.assertEqual(["POST", "GET", "GET", "POST", "GET"], [e["method"] for e in log])
        self.assertEqual([200, 401, 404, 200, 200], [e["status"] for e in log])
        self.assertEqual(["bearer", None, "bearer", "bearer", "basic"], [e["auth"] for e in log])
        self.assertEqual("/api/v1/instance-operations/launch", log[3]["path"])
        self.assertEqual("<114 bytes>", log[3]["body"]["user_data"])
        self.assertEqual(list(range(1, 6)), [e["seq"] for e in log])
        for e in log:
            self.assertIsInstance(e["time"], float)
        self.assertNotIn(key, json.dumps(log))
        self.assertNotIn(key, json.dumps(self.fake.control("GET", "state")))
        self.assertEqual([], self.fake.control("DELETE", "log"))
        self.assertEqual(0, self.fake.stop())
        self.assertNotIn(key, self.fake.stderr_text())
        self.assertNotIn(key, self.fake.first_line)

    def test_sigterm_ends_the_fake_with_exit_code_0(self):
        self.fake.add_key()
        self.fake.launch()
        self.assertEqual(0, self.fake.stop())
        self.assertIn("stopped", self.fake.stderr_text())


class CloudConfigTest(unittest.TestCase):
    """The host key of a launch's cloud-config, read without a YAML library."""

    PRIVATE = ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
               "QyNTUxOQAAACB\n-----END OPENSSH PRIVATE KEY-----\n")
    PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB host"

    def user_data(self, style="|", public=None):
        body = "".join("    " + line + "\n" for line in self.PRIVATE.splitlines())
        return ("#cloud-config\nssh_deletekeys: true\nssh_genkeytypes: []\n"
                f"ssh_keys:\n  ed25519_private: {style}\n{body}"
                f"  ed25519_public: {public or self.PUBLIC}\nruncmd:\n  - [echo, hi]\n")

    def test_the_tessera_user_data_gives_its_host_key(self):
        self.assertEqual((self.PRIVATE, self.PUBLIC),
                         fake_lambda_api.host_key_from_user_data(self.user_data()))

    def test_block_styles_quotes_and_comments(self):
        got = fake_lambda_api.host_key_from_user_data(
            self.user_data("|-  # strip", public=f"'{self.PUBLIC}'"))
        self.assertEqual((self.PRIVATE, self.PUBLIC), got)

    def test_anything_else_gives_no_host_key(self):
        for text in ("", "#!/bin/sh\necho\n", "#cloud-config\nssh_keys: {}\n",
                     self.user_data().replace("#cloud-config", "# cloud config"),
                     "#cloud-config\nssh_keys:\n  rsa_private: |\n    x\n"):
            self.assertIsNone(fake_lambda_api.host_key_from_user_data(text), text)

    def test_the_parse_agrees_with_pyyaml_where_it_is_installed(self):
        try:
            import yaml  # noqa: PLC0415 (optional: Debian's python3-yaml)
        except ImportError:
            print("\nno python3-yaml: the cloud-config parse is not compared with PyYAML's",
                  file=sys.stderr)
            return
        for style in ("|", "|-", "|+"):
            text = self.user_data(style)
            keys = yaml.safe_load(text)["ssh_keys"]
            self.assertEqual(keys, fake_lambda_api.ssh_keys_from_cloud_config(text), style)


def hosts_missing():
    """Why real test hosts cannot run here, or None."""
    if os.geteuid() != 0:
        return "not root (test hosts are network namespaces)"
    for tool in ("ip", "unshare", "ssh", "ssh-keygen", "ssh-keyscan"):
        if not shutil.which(tool):
            return f"'{tool}' is missing"
    if not os.path.exists("/usr/sbin/sshd"):
        return "'sshd' is missing (openssh-server)"
    if not shutil.which("nft") and not os.path.exists("/usr/sbin/nft"):
        return "'nft' is missing (nftables: the hosts' firewalls)"
    return None


def namespaces():
    """The network namespaces of this machine."""
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=False)
    return {line.split()[0] for line in out.stdout.splitlines() if line.strip()}


def links():
    """The network interfaces of this (the root) namespace."""
    out = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True,
                         check=False)
    return {line.split(":")[1].strip().split("@")[0] for line in out.stdout.splitlines()
            if line.strip()}


def subnet_of(fake):
    """K of the fake's test hosts' subnet 198.18.K.0/24 (read while its hosts are up, then
    remembered for check_no_leftovers)."""
    if getattr(fake, "subnet", None) is None:
        with open(os.path.join(fake.state_dir, "hosts", "subnet"), encoding="ascii") as f:
            fake.subnet = int(f.read())
    return fake.subnet


def leftovers(k):
    """The namespaces and interfaces of subnet K still on this machine."""
    return sorted(n for n in namespaces() if n.startswith(f"tessera-{k}-h")) + \
        sorted(n for n in links() if n == f"tsb{k}" or n.startswith(f"tv{k}h"))


# A TCP client (run in a host's namespace or here): exit 0 when it connects to ADDR:PORT within
# TIMEOUT seconds and reads the listener's greeting, 1 when it cannot.
CONNECT = """import socket, sys
try:
    with socket.create_connection((sys.argv[1], int(sys.argv[2])), float(sys.argv[3])) as c:
        c.settimeout(float(sys.argv[3]))
        sys.exit(0 if c.recv(16) == b"open\\n" else 1)
except OSError:
    sys.exit(1)
"""
# A TCP listener on PORT of every address of its namespace: greets each connection with "open".
LISTEN = """import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.listen(16)
while True:
    c, _ = s.accept()
    c.sendall(b"open\\n")
    c.close()
"""
REFUSE_S = 1.5  # a port the firewall closes: no answer within this (policy drop: a timeout)


def check_no_leftovers(test, fake):
    """A cleanup: once the fake has stopped, nothing of its subnet is left (when its hosts came
    up and the test learnt the subnet)."""
    if getattr(fake, "subnet", None) is not None:
        test.assertEqual([], leftovers(fake.subnet), "left behind by the fake")


def connects(ns, address, port, timeout=REFUSE_S):
    """Whether a TCP client in namespace `ns` (None: this one) reaches address:port."""
    prefix = [] if ns is None else ["ip", "netns", "exec", ns]
    r = subprocess.run([*prefix, PYTHON, "-c", CONNECT, address, str(port), str(timeout)],
                       capture_output=True, timeout=30 + timeout, check=False)
    return r.returncode == 0


def host_key_of(address, ns=None):
    """The ed25519 host key (type and blob) that sshd at `address` shows to namespace `ns`
    (None: this one), or None."""
    prefix = [] if ns is None else ["ip", "netns", "exec", ns]
    r = subprocess.run([*prefix, "ssh-keyscan", "-T", "2", "-t", "ed25519", address],
                       capture_output=True, text=True, timeout=30, check=False)
    for line in r.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] == "ssh-ed25519":
            return " ".join(fields[1:3])
    return None


class RealHostTest(unittest.TestCase):
    """Instances that are test hosts (tests/support/test-hosts.sh) one can ssh to."""

    @classmethod
    def setUpClass(cls):
        reason = hosts_missing()
        if reason:
            print(f"\nskipping the real-host tests: {reason}", file=sys.stderr)
            raise unittest.SkipTest(reason)

    def setUp(self):
        self.fake = Fake(hosts=True)
        self.addCleanup(check_no_leftovers, self, self.fake)
        self.addCleanup(self.fake.cleanup)

    def test_an_instance_answers_ssh_with_the_cloud_config_host_key(self):
        fake = self.fake
        status, _, reply = fake.call("POST", "/ssh-keys", {"name": "tessera"})
        self.assertEqual(200, status, reply)
        key_path = os.path.join(fake.tmp, "client_key")
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(reply["data"]["private_key"])
        host_key = os.path.join(fake.tmp, "host_key")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pre-generated",
                        "-f", host_key], check=True)
        with open(host_key, encoding="ascii") as f:
            private = f.read()
        with open(host_key + ".pub", encoding="ascii") as f:
            public = f.read().strip()
        user_data = ("#cloud-config\nssh_deletekeys: true\nssh_genkeytypes: []\nssh_keys:\n"
                     "  ed25519_private: |\n" +
                     "".join("    " + line + "\n" for line in private.strip().splitlines()) +
                     f"  ed25519_public: {public}\n")
        status, _, reply = fake.launch(ssh_key_names=["tessera"], user_data=user_data)
        self.assertEqual(200, status, reply)
        instance_id = reply["data"]["instance_ids"][0]
        active = wait_for(lambda: (i := fake.instance(instance_id)) and
                          i["status"] in ("active", "unhealthy") and i, 90, "active")
        self.assertEqual("active", active["status"], fake.stderr_text())
        ip = active["ip"]
        self.assertRegex(ip, r"^198\.18\.\d+\.11$")
        (state,) = [i for i in fake.control("GET", "state")["instances"]
                    if i["instance"]["id"] == instance_id]
        ns = state["host"]["ns"]
        self.assertEqual(state["host"]["name"], active["hostname"])
        subnet_of(fake)
        self.assertIn(ns, namespaces())
        known_hosts = os.path.join(fake.tmp, "known_hosts")
        with open(known_hosts, "w", encoding="ascii") as f:
            f.write(f"{ip} {' '.join(public.split()[:2])}\n")
        ssh = ["ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
               "-o", f"UserKnownHostsFile={known_hosts}", "-o", "ConnectTimeout=10",
               "-o", "IdentitiesOnly=yes", "-F", "/dev/null", "-i", key_path, f"root@{ip}"]
        r = subprocess.run([*ssh, "true"], capture_output=True, text=True, timeout=60,
                           check=False)
        self.assertEqual(0, r.returncode, r.stderr)
        other = os.path.join(fake.tmp, "other_key")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other], check=True)
        r = subprocess.run([*ssh[:-3], "-i", other, f"root@{ip}", "true"], capture_output=True,
                           text=True, timeout=60, check=False)
        self.assertNotEqual(0, r.returncode, "a key the launch did not name got in")

        status, _, _ = fake.call("POST", "/instance-operations/terminate",
                                 {"instance_ids": [instance_id]})
        self.assertEqual(200, status)
        wait_for(lambda: fake.instance(instance_id)["status"] == "terminated", 60, "terminated")
        self.assertNotIn(ns, namespaces())
        self.assertEqual(0, fake.stop())

    def test_sigterm_while_a_host_comes_up_leaves_no_namespace(self):
        fake = self.fake
        fake.add_key()
        for _ in range(2):
            self.assertEqual(200, fake.launch()[0])
        self.assertEqual(0, fake.stop())
        folders = [d for d in os.listdir(fake.state_dir)
                   if os.path.isdir(os.path.join(fake.state_dir, d))]
        self.assertEqual(["hosts"], folders, "one folder for all the instances' hosts")
        folder = os.path.join(fake.state_dir, "hosts")
        self.assertFalse(os.path.exists(os.path.join(folder, "subnet")), folder)
        left = namespaces() | links()
        with open(os.path.join(folder, "hosts.txt"), encoding="ascii") as f:
            for line in f:
                name, _, ns = line.split()
                self.assertNotIn(ns, left)
                k, i = name[2:].split("-")
                self.assertNotIn(f"tv{k}h{i}", left)
                self.assertNotIn(f"tsb{k}", left)


class FirewallHostTest(unittest.TestCase):
    """The firewall as the test hosts enforce it: all instances on one subnet, only what the
    rules allow gets in (nftables in each host's namespace)."""

    @classmethod
    def setUpClass(cls):
        reason = hosts_missing()
        if reason:
            print(f"\nskipping the firewall host tests: {reason}", file=sys.stderr)
            raise unittest.SkipTest(reason)

    def setUp(self):
        self.fake = Fake(hosts=True)
        self.addCleanup(check_no_leftovers, self, self.fake)
        self.addCleanup(self.fake.cleanup)
        self.fake.add_key()

    def launch_active(self, count, **fields):
        """`count` instances launched at once, once active: [(API object, namespace)]."""
        ids = []
        for _ in range(count):
            status, _, reply = self.fake.launch(**fields)
            self.assertEqual(200, status, reply)
            ids += reply["data"]["instance_ids"]
        out = []
        for instance_id in ids:
            active = wait_for(lambda i=instance_id: (x := self.fake.instance(i)) and
                              x["status"] in ("active", "unhealthy") and x, 90, "active")
            self.assertEqual("active", active["status"], self.fake.stderr_text())
            out.append((active, self.state_of(instance_id)["host"]["ns"]))
        return out

    def state_of(self, instance_id):
        """The instance's entry in /_fake/state."""
        (state,) = [i for i in self.fake.control("GET", "state")["instances"]
                    if i["instance"]["id"] == instance_id]
        return state

    def end(self, k):
        """Stops the fake; nothing of subnet K may be left."""
        self.assertEqual(0, self.fake.stop())
        self.assertEqual([], leftovers(k))

    def test_a_ruleset_opens_a_port_to_the_instance_it_names_only(self):
        fake = self.fake
        port = 7000 + secrets.randbelow(1000)
        ruleset = fake.call("POST", "/firewall-rulesets", {"name": "cluster",
                                                           "region": "us-east-1",
                                                           "rules": []})[2]["data"]
        status, _, reply = fake.launch(firewall_rulesets=[{"id": ruleset["id"]}], name="a")
        self.assertEqual(200, status, reply)
        a_id = reply["data"]["instance_ids"][0]
        (b, b_ns), (c, c_ns) = self.launch_active(2, name="other")
        a = wait_for(lambda: (x := fake.instance(a_id)) and x["status"] == "active" and x, 90,
                     "a active")
        a_ns = self.state_of(a_id)["host"]["ns"]
        k = subnet_of(fake)
        self.assertEqual({k}, {int(x["ip"].split(".")[2]) for x in (a, b, c)}, "one subnet")
        listener = subprocess.Popen(["ip", "netns", "exec", a_ns, PYTHON, "-c", LISTEN,
                                     str(port)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (listener.kill(), listener.wait()))
        wait_for(lambda: connects(a_ns, a["ip"], port), 20, "the listener, from its own host")
        here = f"198.18.{k}.1"
        self.assertFalse(connects(None, a["ip"], port), f"{here} got in on {port}")
        self.assertFalse(connects(b_ns, a["ip"], port), "b got in before the rule")
        self.assertTrue(host_key_of(a["ip"]), "port 22 is open to everyone")
        self.assertTrue(host_key_of(a["ip"], c_ns), "port 22 is open to the other instances")

        rule = {"protocol": "tcp", "port_range": [port, port], "source_network": b["ip"],
                "description": "b to a"}
        status, _, reply = fake.call("PATCH", f"/firewall-rulesets/{ruleset['id']}",
                                     {"rules": [rule]})
        self.assertEqual((200, [a_id]), (status, reply["data"]["instance_ids"]))
        wait_for(lambda: connects(b_ns, a["ip"], port), 20, "b reaching a's port")
        self.assertFalse(connects(None, a["ip"], port), f"{here} got in on {port}")
        self.assertFalse(connects(c_ns, a["ip"], port), "c got in")
        applied = self.state_of(a_id)["firewall"]
        self.assertEqual([SSH_RULE, ICMP_RULE, rule], applied["rules"])
        self.assertIn(f"ip saddr {b['ip']}/32 tcp dport {port} accept", applied["nft"])
        self.assertEqual([SSH_RULE, ICMP_RULE], self.state_of(c["id"])["firewall"]["rules"])

        fake.control("POST", "firewall", {"enforce": False})
        wait_for(lambda: connects(None, a["ip"], port), 20, "the open host")
        self.assertIsNone(self.state_of(a_id)["firewall"]["rules"])
        fake.control("POST", "firewall", {"enforce": True})
        self.assertFalse(connects(None, a["ip"], port), "enforced again")

        fake.call("PATCH", f"/firewall-rulesets/{ruleset['id']}", {"rules": []})
        wait_for(lambda: not connects(b_ns, a["ip"], port), 20, "b shut out again")
        self.assertTrue(host_key_of(a["ip"]), "ssh still answers")
        fake.call("POST", "/instance-operations/terminate",
                  {"instance_ids": [a_id, b["id"], c["id"]]})
        wait_for(lambda: all(fake.instance(i)["status"] == "terminated"
                             for i in (a_id, b["id"], c["id"])), 60, "terminated")
        self.assertEqual([f"tsb{k}"], leftovers(k), "the bridge stays while the fake runs")
        self.end(k)

    def test_the_cloud_config_host_key_comes_after_the_delay_or_never(self):
        fake = self.fake
        host_key = os.path.join(fake.tmp, "host_key")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", host_key],
                       check=True)
        with open(host_key, encoding="ascii") as f:
            private = f.read()
        with open(host_key + ".pub", encoding="ascii") as f:
            public = " ".join(f.read().split()[:2])
        user_data = ("#cloud-config\nssh_keys:\n  ed25519_private: |\n" +
                     "".join("    " + line + "\n" for line in private.strip().splitlines()) +
                     f"  ed25519_public: {public}\n")
        delay = 4
        fake.control("POST", "host-key-delay", {"seconds": delay})
        launched = time.monotonic()
        late_id = fake.launch(user_data=user_data)[2]["data"]["instance_ids"][0]
        fake.control("POST", "host-key-delay", {"seconds": None})
        never_id = fake.launch(user_data=user_data)[2]["data"]["instance_ids"][0]
        fake.control("POST", "host-key-delay", {"seconds": 0})
        late = wait_for(lambda: (x := fake.instance(late_id)) and x["status"] == "active" and x,
                        90, "active")
        first = host_key_of(late["ip"])
        if time.monotonic() - launched < delay:  # (else this machine was too slow to tell)
            self.assertIsNotNone(first)
            self.assertNotEqual(public, first, "the launch's key before the delay was over")
        wait_for(lambda: host_key_of(late["ip"]) == public, 60, "the launch's host key")
        wait_for(lambda: self.state_of(late_id)["host_key"]["applied"], 10, "applied")
        never = wait_for(lambda: (x := fake.instance(never_id)) and x["status"] == "active" and
                         x, 90, "active")
        wait_for(lambda: time.monotonic() - launched > delay + 1, 30, "a while")
        self.assertNotIn(host_key_of(never["ip"]), (public, None))
        self.assertEqual({"delay": None, "applied": False}, self.state_of(never_id)["host_key"])
        with open(os.path.join(fake.state_dir, "hosts", "known_hosts"), encoding="ascii") as f:
            self.assertNotIn(public, f.read(), "rekey leaves known_hosts alone")
        # The host controls act on the instance's own host of the shared folder.
        never_ns = self.state_of(never_id)["host"]["ns"]
        fake.control("POST", f"instances/{never_id}/host", {"action": "kill"})
        pids = subprocess.run(["ip", "netns", "pids", never_ns], capture_output=True, text=True,
                              check=False).stdout.split()
        self.assertEqual([], pids, "the killed host's processes")
        self.assertEqual(public, host_key_of(late["ip"]), "the other host lives on")
        self.end(subnet_of(fake))


if __name__ == "__main__":
    unittest.main(verbosity=2)
