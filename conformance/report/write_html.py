"""``index.html``: the report as one page people open from disk or from a CI artifact.

One self-contained file: inline CSS and a little inline script, nothing fetched.
The matrix is a real ``<table>`` per suite with ``<th scope>`` headers; every
cell says its status in a word and an icon, so colour is never the only signal;
a divergence opens with ``<details>``, which needs no script; the script only
adds conveniences (open all, only rows with divergences, a toggle that says
whether it is on) and opens every case before printing; the print stylesheet
opens them without it and fits the table to the paper.  Everything taken from
the data is escaped.
"""

from __future__ import annotations

import difflib
import re
from html import escape

from kafka_conformance.authorizer.targets import short_label
from kafka_conformance.report.baseline import Comparison, Found
from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Finding, Report, Row, SuiteRun
from kafka_conformance.terminal.verdict import seed_text

__all__ = ["ICONS", "SCREEN_ROWS", "to_html"]

ICONS = {
    CellStatus.HOLDS: "✓",
    CellStatus.DIVERGES: "✗",
    CellStatus.COULD_NOT_RUN: "⚠",
    CellStatus.NOT_APPLICABLE: "–",
    CellStatus.NOT_RUN: "○",
}
WORDS = {
    CellStatus.HOLDS: "holds",
    CellStatus.DIVERGES: "diverges",
    CellStatus.COULD_NOT_RUN: "could not run",
    CellStatus.NOT_APPLICABLE: "not applicable",
    CellStatus.NOT_RUN: "not run",
}
SUITE_TITLES = {
    "authorizer": "ACL authorizers: Kafka's authorization properties",
    "producer": "Idempotent producers: delivery guarantees under failure traces",
    "broker": "Brokers: the produce path's duplicate, sequence and epoch checks",
    "transactions": "Transactions: the coordinator's answers and what read_committed reads",
    "transaction-clients": "Transactional clients: what read_committed reads when a real client's request arrives late",
}

_CSS = """
:root { --holds: #e3f4e1; --diverges: #fbe0de; --could-not-run: #fdf1d6; --not-applicable: #eeeeee; --not-run: #f4f4f8; --ink: #1d1d1f; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
.verdict { font-weight: 600; }
.meta, .legend { color: #444; margin: .25rem 0; }
.legend span { margin-right: 1.2rem; white-space: nowrap; }
table { border-collapse: collapse; margin: .75rem 0 1.5rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid #bbb; padding: .35rem .5rem; vertical-align: top; text-align: left; }
thead th { background: #f5f5f7; position: sticky; top: 0; }
thead th code { overflow-wrap: anywhere; }
th[scope=row] { font-weight: normal; max-width: 28rem; }
th[scope=row] code { font-weight: 600; }
td { min-width: 7rem; max-width: 16rem; overflow-wrap: anywhere; }
td.holds { background: var(--holds); }
td.diverges { background: var(--diverges); }
td.could-not-run { background: var(--could-not-run); }
td.not-applicable { background: var(--not-applicable); }
td.not-run { background: var(--not-run); }
.findings article { border: 1px solid #bbb; border-left: 6px solid #c0392b; padding: .5rem .75rem; margin: .75rem 0; max-width: 60rem; }
.findings article.demonstration { border-left-color: #777; }
.findings h3 { font-size: 1.05rem; margin: 0 0 .25rem; }
mark { background: #ffe08a; color: inherit; }
.collapsed { color: #444; }
.icon { font-weight: 700; margin-right: .25rem; }
.cases { color: #444; font-size: .85em; }
.badge { border: 1px solid currentColor; border-radius: .3rem; padding: 0 .25rem; font-size: .8em; margin-left: .25rem; }
details { margin: .2rem 0; }
summary { cursor: pointer; }
pre { white-space: pre-wrap; background: #fff; border: 1px solid #ccc; padding: .4rem; margin: .3rem 0; font-size: .85em; }
dl { margin: .3rem 0; } dt { font-weight: 600; } dd { margin: 0 0 .3rem 1rem; }
.controls button { margin-right: .5rem; }
.hidden-row { display: none; }
summary:focus-visible, button:focus-visible { outline: 2px solid #1d4ed8; outline-offset: 2px; }
@media print {
  body { margin: 0; font-size: 10pt; }
  .controls { display: none; }
  table { width: 100%; table-layout: fixed; }
  thead { display: table-header-group; }
  thead th { position: static; }
  td, th { background: none !important; min-width: 0; max-width: none; overflow-wrap: anywhere; }
  code, pre { overflow-wrap: anywhere; word-break: break-word; }
  tr, details { break-inside: avoid; }
  details > summary { list-style: none; }
  details::details-content { content-visibility: visible; display: block; }
  a { color: inherit; text-decoration: none; }
}
"""

