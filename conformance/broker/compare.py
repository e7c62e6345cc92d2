"""Run one crafted case against a broker and the reference model side by side, and name every difference.

Each case gets a fresh topic (so a fresh partition and fresh producer state)
without restarting the broker.  Every Produce answer is compared with
:class:`~kafka_conformance.reference.broker.partition_log.PartitionLog` of the chosen
Kafka release as it happens, then the partition is read back with Fetch and
compared record by record (offset, value, producer id, epoch, sequence).

A divergence either **keeps** the two logs in step (the broker answered
differently but appended the same thing: a duplicate answered 46 instead of its
offset, a different error code, a wrong log start offset) and the comparison
goes on, or **splits** them (one side appended, the other did not), after which
later answers mean nothing and the comparison stops.  Anomaly names are stable:
they are the kit's interface (see :data:`BROKER_ANOMALIES`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Callable, Iterable, Iterator

import attrs

from kafka_conformance.adapters.brokers.wire_client import ProduceResult, WireClient, WireError
from kafka_conformance.broker.cases import Action, ActionKind, BrokerCase, CaseError, SlotKind
from kafka_conformance.reference.broker.batches import (
    INT32_MAX,
    NO_PRODUCER_ID,
    LogRecord,
    ProducerBatch,
    increment_sequence,
)
from kafka_conformance.reference.broker.partition_log import PartitionLog, ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = [
    "BROKER_ANOMALIES",
    "SPLITTING_ANOMALIES",
    "BrokerDivergence",
    "CaseRun",
    "ProducerIds",
    "StepRecord",
    "WireError",
    "classify",
    "compare_logs",
    "new_topic_name",
    "run_case",
]

BROKER_ANOMALIES: dict[str, str] = {
    "duplicate-rejected": "an exact duplicate of a cached batch got an error (Kafka: success with the original offset)",
    "duplicate-appended": "an exact duplicate of a cached batch was written again",
    "wrong-duplicate-offset": "a duplicate was answered with success but not with the original batch's base offset",
    "false-duplicate": "a batch Kafka rejects as out of order (an overlap, a resend older than the 5-batch window) was answered "
                       "as a duplicate: success, nothing written",
    "gap-accepted": "a batch leaving a sequence gap was written (Kafka: OUT_OF_ORDER_SEQUENCE_NUMBER)",
    "out-of-order-accepted": "a batch overlapping or behind the last sequence was written (Kafka: OUT_OF_ORDER_SEQUENCE_NUMBER)",
    "new-epoch-nonzero-accepted": "a new epoch starting at a non-zero sequence was written (Kafka: OUT_OF_ORDER_SEQUENCE_NUMBER)",
    "stale-epoch-accepted": "a batch with an epoch lower than the stored one was written (Kafka: INVALID_PRODUCER_EPOCH)",
    "unknown-producer-accepted": "a batch Kafka answers UNKNOWN_PRODUCER_ID (releases before 2.5) was written",
    "invalid-batch-accepted": "a batch Kafka rejects as invalid (e.g. negative base sequence) was written",
    "nonzero-first-sequence-rejected": "a producer with no state was refused at a non-zero first sequence (Kafka 2.5-4.4: accepted)",
    "unallocated-producer-rejected": "a producer id the broker never issued was refused (Kafka's produce path does not check it)",
    "valid-batch-rejected": "a batch Kafka writes was refused",
    "wrong-append-offset": "a written batch was given a different base offset than Kafka's",
    "wrong-error-code": "a batch Kafka rejects was rejected with a different error code",
    "wrong-refusal-offset": "a batch Kafka rejects was rejected with the same error code but a base offset other than -1",
    "wrong-log-start-offset": "the log start offset in the Produce answer differs from Kafka's",
    "log-mismatch": "the log read back with Fetch differs from the model's log",
    "delete-records-diverged": "DeleteRecords was refused, or moved the log start offset elsewhere than Kafka does",
}

SPLITTING_ANOMALIES = frozenset({
    "duplicate-appended", "gap-accepted", "out-of-order-accepted", "new-epoch-nonzero-accepted", "stale-epoch-accepted",
    "unknown-producer-accepted", "invalid-batch-accepted", "nonzero-first-sequence-rejected",
    "unallocated-producer-rejected", "valid-batch-rejected", "wrong-append-offset", "log-mismatch", "delete-records-diverged",
})
_RUN_IDS = itertools.count(1)


@attrs.frozen
class StepRecord:
    """One request of a case: what was sent, what Kafka would answer, what the broker answered."""

    step: int
    batch: str
    expected_error: int
    expected_offset: int
    expected_log_start: int
    rule: str
    actual_error: int
    actual_offset: int
    actual_log_start: int

    def describe(self) -> str:
        exp = f"{_code_name(self.expected_error)} @{self.expected_offset}"
        act = f"{_code_name(self.actual_error)} @{self.actual_offset}"
        return f"{self.step}: {self.batch}: expected {exp} ({self.rule}); broker {act}"


@attrs.frozen
class BrokerDivergence:
    """The broker answered one step (or the final read) differently from the reference model."""

    anomaly: str
    step: int
    """-1 for the final log read."""
    request: str
    expected: str
    actual: str
    rule: str
    """The model's reason for the expected answer."""

    @property
    def splits_logs(self) -> bool:
        return self.anomaly in SPLITTING_ANOMALIES

    def describe(self) -> str:
        where = "final read" if self.step < 0 else f"step {self.step}"
        return f"[{self.anomaly}] {where}: {self.request}\n  expected: {self.expected} ({self.rule})\n  actual:   {self.actual}"


