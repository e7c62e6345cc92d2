"""Latency of authorize() and authorizeByResourceType on Kafka's AuthorizerBenchmark data.

    python benchmarks/bench_authorizer.py                      # quick: 10k and 50k resources
    python benchmarks/bench_authorizer.py --sizes 10000,50000,200000 --acl-count 10 --deny 20

The data follows Kafka's ``jmh-benchmarks/.../acl/AuthorizerBenchmark.java``:
resource ``i`` is a GROUP if
``i % 10 == 0`` else a TOPIC, PREFIXED if ``i % 5 == 0`` else LITERAL, named
``foo-bar35_resource-<i>``; each gets ``--acl-count`` ALLOW READ ACLs for
``User:test-user``, ``User:test-user1``, ... (host ``*``), each followed with
probability ``--deny`` % by the matching DENY.  Plus PREFIXED TOPIC
``foo-bar35_resource-`` with per-host ALLOW (and maybe DENY) READ for
``User:test-user`` from ``127.0.0.<h>``, ``h < --host-pre-count``, and LITERAL
TOPIC ``*`` with ``resourceCount/10`` such entries for hosts ``127.0.0<h>`` (no
dot: Kafka's quirk).  Kafka adds them in HashMap order; here the resource
patterns are added in a seeded shuffled order, each pattern's ACLs together.

Queries (each timed call by call with ``perf_counter_ns``; median and p99):

* ``jmh``: Kafka's ``testAuthorizer``, WRITE on TOPIC ``foo-bar35_resource-95``
  by ``User:test-user`` from 127.0.0.1.  Every ACL is READ, so nothing applies
  and the answer lists all of R (which holds the ``resourceCount/10`` wildcard
  ACLs); the indexed evaluator memoises that list per name.
* ``read-mix``: READ on a random existing resource by a random
  ``User:test-user<k>`` from 127.0.0.1 (ALLOWED or DENIED by an ACL).
* ``write-cold``: WRITE on a different random resource each call, so the
  memoised R never helps: the cost of building R from scratch.
* ``write-cold, R read``: the same, and the answer's ACL list is read in full
  (the indexed engine hands R out as a lazily merged view, :mod:`.merged`;
  reading it costs O(|R|) once, which this row shows).
* ``by-type/<variant>``: Kafka's ``testAuthorizeByResourceType``, READ on TOPIC
  by ``User:test-user`` from 127.0.0.2.  Marked ``[all dominated]`` when the
  data happens to hold a DENY for 127.0.0.2 on PREFIXED ``foo-bar35_resource-``:
  then every allow is dominated, the spec's scan (Kafka's default) tests them all,
  and the indexed search jumps over them by name (``reference/indexed/dominance.py``).
* ``add+remove``: one KIP-801 record pair (a new ACL added, then removed).

The spec (``authorize.decide`` and ``by_resource_type`` over a list, a full scan
per call) is timed only at sizes up to ``--spec-max`` and with ``--spec-calls``
calls; its ground truth is never timed (its candidate enumeration is quadratic).
``--seeds 1-10`` times only the by-type queries, on each data seed at the first
size, indexed against the spec (the interface default algorithm is Kafka's
default), and prints per seed and the worst seed's ratio spec median / indexed
median, with the indexed p99 and first call (which builds the sorted keys).

Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator

from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant, authorize_by_resource_type
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decide import decide
from kafka_conformance.reference.authorizer.decision import Action, Decision, RequestContext
from kafka_conformance.reference.authorizer.profiles import Profile, profile_for
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.indexed.authorizer import IndexedAuthorizer

PREFIX = "foo-bar35_resource-"
USER = KafkaPrincipal("User", "test-user")
READ, WRITE = AclOperation.READ, AclOperation.WRITE
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY


def benchmark_acls(
    resources: int, acl_count: int, deny_percent: float, host_pre_count: int, seed: int
) -> Iterator[tuple[str, AclBinding]]:
    """(id, binding) in insertion order; entries are shared objects to keep memory down."""
    rnd = random.Random(seed)
    entries = {
        (k, perm): AccessControlEntry(f"User:test-user{k or ''}", "*", READ, perm)
        for k in range(acl_count)
        for perm in (ALLOW, DENY)
    }
    patterns: list[tuple[ResourcePattern, list[AccessControlEntry]]] = []
    for i in range(resources):
        pattern = ResourcePattern(
            ResourceType.GROUP if i % 10 == 0 else ResourceType.TOPIC,
            f"{PREFIX}{i}",
            PatternType.PREFIXED if i % 5 == 0 else PatternType.LITERAL,
        )
        chosen = []
        for k in range(acl_count):
            chosen.append(entries[k, ALLOW])
            if rnd.random() * 100.0 < deny_percent:
                chosen.append(entries[k, DENY])
        patterns.append((pattern, chosen))
    for pattern, hosts in (
        (ResourcePattern(ResourceType.TOPIC, PREFIX, PatternType.PREFIXED), [f"127.0.0.{h}" for h in range(host_pre_count)]),
        (ResourcePattern(ResourceType.TOPIC, "*"), [f"127.0.0{h}" for h in range(resources // 10)]),
    ):
        chosen = []
        for host in hosts:
            chosen.append(AccessControlEntry(str(USER), host, READ, ALLOW))
            if rnd.random() * 100.0 < deny_percent:
                chosen.append(AccessControlEntry(str(USER), host, READ, DENY))
        patterns.append((pattern, chosen))
    rnd.shuffle(patterns)
    n = 0
    for pattern, chosen in patterns:
        for entry in chosen:
            n += 1
            yield f"acl-{n}", AclBinding(pattern, entry)


CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.thread_time_ns}


def timed(call: Callable[[], object], calls: int, clock: Callable[[], int]) -> list[float]:
    """Per-call latencies in microseconds."""
    out = []
    for _ in range(calls):
        start = clock()
        call()
        out.append((clock() - start) / 1000.0)
    return out


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99


class SpecEvaluator:
    """The spec functions over a plain list: what ``ReferenceAuthorizer`` runs per
    call, minus its store (whose duplicate check makes loading quadratic)."""

    def __init__(self, acls: list[AclBinding], profile: Profile) -> None:
        self.acls, self.profile, self.config = acls, profile, AuthorizerConfig()

    def authorize(self, context: RequestContext, actions: list[Action]) -> list[Decision]:
        return [decide(self.acls, context, a, self.config, self.profile) for a in actions]

    def authorize_by_resource_type(
        self, context: RequestContext, op: AclOperation, rtype: ResourceType, variant: ByTypeVariant
    ) -> Decision:
        return authorize_by_resource_type(self.acls, context, op, rtype, self.config, self.profile, variant)


def run_size(args: argparse.Namespace, resources: int, rows: list[list[str]]) -> float:
    """Measure one size; returns the indexed ``jmh`` median (for the ratio line)."""
    profile = profile_for("4.3.0", "standard")
    started = time.perf_counter()
    acls = dict(benchmark_acls(resources, args.acl_count, args.deny, args.host_pre_count, args.seed))
    made = time.perf_counter() - started
    rnd = random.Random(args.seed + 1)
    topics = [i for i in range(resources) if i % 10]
    read_mix = [
        (
            RequestContext(KafkaPrincipal("User", f"test-user{rnd.randrange(args.acl_count) or ''}"), "127.0.0.1"),
            [Action(READ, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}{rnd.choice(topics)}"))],
        )
        for _ in range(1000)
    ]
    cold = [[Action(WRITE, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}{i}"))] for i in rnd.sample(topics, len(topics))]
    jmh_context = RequestContext(USER, "127.0.0.1")
    jmh_actions = [Action(WRITE, ResourcePattern(ResourceType.TOPIC, f"{PREFIX}95"))]
    by_type_context = RequestContext(USER, "127.0.0.2")
    size = f"{resources:,}"
    clock = CLOCKS[args.clock]
    jmh_median = float("nan")
    # Did the coin flips give 127.0.0.2 a DENY on the PREFIXED foo-bar35_resource-?
    # Then every allow the by-type scan sees is dominated: its worst case.
    host_deny = AclBinding(
        ResourcePattern(ResourceType.TOPIC, PREFIX, PatternType.PREFIXED),
        AccessControlEntry(str(USER), "127.0.0.2", READ, DENY),
    )
    dominated = " [all dominated]" if host_deny in acls.values() else ""
    for label in ("indexed", "spec"):
        if label == "spec" and resources > args.spec_max:
            continue
        calls = args.calls if label == "indexed" else args.spec_calls
        gc.collect()
        started = time.perf_counter()
        authz: IndexedAuthorizer | SpecEvaluator
        if label == "indexed":
            authz = IndexedAuthorizer(profile)
            authz.load_snapshot(acls)
            authz.complete_initial_load()
        else:
            authz = SpecEvaluator(list(acls.values()), profile)
        build = time.perf_counter() - started
        rows.append([label, size, f"{len(acls):,}", "build (data + index)", f"{(build + made) * 1e6:,.0f}", "", "1"])
        gc.disable()  # a collection inside a timed call would be noise, not the evaluator
        try:
            samples = timed(lambda a=authz: a.authorize(jmh_context, jmh_actions), calls, clock)
            if label == "indexed":
                jmh_median = summary(samples)[0]
            add_row(rows, label, size, len(acls), "jmh (WRITE, nothing applies)", samples)
            mix = itertools.cycle(read_mix)
            samples = timed(lambda a=authz, m=mix: a.authorize(*next(m)), calls, clock)
            add_row(rows, label, size, len(acls), "read-mix (an ACL decides)", samples)
            fresh = itertools.cycle(cold)
            samples = timed(lambda a=authz, f=fresh: a.authorize(jmh_context, next(f)), min(calls, len(cold)), clock)
            add_row(rows, label, size, len(acls), "write-cold (R not memoised)", samples)
            fresh = itertools.cycle(cold[::-1])
            samples = timed(
                lambda a=authz, f=fresh: [tuple(d.acls) for d in a.authorize(jmh_context, next(f))],
                min(calls, len(cold)),
                clock,
            )
            add_row(rows, label, size, len(acls), "write-cold, R read (listed)", samples)
            variants = [ByTypeVariant.INTERFACE_DEFAULT, ByTypeVariant.ACL_AUTHORIZER]
            if label == "indexed" and args.truth:
                variants.append(ByTypeVariant.GROUND_TRUTH)
            for variant in variants:
                n = args.by_type_calls if label == "indexed" else args.spec_calls
                n = args.truth_calls if variant is ByTypeVariant.GROUND_TRUTH else n
                samples = timed(
                    lambda a=authz, v=variant: a.authorize_by_resource_type(by_type_context, READ, ResourceType.TOPIC, v),
                    n,
                    clock,
                )
                add_row(rows, label, size, len(acls), f"by-type/{variant.value}{dominated}", samples)
            if isinstance(authz, IndexedAuthorizer):
                spare = AclBinding.of("ALLOW", "User:someone", "WRITE", "TOPIC", f"{PREFIX}new", "LITERAL")
                records = (AddAcl("spare", spare), RemoveAcl("spare"))
                samples = timed(lambda a=authz, r=records: a.apply_all(r), calls, clock)
                add_row(rows, label, size, len(acls), "add+remove (record pair)", samples)
        finally:
            gc.enable()
        del authz
    return jmh_median


def parse_seeds(text: str) -> list[int]:
    """``1-10`` or ``1,3,7``."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(t) for t in text.split(",") if t]


