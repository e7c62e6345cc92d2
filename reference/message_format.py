"""Sizes of uncompressed v2 record batches and of v0/v1 message sets, and their overhead.

Why it is here: idempotence needs message format v2 (KIP-98), and the first
objection to making it the default was cost.  v2 moved the producer id, epoch,
sequence and the timestamps into one 61-byte batch header and made each
record's own fields varints, so per-record overhead fell from 26 (v0) or 34
(v1) bytes to 7 bytes for a small record, while a lone record pays more.  The
numbers below are computed from the format definitions
(``DefaultRecordBatch.RECORD_BATCH_OVERHEAD``, ``DefaultRecord.sizeInBytes``,
``LegacyRecord.RECORD_OVERHEAD_V0/V1``, ``Records.LOG_OVERHEAD``), not copied
from the KIP; compression is not modelled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

__all__ = [
    "LOG_OVERHEAD",
    "RECORD_BATCH_OVERHEAD",
    "OverheadRow",
    "batch_size_v2",
    "message_set_size",
    "overhead_table",
    "record_size_v2",
    "varint_size",
]

LOG_OVERHEAD = 12
"""Offset (8) and size (4) in front of every v0/v1 message and every v2 batch."""
RECORD_OVERHEAD_V0 = 14
"""crc 4, magic 1, attributes 1, key length 4, value length 4."""
RECORD_OVERHEAD_V1 = 22
"""v0 plus an 8-byte timestamp."""
RECORD_BATCH_OVERHEAD = 61
"""baseOffset 8, length 4, partitionLeaderEpoch 4, magic 1, crc 4, attributes 2,
lastOffsetDelta 4, baseTimestamp 8, maxTimestamp 8, producerId 8, producerEpoch 2,
baseSequence 4, record count 4."""


def varint_size(value: int) -> int:
    """Bytes of a zig-zag varint (``ByteUtils.sizeOfVarint``/``sizeOfVarlong``)."""
    zigzag = (value << 1) ^ (value >> 63)
    size = 1
    while zigzag >= 0x80:
        zigzag >>= 7
        size += 1
    return size


def record_size_v2(
    key_size: int,
    value_size: int,
    *,
    offset_delta: int = 0,
    timestamp_delta: int = 0,
    headers: Iterable[tuple[int, int]] = (),
) -> int:
    """One v2 record; a size of -1 is a null key or value; headers are (key size, value size)."""
    headers = tuple(headers)
    body = 1 + varint_size(offset_delta) + varint_size(timestamp_delta)
    body += _field(key_size) + _field(value_size) + varint_size(len(headers))
    body += sum(_field(k) + _field(v) for k, v in headers)
    return varint_size(body) + body


def _field(size: int) -> int:
    return varint_size(size) + max(size, 0)


def batch_size_v2(records: Sequence[tuple[int, int]]) -> int:
    """An uncompressed v2 batch of (key size, value size) records, same timestamp, headerless."""
    return RECORD_BATCH_OVERHEAD + sum(record_size_v2(k, v, offset_delta=i) for i, (k, v) in enumerate(records))


def message_set_size(magic: int, records: Sequence[tuple[int, int]]) -> int:
    """An uncompressed v0 or v1 message set of (key size, value size) records."""
    if magic not in (0, 1):
        raise ValueError(f"message sets are magic 0 or 1, not {magic}")
    overhead = LOG_OVERHEAD + (RECORD_OVERHEAD_V0 if magic == 0 else RECORD_OVERHEAD_V1)
    return sum(overhead + max(k, 0) + max(v, 0) for k, v in records)


@attrs.frozen
class OverheadRow:
    records: int
    payload: int
    v0: int
    v1: int
    v2: int

    def overhead_per_record(self, magic: int) -> float:
        total = (self.v0, self.v1, self.v2)[magic]
        return (total - self.payload) / self.records


def overhead_table(counts: Iterable[int] = (1, 10, 100, 1000), key_size: int = -1, value_size: int = 100) -> tuple[OverheadRow, ...]:
    """Bytes on the wire for ``n`` identical records in each format."""
    rows = []
    for n in counts:
        records = [(key_size, value_size)] * n
        payload = n * (max(key_size, 0) + max(value_size, 0))
        rows.append(OverheadRow(n, payload, message_set_size(0, records), message_set_size(1, records), batch_size_v2(records)))
    return tuple(rows)
