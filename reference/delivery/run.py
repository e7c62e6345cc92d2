"""What the delivery checker knows about a run: the configuration's promises and an index of the trace.

:class:`DeliveryConfig` says what the producer and topic promised (KIP-185):
each ``*_gap`` method names why a property is *not* promised, or returns None.
:class:`TraceIndex` indexes one trace and final log once, validating that the
trace can describe a real run (unique values, one completion per send).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from kafka_conformance.reference.broker.batches import INT32_MAX, LogRecord, increment_sequence
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Outcome, Property, Verdict
from kafka_conformance.reference.producer.config_values import EffectiveConfig
from kafka_conformance.reference.traces.events import (
    Acked,
    Attempt,
    Completion,
    Event,
    Failed,
    Fault,
    FaultKind,
    Indeterminate,
    Response,
    Send,
    TraceError,
)

__all__ = ["LOSS_FAULTS", "STATE_FAULTS", "DeliveryConfig", "TraceIndex", "verdict_of"]

BROKER, CLIENT, OUTSIDE = Attribution.BROKER, Attribution.CLIENT, Attribution.OUTSIDE_GUARANTEE
LOSS_FAULTS = (FaultKind.HARD_FAILURE, FaultKind.CONCURRENT_FAILURE, FaultKind.UNCLEAN_ELECTION)
"""Faults that may lose acknowledged writes."""
STATE_FAULTS = (*LOSS_FAULTS, FaultKind.PRODUCER_ID_EXPIRED)
"""Faults that may also lose the broker's producer state (so dedup and sequence checks)."""


@attrs.frozen
class DeliveryConfig:
    """What the producer and topic were configured with: it decides what is promised."""

    idempotence: bool = True
    acks: int = -1
    retries: int = INT32_MAX
    max_in_flight: int = 5
    replication_factor: int = 3
    min_insync_replicas: int = 2
    unclean_leader_election: bool = False
    delivery_timeout_ms: int = 120_000
    liveness_slack_ms: int = 30_000

    @classmethod
    def from_effective(
        cls,
        cfg: EffectiveConfig,
        *,
        replication_factor: int = 3,
        min_insync_replicas: int = 2,
        unclean_leader_election: bool = False,
    ) -> DeliveryConfig:
        """From an :class:`EffectiveConfig` plus the topic's settings."""
        timeout = cfg.get("delivery.timeout.ms")
        return cls(
            cfg.idempotent,
            cfg.acks,
            cfg.retries,
            cfg.max_in_flight,
            replication_factor,
            min_insync_replicas,
            unclean_leader_election,
            int(float(timeout.value)) if timeout is not None else 120_000,
        )

    def durability_gap(self) -> str | None:
        """Why acknowledged writes may be lost without a fault (KIP-185), if they may."""
        if self.acks != -1:
            return f"acks={self.acks}: at most once (KIP-185)"
        if self.replication_factor < 2:
            return "replication factor 1: at most once (KIP-185)"
        if self.min_insync_replicas < 2:
            return "min.insync.replicas=1: an acknowledged write may live on one replica"
        if self.unclean_leader_election:
            return "unclean.leader.election.enable=true"
        return None

    def duplication_gap(self) -> str | None:
        if not self.idempotence and self.retries > 0:
            return "idempotence off: internal retries may write duplicates"
        return None

    def order_gap(self) -> str | None:
        if not self.idempotence and self.max_in_flight > 1 and self.retries > 0:
            return "idempotence off with retries and more than one request in flight"
        return None


