"""Hypothesis strategies over the producer failure-trace alphabet (``docs/spec/idempotence.md`` §5.1).

:func:`producer_traces` draws a whole :class:`ProducerTrace`: the application's
sends, waits and flushes, cluster faults between them (failover, broker crash
and restart, producer-id expiry, disconnecting everyone, a leaderless period),
a fault plan for single produce requests (drop the request, drop the response
after the append, delay the answer so later ones overtake it, disconnect before
or after handling, inject an error code with or without the append), the
producer configuration (inside and outside the idempotence guarantee) and the
topic (replication factor and min.insync.replicas).

Shrinking-friendly by construction: every choice lists its simplest option
first (Hypothesis shrinks ``sampled_from`` towards the first element and lists
towards fewer elements), so a failing trace shrinks to the fewest steps, no
rules, the default configuration, a single partition and sequences from 0.

``wire=True`` draws only what a real client in real time can run: sequences
start at 0 (real clients cannot be seeded) and waits stay short.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hypothesis import strategies as st

from kafka_conformance.reference.broker.batches import INT32_MAX
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import (
    DEFAULT_PRODUCER,
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    Step,
    WaitStep,
)

__all__ = [
    "ERRORS_AFTER_APPEND",
    "ERRORS_BEFORE_APPEND",
    "OUTSIDE_CONFIGS",
    "PRODUCER_CONFIGS",
    "cluster_specs",
    "fault_plans",
    "producer_configs",
    "producer_traces",
    "steps",
]

ERRORS_BEFORE_APPEND = (
    ProduceError.NOT_LEADER_OR_FOLLOWER,
    ProduceError.NOT_ENOUGH_REPLICAS,
    ProduceError.REQUEST_TIMED_OUT,
    ProduceError.UNKNOWN_SERVER_ERROR,
    ProduceError.UNKNOWN_PRODUCER_ID,
    ProduceError.KAFKA_STORAGE_ERROR,
    ProduceError.MESSAGE_TOO_LARGE,
    ProduceError.INVALID_RECORD,
)
"""Injected instead of handling the request (nothing written).  DUPLICATE_SEQUENCE_NUMBER and
OUT_OF_ORDER_SEQUENCE_NUMBER are not here: without the append they are a lying broker, and a
client that believes them loses or re-stamps a record through no fault of its own."""

ERRORS_AFTER_APPEND = (
    ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
    ProduceError.REQUEST_TIMED_OUT,
    ProduceError.UNKNOWN_SERVER_ERROR,
    ProduceError.NOT_LEADER_OR_FOLLOWER,
)
"""Answered after the broker handled (and possibly appended) the batch.  DUPLICATE_SEQUENCE_NUMBER
is left out: the rule replaces whatever the broker answered, so on a batch the broker rejected
(a knock-on OUT_OF_ORDER_SEQUENCE_NUMBER, say) it claims success for an unwritten record.  The
trace table injects it where the append is certain (row 19)."""

_TIMEOUTS = {"request.timeout.ms": "1500", "delivery.timeout.ms": "8000", "retry.backoff.ms": "50"}

PRODUCER_CONFIGS: tuple[dict[str, str], ...] = (
    dict(DEFAULT_PRODUCER),
    {**DEFAULT_PRODUCER, "max.in.flight.requests.per.connection": "1"},
    {**DEFAULT_PRODUCER, "linger.ms": "20"},
    {**DEFAULT_PRODUCER, "max.in.flight.requests.per.connection": "2"},
)
"""Idempotent configurations: inside the guarantee (with a topic of RF >= 2, min.insync >= 2)."""

OUTSIDE_CONFIGS: tuple[dict[str, str], ...] = (
    {**_TIMEOUTS, "enable.idempotence": "false", "acks": "all", "max.in.flight.requests.per.connection": "5", "linger.ms": "0"},
    {**_TIMEOUTS, "acks": "1", "linger.ms": "0"},
    {**_TIMEOUTS, "enable.idempotence": "false", "acks": "all", "max.in.flight.requests.per.connection": "1", "linger.ms": "0"},
    {**_TIMEOUTS, "retries": "0", "linger.ms": "0"},
    {**_TIMEOUTS, "acks": "0", "linger.ms": "0"},
    {**_TIMEOUTS, "max.in.flight.requests.per.connection": "6", "enable.idempotence": "false", "linger.ms": "0"},
)
"""Configurations the Java client accepts but that void part of the guarantee (idempotence off,
explicitly or silently by KAFKA-13673; acks other than all)."""


@functools.cache
def producer_configs(*, outside: bool = True) -> st.SearchStrategy[dict[str, str]]:
    """A producer configuration (Java property names), the default first."""
    inside = st.sampled_from(PRODUCER_CONFIGS)
    return st.one_of(inside, st.sampled_from(PRODUCER_CONFIGS + OUTSIDE_CONFIGS)) if outside else inside


@functools.cache
def cluster_specs(*, kafka_version: str = DEFAULT_RELEASE, partitions: int = 2, outside: bool = True) -> st.SearchStrategy[ClusterSpec]:
    """A three-broker cluster with 1..``partitions`` partitions; RF 3 / min.insync 2 first."""
    durable = st.sampled_from([(3, 2), (2, 2)])
    topics = st.one_of(durable, st.sampled_from([(3, 2), (3, 1), (1, 1)])) if outside else durable
    return st.builds(
        lambda parts, topic: ClusterSpec(kafka_version, 3, parts, topic[0], topic[1]),
        st.integers(1, max(1, partitions)),
        topics,
    )


@functools.cache
def steps(spec: ClusterSpec, *, wire: bool = False, max_sends: int = 8, faults: bool = True) -> st.SearchStrategy[list[Step]]:
    """The program: sends (values filled in later), waits, flushes and cluster faults."""
    partition = st.integers(0, spec.partitions - 1)
    broker = st.integers(0, spec.brokers - 1)
    wait_ms = st.sampled_from([10, 200, 1600, 3000] if wire else [10, 200, 1600, 3000, 9000, 20_000])
    send = st.builds(lambda p: SendStep("", p), partition)
    options: list[st.SearchStrategy[Step]] = [st.builds(WaitStep, wait_ms), st.just(FlushStep())]
    if faults:
        options += [
            st.builds(lambda p: ClusterStep(ClusterAction.FAILOVER, partition=p), partition),
            st.builds(lambda b: ClusterStep(ClusterAction.CRASH, broker=b), broker),
            st.builds(lambda b: ClusterStep(ClusterAction.RESTART, broker=b), broker),
            st.just(ClusterStep(ClusterAction.DISCONNECT)),
            st.builds(
                lambda p, ms: ClusterStep(ClusterAction.LEADERLESS, partition=p, duration_ms=ms),
                partition,
                st.sampled_from([500, 2500] if wire else [500, 2500, 9000]),
            ),
            st.builds(lambda p: ClusterStep(ClusterAction.EXPIRE_PRODUCERS, partition=p), st.none() | partition),
            # a clean stop (SIGTERM: the producer state snapshotted) beside the crash; last, so the
            # other options keep their place in a shrunk trace
            st.builds(lambda b: ClusterStep(ClusterAction.STOP, broker=b), broker),
        ]
    # sends come in bursts of 1-4 (several requests in flight at once), other steps one at a time;
    # a burst shrinks to one send, the list to the fewest elements
    burst = st.lists(send, min_size=1, max_size=4)
    element = st.one_of(burst, st.one_of(options).map(lambda step: [step]))
    return st.lists(element, max_size=max_sends * 2).map(lambda parts: _cap_sends([s for part in parts for s in part], max_sends))


def _cap_sends(program: list[Step], max_sends: int) -> list[Step]:
    """At least one send (a program without one tests nothing) and at most ``max_sends``."""
    out: list[Step] = []
    sends = 0
    for step in program:
        if isinstance(step, SendStep):
            if sends == max_sends:
                continue
            sends += 1
        out.append(step)
    return out if sends else [SendStep(""), *out]


@functools.cache
def _rule(partitions: int, max_nth: int) -> st.SearchStrategy[ProduceRule]:
    nth = st.one_of(st.integers(1, 3), st.integers(1, max_nth))  # early requests exist in every run
    part = st.integers(0, partitions - 1)
    return st.one_of(
        st.builds(lambda n, p: ProduceRule(n, Action.DROP_RESPONSE, p), nth, part),
        st.builds(lambda n, p: ProduceRule(n, Action.DROP_REQUEST, p), nth, part),
        st.builds(lambda n, p, e: ProduceRule(n, Action.ERROR, p, e), nth, part, st.sampled_from(ERRORS_BEFORE_APPEND)),
        st.builds(lambda n, p, e: ProduceRule(n, Action.ERROR_AFTER_APPEND, p, e), nth, part, st.sampled_from(ERRORS_AFTER_APPEND)),
        st.builds(lambda n, p, d: ProduceRule(n, Action.DELAY, p, delay_ms=d), nth, part, st.sampled_from([100, 1000, 2500])),
        st.builds(lambda n, p: ProduceRule(n, Action.DISCONNECT_AFTER, p), nth, part),
        st.builds(lambda n, p: ProduceRule(n, Action.DISCONNECT_BEFORE, p), nth, part),
    )


@functools.cache
def fault_plans(partitions: int = 1, *, max_nth: int = 12, max_rules: int = 4) -> st.SearchStrategy[FaultPlan]:
    """Rules for single produce requests, at most one per (partition, nth)."""
    rules = st.lists(_rule(partitions, max_nth), max_size=max_rules, unique_by=lambda r: (r.partition, r.nth))
    return st.builds(FaultPlan, rules)


def _name_values(program: Sequence[Step]) -> tuple[Step, ...]:
    out: list[Step] = []
    for step in program:
        if isinstance(step, SendStep):
            step = SendStep(f"v{sum(isinstance(s, SendStep) for s in out)}", step.partition)
        out.append(step)
    return tuple(out)


@st.composite
def _traces(draw: st.DrawFn, wire: bool, kafka_version: str, max_sends: int, partitions: int, outside: bool, faults: bool) -> ProducerTrace:
    spec = draw(cluster_specs(kafka_version=kafka_version, partitions=partitions, outside=outside))
    config = draw(producer_configs(outside=outside))
    program = _name_values(draw(steps(spec, wire=wire, max_sends=max_sends, faults=faults)))
    plan = draw(fault_plans(spec.partitions, max_nth=max(2, 2 * max_sends))) if faults else FaultPlan()
    initial = 0 if wire else draw(st.sampled_from([0, INT32_MAX - 1, INT32_MAX - 3, INT32_MAX]))
    return ProducerTrace(program, plan, config, spec, initial)


def producer_traces(
    *,
    wire: bool = False,
    kafka_version: str = DEFAULT_RELEASE,
    max_sends: int = 8,
    partitions: int = 2,
    outside: bool = True,
    faults: bool = True,
) -> st.SearchStrategy[ProducerTrace]:
    """Whole producer traces.

    ``wire``: only what a real client can run (sequences from 0, short waits).
    ``partitions``: the most partitions a topic gets.  ``outside``: also draw
    configurations and topics outside the guarantee (idempotence off, acks 1 or 0,
    RF 1, min.insync 1).  ``faults``: draw cluster faults and fault-plan rules.
    """
    if max_sends < 1 or partitions < 1:
        raise ValueError("max_sends and partitions must be at least 1")
    return _traces(wire, kafka_version, max_sends, partitions, outside, faults)
