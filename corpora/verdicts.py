"""``run_shard``: the unit of work of a distributed run, a plain function.

It checks cases one by one against an opened target and returns one verdict
row per case, in order, whatever happens (a crash of the target is an
``error`` row, not an exception), so rows out always equal cases in.  It is
what a Spark task, a single process and the unit tests all run.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import attrs

from kafka_conformance.corpora.suites.registry import SuiteChecker

__all__ = ["Case", "VerdictRow", "rows_to_columns", "run_shard"]


@attrs.frozen
class Case:
    """One case, decoded: ``payload`` is the suite's value (a Scenario for the authorizer)."""

    case_id: str
    suite: str
    property: str
    shard: int
    index: int
    payload: object
    text: str | None = None
    """The case's JSON when it was read from a corpus (saves re-encoding failures)."""


@attrs.frozen
class VerdictRow:
    case_id: str
    suite: str
    property: str
    shard: int
    index: int
    verdict: str
    anomaly: str
    signature: str
    detail: str
    adapter_error: str
    duration_us: int
    case: str | None
    """The case's JSON, for rows that did not pass (the driver shrinks them)."""


def run_shard(cases: Iterable[Case], target: SuiteChecker, encode: object = None) -> list[VerdictRow]:
    """Check every case against ``target`` (opened once by the caller).

    ``encode(payload) -> str`` keeps failing cases' JSON in their rows; without it
    only cases read from a corpus (``Case.text``) keep theirs."""
    rows: list[VerdictRow] = []
    clock = time.perf_counter_ns
    check = target.check
    for case in cases:
        started = clock()
        outcome = check(case.property, case.payload)
        elapsed = (clock() - started) // 1000
        text = None
        if outcome.verdict != "pass":
            text = case.text if case.text is not None else (encode(case.payload) if callable(encode) else None)
        rows.append(VerdictRow(case.case_id, case.suite, case.property, case.shard, case.index, outcome.verdict,
                               outcome.anomaly, outcome.signature, outcome.detail, outcome.adapter_error, elapsed, text))
    return rows


def rows_to_columns(rows: Iterable[VerdictRow]) -> dict[str, list[object]]:
    fields = [f.name for f in attrs.fields(VerdictRow)]
    columns: dict[str, list[object]] = {name: [] for name in fields}
    for row in rows:
        for name in fields:
            columns[name].append(getattr(row, name))
    return columns
