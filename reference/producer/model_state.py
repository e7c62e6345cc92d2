"""Bookkeeping of the model producer: its configuration, its batches and its per-partition sequence state.

Kept apart from the state machine (:mod:`producer_model`) so that the rules
there read as rules.  Batches are mutable (a batch *is* retried, re-stamped
and completed); everything that leaves the producer is frozen.

Two facts decide what a batch may still do, and both are tracked here:

* its **stamp** (producer id, epoch, base sequence), given once when the batch
  is first drained and kept on every retry - re-stamping a batch that may be in
  the log is how idempotent producers write duplicates (KAFKA-14034);
* whether it **may be written** (``maybe_written``): some attempt was handled by
  a broker or went unanswered.  Only a batch known *not* to be written may be
  re-stamped after an epoch bump, or be reported as a definite failure.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Mapping

import attrs

from kafka_conformance.reference.broker.batches import INT32_MAX, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, ProducerBatch
from kafka_conformance.reference.producer.config_values import EffectiveConfig
from kafka_conformance.reference.traces.events import Completion

__all__ = ["BatchState", "ModelBatch", "ModelConfig", "PartitionState"]


@attrs.frozen
class ModelConfig:
    """The settings the model producer reads (Java property semantics)."""

    idempotence: bool = True
    acks: int = -1
    retries: int = INT32_MAX
    max_in_flight: int = 5
    request_timeout_ms: int = 30_000
    delivery_timeout_ms: int = 120_000
    linger_ms: int = 0
    retry_backoff_ms: int = 100

    def __attrs_post_init__(self) -> None:
        if self.acks not in (-1, 0, 1):
            raise ValueError(f"acks={self.acks}: one of -1 (all), 0, 1")
        if self.max_in_flight < 1 or self.request_timeout_ms < 1 or self.delivery_timeout_ms < 1:
            raise ValueError("max.in.flight, request.timeout.ms and delivery.timeout.ms must be positive")
        if self.retries < 0 or self.linger_ms < 0 or self.retry_backoff_ms < 0:
            raise ValueError("retries, linger.ms and retry.backoff.ms must not be negative")

    @classmethod
    def from_effective(cls, cfg: EffectiveConfig, properties: Mapping[str, str] | None = None) -> ModelConfig:
        """From the client's effective configuration; ``retry.backoff.ms`` (not resolved by
        :func:`~producer_config.explain_config`) is read from ``properties``, default 100."""

        def number(key: str, default: int) -> int:
            setting = cfg.get(key)
            return default if setting is None else int(float(setting.value))

        backoff = (properties or {}).get("retry.backoff.ms", "100")
        try:
            retry_backoff = int(backoff)
        except ValueError:
            raise ValueError(f"retry.backoff.ms={backoff!r}: expected an integer") from None
        return cls(
            cfg.idempotent,
            cfg.acks,
            cfg.retries,
            cfg.max_in_flight,
            number("request.timeout.ms", 30_000),
            number("delivery.timeout.ms", 120_000),
            number("linger.ms", 0),
            retry_backoff,
        )


class BatchState(enum.Enum):
    QUEUED = "queued"
    """Waiting to be sent (again) under its stamp."""
    SENT = "sent"
    """One request carrying it is outstanding."""
    PARKED = "parked"
    """Known not written; waits for an epoch bump to be re-stamped from sequence 0."""
    HOLE = "hole"
    """Completed to the application without an ack; never sent again.  Kept until its fate
    is settled, because it blocks new sequences (an unresolved sequence, Java's term)."""


@attrs.define
class ModelBatch:
    values: tuple[str, ...]
    partition: int
    created_ms: int
    state: BatchState = BatchState.QUEUED
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH
    base_sequence: int = NO_SEQUENCE
    ordinal: int = -1
    """Position of the first record in the partition's current (pid, epoch) run; unlike the
    sequence it never wraps, so "earlier" is a plain comparison."""
    attempts: int = 0
    maybe_written: bool = False
    """Some attempt under the current stamp may be in the log (OUT_OF_ORDER_SEQUENCE_NUMBER on a
    retry clears it: inside the guarantee the broker's window would have matched it)."""
    possibly_appended: bool = False
    """Some attempt ever got an answer other than a definite "not written", or none; never
    cleared.  Decides Failed vs Indeterminate, which must hold even outside the guarantee
    (after producer-id expiry an OUT_OF_ORDER_SEQUENCE_NUMBER proves nothing)."""
    retry_at_ms: int = 0
    done: bool = False
    """The application has its completion (the batch may still be in flight)."""
    reset: bool = False
    """Re-stamped by an epoch bump (Java's ``sequenceHasBeenReset``)."""

    @property
    def record_count(self) -> int:
        return len(self.values)

    @property
    def last_ordinal(self) -> int:
        return self.ordinal + self.record_count - 1

    def wire_batch(self, now_ms: int) -> ProducerBatch:
        return ProducerBatch(self.producer_id, self.producer_epoch, self.base_sequence, self.values, now_ms)


@attrs.define
class PartitionState:
    """Per partition: what Java's ``TxnPartitionEntry`` and the accumulator deque hold."""

    partition: int
    fresh: deque[tuple[str, int]] = attrs.field(factory=deque)
    """Records sent by the application and not yet in a batch: (value, send time)."""
    batches: list[ModelBatch] = attrs.field(factory=list)
    """Stamped (idempotent) or drained (plain) batches not yet acknowledged, oldest first."""
    stamp_pid: int = NO_PRODUCER_ID
    stamp_epoch: int = NO_PRODUCER_EPOCH
    next_sequence: int = 0
    next_ordinal: int = 0
    last_acked_ordinal: int = -1
    bump_needed: bool = False
    order: deque[str] = attrs.field(factory=deque)
    """Values in send order whose completion the application has not seen yet."""
    finished: dict[str, Completion] = attrs.field(factory=dict)
    """Completions held back until every earlier send of the partition completed (G-ORD)."""

    def in_state(self, *states: BatchState) -> list[ModelBatch]:
        return [b for b in self.batches if b.state in states]

    def unsettled(self) -> bool:
        """A batch is out or waiting to go out under its current stamp."""
        return any(b.state in (BatchState.SENT, BatchState.QUEUED) for b in self.batches)
