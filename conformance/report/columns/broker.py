"""A broker suite's :class:`~kafka_conformance.broker.report.BrokerReport` as one column.

Rows are the named probe table (``duplicate-last``, ``stale-epoch``, ...: the
behaviours users ask about, each one crafted sequence) and the generated
crafted sequences, whose distinct anomalies the suite found in rounds.  A
probe that diverged is not saved by the suite itself; the runner saves it in
the suite's own case format (``probe_saves``) so that it replays like a finding.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka_conformance.agreement import Agreement
from kafka_conformance.authorizer.targets import replay_command
from kafka_conformance.broker.compare import BROKER_ANOMALIES, BrokerDivergence
from kafka_conformance.broker.probes import PROBES, ProbeResult
from kafka_conformance.broker.report import BrokerReport
from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Row

__all__ = ["GENERATED", "broker_column", "broker_rows", "probe_row"]

GENERATED = "generated-cases"


def probe_row(name: str) -> str:
    return f"probe-{name}"


def broker_rows() -> tuple[Row, ...]:
    rows = [Row(probe_row(p.name), f"{p.name}: {p.question}") for p in PROBES]
    rows.append(Row(GENERATED, "generated crafted produce sequences answer and log as the reference broker does"))
    return tuple(rows)


def broker_column(report: BrokerReport, *, description: str = "", probe_saves: Mapping[str, str] | None = None) -> Column:
    saves = probe_saves or {}
    cells = [_probe_cell(p, saves.get(p.name)) for p in report.probes]
    cells.append(_generated(report))
    return Column(
        suite="broker",
        target=report.target,
        release=report.kafka_version,
        description=description or report.broker,
        seed=report.seed,
        duration_s=report.duration_s,
        cells=tuple(cells),
    )


def _probe_cell(probe: ProbeResult, saved_to: str | None) -> Cell:
    row = probe_row(probe.name)
    if probe.status == "conforms":
        return Cell(row, CellStatus.HOLDS, 1)
    if probe.status == "error":
        return Cell(row, CellStatus.COULD_NOT_RUN, 1, reason=f"the broker could not answer: {probe.error}")
    if probe.status == "skipped":
        return Cell(row, CellStatus.NOT_APPLICABLE, 0, reason=probe.error)
    case = next((p.case for p in PROBES if p.name == probe.name), None)
    lines = tuple(case.describe().splitlines()) if case is not None else ()
    return Cell(row, CellStatus.DIVERGES, 1,
                divergences=tuple(_divergences(probe.divergences, lines, saved_to, probe.agreement)))


def _generated(report: BrokerReport) -> Cell:
    errors = tuple(report.errors)
    if report.findings:
        found = []
        for f in report.findings:
            found += _divergences((f.divergence,), tuple(f.case.describe().splitlines()), f.saved_to, f.agreement)
        return Cell(GENERATED, CellStatus.DIVERGES, report.examples, divergences=tuple(found), notes=errors)
    if errors:
        return Cell(GENERATED, CellStatus.COULD_NOT_RUN, report.examples, reason=errors[0], notes=errors[1:])
    if report.examples == 0:
        return Cell(GENERATED, CellStatus.NOT_RUN, 0, reason="no generated cases were asked for (probe table only; "
                                                             "--max-examples N asks for them)")
    return Cell(GENERATED, CellStatus.HOLDS, report.examples)


def _divergences(found: tuple[BrokerDivergence, ...], case: tuple[str, ...], saved_to: str | None,
                 agreement: Agreement | None) -> list[Divergence]:
    """One per anomaly; the releases that agree are said of the first (the case was replayed up to it)."""
    out: dict[str, Divergence] = {}
    for d in found:
        if d.anomaly in out:
            continue
        where = "the final read of the log" if d.step < 0 else f"step {d.step}"
        out[d.anomaly] = Divergence(
            anomaly=d.anomaly,
            summary=BROKER_ANOMALIES.get(d.anomaly, ""),
            case=(*case, f"at {where}: {d.request}"),
            expected=d.expected,
            actual=d.actual,
            explanation=d.rule,
            saved_to=saved_to,
            replay=replay_command(saved_to),
            releases=agreement.describe() if agreement is not None and d is found[0] else "",
        )
    return list(out.values())
