"""The light version, in the gate, of the ``node`` tox environment (tests/wire_node): each Node.js producer
holds row 4 on the test broker, KafkaJS's lost write of row 19 is found and blamed on the client, and a
runner that dies is a clear error.  The runners are installed on first use (``npm ci`` from the kit's lock
file); without Node.js and npm the tests skip and say so."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.clients.protocol import ClientRunError
from kafka_conformance.adapters.node import producers
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from node_runners import need_node_runners


@pytest.fixture(scope="module")
def node_runners() -> Path:
    return need_node_runners()


@pytest.mark.parametrize("client", ["kafkajs", "platformatic"])
def test_each_node_producer_holds_row_4_on_the_test_broker(client: str, node_runners: Path) -> None:
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    (result,) = run_table(client, rows=table_rows(["4"]))
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
    assert lost and all(a.attribution.value == "client" and "is in the log" in a.explanation for a in lost), lost


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


ERRORS_PROBE = """
import kafkajs from 'kafkajs'
import { MultipleErrors, NetworkError, ProtocolError, ResponseError, TimeoutError, UserError } from '@platformatic/kafka'
import { errorClass, kafkaCode, rootName } from './runner.mjs'

const { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSRequestTimeoutError } = kafkajs
const protocol = (type, code) => new KafkaJSProtocolError({ type, code, retriable: false, message: type })
const attempts = (...errors) => new MultipleErrors(`produce failed ${errors.length} times.`, errors)
const cases = {
  'kafkajs: a broker code': protocol('OUT_OF_ORDER_SEQUENCE_NUMBER', 45),
  'kafkajs: retries out, last a broker code': new KafkaJSNumberOfRetriesExceeded(protocol('NOT_ENOUGH_REPLICAS', 19), {}),
  'kafkajs: retries out, last a timeout': new KafkaJSNumberOfRetriesExceeded(new KafkaJSRequestTimeoutError('timed out'), {}),
  'kafkajs: a socket error': new KafkaJSConnectionError('refused', { code: 'ECONNREFUSED' }),
  'platformatic: last attempt a broker code': attempts(new NetworkError('closed'), new ProtocolError(45)),
  'platformatic: last attempt a network error': attempts(new ProtocolError(6), new NetworkError('closed')),
  'platformatic: last attempt a timeout': attempts(new ProtocolError(6), new TimeoutError('late')),
  'platformatic: closed while retrying': attempts(new ProtocolError(6), new ProtocolError(45), new UserError('closed')),
  'platformatic: an answer with an error': attempts(new ResponseError(0, 9, { '/responses/0': [87, null] }, {})),
}
const out = {}
for (const [name, error] of Object.entries(cases)) out[name] = [kafkaCode(error), errorClass(error), rootName(error)]
console.log(JSON.stringify(out))
"""


def test_the_runner_reads_each_client_s_errors_as_the_client_wraps_them(node_runners: Path) -> None:
    """The Kafka code a runner reports is the last attempt's, found through each client's own error classes
    (the installed, locked packages): a record whose last attempt timed out is never reported with an earlier
    attempt's "not written" code, and a socket error's code is never taken for a broker's."""
    import json
    import subprocess

    from kafka_conformance.adapters.node.install import node_tool

    probe = node_runners / "probe-errors.mjs"  # beside runner.mjs, so the locked packages resolve
    probe.write_text(ERRORS_PROBE, encoding="utf-8")
    try:
        done = subprocess.run([node_tool("node"), "--no-warnings", str(probe)], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    finally:
        probe.unlink()
    assert done.returncode == 0, done.stderr
    seen = {name: code for name, (code, _, _) in json.loads(done.stdout).items()}
    assert seen == {
        "kafkajs: a broker code": 45,
        "kafkajs: retries out, last a broker code": 19,
        "kafkajs: retries out, last a timeout": 0,
        "kafkajs: a socket error": 0,
        "platformatic: last attempt a broker code": 45,
        "platformatic: last attempt a network error": 0,
        "platformatic: last attempt a timeout": 0,
        "platformatic: closed while retrying": 0,
        "platformatic: an answer with an error": 87,
    }


@pytest.mark.parametrize(("client", "anomalies"), [
    ("kafkajs", ()),
    ("platformatic", ("committed-unacknowledged-write",)),
])
def test_a_javascript_client_commits_a_transaction_over_two_partitions(client: str, anomalies: tuple[str, ...],
                                                                       node_runners: Path) -> None:
    """The client row ``commit`` on Kafka 3.9.1: KafkaJS holds; @platformatic/kafka adds only the first of two
    partitions sent to at once, the second send is refused (TRANSACTION_ABORTABLE) and the client commits
    anyway (docs/findings.md, entry 27)."""
    from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
    from kafka_conformance.options import Options
    from kafka_conformance.transactions.clients import check_transaction_client
    from kafka_conformance.transactions.report import render_client_text

    reason = kafka_broker_reason("3.9.1")
    if reason is not None:
        pytest.skip(f"kafka:3.9.1: {reason}")
    report = check_transaction_client(client, "kafka:3.9.1", Options(), rows=["commit"])
    [row] = report.rows
    text = render_client_text(report)
    assert not row.error and row.anomalies == anomalies, text
    assert row.outcomes == ("t1 committed",), text
    if anomalies:
        assert "send of 'a1' to partition 1" in row.explanations[0] and "transaction" in row.explanations[0], text
