"""The raw wire client against each real broker: versions, topics, producer ids, produce and read back."""

from __future__ import annotations

import socket
import threading

import pytest

from kafka_conformance.adapters.brokers.launchers import RunningBroker
from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError, decode_batches, encode_batch
from kafka_conformance.broker.compare import new_topic_name
from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch


def test_negotiates_versions_needed_for_idempotent_produce(real_broker: RunningBroker) -> None:
    with WireClient(real_broker.host, real_broker.port) as client:
        assert client.version_for(0) >= 3  # Produce with v2 batches
        assert client.version_for(22) >= 0  # InitProducerId
        assert client.version_for(1) >= 4  # Fetch of v2 batches


def test_produce_then_read_back_every_field(real_broker: RunningBroker) -> None:
    topic = new_topic_name("wire")
    with WireClient(real_broker.host, real_broker.port) as client:
        client.create_topic(topic)
        pid, epoch = client.init_producer_id()
        assert pid >= 0 and epoch >= 0
        first = client.produce(topic, 0, ProducerBatch(pid, epoch, 0, ["a", "b"]))
        second = client.produce(topic, 0, ProducerBatch(pid, epoch, 2, ["c"]))
        assert (first.error_code, first.base_offset) == (0, 0)
        assert (second.error_code, second.base_offset) == (0, 2)
        assert client.list_offset(topic, 0) == 3
        assert client.list_offset(topic, 0, -2) == 0
        records = client.read_log(topic, 0)
    assert [(r.offset, r.value, r.producer_id, r.producer_epoch, r.sequence) for r in records] == [
        (0, "a", pid, epoch, 0), (1, "b", pid, epoch, 1), (2, "c", pid, epoch, 2),
    ]


def test_empty_partition_reads_back_nothing(real_broker: RunningBroker) -> None:
    topic = new_topic_name("wire")
    with WireClient(real_broker.host, real_broker.port) as client:
        client.create_topic(topic)
        assert client.read_log(topic, 0) == ()


def test_batch_codec_round_trips_wrapping_sequences() -> None:
    batch = ProducerBatch(42, 3, INT32_MAX - 1, ["x", "y", "z"])
    (decoded,) = decode_batches(encode_batch(batch))
    assert [r.sequence for r in decoded.log_records()] == [INT32_MAX - 1, INT32_MAX, 0]
    assert (decoded.producer_id, decoded.producer_epoch) == (42, 3)


def test_closed_port_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(WireError, match=f"cannot connect to 127.0.0.1:{port}"):
        WireClient("127.0.0.1", port, timeout_s=1.0)


def test_silent_server_times_out_with_the_request_named() -> None:
    """A peer that accepts and never answers must not hang the client."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    accepted: list[socket.socket] = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True)
    thread.start()
    try:
        with pytest.raises(WireError, match=r"did not answer ApiVersionsRequest v0 within 0.3s"):
            WireClient("127.0.0.1", server.getsockname()[1], timeout_s=0.3)
    finally:
        thread.join(5)
        for conn in accepted:
            conn.close()
        server.close()


def test_peer_closing_mid_answer_is_a_clear_error() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer_badly() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"\x00\x00\x00\x10\x00\x00")  # announces 16 bytes, sends 2, hangs up

    thread = threading.Thread(target=answer_badly, daemon=True)
    thread.start()
    try:
        with pytest.raises(WireError, match="closed the connection"):
            WireClient("127.0.0.1", server.getsockname()[1], timeout_s=2.0)
    finally:
        thread.join(5)
        server.close()
