"""The report's broker suite on the kit's Python test broker: a column that holds against its own
release, and one that diverges when held to another, each divergence saved (probes included)
and reproduced by the replay command the report prints."""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path

import pytest

from kafka_conformance.cli.main import main
from kafka_conformance.report.columns.broker import GENERATED, broker_rows
from kafka_conformance.report.model import CellStatus
from kafka_conformance.report.run import run_report

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("kafka_conformance.adapters.brokers.testbroker") is None or importlib.util.find_spec("kafka") is None,
    reason="the Python test broker or kafka-python is not installed",
)


def test_the_test_broker_holds_against_its_own_release(tmp_path: Path) -> None:
    report = run_report(suites=["broker"], targets=["test-broker:4.3.0"], kafka_version="4.3.0", profile="smoke", seed=11,
                        failures_dir=tmp_path)
    (column,) = report.columns()
    assert [c.row for c in column.cells] == [r.id for r in broker_rows()]
    assert all(c.status is CellStatus.HOLDS for c in column.cells), [c for c in column.cells if c.status is not CellStatus.HOLDS]
    generated = column.cell(GENERATED)
    assert generated is not None and generated.cases > 0


def test_held_to_another_release_it_diverges_and_every_case_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    code = main(["report", "--quiet", "--out", str(out), "--suite", "broker", "--target", "test-broker:4.3.0",
                 "--kafka-version", "2.4.0", "--profile", "smoke", "--seed", "11"])
    assert code == 1, capsys.readouterr()
    from kafka_conformance.report.read_json import load_report

    report = load_report(out / "report.json")
    found = [(cell.row, d) for _, cell in report.cells() for d in cell.divergences]
    assert any(row.startswith("probe-") for row, _ in found), "a diverging probe"
    capsys.readouterr()
    for _, d in found:
        assert d.saved_to is not None and Path(d.saved_to).is_relative_to(out / "cases") and d.replay is not None
        argv = shlex.split(d.replay)
        assert argv[:2] == ["kafka-conformance", "replay"]
        assert main(argv[1:]) == 1
        assert capsys.readouterr().out.startswith("FAILED")
