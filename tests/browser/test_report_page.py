"""``index.html`` as a person sees it, in a real headless Chromium: the matrix, a divergence opened to
its case, the page with JavaScript off, the page printed, and a screenshot kept as an artifact."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from headless_chromium import MUTANTS, REFERENCE, chromium, keep, mutant, processes_using

from kafka_conformance.report.read_json import load_report
from kafka_conformance.report.write_html import short

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Locator, Page, Playwright

WORDS = {"holds": "holds", "diverges": "diverges", "could-not-run": "could not run", "not-applicable": "not applicable",
         "not-run": "not run"}
A4_WIDTH = 718
"""CSS pixels across an A4 page inside 1 cm margins."""


def _suite(report_dir: Path) -> dict[str, Any]:
    body = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    (suite,) = body["suites"]
    assert suite["suite"] == "authorizer"
    return suite  # type: ignore[no-any-return]


def _open(context: BrowserContext, report_dir: Path, **viewport: int) -> Page:
    page = context.new_page()
    if viewport:
        page.set_viewport_size({"width": viewport["width"], "height": viewport["height"]})
    page.goto((report_dir / "index.html").as_uri())
    return page


def _cell(page: Page, row: str, column: int) -> Locator:
    """The cell of ``row`` in the ``column``-th target column (0-based), found through the table's structure."""
    return page.locator(f"#suite-authorizer tr#authorizer-{row} > td").nth(column)


def _ran(suite: dict[str, Any]) -> list[str]:
    """The rows some target ran (the others are listed under the table, not as rows)."""
    return [r["id"] for r in suite["rows"]
            if any(cell["row"] == r["id"] and cell["status"] not in ("not-applicable", "not-run")
                   for c in suite["columns"] for cell in c["cells"])]


