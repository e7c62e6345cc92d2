"""The top-level CLI (kafka_conformance.cli.main.main) routes every suite and replays every case kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.cli.main import main

FINDINGS = Path(__file__).resolve().parent / "findings"


def test_check_producer_on_the_model_conforms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "producer", "--client", "model", "--max-examples", "5", "--seed", "1"]) == 0
    assert "verdict: conforms" in capsys.readouterr().out


def test_replay_routes_a_saved_producer_trace_and_it_still_fails(capsys: pytest.CaptureFixture[str]) -> None:
    (case,) = FINDINGS.glob("producer-kafka-python-failed-write-present-*.json")
    assert main(["replay", str(case)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAILED") and "failed-write-present" in out


def test_check_broker_finds_a_version_divergence_and_replay_routes_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The test broker of 4.3.0 held to 2.4.0's rules: 2.4.0 answered UNKNOWN_PRODUCER_ID where 4.3.0 appends."""
    failures = tmp_path / "failures"
    code = main(["check", "broker", "--target", "test-broker", "--kafka-version", "2.4.0", "--max-examples", "30", "--seed", "1",
                 "--failures-dir", str(failures)])
    out = capsys.readouterr().out
    assert code == 1 and "unknown-producer-accepted" in out
    saved = sorted(failures.glob("broker-*.json"))
    assert saved
    assert main(["replay", str(saved[0])]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_targets_lists_clients_and_brokers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets"]) == 0
    out = capsys.readouterr().out
    for name in ("kafka-python", "aiokafka", "confluent-kafka", "java", "model", "tansu", "noida", "rdkafka-mock", "test-broker"):
        assert f"  {name}" in out, name


def test_an_unknown_client_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "producer", "--client", "kafka-rust"]) == 2
    assert "unknown target 'kafka-rust'; check producer --client takes" in capsys.readouterr().err
