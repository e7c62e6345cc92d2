"""What the real clients actually do on the interesting rows, asserted as found (issue 6).

Each test states a finding about a released client (kafka-python 3.0.12,
aiokafka 0.14.0, confluent-kafka 2.16.1 / librdkafka 2.16.0) on the Python
test broker.  They assert the checker's verdict *and* the wire evidence, so a
client release that fixes (or breaks) the behaviour makes the test fail and
the finding gets re-examined.  The same traces are saved under
``tests/wire_clients/findings/`` for ``kafka-conformance replay``.
"""

from __future__ import annotations

import pytest

from kafka_conformance.producer.check import judge, run_wire_trace
from kafka_conformance.producer.report import RunStatus
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.events import Acked, Attempt, Failed, Indeterminate, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep

DUPLICATE_ANSWER = ProducerTrace(
    [SendStep("a"), SendStep("b"), SendStep("c"), FlushStep(), SendStep("d"), FlushStep()],
    FaultPlan([ProduceRule(1, Action.ERROR_AFTER_APPEND, 0, ProduceError.DUPLICATE_SEQUENCE_NUMBER)]),
    name="46 answered for a written three-record batch",
).with_config(linger_ms="200")
"""The three records are batched (linger 200 ms), appended, and answered 46 with base offset -1,
as Tansu answers every duplicate and 1.0.x brokers answered retries below the window."""

LEADERLESS = ProducerTrace(
    [SendStep("a"), FlushStep(), ClusterStep(ClusterAction.LEADERLESS, 0, duration_ms=2500), SendStep("b"), SendStep("c"),
     WaitStep(3000), SendStep("d"), SendStep("e")],
    name="leader absent longer than the batch time-to-live (aio-libs/aiokafka#1017)",
)
"""request.timeout.ms is 1500 ms, so aiokafka's batch TTL runs out while the partition has no leader."""


def _acked(run) -> dict[str, int]:
    return {e.value: e.offset for e in run.events if isinstance(e, Acked)}


@pytest.mark.parametrize("client", ["aiokafka", "confluent-kafka"])
def test_offsets_computed_from_the_minus_one_of_a_duplicate_answer(client: str) -> None:
    """aiokafka and librdkafka treat 46 as success (right) but number the batch's records from its
    base offset -1: the second record is reported at offset 0, which holds the first (G-OFF)."""
    run = run_wire_trace(DUPLICATE_ANSWER, client)
    responses = [e for e in run.events if isinstance(e, Response)]
    assert responses[0].error is ProduceError.DUPLICATE_SEQUENCE_NUMBER and responses[0].base_offset == -1
    assert _acked(run) == {"a": -1, "b": 0, "c": 1, "d": 3}
    result = judge(run)
    assert result.status is RunStatus.CLIENT
    assert {(a.name, a.values) for a in result.client_anomalies} == {("wrong-offset", ("b",)), ("wrong-offset", ("c",))}


def test_kafka_python_reports_no_offset_for_a_duplicate_answer() -> None:
    run = run_wire_trace(DUPLICATE_ANSWER, "kafka-python")
    assert _acked(run) == {"a": -1, "b": -1, "c": -1, "d": 3}
    assert judge(run).status is RunStatus.HOLDS


def test_aiokafka_consumes_sequences_of_batches_it_expires_while_leaderless() -> None:
    """aio-libs/aiokafka#1017 confirmed: batches whose partition has no leader past their TTL are
    failed locally after their sequence numbers were taken, so the next batch arrives with a gap
    and every later send fails with OUT_OF_ORDER_SEQUENCE_NUMBER (no epoch bump, no repair)."""
    run = run_wire_trace(LEADERLESS, "aiokafka")
    attempts = [e for e in run.events if isinstance(e, Attempt)]
    sent_after = [a for a in attempts if "d" in a.values]
    assert sent_after and sent_after[0].base_sequence == 3  # sequences 1 and 2 went to b and c
    assert not any("c" in a.values for a in attempts)  # c was never sent, yet consumed sequence 2
    outcomes = {e.value: type(e) for e in run.events if isinstance(e, (Acked, Failed, Indeterminate))}
    assert outcomes == {"a": Acked, "b": Indeterminate, "c": Indeterminate, "d": Failed, "e": Failed}
    assert [r.value for r in dict(run.final_log or ())[0]] == ["a"]


