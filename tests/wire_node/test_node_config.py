"""Each Node.js client's configuration model against what the client itself does with each setting.

``adapters/node/producers.py`` claims, from the packages' sources, what each client refuses and
what it silently rewrites; these tests hand the raw values to the real packages (the installed,
locked versions) and hold the claims to what comes back."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kafka_conformance.adapters.node.install import node_tool
from kafka_conformance.adapters.node.producers import node_settings

ROW = {"enable.idempotence": "true", "acks": "all", "max.in.flight.requests.per.connection": "5",
       "request.timeout.ms": "1500", "delivery.timeout.ms": "8000", "retry.backoff.ms": "50", "linger.ms": "0"}

PLATFORMATIC_PROBE = """
import { Producer, stringSerializers } from '@platformatic/kafka'
const asked = JSON.parse(process.argv[2])
const options = { clientId: 'probe', bootstrapBrokers: ['127.0.0.1:1'], serializers: stringSerializers, ...asked }
new Producer(options)
console.log(JSON.stringify({ acks: options.acks, maxInflights: options.maxInflights, retries: options.retries }))
"""

KAFKAJS_PROBE = """
import kafkajs from 'kafkajs'
const asked = JSON.parse(process.argv[2])
const kafka = new kafkajs.Kafka({ brokers: ['127.0.0.1:1'], logLevel: kafkajs.logLevel.NOTHING })
try {
  kafka.producer({ idempotent: asked.idempotent, retry: { retries: asked.retries },
                   createPartitioner: kafkajs.Partitioners.DefaultPartitioner })
  console.log(JSON.stringify({ refused: null }))
} catch (error) {
  console.log(JSON.stringify({ refused: `${error.name}: ${error.message}` }))
}
"""


def _probe(directory: Path, script: str, asked: dict[str, Any]) -> dict[str, Any]:
    probe = directory / "probe-config.mjs"  # beside the runners, so the locked packages resolve
    probe.write_text(script, encoding="utf-8")
    try:
        done = subprocess.run([node_tool("node"), "--no-warnings", str(probe), json.dumps(asked)], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    finally:
        probe.unlink()
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


@pytest.mark.parametrize("props", [
    ROW,
    {**ROW, "acks": "1"},
    {**ROW, "retries": "1"},
    {**ROW, "retries": "0", "max.in.flight.requests.per.connection": "1"},
    {**ROW, "delivery.timeout.ms": "1000"},
    {**ROW, "enable.idempotence": "false", "acks": "1", "retries": "0"},
    {**ROW, "enable.idempotence": "false", "acks": "0", "max.in.flight.requests.per.connection": "3"},
])
def test_platformatic_does_what_the_mapping_promises(props: dict[str, str], node_runners: Path) -> None:
    """The raw values a Java user asked for go into @platformatic/kafka's own constructor; what it ends with
    is what node_settings promises (and what the delivery checker holds it to)."""
    java_retries = min(int(props.get("retries", 2**31 - 1)), max(1, int(props["delivery.timeout.ms"]) //
                                                                  (int(props["request.timeout.ms"]) + int(props["retry.backoff.ms"]))))
    raw = {"idempotent": props["enable.idempotence"] == "true", "acks": -1 if props["acks"] == "all" else int(props["acks"]),
           "retries": java_retries, "maxInflights": int(props["max.in.flight.requests.per.connection"])}
    real = _probe(node_runners, PLATFORMATIC_PROBE, raw)
    promised = node_settings("platformatic", props).as_dict()
    assert (real["acks"], real["maxInflights"], real["retries"]) == (promised["acks"], promised["max_in_flight"], promised["retries"])


@pytest.mark.parametrize(("idempotent", "retries", "refused"), [
    (True, 0, "Idempotent producer must allow retries"),
    (True, 1, None),
    (False, 0, None),
])
def test_kafkajs_refuses_what_the_mapping_refuses(idempotent: bool, retries: int, refused: str | None,
                                                  node_runners: Path) -> None:
    real = _probe(node_runners, KAFKAJS_PROBE, {"idempotent": idempotent, "retries": retries})
    props = {**ROW, "enable.idempotence": str(idempotent).lower(), "retries": str(retries)}
    if refused is None:
        assert real["refused"] is None
        node_settings("kafkajs", props)
    else:
        assert refused in real["refused"]
        with pytest.raises(ValueError, match="KafkaJS refuses an idempotent producer without retries"):
            node_settings("kafkajs", props)


def test_kafkajs_refuses_an_idempotent_send_without_acks_all(node_runners: Path) -> None:
    """The runner given acks=1 with idempotence (which the mapping refuses first) meets KafkaJS's own refusal, in
    KafkaJS's words. It arrives as a rejected promise without a broker code, so the runner cannot tell it from a
    failure after sending: it is reported as possibly written (docs/producer-conformance.md)."""
    pytest.importorskip("kafka", reason="the test broker needs kafka-python (the clients extra)")
    from kafka_conformance.adapters.clients.protocol import CompletionLog
    from kafka_conformance.adapters.clients.runner import RunnerProcess
    from kafka_conformance.adapters.node.producers import classify_node_error
    from kafka_conformance.producer.engines import open_broker, parse_broker
    from kafka_conformance.reference.broker.produce_errors import Appended
    from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

    trace = ProducerTrace([SendStep("v0"), FlushStep()])
    settings = {**node_settings("kafkajs", ROW).as_dict(), "acks": 1}
    with open_broker(parse_broker("test-broker"), trace, lambda: 0) as cluster:
        log = CompletionLog(lambda: 0)
        seen: list[tuple[Appended, str]] = []

        def classify(event: dict[str, Any]) -> tuple[Appended, str]:
            seen.append(classify_node_error(event))
            return seen[-1]

        process = RunnerProcess("kafkajs", [node_tool("node"), str(node_runners / "kafkajs-producer.mjs")], log, classify)
        try:
            process.open({**settings, "bootstrap": cluster.bootstrap.split(",")})
            process.send(SendStep("v0"), trace.cluster.topic)
            for _ in range(250):
                process.flush(0.02)
                if log.pending == 0:
                    break
        finally:
            log.close()
            process.stop()
    assert seen and "invalidates the idempotent producer's EoS guarantees" in seen[0][1]
    assert seen[0][0] is Appended.MAYBE
