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
    "KIP98_DESIGN_BATCH_OVERHEAD",
    "KIP98_DESIGN_RECORD_OVERHEAD",
    "LOG_OVERHEAD",
    "RECORD_BATCH_OVERHEAD",
    "Field",
    "Kip98Row",
    "OverheadRow",
    "RecordSpec",
    "batch_layout_v2",
    "batch_size_v2",
    "kip98_table",
    "message_set_layout",
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


# --------------------------------------------------------------------------- layouts
#
# Sizes alone could agree with an encoder by accident (two fields off by one in
# opposite directions); a layout names every field and where it starts, so a
# test can read each one back out of real encoder output and compare it with
# the value put in.  That is what "checked byte-for-byte" means here.


@attrs.frozen
class RecordSpec:
    """One record to lay out: sizes -1 mean null; deltas as the producer writes them."""

    key_size: int = -1
    value_size: int = 0
    offset_delta: int = 0
    timestamp_delta: int = 0
    headers: tuple[tuple[int, int], ...] = ()


@attrs.frozen
class Field:
    name: str
    """``batch.<field>`` for the v2 header, ``record[i].<field>`` or ``message[i].<field>`` after it."""
    start: int
    size: int

    @property
    def end(self) -> int:
        return self.start + self.size


_V2_HEADER = (
    ("baseOffset", 8),
    ("batchLength", 4),
    ("partitionLeaderEpoch", 4),
    ("magic", 1),
    ("crc", 4),
    ("attributes", 2),
    ("lastOffsetDelta", 4),
    ("baseTimestamp", 8),
    ("maxTimestamp", 8),
    ("producerId", 8),
    ("producerEpoch", 2),
    ("baseSequence", 4),
    ("recordCount", 4),
)


def _body(r: RecordSpec) -> int:
    body = 1 + varint_size(r.offset_delta) + varint_size(r.timestamp_delta)
    body += _field(r.key_size) + _field(r.value_size) + varint_size(len(r.headers))
    return body + sum(_field(k) + _field(v) for k, v in r.headers)


def batch_layout_v2(records: Sequence[RecordSpec]) -> tuple[Field, ...]:
    """Every field of an uncompressed v2 batch in wire order (``DefaultRecordBatch``/``DefaultRecord``)."""
    fields: list[Field] = []
    at = 0
    for name, size in _V2_HEADER:
        fields.append(Field(f"batch.{name}", at, size))
        at += size
    for i, r in enumerate(records):
        parts = [
            ("length", varint_size(_body(r))),
            ("attributes", 1),
            ("timestampDelta", varint_size(r.timestamp_delta)),
            ("offsetDelta", varint_size(r.offset_delta)),
            ("keyLength", varint_size(r.key_size)),
            ("key", max(r.key_size, 0)),
            ("valueLength", varint_size(r.value_size)),
            ("value", max(r.value_size, 0)),
            ("headerCount", varint_size(len(r.headers))),
        ]
        for h, (k, v) in enumerate(r.headers):
            parts += [
                (f"header[{h}].keyLength", varint_size(k)),
                (f"header[{h}].key", max(k, 0)),
                (f"header[{h}].valueLength", varint_size(v)),
                (f"header[{h}].value", max(v, 0)),
            ]
        for name, size in parts:
            fields.append(Field(f"record[{i}].{name}", at, size))
            at += size
    return tuple(fields)


def message_set_layout(magic: int, records: Sequence[RecordSpec]) -> tuple[Field, ...]:
    """Every field of an uncompressed v0/v1 message set (``LegacyRecord``); deltas are ignored."""
    if magic not in (0, 1):
        raise ValueError(f"message sets are magic 0 or 1, not {magic}")
    fields: list[Field] = []
    at = 0
    for i, r in enumerate(records):
        parts = [("offset", 8), ("messageSize", 4), ("crc", 4), ("magic", 1), ("attributes", 1)]
        if magic == 1:
            parts.append(("timestamp", 8))
        parts += [("keyLength", 4), ("key", max(r.key_size, 0)), ("valueLength", 4), ("value", max(r.value_size, 0))]
        for name, size in parts:
            fields.append(Field(f"message[{i}].{name}", at, size))
            at += size
    return tuple(fields)


# --------------------------------------------------------------------------- KIP-98

KIP98_DESIGN_BATCH_OVERHEAD = 45
"""The message-set header the KIP-98 design proposed, in bytes (its space comparison)."""
KIP98_DESIGN_RECORD_OVERHEAD = 17
"""Per-message overhead of the KIP-98 design for its example (1 KB values, 100-byte keys)."""


@attrs.frozen
class Kip98Row:
    """One batch size of the KIP-98 comparison: totals in bytes, payload excluded from overheads."""

    records: int
    payload: int
    old_v1: int
    design_v2: int
    shipped_v2: int

    def per_record(self, total: int) -> float:
        return (total - self.payload) / self.records

    @property
    def shipped_minus_design(self) -> int:
        return self.shipped_v2 - self.design_v2


def kip98_table(counts: Iterable[int] = (1, 3, 10, 50, 100), key_size: int = 100, value_size: int = 1024) -> tuple[Kip98Row, ...]:
    """KIP-98's space comparison, with the format that actually shipped beside the design.

    The old format is v1 (the current one when KIP-98 was written): 12 bytes of
    log overhead and 22 of message header, 34 per message whatever the batch.
    The design is 45 + 17n.  The shipped v2 is computed from the real layout
    (:func:`batch_layout_v2`, checked against kafka-python's encoder): a 61-byte
    header and, for these sizes, 10 bytes per record (11 from the 64th on).
    """
    rows = []
    for n in counts:
        records = [(key_size, value_size)] * n
        payload = n * (max(key_size, 0) + max(value_size, 0))
        design = KIP98_DESIGN_BATCH_OVERHEAD + n * KIP98_DESIGN_RECORD_OVERHEAD + payload
        rows.append(Kip98Row(n, payload, message_set_size(1, records), design, batch_size_v2(records)))
    return tuple(rows)
