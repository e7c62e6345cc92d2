"""Crafted cases and the anomaly names: JSON round trip, validation messages, and the classifier's decisions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance.adapters.brokers.wire_client import ProduceResult
from kafka_conformance.broker.cases import BrokerCase, CaseError, CraftedBatch, SlotKind, case_from_json, case_to_json
from kafka_conformance.broker.compare import BROKER_ANOMALIES, classify, compare_logs
from kafka_conformance.broker.probes import PROBES
from kafka_conformance.broker.strategies import broker_cases
from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import broker_profile

KAFKA = broker_profile("4.3.0")


@settings(max_examples=50, deadline=None)
@given(broker_cases(KAFKA, restarts=True, deletes=True))
def test_generated_cases_round_trip_through_json(case: BrokerCase) -> None:
    assert case_from_json(case_to_json(case)) == case


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected an object"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0]]}, r"batches\[0\]: expected \[producer, epoch"),
        ({"slots": ["allocated"], "batches": [[1, 0, 0, 1]]}, "uses producer slot 1, but the case has 1"),
        ({"slots": ["minted"], "batches": []}, "slots: each must be one of"),
        ({"slots": ["allocated"], "batches": [[0, 40000, 0, 1]]}, r"batches\[0\]: epoch 40000"),
        ({"slots": ["allocated"], "batches": [], "extra": 1}, "unknown field"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": [[1, "reboot"]]}, r"actions\[0\]: expected"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": [[1, "delete-records"]]}, "takes an offset above 0"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": [[1, "restart-clean", 3]]}, "takes no offset"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": [[0, "restart-crash"]]}, "after the first batch"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": [[2, "restart-crash"]]}, "before the final read"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1]], "actions": {}}, r"actions: expected a list"),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1, 10**10]]}, r"batches\[0\]: a batch's age is 0\.\."),
        ({"slots": ["allocated"], "batches": [[0, 0, 0, 1, 2, 3]]}, r"batches\[0\]: expected \[producer"),
    ],
)
def test_bad_cases_name_the_field(data: object, message: str) -> None:
    with pytest.raises(CaseError, match=message):
        case_from_json(data)


def _answer(log: PartitionLog, batch: ProducerBatch, actual: ProduceResult, slot: SlotKind = SlotKind.ALLOCATED) -> str | None:
    entry = log.producers.get(batch.producer_id)
    new_epoch = entry is not None and batch.producer_epoch > entry.epoch
    nxt = entry.last_seq + 1 if entry is not None and entry.epoch == batch.producer_epoch and entry.batches else None
    leo = log.log_end_offset
    expected = log.append_client(batch)
    return classify(expected, actual, log_end_before=leo, batch=batch, next_seq=nxt, new_epoch=new_epoch, slot=slot, produce_v5=True)


def _log_with(*batches: ProducerBatch) -> PartitionLog:
    log = PartitionLog(KAFKA)
    for b in batches:
        assert log.append_client(b).is_success
    return log


B0 = ProducerBatch(1, 0, 0, ["a"])
B1 = ProducerBatch(1, 0, 1, ["b"])


@pytest.mark.parametrize(
    ("batch", "actual", "anomaly"),
    [
        (B0, ProduceResult(0, 0, 0), None),
        (B0, ProduceResult(46, -1, 0), "duplicate-rejected"),
        (B0, ProduceResult(0, 2, 0), "duplicate-appended"),
        (B0, ProduceResult(0, 1, 0), "wrong-duplicate-offset"),
        (B0, ProduceResult(0, 0, -1), "wrong-log-start-offset"),
        (ProducerBatch(1, 0, 5, ["x"]), ProduceResult(0, 2, 0), "gap-accepted"),
        (ProducerBatch(1, 0, 5, ["x"]), ProduceResult(45, -1, 0), None),
        (ProducerBatch(1, 0, 5, ["x"]), ProduceResult(59, -1, 0), "wrong-error-code"),
        (ProducerBatch(1, 0, 5, ["x"]), ProduceResult(45, 2, 0), "wrong-refusal-offset"),
        (ProducerBatch(1, 0, 1, ["x", "y"]), ProduceResult(0, 2, 0), "out-of-order-accepted"),
        (ProducerBatch(1, 0, 1, ["x", "y"]), ProduceResult(0, 1, 0), "false-duplicate"),
        (ProducerBatch(1, 1, 3, ["x"]), ProduceResult(0, 2, 0), "new-epoch-nonzero-accepted"),
        (ProducerBatch(1, 1, 0, ["x"]), ProduceResult(90, -1, 0), "valid-batch-rejected"),
        (ProducerBatch(1, 0, 2, ["x"]), ProduceResult(0, 3, 0), "wrong-append-offset"),
        (ProducerBatch(1, 0, -1, ["x"]), ProduceResult(0, 2, 0), "invalid-batch-accepted"),
        (ProducerBatch(2, 0, 9, ["x"]), ProduceResult(45, -1, 0), "nonzero-first-sequence-rejected"),
    ],
)
def test_classifier(batch: ProducerBatch, actual: ProduceResult, anomaly: str | None) -> None:
    assert _answer(_log_with(B0, B1), batch, actual) == anomaly
    assert anomaly is None or anomaly in BROKER_ANOMALIES


def test_stale_epoch_and_unallocated_producer() -> None:
    log = _log_with(B0, ProducerBatch(1, 1, 0, ["b"]))
    assert _answer(log, ProducerBatch(1, 0, 1, ["x"]), ProduceResult(0, 2, 0)) == "stale-epoch-accepted"
    fresh = PartitionLog(KAFKA)
    assert _answer(fresh, ProducerBatch(9, 0, 0, ["x"]), ProduceResult(59, -1, 0), SlotKind.UNALLOCATED) == "unallocated-producer-rejected"


def test_old_releases_change_the_expected_answer() -> None:
    """The same broker answer is right or wrong depending on the release held to (59 before 2.5)."""
    old = PartitionLog(broker_profile("2.4.0"))
    assert _answer(old, ProducerBatch(2, 0, 9, ["x"]), ProduceResult(59, -1, 0)) is None
    assert _answer(PartitionLog(KAFKA), ProducerBatch(2, 0, 9, ["x"]), ProduceResult(59, -1, 0)) == "nonzero-first-sequence-rejected"


def test_log_comparison_names_the_first_difference() -> None:
    expected = (LogRecord(0, "a", 1, 0, 0), LogRecord(1, "b", 1, 0, 1))
    assert compare_logs(expected, expected) is None
    diff = compare_logs(expected, (expected[0], LogRecord(1, "b", 1, 0, 7)))
    assert diff is not None and diff.anomaly == "log-mismatch" and "seq 7" in diff.actual
    longer = compare_logs(expected, (*expected, LogRecord(2, "a", 1, 0, 0)))
    assert longer is not None and "longer" in longer.actual


def test_probe_names_are_unique_and_every_probe_is_a_valid_case() -> None:
    names = [p.name for p in PROBES]
    assert len(names) == len(set(names))
    for probe in PROBES:
        assert case_from_json(case_to_json(probe.case)) == probe.case


@given(st.integers(0, 5))
@settings(max_examples=6, deadline=None)
def test_crafted_batch_describes_wrapping_ranges(k: int) -> None:
    text = CraftedBatch(0, 0, 2**31 - 1 - k, k + 2).describe()
    assert text.endswith(f"..0 ({k + 2} rec)")


class _Answers:
    """A leader that answers from a list: our own plumbing under test, not a broker."""

    def __init__(self, *codes: int) -> None:
        self.codes = list(codes)
        self.sent = 0

    def produce(self, topic: str, partition: int, batch: ProducerBatch) -> ProduceResult:
        self.sent += 1
        code = self.codes.pop(0) if self.codes else 0
        return ProduceResult(code, -1 if code else 0, 0)


def test_a_warming_up_answer_is_resent_until_the_broker_has_its_leader() -> None:
    from kafka_conformance.broker.compare import _produce_settled

    batch = ProducerBatch(1, 0, 0, ["v"])
    expected = PartitionLog(KAFKA).append_client(batch)
    leader = _Answers(6, 5, 3)
    assert _produce_settled(leader, "t", batch, expected).error_code == 0  # type: ignore[arg-type]
    assert leader.sent == 4


def test_an_answer_the_reference_expects_or_any_other_error_is_judged_at_once() -> None:
    from kafka_conformance.broker.compare import _produce_settled

    batch = ProducerBatch(1, 0, 0, ["v"])
    expected = PartitionLog(KAFKA).append_client(batch)
    for code in (45, 0):
        leader = _Answers(code, 0)
        assert _produce_settled(leader, "t", batch, expected).error_code == code  # type: ignore[arg-type]
        assert leader.sent == 1


def test_a_case_that_restarts_refuses_a_target_that_cannot() -> None:
    """Checked before anything is sent, so a replay on such a target is a usage error, not a divergence."""
    from kafka_conformance.broker.compare import run_case

    case = next(p.case for p in PROBES if p.case.restarts)
    with pytest.raises(CaseError, match="cannot be restarted by the kit"):
        run_case(None, case, KAFKA)  # type: ignore[arg-type]
