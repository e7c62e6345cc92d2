"""The report on the terminal: the same data as the page, in lines a person reads after a run.

One line per column (a target at its release) with its counts of cells by
status, each distinct finding with the command that reproduces it, what
could not run and why, the targets the defaults left out, and last the
verdict line.  Notes about coverage are under a heading of their own, so a run
that holds never ends with a line that reads like a warning.
"""

from __future__ import annotations

from kafka_conformance.report.baseline import Comparison
from kafka_conformance.report.model import CellStatus, Report
from kafka_conformance.report.write_html import ICONS, WORDS, short

__all__ = ["MAX_LISTED", "to_text"]

MAX_LISTED = 20
"""Divergences listed one by one on the terminal; the rest are in index.html."""


def to_text(report: Report, comparison: Comparison | None = None) -> str:
    out: list[str] = []
    for run in report.suites:
        if not run.columns:
            continue
        out.append(f"{run.suite} ({len(run.rows)} promises)")
        width = max(len(f"{short(c.target)}@{c.release}") for c in run.columns)
        for col in run.columns:
            counts = "  ".join(f"{ICONS[s]} {n} {WORDS[s]}" for s in CellStatus
                               if (n := sum(cell.status is s for cell in col.cells)))
            demo = "  (demonstration)" if col.demonstration else ""
            out.append(f"  {short(col.target) + '@' + col.release:<{width}}  {counts or 'no cells'}{demo}")
            if col.problem:
                out.append(f"      could not run: {col.problem}")
    found = report.findings()
    if found:
        out += ["", "findings (one per distinct divergence; the page shows each case)"]
        for n, f in enumerate(found[:MAX_LISTED], 1):
            d = f.divergence
            demo = " [a demonstration: a planted bug, not counted]" if f.demonstration else ""
            out.append(f"  {n}. {'likely ' if d.signature else ''}{d.anomaly} in {f.suite}:{short(f.target)} (Kafka {f.release}), shown by "
                       f"{', '.join(f.rows)}: expected {d.expected}, got {d.actual}{demo}")
            if d.signature:
                out.append(f"      observed: {d.signature}")
            if d.releases:
                out.append(f"      {d.releases}")
            if d.kafka_bug:
                out.append(f"      {d.kafka_bug}")
            if d.replay:
                out.append(f"      {d.replay}")
        if len(found) > MAX_LISTED:
            out.append(f"  ... and {len(found) - MAX_LISTED} more in index.html")
    unrun = [(col, cell) for col, cell in report.cells() if cell.status is CellStatus.COULD_NOT_RUN and not col.problem]
    if unrun:
        out += ["", "could not run"]
        out += [f"  {col.id} / {cell.row}: {cell.reason}" for col, cell in unrun[:MAX_LISTED]]
    if report.not_run:
        out += ["", "not run by default here"]
        out += [f"  {gone.suite} {gone.target}: {gone.reason}" for gone in report.not_run]
    if comparison is not None:
        out += ["", comparison.verdict_line()]
    return "\n".join(out)
