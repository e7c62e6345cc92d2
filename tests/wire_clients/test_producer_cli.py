"""``check producer`` / ``check matrix`` exit codes and outputs, through the CLI module's own parser."""

from __future__ import annotations

import importlib.util
import json

import pytest
from hypothesis import strategies as st

from kafka_conformance.cli.main import main
from kafka_conformance.options import Options
from kafka_conformance.producer.check import check_producer, run_and_judge
from kafka_conformance.producer.render import to_junit_xml
from kafka_conformance.producer.report import RunStatus
from kafka_conformance.producer.saved import replay_producer, save_run
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep


def _run(*argv: str) -> int:
    """``kafka-conformance check producer ARGV``, through the CLI's one error path."""
    return main(["check", "producer", *argv])


def test_unknown_client_is_a_usage_error(capsys) -> None:
    assert _run("--client", "kafka-go", "--max-examples", "1") == 2
    assert "unknown target 'kafka-go'; check producer --client takes" in capsys.readouterr().err


def test_unknown_broker_is_a_usage_error(capsys) -> None:
    assert _run("--client", "model", "--broker", "redpanda", "--max-examples", "1") == 2
    assert "unknown target 'redpanda'; check producer --broker takes" in capsys.readouterr().err


def test_missing_client_package_names_the_extra(monkeypatch, capsys) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "aiokafka" else real(name, *a))
    assert _run("--client", "aiokafka", "--max-examples", "1") == 2
    assert "kafka-conformance[clients]" in capsys.readouterr().err


def test_model_client_conforms_with_reports_written(tmp_path, capsys) -> None:
    code = _run("--client", "model", "--max-examples", "5", "--seed", "3", "--report-json", str(tmp_path / "r.json"),
                "--junit-xml", str(tmp_path / "r.xml"), "--failures-dir", str(tmp_path / "f"))
    out = capsys.readouterr().out
    assert code == 0, out
    body = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert body["client"] == "model" and body["examples"] >= 1 and body["exit_code"] == 0
    assert (tmp_path / "r.xml").read_text(encoding="utf-8").startswith("<testsuite")


DUPLICATE_ANSWER = ProducerTrace(
    [SendStep("a"), SendStep("b"), FlushStep()],
    FaultPlan([ProduceRule(1, Action.ERROR_AFTER_APPEND, 0, ProduceError.DUPLICATE_SEQUENCE_NUMBER)]),
    name="46 for a written two-record batch",
).with_config(linger_ms="200")


def test_a_client_violation_fails_the_check_and_is_saved_for_replay(tmp_path) -> None:
    report = check_producer("confluent-kafka", Options(max_examples=1, failures_dir=tmp_path), traces=st.just(DUPLICATE_ANSWER))
    assert report.exit_code == 1 and report.counterexample is not None
    assert report.counterexample.status is RunStatus.CLIENT
    saved = report.counterexample.saved_to
    assert saved is not None and saved.endswith(".json")
    assert 'type="wrong-offset"' in to_junit_xml(report)
    replayed = replay_producer(saved)
    assert replayed.label == "FAILED" and replayed.exit_code == 1
    assert replay_producer(saved, client="kafka-python").label == "FIXED"


def test_a_setting_the_client_cannot_express_is_refused(tmp_path) -> None:
    trace = ProducerTrace([SendStep("a")], name="no retries").with_config(retries="0")
    result = run_and_judge(trace, "aiokafka", broker="test-broker", kafka_version="4.3.0")
    assert result.status is RunStatus.REFUSED and "retries=0" in result.error
    path = save_run(result, tmp_path, kafka_version="4.3.0")
    assert replay_producer(path).exit_code == 2


@pytest.mark.parametrize("argv", [["--client", "model", "--max-examples", "-1"]])
def test_bad_numbers_are_rejected_by_the_parser(argv: list[str]) -> None:
    assert _run(*argv) == 2


def test_matrix_runs_the_named_rows_and_judges_a_cfg_row(tmp_path, capsys) -> None:
    assert main(["check", "matrix", "--client", "kafka-python", "--row", "1", "--row", "22",
                 "--report-json", str(tmp_path / "m.json"), "--failures-dir", str(tmp_path / "f")]) == 0
    out = capsys.readouterr().out
    assert "kafka-python@test-broker" in out
    body = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    cells = {row["row"].split()[0]: row["results"][0]["status"] for row in body["rows"]}
    # Row 1: the lost response is deduplicated; row 22: kafka-python refuses explicit idempotence with acks=1, as Java does.
    assert cells == {"#1": "holds", "#22": "holds"}


def test_matrix_with_an_unknown_row_is_a_usage_error(capsys) -> None:
    assert main(["check", "matrix", "--client", "kafka-python", "--row", "99"]) == 2
    assert "no trace table row" in capsys.readouterr().err
