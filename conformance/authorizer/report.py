"""Results as structured values: divergences, counterexamples, property results, reports.

Renderers (terminal, JSON, JUnit XML) are separate functions over these values
(:mod:`kafka_conformance.authorizer.render`), so every output says the same thing and a
saved case can be replayed without re-parsing prose.
"""

from __future__ import annotations

import builtins
import enum

import attrs

from kafka_conformance.agreement import Agreement
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.signature import Signature, adapter_error_signature, method_of, signature_of
from kafka_conformance.reference.authorizer.profiles import KafkaBugs

__all__ = [
    "Agreement",
    "Counterexample",
    "Divergence",
    "KafkaOwnBug",
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
class KafkaOwnBug:
    """A divergence that is one of Kafka's own bugs (:data:`~kafka_conformance.reference.authorizer.
    profiles.KAFKA_BUGS`): the implementation answers as the claimed release would with that bug
    toggled, that is as Kafka documents (``follows`` DOCUMENTED, the run holding it to the release as
    shipped) or as the release does (``follows`` AS_RELEASED, the run holding it to the documentation)."""

    release: str
    """``3.2.3 (standard)``."""
    bug: str
    """The bug's id: its ticket (``KAFKA-14265``), or a name where there is none."""
    what: str
    follows: KafkaBugs

    def describe(self) -> str:
        if self.follows is KafkaBugs.DOCUMENTED:
            return (f"Kafka's own bug: Kafka {self.release} itself answers otherwise because of {self.bug} ({self.what}); "
                    "this implementation's answer is the documented one. To hold it to the documentation "
                    "instead of the release as shipped: --kafka-bugs documented (check authorizer; "
                    "kafka_bugs='documented' in the pytest plugin and check_authorizer)")
        return (f"Kafka's own bug: this implementation answers as Kafka {self.release} does because of {self.bug} "
                f"({self.what}); the documentation says otherwise, and this run holds it to the documentation "
                "(--kafka-bugs documented). To hold it to the release as shipped: --kafka-bugs as-released")


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
    kafka_bug: KafkaOwnBug | None = None
    """For a divergence: the bug of Kafka's, if any, that alone separates the two answers."""
    error_kind: str = ""
    """For Status.ERROR: the adapter's kind of failure (``timeout``, ``crash``, ``raised``, ...)."""

    @builtins.property  # the field named `property` shadows the builtin in this class body
    def anomaly(self) -> str:
        """The likely cause (:mod:`~kafka_conformance.authorizer.anomalies`): shown beside the
        signature, never the finding's identity."""
        if self.divergence is not None:
            return self.divergence.anomaly
        return "adapter-error"

    @builtins.property
    def signature(self) -> Signature:
        """The finding's identity: what was observed (:mod:`~kafka_conformance.authorizer.signature`)."""
        d = self.divergence
        if d is None:
            return adapter_error_signature(self.property, self.adapter_error or "", self.error_kind)
        return signature_of(self.property, self.scenario, method_of(d.question), d.question, d.expected, d.actual,
                            d.step)


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
