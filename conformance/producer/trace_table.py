"""The 24 property <-> trace pairs of ``docs/spec/idempotence.md`` §5.2, as producer traces with expectations.

Each :class:`TableEntry` is one row that a :class:`ProducerTrace` can express:
the trace, and what the reference (the model engine: reference producer against
the reference cluster) must show on it - verdicts that must *hold*, anomalies
that must appear (with their attribution: the rows outside the guarantee expect
``outside-guarantee`` ones, the rows that pin a known broker behaviour expect
the broker's), completions of chosen values, and the client bugs known to break
the row.  The wire engines run the same traces with real clients and report per
client; the known-bug notes say where a violation is expected.

Rows that a producer trace cannot express are listed in :data:`NOT_EXPRESSIBLE`
with the reason (they need crafted produce requests, which the broker
conformance suite sends, or a feature the trace language lacks).

Values are ``v0``, ``v1``, ... in send order; the default producer
configuration is :data:`~producer_program.DEFAULT_PRODUCER` (idempotent, acks=all,
five in flight, request timeout 1.5 s, delivery timeout 8 s).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from kafka_conformance.reference.broker.batches import INT32_MAX
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.delivery.verdicts import Attribution, DeliveryReport, Outcome, Property
from kafka_conformance.reference.traces.events import Acked, Event, Failed, Indeterminate
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

__all__ = ["NOT_EXPRESSIBLE", "TRACE_TABLE", "TableEntry", "entry", "entry_problems"]

P = Property
BROKER, CLIENT, OUTSIDE = Attribution.BROKER, Attribution.CLIENT, Attribution.OUTSIDE_GUARANTEE
SAFETY = (P.AT_MOST_ONCE, P.AT_LEAST_ONCE, P.EXACTLY_ONCE, P.ORDER, P.OFFSETS, P.DEFINITE_FAILURES, P.IMPLIED_ACK, P.SEQUENCES, P.EPOCHS)
EVERYTHING = (*SAFETY, P.LIVENESS)


@attrs.frozen
class TableEntry:
    """One row of §5.2 as a runnable trace and the reference's expected answer."""

    number: str
    """The row number of §5.2 (``6b`` for a second trace of row 6)."""
    name: str
    properties: tuple[str, ...]
    """The §3 property ids the row is about (``G-EO``, ``L-SEQ``, ``CFG``, ...)."""
    trace: ProducerTrace
    holds: tuple[Property, ...] = ()
    """Verdicts that must be HOLDS on the reference."""
    anomalies: tuple[tuple[str, Attribution], ...] = ()
    """(anomaly name, attribution) pairs the reference must show."""
    completions: Mapping[str, str] = attrs.field(factory=dict)
    """value -> ``acked`` / ``failed`` / ``indeterminate`` / ``not-failed`` (acked or indeterminate)."""
    acked_offsets: Mapping[str, int] = attrs.field(factory=dict)
    """value -> the offset its ack must carry (-1: unknown, as after DUPLICATE_SEQUENCE_NUMBER)."""
    max_epoch_bumps: int | None = None
    """The reference producer must not bump its epoch more often (0: the row forbids a bump)."""
    config_error: bool = False
    """The Java client must refuse the configuration (CFG rows)."""
    model_only: bool = False
    """Needs what only the model can do (a seeded sequence): the wire engines skip it."""
    known_bugs: tuple[str, ...] = ()
    """Client or broker bugs known to break the row, with their tickets."""
    kills: tuple[str, ...] = ()
    """Broker mutants (tests/quality/broker_mutants.py) the row is meant to catch."""
    note: str = ""


def entry(number: str, name: str, properties: Iterable[str], steps: Iterable[Step], **kw: object) -> TableEntry:
    """Build a row; keyword arguments ``rules``, ``config``, ``cluster``, ``initial_sequence``
    shape the trace, the rest are :class:`TableEntry` fields."""
    rules = kw.pop("rules", ())
    config = kw.pop("config", {})
    cluster = kw.pop("cluster", ClusterSpec())
    initial = kw.pop("initial_sequence", 0)
    merged = {**DEFAULT_PRODUCER, **config}  # type: ignore[dict-item]
    producer = {k: v for k, v in merged.items() if v is not None}  # None: leave the key unset
    trace = ProducerTrace(steps, FaultPlan(rules), producer, cluster, initial, f"row {number}: {name}")  # type: ignore[arg-type]
    return TableEntry(number, name, tuple(properties), trace, **kw)  # type: ignore[arg-type]


