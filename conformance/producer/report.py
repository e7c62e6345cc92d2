"""Results of ``check producer`` as values: one run's outcome, a client's report, a matrix.

The renderers (:mod:`producer_render`) are pure functions of these values, so
the terminal, JSON and JUnit outputs say the same thing, and a saved case can
be replayed without parsing prose.

One run of one trace on one client gets a :class:`RunStatus`, the most serious
of its anomalies: a **client** violation (the client under test broke a
delivery guarantee), a **broker** violation (the broker did: a real broker's
divergence, or a test-broker bug), **outside** the guarantee (KIP-185 allows the
anomaly under this configuration or fault), **holds**, or the run could not
say: **unknown** (no final log, sends still pending), **refused** (the client
cannot express the trace's settings) or **error** (the run crashed).
"""

from __future__ import annotations

import enum

import attrs

from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, DeliveryReport, Outcome
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["MatrixReport", "ProducerReport", "RunResult", "RunStatus", "status_of"]


class RunStatus(enum.Enum):
    CLIENT = "client-violation"
    BROKER = "broker-violation"
    ERROR = "error"
    OUTSIDE = "outside-guarantee"
    UNKNOWN = "unknown"
    REFUSED = "refused"
    HOLDS = "holds"

    @property
    def short(self) -> str:
        return {
            RunStatus.CLIENT: "CLIENT",
            RunStatus.BROKER: "BROKER",
            RunStatus.ERROR: "ERROR",
            RunStatus.OUTSIDE: "outside",
            RunStatus.UNKNOWN: "unknown",
            RunStatus.REFUSED: "n/a",
            RunStatus.HOLDS: "holds",
        }[self]


def status_of(report: DeliveryReport) -> RunStatus:
    """The most serious outcome of one delivery report."""
    found = {a.attribution for a in report.anomalies}
    if Attribution.CLIENT in found:
        return RunStatus.CLIENT
    if Attribution.BROKER in found:
        return RunStatus.BROKER
    if Attribution.OUTSIDE_GUARANTEE in found:
        return RunStatus.OUTSIDE
    if any(v.outcome is Outcome.UNKNOWN for v in report.verdicts):
        return RunStatus.UNKNOWN
    return RunStatus.HOLDS


@attrs.frozen
class RunResult:
    """One trace run on one client against one broker, judged."""

    name: str
    """The table row's name, or ``generated`` for a Hypothesis example."""
    client: str
    broker: str
    trace: ProducerTrace
    status: RunStatus
    number: str | None = None
    """The trace table row number (``docs/spec/idempotence.md`` §5.2), when it is a row."""
    verdicts: tuple[tuple[str, str, str], ...] = ()
    """(property id, outcome, most serious attribution or "") per property."""
    anomalies: tuple[Anomaly, ...] = ()
    notes: tuple[str, ...] = ()
    """How the client approximated settings, completions it reported twice, ..."""
    counts: tuple[tuple[str, int], ...] = ()
    """How many sends were acked, failed, indeterminate, left pending."""
    error: str = ""
    saved_to: str | None = None
    duration_s: float = 0.0

    @property
    def client_anomalies(self) -> tuple[Anomaly, ...]:
        return tuple(a for a in self.anomalies if a.attribution is Attribution.CLIENT)

    @property
    def could_not_start(self) -> bool:
        """The client never started against this broker (an incompatibility, as kafka-python's
        bootstrap from librdkafka's mock): every further run would wait out the same timeout."""
        return self.status is RunStatus.ERROR and "could not start" in self.error

    def summary(self) -> str:
        """One cell of a table: the status and the names of the anomalies behind it."""
        if self.status in (RunStatus.CLIENT, RunStatus.BROKER, RunStatus.OUTSIDE):
            wanted = {RunStatus.CLIENT: Attribution.CLIENT, RunStatus.BROKER: Attribution.BROKER}.get(
                self.status, Attribution.OUTSIDE_GUARANTEE
            )
            names = sorted({a.name for a in self.anomalies if a.attribution is wanted})
            return f"{self.status.short}:{','.join(names)}" if names else self.status.short
        return self.status.short


@attrs.frozen
class ProducerReport:
    """``check producer`` for one client: generated traces, and optionally the trace table."""

    client: str
    broker: str
    kafka_version: str
    seed: int | None
    examples: int
    """Generated traces actually run."""
    counterexample: RunResult | None = None
    """The shrunk generated trace the client violated, if any."""
    table: tuple[RunResult, ...] = ()
    errors: tuple[str, ...] = ()
    """Runs that crashed during generation (the first few), by message."""
    duration_s: float = 0.0
    refused: int = 0
    """Generated traces that could not run at all (the client refused its configuration, or
    cannot run against this broker): not evidence either way."""
    refusal: str | None = None
    """Why the first of them could not run."""
    outside: int = 0
    """Generated traces whose anomalies KIP-185 allows under the trace (no idempotence, acks below
    all, a single replica, ...): reported, never a violation."""
    guarantees: tuple[str, ...] = ()
    """The delivery guarantees (the checker's property ids) judged on at least one run."""

    @property
    def nothing_ran(self) -> bool:
        """Every generated trace (and table row) was refused: the run checked nothing."""
        generated_refused = self.examples > 0 and self.refused >= self.examples
        table_refused = all(r.status is RunStatus.REFUSED for r in self.table)
        return (generated_refused or self.examples == 0) and table_refused and (self.examples > 0 or bool(self.table))

    @property
    def failures(self) -> tuple[RunResult, ...]:
        rows = [r for r in self.table if r.status is RunStatus.CLIENT]
        if self.counterexample is not None:
            rows.insert(0, self.counterexample)
        return tuple(rows)

    @property
    def exit_code(self) -> int:
        """0: nothing attributed to the client; 1: a client violation (or a run error); 2: nothing
        could run (a configuration the client refuses, a client that cannot run here)."""
        errored = self.errors or any(r.status is RunStatus.ERROR for r in self.table)
        if self.failures or errored:
            return 1
        return 2 if self.nothing_ran else 0

    @property
    def verdict(self) -> str:
        if self.failures:
            return "violates"
        if self.exit_code == 2:
            return "could not run"
        return "error" if self.exit_code else "conforms"


@attrs.frozen
class MatrixReport:
    """Every real client x every broker through the trace table: which guarantees hold where."""

    columns: tuple[str, ...]
    """``client@broker``, in order."""
    rows: tuple[tuple[str, tuple[RunResult | None, ...]], ...]
    """(row label, one result per column; None when that column could not run the row)."""
    skipped: tuple[str, ...] = ()
    """Columns that could not run here, with why."""
    duration_s: float = 0.0

    @property
    def exit_code(self) -> int:
        bad = (RunStatus.CLIENT, RunStatus.BROKER, RunStatus.ERROR)
        return 1 if any(r is not None and r.status in bad for _, results in self.rows for r in results) else 0
