"""The report directory: every format written by its own writer, side by side.

Written last, after the run, into a folder the CLI checked before the run
started; a failure to write names the file.
"""

from __future__ import annotations

from pathlib import Path

from kafka_conformance.outputs import write_output
from kafka_conformance.report.baseline import Comparison
from kafka_conformance.report.model import Report
from kafka_conformance.report.write_html import to_html
from kafka_conformance.report.write_json import dumps_json
from kafka_conformance.report.write_junit import to_junit_xml
from kafka_conformance.report.write_markdown import to_markdown

__all__ = ["FILES", "write_report"]

FILES = ("index.html", "report.json", "summary.md", "junit.xml")


def write_report(report: Report, folder: str | Path, comparison: Comparison | None = None) -> dict[str, Path]:
    """Write every format into ``folder`` (created if needed); returns each file's path by name.
    OSError propagates, with the path in it."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "index.html": to_html(report, comparison),
        "report.json": dumps_json(report, comparison),
        "summary.md": to_markdown(report, comparison, out),
        "junit.xml": to_junit_xml(report),
    }
    written = {}
    for name in FILES:
        path = out / name
        write_output(path, texts[name])
        written[name] = path
    return written
