"""Results as structured values: divergences, counterexamples, property results, reports.

Renderers (terminal, JSON, JUnit XML) are separate functions over these values
(:mod:`kafka_conformance.authorizer.render`), so every output says the same thing and a
saved case can be replayed without re-parsing prose.
"""

from __future__ import annotations

import builtins
import enum

import attrs

from kafka_conformance.authorizer.cases import Scenario

__all__ = [
    "Agreement",
    "Counterexample",
    "Divergence",
    "PropertyResult",
    "Report",
    "Status",
    "Verdict",
]


class Status(enum.Enum):
    PASSED = "passed"
    FAILED = "failed"
    """The target disagreed with Kafka's semantics."""
    ERROR = "error"
    """The target could not answer (crash, timeout, malformed answer)."""
    SKIPPED = "skipped"
    """Out of the target's declared scope."""


class Verdict(enum.Enum):
    CONFORMS = "conforms"
    DIVERGES = "diverges"
    ERROR = "error"

    @property
    def exit_code(self) -> int:
        return {Verdict.CONFORMS: 0, Verdict.DIVERGES: 1, Verdict.ERROR: 1}[self]


@attrs.frozen
class Divergence:
    """One question the target answered differently from the specification."""

    anomaly: str
    question: str
    expected: str
    actual: str
    explanation: str
    """Why the expected answer is right (the reference's explanation)."""
    step: str = ""
    """For stateful properties: where in the sequence it happened."""


@attrs.frozen
class Agreement:
    """Which modelled Kafka releases (``flavour@release``, oldest first) answer a minimal case as the
    implementation did, and which as expected (:mod:`kafka_conformance.authorizer.releases.agreement`)."""

    alike: tuple[str, ...]
    expected: tuple[str, ...]

    def describe(self) -> str:
        """One line, the releases as runs per flavour: ``acl 2.0.0-2.7.2, standard 3.2.0``."""
        return (f"Kafka releases answering as this implementation did: {_runs(self.alike) or 'none'}; "
                f"as expected: {_runs(self.expected) or 'none'}")


def _runs(profiles: tuple[str, ...]) -> str:
    """Consecutive modelled releases of one flavour as a range; a gap starts a new one."""
    from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES

    index = {str(v): i for i, v in enumerate(APACHE_KAFKA_RELEASES)}
    runs: list[tuple[str, str, str, int]] = []  # flavour, first, last, index of last
    for name in profiles:
        flavour, _, release = name.partition("@")
        at = index.get(release, -2)
        if runs and runs[-1][0] == flavour and runs[-1][3] == at - 1:
            runs[-1] = (flavour, runs[-1][1], release, at)
        else:
            runs.append((flavour, release, release, at))
    return ", ".join(f"{f} {a}" + (f"-{b}" if b != a else "") for f, a, b, _ in runs)


@attrs.frozen
class Counterexample:
    """A minimal (shrunk) case that shows a divergence or an adapter error, replayable."""

    property: str
    scenario: Scenario
    divergence: Divergence | None = None
    adapter_error: str | None = None
    """For Status.ERROR: what went wrong talking to the target."""
    agreement: Agreement | None = None
    """For a divergence: which Kafka releases answer the case as the target did."""

    @builtins.property  # the field named `property` shadows the builtin in this class body
    def anomaly(self) -> str:
        if self.divergence is not None:
            return self.divergence.anomaly
        return "adapter-error"


@attrs.frozen
class PropertyResult:
    name: str
    status: Status
    examples: int = 0
    counterexample: Counterexample | None = None
    reason: str = ""
    """For SKIPPED: why; for ERROR outside a case: what failed."""
    saved_to: str | None = None


@attrs.frozen
class Report:
    target: str
    """The full target spec, as given (what a saved case and the JSON report keep to run it again)."""
    profile: str
    seed: int | None
    results: tuple[PropertyResult, ...]
    coverage: tuple[tuple[str, int], ...] = ()
    """How often each interesting branch was exercised (vacuity guard)."""
    not_exercised: tuple[str, ...] = ()
    domain: tuple[tuple[str, int], ...] = ()
    """How many examples reached each input class (:mod:`~kafka_conformance.authorizer.domain.classes`)."""
    domain_missing: tuple[str, ...] = ()
    """Input classes that apply to the target and that the run never reached."""
    out_of_scope: tuple[str, ...] = ()
    duration_s: float = 0.0
    label: str = ""
    """The target as a person reads it (:func:`~kafka_conformance.authorizer.targets.short_label`)."""

    @property
    def name(self) -> str:
        return self.label or self.target

    @property
    def verdict(self) -> Verdict:
        statuses = {r.status for r in self.results}
        if Status.FAILED in statuses:
            return Verdict.DIVERGES
        if Status.ERROR in statuses:
            return Verdict.ERROR
        return Verdict.CONFORMS

    @property
    def exit_code(self) -> int:
        return self.verdict.exit_code

    @property
    def failures(self) -> tuple[PropertyResult, ...]:
        return tuple(r for r in self.results if r.status in (Status.FAILED, Status.ERROR))
