"""A cluster of Apache Kafka brokers the kit starts, crashes, restarts and re-leads (issue 16).

``kafka-cluster:VERSION[:N]``: N broker processes (default 3) and one KRaft controller
process of a release from 3.3 on, or, from 2.4 to 3.2, N ZooKeeper-mode brokers sharing
one ZooKeeper the kit starts (2.4 is the first release with the reassignment request the
``failover`` step needs, KIP-455); every listener on 127.0.0.1, from the same jars as
``kafka:VERSION``.  The controller (or ZooKeeper) is a process of its own so that any
broker can be crashed without losing the cluster's metadata.  Broker ``i`` of a trace is node id ``i``; a topic the
kit creates has its replicas assigned ``[0, 1, ..., RF-1]`` (rotated per partition), so
broker 0 leads partition 0 as the trace table assumes.

The cluster steps of a trace map onto real actions:

* ``crash``: SIGKILL the broker's process group (no shutdown hook, no controlled
  shutdown), then wait until Metadata shows a new leader for the partitions it led
  (the controller fences it after ``broker.session.timeout.ms``, set to 2 s here);
* ``restart``: start the same node again on its data and port, and wait until it is
  back in the cluster's Metadata;
* ``failover``: rotate the partition's replica list so that the next in-sync replica is
  preferred (AlterPartitionReassignments) and elect it (ElectLeaders, PREFERRED), then
  wait until Metadata names it;
* ``disconnect`` is done by the fault proxy in front of the cluster.

What a real cluster cannot do on cue (``leaderless`` with its brokers up, ``expire-producers``)
is refused by name.  A kill loses no page-cache data, so the model's "unflushed tail lost
on crash" happens here only through replication (an unreplicated tail, acks=1), as in
production with ``flush.messages`` at its default.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.kafka_broker import (
    CLEAN_STOP_S,
    KRAFT_FIRST,
    START_TIMEOUT_S,
    RestartError,
    broker_artifacts,
    broker_release,
    cluster_id,
    format_storage,
    kafka_argv,
    kafka_broker_reason,
    shared_broker_properties,
)
from kafka_conformance.adapters.brokers.kafka_zookeeper import SESSION_MS, start_zookeeper, zookeeper_mode_properties
from kafka_conformance.adapters.brokers.process import BrokerProcess, BrokerStartError, free_port
from kafka_conformance.adapters.brokers.wire_admin import create_assigned_topic, elect_preferred, reassign
from kafka_conformance.adapters.jvm.maven import cached_jars
from kafka_conformance.adapters.jvm.session import jdk_tool
from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["DEFAULT_BROKERS", "MAX_BROKERS", "ZOOKEEPER_CLUSTER_FIRST", "KafkaCluster", "cluster_release", "parse_cluster",
           "start_kafka_cluster"]

MAX_BROKERS = 5
"""Each broker is a JVM of about 300 MB; five are plenty for every trace the kit has."""
DEFAULT_BROKERS = 3
CONTROLLER_ID = 1000
SETTLE_TIMEOUT_S = 60.0


ZOOKEEPER_CLUSTER_FIRST = KafkaVersion(2, 4, 0)
"""The first release with AlterPartitionReassignments (KIP-455), which ``failover`` uses."""
ZOOKEEPER_SESSION_MS = SESSION_MS
"""How soon a crashed ZooKeeper-mode broker is noticed (every crash row waits that long)."""


def cluster_release(version: str) -> KafkaVersion:
    """A release the kit starts clusters of: 2.4 and later (ZooKeeper mode before 3.3); ValueError otherwise."""
    release = broker_release(version)
    if release < ZOOKEEPER_CLUSTER_FIRST:
        raise ValueError(f"kafka-cluster:{version}: clusters are started from {ZOOKEEPER_CLUSTER_FIRST} (ZooKeeper mode "
                         f"before {KRAFT_FIRST}, KRaft from it): older releases lack the reassignment request a "
                         f"failover needs (KIP-455); one broker of this release: kafka:{version}")
    return release


def parse_cluster(rest: str) -> tuple[str, int]:
    """``VERSION[:N]`` after ``kafka-cluster:`` → (release, brokers); ValueError naming what is wrong."""
    version, _, count = rest.partition(":")
    if not version:
        raise ValueError("kafka-cluster:VERSION[:N] needs a release, e.g. kafka-cluster:4.3.1")
    if count and not (count.isdigit() and 1 <= int(count) <= MAX_BROKERS):
        raise ValueError(f"kafka-cluster:{rest}: N is the number of brokers, 1 to {MAX_BROKERS}, not {count!r}")
    return str(cluster_release(version)), int(count) if count else DEFAULT_BROKERS


def _common(release: KafkaVersion, controller_port: int, data: Path) -> list[str]:
    lines = [
        f"controller.quorum.voters={CONTROLLER_ID}@127.0.0.1:{controller_port}",
        "controller.listener.names=CONTROLLER",
        f"log.dirs={data}",
    ]
    if release >= KafkaVersion(4, 0, 0):
        lines += ["share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1"]
    return lines


def _controller_properties(release: KafkaVersion, port: int, data: Path) -> str:
    return "\n".join([
        "process.roles=controller",
        f"node.id={CONTROLLER_ID}",
        f"listeners=CONTROLLER://127.0.0.1:{port}",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT",
        "broker.session.timeout.ms=2000",
        "num.partitions=1",
        "group.initial.rebalance.delay.ms=0",
        *_common(release, port, data),
    ]) + "\n"


def _broker_properties(release: KafkaVersion, node: int, port: int, controller_port: int, brokers: int, data: Path) -> str:
    return "\n".join([
        "process.roles=broker",
        f"node.id={node}",
        f"listeners=PLAINTEXT://127.0.0.1:{port}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{port}",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "broker.heartbeat.interval.ms=500",
        "replica.lag.time.max.ms=5000",
        *shared_broker_properties(replication=min(3, brokers)),
        *_common(release, controller_port, data),
    ]) + "\n"


@attrs.define
class _Node:
    node_id: int
    port: int
    home: Path
    process: BrokerProcess | None = None

    @property
    def config(self) -> Path:
        return self.home / "server.properties"


@attrs.define
class KafkaCluster:
    """A running cluster: its brokers by node id, the controller, and the actions on them."""

    release: KafkaVersion
    java: str
    classpath: str
    root: Path
    controller: BrokerProcess
    nodes: list[_Node]
    timeout_s: float = START_TIMEOUT_S

    @property
    def bootstrap(self) -> str:
        live = [n for n in self.nodes if n.process is not None] or self.nodes
        return f"127.0.0.1:{live[0].port}"

    def describe(self) -> str:
        mode = "KRaft, {} brokers and a controller" if self.release >= KRAFT_FIRST else "ZooKeeper mode, {} brokers and a ZooKeeper"
        return f"Apache Kafka {self.release} ({mode.format(len(self.nodes))}) at {self.bootstrap}"

    def node(self, broker: int) -> _Node:
        if not 0 <= broker < len(self.nodes):
            raise ValueError(f"broker {broker} is not in this cluster of {len(self.nodes)} brokers")
        return self.nodes[broker]

    def processes(self) -> list[BrokerProcess]:
        return [self.controller, *(n.process for n in self.nodes if n.process is not None)]

    # -- lifecycle -------------------------------------------------------------------
    def _launch(self, node: _Node) -> None:
        run = node.home / "run"
        run.mkdir(exist_ok=True)
        node.process = BrokerProcess(f"kafka-{self.release}-broker-{node.node_id}",
                                     kafka_argv(self.java, self.classpath, node.config), workdir=str(run))
        node.process.wait_listening(node.port, self.timeout_s)

    def crash(self, broker: int) -> None:
        node = self.node(broker)
        if node.process is None:
            raise ValueError(f"broker {broker} is already down")
        node.process.crash()
        node.process = None

    def stop_broker(self, broker: int) -> None:
        """SIGTERM ``broker`` and let it shut down cleanly (a controlled shutdown: leadership moves
        away, the log is flushed and the producer snapshots written, as ``Log.close`` does)."""
        node = self.node(broker)
        if node.process is None:
            raise ValueError(f"broker {broker} is already down")
        try:
            ended = node.process.stop_cleanly(CLEAN_STOP_S)
        finally:
            node.process = None  # stopped, or killed after the grace: down either way
        if not ended:
            raise RestartError(f"broker {broker} did not shut down within {CLEAN_STOP_S:.0f} s of SIGTERM; it was killed")

    def restart(self, broker: int) -> None:
        node = self.node(broker)
        if node.process is not None:
            raise ValueError(f"broker {broker} is running")
        self._launch(node)

    # -- what the cluster says about itself (over the wire) ------------------------------
    def _client(self) -> Any:
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

        last: Exception | None = None
        for node in self.nodes:
            if node.process is not None:
                try:
                    return WireClient("127.0.0.1", node.port, timeout_s=10.0)
                except WireError as exc:
                    last = exc
        raise BrokerStartError(f"no broker of the cluster answers: {last}")

    def _admin(self) -> Any:
        """A connection admin requests may take: any live broker in KRaft mode (it forwards them),
        the controller in ZooKeeper mode (NOT_CONTROLLER, 41, from any other)."""
        if self.release >= KRAFT_FIRST:
            return self._client()
        from kafka_conformance.adapters.brokers.wire_client import WireClient

        with self._client() as client:
            controller = client.controller_id()
        node = self.node(controller) if 0 <= controller < len(self.nodes) else None
        if node is None or node.process is None:
            raise BrokerStartError(f"no live controller in Metadata (it names {controller})")
        return WireClient("127.0.0.1", node.port, timeout_s=10.0)

    def partitions(self, topic: str) -> dict[int, Any]:
        """Partition metadata of ``topic`` by partition, from a live broker."""
        with self._client() as client:
            _, topics = client.metadata([topic])
        return {p.partition: p for t in topics if t.name == topic for p in t.partitions}

    def live_brokers(self) -> set[int]:
        with self._client() as client:
            brokers, _ = client.metadata([])
        return set(brokers)

    def wait_ready(self) -> None:
        """Every running broker registered (in Metadata) and producer ids served."""
        running = {n.node_id for n in self.nodes if n.process is not None}
        wait_until(f"{self.describe()}: every broker in Metadata", lambda: running <= self.live_brokers(), self.timeout_s)

        def serves_ids() -> bool:
            with self._client() as client:
                client.init_producer_id()
            return True

        wait_until(f"{self.describe()}: InitProducerId served", serves_ids, self.timeout_s)
        if self.release < KRAFT_FIRST:  # admin requests need a live controller
            wait_until(f"{self.describe()}: a live controller", lambda: self._admin().close() is None, self.timeout_s)

    def restore(self) -> None:
        """Every broker running and registered again: a broker the last trace crashed (or
        one that died on its own) is started afresh from its data directory."""
        down = False
        for node in self.nodes:
            if node.process is not None and not node.process.running():
                node.process.stop()
                node.process = None
            if node.process is None:
                self._launch(node)
                down = True
        if down:
            self.wait_ready()

    def create_topic(self, topic: str, partitions: int, replication_factor: int, min_insync: int) -> None:
        """Replicas of partition p are brokers p, p+1, ... (mod N): broker 0 leads partition 0."""
        n = len(self.nodes)
        assignments = {p: [(p + k) % n for k in range(replication_factor)] for p in range(partitions)}
        with self._admin() as client:
            create_assigned_topic(client, topic, assignments, configs={"min.insync.replicas": str(min_insync)})
        wait_until(f"{topic}: every replica in sync",
                   lambda: all(set(m.isr) >= set(assignments[p]) for p, m in self.partitions(topic).items()))

    # -- the cluster steps of a trace ---------------------------------------------------
    def crash_and_settle(self, broker: int, topic: str) -> None:
        """SIGKILL ``broker``; wait until no partition of ``topic`` names it leader any more."""
        self.crash(broker)
        if self.live_nodes():  # with none left, no one is leader and no one can say so
            wait_until(f"a new leader after broker {broker} crashed",
                       lambda: all(m.leader != broker for m in self.partitions(topic).values()))

    def stop_and_settle(self, broker: int, topic: str) -> None:
        """Stop ``broker`` cleanly; wait until no partition of ``topic`` names it leader any more."""
        self.stop_broker(broker)
        if self.live_nodes():
            wait_until(f"a new leader after broker {broker} stopped",
                       lambda: all(m.leader != broker for m in self.partitions(topic).values()))

    def live_nodes(self) -> list[int]:
        """The brokers whose process runs."""
        return [i for i in range(len(self.nodes)) if self.nodes[i].process is not None]

    def restart_and_settle(self, broker: int, topic: str) -> None:
        """Start ``broker`` again; wait until it is registered and back in every ISR it belongs to."""
        self.restart(broker)
        wait_until(f"broker {broker} back in the cluster", lambda: broker in self.live_brokers())
        wait_until(f"broker {broker} back in sync", lambda: all(
            broker in m.isr and m.leader >= 0 for m in self.partitions(topic).values() if broker in m.replicas))

    def failover(self, topic: str, partition: int) -> int:
        """Move leadership of ``topic-partition`` to the next live in-sync replica after the
        leader in placement order (brokers p, p+1, ... as :meth:`create_topic` placed them), as
        the reference cluster does; the leader's id afterwards.  With no other in-sync replica
        leadership stays where it is: the model re-elects the same leader under a new epoch,
        which Kafka cannot be made to do on cue (the producer sees no difference either way)."""
        meta = self.partitions(topic)[partition]
        n = len(self.nodes)
        placement = sorted(meta.replicas, key=lambda r: (r - partition) % n)
        start = placement.index(meta.leader) + 1 if meta.leader in placement else 0
        others = [r for r in placement[start:] + placement[:start]
                  if r != meta.leader and r in meta.isr and self.node(r).process is not None]
        if not others:
            return int(meta.leader)
        target = int(others[0])
        self.lead(topic, partition, target)
        return target

    def lead(self, topic: str, partition: int, broker: int) -> None:
        """Make ``broker``, a replica of ``topic-partition``, its leader: once it is in sync, first in
        the replica list (AlterPartitionReassignments), then elected as the preferred leader."""
        wait_until(f"broker {broker} in sync for {topic}-{partition}", lambda: broker in self.partitions(topic)[partition].isr)
        order = [broker, *(r for r in self.partitions(topic)[partition].replicas if r != broker)]
        with self._admin() as client:
            reassign(client, topic, partition, order)
            wait_until(f"{topic}-{partition} reassigned to {order}",
                       lambda: list(self.partitions(topic)[partition].replicas) == order)
            elect_preferred(client, topic, partition)
        wait_until(f"broker {broker} leading {topic}-{partition}", lambda: self.partitions(topic)[partition].leader == broker)

    def stop(self) -> None:
        """Brokers first (a controlled shutdown each), then the controller; the data goes too."""
        try:
            for node in self.nodes:
                if node.process is not None:
                    node.process.stop()
                    node.process = None
        finally:
            self.controller.stop()
            shutil.rmtree(self.root, ignore_errors=True)


def start_kafka_cluster(version: str, brokers: int = DEFAULT_BROKERS, timeout_s: float = START_TIMEOUT_S) -> KafkaCluster:
    """Format and start a controller and ``brokers`` brokers of ``version``; the caller stops it.

    Readiness (every broker in Metadata, producer ids served) is the caller's
    (:func:`~kafka_conformance.adapters.brokers.launchers.start_kafka_cluster_broker`)."""
    release = cluster_release(version)
    if not 1 <= brokers <= MAX_BROKERS:
        raise ValueError(f"kafka-cluster:{version}:{brokers}: a cluster has 1 to {MAX_BROKERS} brokers")
    reason = kafka_broker_reason(str(release))
    if reason is not None:
        raise BrokerStartError(f"kafka-cluster:{release}: {reason}")
    java = jdk_tool("java")
    assert java is not None
    classpath = os.pathsep.join(str(j) for j in cached_jars(broker_artifacts(release)[0]) or ())
    if release < KRAFT_FIRST:
        return _start_zookeeper_cluster(release, java, classpath, brokers, timeout_s)
    root = Path(tempfile.mkdtemp(prefix=f"kc-kafka-cluster-{release}-"))
    ports: set[int] = set()
    while len(ports) < brokers + 1:
        ports.add(free_port())
    controller_port, *broker_ports = sorted(ports)
    (root / "controller").mkdir()
    controller_config = root / "controller" / "server.properties"
    controller_config.write_text(_controller_properties(release, controller_port, root / "controller" / "data"),
                                 encoding="utf-8")
    nodes = []
    for i, port in enumerate(broker_ports):
        home = root / f"broker-{i}"
        home.mkdir()
        node = _Node(i, port, home)
        node.config.write_text(_broker_properties(release, i, port, controller_port, brokers, home / "data"), encoding="utf-8")
        nodes.append(node)
    controller: BrokerProcess | None = None
    try:
        format_storage(java, classpath, [controller_config, *(n.config for n in nodes)], root, cluster_id())
        (root / "controller" / "run").mkdir()
        controller = BrokerProcess(f"kafka-{release}-controller", kafka_argv(java, classpath, controller_config),
                                   workdir=str(root / "controller" / "run"))
        controller.wait_listening(controller_port, timeout_s)
    except BaseException:
        _abandon(controller, root)
        raise
    return _launched(KafkaCluster(release, java, classpath, root, controller, nodes, timeout_s))


def _start_zookeeper_cluster(release: KafkaVersion, java: str, classpath: str, brokers: int, timeout_s: float) -> KafkaCluster:
    """A ZooKeeper on 127.0.0.1 and ``brokers`` ZooKeeper-mode brokers using it (2.4 to 3.2)."""
    root = Path(tempfile.mkdtemp(prefix=f"kc-kafka-cluster-{release}-"))
    zookeeper: BrokerProcess | None = None
    try:
        zookeeper, zookeeper_port = start_zookeeper(java, classpath, root / "zookeeper", timeout_s)
        ports: set[int] = set()
        while len(ports) < brokers:
            ports.add(free_port())
        nodes = []
        for i, port in enumerate(sorted(ports)):
            home = root / f"broker-{i}"
            home.mkdir()
            node = _Node(i, port, home)
            extra = [f"zookeeper.session.timeout.ms={ZOOKEEPER_SESSION_MS}", "replica.lag.time.max.ms=5000"]
            node.config.write_text(zookeeper_mode_properties(port, zookeeper_port, home / "data", i,
                                                             replication=min(3, brokers), extra=extra), encoding="utf-8")
            nodes.append(node)
    except BaseException:
        _abandon(zookeeper, root)
        raise
    return _launched(KafkaCluster(release, java, classpath, root, zookeeper, nodes, timeout_s))


def _abandon(controller: BrokerProcess | None, root: Path) -> None:
    """A start that failed before the brokers: the controller (or ZooKeeper) stopped, if it ran, and the directory gone."""
    if controller is not None:
        controller.stop()
    shutil.rmtree(root, ignore_errors=True)


def _launched(cluster: KafkaCluster) -> KafkaCluster:
    """``cluster`` with every broker launched; on any failure all of it is stopped (:meth:`KafkaCluster.stop`)."""
    try:
        for node in cluster.nodes:
            cluster._launch(node)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def wait_until(what: str, check: object, timeout_s: float = SETTLE_TIMEOUT_S) -> None:
    """Poll ``check()`` (truthy when done; it may raise to mean "not yet") until ``timeout_s``."""
    assert callable(check)
    deadline = time.monotonic() + timeout_s
    last = ""
    while True:
        try:
            if check():
                return
        except Exception as exc:  # the cluster is moving: any error means "not yet"
            last = f": {exc}"
        if time.monotonic() >= deadline:
            raise BrokerStartError(f"{what} did not happen within {timeout_s:.0f} s{last}")
        time.sleep(0.1)
