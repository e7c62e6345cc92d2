"""What the process boundary costs: in-process targets against ``cmd:`` targets.

    python benchmarks/bench_adapters.py                 # both tables
    python benchmarks/bench_adapters.py --calls 20000 --examples 300 --seed 3
    python benchmarks/bench_adapters.py --target kafka:4.3.1 --target kafka:3.9.1:acl   # real Kafka too

Two measurements, printed as Markdown tables:

* **suite cases/s** — ``check_authorizer(target, properties=["authorize"])`` with
  a fixed number of derandomized examples: what a user waits for.  Targets: the
  example ``MyAuthorizer`` in-process (``python:my_authorizer:factory``), the
  same code behind the protocol (``examples/python_subprocess``), and the
  Node.js implementation.  Each case makes a fresh adapter, which for ``cmd:``
  targets means a ``reset`` on the shared process, then configure, load,
  complete, and 1-6 ``authorize`` calls.
* **raw calls/s** — ``authorize(context, [3 actions])`` in a loop on a loaded
  adapter (8 ACLs), one call per request line; and for ``cmd:`` targets also
  ``run_case`` of 100 questions (one request line).  "trivial" answers DENIED to
  everything, so its row is the protocol's own overhead.

The goal (issue "Subprocess adapter"): a subprocess target within 3x of the
in-process one in suite cases/s.  A raw call through a pipe costs tens of
microseconds against about one for a Python call, so the raw ratio is large;
batching is how a caller that can batch wins it back.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from kafka_conformance.adapters.case import Authorize, CaseRequest
from kafka_conformance.adapters.jsonlines.adapter import SubprocessAuthorizer, close_shared_sessions
from kafka_conformance.adapters.protocol import AuthorizerUnderTest, Capabilities
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.targets import resolve_target
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "python_authorizer"))
SERVER = ROOT / "examples" / "python_subprocess" / "my_authorizer_server.py"
NODE_IMPL = ROOT / "examples" / "node_authorizer" / "authorizer.js"
NODE = shutil.which("node")

CONTEXT = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
ACTIONS = [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, n)) for n in ("foo", "foobar", "bar")]
ACLS = {
    f"acl-{i}": AclBinding.of(perm, who, op, "TOPIC", name, pattern)
    for i, (perm, who, op, name, pattern) in enumerate([
        ("ALLOW", "User:alice", "READ", "foo", "PREFIXED"),
        ("DENY", "User:alice", "READ", "foob", "PREFIXED"),
        ("ALLOW", "User:*", "WRITE", "*", "LITERAL"),
        ("ALLOW", "User:bob", "ALL", "bar", "LITERAL"),
        ("DENY", "User:*", "DESCRIBE", "baz", "LITERAL"),
        ("ALLOW", "User:carol", "READ", "f", "PREFIXED"),
        ("ALLOW", "User:alice", "ALTER", "bar", "LITERAL"),
        ("DENY", "User:alice", "WRITE", "foo", "LITERAL"),
    ])
}


class TrivialInProcess:
    """The in-process counterpart of ``my_authorizer_server.py --trivial``."""

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def configure(self, properties: object) -> None: ...
    def load_snapshot(self, acls: object) -> None: ...
    def apply(self, record: object) -> None: ...
    def complete_initial_load(self) -> None: ...

    def authorize(self, context: RequestContext, actions: list[Action]) -> list[AuthorizationResult]:
        return [AuthorizationResult.DENIED] * len(actions)

    def authorize_by_resource_type(self, *args: object) -> AuthorizationResult:
        return AuthorizationResult.DENIED

    def acls(self, acl_filter: object) -> list[AclBinding]:
        return []

    def acl_count(self) -> int:
        return 0

    def close(self) -> None: ...


def _cmd(*argv: str) -> str:
    return "cmd:" + shlex.join(argv)


def suite_targets(extra: list[str]) -> list[tuple[str, str]]:
    found = [(f"{spec} (JVM)" if spec.startswith("kafka:") else spec, spec) for spec in extra]
    found += [("in-process Python (MyAuthorizer)", "python:my_authorizer:factory"),
             ("subprocess Python (same MyAuthorizer)", _cmd(sys.executable, str(SERVER)))]
    if NODE:
        found.append(("subprocess Node.js (authorizer.js)", _cmd(NODE, str(NODE_IMPL))))
    return found


def raw_targets() -> list[tuple[str, Callable[[], AuthorizerUnderTest]]]:
    from my_authorizer import factory

    found: list[tuple[str, Callable[[], AuthorizerUnderTest]]] = [
        ("in-process trivial", TrivialInProcess),
        ("in-process Python (MyAuthorizer)", factory),
        ("subprocess trivial (Python)", lambda: SubprocessAuthorizer([sys.executable, str(SERVER), "--trivial"])),
        ("subprocess Python (MyAuthorizer)", lambda: SubprocessAuthorizer([sys.executable, str(SERVER)])),
    ]
    if NODE:
        found.append(("subprocess Node.js", lambda: SubprocessAuthorizer([NODE, str(NODE_IMPL)])))
    return found


def bench_suite(examples: int, seed: int, extra: list[str]) -> list[tuple[str, float, float]]:
    rows = []
    for label, spec in suite_targets(extra):
        target = resolve_target(spec)
        check_authorizer(target, Options(seed=seed, max_examples=10), properties=["authorize"])  # warm-up: start, import
        started = time.perf_counter()
        report = check_authorizer(target, Options(seed=seed, max_examples=examples), properties=["authorize"])
        elapsed = time.perf_counter() - started
        cases = report.results[0].examples
        assert report.verdict.value == "conforms", report
        rows.append((label, cases / elapsed, elapsed))
    close_shared_sessions()
    return rows


def bench_raw(calls: int) -> list[tuple[str, float, float | None]]:
    rows = []
    for label, make in raw_targets():
        adapter = make()
        try:
            adapter.configure({"super.users": "User:admin"})
            adapter.load_snapshot(ACLS)
            adapter.complete_initial_load()
            for _ in range(200):
                adapter.authorize(CONTEXT, ACTIONS)
            started = time.perf_counter()
            for _ in range(calls):
                adapter.authorize(CONTEXT, ACTIONS)
            per_call = (time.perf_counter() - started) / calls
            batched = None
            if isinstance(adapter, SubprocessAuthorizer):
                lines = max(1, calls // 100)
                started = time.perf_counter()
                for _ in range(lines):
                    adapter.run_case(CaseRequest((Authorize(CONTEXT, tuple(ACTIONS)),) * 100))
                batched = (time.perf_counter() - started) / (lines * 100)
            rows.append((label, per_call, batched))
        finally:
            adapter.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="Hypothesis examples for the suite run")
    parser.add_argument("--calls", type=int, default=10000, help="authorize() calls per raw measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", action="append", default=[],
                        help="also measure this target in the suite table (e.g. kafka:4.3.1, kafka:3.9.1:acl)")
    args = parser.parse_args()
    node = "none" if NODE is None else shutil.which("node")
    print(f"Python {platform.python_version()} on {platform.machine()}, node: {node}\n")

    suite = bench_suite(args.examples, args.seed, args.target)
    base = suite[0][1]
    print(f"Suite, property `authorize`, {args.examples} examples, seed {args.seed}:\n")
    print("| target | cases/s | time (s) | slowdown vs in-process |")
    print("|---|---:|---:|---:|")
    for label, rate, elapsed in suite:
        print(f"| {label} | {rate:,.0f} | {elapsed:.2f} | {base / rate:.2f}x |")

    raw = bench_raw(args.calls)
    trivial = raw[0][1]
    print(f"\nRaw `authorize(context, 3 actions)`, {args.calls} calls, 8 ACLs:\n")
    print("| target | calls/s | µs/call | vs in-process trivial | batched (100 per line) calls/s | µs/call |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, per_call, batched in raw:
        extra = "| – | – |" if batched is None else f"| {1 / batched:,.0f} | {batched * 1e6:.1f} |"
        print(f"| {label} | {1 / per_call:,.0f} | {per_call * 1e6:.1f} | {per_call / trivial:.0f}x {extra}")


if __name__ == "__main__":
    main()