class TraceIndex:
    """Indexes of one trace and final log (built once per check)."""

    def __init__(self, trace: Sequence[Event], final_log: Mapping[int, Sequence[LogRecord]], log_start: Mapping[int, int]) -> None:
        self.sends: dict[str, Send] = {}
        self.completions: dict[str, tuple[int, Completion]] = {}
        self.attempts: dict[str, list[tuple[Attempt, int]]] = {}
        self.responses: dict[int, list[Response]] = {}
        self.faults: list[Fault] = []
        for position, event in enumerate(trace):
            self._index(position, event)
        self.log = {p: sorted(records, key=lambda r: r.offset) for p, records in final_log.items()}
        self.log_start = dict(log_start)
        self.copies: dict[str, list[tuple[int, LogRecord]]] = {}
        for p, records in self.log.items():
            for r in records:
                self.copies.setdefault(r.value, []).append((p, r))
        self.end_ms = max((getattr(e, "time_ms", 0) for e in trace), default=0)
        self._logged: dict[tuple[int, int, int, int], str] | None = None

    def _index(self, position: int, event: Event) -> None:
        if isinstance(event, Send):
            if event.value in self.sends:
                raise TraceError(f"value {event.value!r} sent twice; values must be unique (use resend_of)")
            self.sends[event.value] = event
        elif isinstance(event, (Acked, Failed, Indeterminate)):
            if event.value not in self.sends:
                raise TraceError(f"completion of {event.value!r} before any send of it")
            if event.value in self.completions:
                raise TraceError(f"{event.value!r} completed twice")
            self.completions[event.value] = (position, event)
        elif isinstance(event, Attempt):
            for index, value in enumerate(event.values):
                self.attempts.setdefault(value, []).append((event, index))
        elif isinstance(event, Response):
            self.responses.setdefault(event.attempt_id, []).append(event)
        else:
            self.faults.append(event)

    def fault(self, partition: int, kinds: Iterable[FaultKind]) -> str | None:
        wanted = set(kinds)
        for f in self.faults:
            if f.kind in wanted and f.partition in (None, partition):
                return f"{f.kind.value} at {f.time_ms} ms (KIP-185)"
        return None

    def outcome(self, value: str) -> Completion | None:
        found = self.completions.get(value)
        return None if found is None else found[1]

    def success_offsets(self, value: str) -> list[int] | None:
        """Offsets the broker reported for ``value`` on successful attempts, or None without wire events."""
        attempts = self.attempts.get(value, [])
        if not any(a.attempt_id in self.responses for a, _ in attempts):
            return None
        return [
            r.base_offset + index if r.base_offset >= 0 else -1
            for a, index in attempts
            for r in self.responses.get(a.attempt_id, [])
            if r.error.is_success
        ]

    def in_log(self, value: str) -> list[tuple[int, LogRecord]]:
        return self.copies.get(value, [])

    def logged_stamps(self) -> dict[tuple[int, int, int, int], str]:
        """(partition, pid, epoch, sequence) -> the value the log holds under that stamp."""
        if self._logged is None:
            self._logged = {(p, r.producer_id, r.producer_epoch, r.sequence): r.value
                            for p, records in self.log.items() for r in records if r.producer_id >= 0}
        return self._logged

    def stamp_taken(self, value: str) -> tuple[str, tuple[int, int, int]] | None:
        """(another value, the stamp) when the client stamped ``value`` with a (pid, epoch, sequence) under
        which the log holds a different value, else None.

        A broker identifies a batch by its producer id, epoch and sequence (KIP-98), so answering a batch
        carrying the stamp of one already written as that one's duplicate is right: whatever ``value``
        then lacks in the log, the client lost it by reusing a written stamp. (Reusing the stamp of an
        attempt that was refused, and so not written, is right too, and no reason to blame the client.)"""
        logged = self.logged_stamps()
        for attempt, index in self.attempts.get(value, []):
            if attempt.producer_id < 0 or attempt.base_sequence < 0:
                continue
            stamp = (attempt.producer_id, attempt.producer_epoch, increment_sequence(attempt.base_sequence, index))
            other = logged.get((attempt.partition, *stamp))
            if other is not None and other != value:
                return other, stamp
        return None


def verdict_of(prop: Property, anomalies: list[Anomaly], unknown: str = "") -> Verdict:
    if anomalies:
        return Verdict(prop, Outcome.VIOLATED, tuple(anomalies))
    return Verdict(prop, Outcome.UNKNOWN, note=unknown) if unknown else Verdict(prop, Outcome.HOLDS)
