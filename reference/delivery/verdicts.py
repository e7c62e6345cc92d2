"""Verdicts of the delivery checker: properties, outcomes, attribution and named anomalies.

Each property of ``docs/spec/idempotence.md`` §3 gets one :class:`Verdict`: it *holds*, is
*violated* (with the anomalies that show it), or is *unknown* (the trace or the
final log cannot settle it).  Every anomaly is attributed, per KIP-185, to the
**broker**, the **client**, or to a run **outside the guarantee** (a hard or
concurrent failure, acks other than all, replication factor 1, an unclean
election, producer-id expiry, a producer restart); only the first two are
conformance failures.

Anomaly names are stable (reports and saved cases key on them):

======================== =========== ===================================================
name                     property    meaning
======================== =========== ===================================================
duplicate                G-AMO       a value appears more than once in the log
lost-write               G-ALO       an acknowledged value is not in the log
reordered                G-ORD       a later-sent value sits at a lower offset
completion-reordered     G-ORD       completions of one partition out of send order
wrong-offset             G-OFF       the acknowledged offset holds another value
failed-write-present     G-DEF       a definitely failed value is in the log
implied-write-lost       G-IMPLIED   a later sequence of the same (pid, epoch) is acked, this one is absent
sequence-gap             L-SEQ       a (pid, epoch) run skips sequences in the log
sequence-overlap         L-SEQ       a (pid, epoch) run repeats or goes back in sequence
bad-epoch-start          L-SEQ       a new epoch's first record does not have sequence 0
epoch-regression         L-EPOCH     a producer's epoch decreases along the log
late-completion          LIVE        completed later than delivery.timeout.ms + slack
stuck-send               LIVE        never completed, and the deadline has passed
wedged-producer          LIVE        after every fault healed, a send still did not succeed
======================== =========== ===================================================
"""

from __future__ import annotations

import enum

import attrs

__all__ = ["DELIVERY_ANOMALIES", "Anomaly", "Attribution", "DeliveryReport", "Outcome", "Property", "Verdict"]


class Property(enum.Enum):
    AT_MOST_ONCE = "G-AMO"
    AT_LEAST_ONCE = "G-ALO"
    EXACTLY_ONCE = "G-EO"
    ORDER = "G-ORD"
    OFFSETS = "G-OFF"
    DEFINITE_FAILURES = "G-DEF"
    IMPLIED_ACK = "G-IMPLIED"
    SEQUENCES = "L-SEQ"
    EPOCHS = "L-EPOCH"
    LIVENESS = "LIVE"


class Outcome(enum.Enum):
    HOLDS = "holds"
    VIOLATED = "violated"
    UNKNOWN = "unknown"


class Attribution(enum.Enum):
    BROKER = "broker"
    CLIENT = "client"
    OUTSIDE_GUARANTEE = "outside-guarantee"

    @property
    def is_failure(self) -> bool:
        return self is not Attribution.OUTSIDE_GUARANTEE


DELIVERY_ANOMALIES: dict[str, tuple[Property, str]] = {
    "duplicate": (Property.AT_MOST_ONCE, "a value appears more than once in the log"),
    "lost-write": (Property.AT_LEAST_ONCE, "an acknowledged value is not in the log"),
    "reordered": (Property.ORDER, "a later-sent value sits at a lower offset"),
    "completion-reordered": (Property.ORDER, "completions of one partition out of send order"),
    "wrong-offset": (Property.OFFSETS, "the acknowledged offset holds another value"),
    "failed-write-present": (Property.DEFINITE_FAILURES, "a definitely failed value is in the log"),
    "implied-write-lost": (Property.IMPLIED_ACK, "a later sequence of the same (pid, epoch) is acked, this one is absent"),
    "sequence-gap": (Property.SEQUENCES, "a (pid, epoch) run skips sequences in the log"),
    "sequence-overlap": (Property.SEQUENCES, "a (pid, epoch) run repeats or goes back in sequence"),
    "bad-epoch-start": (Property.SEQUENCES, "a new epoch's first record does not have sequence 0"),
    "epoch-regression": (Property.EPOCHS, "a producer's epoch decreases along the log"),
    "late-completion": (Property.LIVENESS, "completed later than delivery.timeout.ms + slack"),
    "stuck-send": (Property.LIVENESS, "never completed, and the deadline has passed"),
    "wedged-producer": (Property.LIVENESS, "after every fault healed, a send still did not succeed"),
}
"""The stable names of the table above, with the property each first shows (G-EO reports the
G-AMO and G-ALO ones too): an :class:`Anomaly` refuses any other name."""


@attrs.frozen
class Anomaly:
    name: str = attrs.field()
    prop: Property
    attribution: Attribution
    explanation: str
    partition: int = 0
    values: tuple[str, ...] = ()
    offsets: tuple[int, ...] = ()

    @name.validator
    def _known(self, _attribute: object, name: str) -> None:
        if name not in DELIVERY_ANOMALIES:
            raise ValueError(f"unknown delivery anomaly {name!r}: add it to DELIVERY_ANOMALIES and docs/anomalies.md")

    def describe(self) -> str:
        where = f"p{self.partition}" + (f"@{','.join(map(str, self.offsets))}" if self.offsets else "")
        return f"{self.name} [{self.attribution.value}] {where} {', '.join(self.values)}: {self.explanation}"


_SEVERITY = (Attribution.BROKER, Attribution.CLIENT, Attribution.OUTSIDE_GUARANTEE)


@attrs.frozen
class Verdict:
    prop: Property
    outcome: Outcome
    anomalies: tuple[Anomaly, ...] = ()
    note: str = ""
    """Why the outcome is unknown, or what the property was not promised under."""

    @property
    def attribution(self) -> Attribution | None:
        """The most serious attribution among the anomalies: broker, then client, then outside."""
        found = {a.attribution for a in self.anomalies}
        return next((a for a in _SEVERITY if a in found), None)

    @property
    def conforms(self) -> bool:
        """No broker or client fault (a violation outside the guarantee conforms)."""
        return not any(a.attribution.is_failure for a in self.anomalies)

    def describe(self) -> str:
        head = f"{self.prop.value}: {self.outcome.value}"
        if self.attribution is not None:
            head += f" ({self.attribution.value})"
        if self.note:
            head += f" - {self.note}"
        return "\n".join([head] + [f"  {a.describe()}" for a in self.anomalies])


@attrs.frozen
class DeliveryReport:
    verdicts: tuple[Verdict, ...]

    def __getitem__(self, prop: Property) -> Verdict:
        return next(v for v in self.verdicts if v.prop is prop)

    @property
    def conforms(self) -> bool:
        return all(v.conforms for v in self.verdicts)

    @property
    def anomalies(self) -> tuple[Anomaly, ...]:
        return tuple(a for v in self.verdicts for a in v.anomalies)

    def failures(self) -> tuple[Anomaly, ...]:
        """Anomalies attributed to the broker or the client."""
        return tuple(a for a in self.anomalies if a.attribution.is_failure)

    def describe(self) -> str:
        return "\n".join(v.describe() for v in self.verdicts)
