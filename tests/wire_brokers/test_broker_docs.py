"""docs/broker-conformance.md stays true: its anomaly table is the catalogue, its probe table lists every probe."""

from __future__ import annotations

import re
from pathlib import Path

from kafka_conformance.broker.compare import BROKER_ANOMALIES, SPLITTING_ANOMALIES
from kafka_conformance.broker.probes import PROBES

DOC = Path(__file__).resolve().parents[2] / "docs" / "broker-conformance.md"


def _rows(section: str) -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8").split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines() if line.startswith("| ")][1:]


def test_anomaly_table_is_the_catalogue() -> None:
    rows = {re.sub(r"`", "", r[0]): r[1] for r in _rows("Anomalies")}
    assert set(rows) == set(BROKER_ANOMALIES)
    for name, effect in rows.items():
        if name != "log-mismatch":
            assert (effect == "splits") == (name in SPLITTING_ANOMALIES), name


def test_conformance_table_lists_every_probe_in_order() -> None:
    rows = _rows("Conformance tables")
    assert [r[0] for r in rows] == [p.name for p in PROBES]