def run_seeds(args: argparse.Namespace, resources: int) -> None:
    """The by-type queries on several data seeds: the worst seed, not the best."""
    profile = profile_for("4.3.0", "standard")
    clock = CLOCKS[args.clock]
    context = RequestContext(USER, "127.0.0.2")
    host_deny = AclBinding(
        ResourcePattern(ResourceType.TOPIC, PREFIX, PatternType.PREFIXED),
        AccessControlEntry(str(USER), "127.0.0.2", READ, DENY),
    )
    print(
        "| seed | all dominated | variant | spec median µs | indexed first µs | indexed median µs "
        "| indexed p99 µs | ratio (median) | ratio (p99) |"
    )
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    worst: dict[str, tuple[float, float, int]] = {}
    for seed in parse_seeds(args.seeds):
        acls = dict(benchmark_acls(resources, args.acl_count, args.deny, args.host_pre_count, seed))
        dominated = host_deny in acls.values()
        indexed = IndexedAuthorizer(profile)
        indexed.load_snapshot(acls)
        indexed.complete_initial_load()
        spec = SpecEvaluator(list(acls.values()), profile)
        for variant in (ByTypeVariant.INTERFACE_DEFAULT, ByTypeVariant.ACL_AUTHORIZER):
            gc.collect()
            gc.disable()
            try:
                calls: list[tuple[IndexedAuthorizer | SpecEvaluator, int]] = [
                    (indexed, 1), (indexed, args.by_type_calls), (spec, args.spec_calls)
                ]
                first, fast, slow = (
                    timed(lambda a=authz, v=variant: a.authorize_by_resource_type(context, READ, ResourceType.TOPIC, v), n, clock)
                    for authz, n in calls
                )
            finally:
                gc.enable()
            median, p99 = summary(fast)
            first_call = first[0]
            spec_median = statistics.median(slow)
            ratio, ratio_p99 = spec_median / median, spec_median / p99
            print(
                f"| {seed} | {'yes' if dominated else 'no'} | {variant.value} | {spec_median:,.1f} | {first_call:,.1f} "
                f"| {median:,.1f} | {p99:,.1f} | {ratio:,.0f}x | {ratio_p99:,.0f}x |",
                flush=True,
            )
            if variant.value not in worst or ratio < worst[variant.value][0]:
                worst[variant.value] = (ratio, ratio_p99, seed)
    for name, (ratio, ratio_p99, seed) in worst.items():
        print(f"\nworst seed for by-type/{name}: seed {seed}, spec/indexed median ratio {ratio:,.0f}x (p99 {ratio_p99:,.0f}x)")


