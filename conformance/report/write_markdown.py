"""``summary.md``: the report as a pull-request comment.

Short on purpose: the verdict, the comparison with the baseline, one compact
matrix per suite (icon and word in every cell), and each divergence with the
command that reproduces it; the whole evidence is in ``index.html``.  Data is
HTML-escaped (code hosts render HTML inside Markdown) and table pipes are
escaped, so a target's name cannot break the table.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from kafka_conformance.report.baseline import Comparison
from kafka_conformance.report.model import CellStatus, Report, SuiteRun
from kafka_conformance.report.write_html import ICONS, WORDS

__all__ = ["MAX_LISTED", "matrix_table", "to_markdown"]

MAX_LISTED = 30
"""Divergences listed one by one; the rest are counted (a comment has a size limit)."""


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


def to_markdown(report: Report, comparison: Comparison | None = None) -> str:
    out = ["## kafka-conformance report", "", f"**{_md(report.verdict_line())}**", ""]
    if comparison is not None:
        out += [f"**{_md(comparison.verdict_line())}**", ""]
        for title, found in (("New divergences", comparison.new), ("Fixed", comparison.fixed)):
            if found:
                out.append(f"{title}:")
                out += [f"- {_md(f.describe())}" for f in found[:MAX_LISTED]]
                out.append("")
    for run in report.suites:
        if not run.columns:
            continue
        out.append(f"### {run.suite}")
        out.append("")
        out += matrix_table(run, promise="Kafka's promise", name=_code, text=_md, anomaly=_md)
        out.append("")
    listed = [(col, cell, d) for col, cell in report.cells() for d in cell.divergences]
    if listed:
        out += ["### Divergences", ""]
        for col, cell, d in listed[:MAX_LISTED]:
            line = f"- {_code(col.id)} / {_code(cell.row)}: **{_md(d.anomaly)}**: expected {_md(d.expected)}, got {_md(d.actual)}"
            if d.replay:
                line += f"; reproduce with {_code(d.replay)}"
            out.append(line)
        if len(listed) > MAX_LISTED:
            out.append(f"- ... and {len(listed) - MAX_LISTED} more in index.html")
        out.append("")
    missed = report.count(CellStatus.COULD_NOT_RUN)
    if missed or report.not_run:
        out.append(f"{missed} cell(s) could not run; {len(report.not_run)} target(s) left out by default (see index.html).")
        out.append("")
    return "\n".join(out)
