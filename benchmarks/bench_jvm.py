"""Throughput of the JVM adapter: py4j round trips, batched authorize(), by-type, whole cases.

    kafka-conformance fetch kafka-clients              # once: kafka-clients 4.3.0 from Maven
    python benchmarks/bench_jvm.py                       # quick
    python benchmarks/bench_jvm.py --acls 100,1000,10000 --batches 1,10,100,1000 --seconds 2
    python benchmarks/bench_jvm.py --load 10000,60000,200000      # snapshot loads only

What is measured (wall clock, ``perf_counter``; each line repeats its call for
about ``--seconds``):

* ``jvm start``: a new JVM with the shim (compiled shim cached), to first answer;
* ``round trip``: one py4j call of a static method returning a short string
  (``KafkaConformanceShim.kafkaVersion``), and one instance call (``aclCount``);
* ``authorize xB``: ``authorize(context, B actions)`` on ``ListAuthorizer`` (our
  Java, a linear scan of every ACL per action) loaded with N ACLs: actions per
  second, one py4j round trip per call;
* ``by-type``: Kafka's real ``authorizeByResourceType`` default (its scan of
  ``acls()`` per call), calls per second;
* ``load N``: ``load_snapshot`` of N ACLs into a fresh ``ListAuthorizer`` (encoding, the
  py4j call, the Java side's duplicate checks), three runs: median and worst;
* ``case``: what the kit does per generated case (new authorizer, configure,
  8-ACL snapshot, initial load, 6 authorize calls of 3 actions, 2 by-type
  calls, close), cases per second: call by call (a py4j round trip each), and
  whole (``run_case``, one round trip).

ACLs: ``N`` ALLOW/DENY READ ACLs for ``User:u<k % 50>`` on TOPIC ``t-<k>`` (every
5th PREFIXED); questions READ on random ``t-<k>`` names by random users.
Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from kafka_conformance.adapters.case import (
    Authorize,
    AuthorizeByResourceType,
    Call,
    CaseRequest,
    CompleteInitialLoad,
    Configure,
    LoadSnapshot,
)
from kafka_conformance.adapters.jvm.adapter import LIST_AUTHORIZER, JvmAuthorizer
from kafka_conformance.adapters.jvm.session import JvmSession, unavailable_reason
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, RequestContext


def rate(call: Callable[[], object], seconds: float) -> tuple[float, int]:
    """(seconds per call, calls made), after one warm-up call."""
    call()
    calls, start = 0, time.perf_counter()
    while True:
        call()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls, calls


def acls(n: int) -> dict[str, AclBinding]:
    rnd = random.Random(n)
    return {
        f"acl-{k}": AclBinding.of(rnd.choice(["ALLOW", "ALLOW", "DENY"]), f"User:u{k % 50}", "READ", "TOPIC",
                                  f"t-{k}", "PREFIXED" if k % 5 == 0 else "LITERAL")
        for k in range(n)
    }


def loaded(session: JvmSession, n: int) -> JvmAuthorizer:
    target = JvmAuthorizer(session, LIST_AUTHORIZER)
    target.configure({})
    target.load_snapshot(acls(n))
    target.complete_initial_load()
    return target


def questions(n: int, batch: int, rnd: random.Random) -> tuple[RequestContext, list[Action]]:
    ctx = RequestContext(KafkaPrincipal("User", f"u{rnd.randrange(50)}"), "10.0.0.1")
    names = [f"t-{rnd.randrange(max(n, 1))}" for _ in range(batch)]
    return ctx, [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name)) for name in names]


def one_case(session: JvmSession, rnd: random.Random) -> None:
    target = JvmAuthorizer(session, LIST_AUTHORIZER)
    target.configure({"super.users": "User:u1", "allow.everyone.if.no.acl.found": "false"})
    target.load_snapshot(dict(list(acls(8).items())))
    target.complete_initial_load()
    for _ in range(6):
        target.authorize(*questions(8, 3, rnd))
    for _ in range(2):
        target.authorize_by_resource_type(questions(8, 1, rnd)[0], AclOperation.READ, ResourceType.TOPIC)
    target.close()


def whole_case(session: JvmSession, rnd: random.Random) -> None:
    calls: list[Call] = [Configure((("super.users", "User:u1"), ("allow.everyone.if.no.acl.found", "false"))),
                         LoadSnapshot(tuple(acls(8).items())), CompleteInitialLoad()]
    for _ in range(6):
        context, actions = questions(8, 3, rnd)
        calls.append(Authorize(context, tuple(actions)))
    for _ in range(2):
        calls.append(AuthorizeByResourceType(questions(8, 1, rnd)[0], AclOperation.READ, ResourceType.TOPIC))
    target = JvmAuthorizer(session, LIST_AUTHORIZER)
    answered = target.run_case(CaseRequest(tuple(calls)))
    assert answered.failure is None and len(answered.answers) == len(calls), answered
    target.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--acls", default="10,1000", help="comma-separated ACL counts")
    parser.add_argument("--batches", default="1,10,100,1000", help="comma-separated actions per call")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--load", help="comma-separated ACL counts: time snapshot loads only, then stop")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason is not None:
        raise SystemExit(f"cannot run: {reason}")
    sizes = [int(x) for x in args.acls.split(",")]
    batches = [int(x) for x in args.batches.split(",")]
    print(f"python {platform.python_version()}, {platform.machine()}, seconds per line {args.seconds}")

    start = time.perf_counter()
    session = JvmSession()
    print(f"jvm start (shim cached): {time.perf_counter() - start:.2f} s, Kafka {session.kafka_version}")
    try:
        if args.load:
            for n in (int(x) for x in args.load.split(",")):
                snapshot = acls(n)
                times = []
                for _ in range(3):
                    target = JvmAuthorizer(session, LIST_AUTHORIZER)
                    target.configure({})
                    began = time.perf_counter()
                    target.load_snapshot(snapshot)
                    times.append(time.perf_counter() - began)
                    assert target.acl_count() == n
                    target.close()
                print(f"load N={n:>7}: median {statistics.median(times):6.2f} s, worst {max(times):6.2f} s "
                      f"({n / statistics.median(times):,.0f} ACLs/s)")
            return
        per, _ = rate(session.ping, args.seconds)
        print(f"round trip, static call: {per * 1e6:8.0f} us")
        probe = loaded(session, 0)
        per, _ = rate(probe.acl_count, args.seconds)
        print(f"round trip, aclCount():  {per * 1e6:8.0f} us")
        probe.close()
        rnd = random.Random(1)
        for n in sizes:
            target = loaded(session, n)
            for b in batches:
                ctx, actions = questions(n, b, rnd)
                per, _ = rate(partial(target.authorize, ctx, actions), args.seconds)
                print(f"N={n:>6} authorize x{b:<5} {per * 1e3:9.3f} ms/call {b / per:12,.0f} actions/s")
            ctx = questions(n, 1, rnd)[0]
            by_type = partial(target.authorize_by_resource_type, ctx, AclOperation.WRITE, ResourceType.TOPIC)
            per, _ = rate(by_type, args.seconds)
            print(f"N={n:>6} by-type (default)      {per * 1e3:9.3f} ms/call {1 / per:12,.0f} calls/s")
            target.close()
        per, _ = rate(partial(one_case, session, rnd), args.seconds)
        print(f"case, call by call:         {per * 1e3:9.3f} ms/case {1 / per:10,.0f} cases/s")
        per, _ = rate(partial(whole_case, session, rnd), args.seconds)
        print(f"case, whole (run_case):     {per * 1e3:9.3f} ms/case {1 / per:10,.0f} cases/s")
    finally:
        session.close()


if __name__ == "__main__":
    main()
