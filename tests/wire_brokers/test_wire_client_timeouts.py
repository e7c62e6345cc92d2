"""A request whose answer the broker may hold (an election, a reassignment, a topic creation:
each carries its own ``timeout_ms``) is waited for that long, not for the connection's timeout.
A ZooKeeper-mode election under load once took over 10 s, the connection's timeout, and the
cluster test failed with "did not answer ElectLeadersRequest v2 within 10.0s"."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("kafka")

from kafka.protocol.metadata import ApiVersionsRequest, ApiVersionsResponse

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError


class SlowBroker:
    """Answers every request with an empty ApiVersions v0 answer, the first at once and the
    later ones after ``delay_s`` (on 127.0.0.1, one connection)."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            answered = 0
            while True:
                head = conn.recv(4, socket.MSG_WAITALL)
                if len(head) < 4:
                    return
                body = conn.recv(struct.unpack(">i", head)[0], socket.MSG_WAITALL)
                (correlation,) = struct.unpack(">i", body[4:8])
                if answered:
                    time.sleep(self.delay_s)
                answer = struct.pack(">i", correlation) + bytes(ApiVersionsResponse[0](error_code=0, api_keys=[]).encode())
                try:
                    conn.sendall(struct.pack(">i", len(answer)) + answer)
                except OSError:
                    return
                answered += 1

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def slow() -> Iterator[SlowBroker]:
    broker = SlowBroker(delay_s=3.0)
    yield broker
    broker.close()


def test_a_request_given_longer_is_waited_for_and_the_connection_keeps_its_own_timeout(slow: SlowBroker) -> None:
    client = WireClient("127.0.0.1", slow.port, timeout_s=1.0)
    try:
        answer = client.request(ApiVersionsRequest(), ApiVersionsResponse, 0, timeout_s=10.0)
        assert answer.error_code == 0
        with pytest.raises(WireError, match=r"did not answer ApiVersionsRequest v0 within 1s"):
            client.request(ApiVersionsRequest(), ApiVersionsResponse, 0)
    finally:
        client.close()


def test_a_request_given_longer_still_names_its_own_wait_when_it_runs_out(slow: SlowBroker) -> None:
    client = WireClient("127.0.0.1", slow.port, timeout_s=1.0)
    try:
        with pytest.raises(WireError, match=r"within 1\.5s"):
            client.request(ApiVersionsRequest(), ApiVersionsResponse, 0, timeout_s=1.5)
    finally:
        client.close()


def test_the_admin_requests_wait_past_the_timeout_they_give_the_broker() -> None:
    from types import SimpleNamespace
    from typing import Any

    from kafka_conformance.adapters.brokers import wire_admin

    class Recording:
        address = "127.0.0.1:0"

        def __init__(self) -> None:
            self.waits: dict[str, tuple[int, float | None]] = {}

        def version_for(self, api_key: int) -> int:
            return 2

        def request(self, request: Any, response_class: Any, version: int, *, timeout_s: float | None = None) -> Any:
            self.waits[request.name] = (request.timeout_ms, timeout_s)
            return SimpleNamespace(error_code=0, error_message=None, replica_election_results=[], responses=[])

    client = Recording()
    wire_admin.elect_preferred(client, "t", 0, timeout_s=30.0)  # type: ignore[arg-type]
    wire_admin.reassign(client, "t", 0, [1, 2], timeout_s=30.0)  # type: ignore[arg-type]
    assert set(client.waits) == {"ElectLeadersRequest", "AlterPartitionReassignmentsRequest"}
    for given_ms, waited in client.waits.values():
        assert waited is not None and waited > given_ms / 1000
