"""The test broker's sockets: what listens while it runs, what a crash or a disconnect cuts, and that close frees everything."""

from __future__ import annotations

import socket

import pytest
from tb_raw import Raw, protocol

from kafka_conformance.adapters.brokers.testbroker import TestCluster
from kafka_conformance.reference.traces.events import Fault, FaultKind
from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep

P = protocol()


def listening_ports() -> set[int]:
    """Local ports in state LISTEN on 127.0.0.1 (or any address) from /proc/net/tcp."""
    ports = set()
    with open("/proc/net/tcp", encoding="ascii") as table:
        next(table)
        for line in table:
            fields = line.split()
            if fields[3] == "0A":  # TCP_LISTEN
                ports.add(int(fields[1].split(":")[1], 16))
    return ports


def api_versions_ok(raw: Raw) -> bool:
    return raw.call(P.metadata.ApiVersionsRequest(), P.metadata.ApiVersionsResponse, 3).error_code == 0


def test_one_listener_per_broker_on_loopback_and_none_after_close() -> None:
    cluster = TestCluster(ClusterSpec(brokers=3))
    try:
        ports = set(cluster.ports)
        assert len(ports) == 3 and ports <= listening_ports()
        assert cluster.bootstrap == ",".join(f"127.0.0.1:{p}" for p in cluster.ports)
        with open("/proc/net/tcp", encoding="ascii") as table:
            ours = [line.split()[1] for line in table if line.split()[1].split(":")[-1] in {f"{p:04X}" for p in ports}]
        assert ours and all(address.startswith("0100007F:") for address in ours)  # 127.0.0.1 only
        with Raw(cluster.ports[0]) as raw:
            assert api_versions_ok(raw)
    finally:
        cluster.close()
    assert not ports & listening_ports()
    for port in ports:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    cluster.close()  # idempotent


def test_a_crashed_broker_drops_its_connections_and_refuses_new_ones_until_restart() -> None:
    with TestCluster(ClusterSpec()) as cluster, Raw(cluster.ports[1]) as raw, Raw(cluster.ports[0]) as other:
        assert api_versions_ok(raw)
        cluster.apply(ClusterStep(ClusterAction.CRASH, broker=1))
        assert raw.receive_frame() is None
        with Raw(cluster.ports[1]) as again:
            again.send(P.metadata.ApiVersionsRequest(), 3)
            assert again.receive_frame() is None
        assert api_versions_ok(other)  # the others carry on
        answer = other.call(P.metadata.MetadataRequest(topics=None), P.metadata.MetadataResponse, 9)
        assert sorted(b.node_id for b in answer.brokers) == [0, 2]
        cluster.apply(ClusterStep(ClusterAction.RESTART, broker=1))
        with Raw(cluster.ports[1]) as back:
            assert api_versions_ok(back)


def test_a_disconnect_step_closes_every_connection_but_new_ones_are_served() -> None:
    with TestCluster(ClusterSpec()) as cluster:
        raws = [Raw(port) for port in cluster.ports]
        try:
            assert all(api_versions_ok(r) for r in raws)
            cluster.apply(ClusterStep(ClusterAction.DISCONNECT))
            assert all(r.receive_frame() is None for r in raws)
        finally:
            for r in raws:
                r.close()
        with Raw(cluster.ports[2]) as fresh:
            assert api_versions_ok(fresh)
        assert [e.kind for e in cluster.events() if isinstance(e, Fault)] == [FaultKind.DISCONNECT]


def test_garbage_frames_close_the_connection_with_a_note() -> None:
    with TestCluster(ClusterSpec()) as cluster, Raw(cluster.ports[0]) as raw:
        raw.sock.sendall(b"\xff\xff\xff\xff")
        assert raw.receive_frame() is None
        assert "frame of -1 bytes" in cluster.notes[-1]
