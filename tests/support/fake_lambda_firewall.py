"""The firewalls of the fake Lambda Cloud (tests/support/fake-lambda-cloud.py): the inbound rules
of the API's Firewalls endpoints (firewall-rules, firewall-rulesets, the global ruleset), their
checks, and the nftables ruleset that makes an instance's test host enforce them
(tests/support/test-hosts.sh firewall). The state lives in tests/support/fake_lambda_state.py's
Cloud, under its lock; everything here is data and pure functions.

Where each rule comes from:
  * Lambda's Firewalls page: "By default, Lambda allows only incoming ICMP traffic and traffic on
    port 22 (SSH)": the global ruleset starts as TCP 22 and ICMP from anywhere. Whether the real
    default is expressed as editable global rules is not documented: the double's choice.
  * The spec (OpenAPI v1.10.0, Firewalls tag): the FirewallRule, FirewallRuleset and
    GlobalFirewallRuleset objects, their fields and limits, the errors, "Firewall rules do not
    apply to the us-south-1 region" (UNFILTERED_REGIONS), and that a launch's rulesets "must
    exist in the same region as the instance".
  * Not documented, the double's choice: GET/PUT firewall-rules are the global ruleset's rules;
    a source_network need not be public (the test hosts live in 198.18.0.0/15: any valid IPv4
    network is accepted, a deliberate deviation from "public IPv4 address"); host bits under the
    mask are ignored; the limits MAX_RULES and MAX_RULESETS; unknown fields of a rule are
    ignored (as pydantic does by default); which rules an instance gets (the global ruleset's,
    then those of the rulesets it was launched with, all accepting: the spec has no deny rule).
"""

import ipaddress
import re
import secrets
import time

import fake_lambda_api as api

PROTOCOLS = ("tcp", "udp", "icmp", "all")
DESCRIPTION_MAX = 128      # the spec's FirewallRule.description maxLength
NAME_MAX = 64              # the spec's FirewallRuleset.name maxLength
MAX_RULES = 1000           # not documented: the double's choice
MAX_RULESETS = 100         # not documented: the double's choice (beyond: global/quota-exceeded)
GLOBAL_ID = "global"       # the spec's GlobalFirewallRuleset.id (const)
GLOBAL_NAME = "Default Workspace Global Rules"  # the spec's example
# "Firewall rules do not apply to the us-south-1 region" (the spec's note on firewall-rules).
UNFILTERED_REGIONS = ("us-south-1",)

# Lambda's Firewalls page: only incoming ICMP and SSH (port 22) are allowed by default.
DEFAULT_GLOBAL_RULES = (
    {"protocol": "tcp", "port_range": [22, 22], "source_network": "0.0.0.0/0",
     "description": "SSH"},
    {"protocol": "icmp", "source_network": "0.0.0.0/0", "description": "ICMP"},
)

_NETWORK = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:/[0-9]{1,2})?", re.ASCII)


def source_network(value, where):
    """The IPv4 network of a rule's source_network ("a.b.c.d" is /32, as the spec says), or
    ApiError 400. Not documented: any valid IPv4 network passes, public or not."""
    if not isinstance(value, str):
        raise api.invalid(f"{where}: Input should be a valid string")
    if not _NETWORK.fullmatch(value):
        raise api.invalid(f"{where}: Input should be an IPv4 address, optionally followed by / "
                          "and a mask of 0 to 32")
    try:
        return ipaddress.IPv4Network(value, strict=False)
    except ValueError as e:
        raise api.invalid(f"{where}: {e}") from None


def check_rule(value, where):
    """One FirewallRule as the spec describes it, normalized (the fields it knows, in its
    order), or ApiError 400 global/invalid-parameters naming the field."""
    if not isinstance(value, dict):
        raise api.invalid(f"{where}: Input should be a valid firewall rule object")
    for field in ("protocol", "source_network", "description"):
        if field not in value:
            raise api.invalid(f"{where}.{field}: Field required")
    protocol = value["protocol"]
    if not isinstance(protocol, str) or protocol not in PROTOCOLS:
        raise api.invalid(f"{where}.protocol: Input should be 'tcp', 'udp', 'icmp' or 'all'")
    rule = {"protocol": protocol}
    ports = value.get("port_range")
    if protocol == "icmp":
        # "Not allowed for the icmp protocol but required for the others."
        if ports is not None:
            raise api.invalid(f"{where}.port_range: not allowed for the icmp protocol")
    else:
        if ports is None:
            raise api.invalid(f"{where}.port_range: required for the {protocol} protocol")
        if not isinstance(ports, list) or len(ports) != 2:
            raise api.invalid(f"{where}.port_range: Input should be a list of exactly 2 items "
                              "(a single port listed twice)")
        for port in ports:
            if not api.is_int(port) or not 1 <= port <= 65535:
                raise api.invalid(f"{where}.port_range: each port should be a whole number "
                                  "from 1 to 65535")
        if ports[0] > ports[1]:
            raise api.invalid(f"{where}.port_range: the first port should not be greater than "
                              "the second")
        rule["port_range"] = [ports[0], ports[1]]
    source_network(value["source_network"], f"{where}.source_network")
    rule["source_network"] = value["source_network"]
    description = value["description"]
    if not isinstance(description, str):
        raise api.invalid(f"{where}.description: Input should be a valid string")
    if len(description) > DESCRIPTION_MAX:
        raise api.invalid(f"{where}.description: String should have at most {DESCRIPTION_MAX} "
                          "characters")
    rule["description"] = description
    return rule


