"""A tiny implementation of the subprocess protocol that misbehaves on request.

    python fake_impl.py MODE

It stores ACLs by id and answers DENIED to everything, which is enough to test
the plumbing; MODE chooses how it misbehaves when asked ``authorize``:

* ``ok``: it does not;
* ``crash``: writes to stderr and exits with code 3;
* ``hang``: never answers (and ignores SIGTERM with ``hang-stubborn``);
* ``garbage``: prints a line that is not JSON;
* ``wrong-id``: answers with another id;
* ``no-result``: answers with neither ``result`` nor ``error``;
* ``short``: answers one result fewer than the actions sent;
* ``errors``: answers every batch with the error kind named by the first action's
  resource name (``not-ready``, ``internal``...);
* ``bad-hello``: declares a capability of the wrong type (at ``hello``);
* ``exit-after``: exits right after answering ``authorize``;
* ``spam``: writes 1 MiB to stderr at start-up, then behaves.

It uses only the standard library, so the tests can run it with any Python.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
CAPS = {
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


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def authorize(rid: int, request: dict[str, object]) -> None:
    batches = request["batches"]
    assert isinstance(batches, list)
    if MODE == "crash":
        sys.stderr.write("fake: segfault-like failure while authorizing\n")
        sys.stderr.flush()
        os._exit(3)
    if MODE.startswith("hang"):
        if MODE == "hang-stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
    if MODE == "garbage":
        print("DEBUG: authorizing now", flush=True)
        return
    if MODE == "wrong-id":
        send({"id": rid + 1000, "result": [["DENIED"] * len(b["actions"]) for b in batches]})
        return
    if MODE == "no-result":
        send({"id": rid})
        return
    if MODE == "errors":
        kind = batches[0]["actions"][0]["name"]
        send({"id": rid, "result": [{"error": {"kind": kind, "message": f"fake {kind}"}} for _ in batches]})
        return
    missing = 1 if MODE == "short" else 0
    send({"id": rid, "result": [["DENIED"] * (len(b["actions"]) - missing) for b in batches]})
    if MODE == "exit-after":
        sys.exit(0)


def main() -> None:
    if MODE == "spam":
        sys.stderr.write("x" * (1 << 20) + "\nspam done\n")
        sys.stderr.flush()
    acls: dict[str, object] = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        rid, op = request["id"], request["op"]
        if op == "hello":
            caps = dict(CAPS, prefixed="yes") if MODE == "bad-hello" else CAPS
            send({"id": rid, "result": {"protocol": 1, "implementation": f"fake-{MODE}", "capabilities": caps}})
        elif op == "reset":
            acls.clear()
            send({"id": rid, "result": None})
        elif op == "configure":
            users = request["properties"].get("super.users", "")
            if users and ":" not in users:
                send({"id": rid, "error": {"kind": "config-error", "message": "not Type:name", "key": "super.users"}})
            else:
                send({"id": rid, "result": None})
        elif op == "load_snapshot":
            acls.clear()
            acls.update({a["id"]: a["acl"] for a in request["acls"]})
            send({"id": rid, "result": None})
        elif op == "apply":
            record = request["record"]
            if record["type"] == "add":
                acls[record["id"]] = record["acl"]
            elif record["id"] in acls:
                del acls[record["id"]]
            else:
                send({"id": rid, "error": {"kind": "illegal-state", "message": "unknown id"}})
                continue
            send({"id": rid, "result": None})
        elif op == "authorize":
            authorize(rid, request)
        elif op == "authorize_by_resource_type":
            send({"id": rid, "result": ["DENIED" for _ in request["queries"]]})
        elif op == "acls":
            send({"id": rid, "result": list(acls.values())})
        elif op == "acl_count":
            send({"id": rid, "result": len(acls)})
        elif op == "complete_initial_load":
            send({"id": rid, "result": None})
        elif op == "shutdown":
            send({"id": rid, "result": None})
            return
        else:
            send({"id": rid, "error": {"kind": "unknown-op", "message": op}})


if __name__ == "__main__":
    main()
