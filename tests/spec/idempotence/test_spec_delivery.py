"""The delivery checker: each property of ``docs/spec/idempotence.md`` §3 against the traces of its §5.

Every test builds a trace and a final log by hand (the shape the wire-level
harness will emit) and checks the verdict, its anomaly name and attribution.
The last part replays random fault schedules of a minimal idempotent producer
against the replicated reference partition and checks the model never breaks
what it promises (acks=all, RF 3, min.insync 2, no outside-guarantee faults),
and that log mutations are caught.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from kafka_conformance.reference.broker.batches import INT32_MAX, LogRecord, ProducerBatch
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.broker.replication import Partition
from kafka_conformance.reference.delivery.checker import DeliveryConfig, check_delivery
from kafka_conformance.reference.delivery.verdicts import Attribution, DeliveryReport, Outcome, Property
from kafka_conformance.reference.producer.config import explain_config
from kafka_conformance.reference.traces.events import (
    Acked,
    Attempt,
    Event,
    Failed,
    Fault,
    FaultKind,
    Indeterminate,
    Response,
    Send,
    TraceError,
)

P = Property
BROKER, CLIENT, OUTSIDE = Attribution.BROKER, Attribution.CLIENT, Attribution.OUTSIDE_GUARANTEE


def records(*specs: tuple[str, int, int, int] | str) -> list[LogRecord]:
    """Log records at offsets 0, 1, ...; a spec is a value or (value, pid, epoch, sequence)."""
    out = []
    for offset, spec in enumerate(specs):
        value, pid, epoch, seq = (spec, -1, -1, -1) if isinstance(spec, str) else spec
        out.append(LogRecord(offset, value, pid, epoch, seq))
    return out


def sends(*values: str, partition: int = 0) -> list[Event]:
    return [Send(v, partition, time_ms=i) for i, v in enumerate(values)]


def check(trace: Sequence[Event], log: Sequence[LogRecord] | dict[int, Sequence[LogRecord]] | None, **cfg: object) -> DeliveryReport:
    final = log if isinstance(log, dict) or log is None else {0: log}
    return check_delivery(trace, final, DeliveryConfig(**cfg))  # type: ignore[arg-type]


def only(report: DeliveryReport, prop: Property) -> tuple[str, Attribution]:
    verdict = report[prop]
    assert verdict.outcome is Outcome.VIOLATED, report.describe()
    [anomaly] = verdict.anomalies
    return anomaly.name, anomaly.attribution


def s(value: str, seq: int, epoch: int = 0, pid: int = 1) -> tuple[str, int, int, int]:
    return (value, pid, epoch, seq)


# -- a clean run --------------------------------------------------------------------------------------


def test_a_clean_run_holds_everything():
    trace = [*sends("a", "b"), Attempt(1, ["a", "b"], 0, 1, 0, 0), Response(1, ProduceError.NONE, 0), Acked("a", 0), Acked("b", 1)]
    report = check(trace, records(s("a", 0), s("b", 1)))
    assert report.conforms and all(v.outcome is Outcome.HOLDS for v in report.verdicts), report.describe()


def test_no_final_log_leaves_log_properties_unknown():
    report = check([*sends("a"), Acked("a", 0)], None)
    assert report[P.AT_LEAST_ONCE].outcome is Outcome.UNKNOWN and report[P.LIVENESS].outcome is Outcome.HOLDS


@pytest.mark.parametrize(
    "trace",
    [
        [Send("a"), Send("a")],
        [Acked("a")],
        [Send("a"), Acked("a"), Failed("a")],
    ],
)
def test_malformed_traces_are_refused(trace):
    with pytest.raises(TraceError):
        check(trace, [])


# -- G-AMO / G-EO (rows 1, 14, 15, 17, 22) ---------------------------------------------------------------


def test_dedup_failure_is_the_brokers():
    """Row 1 against a broker without a window: the retry of b0 is written again."""
    report = check([*sends("a"), Acked("a", 0)], records(s("a", 0), s("a", 0)))
    assert only(report, P.AT_MOST_ONCE) == ("duplicate", BROKER)
    assert report[P.EXACTLY_ONCE].attribution is BROKER
    assert only(report, P.SEQUENCES) == ("sequence-overlap", BROKER)


def test_kafka_14034_restamped_retry_is_the_clients():
    """Row 14: b0 written (response lost), b1 fails, the bump re-sends b0 as (epoch 1, seq 0)."""
    trace = [*sends("b0", "b1"), Failed("b1", "INVALID_RECORD"), Acked("b0", 1)]
    assert only(check(trace, records(s("b0", 0), s("b0", 0, epoch=1))), P.AT_MOST_ONCE) == ("duplicate", CLIENT)


def test_librdkafka_4953_bump_duplicates_another_partition():
    """Row 15: partition B's possibly-persisted batch is re-sent under the bumped epoch."""
    trace = [Send("a", 0), Send("b", 1), Acked("a", 0), Acked("b", 1)]
    logs = {0: records(s("a", 0)), 1: records(s("b", 0), s("b", 0, epoch=1))}
    name, who = only(check(trace, logs), P.AT_MOST_ONCE)
    assert (name, who) == ("duplicate", CLIENT)