_JS = """
(function () {
  var bar = document.getElementById('controls');
  function add(label, action) {
    var b = document.createElement('button'); b.type = 'button'; b.textContent = label;
    b.addEventListener('click', action); bar.appendChild(b); return b;
  }
  function all(open) { document.querySelectorAll('details').forEach(function (d) { d.open = open; }); }
  add('Open every case', function () { all(true); });
  add('Close every case', function () { all(false); });
  var only = add('Only rows with a divergence', function () {
    var on = only.getAttribute('aria-pressed') !== 'true';
    only.setAttribute('aria-pressed', on ? 'true' : 'false');
    document.querySelectorAll('tbody tr').forEach(function (tr) {
      tr.classList.toggle('hidden-row', on && !tr.querySelector('td.diverges'));
    });
  });
  only.setAttribute('aria-pressed', 'false');
  window.addEventListener('beforeprint', function () { all(true); });
})();
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _status(status: CellStatus) -> str:
    return f'<span class="icon" aria-hidden="true">{ICONS[status]}</span><span class="word">{WORDS[status]}</span>'


def _cases(n: int) -> str:
    return f' <span class="cases">({n} case{"s" if n != 1 else ""})</span>' if n else ""


def _marked(text: str, other: str) -> str:
    """``text`` escaped, its words that ``other`` does not have at that place in ``<mark>``: what
    differs between the expected and the actual answer, at a glance."""
    mine, theirs = text.split(" "), other.split(" ")
    out = []
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=mine, b=theirs, autojunk=False).get_opcodes():
        words = _e(" ".join(mine[i1:i2]))
        out.append(words if tag == "equal" or not words else f"<mark>{words}</mark>")
    return " ".join(w for w in out if w)


_NAMES = re.compile(r"'[^']*'|(?<=ALLOW )\S+|(?<=DENY )\S+|(?<=\()\S+(?= from )")
"""What a case line names: resource names (quoted), an ACL's principal, the caller's principal."""


def _look_alike(a: str, b: str) -> bool:
    """Two names Kafka tells apart that a reader may not: equal but for case or outer spaces, or one
    a prefix of the other but for case ('q' and 'QA', where a PREFIXED 'q' does not cover 'QA')."""
    if a == b:
        return False
    if a.casefold() == b.casefold() or a.strip() == b.strip():
        return True
    short, long = sorted((a.strip("'"), b.strip("'")), key=len)
    return long.casefold().startswith(short.casefold()) and not long.startswith(short)


def _case_marked(lines: tuple[str, ...]) -> str:
    """The case, escaped, with the look-alikes in ``<mark>`` (:func:`_look_alike`): a name or
    principal of an ACL beside the question's, where a finding so often turns on the difference."""
    asked = {m.group() for line in lines if line.lstrip().startswith("question") for m in _NAMES.finditer(line)}
    held = {m.group() for line in lines if not line.lstrip().startswith("question") for m in _NAMES.finditer(line)}
    near = {a for a in asked for h in held if _look_alike(a, h)} | {h for h in held for a in asked if _look_alike(a, h)}
    out = []
    for line in lines:
        at, parts = 0, []
        for m in _NAMES.finditer(line):
            if m.group() in near:
                parts += [_e(line[at:m.start()]), f"<mark>{_e(m.group())}</mark>"]
                at = m.end()
        out.append("".join(parts) + _e(line[at:]))
    return "\n".join(out)


def _finding(f: Finding, n: int) -> str:
    d = f.divergence
    kind = " demonstration" if f.demonstration else ""
    where = ", ".join(f.rows)
    parts = [f'<article class="finding{kind}" id="finding-{n}">',
             f"<h3>{n}. {'likely ' if d.signature else ''}<code>{_e(d.anomaly)}</code> in <code>{_e(short(f.target))}</code>"
             f" (Kafka {_e(f.release)})</h3>"]
    if f.demonstration:
        parts.append("<p><strong>A demonstration:</strong> a bug planted in a copy of the reference, to show what the kit "
                     "does when it finds one. It is not counted in the verdict or the exit code.</p>")
    if d.summary:
        parts.append(f"<p>{_e(d.summary)}</p>")
    parts.append(f"<p>Shown by: {_e(where)} ({f.suite} suite).</p>")
    parts.append(_evidence(d, triage=True))
    parts.append("</article>")
    return "".join(parts)


