"""Broker producer state per (partition, producer id), and the checks a client batch meets.

This is the heart of the idempotent broker (``docs/spec/idempotence.md`` §1.3), written so each
step can be read against ``ProducerStateEntry`` / ``ProducerAppendInfo`` /
``UnifiedLog.analyzeAndValidateProducerState``:

1. **Duplicate first.**  Same epoch as the entry and *exactly* the same first
   and last sequence as one of the cached batches → success with that batch's
   original offsets; nothing is appended.  Overlapping ranges are not duplicates.
2. **Epoch.**  Lower than the entry's → INVALID_PRODUCER_EPOCH.
3. **Sequence.**  A different (so higher) epoch must start at 0, unless the
   broker has no epoch at all for the producer; the same epoch must continue at
   last + 1, wrapping past ``Int.MAX`` to 0.  Otherwise OUT_OF_ORDER_SEQUENCE_NUMBER.
4. **Commit** (only after the log append): a new epoch clears the cached
   batches; the new batch's metadata is added, the oldest beyond five dropped.

Version differences come from :class:`~broker_profile.BrokerProfile` flags.
Replicated batches (origin REPLICATION) skip steps 1-3 and only commit, which is
how a follower holds the dedup window for everything it replicated.
"""

from __future__ import annotations

import enum

import attrs

from kafka_conformance.reference.broker.batches import (
    INT32_MAX,
    NO_PRODUCER_EPOCH,
    NO_SEQUENCE,
    ProducerBatch,
    increment_sequence,
    java_int,
)
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = [
    "BatchCheck",
    "BatchMetadata",
    "CheckKind",
    "ProducerEntry",
    "check_client_batch",
    "in_sequence",
    "is_expired",
    "record_batch",
]


def in_sequence(last_seq: int, next_seq: int) -> bool:
    """``ProducerAppendInfo.inSequence``: next is last + 1, or 0 after ``Int.MAX``."""
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)


@attrs.frozen
class BatchMetadata:
    """One cached batch: enough to answer a duplicate with the original offsets."""

    first_seq: int
    last_seq: int
    last_offset: int
    offset_delta: int
    """``lastOffset - firstOffset``; before 2.2 (KAFKA-7692) it was ``lastSeq - firstSeq``
    as a Java int, which is wrong for a batch spanning the sequence wrap."""
    timestamp_ms: int

    @property
    def first_offset(self) -> int:
        return self.last_offset - self.offset_delta


@attrs.frozen
class ProducerEntry:
    """The state of one producer id on one partition."""

    producer_id: int
    epoch: int = NO_PRODUCER_EPOCH
    batches: tuple[BatchMetadata, ...] = ()
    """Oldest first, at most ``window_size`` of them, all of the current epoch."""
    last_timestamp_ms: int = -1

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else NO_SEQUENCE

    @property
    def first_seq(self) -> int:
        return self.batches[0].first_seq if self.batches else NO_SEQUENCE

    @property
    def last_offset(self) -> int:
        return self.batches[-1].last_offset if self.batches else -1

    def as_snapshot(self) -> ProducerEntry:
        """What a producer snapshot file keeps of this entry: the epoch, the timestamp and the
        *last* batch only (one ``LastSequence``/``LastOffset``/``OffsetDelta`` per producer in the
        snapshot schema, the same from 0.11 to 4.x: ``ProducerStateManager.writeSnapshot``, read
        back as one ``BatchMetadata`` by ``readSnapshot``,
        ``storage/.../ProducerStateManager.java@3.9.0-rc3:648-679``, ``Log.scala@1.0.1``'s
        ``ProducerStateManager.scala``).  The four older batches of the window are gone."""
        return attrs.evolve(self, batches=self.batches[-1:])

    def find_duplicate(self, batch: ProducerBatch) -> BatchMetadata | None:
        """``findDuplicateBatch``: same epoch and exactly the same sequence range."""
        if batch.producer_epoch != self.epoch:
            return None
        for cached in self.batches:
            if (cached.first_seq, cached.last_seq) == (batch.base_sequence, batch.last_sequence):
                return cached
        return None


class CheckKind(enum.Enum):
    APPEND = "append"
    DUPLICATE = "duplicate"
    REJECT = "reject"


@attrs.frozen
class BatchCheck:
    """What the broker does with one client batch, and which rule decided it."""

    kind: CheckKind
    error: ProduceError
    rule: str
    duplicate_of: BatchMetadata | None = None


