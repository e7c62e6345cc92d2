"""The light version, in the gate, of the ``go`` tox environment (tests/wire_go): kfake answers the
probe table as docs/broker-conformance.md records it, and each Go producer runs one trace-table row
on the test broker, and two failover rows run on a three-broker kfake cluster.  The Go programs
are built on first use; without a Go toolchain the tests skip and say so (the ``go`` environment runs the rest)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kafka_conformance.adapters.go.build import GoUnavailable, build_programs
from kafka_conformance.options import Options

DOC = Path(__file__).resolve().parents[2] / "docs" / "broker-conformance.md"


@pytest.fixture(scope="module")
def go_programs() -> dict[str, Path]:
    try:
        return build_programs()
    except GoUnavailable as exc:
        pytest.skip(str(exc))


def test_kfake_probe_table_is_as_recorded(go_programs: dict[str, Path]) -> None:
    from kafka_conformance.broker.check import check_broker

    report = check_broker("kfake", Options(seed=1, max_examples=0), table=True)
    section = DOC.read_text(encoding="utf-8").split("### kfake", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    column = next(i for i, name in enumerate(rows[0]) if name.startswith("kfake"))
    recorded = {row[0]: row[column] for row in rows[1:]}
    for probe in report.probes:
        cell = recorded[probe.name]
        if cell == "as Kafka":
            assert not probe.anomalies, (probe.name, probe.anomalies)
        elif cell.startswith("skipped"):
            assert probe.status == "skipped", (probe.name, probe.status)
        elif cell.startswith("not reached"):
            assert probe.anomalies, probe.name
        else:
            assert probe.anomalies and probe.anomalies[0] == re.split(r"\s", cell)[0], (probe.name, probe.anomalies, cell)


@pytest.mark.parametrize("client", ["franz-go", "sarama"])
def test_each_go_producer_holds_row_1_on_the_test_broker(client: str, go_programs: dict[str, Path]) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table(client, rows=table_rows(["1"]))
    assert result.status is RunStatus.HOLDS, (result.error, result.anomalies, result.notes)


@pytest.mark.parametrize(("client", "row"), [("kafka-python", "24"), ("sarama", "7")])
def test_a_failover_row_holds_on_a_kfake_cluster(client: str, row: str, go_programs: dict[str, Path]) -> None:
    """Row 24 (a leader move) and row 7 (the leader crashes before answering) on ``kfake-cluster``:
    a few seconds each; tests/wire_go/test_kfake_cluster.py runs every failover row on every client."""
    pytest.importorskip("kafka", reason="the fault proxy needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table(client, broker="kfake-cluster", rows=table_rows([row]))
    assert result.status is RunStatus.HOLDS, (result.error, result.anomalies, result.notes)


def test_an_injected_error_reaches_franz_go_on_produce_v13(go_programs: dict[str, Path]) -> None:
    """franz-go speaks Produce v13 to kfake, which names topics by id: the fault proxy's injected
    INVALID_RECORD must name the topic that way, or franz-go, finding no answer for its partition,
    retries and the row "holds" by accident (row 14: it must fail v0 as on the test broker)."""
    pytest.importorskip("kafka", reason="the fault proxy needs kafka-python (the clients extra)")
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table("franz-go", broker="kfake", rows=table_rows(["14"]))
    assert {a.name for a in result.anomalies} == {"failed-write-present"}, (result.status, result.error, result.anomalies)


def test_kfake_transactions_differ_from_kafka_as_recorded(go_programs: dict[str, Path]) -> None:
    """``check transactions --broker kfake``: the rows docs/findings.md (entry 17) records as differing, and
    the rest agreeing, held to Kafka 3.9.1 with transaction.version 1."""
    from kafka_conformance.transactions.check import check_transactions

    report = check_transactions("kfake", Options(kafka_version="3.9.1"), rows=("commit", "abort", "zombie-fenced", "produce-after-refused"))
    verdicts = {r.name: r.agrees for r in report.rows}
    assert verdicts == {"commit": True, "abort": True, "zombie-fenced": False, "produce-after-refused": True}
    zombie = next(r for r in report.rows if r.name == "zombie-fenced")
    assert any("broker answered error 0, producer #0 epoch 1, Kafka answers error 0, producer #0 epoch 2" in d
               for d in zombie.differences), zombie.differences
    assert any("broker answered error 48, Kafka answers error 47" in d for d in zombie.differences), zombie.differences