@attrs.frozen
class CaseRun:
    topic: str
    producer_ids: tuple[int, ...]
    steps: tuple[StepRecord, ...]
    divergences: tuple[BrokerDivergence, ...]
    complete: bool
    """False when a divergence split the logs and the rest of the case was not compared."""
    start: int = 0
    """The partition's log end offset when the case began (a shared partition holds earlier cases' records)."""


_OTHER_CODES = {
    1: "OFFSET_OUT_OF_RANGE", 35: "UNSUPPORTED_VERSION", 42: "INVALID_REQUEST", 48: "INVALID_TXN_STATE", 90: "PRODUCER_FENCED",
}
"""Codes brokers were seen to answer that the model never gives (names from Kafka's ``Errors.java``)."""


def _code_name(code: int) -> str:
    try:
        return f"{ProduceError.from_code(code).name}({code})"
    except ValueError:
        return f"{_OTHER_CODES.get(code, 'error')}({code})"


def new_topic_name(prefix: str = "kc") -> str:
    """A topic name unique to this process and run (fresh partition per case)."""
    return f"{prefix}-{os.getpid()}-{next(_RUN_IDS)}-{os.urandom(3).hex()}"


class ProducerIds:
    """Producer ids for the case's slots: allocated ones from the broker, unallocated ones from a
    high range no broker hands out early (unique per process)."""

    _unallocated = itertools.count(7_000_000_000 + (os.getpid() % 1000) * 1_000_000)

    def __init__(self, client: WireClient) -> None:
        self.client = client

    def for_slots(self, slots: Iterable[SlotKind]) -> tuple[int, ...]:
        out = []
        for kind in slots:
            if kind is SlotKind.ALLOCATED:
                pid, _ = self.client.init_producer_id()
                out.append(pid)
            elif kind is SlotKind.NONE:
                out.append(NO_PRODUCER_ID)
            else:
                out.append(next(self._unallocated))
        return tuple(out)


def _expected_next(log: PartitionLog, batch: ProducerBatch) -> int | None:
    entry = log.producers.get(batch.producer_id)
    if entry is None or entry.epoch != batch.producer_epoch or not entry.batches:
        return None
    return increment_sequence(entry.last_seq, 1)


