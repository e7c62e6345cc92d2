"""Launchers: each real broker starts on a free 127.0.0.1 port, listens nowhere else, and stops cleanly."""

from __future__ import annotations

import os
import socket
import sys
import time

import pytest

from kafka_conformance.adapters.brokers.launchers import available, start_broker
from kafka_conformance.adapters.brokers.process import (
    BrokerProcess,
    BrokerStartError,
    listening_addresses,
    port_is_listening,
)
from kafka_conformance.adapters.brokers.wire_client import WireClient


def _pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("name", ["tansu", "noida"])
def test_process_broker_binds_loopback_only_and_frees_its_port(name: str) -> None:
    if not available()[name].ok:
        pytest.skip(available()[name].reason)
    with start_broker(name) as broker:
        pid = broker.pid  # type: ignore[attr-defined]
        found = listening_addresses(pid)
        assert ("127.0.0.1", broker.port) in found
        assert all(address == "127.0.0.1" for address, _ in found), found
        if name == "noida":  # its control port is a second listener, also on loopback
            assert len(found) == 2
        with WireClient(broker.host, broker.port) as client:
            assert client.supports(0)
    assert not _pid_alive(pid)
    assert not port_is_listening(broker.port)


def test_rdkafka_mock_lives_in_this_process_on_loopback() -> None:
    if not available()["rdkafka-mock"].ok:
        pytest.skip(available()["rdkafka-mock"].reason)
    with start_broker("rdkafka-mock") as broker:
        assert ("127.0.0.1", broker.port) in listening_addresses(os.getpid())
        assert all(a == "127.0.0.1" for a, _ in listening_addresses(os.getpid()) if _ == broker.port)
    deadline = time.monotonic() + 5
    while port_is_listening(broker.port) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not port_is_listening(broker.port)


def test_unknown_broker_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown broker 'kafka'.*tansu, noida, rdkafka-mock"), start_broker("kafka"):
        pass


@pytest.mark.parametrize("bad", ["bootstrap:", "bootstrap:host", "bootstrap:host:0", "bootstrap::9092"])
def test_bad_bootstrap_address_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"), start_broker(bad):
        pass


def test_bootstrap_reaches_a_running_broker_and_leaves_it_running(tansu) -> None:  # type: ignore[no-untyped-def]
    with start_broker(f"bootstrap:{tansu.bootstrap}") as external:
        assert external.port == tansu.port
    with WireClient(tansu.host, tansu.port) as client:  # still up: the kit never stops a user's broker
        assert client.supports(0)


def test_process_that_exits_early_reports_its_output() -> None:
    process = BrokerProcess("fake", [sys.executable, "-c", "import sys; sys.stderr.write('boom: no config'); sys.exit(3)"])
    with pytest.raises(BrokerStartError, match=r"(?s)exited with 3.*boom: no config"):
        process.wait_listening(1, timeout_s=5)


def test_process_that_never_listens_times_out_and_is_stopped() -> None:
    process = BrokerProcess("sleeper", [sys.executable, "-c", "import time; time.sleep(60)"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BrokerStartError, match=r"not listening on 127\.0\.0\.1"):
        process.wait_listening(port, timeout_s=0.3)
    assert not process.running()


def test_process_listening_beyond_127_0_0_1_is_refused() -> None:
    """127.0.0.2 stands for "any other address" without exposing anything beyond this machine."""
    code = "import socket, time; s = socket.socket(); s.bind(('127.0.0.2', 0)); s.listen(); time.sleep(60)"
    process = BrokerProcess("wide", [sys.executable, "-c", code])
    deadline = time.monotonic() + 10
    while not listening_addresses(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    with pytest.raises(BrokerStartError, match=r"listens beyond 127.0.0.1: 127.0.0.2:\d+"):
        process.check_loopback_only()
    assert not process.running()
