"""KIP-98's space comparison as the kit reproduces it (the encoder check is in tests/wire_format)."""

from __future__ import annotations

from kafka_conformance.cli.main import main
from kafka_conformance.reference.message_format import kip98_table


def test_old_format_costs_34_bytes_per_message_at_every_batch_size() -> None:
    for row in kip98_table():
        assert row.per_record(row.old_v1) == 34


def test_design_column_is_45_plus_17_per_message() -> None:
    for row in kip98_table():
        assert row.design_v2 - row.payload == 45 + 17 * row.records


def test_shipped_v2_is_dearer_for_one_record_and_cheaper_from_three() -> None:
    rows = {r.records: r for r in kip98_table()}
    assert rows[1].shipped_v2 > rows[1].old_v1
    assert all(rows[n].shipped_v2 < rows[n].old_v1 for n in (3, 10, 50, 100))
    # 61-byte header plus 10 bytes per record (11 once the offset delta needs two bytes)
    assert rows[1].shipped_v2 - rows[1].payload == 61 + 10
    assert rows[100].shipped_v2 - rows[100].payload == 61 + 64 * 10 + 36 * 11


def test_cli_prints_the_table_and_the_differences(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explain-format"]) == 0
    out = capsys.readouterr().out
    assert "    100    112400    115800     114145      113497" in out
    assert "61 bytes shipped against the design's 45 (+16)" in out
    assert "repaid from 3 records per batch" in out


def test_cli_refuses_bad_sizes(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explain-format", "--value-size", "-5"]) == 2
    assert "a size is -1 (null) to 2147483647" in capsys.readouterr().err