def test_duplicates_after_producer_id_expiry_are_outside_the_guarantee():
    """Row 17."""
    trace = [*sends("a"), Fault(FaultKind.PRODUCER_ID_EXPIRED), Acked("a", 0)]
    assert only(check(trace, records(s("a", 0), s("a", 0))), P.AT_MOST_ONCE) == ("duplicate", OUTSIDE)


def test_duplicates_without_idempotence_are_allowed():
    """Row 22: implicit idempotence silently off (acks=1) → duplicates under row 1 are allowed."""
    cfg = DeliveryConfig.from_effective(explain_config({"acks": "1"}, version="3.9.0"))
    report = check_delivery([*sends("a"), Acked("a", 0)], {0: records("a", "a")}, cfg)
    assert only(report, P.AT_MOST_ONCE) == ("duplicate", OUTSIDE)
    assert report[P.EXACTLY_ONCE].note.startswith("not promised")


def test_application_resend_after_restart_is_outside():
    trace = [Send("a", session=0), Fault(FaultKind.PRODUCER_RESTART), Send("a2", session=1, resend_of="a"), Acked("a2", 1)]
    assert only(check(trace, records(s("a", 0), s("a2", 0, pid=2))), P.AT_MOST_ONCE) == ("duplicate", OUTSIDE)


# -- G-ALO (rows 8, 9) -----------------------------------------------------------------------------------


def test_lost_acknowledged_write_is_the_brokers():
    """Row 9 with the KAFKA-6683 mutant: the retry was answered as a duplicate of a lost batch."""
    trace = [*sends("a"), Attempt(1, ["a"], 0, 1, 0, 0), Response(1, ProduceError.NONE, 0), Fault(FaultKind.BROKER_CRASH), Acked("a", 0)]
    report = check(trace, [])
    assert only(report, P.AT_LEAST_ONCE) == ("lost-write", BROKER)
    assert report[P.EXACTLY_ONCE].outcome is Outcome.VIOLATED


@pytest.mark.parametrize(
    ("cfg", "fault"),
    [
        ({"replication_factor": 1}, None),
        ({"acks": 1}, None),
        ({"min_insync_replicas": 1}, None),
        ({}, FaultKind.CONCURRENT_FAILURE),
        ({}, FaultKind.HARD_FAILURE),
        ({}, FaultKind.UNCLEAN_ELECTION),
    ],
)
def test_acknowledged_loss_outside_kip_185_scope(cfg, fault):
    """Row 8: RF 1, acks=1, or concurrent/hard failures may lose acked writes."""
    trace = [*sends("a"), *([Fault(fault, 0)] if fault else []), Acked("a", 0)]
    assert only(check(trace, [], **cfg), P.AT_LEAST_ONCE) == ("lost-write", OUTSIDE)