def check_rules(value, field):
    """A list of FirewallRule (required), normalized, or ApiError 400."""
    if value is None:
        raise api.invalid(f"{field}: Field required")
    if not isinstance(value, list):
        raise api.invalid(f"{field}: Input should be a valid list")
    if len(value) > MAX_RULES:
        raise api.invalid(f"{field}: List should have at most {MAX_RULES} items")
    return [check_rule(r, f"{field}[{i}]") for i, r in enumerate(value)]


def check_name(body, required):
    """The name of a ruleset request (None when absent and optional), or ApiError 400."""
    if body.get("name") is None:
        if required:
            raise api.invalid("name: Field required")
        return None
    name = body["name"]
    if not isinstance(name, str):
        raise api.invalid("name: Input should be a valid string")
    if len(name) > NAME_MAX:
        raise api.invalid(f"name: String should have at most {NAME_MAX} characters")
    return name


def nft_ruleset(rules):
    """The nftables ruleset (for test-hosts.sh firewall) that accepts inbound traffic only as
    `rules` allow: established and loopback traffic, then one accept per rule; policy drop."""
    lines = ["table inet lambda {",
             "    chain input {",
             "        type filter hook input priority filter; policy drop;",
             "        ct state established,related accept",
             '        iifname "lo" accept']
    for rule in rules:
        net = source_network(rule["source_network"], "source_network")
        if rule["protocol"] == "icmp":
            lines.append(f"        ip saddr {net} ip protocol icmp accept")
            continue
        low, high = rule["port_range"]
        ports = str(low) if low == high else f"{low}-{high}"
        if rule["protocol"] == "all":
            lines.append(f"        ip saddr {net} meta l4proto {{ tcp, udp }} th dport {ports} "
                         "accept")
        else:
            lines.append(f"        ip saddr {net} {rule['protocol']} dport {ports} accept")
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"


def copy_rules(rules):
    """A deep copy of a rule list (rules hold a port_range list)."""
    return [dict(r, **({"port_range": list(r["port_range"])} if "port_range" in r else {}))
            for r in rules]


class Firewalls:
    """The account's firewall rules: the global ruleset and the regional rulesets. Not
    thread-safe: the Cloud calls it under its lock."""

    def __init__(self, regions):
        """The account's start: the default global rules, no rulesets; `regions` {code:
        description} is the catalog's."""
        self.regions = regions
        self.global_rules = copy_rules(DEFAULT_GLOBAL_RULES)
        self.rulesets = {}  # id: {"id", "name", "region", "rules", "created"}

    def global_ruleset(self):
        """The data of GET /firewall-rulesets/global (the spec's GlobalFirewallRuleset)."""
        return {"id": GLOBAL_ID, "name": GLOBAL_NAME, "rules": copy_rules(self.global_rules)}

    def set_global_rules(self, rules):
        """The global ruleset's rules become `rules` (checked already)."""
        self.global_rules = copy_rules(rules)

    def find(self, ruleset_id):
        """The ruleset `ruleset_id`, or ApiError 404 as the spec words it."""
        ruleset = self.rulesets.get(ruleset_id) if isinstance(ruleset_id, str) else None
        if ruleset is None:
            raise api.firewall_ruleset_not_found()
        return ruleset

    def to_api(self, ruleset, instance_ids):
        """The spec's FirewallRuleset of `ruleset`, with the IDs of its instances."""
        name = ruleset["region"]
        return {"id": ruleset["id"], "name": ruleset["name"],
                "region": {"name": name, "description": self.regions.get(name, name)},
                "rules": copy_rules(ruleset["rules"]), "created": ruleset["created"],
                "instance_ids": list(instance_ids)}

    def create(self, body):
        """POST /firewall-rulesets: a new ruleset from {name, region, rules} (all required);
        returns it (without instances), or ApiError 400."""
        name = check_name(body, required=True)
        region = body.get("region")
        if region is None:
            raise api.invalid("region: Field required")
        if not isinstance(region, str):
            raise api.invalid("region: Input should be a valid string")
        if region not in self.regions:
            raise api.invalid(f"region: '{region}' is not a region")
        rules = check_rules(body.get("rules"), "rules")
        if len(self.rulesets) >= MAX_RULESETS:
            raise api.quota_exceeded()
        ruleset = {"id": secrets.token_hex(16), "name": name, "region": region, "rules": rules,
                   "created": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())}
        self.rulesets[ruleset["id"]] = ruleset
        return ruleset

    def patch(self, ruleset_id, body):
        """PATCH /firewall-rulesets/{id}: name and rules change where given; returns it."""
        ruleset = self.find(ruleset_id)
        name = check_name(body, required=False)
        rules = check_rules(body["rules"], "rules") if body.get("rules") is not None else None
        if name is not None:
            ruleset["name"] = name
        if rules is not None:
            ruleset["rules"] = rules
        return ruleset

    def delete(self, ruleset_id, in_use):
        """DELETE /firewall-rulesets/{id}; `in_use`: live instances are associated with it."""
        self.find(ruleset_id)
        if in_use:
            raise api.firewall_ruleset_in_use()
        del self.rulesets[ruleset_id]

    def rules_for(self, region, ruleset_ids):
        """The rules an instance in `region` associated with `ruleset_ids` gets, or None when
        the region is not filtered (us-south-1)."""
        if region in UNFILTERED_REGIONS:
            return None
        rules = copy_rules(self.global_rules)
        for ruleset_id in ruleset_ids:
            ruleset = self.rulesets.get(ruleset_id)
            if ruleset is not None:
                rules += copy_rules(ruleset["rules"])
        return rules

    def state(self):
        """What GET /_fake/state shows: the global rules and every ruleset's."""
        return {"global": self.global_ruleset(),
                "rulesets": [dict(r, rules=copy_rules(r["rules"]))
                             for r in self.rulesets.values()]}
