"""The data side of the fake Lambda Cloud (tests/support/fake-lambda-cloud.py): the API's error
bodies, its regions and instance types, the checks a launch or an SSH key request must pass, SSH
public keys, and the host key a launch's cloud-config carries. Pure functions and data, no threads
and no I/O beyond ssh-keygen; tests/support/fake_lambda_state.py keeps the state that uses them
(and tests/support/fake_lambda_firewall.py the firewall rules' checks).

Everything here follows Lambda's public OpenAPI description of its Cloud API (v1.10.0,
https://docs.lambda.ai/api/cloud/spec.json); where that is silent the choice is marked
"not documented" so that nobody mistakes it for the real API's behaviour.
"""

import base64
import binascii
import json
import os
import re
import subprocess
import tempfile

# ---------------------------------------------------------------------------------------------
# Errors: {"error": {"code", "message", "suggestion"?}} with the messages the spec gives.


class ApiError(Exception):
    """An API failure: the HTTP status plus the error object of the response body."""

    def __init__(self, status, code, message, suggestion=None, headers=None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.headers = headers or {}

    def body(self):
        """The response body, as the real API shapes it."""
        error = {"code": self.code, "message": self.message}
        if self.suggestion is not None:
            error["suggestion"] = self.suggestion
        return {"error": error}


def unauthorized():
    """401: a missing, wrong or malformed API key."""
    return ApiError(401, "global/invalid-api-key", "API key was invalid, expired, or deleted.",
                    "Check your API key or create a new one, then try again.")


def account_inactive():
    """403: the account cannot be used (unverified e-mail, no payment method)."""
    return ApiError(403, "global/account-inactive", "Your account is inactive.",
                    "Make sure you have verified your email address and have a valid payment "
                    "method. Contact Support if problems continue.")


def invalid_address():
    """403 on launch: the account's billing address is invalid."""
    return ApiError(403, "global/invalid-address", "Your billing address is invalid.",
                    "Make sure your billing address is valid. Contact Support if problems "
                    "continue.")


def invalid(message="Invalid request data."):
    """400: a request the API cannot accept; the message names the field."""
    return ApiError(400, "global/invalid-parameters", message)


def instance_not_found():
    """404 on GET /instances/{id} and terminate."""
    return ApiError(404, "global/object-does-not-exist", "Specified instance does not exist.")


def launch_resource_not_found(message, suggestion):
    """404 on launch: an SSH key, filesystem or firewall ruleset it names does not exist."""
    return ApiError(404, "global/object-does-not-exist", message, suggestion)


def firewall_ruleset_not_found():
    """404 on GET, PATCH or DELETE /firewall-rulesets/{id}: the spec's words."""
    return ApiError(404, "global/object-does-not-exist",
                    "Firewall ruleset does not exist or you do not have permission to access it.",
                    "Check your firewall ruleset ID and try again.")


def firewall_ruleset_in_use():
    """400 on DELETE /firewall-rulesets/{id} while instances use the ruleset: the spec's words."""
    return ApiError(400, "firewall-rulesets/firewall-ruleset-in-use",
                    "Firewall ruleset is in use by one or more instances.",
                    "Terminate all instances that are using the ruleset before deleting it.")


def firewall_ruleset_in_wrong_region(ruleset_id, ruleset_region, region):
    """400 on launch: a ruleset to associate lives in another region ("The firewall rulesets
    must exist in the same region as the instance"). Not documented: which error the real API
    gives; the double answers global/invalid-parameters naming the field."""
    return invalid(f"firewall_rulesets: ruleset '{ruleset_id}' is in region '{ruleset_region}', "
                   f"not in '{region}'")


def not_found():
    """404: no such endpoint."""
    return ApiError(404, "global/not-found", "The requested resource was not found.")


def insufficient_capacity():
    """400 on launch: the region has no capacity for the instance type. (The suggestion is the
    one a real refusal carried; the spec leaves it open.)"""
    return ApiError(400, "instance-operations/launch/insufficient-capacity",
                    "Not enough capacity to fulfill launch request.",
                    "Choose an instance type with more availability, or try again later.")


def quota_exceeded():
    """400 on launch: the account may not hold more instances."""
    return ApiError(400, "global/quota-exceeded", "Quota exceeded.",
                    "Contact Support to increase your quota.")


def file_system_in_wrong_region(name, fs_region, region):
    """400 on launch: a filesystem to attach lives in another region."""
    return ApiError(400, "instance-operations/launch/file-system-in-wrong-region",
                    f"File system '{name}' is in region '{fs_region}', not in '{region}'.",
                    "Launch the instance in the file system's region, or attach another one.")


def internal_error(status=500):
    """5xx: something broke on the server's side."""
    return ApiError(status, "global/internal-error", "An internal server error occurred.",
                    "Try again later. Contact Support if the problem persists.")


def rate_limited(retry_after):
    """429 with Retry-After. Not documented: the spec names the limits but not the refusal's
    body, so this one is the usual error object with a code of the fake's own."""
    return ApiError(429, "global/rate-limited", "Too many requests: the rate limit was exceeded.",
                    f"Wait {retry_after} s before trying again.",
                    headers={"Retry-After": str(retry_after)})


# ---------------------------------------------------------------------------------------------
# Regions and instance types.

# The region codes of the spec's PublicRegionCode. Only "California, USA" (us-west-1) is the
# spec's own description; the others are the places Lambda's console names, not checked here.
REGIONS = {
    "us-east-1": "Virginia, USA",
    "us-east-2": "Washington DC, USA",
    "us-east-3": "Washington DC, USA",
    "us-west-1": "California, USA",
    "us-west-2": "Arizona, USA",
    "us-west-3": "Utah, USA",
    "us-south-1": "Texas, USA",
    "us-south-2": "Texas, USA",
    "us-south-3": "Texas, USA",
    "us-midwest-1": "Illinois, USA",
    "us-midwest-2": "Illinois, USA",
    "europe-central-1": "Germany",
    "asia-south-1": "India",
    "asia-northeast-1": "Tokyo, Japan",
    "asia-northeast-2": "Seoul, South Korea",
    "australia-east-1": "Australia",
    "me-west-1": "Israel",
    "test-east-1": "Test East",
    "test-west-1": "Test West",
}

# name: (GPU description, GPUs, US cents per hour, vCPUs, memory GiB, storage GiB, regions with
# capacity). Names and prices as Lambda's public price list had them in 2025; specs plausible.
_BUILT_IN_TYPES = {
    "gpu_1x_a10": ("A10 (24 GB PCIe)", 1, 75, 30, 200, 1400, ["us-east-1", "us-west-1"]),
    "gpu_1x_a6000": ("RTX A6000 (48 GB)", 1, 80, 14, 100, 512, ["us-south-1"]),
    "gpu_2x_a6000": ("RTX A6000 (48 GB)", 2, 160, 28, 200, 1024, ["us-south-1"]),
    "gpu_1x_a100": ("A100 (40 GB PCIe)", 1, 129, 30, 200, 512, ["us-east-1"]),
    "gpu_1x_a100_sxm4": ("A100 (40 GB SXM4)", 1, 129, 30, 200, 512, ["us-east-1", "us-west-2"]),
    "gpu_2x_a100": ("A100 (40 GB SXM4)", 2, 258, 60, 450, 1024, ["us-east-1", "us-west-2"]),
    "gpu_4x_a100": ("A100 (40 GB SXM4)", 4, 516, 120, 900, 2048, ["us-west-2"]),
    "gpu_8x_a100": ("A100 (40 GB SXM4)", 8, 1032, 124, 1800, 5900, ["us-west-2"]),
    "gpu_8x_a100_80gb_sxm4": ("A100 (80 GB SXM4)", 8, 1432, 240, 1800, 19500, ["us-east-1"]),
    "gpu_1x_h100_pcie": ("H100 (80 GB PCIe)", 1, 249, 26, 200, 1000, ["us-east-1", "us-west-3"]),
    "gpu_2x_h100_sxm5": ("H100 (80 GB SXM5)", 2, 598, 52, 450, 5500, ["us-east-1"]),
    "gpu_4x_h100_sxm5": ("H100 (80 GB SXM5)", 4, 1196, 104, 900, 11000, ["us-east-1"]),
    "gpu_8x_h100_sxm5": ("H100 (80 GB SXM5)", 8, 2392, 208, 1800, 24780, ["us-east-1"]),
    "gpu_1x_gh200": ("GH200 (96 GB)", 1, 149, 64, 432, 4096, ["us-east-3"]),
    "gpu_8x_b200_sxm6": ("B200 (180 GB SXM6)", 8, 3992, 208, 2900, 22000, []),
}


def built_in_catalog():
    """The catalog the fake starts with: {"regions": {code: description}, "instance_types":
    {name: {"instance_type": <API object>, "capacity": {region: None (unlimited) | count}}},
    "file_systems": []}."""
    types = {}
    for name, (gpu, gpus, cents, vcpus, mem, storage, regions) in _BUILT_IN_TYPES.items():
        types[name] = {
            "instance_type": {
                "name": name,
                "description": f"{gpus}x {gpu}",
                "gpu_description": gpu,
                "price_cents_per_hour": cents,
                "specs": {"vcpus": vcpus, "memory_gib": mem, "storage_gib": storage, "gpus": gpus},
            },
            "capacity": {r: None for r in regions},
        }
    return {"regions": dict(REGIONS), "instance_types": types, "file_systems": []}


def capacity_from_json(value, regions, where):
    """A capacity given as a list of regions (unlimited there) or as {region: count}; raises
    ValueError naming `where` when it is malformed or names an unknown region."""
    if isinstance(value, list):
        value = {r: None for r in value}
    if not isinstance(value, dict):
        raise ValueError(f"{where}: a list of regions or an object region -> count")
    capacity = {}
    for region, count in value.items():
        if region not in regions:
            raise ValueError(f"{where}: unknown region '{region}'")
        if count is not None and (not is_int(count) or count < 0):
            raise ValueError(f"{where}: the count of '{region}' is not a whole number >= 0")
        capacity[region] = count
    return capacity


def load_catalog(path):
    """The built-in catalog changed by the JSON file at `path`: "regions" {code: description}
    adds or renames regions; "instance_types" {name: {"description", "gpu_description",
    "price_cents_per_hour", "specs": {...}, "capacity": [regions] | {region: count}}} replaces
    the built-in types; "file_systems" [{"name", "region"}] are the account's filesystems.
    Raises ValueError with a readable message for a file that does not fit."""
    catalog = built_in_catalog()
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")
    regions = data.get("regions", {})
    if not isinstance(regions, dict) or not all(isinstance(v, str) for v in regions.values()):
        raise ValueError(f"{path}: regions must map region codes to descriptions")
    catalog["regions"].update(regions)
    if "instance_types" in data:
        types = data["instance_types"]
        if not isinstance(types, dict):
            raise ValueError(f"{path}: instance_types must be an object")
        catalog["instance_types"] = {}
        for name, t in types.items():
            where = f"{path}: instance type '{name}'"
            if not isinstance(t, dict) or not isinstance(t.get("specs"), dict):
                raise ValueError(f"{where}: needs an object with specs")
            specs = {k: t["specs"].get(k) for k in ("vcpus", "memory_gib", "storage_gib", "gpus")}
            if not all(is_int(v) and v >= 0 for v in specs.values()):
                raise ValueError(f"{where}: specs needs vcpus, memory_gib, storage_gib, gpus")
            if not is_int(t.get("price_cents_per_hour")):
                raise ValueError(f"{where}: price_cents_per_hour must be a whole number")
            gpu = str(t.get("gpu_description", ""))
            catalog["instance_types"][name] = {
                "instance_type": {
                    "name": name,
                    "description": str(t.get("description", f"{specs['gpus']}x {gpu}")),
                    "gpu_description": gpu,
                    "price_cents_per_hour": t["price_cents_per_hour"],
                    "specs": specs,
                },
                "capacity": capacity_from_json(t.get("capacity", []), catalog["regions"], where),
            }
    for fs in data.get("file_systems", []):
        if not isinstance(fs, dict) or fs.get("region") not in catalog["regions"] or \
                not isinstance(fs.get("name"), str):
            raise ValueError(f"{path}: a file system needs a name and a known region")
        catalog["file_systems"].append({"name": fs["name"], "region": fs["region"]})
    return catalog


# ---------------------------------------------------------------------------------------------
# Request checks. Messages name the field, as the real API's ("quantity: Input should be less
# than or equal to 1").


def is_int(value):
    """A JSON whole number (JSON true/false are not numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _string(body, field, required=False, max_len=None, min_len=0, pattern=None):
    """body[field] when it is a fitting string (None when absent and optional)."""
    if field not in body or body[field] is None:
        if required:
            raise invalid(f"{field}: Field required")
        return None
    value = body[field]
    if not isinstance(value, str):
        raise invalid(f"{field}: Input should be a valid string")
    if len(value) < min_len:
        raise invalid(f"{field}: String should have at least {min_len} character(s)")
    if max_len is not None and len(value) > max_len:
        raise invalid(f"{field}: String should have at most {max_len} characters")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise invalid(f"{field}: String should match pattern '{pattern}'")
    return value


def _string_list(body, field, required=False):
    """body[field] when it is a list of strings ([] when absent and optional)."""
    if field not in body or body[field] is None:
        if required:
            raise invalid(f"{field}: Field required")
        return []
    value = body[field]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise invalid(f"{field}: Input should be a valid list of strings")
    return value


HOSTNAME_PATTERN = r"^[a-z0-9][0-9a-z-]{0,62}$"
TAG_KEY_PATTERN = r"^[a-z][a-z0-9-:]+$"
MOUNT_POINT_PATTERN = r"^(/home|/lambda/nfs|/data)[//a-zA-Z0-9-]*$"
USER_DATA_MAX_BYTES = 1024 * 1024  # "cannot exceed 1MB": taken as 1 MiB of UTF-8


def check_launch(body, regions, instance_types):
    """The launch request `body` (a dict) checked field by field as the spec describes it;
    returns its normalized fields or raises ApiError 400 global/invalid-parameters. Whether the
    named SSH key and filesystems exist is the caller's check (404)."""
    region = _string(body, "region_name", required=True)
    if region not in regions:
        raise invalid(f"region_name: '{region}' is not a region")
    type_name = _string(body, "instance_type_name", required=True)
    if type_name not in instance_types:
        # Not documented whether an unknown type is a 400 or a 404; the spec's enum-free string
        # and its 400 "Invalid request data." make a 400 the likelier.
        raise invalid(f"instance_type_name: '{type_name}' is not an instance type")
    ssh_key_names = _string_list(body, "ssh_key_names", required=True)
    if len(ssh_key_names) != 1:
        raise invalid("ssh_key_names: exactly one SSH key must be specified")
    file_system_names = _string_list(body, "file_system_names")
    mounts = body.get("file_system_mounts") or []
    if not isinstance(mounts, list) or not all(
            isinstance(m, dict) and isinstance(m.get("file_system_id"), str)
            and isinstance(m.get("mount_point"), str) and len(m["mount_point"]) <= 256
            and re.fullmatch(MOUNT_POINT_PATTERN, m["mount_point"]) for m in mounts):
        raise invalid("file_system_mounts: each entry needs a file_system_id and a mount_point "
                      f"matching '{MOUNT_POINT_PATTERN}'")
    hostname = _string(body, "hostname", min_len=1, max_len=63, pattern=HOSTNAME_PATTERN)
    name = _string(body, "name", max_len=64)
    image = body.get("image")
    if image is not None and not (
            isinstance(image, dict) and len(image) == 1
            and (isinstance(image.get("id"), str) or isinstance(image.get("family"), str))):
        raise invalid("image: Input should be an object with either an id or a family")
    user_data = _string(body, "user_data")
    if user_data is not None:
        if len(user_data.encode("utf-8")) > USER_DATA_MAX_BYTES:
            raise invalid("user_data: the user data cannot exceed 1MB in size")
        if "\0" in user_data:
            raise invalid("user_data: the user data must be plain text")
    tags = body.get("tags") or []
    if not isinstance(tags, list):
        raise invalid("tags: Input should be a valid list")
    keys = set()
    for tag in tags:
        if not isinstance(tag, dict) or not isinstance(tag.get("key"), str) or \
                not isinstance(tag.get("value"), str):
            raise invalid("tags: each tag needs a string key and a string value")
        if len(tag["key"]) > 55 or not re.fullmatch(TAG_KEY_PATTERN, tag["key"]):
            raise invalid(f"tags: key '{tag['key']}' should match pattern '{TAG_KEY_PATTERN}' "
                          "and have at most 55 characters")
        if len(tag["value"]) > 128:
            raise invalid(f"tags: the value of '{tag['key']}' has more than 128 characters")
        if tag["key"] in keys:
            raise invalid(f"tags: key '{tag['key']}' is given twice")
        keys.add(tag["key"])
    rulesets = body.get("firewall_rulesets") or []
    if not isinstance(rulesets, list) or not all(
            isinstance(r, dict) and isinstance(r.get("id"), str) for r in rulesets):
        raise invalid("firewall_rulesets: each entry needs a string id")
    if len(rulesets) > 100:  # not documented: the double's choice
        raise invalid("firewall_rulesets: List should have at most 100 items")
    if "quantity" in body:
        # Gone from the spec since v1.5 but still sent by clients (and in the spec's own
        # example); the API answers more than one with "Requested too many instances.".
        quantity = body["quantity"]
        if not is_int(quantity) or quantity < 1:
            raise invalid("quantity: Input should be greater than or equal to 1")
        if quantity > 1:
            raise invalid("quantity: Requested too many instances.")
    return {
        "region": region, "type_name": type_name, "ssh_key_name": ssh_key_names[0],
        "file_system_names": file_system_names, "file_system_mounts": mounts,
        "hostname": hostname, "name": name, "image": image, "user_data": user_data,
        "tags": [{"key": t["key"], "value": t["value"]} for t in tags],
        # Named twice, associated once (not documented: the double's choice).
        "firewall_rulesets": [{"id": i} for i in dict.fromkeys(r["id"] for r in rulesets)],
    }


def check_terminate(body):
    """The instance IDs of a terminate request, or ApiError 400."""
    ids = _string_list(body, "instance_ids", required=True)
    if not ids:
        raise invalid("instance_ids: List should have at least 1 item")
    return list(dict.fromkeys(ids))


def check_add_ssh_key(body):
    """(name, public key or None to generate a pair) of an add-SSH-key request, or ApiError 400."""
    name = _string(body, "name", required=True, min_len=1, max_len=64)
    public_key = _string(body, "public_key", min_len=1, max_len=4096)
    if public_key is not None:
        public_key = public_key.strip()
        if not is_public_key(public_key):
            raise invalid("public_key: Invalid public key.")
    return name, public_key


# ---------------------------------------------------------------------------------------------
# SSH keys.

PUBLIC_KEY_TYPES = {
    "ssh-rsa", "ssh-dss", "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
}


def is_public_key(text):
    """Whether `text` is one OpenSSH public key line: a known type, its base64 blob (which names
    the same type) and an optional comment."""
    if "\n" in text or "\r" in text:
        return False
    parts = text.split()
    if len(parts) < 2 or parts[0] not in PUBLIC_KEY_TYPES:
        return False
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        return False
    if len(blob) < 4:
        return False
    size = int.from_bytes(blob[:4], "big")
    return blob[4:4 + size] == parts[0].encode("ascii")


def generate_key_pair(name):
    """A new RSA key pair as the API generates one (PEM "RSA PRIVATE KEY", as in the spec's
    example): (private key text, public key line). Needs ssh-keygen; raises OSError without it."""
    with tempfile.TemporaryDirectory(prefix="fake-lambda-key-") as d:
        path = os.path.join(d, "key")
        r = subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", "",
                            "-C", name, "-f", path], capture_output=True, text=True, timeout=60,
                           check=False)
        if r.returncode != 0:
            raise OSError(f"ssh-keygen failed: {r.stderr.strip()}")
        with open(path, encoding="ascii") as f:
            private = f.read()
        with open(path + ".pub", encoding="ascii") as f:
            public = f.read().strip()
    return private, public