def test_an_ack_no_response_backs_is_the_clients():
    trace = [*sends("a"), Attempt(1, ["a"]), Response(1, ProduceError.NOT_LEADER_OR_FOLLOWER), Acked("a", 0)]
    assert only(check(trace, []), P.AT_LEAST_ONCE) == ("lost-write", CLIENT)


def test_a_stamp_reused_for_another_record_is_the_clients():
    """KafkaJS 2.2.4 on row 19 (docs/producer-conformance.md): v1 went first as (1, 0, 0) and was written, though
    answered DUPLICATE_SEQUENCE_NUMBER; the client gave the sequence back and stamped v0 (1, 0, 0) too. The broker
    rightly answered v0 as v1's duplicate, at v1's offset: v0 is acknowledged and absent, and the client lost it."""
    trace = [*sends("v0", "v1"), Attempt(1, ["v1"], 0, 1, 0, 0), Response(1, ProduceError.DUPLICATE_SEQUENCE_NUMBER),
             Attempt(2, ["v0"], 0, 1, 0, 0), Response(2, ProduceError.NONE, 0), Indeterminate("v1"), Acked("v0", 0)]
    report = check(trace, records(s("v1", 0)))
    [lost] = report[P.AT_LEAST_ONCE].anomalies
    assert (lost.name, lost.attribution) == ("lost-write", CLIENT) and "under which v1 is in the log" in lost.explanation
    same_value_retried = [*sends("a"), Attempt(1, ["a"], 0, 1, 0, 0), Attempt(2, ["a"], 0, 1, 0, 0), Response(2, ProduceError.NONE, 0),
                          Acked("a", 0)]
    assert only(check(same_value_retried, []), P.AT_LEAST_ONCE) == ("lost-write", BROKER)


def test_reusing_the_stamp_of_a_refused_attempt_is_no_fault_of_the_client():
    """v2 took sequence 1 and was refused (INVALID_RECORD: not written); v1 rightly took sequence 1 after it. If v1,
    acknowledged, is then missing, no written record holds its stamp: the broker lost it."""
    trace = [*sends("v0", "v1", "v2"), Attempt(1, ["v0"], 0, 1, 0, 0), Response(1, ProduceError.NONE, 0), Acked("v0", 0),
             Attempt(2, ["v2"], 0, 1, 0, 1), Response(2, ProduceError.INVALID_RECORD), Failed("v2", "INVALID_RECORD"),
             Attempt(3, ["v1"], 0, 1, 0, 1), Response(3, ProduceError.NONE, 1), Acked("v1", 1)]
    assert only(check(trace, records(s("v0", 0))), P.AT_LEAST_ONCE) == ("lost-write", BROKER)


def test_a_reused_stamp_is_found_across_the_sequence_wrap():
    """A two-record batch at Int.MAX puts b at sequence 0; c stamped sequence 0 again is answered as b's duplicate."""
    trace = [*sends("a", "b", "c"), Attempt(1, ["a", "b"], 0, 1, 0, INT32_MAX), Response(1, ProduceError.NONE, 0),
             Acked("a", 0), Acked("b", 1), Attempt(2, ["c"], 0, 1, 0, 0), Response(2, ProduceError.NONE, 1), Acked("c", 1)]
    report = check(trace, records(s("a", INT32_MAX), s("b", 0)))
    [lost] = report[P.AT_LEAST_ONCE].anomalies
    assert (lost.values, lost.attribution) == (("c",), CLIENT), report.describe()


