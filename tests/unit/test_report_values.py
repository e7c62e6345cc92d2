"""The report's values: each suite's report becomes a column with the right cell for every
status, the four writers say the same thing (and escape what comes from the data), a report
reads back from report.json as written, and a baseline comparison finds new and fixed
divergences and cells that could not run before."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import attrs
import jsonschema
import pytest

from kafka_conformance.authorizer.anomalies import CATALOGUE
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.report import Counterexample, Divergence, PropertyResult, Status
from kafka_conformance.authorizer.report import Report as AuthorizerReport
from kafka_conformance.broker.compare import BROKER_ANOMALIES, BrokerDivergence
from kafka_conformance.broker.probes import PROBES, ProbeResult
from kafka_conformance.broker.report import BrokerFinding, BrokerReport
from kafka_conformance.options import Options
from kafka_conformance.producer.check import check_producer
from kafka_conformance.producer.report import RunStatus
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Property
from kafka_conformance.report.baseline import Found, compare
from kafka_conformance.report.columns.authorizer import authorizer_column
from kafka_conformance.report.columns.broker import GENERATED, broker_column, broker_rows, probe_row
from kafka_conformance.report.columns.producer import producer_column, producer_rows
from kafka_conformance.report.files import FILES, write_report
from kafka_conformance.report.model import Cell, CellStatus, Column, Report, SuiteRun, Verdict
from kafka_conformance.report.read_json import load_report
from kafka_conformance.report.run import run_report
from kafka_conformance.report.write_html import to_html
from kafka_conformance.report.write_json import to_json
from kafka_conformance.report.write_junit import to_junit_xml
from kafka_conformance.report.write_markdown import to_markdown

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
MUTANTS = ("allow-beats-deny", "host-ignored")
HOSTILE = "<script>alert('x')</script> | pipe"


def _mutant(name: str) -> str:
    return f"python:kafka_conformance.selftest.zoo:factories.{name}"


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, Path]:
    """One real run: the reference and two zoo mutants (authorizer suite), and the model producer."""
    cases = tmp_path_factory.mktemp("report-cases")
    report = run_report(suites=["authorizer", "producer"], targets=["reference", *map(_mutant, MUTANTS)],
                        clients=["model"], profile="smoke", seed=0, failures_dir=cases)
    return report, cases


# ------------------------------------------------------------------ columns from the suites' reports


def test_reference_holds_everywhere_and_each_mutant_diverges_in_its_own_column(real: tuple[Report, Path]) -> None:
    report, cases = real
    columns = {c.target: c for c in report.columns()}
    assert set(columns) == {"reference", "model", *map(_mutant, MUTANTS)}
    for reference in (columns["reference"], columns["model"]):
        assert {c.status for c in reference.cells} <= {CellStatus.HOLDS, CellStatus.NOT_APPLICABLE}, reference
        assert any(c.status is CellStatus.HOLDS and c.cases > 0 for c in reference.cells)
    for name in MUTANTS:
        column = columns[_mutant(name)]
        diverging = [c for c in column.cells if c.status is CellStatus.DIVERGES]
        assert diverging, f"mutant {name}: no divergence in its column"
        for cell in diverging:
            (d,) = cell.divergences
            assert d.anomaly in CATALOGUE and d.summary
            assert d.case and any(line.startswith("question:") for line in d.case)
            assert d.expected != d.actual and d.explanation
            assert d.saved_to is not None and Path(d.saved_to).is_file() and Path(d.saved_to).is_relative_to(cases)
            assert d.replay == f"kafka-conformance replay {d.saved_to} --trust-saved-target"  # it runs code: said
    assert report.verdict is Verdict.DIVERGES and report.exit_code == 1


def _authorizer_report() -> AuthorizerReport:
    divergence = Divergence("deny-not-applied", "authorize(User:a READ TOPIC t)", "DENIED", "ALLOWED", "a DENY ACL applies")
    return AuthorizerReport(
        target=HOSTILE, profile="standard@3.9.0", seed=7,
        results=(
            PropertyResult("authorize", Status.FAILED, 12, Counterexample("authorize", Scenario(), divergence),
                           saved_to="cases/a b.json"),
            PropertyResult("by-type", Status.PASSED, 30),
            PropertyResult("listing", Status.ERROR, 3, Counterexample("listing", Scenario(), adapter_error="it crashed")),
            PropertyResult("not-ready", Status.SKIPPED, reason="the target declares no not-ready state"),
            PropertyResult("super-users", Status.SKIPPED, reason="not run: the target stopped answering in listing"),
        ),
    )


def test_authorizer_column_maps_every_status() -> None:
    column = authorizer_column(_authorizer_report())
    assert (column.suite, column.target, column.release, column.seed) == ("authorizer", HOSTILE, "3.9.0 standard", 7)
    statuses = {c.row: c.status for c in column.cells}
    assert statuses == {"authorize": CellStatus.DIVERGES, "by-type": CellStatus.HOLDS, "listing": CellStatus.COULD_NOT_RUN,
                        "not-ready": CellStatus.NOT_APPLICABLE, "super-users": CellStatus.COULD_NOT_RUN}
    authorize = column.cell("authorize")
    assert authorize is not None and authorize.cases == 12
    (d,) = authorize.divergences
    assert (d.anomaly, d.expected, d.actual, d.explanation) == ("deny-not-applied", "DENIED", "ALLOWED", "a DENY ACL applies")
    assert d.summary.startswith(CATALOGUE["deny-not-applied"].summary)
    assert d.case[-1] == "question: authorize(User:a READ TOPIC t)"
    assert d.replay == "kafka-conformance replay 'cases/a b.json'"  # quoted for a shell
    listing = column.cell("listing")
    assert listing is not None and "it crashed" in listing.reason


def _client_anomaly(name: str, who: Attribution = Attribution.CLIENT) -> Anomaly:
    return Anomaly(name, Property.AT_MOST_ONCE, who, f"{name} explained", values=("v0",))


def test_producer_column_judges_the_client_and_expects_what_kafka_brokers_do() -> None:
    report = check_producer("model", Options(seed=0, max_examples=2), table=True)
    column = producer_column(report)
    assert [c.row for c in column.cells] == [r.id for r in producer_rows() if column.cell(r.id) is not None]
    assert column.target == "model" and column.release == "4.3.0"
    assert all(c.status is CellStatus.HOLDS for c in column.cells), [c for c in column.cells if c.status is not CellStatus.HOLDS]
    row6 = column.cell("table-6")  # KAFKA-15591: the reference broker shows it on purpose
    assert row6 is not None and any("expects of Kafka's own: implied-write-lost" in n for n in row6.notes)
    outside = column.cell("table-17")
    assert outside is not None and any("outside KIP-185's guarantee" in n for n in outside.notes)
    rows = list(report.table)
    rows[0] = attrs.evolve(rows[0], status=RunStatus.CLIENT, anomalies=(_client_anomaly("duplicate"),), saved_to="s.json")
    rows[1] = attrs.evolve(rows[1], status=RunStatus.BROKER, anomalies=(_client_anomaly("duplicate", Attribution.BROKER),))
    rows[2] = attrs.evolve(rows[2], status=RunStatus.REFUSED, anomalies=(), error="the client has no such knob")
    rows[3] = attrs.evolve(rows[3], status=RunStatus.ERROR, anomalies=(), error="RuntimeError: boom")
    changed = producer_column(attrs.evolve(report, table=tuple(rows)))
    first = changed.cells[1]
    assert first.status is CellStatus.DIVERGES
    (d,) = first.divergences
    assert d.anomaly == "duplicate" and d.replay == "kafka-conformance replay s.json" and d.case
    assert changed.cells[2].status is CellStatus.DIVERGES  # a broker anomaly the table does not expect of Kafka
    assert (changed.cells[3].status, changed.cells[3].reason) == (CellStatus.NOT_APPLICABLE, "the client has no such knob")
    assert changed.cells[4].status is CellStatus.COULD_NOT_RUN and "boom" in changed.cells[4].reason
    generated = producer_column(attrs.evolve(report, counterexample=rows[0])).cells[0]
    assert generated.status is CellStatus.DIVERGES and generated.cases == report.examples
    left_out = producer_column(attrs.evolve(report, table=()), table_left_out="not under smoke")
    assert [c.row for c in left_out.cells] == [r.id for r in producer_rows()]
    assert all((c.status, c.reason) == (CellStatus.NOT_RUN, "not under smoke") for c in left_out.cells[1:])


def _broker_report() -> BrokerReport:
    anomaly = next(iter(BROKER_ANOMALIES))
    div = BrokerDivergence(anomaly, 1, "produce p0 epoch 0 seq 0..1", "offset 0", "offset 2", "a duplicate is answered with its offset")
    probes = (ProbeResult(PROBES[0].name, PROBES[0].question, "conforms"),
              ProbeResult(PROBES[1].name, PROBES[1].question, "diverges", (anomaly,), (div,)),
              ProbeResult(PROBES[2].name, PROBES[2].question, "error", error="connection reset"))
    finding = BrokerFinding(anomaly, PROBES[3].case, div, (), 40, saved_to="broker-x.json")
    return BrokerReport("test-broker", "Python test broker", "4.3.0", 1, 40, (finding,), probes)


def test_broker_column_rows_are_the_probe_table_and_the_generated_cases() -> None:
    column = broker_column(_broker_report(), probe_saves={PROBES[1].name: "probe.json"})
    assert {r.id for r in broker_rows()} >= {c.row for c in column.cells}
    statuses = [c.status for c in column.cells]
    assert statuses == [CellStatus.HOLDS, CellStatus.DIVERGES, CellStatus.COULD_NOT_RUN, CellStatus.DIVERGES]
    probe = column.cell(probe_row(PROBES[1].name))
    assert probe is not None and probe.divergences[0].replay == "kafka-conformance replay probe.json"
    assert probe.divergences[0].explanation == "a duplicate is answered with its offset"
    generated = column.cell(GENERATED)
    assert generated is not None and generated.cases == 40 and generated.divergences[0].saved_to == "broker-x.json"


# ------------------------------------------------------------------ writers


def _constructed() -> Report:
    auth = authorizer_column(_authorizer_report())
    broker = broker_column(_broker_report())
    return Report(suites=(SuiteRun("authorizer", (), (auth,)), SuiteRun("broker", broker_rows(), (broker,))), profile="smoke",
                  kit_version="0", generated_at="2026-01-01T00:00:00+00:00")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.details_text: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("meta", "br"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if "details" in self.stack:
            self.details_text.append(data)


def _parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    parser.close()
    assert not parser.stack, parser.stack
    return parser


def test_html_is_one_accessible_self_contained_page(real: tuple[Report, Path]) -> None:
    report, _ = real
    page = _parse(to_html(report))
    tags = [t for t, _ in page.tags]
    assert tags.count("table") == 2 and "caption" in tags
    scopes = [a.get("scope") for t, a in page.tags if t == "th"]
    assert scopes.count("col") == 1 + 3 + 1 + 1  # one header column per table, plus a column per target
    ran = sum(1 for s in report.suites for r in s.rows
              if any((c := col.cell(r.id)) is not None and c.status not in (CellStatus.NOT_RUN, CellStatus.NOT_APPLICABLE)
                     for col in s.columns))
    assert scopes.count("row") == ran  # the rows no target ran are one line below their table
    text = "".join(page.text)
    for status in ("holds", "diverges", "not applicable"):
        assert status in text  # a word, never colour alone
    replays = [d.replay for _, cell in report.cells() for d in cell.divergences]
    assert replays and all(r is not None and r in "".join(page.details_text) for r in replays)
    for tag, attributes in page.tags:  # nothing is fetched: no stylesheet, script or image from anywhere
        assert tag not in ("link", "img", "iframe"), tag
        assert "src" not in attributes and not str(attributes.get("href", "")).startswith(("http", "//"))
    assert "@media print" in to_html(report)


def _css_rules(css: str) -> dict[str, dict[str, str]]:
    """``selector -> {property: value}`` of flat CSS (no nested blocks)."""
    rules: dict[str, dict[str, str]] = {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        declarations = dict(d.split(":", 1) for d in body.split(";") if ":" in d)
        rules.setdefault(selector.strip(), {}).update({k.strip(): v.strip() for k, v in declarations.items()})
    return rules


def test_html_keeps_keyboard_focus_visible_and_prints_the_matrix_whole() -> None:
    html = to_html(_constructed())
    css = html.split("<style>", 1)[1].split("</style>", 1)[0]
    screen, printed = css.split("@media print {", 1)
    assert printed.rstrip().endswith("}")
    on_screen = _css_rules(screen)
    assert "outline" in on_screen["summary:focus-visible, button:focus-visible"]  # a keyboard user sees where they are
    on_paper = _css_rules(printed.rstrip()[:-1])
    assert on_paper[".controls"]["display"] == "none"  # buttons do nothing on paper
    assert on_paper["table"] == {"width": "100%", "table-layout": "fixed"}  # the matrix fits the page's width...
    assert on_paper["td, th"]["min-width"] == "0" and on_paper["td, th"]["overflow-wrap"] == "anywhere"  # ...long names wrap
    assert on_paper["thead"]["display"] == "table-header-group"  # the targets' header repeats on every page
    assert on_paper["td, th"]["background"].startswith("none")  # no fills: the word says the status
    assert on_paper["details::details-content"]["content-visibility"] == "visible"  # every case printed open, script or not
    page = _parse(html)
    (controls,) = [a for t, a in page.tags if a.get("id") == "controls"]
    assert controls["role"] == "group" and controls["aria-label"]
    assert "aria-pressed" in html.split("<script>", 1)[1]  # the row filter says whether it is on


def _long_suite(rows: int, odd: dict[int, Cell]) -> Report:
    """A producer suite of ``rows`` promises, one column, every row holding but those in ``odd``."""
    from kafka_conformance.report.model import Row

    ids = [Row(f"table-{n}", f"promise {n}") for n in range(rows)]
    cells = tuple(odd.get(n, Cell(f"table-{n}", CellStatus.HOLDS, 1)) for n in range(rows))
    return Report(suites=(SuiteRun("producer", tuple(ids), (Column("producer", "model", "4.3.0", cells=cells),)),))


def test_a_long_table_keeps_in_view_the_rows_to_look_at_and_folds_those_that_hold() -> None:
    from kafka_conformance.report.model import Divergence as PageDivergence
    from kafka_conformance.report.write_html import SCREEN_ROWS

    lost = PageDivergence("record-lost", "an acknowledged record is missing", ("produce 1", "crash"), "1 record", "0 records", "acks=all")
    odd = {3: Cell("table-3", CellStatus.DIVERGES, 1, divergences=(lost,)),
           7: Cell("table-7", CellStatus.COULD_NOT_RUN, 0, reason="the broker stopped")}
    html = to_html(_long_suite(SCREEN_ROWS + 2, odd))
    folded = html[html.index('<details class="settled">'):]
    assert html.count('<details class="settled">') == 1
    assert f"<summary>{SCREEN_ROWS} more promises hold in every column: model (Kafka 4.3.0)</summary>" in folded
    for n in range(SCREEN_ROWS + 2):
        row = f'<tr id="producer-table-{n}">'
        assert html.count(row) == 1, n  # each row once, in one of the two tables
        assert (row in folded) is (n not in odd), n
    # Nothing to look at: the whole table folds to one line; a table that fits a screen never folds.
    assert to_html(_long_suite(SCREEN_ROWS + 1, {})).count("<table>") == 1
    assert f"<summary>{SCREEN_ROWS + 1} promises hold in every column" in to_html(_long_suite(SCREEN_ROWS + 1, {}))
    assert '<details class="settled">' not in to_html(_long_suite(SCREEN_ROWS, {}))


def test_writers_escape_what_comes_from_the_data() -> None:
    report = _constructed()
    html = to_html(report)
    assert "<script>alert" not in html and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    _parse(html)
    md = to_markdown(report)
    assert "<script>alert" not in md and "\\| pipe" in md
    root = ET.fromstring(to_junit_xml(report))
    assert root.find("testsuite").get("name", "").startswith(f"authorizer:{HOSTILE}")  # type: ignore[union-attr]


def test_junit_counts_divergences_as_failures_and_the_rest_as_skipped() -> None:
    report = _constructed()
    root = ET.fromstring(to_junit_xml(report))
    failures = root.findall(".//failure")
    assert len(failures) == report.count(CellStatus.DIVERGES) == int(root.get("failures", "-1"))
    assert failures[0].get("type") == "deny-not-applied" and "kafka-conformance replay" in (failures[0].text or "")
    skipped = root.findall(".//skipped")
    assert len(skipped) == report.count(CellStatus.COULD_NOT_RUN) + report.count(CellStatus.NOT_APPLICABLE)


def test_markdown_summary_lists_each_finding_with_its_case_and_replay_command(real: tuple[Report, Path]) -> None:
    """One entry per distinct bug (a target's anomaly, whatever rows showed it), with its
    smallest case and the command that replays it, paths relative to the report folder; a few
    kilobytes, for a pull-request comment."""
    report, folder = real
    md = to_markdown(report, folder=folder)
    assert md.startswith("## kafka-conformance report") and report.verdict_line() in md
    found = report.findings()
    assert found and len(found) < sum(len(cell.divergences) for _, cell in report.cells())  # grouped
    for n, f in enumerate(found[:5], 1):
        likely = "likely " if f.divergence.signature else ""
        assert f"{n}. {likely}**{f.divergence.anomaly}** in <code>" in md and f"shown by {', '.join(f.rows)}" in md
        assert f.divergence.case[0] in md
    assert str(folder) not in md and "not applicable" not in md and len(md.encode()) < 4096


def test_report_json_follows_its_schema_and_reads_back_as_written(real: tuple[Report, Path], tmp_path: Path) -> None:
    report, _ = real
    for value in (report, _constructed()):
        written = write_report(value, tmp_path / "out", compare(value, value, baseline="old.json"))
        assert sorted(p.name for p in written.values()) == sorted(FILES)
        body = json.loads(written["report.json"].read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(SCHEMA).validate(body)
        assert body["baseline"]["file"] == "old.json" and body["exit_code"] == 0  # no new divergence against itself
        assert to_json(load_report(written["report.json"])) == to_json(value)


@pytest.mark.parametrize(("text", "says"), [
    ('{"format": "kafka-conformance/report", "version": 1, "suites": [{"suite": "a", "rows": [], "columns": [{}]}]}',
     "suites[0].columns[0] has no field 'cells'"),
    ('{"format": "kafka-conformance/report", "version": 1, "suites": [{"suite": "a", "rows": [], "columns": '
     '[{"suite": "a", "target": "t", "release": "1", "cells": [{"row": "r", "status": "fine"}]}]}]}', "'fine'"),
    ('{"format": "kafka-conformance/report", "version": 1, "suites": [], "seed": true}', "seed"),
    ('{"format": "kafka-conformance/report", "version": 7, "suites": []}', "version"),
    ('{"format": "kafka-conformance/report", "version": 1, "suites": [', "not valid JSON"),
])
def test_an_unreadable_baseline_names_the_file_and_the_problem(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "old-report.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"old-report\.json") as caught:
        load_report(path)
    assert says in str(caught.value)


# ------------------------------------------------------------------ baseline


def _with_cells(report: Report, column_id: str, change: Any) -> Report:
    suites = []
    for s in report.suites:
        columns = tuple(attrs.evolve(c, cells=tuple(change(cell) for cell in c.cells)) if c.id == column_id else c
                        for c in s.columns)
        suites.append(attrs.evolve(s, columns=columns))
    return attrs.evolve(report, suites=tuple(suites))


def test_baseline_finds_new_and_fixed_divergences_and_cells_that_could_not_run(real: tuple[Report, Path]) -> None:
    report, _ = real
    assert compare(report, report).exit_code == 0 and not compare(report, report).new
    mutant = next(c for c in report.columns() if c.target == _mutant(MUTANTS[0]))
    diverging = next(c for c in mutant.cells if c.status is CellStatus.DIVERGES)
    holding = next(c for c in mutant.cells if c.status is CellStatus.HOLDS)
    invented = attrs.evolve(diverging.divergences[0], anomaly="order-dependent", signature="an invented observation")

    def older(cell: Cell) -> Cell:
        if cell.row == diverging.row:  # the baseline did not have this divergence
            return Cell(cell.row, CellStatus.HOLDS, 3)
        if cell.row == holding.row:  # the baseline had one that is gone now
            return Cell(cell.row, CellStatus.DIVERGES, 3, divergences=(invented,))
        return cell

    ref = next(c for c in report.columns() if c.target == "reference")
    ran = next(c for c in ref.cells if c.status is CellStatus.HOLDS)
    old = _with_cells(_with_cells(report, mutant.id, older), ref.id,
                      lambda cell: Cell(cell.row, CellStatus.COULD_NOT_RUN, reason="x") if cell.row == ran.row else cell)
    diff = compare(old, report, baseline="old/report.json")
    assert diff.new == (Found(mutant.id, diverging.row, diverging.divergences[0].signature),)
    assert diff.fixed == (Found(mutant.id, holding.row, "an invented observation"),)
    assert diff.now_run == (Found(ref.id, ran.row),)
    assert diff.exit_code == 1
    back = compare(report, old)
    assert back.no_longer_run == (Found(ref.id, ran.row),) and back.fixed == diff.new and back.new == diff.fixed
    html = to_html(report, diff)
    assert 'class="badge">new<' in html and "an invented observation" in html
    assert "New divergences:" in to_markdown(report, diff)


def test_a_baseline_compares_what_was_observed_not_the_guessed_cause(real: tuple[Report, Path]) -> None:
    """The same observation under another likely cause is the same divergence; another
    observation under the same likely cause is new."""
    report, _ = real
    mutant = next(c for c in report.columns() if c.target == _mutant(MUTANTS[0]))
    diverging = next(c for c in mutant.cells if c.status is CellStatus.DIVERGES)

    def renamed(**change: str) -> Report:
        return _with_cells(report, mutant.id, lambda cell: attrs.evolve(
            cell, divergences=(attrs.evolve(cell.divergences[0], **change),)) if cell.row == diverging.row else cell)

    assert not compare(renamed(anomaly="order-dependent"), report).new
    other = compare(renamed(signature="another observation"), report)
    assert other.new == (Found(mutant.id, diverging.row, diverging.divergences[0].signature),)
    body = to_json(report, other)  # the comparison's entries, as report.json holds them
    jsonschema.Draft202012Validator(SCHEMA).validate(body)
    assert body["baseline"]["new"][0]["observed"] == diverging.divergences[0].signature


def test_verdicts_and_exit_codes_without_a_baseline() -> None:
    holds = Report(suites=(SuiteRun("authorizer", (), (Column("authorizer", "t", "1", cells=(Cell("r", CellStatus.HOLDS, 1),)),)),))
    assert (holds.verdict, holds.exit_code) == (Verdict.HOLDS, 0)
    missed = _with_cells(holds, "authorizer:t@1", lambda c: attrs.evolve(c, status=CellStatus.COULD_NOT_RUN))
    assert (missed.verdict, missed.exit_code) == (Verdict.INCOMPLETE, 4)  # a CI job must not read it as a pass
    assert "1 could-not-run" in missed.verdict_line()


def test_what_a_default_third_party_column_could_not_run_does_not_make_the_run_incomplete() -> None:
    """Exit 4 is for what the user asked for (or the kit's own defaults); aiokafka failing to start
    against a Tansu the defaults found installed is reported, not a failed CI job."""
    cell = Cell("r", CellStatus.COULD_NOT_RUN, reason="could not start")
    found = Column("producer", "aiokafka@tansu", "4.3.0", cells=(cell,), asked=False)
    ours = Column("producer", "model", "4.3.0", cells=(Cell("r", CellStatus.HOLDS, 1),))
    report = Report(suites=(SuiteRun("producer", (), (ours, found)),))
    assert (report.verdict, report.exit_code) == (Verdict.HOLDS, 0)
    asked = Report(suites=(SuiteRun("producer", (), (ours, attrs.evolve(found, asked=True))),))
    assert (asked.verdict, asked.exit_code) == (Verdict.INCOMPLETE, 4)


def test_a_findings_case_marks_the_names_kafka_tells_apart_that_a_reader_may_not() -> None:
    from kafka_conformance.report.write_html import _case_marked

    def marked(acl: str, question: str) -> list[str]:
        import re

        return re.findall(r"<mark>(.*?)</mark>", _case_marked((f"  #1 [acl-0] {acl} from host *",
                                                                 f"question: authorize({question}])")))

    assert marked("ALLOW User:alice ALL on LITERAL TOPIC 'bar'", "User:alice from 10.0.0.1, [READ TOPIC 'Bar'") == [
        "&#x27;bar&#x27;", "&#x27;Bar&#x27;"]  # the case
    assert marked("ALLOW User:alice READ on PREFIXED TOPIC 'q'", "User:alice from 10.0.0.1, [READ TOPIC 'QA'") == [
        "&#x27;q&#x27;", "&#x27;QA&#x27;"]  # a prefix but for the case
    assert marked("DENY User:Alice READ on LITERAL TOPIC 'foo'", "User:alice from 10.0.0.1, [READ TOPIC 'foo'") == [
        "User:Alice", "User:alice"]
    assert marked("ALLOW User:alice READ on PREFIXED TOPIC 'fo'", "User:alice from 10.0.0.1, [READ TOPIC 'foo'") == []
    assert marked("ALLOW User:bob READ on LITERAL TOPIC 'bar'", "User:alice from 10.0.0.1, [READ TOPIC 'foo'") == []