def add_row(rows: list[list[str]], label: str, size: str, acls: int, query: str, samples: list[float]) -> None:
    median, p99 = summary(samples)
    rows.append([label, size, f"{acls:,}", query, f"{median:,.1f}", f"{p99:,.1f}", str(len(samples))])
    print(f"  {label:8} {size:>8} {query:32} median {median:12,.1f} µs  p99 {p99:12,.1f} µs", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000", help="comma-separated resourceCount values")
    parser.add_argument("--acl-count", type=int, default=10, help="ALLOW ACLs per resource (Kafka: 10 or 50)")
    parser.add_argument("--deny", type=float, default=20.0, help="deny percentage (Kafka: 0..100)")
    parser.add_argument("--host-pre-count", type=int, default=10, help="per-host PREFIXED entries (10 at HEAD, 1000 at 3.9)")
    parser.add_argument("--calls", type=int, default=5000, help="timed authorize() calls per query (indexed)")
    parser.add_argument("--by-type-calls", type=int, default=200, help="timed by-type calls per variant (indexed)")
    parser.add_argument("--spec-max", type=int, default=10000, help="time the spec only up to this many resources")
    parser.add_argument("--spec-calls", type=int, default=5, help="timed calls per query for the spec")
    parser.add_argument("--truth", action="store_true", help="also time the ground-truth by-type variant (slow)")
    parser.add_argument("--truth-calls", type=int, default=3, help="timed ground-truth calls")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", default="", help="by-type only, on these data seeds (1-10 or 1,3,7) at the first size")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall: perf_counter_ns; cpu: this thread's CPU time (p99 without preemption by other processes)",
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    print(
        f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
        f"aclCount={args.acl_count} deny={args.deny}% hostPreCount={args.host_pre_count} clock={args.clock}",
        flush=True,
    )
    if args.seeds:
        run_seeds(args, sizes[0])
        return
    rows: list[list[str]] = []
    medians = {size: run_size(args, size, rows) for size in sizes}
    print()
    print("| evaluator | resources | ACLs | query | median µs | p99 µs | calls |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if len(sizes) > 1:
        low, high = min(sizes), max(sizes)
        print(f"\nindexed jmh median ratio {high:,}/{low:,} resources: {medians[high] / medians[low]:.2f}")


if __name__ == "__main__":
    main()