def test_a_sequence_filled_by_another_record_is_no_gap():
    """KafkaJS on row 14b: v1 (sequence 1) timed out and gave its sequence back; v2 took sequence 1 and was refused
    (INVALID_RECORD, not written); v1's retry took sequence 1 again and was written; v3 went as sequence 2. Sequence 1
    is in the log (as v1): acknowledging sequence 2 implies nothing missing, whatever value was stamped first."""
    trace = [*sends("v0", "v1", "v2", "v3"), Attempt(1, ["v0"], 0, 1, 0, 0), Response(1, ProduceError.NONE, 0), Acked("v0", 0),
             Attempt(2, ["v2"], 0, 1, 0, 1), Response(2, ProduceError.INVALID_RECORD), Failed("v2", "INVALID_RECORD"),
             Attempt(3, ["v1"], 0, 1, 0, 1), Response(3, ProduceError.NONE, 1), Acked("v1", 1),
             Attempt(4, ["v3"], 0, 1, 0, 2), Response(4, ProduceError.NONE, 2), Acked("v3", 2)]
    report = check(trace, records(s("v0", 0), s("v1", 1), s("v3", 2)))
    assert report[P.IMPLIED_ACK].outcome is Outcome.HOLDS, report.describe()
    gap = check(trace, records(s("v0", 0), s("v3", 2)))
    assert gap[P.IMPLIED_ACK].outcome is Outcome.VIOLATED


def test_acked_records_below_the_log_start_are_not_lost():
    report = check_delivery([*sends("a"), Acked("a", 0)], {0: []}, DeliveryConfig(), log_start_offsets={0: 5})
    assert report[P.AT_LEAST_ONCE].outcome is Outcome.HOLDS


# -- G-ORD (rows 5, 13, 24) ---------------------------------------------------------------------------------


def test_reordering_within_one_epoch_is_the_brokers():
    trace = [*sends("b0", "b1"), Acked("b0", 1), Acked("b1", 0)]
    report = check(trace, records(s("b1", 1), s("b0", 0)))
    assert only(report, P.ORDER) == ("reordered", BROKER)


def test_indeterminate_batch_never_lands_after_its_successor():
    """Row 13: b0 timed out (indeterminate); it may be in the log once, never after b1."""
    def trace(offset: int) -> list[Event]:
        return [*sends("b0", "b1"), Indeterminate("b0", "delivery timeout"), Acked("b1", offset)]

    assert check(trace(1), records(s("b0", 0), s("b1", 1))).conforms
    assert check(trace(0), records(s("b1", 0, epoch=1))).conforms  # b0 dropped, epoch bumped
    assert only(check(trace(0), records(s("b1", 0, epoch=1), s("b0", 1, epoch=1))), P.ORDER) == ("reordered", CLIENT)


def test_non_idempotent_reordering_is_outside_unless_one_in_flight():
    trace = [*sends("b0", "b1"), Acked("b0", 1), Acked("b1", 0)]
    assert only(check(trace, records("b1", "b0"), idempotence=False), P.ORDER)[1] is OUTSIDE
    assert only(check(trace, records("b1", "b0"), idempotence=False, max_in_flight=1), P.ORDER)[1] is CLIENT


def test_completions_out_of_send_order_are_the_clients():
    """Row 24: callbacks of one partition complete in send order."""
    trace = [*sends("b0", "b1"), Acked("b1", 1), Acked("b0", 0)]
    assert only(check(trace, records(s("b0", 0), s("b1", 1))), P.ORDER) == ("completion-reordered", CLIENT)


# -- G-OFF, G-DEF (rows 1, 19, 20) ---------------------------------------------------------------------------


def test_wrong_offset_from_the_broker():
    """Row 1's second mutant: the dedup answer carries the retry's would-be offset."""
    trace = [*sends("a"), Attempt(1, ["a"]), Response(1, ProduceError.NONE, 3), Acked("a", 3)]
    assert only(check(trace, records(s("a", 0))), P.OFFSETS) == ("wrong-offset", BROKER)


def test_wrong_offset_from_the_client():
    trace = [*sends("a"), Attempt(1, ["a"]), Response(1, ProduceError.NONE, 0), Acked("a", 4)]
    assert only(check(trace, records(s("a", 0))), P.OFFSETS) == ("wrong-offset", CLIENT)


def test_duplicate_sequence_number_is_success_without_offset():
    """Row 19: 46 → acked with offset -1; no offset arithmetic on -1."""
    trace = [*sends("a"), Attempt(1, ["a"]), Response(1, ProduceError.DUPLICATE_SEQUENCE_NUMBER), Acked("a", -1)]
    assert check(trace, records(s("a", 0))).conforms