def _first_divergence(suite: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    for index, column in enumerate(suite["columns"]):
        for cell in column["cells"]:
            if cell["divergences"]:
                return cell["row"], index, cell["divergences"][0]
    raise AssertionError("the report holds no divergence")


def _matrix_as_rendered(page: Page, suite: dict[str, Any]) -> None:
    """The table a reader (and a screen reader) finds: one column header per target, one row header per
    promise, and in every cell the word of the status report.json gives it."""
    table = page.get_by_role("table", name="authorizer suite", exact=False)
    assert table.count() == 1 and table.is_visible()
    headers = [h.inner_text() for h in table.get_by_role("columnheader").all()]
    assert headers[0] == "Kafka's promise"
    targets = [c["target"] for c in suite["columns"]]
    assert targets == [REFERENCE, *map(mutant, MUTANTS)]
    assert len(headers) == 1 + len(targets)
    for header, target, th in zip(headers[1:], targets, table.get_by_role("columnheader").all()[1:], strict=True):
        assert header.splitlines()[0] == short(target), header  # a short label; the whole spec in the tooltip
        assert (th.get_attribute("title") or "").startswith(target)
    row_headers = [h.inner_text().splitlines()[0] for h in table.get_by_role("rowheader").all()]
    assert row_headers == _ran(suite)
    for index, column in enumerate(suite["columns"]):
        for cell in column["cells"]:
            if cell["row"] not in row_headers:
                continue  # a promise no target ran: one line under the table
            rendered = _cell(page, cell["row"], index)
            assert rendered.is_visible()
            assert rendered.locator(".word").inner_text() == WORDS[cell["status"]], (column["target"], cell["row"])


def test_the_matrix_renders_with_the_reference_holding_and_each_mutant_diverging(browser: BrowserContext, report_dir: Path) -> None:
    suite = _suite(report_dir)
    page = _open(browser, report_dir)
    try:
        _matrix_as_rendered(page, suite)
        words = [[_cell(page, r, i).locator(".word").inner_text() for r in _ran(suite)] for i in range(len(suite["columns"]))]
        reference, *mutants = words
        assert set(reference) <= {"holds", "not applicable"} and "holds" in reference
        for name, column in zip(MUTANTS, mutants, strict=True):
            assert "diverges" in column, name
        row, index, _ = _first_divergence(suite)
        holds = _cell(page, row, 0)
        diverges = _cell(page, row, index)
        colour = "el => getComputedStyle(el).backgroundColor"
        assert holds.evaluate(colour) != diverges.evaluate(colour)  # colour helps, beside the icon and the word
        assert diverges.locator(".icon").inner_text() == "✗" and holds.locator(".icon").inner_text() == "✓"
        assert page.locator("#controls button").count() == 3  # the page's script ran
    finally:
        page.close()


def test_a_divergence_opens_to_its_case_and_the_replay_command(browser: BrowserContext, report_dir: Path) -> None:
    row, index, divergence = _first_divergence(_suite(report_dir))
    page = _open(browser, report_dir)
    try:
        details = _cell(page, row, index).locator("details").first
        replay = details.get_by_text(divergence["replay"], exact=True)
        assert details.get_attribute("open") is None and not replay.is_visible()
        details.locator("summary").click()
        assert details.get_attribute("open") is not None
        assert replay.is_visible()
        assert divergence["replay"] == f"kafka-conformance replay {divergence['saved_to']} --trust-saved-target"
        assert Path(divergence["saved_to"]).is_file()
        text = details.inner_text()
        for part in ("expected", divergence["expected"], "actual", divergence["actual"], "why Kafka answers so"):
            assert part in text, part
    finally:
        page.close()


def test_the_buttons_open_every_case_and_keep_only_the_rows_with_a_divergence(browser: BrowserContext, report_dir: Path) -> None:
    suite = _suite(report_dir)
    diverging = {cell["row"] for c in suite["columns"] for cell in c["cells"] if cell["status"] == "diverges"}
    assert diverging and diverging != {r["id"] for r in suite["rows"]}
    page = _open(browser, report_dir)
    try:
        only = page.get_by_role("button", name="Only rows with a divergence")
        assert only.get_attribute("aria-pressed") == "false"
        only.click()
        assert only.get_attribute("aria-pressed") == "true"
        shown = {r["id"] for r in suite["rows"] if page.locator(f"tr#authorizer-{r['id']}").is_visible()}
        assert shown == diverging
        only.click()
        assert only.get_attribute("aria-pressed") == "false"
        assert all(page.locator(f"tr#authorizer-{r}").is_visible() for r in _ran(suite))
        details = page.locator("#suite-authorizer details")
        page.get_by_role("button", name="Open every case").click()
        assert details.count() > 0 and all(d.get_attribute("open") is not None for d in details.all())
        page.get_by_role("button", name="Close every case").click()
        assert all(d.get_attribute("open") is None for d in details.all())
    finally:
        page.close()


def test_with_javascript_off_the_table_is_there_and_cases_still_open(playwright: Playwright, tmp_path: Path, report_dir: Path) -> None:
    suite = _suite(report_dir)
    row, index, divergence = _first_divergence(suite)
    with chromium(playwright, tmp_path / "profile", javascript=False) as context:
        page = _open(context, report_dir)
        assert page.locator("#controls button").count() == 0  # the script did not run
        _matrix_as_rendered(page, suite)
        details = _cell(page, row, index).locator("details").first
        details.locator("summary").click()  # <details> needs no script
        assert details.get_by_text(divergence["replay"], exact=True).is_visible()


def test_printed_the_page_fits_the_paper_and_shows_every_case(browser: BrowserContext, report_dir: Path, tmp_path: Path) -> None:
    suite = _suite(report_dir)
    replays = [d["replay"] for c in suite["columns"] for cell in c["cells"] for d in cell["divergences"]]
    assert replays
    page = _open(browser, report_dir, width=A4_WIDTH, height=1000)
    try:
        page.emulate_media(media="print")
        assert not page.locator("#controls").is_visible()
        table = page.locator("#suite-authorizer table")
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= A4_WIDTH, box  # nothing cut at the margin
        assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH
        for replay in replays:  # every case printed open, without a click and without the script's help
            assert page.locator("#suite-authorizer").get_by_text(replay, exact=True).is_visible(), replay
        cell = page.locator("#suite-authorizer td.diverges").first
        assert cell.evaluate("el => getComputedStyle(el).backgroundColor") == "rgba(0, 0, 0, 0)"  # no ink wasted on fills
        assert cell.locator(".word").is_visible()  # the word carries the status on paper
        pdf = tmp_path / "report-print.pdf"
        pdf.write_bytes(page.pdf(format="A4", margin={"top": "1cm", "bottom": "1cm", "left": "1cm", "right": "1cm"}))
        assert keep(pdf).read_bytes().startswith(b"%PDF-")
    finally:
        page.close()


def test_a_screenshot_of_the_page_is_kept(browser: BrowserContext, report_dir: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Under tmp_path, and copied to ``KC_ARTIFACTS`` (the caller's folder, or one of the test's own when unset)."""
    artifacts = Path(os.environ.get("KC_ARTIFACTS") or tmp_path / "artifacts")
    monkeypatch.setenv("KC_ARTIFACTS", str(artifacts))
    page = _open(browser, report_dir)
    try:
        shot = tmp_path / "report-page.png"
        page.screenshot(path=str(shot), full_page=True)
        keep(shot)
    finally:
        page.close()
    data = shot.read_bytes()
    assert (artifacts / shot.name).read_bytes() == data
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1400 and height >= 900, (width, height)


def test_the_browser_is_stopped_when_its_block_ends(playwright: Playwright, tmp_path: Path, report_dir: Path) -> None:
    profile = tmp_path / "profile"
    try:
        with chromium(playwright, profile) as context:
            assert processes_using(str(profile))  # the marker finds the running browser
            _open(context, report_dir)
            raise RuntimeError("a test failing mid-way")
    except RuntimeError:
        pass
    assert processes_using(str(profile)) == []


def test_the_page_opens_with_one_finding_per_distinct_bug_and_fits_a_laptop(browser: BrowserContext, report_dir: Path) -> None:
    """Triage first: under the verdict, one finding per distinct divergence (a mutant's anomaly, whatever
    properties showed it), its case, expected and actual with the difference marked, and the replay
    command; and the page at 1280 px wide needs no horizontal scroll."""
    report = load_report(report_dir / "report.json")
    found = report.findings()
    assert len(found) < sum(len(cell.divergences) for _, cell in report.cells())  # grouped, not one per cell
    page = _open(browser, report_dir, width=1280, height=900)
    try:
        articles = page.locator("#findings article")
        assert articles.count() == len(found)
        first = articles.first
        assert first.is_visible() and first.locator("mark").count() >= 2  # what differs, in both answers
        assert first.get_by_text(found[0].divergence.replay or "", exact=True).is_visible()
        assert page.locator("#findings").bounding_box()["y"] < page.locator("#suite-authorizer").bounding_box()["y"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        page.close()


def test_axe_finds_no_serious_or_critical_accessibility_violation(browser: BrowserContext, report_dir: Path) -> None:
    """axe-core (bundled by axe-playwright-python, run inside the page) on the page as it opens and
    with every case open."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    page = _open(browser, report_dir, width=1280, height=900)
    try:
        for opened in (False, True):
            if opened:
                page.get_by_role("button", name="Open every case").click()
            violations = axe_module.Axe().run(page).response["violations"]
            bad = [(v["id"], v["impact"], len(v["nodes"])) for v in violations if v["impact"] in ("serious", "critical")]
            assert bad == [], bad
    finally:
        page.close()


def test_the_keyboard_reaches_the_controls_and_opens_a_finding(browser: BrowserContext, report_dir: Path) -> None:
    """Tab reaches the page's buttons first, then the cases; Enter opens the one in focus."""
    page = _open(browser, report_dir, width=1280, height=900)
    try:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Open every case"
        for _ in range(3):
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.parentElement.open") is True
    finally:
        page.close()
