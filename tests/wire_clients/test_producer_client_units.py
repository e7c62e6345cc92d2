"""Units of the producer-client plumbing: error classification, config mapping, completions, merging, saving."""

from __future__ import annotations

import json
import threading

import pytest

from kafka_conformance.adapters.clients.aiokafka_client import AiokafkaClient, classify_aiokafka_error
from kafka_conformance.adapters.clients.confluent_client import ConfluentKafkaClient, classify_librdkafka_error
from kafka_conformance.adapters.clients.kafka_python_client import KafkaPythonClient, classify_kafka_python_error
from kafka_conformance.adapters.clients.protocol import ClientConfigError, CompletionLog
from kafka_conformance.producer.check import merge_events
from kafka_conformance.producer.clients import delivery_config_for
from kafka_conformance.producer.report import RunResult, RunStatus
from kafka_conformance.producer.saved import load_producer_case, save_run
from kafka_conformance.reference.broker.produce_errors import Appended, ProduceError
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Property
from kafka_conformance.reference.traces.events import Acked, Attempt, Indeterminate, Response, Send
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, ProducerTrace, SendStep, WaitStep


def _kafka_errors():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import kafka.errors as errors
    return errors


# ---------------------------------------------------------------- error mapping


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NotEnoughReplicasError", Appended.NO),  # 19: rejected before the append
        ("OutOfOrderSequenceNumberError", Appended.NO),
        ("NotEnoughReplicasAfterAppendError", Appended.YES),  # 20: written, then the ISR shrank
        ("RequestTimedOutError", Appended.MAYBE),
        ("KafkaTimeoutError", Appended.MAYBE),  # client-side expiry: no errno
        ("KafkaConnectionError", Appended.MAYBE),
        ("UnknownError", Appended.MAYBE),  # -1 UNKNOWN_SERVER_ERROR
    ],
)
def test_kafka_python_errors_map_by_class(name: str, expected: Appended) -> None:
    exc = getattr(_kafka_errors(), name)("boom")
    outcome, text = classify_kafka_python_error(exc)
    assert outcome is expected
    assert name in text


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NotEnoughReplicasError", Appended.NO),
        ("ProducerFenced", Appended.NO),  # aiokafka's name for INVALID_PRODUCER_EPOCH
        ("NotLeaderForPartitionError", Appended.MAYBE),
        ("KafkaTimeoutError", Appended.MAYBE),
        ("RequestTimedOutError", Appended.MAYBE),
    ],
)
def test_aiokafka_errors_map_by_class(name: str, expected: Appended) -> None:
    import aiokafka.errors as errors

    outcome, _ = classify_aiokafka_error(getattr(errors, name)())
    assert outcome is expected


def test_librdkafka_codes_are_inferred_conservatively() -> None:
    # Never sent: definite.
    assert classify_librdkafka_error(-190, "_UNKNOWN_PARTITION")[0] is Appended.NO
    # The message status is not exposed, so a timeout or a purge is indeterminate.
    assert classify_librdkafka_error(-192, "_MSG_TIMED_OUT")[0] is Appended.MAYBE
    assert classify_librdkafka_error(-152, "_PURGE_QUEUE")[0] is Appended.MAYBE
    # A "not written" broker code is definite only when the message cannot have been sent before.
    outcome, text = classify_librdkafka_error(ProduceError.MESSAGE_TOO_LARGE.code, "MSG_SIZE_TOO_LARGE")
    assert outcome is Appended.NO and "inferred" in text
    assert classify_librdkafka_error(ProduceError.MESSAGE_TOO_LARGE.code, "MSG_SIZE_TOO_LARGE", retried=True)[0] is Appended.MAYBE
    assert classify_librdkafka_error(ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND.code, "X")[0] is Appended.YES


def test_confluent_message_has_no_status_accessor() -> None:
    """Why confluent-kafka's classification is inferred: the binding does not expose librdkafka's status.
    If a future release adds one, this test fails and the adapter should use it."""
    import confluent_kafka

    assert not any("status" in name for name in dir(confluent_kafka.Message))


# --------------------------------------------------------------- config mapping


def _trace(**props: str) -> ProducerTrace:
    return ProducerTrace([SendStep("a")]).with_config(**props)