def test_definite_failure_of_a_written_record():
    """Row 20: NOT_ENOUGH_REPLICAS_AFTER_APPEND means written; reporting it failed is the client's."""
    trace = [*sends("b0"), Attempt(1, ["b0"]), Response(1, ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND), Failed("b0", "x")]
    assert only(check(trace, records(s("b0", 0))), P.DEFINITE_FAILURES) == ("failed-write-present", CLIENT)


def test_definite_failure_the_broker_lied_about():
    trace = [*sends("b0"), Attempt(1, ["b0"]), Response(1, ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER), Failed("b0", "OOOS")]
    assert only(check(trace, records(s("b0", 0))), P.DEFINITE_FAILURES) == ("failed-write-present", BROKER)


# -- G-IMPLIED (rows 6, 20) --------------------------------------------------------------------------------------


def test_kafka_15591_gap_on_empty_state_violates_implied_ack():
    """Row 6 on AK <= 4.4: b0 rejected retriably, b1 accepted on empty state, b0 loops to timeout."""
    trace = [
        *sends("b0", "b1"),
        Attempt(1, ["b0"], 0, 1, 0, 0),
        Attempt(2, ["b1"], 0, 1, 0, 1),
        Response(1, ProduceError.NOT_LEADER_OR_FOLLOWER),
        Response(2, ProduceError.NONE, 0),
        Acked("b1", 0),
        Indeterminate("b0", "delivery timeout"),
    ]
    report = check(trace, records(s("b1", 1)))
    assert only(report, P.IMPLIED_ACK) == ("implied-write-lost", BROKER)
    assert "KAFKA-15591" in report[P.IMPLIED_ACK].anomalies[0].explanation
    assert report[P.SEQUENCES].outcome is Outcome.HOLDS  # a first record may carry any sequence


def test_implied_ack_orders_sequences_across_the_wrap():
    """Row 12: Int.MAX acked and 0 (the next batch, after the wrap) failed proves nothing about Int.MAX's
    predecessors; 0 acked without Int.MAX in the log is a lost implied write."""
    wire = [Attempt(1, ["x"], 0, 1, 0, INT32_MAX), Attempt(2, ["y"], 0, 1, 0, 0)]
    fine = [*sends("x", "y"), *wire, Response(1, ProduceError.NONE, 0), Response(2, ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER),
            Acked("x", 0), Failed("y", "OOOS")]
    assert check(fine, records(s("x", INT32_MAX)))[P.IMPLIED_ACK].outcome is Outcome.HOLDS
    lost = [*sends("x", "y"), *wire, Response(1, ProduceError.NOT_LEADER_OR_FOLLOWER), Response(2, ProduceError.NONE, 0),
            Acked("y", 0), Indeterminate("x", "delivery timeout")]
    assert only(check(lost, records(s("y", 0))), P.IMPLIED_ACK) == ("implied-write-lost", BROKER)


def test_implied_ack_needs_wire_events():
    assert check([*sends("a", "b"), Acked("b", 1)], records(s("b", 1)))[P.IMPLIED_ACK].outcome is Outcome.UNKNOWN


# -- L-SEQ, L-EPOCH (rows 10, 12, 16) -------------------------------------------------------------------------------


def test_log_sequences_follow_the_wrap():
    """Row 12."""
    log = records(s("a", INT32_MAX - 1), s("b", INT32_MAX), s("c", 0), s("d", 1))
    assert check([*sends("a", "b", "c", "d")], log)[P.SEQUENCES].outcome is Outcome.HOLDS


@pytest.mark.parametrize(
    ("log", "name"),
    [
        (records(s("a", 0), s("b", 2)), "sequence-gap"),
        (records(s("a", 0), s("b", 1), s("c", 1)), "sequence-overlap"),
        (records(s("a", 0), s("b", 5, epoch=1)), "bad-epoch-start"),  # row 16 (KAFKA-12152 mutant)
    ],
)
def test_log_sequence_anomalies_are_the_brokers(log, name):
    values = [r.value for r in log]
    assert only(check(sends(*values), log), P.SEQUENCES) == (name, BROKER)