def _evidence(d: Divergence, *, triage: bool) -> str:
    """A divergence's case and answers, as the findings (``triage``: the ACLs as kafka-acls
    prints them, what differs marked) and the matrix's cells (the saved case's path) show them."""
    parts = [f"<pre>{_case_marked(d.case) if triage else _e(chr(10).join(d.case))}</pre>"] if d.case else []
    if triage and d.listing:
        parts.append("<details><summary>The ACLs as <code>kafka-acls --list</code> prints them "
                     "(<code>kafka-conformance explain</code> reads this)</summary>"
                     f"<pre>{_e(d.listing)}</pre></details>")
    parts.append("<dl>")
    if d.signature:
        parts.append(f"<dt>observed (what a baseline compares)</dt><dd>{_e(d.signature)}</dd>")
    if triage:
        parts.append(f"<dt>expected (Kafka)</dt><dd>{_marked(d.expected, d.actual)}</dd>")
        parts.append(f"<dt>actual</dt><dd>{_marked(d.actual, d.expected)}</dd>")
    else:
        parts.append(f"<dt>expected</dt><dd>{_e(d.expected)}</dd>")
        parts.append(f"<dt>actual</dt><dd>{_e(d.actual)}</dd>")
    if d.explanation:
        parts.append(f"<dt>why Kafka answers so</dt><dd>{_e(d.explanation)}</dd>")
    if d.releases:
        parts.append(f"<dt>which Kafka releases agree</dt><dd>{_e(d.releases)}</dd>")
    if d.kafka_bug:
        parts.append(f"<dt>Kafka's own bug</dt><dd>{_e(d.kafka_bug)}</dd>")
    if d.saved_to and not triage:
        parts.append(f"<dt>saved case</dt><dd><code>{_e(d.saved_to)}</code></dd>")
    if d.replay:
        parts.append(f"<dt>reproduce</dt><dd><code>{_e(d.replay)}</code></dd>")
    parts.append("</dl>")
    return "".join(parts)


def _findings(report: Report) -> str:
    found = report.findings()
    if not found:
        return ""
    real = sum(not f.demonstration for f in found)
    head = (f"{real} distinct divergence{'s' if real != 1 else ''} to look at, each with its smallest case"
            if real else "No divergence in what was asked for. Below, the demonstration: what a finding looks like")
    return ('<section class="findings" id="findings"><h2>Findings</h2>'
            f"<p>{_e(head)}.</p>"
            + "".join(_finding(f, n) for n, f in enumerate(found, 1)) + "</section>")


def short(target: str) -> str:
    """A column's label (:func:`~kafka_conformance.authorizer.targets.short_label`, cut at 48
    characters); the whole spec stays in the tooltip and in report.json."""
    label = short_label(target)
    return label if len(label) <= 48 else f"{label[:45]}…"


def _divergence(d: Divergence, new: bool) -> str:
    badge = ' <span class="badge">new</span>' if new else ""
    parts = [f"<details><summary><code>{_e(d.anomaly)}</code>{badge}</summary>"]
    if d.summary:
        parts.append(f"<p>{_e(d.summary)}</p>")
    parts.append(_evidence(d, triage=False))
    parts.append("</details>")
    return "".join(parts)


def _cell(column: Column, cell: Cell | None, comparison: Comparison | None) -> str:
    if cell is None:
        return '<td class="not-applicable">' + _status(CellStatus.NOT_APPLICABLE) + " <small>(no such row for this target)</small></td>"
    body = [_status(cell.status) + _cases(cell.cases)]
    body += [_divergence(d, comparison is not None and comparison.is_new(column.id, cell.row, d))
             for d in cell.divergences]
    extra = ([f"<p>{_e(cell.reason)}</p>"] if cell.reason else []) + [f"<p><small>note: {_e(n)}</small></p>" for n in cell.notes]
    if extra:
        label = "why" if cell.reason else "notes"
        body.append(f"<details><summary>{label}</summary>{''.join(extra)}</details>")
    return f'<td class="{cell.status.value}">{"".join(body)}</td>'


SCREEN_ROWS = 12
"""A suite table of more rows than this (about a laptop screen) keeps in view only the rows that
need a look; the rows that hold in every column fold into one line below it (the smoke page's
producer table was 30 rows of ticks, more than half the page)."""


def _settled(cells: list[Cell | None]) -> bool:
    """Every column that ran the row holds it: nothing there to act on."""
    return all(c is None or c.status in (CellStatus.HOLDS, CellStatus.NOT_APPLICABLE, CellStatus.NOT_RUN)
               for c in cells)


