"""The report page in a real headless Chromium: a report of the reference and two zoo mutants, opened from disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from headless_chromium import MUTANTS, NO_PLAYWRIGHT, REFERENCE, chromium, chromium_path, mutant, playwright_started

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Playwright


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of the reference and two zoo mutants (authorizer suite, smoke profile, seed 0), written to disk."""
    chromium_path()  # skip before spending seconds on a run no browser will open
    pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT)
    from kafka_conformance import run_report
    from kafka_conformance.report.files import write_report

    out = tmp_path_factory.mktemp("report")
    report = run_report(suites=["authorizer"], targets=[REFERENCE, *map(mutant, MUTANTS)], profile="smoke", seed=0,
                        failures_dir=out / "cases")
    write_report(report, out)
    return out


@pytest.fixture(scope="module")
def playwright(report_dir: Path) -> Iterator[Playwright]:
    with playwright_started() as started:
        yield started


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory, playwright: Playwright) -> Iterator[BrowserContext]:
    """One headless Chromium, JavaScript on, for the module."""
    with chromium(playwright, tmp_path_factory.mktemp("chromium") / "profile") as context:
        yield context