def _sends(*values: str | tuple[str, int]) -> list[Step]:
    return [SendStep(v) if isinstance(v, str) else SendStep(v[0], v[1]) for v in values]


def _drop_response(nth: int, partition: int = 0) -> ProduceRule:
    return ProduceRule(nth, Action.DROP_RESPONSE, partition)


def _error(nth: int, error: ProduceError, partition: int = 0, *, after_append: bool = False, delay_ms: int = 0) -> ProduceRule:
    return ProduceRule(nth, Action.ERROR_AFTER_APPEND if after_append else Action.ERROR, partition, error, delay_ms=delay_ms)


def _restart_row(number: str, down: ClusterAction, name: str) -> TableEntry:
    """v0 written but answered REQUEST_TIMED_OUT late, v1..v4 acknowledged behind it, then the one broker
    stops and starts again: its snapshot holds v4's batch only (docs/spec/idempotence.md §1.4), so v0's
    retry is out of order (45). The producer cannot tell v0 is in the log: maybe written, never re-sent."""
    return entry(
        number, name, ("G-AMO", "restart"),
        [*_sends("v0", "v1", "v2", "v3", "v4"), WaitStep(700), ClusterStep(down, broker=0),
         ClusterStep(ClusterAction.RESTART, broker=0), FLUSH],
        rules=[_error(1, ProduceError.REQUEST_TIMED_OUT, after_append=True, delay_ms=500)],
        config={"retry.backoff.ms": "1000", "delivery.timeout.ms": "30000"},
        cluster=ClusterSpec(brokers=1, replication_factor=1, min_insync_replicas=1),
        holds=(P.AT_MOST_ONCE, P.ORDER, P.OFFSETS, P.DEFINITE_FAILURES, P.SEQUENCES, P.EPOCHS, P.LIVENESS),
        completions={"v0": "indeterminate", **{f"v{i}": "acked" for i in range(1, 5)}},
        acked_offsets={f"v{i}": i for i in range(1, 5)}, max_epoch_bumps=0,
    )


FLUSH = FlushStep()
TWO_PARTITIONS = ClusterSpec(partitions=2)