def test_java_names_map_to_each_client() -> None:
    trace = _trace()
    assert KafkaPythonClient().check_config(trace).as_dict()["max_in_flight_requests_per_connection"] == 5
    assert ConfluentKafkaClient().check_config(trace).as_dict()["socket.timeout.ms"] == 1500
    aio = AiokafkaClient().check_config(trace)
    assert aio.as_dict()["request_timeout_ms"] == 1500
    assert "max_in_flight_requests_per_connection" not in aio.as_dict()
    assert any("one produce request in flight" in n for n in aio.notes)


@pytest.mark.parametrize(
    ("client", "props", "fragment"),
    [
        (AiokafkaClient, {"retries": "0"}, "retries=0"),
        (KafkaPythonClient, {"transactional_id": "t"}, "transactional"),
        (ConfluentKafkaClient, {"compression_type": "gzip"}, "no equivalent"),
        (KafkaPythonClient, {"acks": "2"}, "acks"),
        (ConfluentKafkaClient, {"linger_ms": "soon"}, "not an integer"),
    ],
)
def test_inexpressible_settings_are_refused(client: type, props: dict[str, str], fragment: str) -> None:
    with pytest.raises(ClientConfigError, match=fragment):
        client().check_config(_trace(**props))


def test_delivery_config_follows_each_clients_rules() -> None:
    trace = _trace(max_in_flight_requests_per_connection="1")
    assert delivery_config_for("aiokafka", trace).max_in_flight == 1
    assert delivery_config_for("kafka-python", trace).idempotence
    lib = delivery_config_for("confluent-kafka", _trace(acks="1", enable_idempotence="false"))
    assert lib.acks == 1 and not lib.idempotence
    assert delivery_config_for("kafka-python", trace, liveness_slack_ms=1234).liveness_slack_ms == 1234


# ----------------------------------------------------------------- completions


def test_completion_log_keeps_the_first_completion_and_sets_aside_the_rest() -> None:
    ticks = iter(range(100))
    log = CompletionLog(lambda: next(ticks))
    log.send("a", 0)
    log.send("b", 0)
    threads = [threading.Thread(target=log.acked, args=("a", 7)), threading.Thread(target=log.failed, args=("a", "late"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log.indeterminate("b", "timeout")
    assert log.pending == 0
    events = log.close()
    log.acked("c", 1)  # after close: ignored
    assert [type(e) for e in events][:2] == [Send, Send]
    assert len(events) == 4 and len(log.double_completions) == 1
    assert isinstance(events[-1], Indeterminate)


def test_merge_puts_sends_before_attempts_and_responses_before_completions() -> None:
    app = [Send("a", time_ms=5), Acked("a", 0, time_ms=9)]
    wire = [Attempt(1, ("a",), time_ms=5), Response(1, time_ms=9)]
    merged = merge_events(app, wire)
    assert [type(e) for e in merged] == [Send, Attempt, Response, Acked]


# -------------------------------------------------------------------- saving


def _result(trace: ProducerTrace) -> RunResult:
    anomaly = Anomaly("duplicate", Property.AT_MOST_ONCE, Attribution.CLIENT, "re-stamped", 0, ("a",), (0, 1))
    return RunResult("lost response", "kafka-python", "test-broker", trace, RunStatus.CLIENT, 1, anomalies=(anomaly,))


def test_saved_case_round_trips_and_its_program_rebuilds_the_trace(tmp_path) -> None:
    trace = ProducerTrace(
        [SendStep("a"), ClusterStep(ClusterAction.FAILOVER, 0), WaitStep(10), SendStep("b")],
        FaultPlan([ProduceRule(1, Action.ERROR, 0, ProduceError.NOT_ENOUGH_REPLICAS), ProduceRule(2, Action.DELAY, delay_ms=30)]),
        name="x",
    )
    path = save_run(_result(trace), tmp_path, kafka_version="4.3.0", seed=3)
    case = load_producer_case(path)
    assert case.trace == trace and case.client == "kafka-python" and case.anomalies == ("duplicate",)
    source = path.with_suffix(".py").read_text(encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(compile(source, str(path.with_suffix(".py")), "exec"), namespace)  # the program is valid Python
    assert namespace["TRACE"] == trace


def test_a_malformed_case_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "case.json"
    bad.write_text(json.dumps({"format": "kafka-conformance/producer-case", "version": 1, "client": "aiokafka"}), encoding="utf-8")
    with pytest.raises(ValueError, match="missing field"):
        load_producer_case(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_producer_case(bad)