def test_epoch_regression_is_the_brokers():
    """Row 10: a stale in-flight batch of the old epoch written after the new epoch."""
    log = records(s("a", 0), s("b", 0, epoch=1), s("c", 1, epoch=0))
    assert only(check(sends("a", "b", "c"), log), P.EPOCHS) == ("epoch-regression", BROKER)


# -- LIVE (rows 13, 21) --------------------------------------------------------------------------------------------


def test_late_and_stuck_sends():
    late = check([Send("a", time_ms=0), Acked("a", 0, time_ms=200_000)], records(s("a", 0)))
    assert only(late, P.LIVENESS) == ("late-completion", CLIENT)
    stuck = check_delivery([Send("a")], {0: []}, DeliveryConfig(), end_ms=10**6)
    assert only(stuck, P.LIVENESS) == ("stuck-send", CLIENT)
    pending = check_delivery([Send("a")], {0: []}, DeliveryConfig(), end_ms=10)
    assert pending[P.LIVENESS].outcome is Outcome.UNKNOWN


def test_wedged_producer_after_healing():
    """Row 21 (aiokafka#1017): after the outage heals the producer keeps failing with OOOS."""
    trace = [Fault(FaultKind.HEALED, time_ms=0), Send("a", time_ms=130_000), Failed("a", "OUT_OF_ORDER_SEQUENCE_NUMBER", time_ms=130_010)]
    assert only(check(trace, []), P.LIVENESS) == ("wedged-producer", CLIENT)


# -- the model replayed: a minimal idempotent producer against the replicated partition ----------------------------


class Unhealable(Exception):
    """This harness's producer cannot finish: it never bumps its epoch, so a batch it can
    never get written stays unwritten.  Row 6's KAFKA-15591 loop is one way
    (``test_kafka_15591_loop`` expects it); another is a batch whose answers were all lost and
    that was retried only after five later batches were written, so its sequence is behind
    the broker's five-batch window and every retry is OUT_OF_ORDER_SEQUENCE_NUMBER (a real
    producer bumps its epoch there).  Such a run yields no finished log to judge."""


