"""The fault proxy between real clients and real brokers: every plan action, address rewriting, the trace it logs."""

from __future__ import annotations

import os
import socket
import warnings
from collections.abc import Iterator

import pytest

from kafka_conformance.adapters.brokers.fault_proxy import FaultProxy, ProxyError
from kafka_conformance.adapters.brokers.launchers import RunningBroker
from kafka_conformance.adapters.brokers.process import listening_addresses, port_is_listening
from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
from kafka_conformance.broker.compare import new_topic_name
from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.events import Attempt, Fault, FaultKind, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule


@pytest.fixture
def topic(noida: RunningBroker) -> str:
    name = new_topic_name("proxy")
    with WireClient(noida.host, noida.port) as client:
        client.create_topic(name)
    return name


def _proxy(broker: RunningBroker, *rules: ProduceRule) -> FaultProxy:
    ticks = iter(range(1_000_000))
    return FaultProxy(broker.host, broker.port, FaultPlan(rules), clock=lambda: next(ticks))


def _log(broker: RunningBroker, topic: str) -> list[str]:
    with WireClient(broker.host, broker.port) as client:
        return [r.value for r in client.read_log(topic, 0)]


@pytest.fixture
def producer_id(noida: RunningBroker) -> Iterator[int]:
    with WireClient(noida.host, noida.port) as client:
        yield client.init_producer_id()[0]


def test_metadata_points_clients_back_at_the_proxy(noida: RunningBroker, topic: str) -> None:
    with _proxy(noida) as proxy, WireClient("127.0.0.1", proxy.port) as client:
        brokers, _ = client.metadata([topic])
        mine = [a for a in listening_addresses(os.getpid()) if a[1] == proxy.port]
    assert set(brokers.values()) == {("127.0.0.1", proxy.port)}
    assert mine == [("127.0.0.1", proxy.port)]
    assert not port_is_listening(proxy.port)


def test_error_without_forwarding_logs_attempt_and_injected_answer(noida: RunningBroker, topic: str, producer_id: int) -> None:
    rule = ProduceRule(1, Action.ERROR, 0, ProduceError.NOT_ENOUGH_REPLICAS)
    with _proxy(noida, rule) as proxy, WireClient("127.0.0.1", proxy.port) as client:
        first = client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
        second = client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
    assert first.error_code == ProduceError.NOT_ENOUGH_REPLICAS.code
    assert (second.error_code, second.base_offset) == (0, 0)
    assert proxy.events == [
        Attempt(1, ("a",), 0, producer_id, 0, 0, 0), Response(1, ProduceError.NOT_ENOUGH_REPLICAS, -1, 1),
        Attempt(2, ("a",), 0, producer_id, 0, 0, 2), Response(2, ProduceError.NONE, 0, 3),
    ]
    assert _log(noida, topic) == ["a"]


def test_error_after_append_writes_but_answers_the_error(noida: RunningBroker, topic: str, producer_id: int) -> None:
    rule = ProduceRule(1, Action.ERROR_AFTER_APPEND, 0, ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND)
    with _proxy(noida, rule) as proxy, WireClient("127.0.0.1", proxy.port) as client:
        answer = client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
    assert answer.error_code == ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND.code
    assert _log(noida, topic) == ["a"]


@pytest.mark.parametrize(("action", "written"), [(Action.DISCONNECT_BEFORE, []), (Action.DISCONNECT_AFTER, ["a"])])
def test_disconnects(noida: RunningBroker, topic: str, producer_id: int, action: Action, written: list[str]) -> None:
    with (_proxy(noida, ProduceRule(1, action, 0)) as proxy, WireClient("127.0.0.1", proxy.port) as client,
          pytest.raises(WireError, match="closed the connection")):
        client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
    assert _log(noida, topic) == written
    attempt_time = 0
    fault_time = attempt_time if action is Action.DISCONNECT_BEFORE else attempt_time + 1  # after: when the answer came
    assert [e for e in proxy.events if isinstance(e, Fault)] == [Fault(FaultKind.DISCONNECT, 0, fault_time)]