TRACE_TABLE: tuple[TableEntry, ...] = (
    entry(
        "1",
        "lost response: the retry is a duplicate answered with the original offset",
        ("G-EO", "G-OFF"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[_drop_response(1)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": 0, "v1": 1},
        max_epoch_bumps=0,
        kills=("no-dedup-window",),
    ),
    entry(
        "2",
        "five responses lost: five retries, five duplicates (the window holds five batches)",
        ("G-EO", "window=5"),
        [*_sends("v0", "v1", "v2", "v3", "v4"), FLUSH],
        rules=[_drop_response(n) for n in range(1, 6)],
        holds=EVERYTHING,
        completions={f"v{i}": "acked" for i in range(5)},
        acked_offsets={f"v{i}": i for i in range(5)},
        max_epoch_bumps=0,
        kills=("no-dedup-window", "window-4"),
        note="With six in flight the sixth retry would fall out of the window; the Java client refuses "
        "max.in.flight > 5 with idempotence (row 22b).",
    ),
    entry(
        "4",
        "after an epoch bump, the new epoch's sequence 0 is appended, not matched against the old epoch's",
        ("G-EO", "epoch-scoped dedup"),
        [*_sends("v0"), FLUSH, *_sends("v1"), FLUSH],
        rules=[_error(2, ProduceError.UNKNOWN_PRODUCER_ID)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": 0, "v1": 1},
        kills=("dedup-ignores-epoch",),
        note="UNKNOWN_PRODUCER_ID (injected) makes the producer bump its epoch and re-stamp v1 at sequence 0.",
    ),
    entry(
        "5",
        "head batch rejected (NOT_LEADER) with four behind it: knock-on OOOS, in-order retry, no bump",
        ("G-ORD", "L-SEQ"),
        [*_sends("v0"), FLUSH, *_sends("v1", "v2", "v3", "v4", "v5"), FLUSH],
        rules=[_error(2, ProduceError.NOT_LEADER_OR_FOLLOWER)],
        holds=EVERYTHING,
        completions={f"v{i}": "acked" for i in range(6)},
        acked_offsets={f"v{i}": i for i in range(6)},
        max_epoch_bumps=0,
    ),
    entry(
        "6",
        "fresh partition, first request lost, second accepted on empty state (AK 2.5-4.4)",
        ("L-SEQ", "LIVE", "G-IMPLIED"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[ProduceRule(1, Action.DROP_REQUEST)],
        holds=(P.AT_MOST_ONCE, P.ORDER, P.DEFINITE_FAILURES, P.LIVENESS),
        anomalies=(("implied-write-lost", BROKER),),
        completions={"v0": "indeterminate", "v1": "acked"},
        known_bugs=("KAFKA-15591 (brokers 2.5-4.4 accept any first sequence on empty state; Java then loops on v0 to its timeout)",),
        note="The reference broker of 4.3.0 has the KAFKA-15591 behaviour: the checker attributes the gap to it.",
    ),
    entry(
        "6b",
        "the same trace against the 4.5 rule: a fresh partition accepts only sequence 0",
        ("L-SEQ", "LIVE"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[ProduceRule(1, Action.DROP_REQUEST)],
        cluster=ClusterSpec(kafka_version="4.5.0"),
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": 0, "v1": 1},
        kills=("fresh-partition-any-sequence",),
    ),
    entry(
        "7",
        "batch replicated, leader dies before answering: the retry to the new leader is a duplicate",
        ("G-EO",),
        [*_sends("v0"), ClusterStep(ClusterAction.CRASH, broker=0), *_sends("v1"), FLUSH],
        rules=[_drop_response(1)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": 0, "v1": 1},
        max_epoch_bumps=0,
        kills=("no-state-on-followers",),
    ),
    entry(
        "8",
        "acks=all, RF 3, min.insync 2: leader crash with an unflushed tail loses no acknowledged write",
        ("G-ALO",),
        [*_sends("v0", "v1", "v2"), FLUSH, ClusterStep(ClusterAction.CRASH, broker=0), *_sends("v3"), FLUSH],
        holds=EVERYTHING,
        completions={f"v{i}": "acked" for i in range(4)},
    ),
    entry(
        "8b",
        "RF 1: a crash losing the unflushed tail loses acknowledged writes, outside the guarantee",
        ("G-ALO", "KIP-185 scope"),
        [*_sends("v0", "v1"), FLUSH, ClusterStep(ClusterAction.CRASH, broker=0), FLUSH],
        cluster=ClusterSpec(replication_factor=1, min_insync_replicas=1),
        anomalies=(("lost-write", OUTSIDE),),
        completions={"v0": "acked", "v1": "acked"},
    ),
    entry(
        "9",
        "crash loses an unanswered batch and the state rebuilt from the log forgets it: the retry is appended, not a duplicate",
        ("state/log consistency",),
        [*_sends("v0"), ClusterStep(ClusterAction.CRASH, broker=0), ClusterStep(ClusterAction.RESTART, broker=0), FLUSH],
        rules=[_drop_response(1)],
        cluster=ClusterSpec(replication_factor=1, min_insync_replicas=1),
        holds=(P.AT_MOST_ONCE, P.AT_LEAST_ONCE, P.OFFSETS, P.SEQUENCES, P.LIVENESS),
        completions={"v0": "acked"},
        acked_offsets={"v0": 0},
        kills=("state-ahead-of-log",),
        note="RF 1 so that one crash can lose the batch; G-ALO must still hold because the retry re-appends it.",
    ),
    entry(
        "12",
        "sequences seeded at Int.MAX-2: Int.MAX is followed by 0 across a batch boundary, retries included",
        ("wraparound", "L-SEQ"),
        [*_sends("v0", "v1", "v2", "v3", "v4", "v5"), FLUSH],
        rules=[_drop_response(3), _drop_response(4)],
        initial_sequence=INT32_MAX - 2,
        holds=EVERYTHING,
        completions={f"v{i}": "acked" for i in range(6)},
        acked_offsets={f"v{i}": i for i in range(6)},
        max_epoch_bumps=0,
        model_only=True,
        kills=("no-sequence-wrap",),
        known_bugs=("franz-go#216/#226 (client sequence overflowing to negative)", "redpanda#4854 (OOOS after 2^31 records)"),
    ),
    entry(
        "12b",
        "a five-record batch spanning the wrap (Int.MAX-2 .. 1), its retry deduplicated, the next batch at 2",
        ("wraparound", "L-SEQ"),
        [*_sends("v0", "v1", "v2", "v3", "v4"), WaitStep(50), *_sends("v5"), FLUSH],
        rules=[_drop_response(1), _drop_response(2)],
        config={"linger.ms": "20"},
        initial_sequence=INT32_MAX - 2,
        holds=EVERYTHING,
        completions={f"v{i}": "acked" for i in range(6)},
        acked_offsets={f"v{i}": i for i in range(6)},
        max_epoch_bumps=0,
        model_only=True,
    ),
    entry(
        "13",
        "delivery timeout while the answer is delayed: indeterminate, new sequences wait, v0 at most once and before v1",
        ("G-DEF", "FAIL_IND"),
        [*_sends("v0"), WaitStep(4500), *_sends("v1"), FLUSH],
        rules=[ProduceRule(1, Action.DELAY, delay_ms=6000)],
        config={"request.timeout.ms": "4000", "delivery.timeout.ms": "4000"},
        holds=EVERYTHING,
        completions={"v0": "indeterminate", "v1": "acked"},
        known_bugs=("librdkafka#3584 (fatal desync after possibly-persisted errors)",
                    "librdkafka#4953 (a message-timeout bump re-stamps a possibly written batch queued behind it)"),
    ),
    entry(
        "14",
        "v0 retried after a lost response while v1 fails definitively: the bump must not re-stamp v0",
        ("G-EO",),
        [*_sends("v0", "v1"), WaitStep(3000), *_sends("v2"), FLUSH],
        rules=[_drop_response(1), _error(2, ProduceError.INVALID_RECORD)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "failed", "v2": "acked"},
        acked_offsets={"v0": 0},
        known_bugs=("KAFKA-14034 (Java re-stamps v0 at the bump and may write it twice; open)",),
        note="the two sends usually share one batch here; row 14b keeps them apart",
    ),
    entry(
        "14b",
        "v1 written but answered late with a retriable error while v2, in flight behind it, fails definitively: "
        "v1 must not be written twice",
        ("G-EO", "G-DEF"),
        # v0 warms the producer up (producer id, connection), so that the pause puts v2 in a
        # batch of its own, sent while v1's answer is held back.  v2's answer waits behind v1's
        # (request order): the client learns both together, v1 to be retried and v2 definitely
        # failed.  An epoch bump for v2 that re-stamps v1 writes v1 a second time.
        [*_sends("v0"), FLUSH, *_sends("v1"), WaitStep(100), *_sends("v2"), FLUSH, *_sends("v3"), FLUSH],
        rules=[ProduceRule(2, Action.ERROR_AFTER_APPEND, 0, ProduceError.REQUEST_TIMED_OUT, delay_ms=1000),
               _error(3, ProduceError.INVALID_RECORD)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked", "v2": "failed", "v3": "acked"},
        acked_offsets={"v1": 1},
        known_bugs=("KAFKA-14034 (the epoch bump for v2's failure re-stamps v1, which was written; open)",),
    ),
    entry(
        "15",
        "partition A meets a knock-on OOOS while partition B retries a possibly written batch: B is not duplicated",
        ("G-EO",),
        [*_sends("a0"), FLUSH, *_sends("a1", "a2", ("b0", 1)), FLUSH],
        rules=[_error(2, ProduceError.NOT_LEADER_OR_FOLLOWER), _drop_response(1, partition=1)],
        cluster=TWO_PARTITIONS,
        holds=EVERYTHING,
        completions={"a0": "acked", "a1": "acked", "a2": "acked", "b0": "acked"},
        max_epoch_bumps=0,
        known_bugs=("librdkafka#4953 (bump on a non-head OOOS re-stamps other partitions' possibly written batches; "
                    "open: the fix proposed in PR #4972 is not merged)",),
    ),
    entry(
        "16",
        "epoch bump while another partition is idle: its next batch starts at 0 under the new epoch",
        ("LIVE",),
        [*_sends(("c0", 1), "a0"), FLUSH, *_sends("a1"), FLUSH, *_sends(("c1", 1)), FLUSH],
        rules=[_error(2, ProduceError.UNKNOWN_PRODUCER_ID)],
        cluster=TWO_PARTITIONS,
        holds=EVERYTHING,
        completions={"c0": "acked", "a0": "acked", "a1": "acked", "c1": "acked"},
        known_bugs=("KAFKA-12152 (fixed in 2.8.0)", "Dekaf#3342"),
    ),
    entry(
        "17",
        "producer state expires while a retry is pending: the retry is appended again (duplicate, outside the guarantee)",
        ("G-AMO", "pid expiry"),
        [*_sends("v0"), ClusterStep(ClusterAction.EXPIRE_PRODUCERS), FLUSH],
        rules=[_drop_response(1)],
        holds=(P.AT_LEAST_ONCE, P.LIVENESS),
        anomalies=(("duplicate", OUTSIDE),),
        completions={"v0": "acked"},
    ),
    entry(
        "18",
        "UNKNOWN_PRODUCER_ID with requests outstanding: bump, re-stamp from 0, no loss, no duplicate",
        ("G-EO", "G-ORD"),
        [*_sends("v0"), FLUSH, *_sends("v1", "v2"), FLUSH],
        rules=[_error(2, ProduceError.UNKNOWN_PRODUCER_ID)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked", "v2": "acked"},
        acked_offsets={"v0": 0, "v1": 1, "v2": 2},
        known_bugs=("librdkafka: fatal when other requests are outstanding (by design)",),
    ),
    entry(
        "19",
        "DUPLICATE_SEQUENCE_NUMBER after the append: success with offset -1, no resend",
        ("G-OFF", "DUP 46"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[_error(1, ProduceError.DUPLICATE_SEQUENCE_NUMBER, after_append=True)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": -1, "v1": 1},
        max_epoch_bumps=0,
        known_bugs=("franz-go#846 (offsets computed from -1)",),
    ),
    entry(
        "20",
        "NOT_ENOUGH_REPLICAS_AFTER_APPEND then a later ack: the first is never reported as not written",
        ("G-IMPLIED", "G-DEF"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[_error(1, ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND, after_append=True)],
        holds=EVERYTHING,
        completions={"v0": "not-failed", "v1": "acked"},
    ),
    entry(
        "21",
        "partition leaderless longer than the delivery timeout, then back: the producer keeps producing",
        ("LIVE",),
        [
            *_sends("v0"),
            FLUSH,
            ClusterStep(ClusterAction.LEADERLESS, partition=0, duration_ms=4000),
            *_sends("v1"),
            WaitStep(5000),
            *_sends("v2"),
            FLUSH,
        ],
        config={"delivery.timeout.ms": "3000"},
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "failed", "v2": "acked"},
        known_bugs=("aio-libs/aiokafka#1017 (suspected: an expired unsent batch consumes sequences, every later batch gets OOOS)",),
    ),
    entry(
        "22",
        "explicit idempotence with acks=1: the Java client refuses the configuration",
        ("CFG",),
        [*_sends("v0"), FLUSH],
        config={"acks": "1"},
        config_error=True,
    ),
    entry(
        "22b",
        "explicit idempotence with six in flight: refused (always an error from 4.0, KAFKA-17927)",
        ("CFG", "window=5"),
        [*_sends("v0"), FLUSH],
        config={"max.in.flight.requests.per.connection": "6"},
        config_error=True,
    ),
    entry(
        "22c",
        "implicit idempotence with acks=1 is silently off (KAFKA-13673): the lost response of row 1 duplicates",
        ("CFG", "G-AMO"),
        [*_sends("v0", "v1"), FLUSH],
        rules=[_drop_response(1)],
        config={"acks": "1", "enable.idempotence": None},
        anomalies=(("duplicate", OUTSIDE),),
        completions={"v0": "acked", "v1": "acked"},
    ),
    entry(
        "23",
        "UNSUPPORTED_FOR_MESSAGE_FORMAT: the send fails definitively, nothing is written",
        ("UNSUPPORTED_FOR_MESSAGE_FORMAT", "G-DEF"),
        [*_sends("v0"), FLUSH],
        rules=[_error(1, ProduceError.UNSUPPORTED_FOR_MESSAGE_FORMAT)],
        holds=EVERYTHING,
        completions={"v0": "failed"},
        note="Approximated by injecting the error: ClusterSpec has no per-topic message format "
        "(and 4.x brokers have no v0/v1 formats, KIP-724).",
    ),
    entry(
        "24",
        "answers arrive out of order across a leader change: completions still follow send order",
        ("G-ORD",),
        [*_sends("v0"), ClusterStep(ClusterAction.FAILOVER, partition=0), *_sends("v1"), FLUSH],
        rules=[ProduceRule(1, Action.DELAY, delay_ms=1000)],
        holds=EVERYTHING,
        completions={"v0": "acked", "v1": "acked"},
        acked_offsets={"v0": 0, "v1": 1},
    ),
    _restart_row("25", ClusterAction.STOP, "the broker restarts cleanly while v0's retry is pending: its producer snapshot "
                 "keeps only the last batch, so the retry meets OUT_OF_ORDER_SEQUENCE_NUMBER; v0 must not be written twice"),
    _restart_row("25b", ClusterAction.CRASH, "the same with the broker killed (SIGKILL): recovery rebuilds the snapshot "
                 "from the log, the retry meets 45 again (one replica killed: outside the guarantee)"),
)

NOT_EXPRESSIBLE: tuple[tuple[str, str], ...] = (
    (
        "3",
        "exact-range match after a MESSAGE_TOO_LARGE split: the reference producer does not split batches, "
        "and real clients split unpredictably; the broker side is checked with crafted requests (overlapping ranges)",
    ),
    (
        "10",
        "a stale-epoch batch delivered after a new-epoch batch: a conforming producer never sends one; "
        "checked with crafted requests (the broker conformance suite)",
    ),
    ("11", "a new epoch starting at a non-zero sequence: a conforming producer never sends one; crafted requests"),
)
"""Rows of §5.2 that a producer trace cannot express, with the reason."""


def _completions(events: Sequence[Event]) -> dict[str, Event]:
    return {e.value: e for e in events if isinstance(e, (Acked, Failed, Indeterminate))}


_KIND = {"acked": (Acked,), "failed": (Failed,), "indeterminate": (Indeterminate,), "not-failed": (Acked, Indeterminate)}


def entry_problems(
    row: TableEntry,
    report: DeliveryReport | None,
    events: Sequence[Event],
    *,
    epoch_bumps: int | None = None,
    config_error: bool = False,
) -> list[str]:
    """Everything in a run that differs from what the row expects (empty: the run shows the row)."""
    if row.config_error or config_error:
        return [] if row.config_error == config_error else [f"config error expected: {row.config_error}, got {config_error}"]
    assert report is not None
    problems = [f"{p.value} is {report[p].outcome.value}, must hold" for p in row.holds if report[p].outcome is not Outcome.HOLDS]
    shown = {(a.name, a.attribution) for a in report.anomalies}
    problems += [f"anomaly {name} [{who.value}] expected, not shown" for name, who in row.anomalies if (name, who) not in shown]
    done = _completions(events)
    for value, kind in row.completions.items():
        got = done.get(value)
        if not isinstance(got, _KIND[kind]):
            problems.append(f"{value}: expected {kind}, got {type(got).__name__ if got is not None else 'no completion'}")
    for value, offset in row.acked_offsets.items():
        got = done.get(value)
        if not isinstance(got, Acked) or got.offset != offset:
            problems.append(f"{value}: expected an ack at offset {offset}, got {got!r}")
    if row.max_epoch_bumps is not None and epoch_bumps is not None and epoch_bumps > row.max_epoch_bumps:
        problems.append(f"{epoch_bumps} epoch bump(s), at most {row.max_epoch_bumps} allowed")
    return problems