def classify(
    expected: ProduceResponse, actual: ProduceResult, *, log_end_before: int, batch: ProducerBatch,
    next_seq: int | None, new_epoch: bool, slot: SlotKind, produce_v5: bool,
) -> str | None:
    """The anomaly name for one answer, or None when it matches Kafka's."""
    ok = actual.error_code == 0
    if expected.error is ProduceError.NONE and not expected.appended:  # an exact duplicate
        if not ok:
            return "duplicate-rejected"
        if actual.base_offset != expected.base_offset:
            return "duplicate-appended" if actual.base_offset == log_end_before else "wrong-duplicate-offset"
    elif expected.error is ProduceError.NONE:  # Kafka appends
        if not ok:
            if expected.rule.startswith("no state") and batch.base_sequence != 0:
                return "nonzero-first-sequence-rejected"
            if slot is SlotKind.UNALLOCATED:
                return "unallocated-producer-rejected"
            return "valid-batch-rejected"
        if actual.base_offset != expected.base_offset:
            return "wrong-append-offset"
    elif ok:  # Kafka rejects, the broker accepted
        error = expected.error
        if error is ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER:
            if actual.base_offset != log_end_before:
                return "false-duplicate"
            if new_epoch:
                return "new-epoch-nonzero-accepted"
            if next_seq is not None and (batch.base_sequence - next_seq) % (INT32_MAX + 1) < 2**30:
                return "gap-accepted"
            return "out-of-order-accepted"
        if error is ProduceError.INVALID_PRODUCER_EPOCH:
            return "stale-epoch-accepted"
        if error is ProduceError.UNKNOWN_PRODUCER_ID:
            return "unknown-producer-accepted"
        return "invalid-batch-accepted"
    elif actual.error_code != expected.error.code:
        return "wrong-error-code"
    if produce_v5 and actual.log_start_offset != expected.log_start_offset:
        return "wrong-log-start-offset"
    if not ok and actual.base_offset != expected.base_offset:  # both refused: Kafka's refusal carries base offset -1
        return "wrong-refusal-offset"
    return None


def _answer(error: int, offset: int, log_start: int) -> str:
    if error == 0:
        return f"success, base offset {offset}, log start {log_start}"
    return f"{_code_name(error)}, {'' if offset == -1 else f'base offset {offset}, '}log start {log_start}"


def run_case(
    client: WireClient, case: BrokerCase, profile: BrokerProfile, *, topic: str | None = None,
    shared_topic: str | None = None, stop_at_first: bool = False, restart: Callable[[bool], None] | None = None,
    checkpoint: Callable[[], int] | None = None,
) -> CaseRun:
    """Send ``case`` to a fresh topic through ``client`` and compare every answer and the final log.

    ``shared_topic`` is for brokers that serve one fixed topic (the Python test broker): the
    case then writes to partition 0 of it after whatever earlier cases left there, with
    producer ids of its own, and the model starts at the partition's current end offset
    (so offsets still compare exactly, and the model knows the partition held records).

    ``restart`` stops and starts the broker again on its own data (True: cleanly); a case with
    restarts needs it, and closes ``client`` at its first restart (the caller opens a new one).
    ``checkpoint`` gives a shared partition's checkpointed log start (what a crash falls back to).

    Raises WireError when the broker cannot be talked to (that is an error, not a divergence),
    CaseError for a case with restarts and no ``restart``.
    """
    if case.restarts and restart is None:
        raise CaseError("this case restarts the broker, and this target cannot be restarted by the kit "
                        "(kafka:VERSION and test-broker can)")
    if shared_topic is not None:
        topic = shared_topic
        leaders = client.wait_for_leaders(topic, 1)
    else:
        topic = topic or new_topic_name()
        leaders = client.create_topic(topic)
    with _leader(client, topic, leaders.get(0, -1)) as leader:
        start = leader.list_offset(topic, 0) if shared_topic is not None else 0
        log_start = leader.list_offset(topic, 0, timestamp=-2) if shared_topic is not None else 0
        saved = checkpoint() if shared_topic is not None and checkpoint is not None else 0
        return _run_on_leader(client, leader, case, profile, topic, stop_at_first, (saved, log_start, start), restart)


