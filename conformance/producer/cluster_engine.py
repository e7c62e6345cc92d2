"""A trace on a real Apache Kafka cluster (``--broker kafka-cluster:VERSION[:N]``), cluster steps included.

The traces whose rows need a leader crash, a restart or a clean leader change are n/a on
a single broker; on a cluster the kit starts they run for real
(:mod:`kafka_conformance.adapters.brokers.kafka_cluster` says how each step maps onto an
action).  The fault proxy always stands in front of the cluster: it applies the trace's
fault plan, closes every client connection for ``disconnect``, and logs the attempts and
answers the delivery checker reads.  Steps a real cluster cannot take on cue
(``leaderless`` with its brokers up, ``expire-producers``) refuse the trace by name
before anything starts.

Alone, a trace gets a cluster of its own, started and stopped around it. Inside
:func:`~kafka_conformance.producer.engines.shared_brokers` the traces share one: each
trace gets a topic of its own (replicas placed as the trace's model places them), a
broker a trace crashed is started again before the next trace, and reassignments only
ever touch the trace's own topic, so nothing of one trace leaks into the next.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.traces.events import Event, FaultKind
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, ProducerTrace

__all__ = ["CLUSTER", "cluster_refusal", "open_kafka_cluster"]

CLUSTER = "kafka-cluster"
_ON_CUE = frozenset({ClusterAction.CRASH, ClusterAction.STOP, ClusterAction.RESTART, ClusterAction.FAILOVER, ClusterAction.DISCONNECT})


def cluster_refusal(trace: ProducerTrace, brokers: int) -> str | None:
    """Why ``trace`` cannot run on a real cluster of ``brokers`` brokers (None: it can)."""
    if trace.cluster.brokers != brokers:
        return f"the trace models {trace.cluster.brokers} brokers; this cluster has {brokers}"
    refused = sorted({s.action.value for s in trace.steps if isinstance(s, ClusterStep) and s.action not in _ON_CUE})
    if refused:
        return f"a real cluster cannot take {', '.join(refused)} on cue (the test broker can)"
    return None


Started = Callable[[Callable[[], contextlib.AbstractContextManager[Any]]], contextlib.AbstractContextManager[Any]]
"""How the cluster is had: given the way to start one, a block holding a running cluster
(one of its own, or one shared by the traces of a run)."""


@contextlib.contextmanager
def _own_cluster(version: str, brokers: int) -> Iterator[Any]:
    from kafka_conformance.adapters.brokers.kafka_cluster import start_kafka_cluster

    cluster = start_kafka_cluster(version, brokers)
    try:
        cluster.wait_ready()
        yield cluster
    finally:
        cluster.stop()


@contextlib.contextmanager
def open_kafka_cluster(
    version: str, brokers: int, trace: ProducerTrace, clock: Callable[[], int], *, started: Started | None = None
) -> Iterator[Any]:
    """A running cluster (``started`` says whose), every broker up, the trace's topic created,
    the fault proxy in front."""
    from kafka_conformance.adapters.brokers.fault_proxy import FaultProxy

    with (started or (lambda start: start()))(lambda: _own_cluster(version, brokers)) as cluster:
        cluster.restore()
        spec = trace.cluster
        cluster.create_topic(spec.topic, spec.partitions, spec.replication_factor, spec.min_insync_replicas)
        first = cluster.nodes[0]
        with FaultProxy("127.0.0.1", first.port, trace.plan, clock=clock) as proxy:
            bootstrap = ",".join(proxy.address_for("127.0.0.1", node.port) for node in cluster.nodes)
            yield _ClusterBroker(cluster, proxy, trace, bootstrap)


@attrs.define
class _ClusterBroker:
    cluster: Any
    proxy: Any
    trace: ProducerTrace
    bootstrap: str
    """The proxy's address for every broker: a client whose first broker crashed before it
    learnt the others still finds the cluster, as with a real deployment's bootstrap list."""

    def control(self, step: ClusterStep) -> None:
        topic = self.trace.cluster.topic
        if step.action in (ClusterAction.CRASH, ClusterAction.STOP, ClusterAction.RESTART):
            # As in the model: stopping a broker that is down, or restarting one that is up, does nothing.
            # The proxy stops listening for a broker that goes down (a client's new connection is
            # refused, as by the broker's closed port) and listens again when it is back.
            node = self.cluster.node(step.broker)
            up = node.process is not None
            if step.action is ClusterAction.CRASH and up:
                self.proxy.record_fault(FaultKind.BROKER_CRASH)
                self.proxy.upstream_down("127.0.0.1", node.port)
                self.cluster.crash_and_settle(step.broker, topic)
            elif step.action is ClusterAction.STOP and up:
                self.proxy.record_fault(FaultKind.BROKER_STOP)
                self.proxy.upstream_down("127.0.0.1", node.port)
                self.cluster.stop_and_settle(step.broker, topic)
            elif step.action is ClusterAction.RESTART and not up:
                self.cluster.restart_and_settle(step.broker, topic)
                self.proxy.upstream_up("127.0.0.1", node.port)
        elif step.action is ClusterAction.FAILOVER:
            self.cluster.failover(topic, step.partition)
        elif step.action is ClusterAction.DISCONNECT:
            self.proxy.disconnect_clients()
        else:  # refused before the start by cluster_refusal
            raise ValueError(f"a real cluster cannot take {step.action.value} on cue")

    def tick(self) -> None:
        return None

    def events(self) -> tuple[Event, ...]:
        return tuple(self.proxy.events)

    def final_log(self) -> Mapping[int, tuple[LogRecord, ...]] | None:
        """Every partition read back from its leader (None when one still has none).

        A partition whose every replica crashed (RF 1, row 8b) has no leader to read from,
        so the crashed brokers are started again first: what they kept on disk is the log
        (the client's run is over by then; nothing it saw changes)."""
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

        spec = self.trace.cluster
        out: dict[int, tuple[LogRecord, ...]] = {}
        try:
            leaders = self.cluster.partitions(spec.topic)
            if any(leaders[p].leader < 0 for p in range(spec.partitions)):
                for node in self.cluster.nodes:
                    if node.process is None:
                        self.cluster.restart_and_settle(node.node_id, spec.topic)
                leaders = self.cluster.partitions(spec.topic)
            for p in range(spec.partitions):
                leader = leaders[p].leader
                if leader < 0:
                    return None
                with WireClient("127.0.0.1", self.cluster.node(leader).port) as wire:
                    out[p] = wire.read_log(spec.topic, p)
        except (WireError, KeyError, ValueError):
            return None
        return out

    def log_start(self) -> Mapping[int, int]:
        return {}
