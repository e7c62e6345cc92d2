"""Reading a ``report.json`` back into a :class:`Report` (the ``--baseline`` of a later run).

A baseline is an input file like any other: it may be truncated, hand-edited,
another tool's JSON or a report of a format this kit does not read.  Every such
problem is a :class:`ValueError` naming the file and the place in it, never a
KeyError from deep inside a comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kafka_conformance.casefiles import read_json_file
from kafka_conformance.report.model import (
    REPORT_FORMAT,
    REPORT_VERSION,
    Cell,
    CellStatus,
    Column,
    Divergence,
    NotRun,
    Report,
    Row,
    SuiteRun,
)

__all__ = ["load_report", "report_from_json"]


class _Bad(ValueError):
    pass


def load_report(path: str | Path) -> Report:
    """The report in ``path``; ValueError names the file and what is wrong with it."""
    p = Path(path)
    body = read_json_file(p, REPORT_FORMAT, "kafka-conformance report (report.json)")
    try:
        return report_from_json(body)
    except _Bad as exc:
        raise ValueError(f"{p}: not a readable report: {exc}") from None


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict):
        raise _Bad(f"{where} is a JSON {type(obj).__name__}, expected an object")
    if key not in obj:
        raise _Bad(f"{where} has no field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))):
        raise _Bad(f"{where}.{key} is {str(value)[:60]!r}, of the wrong type")
    return value


def _opt(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any) -> Any:
    return _get(obj, key, kind, where) if key in obj and obj[key] is not None else default


def _strings(obj: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = _opt(obj, key, list, where, [])
    if not all(isinstance(v, str) for v in values):
        raise _Bad(f"{where}.{key} must be a list of strings")
    return tuple(values)


def _divergence(obj: Any, where: str) -> Divergence:
    return Divergence(
        anomaly=_get(obj, "anomaly", str, where),
        summary=_opt(obj, "summary", str, where, ""),
        case=_strings(obj, "case", where),
        expected=_get(obj, "expected", str, where),
        actual=_get(obj, "actual", str, where),
        explanation=_opt(obj, "explanation", str, where, ""),
        saved_to=_opt(obj, "saved_to", str, where, None),
        replay=_opt(obj, "replay", str, where, None),
        listing=_opt(obj, "listing", str, where, ""),
        releases=_opt(obj, "releases", str, where, ""),
        signature=_opt(obj, "signature", str, where, ""),
        kafka_bug=_opt(obj, "kafka_bug", str, where, ""),
    )


def _cell(obj: Any, where: str) -> Cell:
    status = _get(obj, "status", str, where)
    try:
        parsed = CellStatus(status)
    except ValueError:
        raise _Bad(f"{where}.status is {status[:40]!r}; expected one of {', '.join(s.value for s in CellStatus)}") from None
    divergences = _opt(obj, "divergences", list, where, [])
    return Cell(
        row=_get(obj, "row", str, where),
        status=parsed,
        cases=_opt(obj, "cases", int, where, 0),
        reason=_opt(obj, "reason", str, where, ""),
        divergences=tuple(_divergence(d, f"{where}.divergences[{i}]") for i, d in enumerate(divergences)),
        notes=_strings(obj, "notes", where),
    )


def _column(obj: Any, where: str) -> Column:
    cells = _get(obj, "cells", list, where)
    return Column(
        suite=_get(obj, "suite", str, where),
        target=_get(obj, "target", str, where),
        release=_get(obj, "release", str, where),
        description=_opt(obj, "description", str, where, ""),
        seed=_opt(obj, "seed", int, where, None),
        duration_s=float(_opt(obj, "duration_s", (int, float), where, 0.0)),
        cells=tuple(_cell(c, f"{where}.cells[{i}]") for i, c in enumerate(cells)),
        problem=_opt(obj, "problem", str, where, ""),
        demonstration=_opt(obj, "demonstration", bool, where, False),
        asked=_opt(obj, "asked", bool, where, True),
    )


def report_from_json(body: dict[str, Any]) -> Report:
    version = body.get("version")
    if version != REPORT_VERSION:
        raise _Bad(f"report format version {str(version)[:20]!r}; this kit reads version {REPORT_VERSION}")
    suites = []
    for i, s in enumerate(_get(body, "suites", list, "the report")):
        where = f"suites[{i}]"
        rows = tuple(Row(_get(r, "id", str, f"{where}.rows[{j}]"), _opt(r, "title", str, f"{where}.rows[{j}]", ""))
                     for j, r in enumerate(_get(s, "rows", list, where)))
        columns = tuple(_column(c, f"{where}.columns[{j}]") for j, c in enumerate(_get(s, "columns", list, where)))
        suites.append(SuiteRun(_get(s, "suite", str, where), rows, columns))
    not_run = tuple(
        NotRun(_get(n, "suite", str, f"not_run[{i}]"), _get(n, "target", str, f"not_run[{i}]"),
               _opt(n, "reason", str, f"not_run[{i}]", ""))
        for i, n in enumerate(_opt(body, "not_run", list, "the report", []))
    )
    return Report(
        suites=tuple(suites),
        profile=_opt(body, "profile", str, "the report", ""),
        seed=_opt(body, "seed", int, "the report", None),
        kit_version=_opt(body, "kit_version", str, "the report", ""),
        generated_at=_opt(body, "generated_at", str, "the report", ""),
        duration_s=float(_opt(body, "duration_s", (int, float), "the report", 0.0)),
        not_run=not_run,
    )
