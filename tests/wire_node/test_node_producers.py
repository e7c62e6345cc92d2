"""KafkaJS and @platformatic/kafka through the whole trace table, held to the table recorded in
docs/producer-conformance.md ("Node.js clients"): on the test broker and on a real three-broker
Apache Kafka 3.9.1 cluster (one cluster for every row of a column, as ``check matrix`` runs it).

A cell may name alternatives (``a or b``) where a client's own race decides between them; every
other difference fails, so a client release that fixes (or breaks) a row makes the finding be
looked at again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.node.producers import KafkaJSClient, PlatformaticClient
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from recorded_tables import outcome, recorded

BROKERS = {"test-broker": "", "kafka-cluster:3.9.1": "@kafka-cluster"}


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

    column = recorded("Node.js clients")[client + BROKERS[broker]]
    seen = {r.number: outcome(r) for r in run_table(client, broker=broker, kafka_version="3.9.1")}
    expected = {number: column.get(number, column["*"]) for number in seen}
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
