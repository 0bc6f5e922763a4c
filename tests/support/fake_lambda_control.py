"""What tests steer in the fake Lambda Cloud (tests/support/fake-lambda-cloud.py) beyond its
state: failures they inject (Faults), the documented rate limits (RateLimiter: on unless the
fake runs with --no-rate-limits or a test turns them off), and the reading of the /_fake/
controls' JSON bodies (text, flag, number).
"""

import threading
import time

import fake_lambda_api as api


class Faults:
    """Failures tests ask for: each rule answers the next `count` matching API requests (or all
    of them with count null) with its status instead of the API's answer."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rules = []

    def add(self, rule):
        with self.lock:
            if rule["count"] == 0:
                self.rules.clear()
            else:
                self.rules.append(rule)

    def take(self, method, path, apply):
        """The rule that answers this request, if any (its count goes down by one): with
        `apply` false one that answers instead of the API, with `apply` true one that answers
        after the API did what the request asked."""
        with self.lock:
            for rule in self.rules:
                if rule["apply"] == apply and \
                        (rule["path"] is None or path == rule["path"]) and \
                        (rule["method"] is None or method == rule["method"]):
                    if rule["count"] is not None:
                        rule["count"] -= 1
                        if rule["count"] == 0:
                            self.rules.remove(rule)
                    return dict(rule)
            return None

    def state(self):
        with self.lock:
            return [dict(r) for r in self.rules]


class RateLimiter:
    """The documented limits as token buckets, when enforced (the fake's default): one request
    per second in general; launches one per 12 seconds with bursts of up to five a minute (the
    limits Lambda's API documentation gives). The refusal's body is not documented
    (api.rate_limited)."""

    BUCKETS = {"general": (1.0, 1.0), "launch": (1.0 / 12.0, 5.0)}  # tokens per second, burst

    def __init__(self, enforce):
        self.lock = threading.Lock()
        self.enforce = enforce
        self.tokens = {}

    def take(self, is_launch):
        """0 when the request may pass (its tokens are taken), else the seconds to wait."""
        if not self.enforce:
            return 0
        now = time.monotonic()
        names = ["general", "launch"] if is_launch else ["general"]
        with self.lock:
            wait = 0.0
            for name in names:
                rate, burst = self.BUCKETS[name]
                tokens, last = self.tokens.get(name, (burst, now))
                tokens = min(burst, tokens + (now - last) * rate)
                self.tokens[name] = (tokens, now)
                if tokens < 1.0:
                    wait = max(wait, (1.0 - tokens) / rate)
            if wait > 0:
                return max(1, int(wait + 0.999))
            for name in names:
                tokens, last = self.tokens[name]
                self.tokens[name] = (tokens - 1.0, last)
            return 0


_REQUIRED = object()


REQUIRED = _REQUIRED  # for callers of flag, text and number: the field must be given


def text(body, field, default=_REQUIRED):
    """body[field] as a string, or ApiError 400."""
    value = body.get(field, default)
    if value is _REQUIRED:
        raise api.invalid(f"{field}: Field required")
    if value is not None and not isinstance(value, str):
        raise api.invalid(f"{field}: Input should be a valid string")
    return value


def flag(body, field, default=False):
    """body[field] as a boolean (`default` when absent; _REQUIRED: ApiError 400), or ApiError
    400."""
    value = body.get(field, default)
    if value is _REQUIRED:
        raise api.invalid(f"{field}: Field required")
    if not isinstance(value, bool):
        raise api.invalid(f"{field}: Input should be a valid boolean")
    return value


def number(body, field, default, low=None, high=None, real=False, allow_null=False):
    """body[field] as a whole (or with `real`, any) number in [low, high], or ApiError 400."""
    if field not in body:
        if default is None and not allow_null:
            raise api.invalid(f"{field}: Field required")
        return default
    value = body[field]
    if value is None and allow_null:
        return None
    ok = api.is_int(value) or (real and isinstance(value, float) and value == value)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        raise api.invalid(f"{field}: Input should be a {'number' if real else 'whole number'}"
                          f"{'' if low is None else f' >= {low}'}"
                          f"{'' if high is None else f' <= {high}'}")
    return value
