"""The message-format model against kafka-python's real encoders, field by field.

For every generated batch the model's layout is laid over the bytes that
kafka-python's ``DefaultRecordBatchBuilder`` (v2) and ``LegacyRecordBatchBuilder``
(v0/v1) produce: each field must sit exactly where the model says, hold the value
that was put in, and the last field must end at the last byte.  Skips, naming the
extra, when kafka-python is not installed (the ``wire`` tox environment has it).
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance.reference.message_format import (
    Field,
    RecordSpec,
    batch_layout_v2,
    batch_size_v2,
    kip98_table,
    message_set_layout,
    message_set_size,
)

pytest.importorskip("kafka.record.default_records", reason="needs kafka-python: pip install 'kafka-conformance[clients]'")

from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder
from kafka.record.util import decode_varint

BASE_TS = 1_700_000_000_000
sizes = st.one_of(st.just(-1), st.integers(0, 300), st.sampled_from([63, 64, 127, 128, 8191, 8192, 20_000]))


@st.composite
def record_specs(draw: st.DrawFn, *, v2: bool = True) -> list[RecordSpec]:
    n = draw(st.integers(1, 12))
    out = []
    offset = 0
    for i in range(n):
        if i:
            offset += draw(st.sampled_from([1, 1, 1, 63, 64, 5000]) if v2 else st.just(1))
        headers = tuple(draw(st.lists(st.tuples(st.integers(0, 70), sizes), max_size=3))) if v2 else ()
        ts = 0 if i == 0 or not v2 else draw(st.sampled_from([0, 1, -1, 63, 64, -65, 10**6, 2**40]))
        out.append(RecordSpec(draw(sizes), draw(sizes), offset, ts, headers))
    return out


def _payload(size: int, fill: int) -> bytes | None:
    return None if size < 0 else bytes([fill % 251 + 1]) * size


def _fields(layout: tuple[Field, ...]) -> dict[str, Field]:
    return {f.name: f for f in layout}


def _varint(buf: bytes, field: Field) -> int:
    value, end = decode_varint(buf, field.start)
    assert end == field.end, f"{field.name}: varint ends at {end}, the model says {field.end}"
    return int(value)


@settings(max_examples=150, deadline=None)
@given(records=record_specs(), pid=st.integers(0, 2**63 - 1), epoch=st.integers(0, 32767), seq=st.integers(0, 2**31 - 1))
def test_v2_batch_layout_matches_kafka_python_byte_for_byte(records: list[RecordSpec], pid: int, epoch: int, seq: int) -> None:
    builder = DefaultRecordBatchBuilder(2, 0, False, pid, epoch, seq, batch_size=2**31 - 1)
    for i, r in enumerate(records):
        headers = [("k" * k, _payload(v, 7 * i + h)) for h, (k, v) in enumerate(r.headers)]
        builder.append(r.offset_delta, BASE_TS + r.timestamp_delta, _payload(r.key_size, i), _payload(r.value_size, i + 100), headers)
    buf = bytes(builder.build())
    layout = batch_layout_v2(records)
    f = _fields(layout)

    assert len(buf) == layout[-1].end == batch_size_v2_of(records)
    assert struct.unpack_from(">b", buf, f["batch.magic"].start)[0] == 2
    assert struct.unpack_from(">i", buf, f["batch.batchLength"].start)[0] == len(buf) - f["batch.partitionLeaderEpoch"].start
    assert struct.unpack_from(">q", buf, f["batch.producerId"].start)[0] == pid
    assert struct.unpack_from(">h", buf, f["batch.producerEpoch"].start)[0] == epoch
    assert struct.unpack_from(">i", buf, f["batch.baseSequence"].start)[0] == seq
    assert struct.unpack_from(">i", buf, f["batch.recordCount"].start)[0] == len(records)
    assert struct.unpack_from(">i", buf, f["batch.lastOffsetDelta"].start)[0] == records[-1].offset_delta
    assert struct.unpack_from(">q", buf, f["batch.baseTimestamp"].start)[0] == BASE_TS
    for i, r in enumerate(records):
        p = f"record[{i}]."
        record_end = max(x.end for x in layout if x.name.startswith(p))
        assert _varint(buf, f[p + "length"]) == record_end - f[p + "attributes"].start
        assert _varint(buf, f[p + "timestampDelta"]) == r.timestamp_delta
        assert _varint(buf, f[p + "offsetDelta"]) == r.offset_delta
        assert _varint(buf, f[p + "keyLength"]) == r.key_size
        assert buf[f[p + "key"].start : f[p + "key"].end] == (_payload(r.key_size, i) or b"")
        assert _varint(buf, f[p + "valueLength"]) == r.value_size
        assert buf[f[p + "value"].start : f[p + "value"].end] == (_payload(r.value_size, i + 100) or b"")
        assert _varint(buf, f[p + "headerCount"]) == len(r.headers)
        for h, (k, v) in enumerate(r.headers):
            assert _varint(buf, f[f"{p}header[{h}].keyLength"]) == k
            assert _varint(buf, f[f"{p}header[{h}].valueLength"]) == v


def batch_size_v2_of(records: list[RecordSpec]) -> int:
    """The size function (not the layout) must agree too, when records carry no headers or deltas."""
    if any(r.headers or r.timestamp_delta for r in records) or [r.offset_delta for r in records] != list(range(len(records))):
        return batch_layout_v2(records)[-1].end
    return batch_size_v2([(r.key_size, r.value_size) for r in records])


@settings(max_examples=100, deadline=None)
@given(magic=st.sampled_from([0, 1]), records=record_specs(v2=False))
def test_legacy_message_set_layout_matches_kafka_python_byte_for_byte(magic: int, records: list[RecordSpec]) -> None:
    builder = LegacyRecordBatchBuilder(magic, 0, batch_size=2**31 - 1)
    for i, r in enumerate(records):
        builder.append(i, BASE_TS + i, _payload(r.key_size, i), _payload(r.value_size, i + 100))
    buf = bytes(builder.build())
    layout = message_set_layout(magic, records)
    f = _fields(layout)
    assert len(buf) == layout[-1].end == message_set_size(magic, [(r.key_size, r.value_size) for r in records])
    for i, r in enumerate(records):
        p = f"message[{i}]."
        assert struct.unpack_from(">q", buf, f[p + "offset"].start)[0] == i
        assert struct.unpack_from(">i", buf, f[p + "messageSize"].start)[0] == f[p + "value"].end - f[p + "crc"].start
        assert buf[f[p + "magic"].start] == magic
        if magic == 1:
            assert struct.unpack_from(">q", buf, f[p + "timestamp"].start)[0] == BASE_TS + i
        assert struct.unpack_from(">i", buf, f[p + "keyLength"].start)[0] == r.key_size
        assert buf[f[p + "key"].start : f[p + "key"].end] == (_payload(r.key_size, i) or b"")
        assert struct.unpack_from(">i", buf, f[p + "valueLength"].start)[0] == r.value_size
        assert buf[f[p + "value"].start : f[p + "value"].end] == (_payload(r.value_size, i + 100) or b"")


def test_kip98_table_shipped_column_is_what_kafka_python_encodes() -> None:
    """The 1 KB value / 100-byte key example: the shipped v2 totals are real encoder output."""
    for row in kip98_table():
        builder = DefaultRecordBatchBuilder(2, 0, False, 1, 0, 0, batch_size=2**31 - 1)
        legacy = LegacyRecordBatchBuilder(1, 0, batch_size=2**31 - 1)
        for i in range(row.records):
            builder.append(i, BASE_TS, b"k" * 100, b"v" * 1024, [])
            legacy.append(i, BASE_TS, b"k" * 100, b"v" * 1024)
        assert len(builder.build()) == row.shipped_v2
        assert len(legacy.build()) == row.old_v1
