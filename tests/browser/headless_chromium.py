"""Debian's headless Chromium driven by Playwright for Python, for the browser tests.

Never a browser download: Playwright launches the Chromium at ``/usr/bin/chromium``
(``apt-get install chromium``; ``.ci/run`` installs it).  Where Chromium or the
``playwright`` package (the ``browser`` extra) is absent, every test here skips
and says which.  The page is opened from disk (a ``file://`` URL): nothing
listens on any address.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Playwright

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (package ``chromium``)."""

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Without the networking flags Chromium keeps knocking on the closed network of the project's machines."""

NO_PLAYWRIGHT = "the playwright package is not installed: pip install -e '.[browser]' (never `playwright install`)"

REFERENCE = "reference"
MUTANTS = ("allow-beats-deny", "host-ignored")


def mutant(name: str) -> str:
    return f"python:kafka_conformance.selftest.zoo:factories.{name}"


def chromium_path() -> str:
    """The Chromium to drive, or skip saying what to install."""
    found = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    if found is None:
        pytest.skip(f"Debian's Chromium is not installed ({CHROMIUM} missing): apt-get install chromium")
    return found


def processes_using(marker: str) -> list[int]:
    """Ids of the live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in command and state != "Z":
            found.append(int(entry.name))
    return found


@contextmanager
def playwright_started() -> Iterator[Playwright]:
    """Playwright's driver (one per process: its sync API refuses a second one alongside)."""
    chromium_path()
    start = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).sync_playwright
    with start() as playwright:
        yield playwright


@contextmanager
def chromium(playwright: Playwright, profile: Path, *, javascript: bool = True) -> Iterator[BrowserContext]:
    """A headless Chromium with a fresh, empty profile at ``profile``; stopped however the block ends."""
    profile.mkdir(parents=True, exist_ok=False)  # fresh: never a profile an earlier run left behind
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=chromium_path(), headless=True, args=list(FLAGS),
        java_script_enabled=javascript, viewport={"width": 1400, "height": 900},
    )
    try:
        yield context
    finally:
        context.close()


def keep(artifact: Path) -> Path:
    """An artifact stays under pytest's tmp_path; with ``KC_ARTIFACTS`` set it is copied there too."""
    folder = os.environ.get("KC_ARTIFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy2(artifact, Path(folder) / artifact.name)
    return artifact