@contextlib.contextmanager
def _leader(client: WireClient, topic: str, node: int) -> Iterator[WireClient]:
    """The connection to the partition's leader: ``client`` itself on a one-broker cluster,
    a connection opened for the case on a cluster whose leader is another broker."""
    brokers, _ = client.metadata([topic])
    address = brokers.get(node)
    if address is None or address == (client.host, client.port):
        yield client
        return
    with WireClient(address[0], address[1], timeout_s=client.timeout_s) as other:
        yield other


class _Connection:
    """The connection to the partition's leader, replaced when the case restarts the broker."""

    def __init__(self, leader: WireClient, restart: Callable[[bool], None] | None) -> None:
        self.leader = leader
        self._restart = restart
        self._own = False

    def restart(self, clean: bool) -> None:
        assert self._restart is not None
        host, port, timeout_s = self.leader.host, self.leader.port, self.leader.timeout_s
        self.leader.close()
        self._restart(clean)
        self.leader = WireClient(host, port, timeout_s=timeout_s)
        self._own = True

    def close(self) -> None:
        if self._own:
            self.leader.close()


def _run_on_leader(
    client: WireClient, leader: WireClient, case: BrokerCase, profile: BrokerProfile, topic: str, stop_at_first: bool,
    offsets: tuple[int, int, int], restart: Callable[[bool], None] | None = None,
) -> CaseRun:
    connection = _Connection(leader, restart)
    try:
        return _run_steps(client, connection, case, profile, topic, stop_at_first, offsets)
    finally:
        connection.close()


def _now_ms() -> int:
    """The wall clock, which a real broker's producer-id expiry reads too."""
    return int(time.time() * 1000)


def _act(connection: _Connection, log: PartitionLog, action: Action, topic: str, start: int) -> BrokerDivergence | None:
    """Do ``action`` on the broker and on the model; a divergence when DeleteRecords is answered
    otherwise than Kafka would (an error, or another low watermark)."""
    if action.kind.is_restart:
        clean = action.kind is ActionKind.RESTART_CLEAN
        connection.restart(clean)
        log.restart(clean=clean, now_ms=_now_ms())  # producers idle past the expiry are not loaded
        return None
    before = start + action.offset
    try:
        error, low = connection.leader.delete_records(topic, 0, before)
    except WireError as exc:  # the broker lists DeleteRecords in ApiVersions: it must answer it
        return BrokerDivergence("delete-records-diverged", action.before, action.describe(),
                                "an answer to DeleteRecords", f"no answer: {exc}", "a broker answers what it advertises")
    if before > log.log_end_offset:  # every answered write is replicated here: the high watermark is the log end
        expected = _code_name(1)
        rule = "an offset beyond the high watermark is refused (UnifiedLog.maybeIncrementLogStartOffset)"
        if error == 1:
            return None
    else:
        log.delete_records(before)
        expected, rule = f"success, low watermark {log.log_start_offset}", "DeleteRecords moves the log start offset there"
        if error == 0 and low == log.log_start_offset:
            return None
    actual = f"{_code_name(error)}" if error else f"success, low watermark {low}"
    return BrokerDivergence("delete-records-diverged", action.before, action.describe(), expected, actual, rule)


