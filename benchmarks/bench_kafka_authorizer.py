"""Apache Kafka's real StandardAuthorizer beside the reference's indexed engine, on AuthorizerBenchmark data.

    kafka-conformance fetch kafka:4.3.1
    python benchmarks/bench_kafka_authorizer.py                              # 10k and 50k resources
    python benchmarks/bench_kafka_authorizer.py --sizes 10000,50000,200000 --release 4.3.1

Data and queries are those of ``bench_authorizer.py`` (Kafka's ``AuthorizerBenchmark``
shape: ``--acl-count`` ALLOW READ ACLs per resource, ``--deny`` % of them with a
DENY, the per-host PREFIXED and wildcard entries).  Both sides get the same ACLs
and the same questions, in one run:

* **Kafka**: the release's real ``StandardAuthorizer`` in the kit's JVM, fed with
  ``loadSnapshot``; each ``authorize()`` call (one action) is timed *inside the
  JVM* with ``System.nanoTime`` (no py4j per call, after a warm-up of a tenth of
  the calls), as JMH would time it, minus JMH's harness; a query stops after
  ``--calls`` calls or 30 s (the table says how many were made);
* **indexed**: ``reference-indexed`` (``IndexedAcls``) timed call by call with
  ``perf_counter_ns`` in this process.

Queries: ``jmh`` (Kafka's ``testAuthorizer``), ``read-mix``, ``write-cold`` (a
different resource per call, nothing memoised) and ``by-type`` (Kafka's
``testAuthorizeByResourceType``; StandardAuthorizer has no override, so Kafka runs
the interface default).  Reports median and p99 per call, and the ratio
indexed/Kafka of the medians.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_authorizer import PREFIX, USER, benchmark_acls, summary, timed

from kafka_conformance.adapters.jvm.codec import decode_tokens, enc_action, enc_context
from kafka_conformance.adapters.jvm.kafka_target import kafka_factory
from kafka_conformance.reference.acl.values import AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.profiles import Profile, profile_for
from kafka_conformance.reference.indexed.acls import IndexedAcls


def queries(resources: int, calls: int, rnd: random.Random) -> dict[str, tuple[RequestContext, list[Action]]]:
    local = RequestContext(USER, "127.0.0.1")
    topics = [i for i in range(resources) if i % 10]
    return {
        "jmh": (local, [Action(AclOperation.WRITE, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}95"))]),
        "read-mix": (local, [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}{rnd.choice(topics)}"))
                             for _ in range(min(calls, 5000))]),
        "write-cold": (local, [Action(AclOperation.WRITE, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}{rnd.choice(topics)}"))
                               for _ in range(min(calls, 5000))]),
    }


def _one(index: IndexedAcls, ctx: RequestContext, actions: list[Action], counter: Iterator[int],
         config: AuthorizerConfig, profile: Profile) -> object:
    return index.decide(ctx, actions[next(counter) % len(actions)], config, profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default="4.3.1", help="StandardAuthorizer release (kafka:VERSION)")
    parser.add_argument("--sizes", default="10000,50000", help="comma-separated resourceCount values")
    parser.add_argument("--acl-count", type=int, default=10)
    parser.add_argument("--deny", type=float, default=20.0)
    parser.add_argument("--host-pre-count", type=int, default=10)
    parser.add_argument("--calls", type=int, default=20000, help="timed authorize() calls per query")
    parser.add_argument("--by-type-calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    factory, _, release = kafka_factory(args.release)
    profile, config = profile_for(str(release.version), "standard"), AuthorizerConfig()
    print(f"# Kafka {release.version} StandardAuthorizer vs reference-indexed; {platform.python_implementation()} "
          f"{platform.python_version()}; aclCount={args.acl_count} deny={args.deny}% calls={args.calls}", flush=True)
    rows = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        acls = dict(benchmark_acls(size, args.acl_count, args.deny, args.host_pre_count, args.seed))
        kafka = factory()
        kafka.configure({})
        started = time.perf_counter()
        kafka.load_snapshot(acls)
        kafka.complete_initial_load()
        loaded_kafka = time.perf_counter() - started
        started = time.perf_counter()
        index = IndexedAcls(list(acls.values()))
        loaded_index = time.perf_counter() - started
        print(f"resources={size:,} ACLs={len(acls):,}: loaded Kafka in {loaded_kafka:.1f} s (through py4j), "
              f"indexed in {loaded_index:.1f} s", flush=True)
        for name, (ctx, actions) in queries(size, args.calls, random.Random(args.seed + size)).items():
            answer = kafka._call("timeAuthorize()", "timeAuthorize", enc_context(ctx), "".join(map(enc_action, actions)),
                                 args.calls)
            k_med, k_p99, _, made = (int(t or 0) for t in decode_tokens(answer))
            samples = timed(partial(_one, index, ctx, actions, iter(range(10**9)), config, profile),
                            args.calls, time.perf_counter_ns)
            i_med, i_p99 = summary(samples)
            rows.append((size, len(acls), f"{name} ({made:,} Kafka calls)", k_med / 1000, k_p99 / 1000, i_med, i_p99))
            print(_row(*rows[-1]), flush=True)
        by_ctx = RequestContext(USER, "127.0.0.2")
        answer = kafka._call("timeByType()", "timeByType", enc_context(by_ctx), AclOperation.READ.code,
                             ResourceType.TOPIC.code, args.by_type_calls)
        k_med, k_p99, _, made_by_type = decode_tokens(answer)
        samples = timed(partial(index.authorize_by_resource_type, by_ctx, AclOperation.READ, ResourceType.TOPIC, config,
                                profile, ByTypeVariant.INTERFACE_DEFAULT), args.by_type_calls, time.perf_counter_ns)
        i_med, i_p99 = summary(samples)
        rows.append((size, len(acls), f"by-type ({made_by_type} Kafka calls)", int(k_med or 0) / 1000,
                     int(k_p99 or 0) / 1000, i_med, i_p99))
        print(_row(*rows[-1]), flush=True)
        kafka.close()
    print()
    print("| resources | ACLs | query | Kafka median µs | Kafka p99 µs | indexed median µs | indexed p99 µs | Kafka ÷ indexed |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(_row(*row))


def _row(size: int, n: int, name: str, km: float, kp: float, im: float, ip: float) -> str:
    """One table row (also printed as soon as it is measured: a long run keeps what it has)."""
    return f"| {size:,} | {n:,} | {name} | {km:.2f} | {kp:.2f} | {im:.2f} | {ip:.2f} | {km / im:.1f}x |"


if __name__ == "__main__":
    main()