class Run:
    """One idempotent producer session (pid 1, epoch 0, one partition, acks=all, <= 5 in flight)
    against a three-replica partition.  It stamps each batch once, keeps the stamps on retry,
    sends retries in sequence order, and never bumps the epoch."""

    def __init__(self, version: str) -> None:
        self.part = Partition(broker_profile(version))
        self.guard_fresh = not broker_profile(version).fresh_partition_requires_sequence_zero
        self.trace: list[Event] = []
        self.batches: list[ProducerBatch] = []
        self.acked: set[int] = set()
        self.in_flight: set[int] = set()
        self.wire: deque[tuple[int, int, int, bool]] = deque()  # (connection, attempt, batch, inject error)
        self.replies: deque[tuple[int, int, int, ProduceError, int]] = deque()
        self.waiting: dict[int, tuple[int, int]] = {}
        self.offsets: dict[int, int] = {}
        self.connection = self.attempts = self.now = self.completed = 0

    def emit(self, event: Event) -> None:
        self.trace.append(event)

    def tick(self) -> int:
        self.now += 1
        return self.now

    def send(self, n: int) -> None:
        seq = sum(b.record_count for b in self.batches)
        values = [f"v{seq + i}" for i in range(n)]
        self.batches.append(ProducerBatch(1, 0, seq, values, self.now))
        for v in values:
            self.emit(Send(v, time_ms=self.tick()))

    def drain(self) -> None:
        """Send unacked batches in sequence order, up to five in flight; a batch goes only
        when every lower one is acked or in flight (retries go head first)."""
        for index in range(len(self.batches)):
            if index in self.acked or index in self.in_flight:
                continue
            if len(self.in_flight) >= 5:
                return
            self.attempts += 1
            self.in_flight.add(index)
            b = self.batches[index]
            self.emit(Attempt(self.attempts, b.values, 0, 1, 0, b.base_sequence, self.tick()))
            self.wire.append((self.connection, self.attempts, index, False))

    def deliver(self, inject: bool = False) -> None:
        if not self.wire:
            return
        connection, attempt, index, _ = self.wire.popleft()
        leader = self.part.leader_log()
        if leader is None:
            return
        if inject and (not self.guard_fresh or 1 in leader.producers):
            self.replies.append((connection, attempt, index, ProduceError.NOT_LEADER_OR_FOLLOWER, -1))
            return
        answer = self.part.produce(self.batches[index], request_id=attempt)
        if answer is None:
            self.waiting[attempt] = (connection, index)
        else:
            self.replies.append((connection, attempt, index, answer.error, answer.base_offset))
        self.collect()

    def collect(self) -> None:
        for attempt, answer in self.part.completed():
            connection, index = self.waiting.pop(attempt)
            self.replies.append((connection, attempt, index, answer.error, answer.base_offset))

    def replicate(self, broker: int) -> None:
        self.part.replicate(broker)
        self.collect()

    def respond(self) -> None:
        if not self.replies:
            return
        connection, attempt, index, error, offset = self.replies.popleft()
        if connection != self.connection:
            return  # the connection that carried it is gone
        self.emit(Response(attempt, error, offset, self.tick()))
        self.in_flight.discard(index)
        if error.is_success and index not in self.acked:
            self.acked.add(index)
            self.offsets[index] = offset
            while self.completed in self.offsets:  # callbacks fire in send order (row 24)
                base = self.offsets[self.completed]
                for i, v in enumerate(self.batches[self.completed].values):
                    self.emit(Acked(v, base + i if base >= 0 else -1, self.tick()))
                self.completed += 1

    def disconnect(self) -> None:
        self.emit(Fault(FaultKind.DISCONNECT, 0, self.tick()))
        self.connection += 1
        self.wire.clear()
        self.in_flight.clear()

    def crash(self, broker: int) -> None:
        if not all(r.alive for r in self.part.replicas.values()) or len(self.part.isr) < 3:
            return  # one failure at a time, and only from a healthy ISR: inside KIP-185
        self.emit(Fault(FaultKind.BROKER_CRASH, 0, self.tick()))
        self.part.crash(broker, lose_unflushed=True)
        if self.part.leader is None:
            self.part.elect()
            self.emit(Fault(FaultKind.LEADER_FAILOVER, 0, self.tick()))
            self.disconnect()
        self.collect()

    def restart(self) -> None:
        for broker, replica in self.part.replicas.items():
            if not replica.alive:
                self.part.restart(broker)

    def heal(self) -> None:
        self.restart()
        self.emit(Fault(FaultKind.HEALED, 0, self.tick()))
        for _ in range(60):
            if len(self.acked) == len(self.batches):
                return
            self.drain()
            while self.wire:
                self.deliver()
            for broker in range(3):
                self.replicate(broker)
            while self.replies:
                self.respond()
            if not self.in_flight and len(self.acked) < len(self.batches):
                self.disconnect()
        raise Unhealable("the model producer made no progress after healing")


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(1, 3)),
        st.tuples(st.sampled_from(["drain", "deliver", "respond", "disconnect", "error", "pump", "answer"]), st.just(0)),
        st.tuples(st.sampled_from(["replicate", "replicate", "crash", "flush"]), st.integers(0, 2)),
    ),
    min_size=15,
    max_size=60,
)


