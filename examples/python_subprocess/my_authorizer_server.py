"""``MyAuthorizer`` (examples/python_authorizer) served over the subprocess protocol.

    kafka-conformance check authorizer --target "cmd:python examples/python_subprocess/my_authorizer_server.py"

Why it exists: it is the same authorizer code as the in-process target
``python:my_authorizer:factory``, so comparing the two runs measures exactly what
the process boundary costs (``benchmarks/bench_adapters.py``).  It is also the
shortest example of the protocol's server side: read a line, answer a line,
flush.  With ``--trivial`` it answers DENIED to everything, which isolates the
protocol's own overhead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python_authorizer"))

from my_authorizer import BadStoredPrincipal, MyAuthorizer  # needs the path above

CAPABILITIES = {
    "flavour": "standard",
    "kafka_version": "4.3.0",
    "by_type_variant": "default",
    "prefixed": True,
    "listing": True,
    "acl_count": True,
    "incremental": True,
    "not_ready_state": True,
    "error_comparison": "kind",
}
RULE_FIELDS = ("permission", "principal", "host", "operation", "resource_type", "pattern_type", "name")
TRIVIAL = "--trivial" in sys.argv[1:]


class KafkaStyle(Exception):
    def __init__(self, kind: str, message: str, **extra: str) -> None:
        super().__init__(message)
        self.error = {"kind": kind, "message": message, **extra}


def rule(acl: dict[str, str]) -> tuple[str, str, str, str, str, str, str]:
    p, who, host, op, rt, pt, name = (acl[f] for f in RULE_FIELDS)
    return (p, who, host, op, rt, pt, name)


def binding(r: tuple[str, str, str, str, str, str, str]) -> dict[str, str]:
    return dict(zip(RULE_FIELDS, r, strict=True))


def matches(f: dict[str, Any], acl: dict[str, str]) -> bool:
    """Kafka's AclBindingFilter.matches."""
    p, e = f["pattern"], f["entry"]
    if p["resource_type"] not in ("ANY", acl["resource_type"]):
        return False
    if p["pattern_type"] == "MATCH":
        if p["name"] is not None:
            if acl["pattern_type"] == "LITERAL" and acl["name"] not in (p["name"], "*"):
                return False
            if acl["pattern_type"] == "PREFIXED" and not p["name"].startswith(acl["name"]):
                return False
            if acl["pattern_type"] not in ("LITERAL", "PREFIXED"):
                return False
    elif p["pattern_type"] not in ("ANY", acl["pattern_type"]) or p["name"] not in (None, acl["name"]):
        return False
    return (e["principal"] in (None, acl["principal"]) and e["host"] in (None, acl["host"])
            and e["operation"] in ("ANY", acl["operation"]) and e["permission"] in ("ANY", acl["permission"]))


def kafka_call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except BadStoredPrincipal as exc:
        raise KafkaStyle("illegal-state", str(exc)) from exc
    except RuntimeError as exc:
        raise KafkaStyle("not-ready", str(exc)) from exc
    except ValueError as exc:
        raise KafkaStyle("invalid-argument", str(exc)) from exc


class Server:
    def __init__(self) -> None:
        self.impl = MyAuthorizer()

    def authorize_batch(self, batch: dict[str, Any]) -> Any:
        ctx = batch["context"]
        who = f"{ctx['principal']['type']}:{ctx['principal']['name']}"
        if TRIVIAL:
            return ["DENIED"] * len(batch["actions"])
        try:
            return ["ALLOWED" if kafka_call(self.impl.check, who, ctx["host"], a["operation"], a["resource_type"],
                                            a["name"], a["pattern_type"] == "LITERAL") else "DENIED"
                    for a in batch["actions"]]
        except KafkaStyle as exc:
            return {"error": exc.error}

    def by_type(self, q: dict[str, Any]) -> Any:
        ctx = q["context"]
        who = f"{ctx['principal']['type']}:{ctx['principal']['name']}"
        try:
            allowed = kafka_call(self.impl.any_allowed, who, ctx["host"], q["operation"], q["resource_type"])
        except KafkaStyle as exc:
            return {"error": exc.error}
        return "ALLOWED" if allowed else "DENIED"

    def handle(self, request: dict[str, Any]) -> Any:
        op = request["op"]
        if op == "hello":
            return {"protocol": 1, "implementation": "my_authorizer (Python, subprocess)", "capabilities": CAPABILITIES}
        if op == "reset":
            self.impl = MyAuthorizer()
        elif op == "configure":
            try:
                self.impl.set_config(request["properties"])
            except ValueError as exc:
                raise KafkaStyle("config-error", str(exc), key="super.users") from exc
        elif op == "load_snapshot":
            self.impl.rules = {a["id"]: rule(a["acl"]) for a in request["acls"]}
        elif op == "apply":
            record, rules = request["record"], self.impl.rules
            # Kafka refuses an inconsistent record and keeps its ACLs as they were.
            if record["type"] == "add":
                new = rule(record["acl"])
                if record["id"] in rules or new in rules.values():
                    raise KafkaStyle("illegal-state", f"ACL id {record['id']} or its ACL is already held")
                rules[record["id"]] = new
            elif rules.pop(record["id"], None) is None:
                raise KafkaStyle("illegal-state", f"no ACL with id {record['id']}")
        elif op == "complete_initial_load":
            self.impl.loaded = True
        elif op == "authorize":
            return [self.authorize_batch(b) for b in request["batches"]]
        elif op == "authorize_by_resource_type":
            return [self.by_type(q) for q in request["queries"]]
        elif op == "acls":
            return [b for b in map(binding, self.impl.rules.values()) if matches(request["filter"], b)]
        elif op == "acl_count":
            return len(self.impl.rules)
        elif op != "shutdown":
            raise KafkaStyle("unknown-op", f"unknown op {op!r}")
        return None


def main() -> None:
    server, out = Server(), sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            response = {"id": request["id"], "result": server.handle(request)}
        except KafkaStyle as exc:
            response = {"id": request["id"], "error": exc.error}
        except Exception as exc:  # an implementation bug: say so, keep serving
            print(f"internal error: {exc!r}", file=sys.stderr, flush=True)
            response = {"id": request["id"], "error": {"kind": "internal", "message": repr(exc)}}
        out.write(json.dumps(response) + "\n")
        out.flush()
        if request["op"] == "shutdown":
            return


if __name__ == "__main__":
    main()
