"""The report as values: suites of rows (Kafka's promises) by columns (a target at a release).

Every value here is frozen and carries only data, never a live target or a
suite's own report object, so the writers, the baseline comparison and a report
read back from ``report.json`` all see exactly the same thing.
"""

from __future__ import annotations

import enum

import attrs

__all__ = [
    "EXIT_INCOMPLETE",
    "Cell",
    "CellStatus",
    "Column",
    "Divergence",
    "Finding",
    "NotRun",
    "Report",
    "Row",
    "SuiteRun",
    "Verdict",
]

EXIT_INCOMPLETE = 4
"""A run where something asked for could not run (and nothing diverged): not a pass for a CI job."""
REPORT_FORMAT = "kafka-conformance/report"
REPORT_VERSION = 1
SUITES = ("authorizer", "producer", "broker", "transactions", "transaction-clients")


class CellStatus(enum.Enum):
    HOLDS = "holds"
    """Every case tried kept the promise."""
    DIVERGES = "diverges"
    """A minimal case shows the implementation answering otherwise than Kafka."""
    COULD_NOT_RUN = "could-not-run"
    """The row was meant to run and did not (the target crashed, stopped answering, or was missing a prerequisite)."""
    NOT_APPLICABLE = "not-applicable"
    """Out of the target's declared scope, or a trace the client cannot express: no evidence, and none expected."""
    NOT_RUN = "not-run"
    """Not asked for this time (the profile runs it elsewhere, or no examples were asked): the reason says how to run it."""


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
    listing: str = ""
    """An authorizer case's ACLs as ``kafka-acls --list`` prints them (``kafka-conformance explain``
    reads it back); empty for the other suites."""
    releases: str = ""
    """Which Kafka releases answer the case as the implementation did, and which as expected
    (an authorizer divergence); empty where the suite does not say."""
    signature: str = ""
    """What was observed, in words that do not depend on the case's values
    (:mod:`~kafka_conformance.authorizer.signature`): the divergence's identity, which a
    baseline compares.  ``anomaly`` is then the likely cause.  Empty where the suite's anomaly
    names are themselves observations (the broker and producer suites), and in reports written
    before signatures existed."""

    kafka_bug: str = ""
    """Where the divergence is one of Kafka's own bugs: which, and which answer the implementation
    gives (the documented one, or the release's); empty otherwise."""

    @property
    def identity(self) -> str:
        """What a baseline compares: the signature, or the anomaly where there is none."""
        return self.signature or self.anomaly


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
    demonstration: bool = False
    """A planted bug the run shows the kit catching (``report --demo``): on the page, never in the exit code."""
    asked: bool = True
    """Named by the user, or one of the kit's own defaults (the reference, the model, the test broker).
    False for a third-party implementation the defaults found installed: what it could not run is
    reported, and does not make the run incomplete (a divergence still counts)."""

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

    def judged(self) -> tuple[tuple[Column, Cell], ...]:
        """The cells the verdict stands on: every cell but those of demonstration columns."""
        return tuple((col, cell) for col, cell in self.cells() if not col.demonstration)

    @property
    def verdict(self) -> Verdict:
        judged = self.judged()
        if any(cell.status is CellStatus.DIVERGES for _, cell in judged):
            return Verdict.DIVERGES
        if (any(cell.status is CellStatus.COULD_NOT_RUN for col, cell in judged if col.asked)
                or any(c.problem for c in self.columns() if c.asked and not c.demonstration)):
            return Verdict.INCOMPLETE
        return Verdict.HOLDS

    @property
    def exit_code(self) -> int:
        """Without a baseline: 1 on any divergence, 4 when something asked for could not run, else 0."""
        return {Verdict.DIVERGES: 1, Verdict.INCOMPLETE: EXIT_INCOMPLETE}.get(self.verdict, 0)

    def findings(self) -> tuple[Finding, ...]:
        """One entry per distinct bug: a target's divergences with the same anomaly, whatever row
        (property, trace, probe) showed them, represented by the smallest case that can be
        replayed (a generated transaction script, which has no replay command, only where no
        table row showed the bug); demonstration columns last."""
        groups: dict[tuple[str, str], list[tuple[Column, Cell, Divergence]]] = {}
        for col, cell in self.cells():
            for d in cell.divergences:
                groups.setdefault((col.id, d.anomaly), []).append((col, cell, d))
        out = []
        for found in groups.values():
            col, _, first = min(found, key=lambda f: (f[2].replay is None, len(f[2].case), f[1].row))
            out.append(Finding(col.suite, col.target, col.release, tuple(dict.fromkeys(c.row for _, c, _ in found)),
                               first, col.demonstration))
        return tuple(sorted(out, key=lambda f: f.demonstration))

    def verdict_line(self) -> str:
        counts = ", ".join(f"{self.count(s)} {s.value}" for s in CellStatus if self.count(s))
        columns = len(self.columns())
        demo = sum(c.demonstration for c in self.columns())
        shown = f"; the {demo} demonstration column{'s' if demo != 1 else ''} not counted" if demo else ""
        return (f"verdict: {self.verdict.value} ({columns} column{'s' if columns != 1 else ''}; {counts or 'no cells'}"
                f"{shown}) in {self.duration_s:.1f}s")


@attrs.frozen
class Finding:
    """One distinct bug in one target: the rows that showed it and its smallest case."""

    suite: str
    target: str
    release: str
    rows: tuple[str, ...]
    divergence: Divergence
    demonstration: bool = False