def replay(version: str, steps: list[tuple[str, int]]) -> tuple[list[Event], list[LogRecord]]:
    run = Run(version)
    for name, arg in steps:
        if name == "send":
            run.send(arg)
        elif name in ("drain", "respond", "disconnect"):
            getattr(run, name)()
        elif name == "pump":  # everything ready goes out, is written and replicated; no answer read yet
            run.drain()
            while run.wire:
                run.deliver()
            for broker in range(3):
                run.replicate(broker)
        elif name == "answer":
            while run.replies:
                run.respond()
        elif name in ("deliver", "error"):
            run.deliver(inject=name == "error")
        elif name == "replicate":
            run.replicate(arg)
        elif name == "crash":
            run.crash(arg)
        else:
            run.part.flush(arg)
        if name != "crash":
            run.restart()
    run.heal()
    run.part.replicate_all()
    return run.trace, list(run.part.records())


@pytest.mark.parametrize(("version", "stuck"), [("4.3.0", True), ("4.5.0", False)])
def test_kafka_15591_loop(version, stuck):
    """Row 6 replayed: b0 is refused retriably on a fresh partition while b1 is in flight.
    AK <= 4.4 accepts b1 at sequence 1 on empty state, so b0 can never be written: the producer
    loops until its delivery timeout.  The 4.5 rule refuses b1 and the retry succeeds."""
    run = Run(version)
    run.guard_fresh = False
    run.send(1)
    run.send(1)
    run.drain()
    run.deliver(inject=True)
    run.deliver()
    run.replicate(1)
    while run.replies:
        run.respond()
    if stuck:
        with pytest.raises(Unhealable, match="no progress"):
            run.heal()
    else:
        run.heal()
    report = check_delivery(run.trace, {0: list(run.part.records())}, DeliveryConfig(), end_ms=10**9)
    assert report.conforms is not stuck
    if stuck:
        assert {a.name for a in report.failures()} == {"stuck-send"}
        assert [r.sequence for r in run.part.records()] == [1]


def _replayed(version: str, steps: list[tuple[str, int]]) -> tuple[list[Event], list[LogRecord]]:
    """:func:`replay`, with a run the harness's producer cannot finish rejected (not a failure:
    it says nothing about the model or the checker; see :class:`Unhealable`)."""
    try:
        return replay(version, steps)
    except Unhealable:
        reject()


SIM = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SIM
@given(STEPS, st.sampled_from(["2.5.0", "3.9.0", "4.3.0", "4.5.0"]))
def test_the_model_keeps_every_promise_it_makes(steps, version):
    """Under acks=all, RF 3, min.insync 2 and one transient failure at a time, the reference
    broker with a well-behaved producer satisfies every property: G-EO, order, offsets,
    implied acks, log sequences and epochs."""
    trace, log = _replayed(version, steps)
    report = check_delivery(trace, {0: log}, DeliveryConfig())
    assert report.conforms, report.describe()
    assert all(v.outcome is Outcome.HOLDS for v in report.verdicts), report.describe()
    assert sorted(r.value for r in log) == sorted(e.value for e in trace if isinstance(e, Send))


@SIM
@given(STEPS, st.sampled_from(["duplicate", "drop", "swap"]), st.data())
def test_the_checker_catches_mutated_logs(steps, mutation, data):
    trace, log = _replayed("4.3.0", [("send", 2), ("drain", 0), *steps])
    i = data.draw(st.integers(0, len(log) - 1))
    if mutation == "duplicate":
        log.append(LogRecord(log[-1].offset + 1, log[i].value, log[i].producer_id, log[i].producer_epoch, log[i].sequence))
        expected = {"duplicate"}
    elif mutation == "drop":
        del log[i]
        expected = {"lost-write"}
    else:
        j = data.draw(st.integers(0, len(log) - 1).filter(lambda j: j != i))
        a, b = log[i], log[j]
        log[i], log[j] = attrs_swap(a, b), attrs_swap(b, a)
        expected = {"reordered"}
    names = {a.name for a in check_delivery(trace, {0: log}, DeliveryConfig()).failures()}
    assert expected <= names, names


def attrs_swap(into: LogRecord, other: LogRecord) -> LogRecord:
    """``other``'s record at ``into``'s offset."""
    return LogRecord(into.offset, other.value, other.producer_id, other.producer_epoch, other.sequence)
