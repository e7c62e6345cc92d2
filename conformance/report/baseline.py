"""Comparing a report with an earlier one: what a user's CI wants to know about a change.

A divergence is the same when its column (suite, target and release), its row
and what was observed are (its signature: the method, the answers and the case's shape
in kinds, never its values nor the guessed cause); so the same bug met on another seed,
or through a case that shrank to other values, is still the same divergence, and
another observation in the same cell is new.  A report written before signatures
existed is compared by anomaly.  Cells are compared by
column and row: one that could not run before and ran now, or the reverse, is
listed, since either changes what the report is evidence of.
"""

from __future__ import annotations

from typing import Any

import attrs

from kafka_conformance.report.model import CellStatus, Divergence, Report

__all__ = ["Comparison", "Found", "compare"]


@attrs.frozen(order=True)
class Found:
    """A place in the matrix: a column, a row, and (for a divergence) what was observed."""

    column: str
    row: str
    observed: str = ""
    """The divergence's :attr:`~kafka_conformance.report.model.Divergence.identity`."""

    def describe(self) -> str:
        return f"{self.column} / {self.row}" + (f": {self.observed}" if self.observed else "")


@attrs.frozen
class Comparison:
    baseline: str
    """Where the earlier report was read from."""
    new: tuple[Found, ...]
    fixed: tuple[Found, ...]
    now_run: tuple[Found, ...]
    """Cells that could not run in the baseline and ran now."""
    no_longer_run: tuple[Found, ...]
    """Cells that ran in the baseline and could not run now."""
    by_anomaly: frozenset[str] = frozenset()
    """Columns compared by anomaly (:func:`_without_signatures`)."""

    def is_new(self, column: str, row: str, d: Divergence) -> bool:
        """Whether this divergence of the compared report is one the baseline did not have."""
        return _found(column, row, d, self.by_anomaly) in self.new

    @property
    def exit_code(self) -> int:
        """With a baseline, only a new divergence fails a run: that is what a CI gate asks."""
        return 1 if self.new else 0

    def verdict_line(self) -> str:
        return (f"against the baseline {self.baseline}: {len(self.new)} new divergence(s), {len(self.fixed)} fixed, "
                f"{len(self.now_run)} cell(s) run that could not run before, {len(self.no_longer_run)} that no longer run")

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.baseline,
            "new": [attrs.asdict(f) for f in self.new],
            "fixed": [attrs.asdict(f) for f in self.fixed],
            "now_run": [attrs.asdict(f) for f in self.now_run],
            "no_longer_run": [attrs.asdict(f) for f in self.no_longer_run],
        }


def _found(column: str, row: str, d: Divergence, by_anomaly: frozenset[str]) -> Found:
    return Found(column, row, d.anomaly if column in by_anomaly else d.identity)


def _divergences(report: Report, by_anomaly: frozenset[str]) -> set[Found]:
    return {_found(col.id, cell.row, d, by_anomaly) for col, cell in report.cells() for d in cell.divergences}


def _without_signatures(*reports: Report) -> frozenset[str]:
    """Columns where either report holds a divergence without a signature (a report written before
    signatures existed): those are compared by anomaly on both sides, or every divergence in them
    would read as one new and one fixed."""
    return frozenset(col.id for report in reports for col, cell in report.cells()
                     if any(not d.signature for d in cell.divergences))


def _ran(report: Report) -> tuple[set[Found], set[Found]]:
    ran, not_run = set(), set()
    for col, cell in report.cells():
        place = Found(col.id, cell.row)
        if cell.status is CellStatus.COULD_NOT_RUN:
            not_run.add(place)
        elif cell.status in (CellStatus.HOLDS, CellStatus.DIVERGES):
            ran.add(place)
    return ran, not_run


def compare(old: Report, new: Report, *, baseline: str = "") -> Comparison:
    by_anomaly = _without_signatures(old, new)
    before, after = _divergences(old, by_anomaly), _divergences(new, by_anomaly)
    ran_before, missed_before = _ran(old)
    ran_now, missed_now = _ran(new)
    return Comparison(
        baseline=baseline,
        new=tuple(sorted(after - before)),
        fixed=tuple(sorted(f for f in before - after if Found(f.column, f.row) in ran_now)),
        now_run=tuple(sorted(missed_before & ran_now)),
        no_longer_run=tuple(sorted(ran_before & missed_now)),
        by_anomaly=by_anomaly,
    )
