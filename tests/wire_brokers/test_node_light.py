"""The light version, in the gate, of the ``node`` tox environment (tests/wire_node): each Node.js producer
holds row 1 on the test broker, KafkaJS's lost write of row 19 is found and blamed on the client, and a
runner that dies is a clear error.  The runners are installed on first use (``npm ci`` from the kit's lock
file); without Node.js and npm the tests skip and say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.clients.protocol import ClientRunError
from kafka_conformance.adapters.node import producers
from kafka_conformance.adapters.node.install import NodeUnavailable, install
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep


@pytest.fixture(scope="module")
def node_runners() -> Path:
    try:
        return install()
    except NodeUnavailable as exc:
        pytest.skip(f"{exc} (then: kafka-conformance fetch kafkajs platformatic)")


@pytest.mark.parametrize("client", ["kafkajs", "platformatic"])
def test_each_node_producer_holds_row_1_on_the_test_broker(client: str, node_runners: Path) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table(client, rows=table_rows(["1"]))
    assert result.status is RunStatus.HOLDS, (result.error, result.anomalies, result.notes)


def test_kafkajs_loses_a_write_by_reusing_a_sequence(node_runners: Path) -> None:
    """Row 19 (docs/producer-conformance.md, "Node.js clients"): KafkaJS gives a failed request's sequence back
    and stamps the next record with it; the broker answers that record as the first one's duplicate, so it is
    acknowledged and never written. The checker blames the client, not the broker."""
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table("kafkajs", rows=table_rows(["19"]))
    assert result.status is RunStatus.CLIENT, (result.error, result.anomalies)
    lost = [a for a in result.anomalies if a.name == "lost-write"]
    assert lost and all(a.attribution.value == "client" and "already used for" in a.explanation for a in lost), lost


def test_a_node_runner_that_dies_mid_run_is_a_clear_error(node_runners: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.check import run_wire_trace

    script = tmp_path / "dies.mjs"
    script.write_text("import { createInterface } from 'node:readline'\n"
                      "const lines = createInterface({ input: process.stdin })\n"
                      "let n = 0\n"
                      "lines.on('line', () => {\n"
                      "  if (n++ === 0) { process.stdout.write('{\"event\":\"ready\"}\\n'); return }\n"
                      "  process.stderr.write('TypeError: runner crashed\\n'); process.exit(3)\n"
                      "})\n")
    monkeypatch.setattr(producers, "runner", lambda client: script)
    trace = ProducerTrace([SendStep("v0"), SendStep("v1"), FlushStep()])
    with pytest.raises(ClientRunError, match=r"the producer process died \(exit code 3\).*TypeError: runner crashed"):
        run_wire_trace(trace, "kafkajs")
