"""Apache Kafka's own Java producer (kafka-clients 4.3.0) through trace-table rows on the test broker.

Each test starts a real JVM running ``KafkaProducer`` (adapters/jvm/ProducerRunner.java)
against the kit's Python test broker; they skip, with the reason, when java/javac or the
cached jar is missing (``kafka-conformance fetch kafka-clients``) or when
kafka-python (the test broker's codec, the ``clients`` extra) is not installed.
"""

from __future__ import annotations

import pytest

# Imported here, before any test starts a thread: pytest rewrites the kit's modules on import, and
# CPython 3.11.7's parser is not safe against two threads parsing at once ("AST constructor
# recursion depth mismatch", seen once when this test imported the trace table while the run's
# other threads were running).
from kafka_conformance.adapters.clients.java_client import JavaProducerClient, classify_java_error
from kafka_conformance.adapters.clients.protocol import ClientConfigError
from kafka_conformance.producer import trace_table  # noqa: F401
from kafka_conformance.producer.check import judge, run_wire_trace
from kafka_conformance.producer.clients import resolve_client
from kafka_conformance.producer.report import RunStatus
from kafka_conformance.producer.table import run_table, table_rows
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.events import Acked, Attempt
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep


@pytest.fixture(scope="module")
def java() -> JavaProducerClient:
    reason = JavaProducerClient().available()
    if reason is not None:
        pytest.skip(f"Java producer unavailable: {reason}")
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    client = resolve_client("java")
    assert isinstance(client, JavaProducerClient)
    return client


def test_rows_1_19_21_22_on_the_java_producer(java: JavaProducerClient) -> None:

    results = {r.number: r for r in run_table("java", rows=table_rows(["1", "19", "21", "22"]))}
    for number in ("1", "19"):
        result = results[number]
        assert result.status is RunStatus.HOLDS, (number, result.error, result.anomalies, result.notes)
        verdicts = {prop: outcome for prop, outcome, _ in result.verdicts}
        assert verdicts["G-EO"] == "holds" and verdicts["G-OFF"] == "holds" and verdicts["LIVE"] == "holds", (number, verdicts)
        assert dict(result.counts).get("acked") == 2, (number, result.counts)
    # Row 21, where kafka-python stalls for good (docs/producer-conformance.md): Java resets
    # its producer id after the retried batch expires, gets a new one, and v2 is acked.
    leaderless = results["21"]
    assert leaderless.status is RunStatus.HOLDS, (leaderless.error, leaderless.anomalies, leaderless.notes)
    refused = results["22"]
    assert refused.status is RunStatus.HOLDS, refused
    assert "Must set acks to all" in refused.error, refused.error


def test_duplicate_sequence_is_a_success_without_an_offset(java: JavaProducerClient) -> None:
    """Row 19's first produce is answered DUPLICATE_SEQUENCE_NUMBER: Java completes it with
    hasOffset() false, which the runner reports as offset -1."""

    run = run_wire_trace(table_rows(["19"])[0].trace, "java")
    acks = {e.value: e.offset for e in run.events if isinstance(e, Acked)}
    assert acks["v0"] == -1, run.events
    assert set(acks) == {"v0", "v1"}, run.events


def test_an_unknown_property_is_refused_by_the_producer(java: JavaProducerClient) -> None:

    trace = ProducerTrace([SendStep("v0"), FlushStep()]).with_config(no_such_setting="1")
    with pytest.raises(ClientConfigError, match=r"refuses the configuration: ConfigException: .*no\.such\.setting"):
        run_wire_trace(trace, "java")


def test_settings_the_harness_owns_are_refused_before_anything_starts() -> None:
    trace = ProducerTrace([SendStep("v0")]).with_config(bootstrap_servers="127.0.0.1:1")
    with pytest.raises(ClientConfigError, match=r"bootstrap\.servers is set by the harness"):
        JavaProducerClient().check_config(trace)


@pytest.mark.parametrize(
    ("line", "outcome"),
    [
        ({"class": "org.apache.kafka.common.InvalidRecordException", "message": "bad", "code": 87, "sync": False}, Appended.NO),
        ({"class": "org.apache.kafka.common.errors.TimeoutException", "message": "Expiring 1 record(s)", "code": 7, "sync": False},
         Appended.MAYBE),
        ({"class": "org.apache.kafka.common.errors.NetworkException", "message": "x", "code": 13, "sync": False}, Appended.MAYBE),
        ({"class": "org.apache.kafka.common.KafkaException", "message": "x", "code": -1, "sync": False}, Appended.MAYBE),
        ({"class": "org.apache.kafka.common.errors.TimeoutException", "message": "not present in metadata", "code": 7, "sync": True},
         Appended.NO),
    ],
)
def test_error_lines_are_classified_conservatively(line: dict[str, object], outcome: Appended) -> None:
    assert classify_java_error(line)[0] is outcome


def test_kafka_14034_the_bump_re_stamps_a_written_batch(java: JavaProducerClient) -> None:
    """Trace-table row 14b: v1 is written but answered late with REQUEST_TIMED_OUT (retriable)
    while v2, pipelined behind it, is answered INVALID_RECORD.  Kafka's own KafkaProducer
    4.3.0 bumps the epoch for v2's failure and re-sends v1 under the new epoch from
    sequence 0, so the broker cannot see it is a retry: v1 is in the log twice (KAFKA-14034,
    open).  The reference producer retries v1 under the old epoch first."""

    run = run_wire_trace(table_rows(["14b"])[0].trace, "java")
    v1 = [(a.producer_epoch, a.base_sequence) for a in run.events if isinstance(a, Attempt) and a.values == ("v1",)]
    assert v1[0] == (0, 1) and (1, 0) in v1, v1
    log = [r.value for r in dict(run.final_log or ())[0]]
    assert log.count("v1") == 2, log
    result = judge(run)
    assert result.status is RunStatus.CLIENT
    assert {(a.name, a.values) for a in result.client_anomalies} >= {("duplicate", ("v1",))}
