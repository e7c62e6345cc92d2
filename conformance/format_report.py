"""KIP-98's space comparison, re-computed, with the shipped v2 format beside the design.

The kit's message-format model (:mod:`kafka_conformance.reference.message_format`)
is checked field by field against kafka-python's encoders (``tests/wire_format``),
so the "shipped" column is what a producer really puts on the wire; the design
column is KIP-98's own arithmetic (45 bytes per batch + 17 per message).  Where
they differ, the report itemises the shipped bytes so the difference can be
read off rather than asserted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kafka_conformance.reference.message_format import (
    KIP98_DESIGN_BATCH_OVERHEAD,
    KIP98_DESIGN_RECORD_OVERHEAD,
    RECORD_BATCH_OVERHEAD,
    Kip98Row,
    RecordSpec,
    batch_layout_v2,
    kip98_table,
)

__all__ = ["render_kip98"]


def _record_fields(key_size: int, value_size: int, offset_delta: int) -> Counter[str]:
    """Bytes per field of one record (key and value bytes excluded)."""
    layout = batch_layout_v2([RecordSpec(key_size, value_size, offset_delta)])
    out: Counter[str] = Counter()
    for f in layout:
        name = f.name.split(".", 1)[1]
        if f.name.startswith("record[") and name not in ("key", "value"):
            out[name] += f.size
    return out


def render_kip98(rows: Sequence[Kip98Row] | None = None, *, key_size: int = 100, value_size: int = 1024) -> str:
    rows = rows if rows is not None else kip98_table(key_size=key_size, value_size=value_size)
    keys = "null keys" if key_size < 0 else f"{key_size}-byte keys"
    values = "null values" if value_size < 0 else f"{value_size}-byte values"
    lines = [f"KIP-98 space comparison: {keys}, {values}, uncompressed"]
    if (key_size, value_size) != (100, 1024):
        lines.append("(the design column applies KIP-98's 45 + 17n, which the KIP computed for 100-byte keys and 1 KB values)")
    lines += [
        "",
        f"{'records':>7}  {'payload':>8}  {'old v1':>8}  {'design v2':>9}  {'shipped v2':>10}  "
        f"{'per msg v1':>10}  {'design':>6}  {'shipped':>7}  {'shipped-design':>14}",
    ]
    for r in rows:
        lines.append(
            f"{r.records:>7}  {r.payload:>8}  {r.old_v1:>8}  {r.design_v2:>9}  {r.shipped_v2:>10}  "
            f"{r.per_record(r.old_v1):>10.2f}  {r.per_record(r.design_v2):>6.2f}  {r.per_record(r.shipped_v2):>7.2f}  "
            f"{r.shipped_minus_design:>+14}"
        )
    first = _record_fields(key_size, value_size, 0)
    late = _record_fields(key_size, value_size, 64)
    per_record = sum(first.values())
    header = ", ".join(f"{f.name.split('.', 1)[1]} {f.size}" for f in batch_layout_v2([]))
    lines += [
        "",
        "Where the shipped format differs from the design:",
        f"- batch header: {RECORD_BATCH_OVERHEAD} bytes shipped against the design's {KIP98_DESIGN_BATCH_OVERHEAD} "
        f"({RECORD_BATCH_OVERHEAD - KIP98_DESIGN_BATCH_OVERHEAD:+d}). Shipped fields: {header}. The partitionLeaderEpoch "
        "field (4 bytes) came with KIP-101, after the design was written.",
        f"- per record: {per_record} bytes shipped against the design's {KIP98_DESIGN_RECORD_OVERHEAD} "
        f"({per_record - KIP98_DESIGN_RECORD_OVERHEAD:+d}); from the 64th record of a batch the offset delta takes "
        f"{late['offsetDelta']} bytes, so {sum(late.values())}. Shipped fields: "
        + ", ".join(f"{k} {v}" for k, v in first.items())
        + " (zig-zag varints: lengths under 64 take one byte, under 8192 two).",
        "- net: a lone record costs "
        f"{rows[0].shipped_minus_design:+d} bytes against the design and "
        f"{rows[0].shipped_v2 - rows[0].old_v1:+d} against v1; the larger header is repaid from "
        f"{_break_even(key_size, value_size)} records per batch on.",
    ]
    return "\n".join(lines) + "\n"


def _break_even(key_size: int, value_size: int) -> int:
    for n in range(1, 10_000):
        (row,) = kip98_table((n,), key_size, value_size)
        if row.shipped_v2 <= row.old_v1:
            return n
    return -1
