"""The report as values: suites of rows (Kafka's promises) by columns (a target at a release).

Every value here is frozen and carries only data, never a live target or a
suite's own report object, so the writers, the baseline comparison and a report
read back from ``report.json`` all see exactly the same thing.
"""

from __future__ import annotations

import enum

import attrs

__all__ = [
    "Cell",
    "CellStatus",
    "Column",
    "Divergence",
    "NotRun",
    "Report",
    "Row",
    "SuiteRun",
    "Verdict",
]

REPORT_FORMAT = "kafka-conformance/report"
REPORT_VERSION = 1
SUITES = ("authorizer", "producer", "broker")


class CellStatus(enum.Enum):
    HOLDS = "holds"
    """Every case tried kept the promise."""
    DIVERGES = "diverges"
    """A minimal case shows the implementation answering otherwise than Kafka."""
    COULD_NOT_RUN = "could-not-run"
    """The row was meant to run and did not (the target crashed, stopped answering, or was missing a prerequisite)."""
    NOT_APPLICABLE = "not-applicable"
    """Out of the target's declared scope, or a trace the client cannot express: no evidence, and none expected."""


class Verdict(enum.Enum):
    HOLDS = "holds"
    DIVERGES = "diverges"
    INCOMPLETE = "incomplete"
    """No divergence, but some cells could not run: the report is not evidence for them."""


@attrs.frozen
class Divergence:
    """One minimal case where an implementation answered otherwise than Kafka.

    ``case`` is the case as lines a person reads (the ACLs and questions, the
    trace, or the crafted requests); ``explanation`` is why the reference answers
    as it does.  ``saved_to`` and ``replay`` are absent when the run saved nothing."""

    anomaly: str
    summary: str
    """What the anomaly means, from the suite's catalogue."""
    case: tuple[str, ...]
    expected: str
    actual: str
    explanation: str
    saved_to: str | None = None
    replay: str | None = None


@attrs.frozen
class Cell:
    row: str
    """The :attr:`Row.id` this cell answers."""
    status: CellStatus
    cases: int = 0
    """Cases (examples, traces, crafted sequences) tried for this row in this column."""
    reason: str = ""
    """Why the cell could not run or does not apply."""
    divergences: tuple[Divergence, ...] = ()
    notes: tuple[str, ...] = ()
    """What a reader should know that does not change the status (anomalies outside a guarantee, ...)."""


@attrs.frozen
class Row:
    """One of Kafka's promises, named as the suite's catalogue names it."""

    id: str
    title: str


@attrs.frozen
class Column:
    """One implementation held to one Kafka release by one suite."""

    suite: str
    target: str
    release: str
    description: str = ""
    seed: int | None = None
    duration_s: float = 0.0
    cells: tuple[Cell, ...] = ()
    problem: str = ""
    """Why the whole column could not run, when it could not."""

    @property
    def id(self) -> str:
        """Stable across runs, so a baseline's column is found again."""
        return f"{self.suite}:{self.target}@{self.release}"

    def cell(self, row: str) -> Cell | None:
        return next((c for c in self.cells if c.row == row), None)


@attrs.frozen
class SuiteRun:
    suite: str
    rows: tuple[Row, ...]
    columns: tuple[Column, ...]


@attrs.frozen
class NotRun:
    """A target the defaults left out: it cannot run on this machine, or it runs only when named."""

    suite: str
    target: str
    reason: str


@attrs.frozen
class Report:
    suites: tuple[SuiteRun, ...]
    profile: str = "ci"
    seed: int | None = None
    kit_version: str = ""
    generated_at: str = ""
    duration_s: float = 0.0
    not_run: tuple[NotRun, ...] = ()

    def columns(self) -> tuple[Column, ...]:
        return tuple(c for s in self.suites for c in s.columns)

    def cells(self) -> tuple[tuple[Column, Cell], ...]:
        return tuple((col, cell) for col in self.columns() for cell in col.cells)

    def count(self, status: CellStatus) -> int:
        return sum(1 for _, cell in self.cells() if cell.status is status)

    @property
    def verdict(self) -> Verdict:
        if self.count(CellStatus.DIVERGES):
            return Verdict.DIVERGES
        if self.count(CellStatus.COULD_NOT_RUN) or any(c.problem for c in self.columns()):
            return Verdict.INCOMPLETE
        return Verdict.HOLDS

    @property
    def exit_code(self) -> int:
        """Without a baseline: 1 on any divergence, else 0 (cells that could not run are reported, not failed)."""
        return 1 if self.verdict is Verdict.DIVERGES else 0

    def verdict_line(self) -> str:
        counts = ", ".join(f"{self.count(s)} {s.value}" for s in CellStatus if self.count(s))
        columns = len(self.columns())
        return (f"verdict: {self.verdict.value} ({columns} column{'s' if columns != 1 else ''}; {counts or 'no cells'}) "
                f"in {self.duration_s:.1f}s")