@pytest.mark.parametrize("client", ["kafka-python", "confluent-kafka"])
def test_other_clients_survive_the_leaderless_period(client: str) -> None:
    run = run_wire_trace(LEADERLESS, client)
    assert [r.value for r in dict(run.final_log or ())[0]] == ["a", "b", "c", "d", "e"]
    assert judge(run).status is RunStatus.HOLDS


def test_kafka_python_stalls_for_good_after_a_retried_batch_expires() -> None:
    """Trace-table row 21 on kafka-python 3.0.12: v1 is retried while the partition has no
    leader, then expires; the sender resets the producer id to -1 but leaves the transaction
    manager READY, and a new id is only requested from UNINITIALIZED, so it never sends again.
    v2, sent after the leader is back, is never attempted (docs/producer-conformance.md)."""
    from kafka_conformance.producer.table import table_rows

    run = run_wire_trace(table_rows(["21"])[0].trace, "kafka-python")
    attempts = [e for e in run.events if isinstance(e, Attempt)]
    assert len([a for a in attempts if "v1" in a.values]) >= 2  # retried: its sequence may be on the broker
    assert not any("v2" in a.values for a in attempts)
    outcomes = {e.value: type(e) for e in run.events if isinstance(e, (Acked, Failed, Indeterminate))}
    assert outcomes.get("v0") is Acked and outcomes.get("v2") is not Acked
    result = judge(run)
    assert result.status is RunStatus.CLIENT
    assert "stuck-send" in {a.name for a in result.client_anomalies}


def _row_14b(client: str):
    from kafka_conformance.producer.table import table_rows

    return run_wire_trace(table_rows(["14b"])[0].trace, client)


def test_librdkafka_re_stamps_a_written_batch_at_the_bump() -> None:
    """Row 14b (KAFKA-14034's shape) on confluent-kafka 2.16.1 / librdkafka 2.16.0: like
    Kafka's Java producer (tests/jvm), it bumps the epoch for v2's definite failure and
    re-sends v1, written already, from sequence 0 under the new epoch: v1 twice in the log."""
    run = _row_14b("confluent-kafka")
    v1 = [(a.producer_epoch, a.base_sequence) for a in run.events if isinstance(a, Attempt) and a.values == ("v1",)]
    assert (0, 1) in v1 and (1, 0) in v1, v1
    assert [r.value for r in dict(run.final_log or ())[0]].count("v1") == 2
    result = judge(run)
    assert result.status is RunStatus.CLIENT
    assert ("duplicate", ("v1",)) in {(a.name, a.values) for a in result.client_anomalies}


def test_kafka_python_fails_a_written_batch_with_the_error_of_the_next() -> None:
    """Row 14b on kafka-python 3.0.12: no duplicate, but v1 (written, answered REQUEST_TIMED_OUT)
    is reported definitely failed with v2's INVALID_RECORD (G-DEF, failed-write-present)."""
    run = _row_14b("kafka-python")
    assert [r.value for r in dict(run.final_log or ())[0]].count("v1") == 1
    failed = {e.value: e.error for e in run.events if isinstance(e, Failed)}
    assert "v1" in failed and "InvalidRecord" in failed["v1"], failed
    result = judge(run)
    assert result.status is RunStatus.CLIENT
    assert {(a.name, a.values) for a in result.client_anomalies} == {("failed-write-present", ("v1",))}


def test_aiokafka_cannot_meet_row_14b_with_one_request_in_flight() -> None:
    """aiokafka keeps one produce request in flight per broker, so v2 is sent only after v1 is
    settled: the row holds."""
    assert judge(_row_14b("aiokafka")).status is RunStatus.HOLDS
