"""KafkaJS and @platformatic/kafka through the whole trace table, held to the table recorded in
docs/producer-conformance.md ("Node.js clients"): on the test broker and on a real three-broker
Apache Kafka 3.9.1 cluster (one cluster for every row of a column, as ``check matrix`` runs it).

A cell may name alternatives (``a or b``) where a client's own race decides between them; every
other difference fails, so a client release that fixes (or breaks) a row makes the finding be
looked at again."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.node.producers import KafkaJSClient, PlatformaticClient
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

DOC = Path(__file__).resolve().parents[2] / "docs" / "producer-conformance.md"
BROKERS = {"test-broker": "", "kafka-cluster:3.9.1": "@kafka-cluster"}


def _recorded() -> dict[str, dict[str, str]]:
    """column -> row number -> outcome, from the Node.js clients' table (``every other row`` as ``*``)."""
    section = DOC.read_text(encoding="utf-8").split("## Node.js clients", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    columns = rows[0][1:]
    out: dict[str, dict[str, str]] = {c: {} for c in columns}
    for row in rows[1:]:
        key = "*" if row[0] == "every other row" else row[0]
        for column, cell in zip(columns, row[1:], strict=True):
            out[column][key] = cell
    return out


def _outcome(result: object) -> str:
    from kafka_conformance.producer.report import RunStatus

    status = result.status  # type: ignore[attr-defined]
    if status is RunStatus.HOLDS:
        return "holds"
    if status is RunStatus.OUTSIDE:
        return "outside"
    if status is RunStatus.REFUSED:
        return "n/a"
    if status is RunStatus.CLIENT:
        return ",".join(sorted({a.name for a in result.anomalies if a.attribution.is_failure}))  # type: ignore[attr-defined]
    return f"{status.value}: {result.error}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("broker", list(BROKERS))
@pytest.mark.parametrize("client", ["kafkajs", "platformatic"])
def test_the_trace_table_on_each_node_client_matches_the_recorded_table(client: str, broker: str, node_runners: Path) -> None:
    pytest.importorskip("kafka", reason="the test broker and the fault proxy need kafka-python (the clients extra)")
    if broker.startswith("kafka-cluster"):
        from kafka_conformance.adapters.jvm.session import unavailable_reason

        reason = unavailable_reason(need_py4j=False)
        if reason is not None:
            pytest.skip(f"a real Kafka cluster needs a JDK: {reason}")
    from kafka_conformance.producer.table import run_table

    recorded = _recorded()[client + BROKERS[broker]]
    seen = {r.number: _outcome(r) for r in run_table(client, broker=broker, kafka_version="3.9.1")}
    expected = {number: recorded.get(number, recorded["*"]) for number in seen}
    differ = {n: (seen[n], expected[n]) for n in seen if seen[n] not in expected[n].split(" or ")}
    assert not differ, f"row: (seen, recorded): {differ}"


@pytest.mark.parametrize("client", [KafkaJSClient, PlatformaticClient])
def test_a_configuration_the_client_refuses_is_refused_before_it_starts(client: type, node_runners: Path) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.producer.check import run_wire_trace

    trace = ProducerTrace([SendStep("v0"), FlushStep()]).with_config(**{"compression.type": "zstd"})
    with pytest.raises(ClientConfigError, match=r"compression\.type='zstd' has no equivalent"):
        run_wire_trace(trace, client.name)
