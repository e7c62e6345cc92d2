"""Record batches as the idempotence rules see them, and Kafka's sequence arithmetic.

Only the v2 batch-header fields the broker's producer-state rules read are
modelled (``docs/spec/idempotence.md`` §1.2): producer id, producer epoch, base sequence, the
record count (which fixes ``lastOffsetDelta`` and so the last sequence), the
transactional bit, the magic byte, and a timestamp for producer-id expiry.

Sequences are 32-bit and wrap: the record after ``Int.MAX`` has sequence 0
(``DefaultRecordBatch.incrementSequence``).  Everything here is plain integer
arithmetic so a reader can check it against that one Java method.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

__all__ = [
    "INT32_MAX",
    "NO_PRODUCER_EPOCH",
    "NO_PRODUCER_ID",
    "NO_SEQUENCE",
    "LogRecord",
    "ProducerBatch",
    "increment_sequence",
    "java_int",
]

INT32_MAX = 2**31 - 1
NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
INT16_MAX = 2**15 - 1


def increment_sequence(sequence: int, increment: int) -> int:
    """``sequence + increment``, continuing from 0 past ``Int.MAX`` (never negative)."""
    if sequence > INT32_MAX - increment:
        return increment - (INT32_MAX - sequence) - 1
    return sequence + increment


def java_int(value: int) -> int:
    """``value`` as a Java ``int`` would hold it (two's-complement wrap)."""
    return (value + 2**31) % 2**32 - 2**31


def _values(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        raise TypeError("values must be a sequence of record values, not one string")
    result = tuple(str(v) for v in values)
    if not result:
        raise ValueError("a record batch holds at least one record")
    return result


@attrs.frozen
class ProducerBatch:
    """One batch as a producer sends it (one partition, Produce v3+, magic 2 unless said)."""

    producer_id: int
    producer_epoch: int
    base_sequence: int
    values: tuple[str, ...] = attrs.field(converter=_values)
    """One unique value per record; the delivery checker tracks records by value."""
    timestamp_ms: int = 0
    """The batch's max timestamp; the broker's producer-id expiry clock reads it."""
    transactional: bool = False
    magic: int = 2

    @property
    def record_count(self) -> int:
        return len(self.values)

    @property
    def last_sequence(self) -> int:
        """``baseSequence + lastOffsetDelta`` with wraparound (``DefaultRecordBatch.lastSequence``)."""
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return increment_sequence(self.base_sequence, self.record_count - 1)

    @property
    def has_producer_id(self) -> bool:
        """``hasProducerId()``: batches without one bypass idempotence entirely."""
        return self.producer_id > NO_PRODUCER_ID

    def sequence_of(self, index: int) -> int:
        """The sequence of the ``index``-th record of this batch."""
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return increment_sequence(self.base_sequence, index)

    def describe(self) -> str:
        return (
            f"batch(pid={self.producer_id}, epoch={self.producer_epoch}, "
            f"seq={self.base_sequence}..{self.last_sequence}, {self.record_count} records)"
        )


@attrs.frozen
class LogRecord:
    """One record of a partition's log as a final read returns it."""

    offset: int
    value: str
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH
    sequence: int = NO_SEQUENCE
