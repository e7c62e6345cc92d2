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

from html import escape

from kafka_conformance.report.baseline import Comparison, Found
from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Report, SuiteRun
from kafka_conformance.terminal.verdict import seed_text

__all__ = ["ICONS", "to_html"]

ICONS = {
    CellStatus.HOLDS: "✓",
    CellStatus.DIVERGES: "✗",
    CellStatus.COULD_NOT_RUN: "⚠",
    CellStatus.NOT_APPLICABLE: "–",
}
WORDS = {
    CellStatus.HOLDS: "holds",
    CellStatus.DIVERGES: "diverges",
    CellStatus.COULD_NOT_RUN: "could not run",
    CellStatus.NOT_APPLICABLE: "not applicable",
}
SUITE_TITLES = {
    "authorizer": "ACL authorizers: Kafka's authorization properties",
    "producer": "Idempotent producers: delivery guarantees under failure traces",
    "broker": "Brokers: the produce path's duplicate, sequence and epoch checks",
}

_CSS = """
:root { --holds: #e3f4e1; --diverges: #fbe0de; --could-not-run: #fdf1d6; --not-applicable: #eeeeee; --ink: #1d1d1f; }
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
td { min-width: 9rem; }
td.holds { background: var(--holds); }
td.diverges { background: var(--diverges); }
td.could-not-run { background: var(--could-not-run); }
td.not-applicable { background: var(--not-applicable); }
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


def _divergence(d: Divergence, new: bool) -> str:
    badge = ' <span class="badge">new</span>' if new else ""
    parts = [f"<details><summary><code>{_e(d.anomaly)}</code>{badge}</summary>"]
    if d.summary:
        parts.append(f"<p>{_e(d.summary)}</p>")
    if d.case:
        parts.append(f"<pre>{_e(chr(10).join(d.case))}</pre>")
    parts.append("<dl>")
    parts.append(f"<dt>expected</dt><dd>{_e(d.expected)}</dd>")
    parts.append(f"<dt>actual</dt><dd>{_e(d.actual)}</dd>")
    if d.explanation:
        parts.append(f"<dt>why Kafka answers so</dt><dd>{_e(d.explanation)}</dd>")
    if d.saved_to:
        parts.append(f"<dt>saved case</dt><dd><code>{_e(d.saved_to)}</code></dd>")
    if d.replay:
        parts.append(f"<dt>reproduce</dt><dd><code>{_e(d.replay)}</code></dd>")
    parts.append("</dl></details>")
    return "".join(parts)


def _cell(column: Column, cell: Cell | None, new: set[Found]) -> str:
    if cell is None:
        return '<td class="not-applicable">' + _status(CellStatus.NOT_APPLICABLE) + " <small>(no such row for this target)</small></td>"
    body = [_status(cell.status) + _cases(cell.cases)]
    body += [_divergence(d, Found(column.id, cell.row, d.anomaly) in new) for d in cell.divergences]
    extra = ([f"<p>{_e(cell.reason)}</p>"] if cell.reason else []) + [f"<p><small>note: {_e(n)}</small></p>" for n in cell.notes]
    if extra:
        label = "why" if cell.reason else "notes"
        body.append(f"<details><summary>{label}</summary>{''.join(extra)}</details>")
    return f'<td class="{cell.status.value}">{"".join(body)}</td>'


def _suite(run: SuiteRun, new: set[Found]) -> str:
    title = SUITE_TITLES.get(run.suite, run.suite)
    out = [f'<section id="suite-{_e(run.suite)}"><h2>{_e(title)}</h2>']
    if not run.columns:
        out.append("<p>No target of this suite ran.</p></section>")
        return "".join(out)
    out.append(f"<table><caption>{_e(run.suite)} suite: rows are Kafka's promises, columns the targets at their release</caption>")
    out.append('<thead><tr><th scope="col">Kafka\'s promise</th>')
    for col in run.columns:
        what = f'<br><small>{_e(col.description)}</small>' if col.description else ""
        out.append(f'<th scope="col"><code>{_e(col.target)}</code><br>Kafka {_e(col.release)}{what}</th>')
    out.append("</tr></thead><tbody>")
    for row in run.rows:
        out.append(f'<tr id="{_e(run.suite)}-{_e(row.id)}"><th scope="row"><code>{_e(row.id)}</code><br>{_e(row.title)}</th>')
        out += [_cell(col, col.cell(row.id), new) for col in run.columns]
        out.append("</tr>")
    out.append("</tbody></table>")
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
    new = set(comparison.new) if comparison is not None else set()
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
    parts += [_suite(run, new) for run in report.suites]
    if report.not_run:
        items = "".join(f"<li>{_e(n.suite)}: <code>{_e(n.target)}</code>: {_e(n.reason)}</li>" for n in report.not_run)
        parts.append(f'<section id="not-run"><h2>Left out by default</h2><ul>{items}</ul></section>')
    parts.append(f"</main><script>{_JS}</script></body></html>")
    return "\n".join(parts) + "\n"