def _table(run: SuiteRun, rows: list[tuple[Row, list[Cell | None]]], caption: str,
           comparison: Comparison | None) -> str:
    out = [f"<table><caption>{_e(caption)}</caption>", '<thead><tr><th scope="col">Kafka\'s promise</th>']
    for col in run.columns:
        tip = _e(f"{col.target}: {col.description}" if col.description else col.target)
        demo = "<br><small>(demonstration)</small>" if col.demonstration else ""
        out.append(f'<th scope="col" title="{tip}"><code>{_e(short(col.target))}</code><br>Kafka {_e(col.release)}{demo}</th>')
    out.append("</tr></thead><tbody>")
    for row, cells in rows:
        out.append(f'<tr id="{_e(run.suite)}-{_e(row.id)}"><th scope="row"><code>{_e(row.id)}</code><br>{_e(row.title)}</th>')
        out += [_cell(col, cell, comparison) for col, cell in zip(run.columns, cells, strict=True)]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _suite(run: SuiteRun, comparison: Comparison | None) -> str:
    title = SUITE_TITLES.get(run.suite, run.suite)
    out = [f'<section id="suite-{_e(run.suite)}"><h2>{_e(title)}</h2>']
    if not run.columns:
        out.append('<p class="collapsed">No target of this suite ran.</p></section>')
        return "".join(out)
    caption = f"{run.suite} suite: rows are Kafka's promises, columns the targets at their release"
    shown, quiet = [], []  # quiet: rows no column ran: one line below the table, not a screen of grey cells
    for row in run.rows:
        cells = [col.cell(row.id) for col in run.columns]
        if all(c is None or c.status in (CellStatus.NOT_RUN, CellStatus.NOT_APPLICABLE) for c in cells):
            quiet.append((row, next((c.reason for c in cells if c is not None and c.reason), "")))
        else:
            shown.append((row, cells))
    fold = len(shown) > SCREEN_ROWS
    settled = [(row, cells) for row, cells in shown if fold and _settled(cells)]
    look = [(row, cells) for row, cells in shown if not (fold and _settled(cells))]
    if look:
        out.append(_table(run, look, caption, comparison))
    if settled:
        targets = ", ".join(f"{short(c.target)} (Kafka {c.release})" for c in run.columns)
        more = "more " if look else ""
        out.append(f'<details class="settled"><summary>{len(settled)} {more}promises hold in every column: {_e(targets)}'
                   f"</summary>{_table(run, settled, caption + ' (the promises that hold everywhere)', comparison)}</details>")
    if quiet:
        reasons = list(dict.fromkeys(reason for _, reason in quiet if reason))
        items = "".join(f"<li><code>{_e(row.id)}</code> {_e(row.title)}</li>" for row, _ in quiet)
        out.append(f'<details class="collapsed"><summary>{len(quiet)} more promise{"s" if len(quiet) != 1 else ""} no '
                   f"target ran here ({_e('; '.join(reasons)) or 'not applicable'})</summary><ul>{items}</ul></details>")
    problems = [c for c in run.columns if c.problem]
    if problems:
        out.append("<ul>" + "".join(f"<li><code>{_e(c.target)}</code> could not run: {_e(c.problem)}</li>" for c in problems)
                   + "</ul>")
    out.append("</section>")
    return "".join(out)


def _comparison(comparison: Comparison) -> str:
    def block(title: str, found: tuple[Found, ...]) -> str:
        if not found:
            return f"<p>{_e(title)}: none.</p>"
        items = "".join(f"<li>{_e(f.describe())}</li>" for f in found)
        return f"<p>{_e(title)}:</p><ul>{items}</ul>"

    return ('<section id="baseline"><h2>Against the baseline</h2>'
            f"<p>Compared with <code>{_e(comparison.baseline)}</code>.</p>"
            + block("New divergences", comparison.new) + block("Fixed", comparison.fixed)
            + block("Run now, could not run before", comparison.now_run)
            + block("Could not run now, ran before", comparison.no_longer_run) + "</section>")


def to_html(report: Report, comparison: Comparison | None = None) -> str:
    legend = "".join(f"<span>{_status(s)}</span>" for s in CellStatus)
    meta = (f"profile {_e(report.profile)}, {_e(seed_text(report.seed))}, "
            f"kafka-conformance {_e(report.kit_version)}, generated {_e(report.generated_at)}")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>kafka-conformance report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<header><h1>kafka-conformance report</h1>",
        f'<p class="verdict">{_e(report.verdict_line())}</p>',
    ]
    if comparison is not None:
        parts.append(f'<p class="verdict">{_e(comparison.verdict_line())}</p>')
    parts += [
        f'<p class="meta">{meta}</p>',
        f'<p class="legend">{legend}</p>',
        '<div class="controls" id="controls" role="group" aria-label="page controls"></div></header><main>',
    ]
    if comparison is not None:
        parts.append(_comparison(comparison))
    parts.append(_findings(report))
    parts += [_suite(run, comparison) for run in report.suites]
    if report.not_run:
        items = "".join(f"<li>{_e(n.suite)}: <code>{_e(n.target)}</code>: {_e(n.reason)}</li>" for n in report.not_run)
        parts.append(f'<section id="not-run"><h2>Left out by default</h2><ul>{items}</ul></section>')
    parts.append(f"</main><script>{_JS}</script></body></html>")
    return "\n".join(parts) + "\n"
