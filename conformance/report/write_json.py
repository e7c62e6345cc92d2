"""``report.json``: the report as data, the one format the others can be checked against.

Its shape is ``docs/schemas/report.schema.json``; :mod:`.read_json` reads it
back (a baseline), so the two modules change together.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from kafka_conformance.report.baseline import Comparison
from kafka_conformance.report.model import REPORT_FORMAT, REPORT_VERSION, Cell, Column, Divergence, Report

__all__ = ["dumps_json", "to_json"]


def _divergence(d: Divergence) -> dict[str, Any]:
    body = attrs.asdict(d)
    body["case"] = list(d.case)
    return body


def _cell(c: Cell) -> dict[str, Any]:
    return {
        "row": c.row,
        "status": c.status.value,
        "cases": c.cases,
        "reason": c.reason,
        "notes": list(c.notes),
        "divergences": [_divergence(d) for d in c.divergences],
    }


def _column(c: Column) -> dict[str, Any]:
    return {
        "id": c.id,
        "suite": c.suite,
        "target": c.target,
        "release": c.release,
        "description": c.description,
        "seed": c.seed,
        "duration_s": round(c.duration_s, 3),
        "problem": c.problem,
        "demonstration": c.demonstration,
        "asked": c.asked,
        "cells": [_cell(cell) for cell in c.cells],
    }


def to_json(report: Report, comparison: Comparison | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "kit_version": report.kit_version,
        "generated_at": report.generated_at,
        "profile": report.profile,
        "seed": report.seed,
        "duration_s": round(report.duration_s, 3),
        "verdict": report.verdict.value,
        "exit_code": report.exit_code if comparison is None else comparison.exit_code,
        "suites": [
            {
                "suite": s.suite,
                "rows": [{"id": r.id, "title": r.title} for r in s.rows],
                "columns": [_column(c) for c in s.columns],
            }
            for s in report.suites
        ],
        "not_run": [attrs.asdict(n) for n in report.not_run],
    }
    if comparison is not None:
        body["baseline"] = comparison.to_json()
    return body


def dumps_json(report: Report, comparison: Comparison | None = None) -> str:
    return json.dumps(to_json(report, comparison), indent=2, ensure_ascii=False) + "\n"