def _run_steps(
    client: WireClient, connection: _Connection, case: BrokerCase, profile: BrokerProfile, topic: str,
    stop_at_first: bool, offsets: tuple[int, int, int],
) -> CaseRun:
    pids = ProducerIds(client).for_slots(case.slots)
    log = PartitionLog(profile)
    # Earlier cases' records on a shared partition: not ours, but they hold the offsets (and may
    # have been deleted up to a log start of their own, checkpointed or not).
    log.checkpointed_log_start, log.log_start_offset, start = offsets
    log.log_end_offset = start
    leader = connection.leader
    produce_v5 = leader.version_for(0) >= 5
    steps: list[StepRecord] = []
    found: list[BrokerDivergence] = []
    complete = True
    for i, crafted in enumerate(case.batches):
        for action in case.actions_before(i):
            diverged = _act(connection, log, action, topic, start)
            if diverged is not None:
                found.append(diverged)
                return CaseRun(topic, pids, tuple(steps), tuple(found), False, start)
        leader = connection.leader
        batch = crafted.to_batch(pids[crafted.producer], topic, i, _now_ms())
        request = crafted.describe(case.slots[crafted.producer])
        if case.actions_before(i):
            request = f"after {'; '.join(a.describe() for a in case.actions_before(i))}: {request}"
        entry = log.producers.get(batch.producer_id)
        new_epoch = entry is not None and batch.producer_epoch > entry.epoch
        next_seq = _expected_next(log, batch)
        leo = log.log_end_offset
        expected = log.append_client(batch)
        actual = _produce_settled(leader, topic, batch, expected)
        steps.append(StepRecord(i, request, expected.error.code, expected.base_offset, expected.log_start_offset,
                                expected.rule, actual.error_code, actual.base_offset, actual.log_start_offset))
        anomaly = classify(expected, actual, log_end_before=leo, batch=batch, next_seq=next_seq, new_epoch=new_epoch,
                           slot=case.slots[crafted.producer], produce_v5=produce_v5)
        if anomaly is None:
            continue
        div = BrokerDivergence(anomaly, i, request,
                               _answer(expected.error.code, expected.base_offset, expected.log_start_offset),
                               _answer(actual.error_code, actual.base_offset, actual.log_start_offset), expected.rule)
        found.append(div)
        if div.splits_logs or stop_at_first:
            complete = False
            break
    if complete:
        for action in case.actions_before(len(case.batches)):
            diverged = _act(connection, log, action, topic, start)
            if diverged is not None:
                found.append(diverged)
                return CaseRun(topic, pids, tuple(steps), tuple(found), False, start)
        leader = connection.leader
        mismatch = compare_logs(log.records(), leader.read_log(topic, 0, start=max(start, log.log_start_offset)))
        if mismatch is not None:
            found.append(mismatch)
    return CaseRun(topic, pids, tuple(steps), tuple(found), complete, start)


WARMING_UP = frozenset({3, 5, 6})
"""UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER: what a broker
answers while a topic it just created is still becoming its leader's (Apache Kafka 3.9.1
answered 6 once in about 1,500 fresh topics although Metadata already named it leader).
Each is raised before the partition's log and producer state are touched
(``ReplicaManager.appendToLocalLog`` finds no leader partition), so resending is safe."""
SETTLE_S = 10.0


def _produce_settled(leader: WireClient, topic: str, batch: ProducerBatch, expected: ProduceResponse) -> ProduceResult:
    """The broker's answer to ``batch``, resent while the answer is a warming-up error the
    reference does not expect; after :data:`SETTLE_S` the last answer stands (and is judged)."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        actual = leader.produce(topic, 0, batch)
        if (actual.error_code not in WARMING_UP or actual.error_code == expected.error.code
                or time.monotonic() >= deadline):
            return actual
        time.sleep(0.05)


def _record(r: LogRecord) -> str:
    return f"offset {r.offset} value {r.value!r} pid {r.producer_id} epoch {r.producer_epoch} seq {r.sequence}"


def compare_logs(expected: tuple[LogRecord, ...], actual: tuple[LogRecord, ...]) -> BrokerDivergence | None:
    for e, a in zip(expected, actual, strict=False):
        if e != a:
            return BrokerDivergence("log-mismatch", -1, f"record at offset {e.offset}", _record(e), _record(a), "final log of the model")
    if len(expected) != len(actual):
        more = "the broker's log is longer" if len(actual) > len(expected) else "the broker's log is shorter"
        extra = actual[len(expected)] if len(actual) > len(expected) else expected[len(actual)]
        return BrokerDivergence("log-mismatch", -1, "log length",
                                f"{len(expected)} records", f"{len(actual)} records ({more}; first extra: {_record(extra)})",
                                "final log of the model")
    return None

