"""The trace-table results docs/producer-conformance.md records, and a run's result in the same words: what
the tests holding a client's runs to the docs (tests/wire_go, tests/wire_node) compare."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "producer-conformance.md"


def recorded(heading: str) -> dict[str, dict[str, str]]:
    """column -> row number -> outcome, from the table under ``## {heading}`` (``every other row`` as ``*``)."""
    section = DOC.read_text(encoding="utf-8").split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    columns = rows[0][1:]
    out: dict[str, dict[str, str]] = {c: {} for c in columns}
    for row in rows[1:]:
        key = "*" if row[0] == "every other row" else row[0]
        for column, cell in zip(columns, row[1:], strict=True):
            out[column][key] = cell
    return out


def outcome(result: object) -> str:
    """A run's result as the tables write it: holds, outside, n/a, or the failures' anomaly names."""
    from kafka_conformance.producer.report import RunStatus

    status = result.status  # type: ignore[attr-defined]
    if status is RunStatus.HOLDS:
        return "holds"
    if status is RunStatus.OUTSIDE:
        return "outside"
    if status is RunStatus.REFUSED:
        return "n/a"
    if status is RunStatus.CLIENT:
        return ",".join(sorted({a.name for a in result.anomalies if a.attribution.is_failure}))  # type: ignore[attr-defined]
    return f"{status.value}: {result.error}"  # type: ignore[attr-defined]