def _append(rule: str) -> BatchCheck:
    return BatchCheck(CheckKind.APPEND, ProduceError.NONE, rule)


def _reject(error: ProduceError, rule: str) -> BatchCheck:
    return BatchCheck(CheckKind.REJECT, error, rule)


def check_client_batch(
    entry: ProducerEntry | None,
    batch: ProducerBatch,
    profile: BrokerProfile,
    *,
    partition_ever_held_records: bool = True,
) -> BatchCheck:
    """Steps 1-3 for a client (origin CLIENT) batch carrying a producer id."""
    # 1. duplicate of a cached batch: answered with the original offsets, nothing appended
    if entry is not None:
        cached = entry.find_duplicate(batch)
        if cached is not None:
            return BatchCheck(CheckKind.DUPLICATE, ProduceError.NONE, "exact duplicate of a cached batch", cached)
    stored_epoch = entry.epoch if entry is not None else NO_PRODUCER_EPOCH
    # 2. fencing
    if batch.producer_epoch < stored_epoch:
        return _reject(ProduceError.INVALID_PRODUCER_EPOCH, f"epoch {batch.producer_epoch} < stored epoch {stored_epoch}")
    # 3. sequence
    first = batch.base_sequence
    if stored_epoch == NO_PRODUCER_EPOCH:
        return _check_unknown_producer(first, profile, partition_ever_held_records)
    if batch.producer_epoch != stored_epoch:
        if first != 0:
            return _reject(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, f"new epoch {batch.producer_epoch} must start at 0, not {first}")
        return _append("new epoch starts at sequence 0")
    assert entry is not None
    last = entry.last_seq
    if last == NO_SEQUENCE and first != 0:
        if profile.unknown_producer_when_sequence_unknown:
            return _reject(ProduceError.UNKNOWN_PRODUCER_ID, "epoch known but no sequence cached (KAFKA-7298)")
        return _reject(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, f"no batch cached for epoch {stored_epoch}: expected 0, got {first}")
    if profile.duplicate_sequence_below_window and _below_window(entry, batch):
        return _reject(ProduceError.DUPLICATE_SEQUENCE_NUMBER, "below the cached window (1.0.0/1.0.1 only)")
    if not in_sequence(last, first):
        expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)
        return _reject(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, f"expected sequence {expected}, got {first}")
    return _append(f"continues the epoch at sequence {first}")


def _check_unknown_producer(first: int, profile: BrokerProfile, ever_held_records: bool) -> BatchCheck:
    """No state for this producer id on the partition (new producer, expired, or lost)."""
    if first == 0:
        return _append("no state for the producer; sequence 0")
    if profile.unknown_producer_on_empty_state:
        return _reject(ProduceError.UNKNOWN_PRODUCER_ID, f"no state for the producer and sequence {first} != 0 (before 2.5)")
    if profile.fresh_partition_requires_sequence_zero and not ever_held_records:
        return _reject(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, f"fresh partition accepts only sequence 0, got {first} (KAFKA-15591)")
    return _append(f"no state for the producer: any first sequence accepted, got {first} (KIP-360)")


def _below_window(entry: ProducerEntry, batch: ProducerBatch) -> bool:
    """1.0.x ``isDuplicate`` first clause: the batch ends before the oldest cached batch."""
    last = batch.last_sequence
    return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq


def record_batch(
    entry: ProducerEntry | None,
    batch: ProducerBatch,
    first_offset: int,
    profile: BrokerProfile,
) -> ProducerEntry:
    """Step 4, after a successful append (client) or for a replicated batch: the new state."""
    current = entry if entry is not None else ProducerEntry(batch.producer_id)
    last_offset = first_offset + batch.record_count - 1
    delta = last_offset - first_offset
    if profile.wrapped_batch_offset_bug:  # KAFKA-7692: the delta came from the sequences
        delta = java_int(batch.last_sequence - batch.base_sequence)
    metadata = BatchMetadata(batch.base_sequence, batch.last_sequence, last_offset, delta, batch.timestamp_ms)
    kept = current.batches if batch.producer_epoch == current.epoch else ()
    kept = (*kept, metadata)[-profile.window_size :]
    return ProducerEntry(batch.producer_id, batch.producer_epoch, kept, batch.timestamp_ms)


def is_expired(entry: ProducerEntry, now_ms: int, expiration_ms: int) -> bool:
    """``isProducerExpired`` for a non-transactional producer: idle at least the expiry time."""
    return now_ms - entry.last_timestamp_ms >= expiration_ms
