"""``summary.md``: the report as a pull-request comment.

Short on purpose (a few kilobytes): the verdict, the comparison with the baseline,
one line per target, and each distinct finding with its smallest case and the
command that reproduces it; the whole evidence is in ``index.html``.  Data is
HTML-escaped (code hosts render HTML inside Markdown) and table pipes are
escaped, so a target's name cannot break the table.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from html import escape
from pathlib import Path

from kafka_conformance.report.baseline import Comparison
from kafka_conformance.report.model import CellStatus, Report, SuiteRun
from kafka_conformance.report.write_html import ICONS, WORDS, short

__all__ = ["MAX_LISTED", "matrix_table", "to_markdown"]

MAX_LISTED = 30
"""Baseline entries listed one by one; the rest are counted (a comment has a size limit)."""
MAX_FINDINGS = 5
MAX_CASE_LINES = 12


def _md(text: object) -> str:
    return escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def _code(text: object) -> str:
    return f"<code>{_md(text)}</code>"


def matrix_table(run: SuiteRun, *, promise: str, name: Callable[[str], str], text: Callable[[str], str],
                 anomaly: Callable[[str], str]) -> list[str]:
    """One suite's matrix as a Markdown table: a row per promise, a column per target, the icon
    and word of each cell and the anomalies it diverged by.  ``name`` renders targets and row
    ids, ``text`` other text, ``anomaly`` each anomaly name (the summary escapes; the findings
    block of the docs, :mod:`~kafka_conformance.report.docs_block`, quotes as code)."""
    out = [f"| {promise} | " + " | ".join(f"{name(c.target)} {text(c.release)}" for c in run.columns) + " |",
           "|---|" + "---|" * len(run.columns)]
    for row in run.rows:
        cells = []
        for col in run.columns:
            cell = col.cell(row.id)
            if cell is None:
                cells.append("")
                continue
            names = ", ".join(anomaly(a) for a in dict.fromkeys(d.anomaly for d in cell.divergences))
            cells.append(f"{ICONS[cell.status]} {WORDS[cell.status]}" + (f": {names}" if names else ""))
        out.append(f"| {name(row.id)} | " + " | ".join(cells) + " |")
    return out


def to_markdown(report: Report, comparison: Comparison | None = None, folder: str | Path | None = None) -> str:
    """The comment: the verdict, one line per target, each distinct finding with its smallest case,
    and where the page is.  ``folder`` (the report folder) makes the replay commands' paths
    relative to it, so the comment holds no path of the machine that ran it."""
    out = ["## kafka-conformance report", "", f"**{_md(report.verdict_line())}**", ""]
    if comparison is not None:
        out += [f"**{_md(comparison.verdict_line())}**", ""]
        for title, found in (("New divergences", comparison.new), ("Fixed", comparison.fixed)):
            if found:
                out.append(f"{title}:")
                out += [f"- {_md(f.describe())}" for f in found[:MAX_LISTED]]
                out.append("")
    columns = report.columns()
    if columns:
        out += ["| target | Kafka | holds | diverges | could not run |", "|---|---|---|---|---|"]
        for col in columns:
            count = {s: sum(cell.status is s for cell in col.cells) for s in CellStatus}
            demo = " (demonstration)" if col.demonstration else ""
            out.append(f"| {_code(col.suite + ': ' + short(col.target))}{demo} | {_md(col.release)} | "
                       f"{count[CellStatus.HOLDS]} | {count[CellStatus.DIVERGES]} | {count[CellStatus.COULD_NOT_RUN]} |")
        out.append("")
    findings = report.findings()
    if findings:
        out += ["### Findings", ""]
        for n, f in enumerate(findings[:MAX_FINDINGS], 1):
            d = f.divergence
            demo = " (a demonstration: a planted bug, not counted)" if f.demonstration else ""
            likely = "likely " if d.signature else ""
            out.append(f"{n}. {likely}**{_md(d.anomaly)}** in {_code(short(f.target))}{demo}, shown by {_md(', '.join(f.rows))}: "
                       f"expected {_md(d.expected)}, got {_md(d.actual)}")
            case = list(d.case[:MAX_CASE_LINES]) + ([f"... {len(d.case) - MAX_CASE_LINES} more lines"]
                                                     if len(d.case) > MAX_CASE_LINES else [])
            if case:
                out += ["", "   ```", *(f"   {line[:160]}" for line in case), "   ```"]
            if d.releases:
                out.append(f"   {_md(d.releases)}")
            if d.kafka_bug:
                out.append(f"   {_md(d.kafka_bug)}")
            if d.replay:
                out.append(f"   reproduce: {_code(_relative(d.replay, folder))}")
            out.append("")
        if len(findings) > MAX_FINDINGS:
            out += [f"... and {len(findings) - MAX_FINDINGS} more findings on the page.", ""]
    missed = report.count(CellStatus.COULD_NOT_RUN)
    if missed:
        out += [f"{missed} cell(s) could not run (see index.html).", ""]
    out.append("The whole evidence: `index.html` in the report folder.")
    return "\n".join(out) + "\n"


def _relative(command: str, folder: str | Path | None) -> str:
    if folder is None:
        return command
    root = str(Path(folder).resolve()) + os.sep
    return command.replace(root, "")
