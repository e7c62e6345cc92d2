"""The pool that keeps Apache Kafka running across the traces of a run (``shared_brokers``):
started once per spec, stopped with the block (also when the block fails, without hiding why),
replaced when it died or a trace left it in doubt, kept through a client's own failure.  The
brokers here are stand-ins; tests/wire_brokers runs the real ones."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from kafka_conformance.adapters.clients.protocol import ClientRunError
from kafka_conformance.producer import engines
from kafka_conformance.producer.engines import SharedBrokers, parse_broker, shared_brokers, trace_for_run
from kafka_conformance.reference.traces.program import ProducerTrace, SendStep


@attrs.define
class Stand:
    name: str
    pid: int | None = None
    stopped: bool = False


class Starts:
    """Start functions that record what they started and stopped."""

    def __init__(self) -> None:
        self.started: list[Stand] = []

    def __call__(self, name: str, pid: int | None = None) -> Any:
        @contextlib.contextmanager
        def start() -> Iterator[Stand]:
            stand = Stand(name, pid)
            self.started.append(stand)
            try:
                yield stand
            finally:
                stand.stopped = True

        return start


def test_a_spec_starts_once_and_stops_with_the_block() -> None:
    starts = Starts()
    with shared_brokers() as pool:
        first = pool.take("kafka:3.9.1", starts("a"))
        assert pool.take("kafka:3.9.1", starts("b")) is first
        with shared_brokers() as inner:  # a nested block shares the outer pool
            assert inner is pool
        assert not first.stopped
    assert [s.name for s in starts.started] == ["a"] and first.stopped


def test_keep_only_stops_the_other_specs() -> None:
    starts = Starts()
    pool = SharedBrokers()
    single = pool.take(str(parse_broker("kafka:3.9.1")), starts("single"))
    cluster = pool.take(str(parse_broker("kafka-cluster:3.9.1")), starts("cluster"))
    pool.keep_only("kafka-cluster:3.9.1")
    assert single.stopped and not cluster.stopped
    assert list(pool.live) == ["kafka-cluster:3.9.1:3"]
    pool.keep_only("test-broker")  # not shared: nothing of Kafka is needed any more
    assert cluster.stopped and not pool.live


def test_a_broker_that_died_is_started_again() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    starts = Starts()
    pool = SharedBrokers()
    dead = pool.take("kafka:3.9.1", starts("dead", pid=gone.pid))
    again = pool.take("kafka:3.9.1", starts("again"))
    assert dead.stopped and again is not dead and pool.started == 2
    pool.close()


def test_a_failure_to_stop_does_not_hide_what_ended_the_block() -> None:
    @contextlib.contextmanager
    def unstoppable() -> Iterator[Stand]:
        yield Stand("x")
        raise OSError("could not stop")

    with pytest.raises(KeyboardInterrupt), shared_brokers() as pool:
        pool.take("kafka:3.9.1", unstoppable)
        raise KeyboardInterrupt
    with pytest.raises(OSError, match="could not stop"), shared_brokers() as pool:  # alone, it is said
        pool.take("kafka:3.9.1", unstoppable)


def test_a_client_failure_keeps_the_broker_and_anything_else_replaces_it() -> None:
    starts = Starts()
    with shared_brokers():
        with pytest.raises(ClientRunError), engines._shared_or_own("kafka:3.9.1", starts("kept")):
            raise ClientRunError("the client could not start")
        with engines._shared_or_own("kafka:3.9.1", starts("unused")) as running:
            assert running.name == "kept" and not running.stopped
        with pytest.raises(TimeoutError), engines._shared_or_own("kafka:3.9.1", starts("unused")):
            raise TimeoutError("the broker stopped answering")
        assert running.stopped
    assert [s.name for s in starts.started] == ["kept"]


def test_on_a_shared_broker_each_trace_has_a_topic_of_its_own() -> None:
    trace = ProducerTrace([SendStep("a")])
    kafka, tansu = parse_broker("kafka:3.9.1"), parse_broker("tansu")
    assert trace_for_run(kafka, trace) is trace  # outside a block nothing is shared
    with shared_brokers():
        topics = {trace_for_run(kafka, trace).cluster.topic for _ in range(3)}
        assert len(topics) == 3 and all(t.startswith(trace.cluster.topic + "-") for t in topics)
        assert trace_for_run(tansu, trace) is trace  # started afresh for every trace anyway