# ---------------------------------------------------------------------------------------------
# cloud-config: the host key cloud-init installs (ssh_keys: ed25519_private / ed25519_public).


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _scalar(text):
    """A plain or quoted one-line YAML scalar (comments after plain ones dropped)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            return json.loads(text)
        except ValueError:
            return text[1:-1]
    return re.sub(r"\s+#.*$", "", text)


def _block(lines, start, parent_indent, style):
    """The block scalar (| style) whose lines begin at lines[start], more indented than
    `parent_indent`: (text, index of the first line after it)."""
    body = []
    i = start
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > parent_indent):
        body.append(lines[i])
        i += 1
    while body and not body[-1].strip():
        body.pop()
    if not body:
        return "", i
    cut = min(_indent(line) for line in body if line.strip())
    text = "\n".join(line[cut:] for line in body)
    return (text if style.startswith("|-") else text + "\n"), i


def ssh_keys_from_cloud_config(user_data):
    """The "ssh_keys:" mapping of a "#cloud-config" user data, as {name: text}: block scalars
    (|, |-, |+) and one-line scalars. Only this part of YAML is read; anything else (including
    MIME multi-part user data and flow-style mappings) gives {}."""
    lines = user_data.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].rstrip() != "#cloud-config":
        return {}
    i = 0
    while i < len(lines) and not re.fullmatch(r"ssh_keys:\s*(#.*)?", lines[i].rstrip()):
        i += 1
    i += 1
    keys = {}
    child = None
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        indent = _indent(line)
        if indent == 0 or (child is not None and indent < child):
            break
        child = indent if child is None else child
        m = re.fullmatch(r"([A-Za-z0-9_]+):\s*(.*)", line.strip())
        if indent != child or not m:
            i += 1
            continue
        name, rest = m.group(1), m.group(2)
        if rest.startswith("|"):
            keys[name], i = _block(lines, i + 1, child, rest)
        else:
            keys[name] = _scalar(rest)
            i += 1
    return keys


def host_key_from_user_data(user_data):
    """(ed25519 private key text, public key line or None) when the user data is a
    "#cloud-config" that sets an ed25519 host key, else None."""
    if not user_data:
        return None
    keys = ssh_keys_from_cloud_config(user_data)
    private = keys.get("ed25519_private")
    if not private or "PRIVATE KEY" not in private:
        return None
    if not private.endswith("\n"):
        private += "\n"
    public = keys.get("ed25519_public") or None
    return private, public
