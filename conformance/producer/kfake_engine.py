"""A trace on a kfake cluster (``--broker kfake-cluster[:N]``): the cluster steps kfake can take, and why not the others.

kfake (franz-go's in-memory cluster, :mod:`kafka_conformance.adapters.go.kfake`) runs
all its brokers in one process over **one shared log per partition**: nothing is
replicated, so nothing can be lost by a broker going away, and the producer state a
new leader sees is the state the old one had (``pkg/kfake/data.go``: one ``partData``
per partition, its ``leader`` a pointer to one of the brokers; Metadata's replicas are
the leader and the brokers after it, ISR equal to replicas, ``03_metadata.go``).  Each
step of a trace's fault plan maps onto what kfake actually offers:

* ``failover``: ``Cluster.MoveTopicPartition`` to the next live broker of the
  partition's placement (the model's ``(p + i) mod N``), a new leader epoch; with no
  other live replica the same leader is elected again under a new epoch, as the
  model does.
* ``crash``: ``Cluster.RemoveNode``: the broker leaves Metadata, its listener closes,
  and (our listen function, ``cmd/kfake-broker/listeners.go``) every connection it
  accepted closes.  Its partitions move to the next live broker of their placement.
  Nothing is lost: this is a crash after the followers had fetched everything, one
  of the outcomes a real crash has.  A crash that would leave a partition without
  a live replica (every trace with replication factor 1 whose crashed broker holds
  the partition: rows 8b, 9) is refused: Kafka then has no leader until the broker
  returns and may lose its unflushed tail, while kfake would hand the partition to
  another broker at once with the log intact, a different step.
* ``restart``: ``Cluster.AddNode`` with the same node id and port; leaders stay where
  they were (as in Kafka, where a restarted broker comes back as a follower).
* ``disconnect``: the fault proxy in front closes every client connection.
* ``leaderless``: refused; a kfake partition is leaderless only when the cluster has
  no broker at all (``noLeader``), and ``RemoveNode`` refuses to remove the last one.
* ``expire-producers``: refused; kfake never expires an idempotent producer's state
  (it has no ``producer.id.expiration.ms``; only transactional ids expire, ``txns.go``).

kfake re-elects the leader of **every** partition at random when a broker leaves or
joins (``shufflePartitions``, ``cluster.go``); the kit then moves each partition to
the leader the step gives it, so a client may meet one extra leader change in
between, which any cluster may show.  The fault proxy always stands in front (it
applies the trace's fault plan and logs the attempts and answers the checker reads).
Each trace gets a cluster of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, ProducerTrace

__all__ = ["DEFAULT_BROKERS", "KFAKE_CLUSTER", "MAX_BROKERS", "kfake_refusal", "open_kfake_cluster", "parse_kfake_cluster"]

KFAKE_CLUSTER = "kfake-cluster"
DEFAULT_BROKERS = 3
MAX_BROKERS = 9
_NEVER = {
    ClusterAction.LEADERLESS: "a kfake partition has no leader only when the cluster has no broker at all "
                              "(RemoveNode refuses to remove the last one)",
    ClusterAction.EXPIRE_PRODUCERS: "kfake never expires an idempotent producer's state (no producer.id.expiration.ms)",
    ClusterAction.STOP: "kfake keeps one log in memory for the whole cluster: a broker stopped and started again "
                        "reloads no producer snapshot, which is what a clean stop is there to show",
}


def parse_kfake_cluster(rest: str) -> int:
    """``[N]`` after ``kfake-cluster:`` → the number of brokers; ValueError naming what is wrong."""
    if not rest:
        return DEFAULT_BROKERS
    if not (rest.isdigit() and 1 <= int(rest) <= MAX_BROKERS):
        raise ValueError(f"{KFAKE_CLUSTER}:{rest}: N is the number of brokers, 1 to {MAX_BROKERS}, not {rest!r}")
    return int(rest)


def placement(partition: int, brokers: int, replication_factor: int) -> tuple[int, ...]:
    """The brokers holding ``partition``, preferred leader first: the reference cluster's placement."""
    return tuple((partition + i) % brokers for i in range(replication_factor))


def kfake_refusal(trace: ProducerTrace, brokers: int) -> str | None:
    """Why ``trace`` cannot run on a kfake cluster of ``brokers`` brokers (None: it can)."""
    spec = trace.cluster
    if spec.brokers != brokers:
        return f"the trace models {spec.brokers} brokers; this cluster has {brokers}"
    steps = [s for s in trace.steps if isinstance(s, ClusterStep)]
    never = sorted({s.action for s in steps if s.action in _NEVER}, key=lambda a: a.value)
    if never:
        return "; ".join(f"kfake cannot take {a.value}: {_NEVER[a]}" for a in never)
    down: set[int | None] = set()
    for step in steps:
        if step.action is ClusterAction.RESTART:
            down.discard(step.broker)
        elif step.action is ClusterAction.CRASH:
            down.add(step.broker)
            for p in range(spec.partitions):
                if set(placement(p, brokers, spec.replication_factor)) <= down:
                    return (f"kfake cannot take this crash: partition {p} (replication factor {spec.replication_factor}) "
                            f"would have no live replica, so Kafka has no leader until the broker returns and may lose "
                            f"its unflushed tail; kfake keeps one log and would hand the partition to another broker at once")
    return None