@pytest.mark.parametrize(("action", "kind", "written"), [
    (Action.DROP_REQUEST, FaultKind.REQUEST_DROPPED, []),
    (Action.DROP_RESPONSE, FaultKind.RESPONSE_DROPPED, ["a"]),
])
def test_drops_leave_the_client_waiting(noida: RunningBroker, topic: str, producer_id: int, action: Action, kind: FaultKind,
                                        written: list[str]) -> None:
    with (_proxy(noida, ProduceRule(1, action, 0)) as proxy, WireClient("127.0.0.1", proxy.port, timeout_s=0.5) as client,
          pytest.raises(WireError, match="did not answer ProduceRequest")):
        client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
    assert _log(noida, topic) == written
    assert [e for e in proxy.events if isinstance(e, Fault)] == [Fault(kind, 0, 0 if action is Action.DROP_REQUEST else 1)]
    assert not any(isinstance(e, Response) for e in proxy.events)


def test_delayed_answer_still_arrives_in_order(noida: RunningBroker, topic: str, producer_id: int) -> None:
    with _proxy(noida, ProduceRule(1, Action.DELAY, 0, delay_ms=200)) as proxy, WireClient("127.0.0.1", proxy.port) as client:
        first = client.produce(topic, 0, ProducerBatch(producer_id, 0, 0, ["a"]))
        second = client.produce(topic, 0, ProducerBatch(producer_id, 0, 1, ["b"]))
    assert (first.base_offset, second.base_offset) == (0, 1)
    assert _log(noida, topic) == ["a", "b"]


def test_kafka_python_producer_survives_injected_error_and_lost_answer(noida: RunningBroker, topic: str) -> None:
    """A real client through the proxy: the retry of a batch whose answer was lost is deduplicated by the broker."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from kafka import KafkaProducer

    plan = (ProduceRule(1, Action.ERROR, 0, ProduceError.NOT_LEADER_OR_FOLLOWER), ProduceRule(3, Action.DROP_RESPONSE, 0))
    with _proxy(noida, *plan) as proxy:
        producer = KafkaProducer(bootstrap_servers=proxy.bootstrap, enable_idempotence=True, request_timeout_ms=1000,
                                 max_in_flight_requests_per_connection=1)
        try:
            offsets = [producer.send(topic, value=v.encode(), partition=0).get(10).offset for v in ("v0", "v1", "v2")]
        finally:
            producer.close(5)
    assert offsets == [0, 1, 2]
    assert _log(noida, topic) == ["v0", "v1", "v2"]
    attempts = [e for e in proxy.events if isinstance(e, Attempt)]
    assert [(a.values, a.base_sequence) for a in attempts] == [(("v0",), 0), (("v0",), 0), (("v1",), 1), (("v1",), 1), (("v2",), 2)]
    assert [e.kind for e in proxy.events if isinstance(e, Fault)] == [FaultKind.RESPONSE_DROPPED]


def test_unreachable_upstream_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ProxyError, match=f"cannot reach upstream broker 127.0.0.1:{port}"):
        FaultProxy("127.0.0.1", port)


def test_a_clean_trace_on_a_single_real_broker_is_settled_not_unknown(noida: RunningBroker) -> None:
    # Without faults the proxy still stands in front: its log of attempts and answers is what
    # the checker settles the run with (before, a clean run on a wheel broker was "unknown").
    pytest.importorskip("kafka")
    from kafka_conformance.producer.check import run_and_judge
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

    clean = ProducerTrace([SendStep("a"), SendStep("b"), FlushStep(), SendStep("c")], name="clean")
    result = run_and_judge(clean, "kafka-python", broker="noida", kafka_version="3.9.1")
    assert result.status is RunStatus.HOLDS, (result.error, result.verdicts)
    assert dict(result.counts)["acked"] == 3


def test_a_broker_marked_down_is_refused_as_by_its_own_port_and_served_again_on_the_same_port(
        noida: RunningBroker) -> None:
    """A killed broker's port refuses connections; a proxy that accepted and closed them instead made
    franz-go give its producer id up (it reads a connection closed during ApiVersions as TLS)."""
    with _proxy(noida) as proxy:
        port = proxy.port
        proxy.upstream_down(noida.host, noida.port)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        assert proxy.address_for(noida.host, noida.port) == f"127.0.0.1:{port}"  # named, not listened on
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        proxy.upstream_up(noida.host, noida.port)
        with WireClient("127.0.0.1", port) as client:
            assert client.versions
