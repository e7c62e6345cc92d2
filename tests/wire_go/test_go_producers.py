"""franz-go and sarama under failure traces on the test broker, and their runners' bad days.

The trace table runs on each Go client and every row's outcome is compared with the
table recorded in docs/producer-conformance.md ("Go clients"); the runner tests use a
stand-in program that answers the protocol and then dies, so no Go is needed for them.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.clients.protocol import ClientConfigError, ClientRunError
from kafka_conformance.adapters.go import producers
from kafka_conformance.adapters.go.producers import FranzGoClient, SaramaClient, classify_go_error, go_settings
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from recorded_tables import outcome, recorded


@pytest.mark.parametrize("broker", ["test-broker", "kfake", "kfake-cluster"])
@pytest.mark.parametrize("client", ["franz-go", "sarama"])
def test_the_trace_table_on_each_go_client_matches_the_recorded_table(client: str, broker: str,
                                                                      go_programs: dict[str, Path]) -> None:
    """Each column of the recorded table (``franz-go`` is the test broker's, ``franz-go@kfake`` kfake's, ...)."""
    pytest.importorskip("kafka", reason="the test broker and the fault proxy need kafka-python (the clients extra)")
    from kafka_conformance.producer.table import run_table

    column = recorded("Go clients")[client if broker == "test-broker" else f"{client}@{broker}"]
    seen = {r.number: outcome(r) for r in run_table(client, broker=broker)}
    expected = {number: column.get(number, column["*"]) for number in seen}
    assert seen == expected


def test_settings_are_mapped_with_notes_and_refusals_by_name() -> None:
    props = {"enable.idempotence": "true", "acks": "all", "max.in.flight.requests.per.connection": "5",
             "request.timeout.ms": "1500", "delivery.timeout.ms": "8000", "retry.backoff.ms": "50", "linger.ms": "0"}
    sarama = go_settings("sarama", props, "4.3.0")
    assert sarama.as_dict()["max_in_flight"] == 1 and sarama.as_dict()["retries"] == 5
    assert any("no delivery timeout" in n for n in sarama.notes) and any("Net.MaxOpenRequests=1" in n for n in sarama.notes)
    franz = go_settings("franz-go", {**props, "max.in.flight.requests.per.connection": "2"}, "4.3.0")
    assert any("up to 5" in n for n in franz.notes)
    with pytest.raises(ClientConfigError, match="transactional producers are outside"):
        go_settings("franz-go", {"transactional.id": "t"}, "4.3.0")
    with pytest.raises(ClientConfigError, match=r"compression\.type='gzip' has no equivalent"):
        go_settings("sarama", {"compression.type": "gzip"}, "4.3.0")


@pytest.mark.parametrize(("line", "outcome"), [
    ({"class": "kerr.NOT_ENOUGH_REPLICAS", "code": 19}, Appended.NO),
    ({"class": "kerr.NOT_ENOUGH_REPLICAS_AFTER_APPEND", "code": 20}, Appended.YES),
    ({"class": "kerr.REQUEST_TIMED_OUT", "code": 7}, Appended.MAYBE),
    ({"class": "kgo.ErrRecordTimeout", "code": 0}, Appended.MAYBE),
    ({"class": "kgo.ErrRecordRetries", "code": 19}, Appended.MAYBE),
    ({"class": "kgo.ErrMaxBuffered", "code": 0}, Appended.NO),
    ({"class": "sarama.KError", "code": 45}, Appended.NO),
    ({"class": "sarama.ErrOutOfBrokers", "code": 0}, Appended.MAYBE),
    ({"class": "*net.OpError", "code": 0}, Appended.MAYBE),
])
def test_what_an_error_line_claims(line: dict[str, object], outcome: Appended) -> None:
    assert classify_go_error(line)[0] is outcome


def _stand_in(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "runner.sh"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.mark.parametrize("client", [FranzGoClient, SaramaClient])
def test_a_runner_that_dies_mid_run_is_a_clear_error(client: type, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.check import run_wire_trace

    script = _stand_in(tmp_path, 'read open\necho \'{"event":"ready"}\'\nread send\necho "runner crashed" >&2\nexit 3\n')
    monkeypatch.setattr(producers, "program", lambda name: script)
    trace = ProducerTrace([SendStep("v0"), SendStep("v1"), FlushStep()])
    with pytest.raises(ClientRunError, match=r"the producer process died \(exit code 3\).*runner crashed"):
        run_wire_trace(trace, client.name)


def test_a_runner_that_dies_before_answering_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.check import run_wire_trace

    script = _stand_in(tmp_path, 'echo "panic: something broke" >&2\nexit 2\n')
    monkeypatch.setattr(producers, "program", lambda name: script)
    with pytest.raises(ClientRunError, match=r"the producer process exited \(code 2\).*panic: something broke"):
        run_wire_trace(ProducerTrace([SendStep("v0"), FlushStep()]), "franz-go")


def test_a_configuration_the_client_refuses_is_its_own_words(go_programs: dict[str, Path]) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.check import run_wire_trace

    trace = ProducerTrace([SendStep("v0"), FlushStep()]).with_config(acks="1")
    with pytest.raises(ClientConfigError, match=r"franz-go refuses the configuration: .*idempotency requires acks=all"):
        run_wire_trace(trace, "franz-go")
    with pytest.raises(ClientConfigError, match=r"sarama refuses the configuration: .*RequiredAcks to be WaitForAll"):
        run_wire_trace(trace, "sarama")