@contextlib.contextmanager
def open_kfake_cluster(brokers: int, trace: ProducerTrace, clock: Callable[[], int]) -> Iterator[Any]:
    """Start kfake with ``brokers`` brokers, create the trace's topic with the model's leaders,
    put the fault proxy in front; stop all at the end (also on failure)."""
    from kafka_conformance.adapters.brokers.fault_proxy import FaultProxy
    from kafka_conformance.adapters.go.kfake import start_kfake

    cluster = start_kfake(brokers)
    try:
        spec = trace.cluster
        _create_topic(cluster, spec.topic, spec.partitions, spec.replication_factor)
        for p in range(spec.partitions):
            cluster.move(spec.topic, p, placement(p, brokers, spec.replication_factor)[0])
        upstream = [(a.rpartition(":")[0], int(a.rpartition(":")[2])) for a in cluster.addresses]
        with FaultProxy(*upstream[0], trace.plan, clock=clock) as proxy:
            bootstrap = ",".join(proxy.address_for(host, port) for host, port in upstream)
            yield _KfakeClusterBroker(cluster, proxy, trace, bootstrap)
    finally:
        cluster.stop()


def _create_topic(cluster: Any, topic: str, partitions: int, replication_factor: int) -> None:
    """CreateTopics must reach kfake's controller (its last broker at the start); try each in turn."""
    from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

    last: Exception | None = None
    for address in reversed(cluster.addresses):
        host, _, port = address.rpartition(":")
        try:
            with WireClient(host, int(port)) as wire:
                wire.create_topic(topic, partitions=partitions, replication_factor=replication_factor)
            return
        except WireError as exc:
            last = exc
    raise WireError(f"kfake did not create {topic}: {last}")


@attrs.define
class _KfakeClusterBroker:
    cluster: Any
    proxy: Any
    trace: ProducerTrace
    bootstrap: str
    """The proxy's address for every broker: a client whose first broker crashed before it
    learnt the others still finds the cluster, as with a real deployment's bootstrap list."""
    down: set[int] = attrs.field(factory=set)

    def _leaders(self) -> dict[int, int]:
        spec = self.trace.cluster
        return {p: self.cluster.leader(spec.topic, p) for p in range(spec.partitions)}

    def _next_live(self, partition: int, after: int) -> int | None:
        """The next live broker of ``partition``'s placement after ``after`` (None: there is none)."""
        spec = self.trace.cluster
        order = placement(partition, spec.brokers, spec.replication_factor)
        start = order.index(after) + 1 if after in order else 0
        live = [b for b in order[start:] + order[:start] if b != after and b not in self.down]
        return live[0] if live else None

    def control(self, step: ClusterStep) -> None:
        topic = self.trace.cluster.topic
        if step.action is ClusterAction.FAILOVER:
            assert step.partition is not None
            current = self.cluster.leader(topic, step.partition)
            target = self._next_live(step.partition, current)
            self.cluster.move(topic, step.partition, current if target is None else target)
        elif step.action is ClusterAction.CRASH:
            assert step.broker is not None
            if step.broker in self.down:
                return
            before = self._leaders()
            self.cluster.crash(step.broker)
            self.down.add(step.broker)
            for p, leader in before.items():
                target = self._next_live(p, leader) if leader == step.broker else leader
                if target is None:  # refused before the start by kfake_refusal
                    raise ValueError(f"partition {p} has no live replica after broker {step.broker} crashed")
                self.cluster.move(topic, p, target)
        elif step.action is ClusterAction.RESTART:
            assert step.broker is not None
            if step.broker not in self.down:
                return
            before = self._leaders()
            self.cluster.restart(step.broker)
            self.down.discard(step.broker)
            for p, leader in before.items():
                self.cluster.move(topic, p, leader)
        elif step.action is ClusterAction.DISCONNECT:
            self.proxy.disconnect_clients()
        else:  # refused before the start by kfake_refusal
            raise ValueError(f"kfake cannot take {step.action.value}")

    def tick(self) -> None:
        return None

    def events(self) -> tuple[Event, ...]:
        return tuple(self.proxy.events)

    def final_log(self) -> Mapping[int, tuple[LogRecord, ...]] | None:
        """Every partition read back from its leader, straight from kfake."""
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
        from kafka_conformance.adapters.go.kfake import KfakeError

        spec = self.trace.cluster
        out: dict[int, tuple[LogRecord, ...]] = {}
        try:
            for p, leader in self._leaders().items():
                host, _, port = self.cluster.addresses[leader].rpartition(":")
                with WireClient(host, int(port)) as wire:
                    out[p] = wire.read_log(spec.topic, p)
        except (WireError, KfakeError, IndexError):
            return None
        return out

    def log_start(self) -> Mapping[int, int]:
        return {}
