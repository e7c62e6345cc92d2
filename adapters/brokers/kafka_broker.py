"""Apache Kafka's own broker, started by the kit from the jars of a release (issue 16).

One node, from the runtime classpath of ``org.apache.kafka:kafka_2.13:VERSION``
(``kafka_2.12`` before 2.4) as its POM declares it, fetched and checked against the
lock by ``kafka-conformance fetch kafka-broker:VERSION``, started as Kafka's scripts
would, without the scripts:

* **KRaft combined mode** (``process.roles=broker,controller``), 3.3.0 and later:
  ``server.properties`` in a scratch directory, every listener on 127.0.0.1 on a free
  port, the controller listener out of ``advertised.listeners`` (3.3 to 3.8 refuse it
  there); the storage formatted with ``kafka.tools.StorageTool format`` and a cluster id
  made here (base64url of 16 random bytes, as ``random-uuid`` makes them: a JVM for it
  cost 1 to 2 s).
* **ZooKeeper mode**, 1.0.0 to 3.2.x: a ZooKeeper of its own first
  (:mod:`~kafka_conformance.adapters.brokers.kafka_zookeeper`, which also says which
  jar is substituted before 2.4 and why).

Then ``java -Xmx512m -XX:TieredStopAtLevel=1 -cp JARS kafka.Kafka server.properties``
(C1 only: a quicker start, and the broker's work here is small).  No logging backend
is added: Kafka logs nowhere (SLF4J's no-op logger) and readiness comes from the broker
itself (ApiVersions, then InitProducerId, answered).  Each process is a
:class:`~kafka_conformance.adapters.brokers.process.BrokerProcess`, so it is refused if
it listens beyond 127.0.0.1 and stopped with everything it started.  Facts and figures:
``docs/broker-conformance.md``.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Sequence
from pathlib import Path

import attrs

from kafka_conformance.adapters.brokers import kafka_zookeeper as zk
from kafka_conformance.adapters.brokers.process import BrokerProcess, BrokerStartError, free_port
from kafka_conformance.adapters.jvm.maven import Artifact, JarError, cached_jars, load_lock
from kafka_conformance.adapters.jvm.session import jdk_tool
from kafka_conformance.adapters.reaper import stop_tree, tagged_env
from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES, KafkaVersion

__all__ = [
    "BROKER_RELEASES", "KRAFT_RELEASES", "ZOOKEEPER_RELEASES", "KafkaNode", "broker_artifacts", "broker_release",
    "kafka_broker_reason", "pinned_broker_releases", "start_kafka_broker",
]

KRAFT_FIRST = KafkaVersion(3, 3, 0)
"""KRaft production-ready (KIP-833): from here on the kit starts KRaft brokers."""
OLDEST_STARTED = KafkaVersion(1, 0, 0)
"""The oldest broker the reference models (five-batch window, KAFKA-5494); 0.11 does not start on Java 17."""
KRAFT_RELEASES = tuple(v for v in IDEMPOTENCE_RELEASES if v >= KRAFT_FIRST)
ZOOKEEPER_RELEASES = tuple(v for v in IDEMPOTENCE_RELEASES if OLDEST_STARTED <= v < KRAFT_FIRST)
BROKER_RELEASES = ZOOKEEPER_RELEASES + KRAFT_RELEASES
FORMAT_TIMEOUT_S = 120.0
START_TIMEOUT_S = 120.0
"""A cold JVM on a busy 2-core machine: about 5 s measured, 25x headroom before a start is
called failed (the broker's own output is then quoted)."""


def broker_artifacts(version: str | KafkaVersion) -> tuple[Artifact, ...]:
    """The jar sets a broker of ``version`` runs from: Kafka's core (Scala 2.13 from 2.4, 2.12
    before), and for releases before 2.4 the ZooKeeper client that replaces 3.4's."""
    release = KafkaVersion.parse(str(version))
    scala = "kafka_2.13" if release >= KafkaVersion(2, 4, 0) else "kafka_2.12"
    core = Artifact("org.apache.kafka", scala, str(release))
    return (core, zk.ZOOKEEPER_CLIENT) if zk.needs_client_substitute(release) else (core,)


def broker_release(version: str) -> KafkaVersion:
    """``version`` as a release the kit starts brokers of; ValueError naming the range otherwise."""
    parsed = KafkaVersion.parse(version)
    if parsed not in BROKER_RELEASES:
        first, last = BROKER_RELEASES[0], BROKER_RELEASES[-1]
        why = "before the oldest broker the reference models" if parsed < first else "not a release the kit models"
        raise ValueError(f"kafka:{version}: the kit starts brokers of {first} to {last} "
                         f"(ZooKeeper mode before {KRAFT_FIRST}, KRaft from it); {version} is {why}")
    return parsed


def pinned_broker_releases() -> tuple[KafkaVersion, ...]:
    """The broker releases whose every jar set the kit's lock pins (what ``fetch --all-brokers``
    fetches and the release sweep runs); others need ``fetch --update-lock`` by a maintainer."""
    locked = load_lock()
    return tuple(v for v in BROKER_RELEASES if all(a.coordinate in locked for a in broker_artifacts(v)))


def kafka_broker_reason(version: str) -> str | None:
    """Why ``kafka:VERSION`` cannot be started here (None: it can); starts nothing."""
    release = broker_release(version)
    if jdk_tool("java") is None:
        return "no Java runtime (java) on the PATH or under $JAVA_HOME"
    try:
        if any(cached_jars(a) is None for a in broker_artifacts(release)):
            return f"its jars are not fetched yet (run: kafka-conformance fetch kafka-broker:{release})"
    except JarError as exc:
        return str(exc)
    return None


CLEAN_STOP_S = 60.0
"""How long a controlled shutdown may take before a clean restart is called failed (a KRaft
node measured 1 to 3 s here)."""


class RestartError(BrokerStartError):
    """A broker did not stop or start again as asked (its output is quoted)."""


@attrs.define
class KafkaNode:
    """A started broker and what it needs (its ZooKeeper), stopped together, broker first.

    The data directory lives under ``root``, outside the broker process's scratch directory,
    so that :meth:`stop_for_restart` and :meth:`start_again` bring the broker back on its own data."""

    process: BrokerProcess
    port: int
    release: KafkaVersion
    mode: str
    """"KRaft, one node" or "ZooKeeper mode, one broker" (and which client, where substituted)."""
    zookeeper: BrokerProcess | None = None
    root: Path | None = None
    restarts: int = 0

    def stop_for_restart(self, *, clean: bool) -> None:
        """Stop the broker, keeping its data for :meth:`start_again`.

        ``clean``: SIGTERM and a controlled shutdown (which snapshots producer state); a
        RestartError if it does not end within :data:`CLEAN_STOP_S`, since a kill would make it
        a crash.  Otherwise SIGKILL of the process group (no shutdown hook; the page cache
        keeps every write, so no data is lost)."""
        if clean:
            if not self.process.stop_cleanly(CLEAN_STOP_S):
                raise RestartError(f"{self.process.name}: no controlled shutdown within {CLEAN_STOP_S:.0f} s of SIGTERM; "
                                   "it was killed")
        else:
            self.process.crash()

    def start_again(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Start the stopped broker with the same configuration, port and data (a fresh scratch
        directory for its output); BrokerStartError if it does not listen.  Readiness is the
        caller's to check."""
        self.process.stop()
        self.restarts += 1
        run = Path(self.process.workdir).parent / f"run-{self.restarts}"
        run.mkdir(parents=True, exist_ok=True)
        self.process = BrokerProcess(self.process.name, self.process.argv, workdir=str(run))
        self.process.wait_listening(self.port, timeout_s)

    @property
    def description(self) -> str:
        return f"Apache Kafka {self.release} ({self.mode}) at 127.0.0.1:{self.port}"

    def stop(self) -> None:
        try:
            self.process.stop()
        finally:
            if self.zookeeper is not None:
                self.zookeeper.stop()
            if self.root is not None:
                shutil.rmtree(self.root, ignore_errors=True)


def cluster_id() -> str:
    """What ``StorageTool random-uuid`` prints: base64url of 16 random bytes, no padding, never
    starting with '-' (Kafka's Uuid.randomUuid refuses those)."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


def shared_broker_properties(replication: int = 1) -> list[str]:
    """The settings every broker the kit starts shares, whatever its mode: new topics get one
    partition, the internal topics (consumer offsets, transaction state) one partition each
    at the cluster's replication (at most 3, min ISR 1, so one broker down does not stop
    transactions), and no rebalance delay; production defaults (RF 3, 50 partitions, 3 s)
    would make a one-broker cluster refuse transactional work and slow every start.  The log
    start offset is checkpointed once a day instead of every minute, so that what a crash
    keeps of a DeleteRecords does not depend on when the minute fell (a clean shutdown
    writes it all the same).  The coordinator looks for timed-out transactions every 200 ms instead
    of every 10 s, so that a transaction script's ``expire`` step waits for its timeout, not for
    the check after it."""
    return [
        "num.partitions=1",
        f"offsets.topic.replication.factor={replication}",
        "offsets.topic.num.partitions=1",
        f"transaction.state.log.replication.factor={replication}",
        "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=1",
        "group.initial.rebalance.delay.ms=0",
        "log.flush.start.offset.checkpoint.interval.ms=86400000",
        "transaction.abort.timed.out.transaction.cleanup.interval.ms=200",
    ]


def _properties(release: KafkaVersion, port: int, controller: int, data: Path) -> str:
    lines = [
        "process.roles=broker,controller",
        "node.id=1",
        f"controller.quorum.voters=1@127.0.0.1:{controller}",
        f"listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{port}",
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        f"log.dirs={data}",
        *shared_broker_properties(),
    ]
    if release >= KafkaVersion(4, 0, 0):
        lines += ["share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1"]
    return "\n".join(lines) + "\n"


AUTH_FIRST = KafkaVersion(2, 4, 0)
"""``kafka:VERSION,auth`` needs AclAuthorizer (2.4, KIP-504) or StandardAuthorizer (KRaft)."""
AUTH_USERS = {"admin": "admin-secret", "alice": "alice-secret", "bob": "bob-secret"}
"""SASL/PLAIN logins of an ``auth`` broker: ``admin`` is the broker's own login and a super
user (as is ``ANONYMOUS``, the broker itself on the PLAINTEXT controller listener); the
others are ordinary users whose rights come from ACLs alone."""


def authorized_properties(text: str, port: int, release: KafkaVersion) -> str:
    """``text`` with its client listener on SASL_PLAINTEXT (PLAIN logins :data:`AUTH_USERS`) and
    Kafka's authorizer of the release on, denying what no ACL allows (``docs/spec/authorization.md`` §2.1 step 5)."""
    out = []
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key in ("listeners", "advertised.listeners"):
            value = value.replace(f"PLAINTEXT://127.0.0.1:{port}", f"SASL_PLAINTEXT://127.0.0.1:{port}")
        elif key == "inter.broker.listener.name":
            continue
        elif key == "listener.security.protocol.map":
            value = "CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
        out.append(f"{key}={value}")
    users = " ".join(f'user_{u}="{p}"' for u, p in AUTH_USERS.items())
    authorizer = ("org.apache.kafka.metadata.authorizer.StandardAuthorizer" if release >= KRAFT_FIRST
                  else "kafka.security.authorizer.AclAuthorizer")
    out += [
        "inter.broker.listener.name=SASL_PLAINTEXT",
        "sasl.enabled.mechanisms=PLAIN",
        "sasl.mechanism.inter.broker.protocol=PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
        f'required username="admin" password="{AUTH_USERS["admin"]}" {users};',
        f"authorizer.class.name={authorizer}",
        "super.users=User:admin;User:ANONYMOUS",
        "allow.everyone.if.no.acl.found=false",
    ]
    return "\n".join(out) + "\n"


def format_storage(java: str, classpath: str, configs: Sequence[Path], workdir: Path, cluster: str | None = None) -> None:
    """``kafka.tools.StorageTool format`` of every node's ``configs`` with one cluster id, each in
    a process of its own (its main ends in System.exit), all at once."""
    env, owner = tagged_env()
    cluster = cluster or cluster_id()
    running = []
    try:
        for config in configs:
            argv = [java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classpath, "kafka.tools.StorageTool",
                    "format", "-t", cluster, "-c", str(config)]
            running.append((config, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=workdir,
                                                     env=env, start_new_session=True, text=True)))
        for config, proc in running:
            try:
                out, _ = proc.communicate(timeout=FORMAT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                raise BrokerStartError(f"formatting the storage of {config.name} took more than {FORMAT_TIMEOUT_S:.0f} s") from None
            if proc.returncode != 0:
                raise BrokerStartError(f"kafka.tools.StorageTool format of {config.name} exited with {proc.returncode}:\n"
                                       f"{out.strip()[-2000:]}")
    finally:
        for _, proc in running:
            stop_tree(proc, owner)


def start_kafka_broker(version: str, timeout_s: float = START_TIMEOUT_S, *, auth: bool = False) -> KafkaNode:
    """Start a one-node broker of ``version`` (KRaft from 3.3, ZooKeeper mode before); with
    ``auth``, clients log in with SASL/PLAIN and Kafka's authorizer decides (2.4 and later).

    The caller stops the node.  BrokerStartError when it cannot start (its output is
    quoted); ValueError for a release the kit does not start."""
    release = broker_release(version)
    if auth and release < AUTH_FIRST:
        raise ValueError(f"kafka:{release},auth: authorization on the wire is checked from {AUTH_FIRST} "
                         "(AclAuthorizer, KIP-504); SimpleAclAuthorizer is not modelled")
    reason = kafka_broker_reason(str(release))
    if reason is not None:
        raise BrokerStartError(f"kafka:{release}: {reason}")
    java = jdk_tool("java")
    assert java is not None
    sets = [cached_jars(a) or () for a in broker_artifacts(release)]
    if release < KRAFT_FIRST:
        return _start_zookeeper_mode(release, java, zk.broker_classpath(*sets), timeout_s, auth)
    return _start_kraft(release, java, os.pathsep.join(str(j) for j in sets[0]), timeout_s, auth)


def kafka_argv(java: str, classpath: str, config: Path) -> list[str]:
    return [java, "-Xmx512m", "-Xms64m", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
            "-cp", classpath, "kafka.Kafka", str(config)]


def _start_kraft(release: KafkaVersion, java: str, classpath: str, timeout_s: float, auth: bool) -> KafkaNode:
    workdir = Path(tempfile.mkdtemp(prefix=f"kc-kafka-{release}-"))
    port, controller = free_port(), free_port()
    while controller == port:
        controller = free_port()
    config = workdir / "server.properties"
    text = _properties(release, port, controller, workdir / "data")
    config.write_text(authorized_properties(text, port, release) if auth else text, encoding="utf-8")
    try:
        format_storage(java, classpath, [config], workdir)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    run = workdir / "run-0"
    run.mkdir()
    process = BrokerProcess(f"kafka-{release}", kafka_argv(java, classpath, config), workdir=str(run))
    node = KafkaNode(process, port, release, "KRaft, one node" + (", SASL/PLAIN and StandardAuthorizer" if auth else ""),
                     root=workdir)
    try:
        process.wait_listening(port, timeout_s)
    except BaseException:
        node.stop()
        raise
    return node


def _start_zookeeper_mode(release: KafkaVersion, java: str, classpath: str, timeout_s: float, auth: bool) -> KafkaNode:
    root = Path(tempfile.mkdtemp(prefix=f"kc-kafka-{release}-"))
    try:
        (root / "zookeeper").mkdir()
        (root / "broker").mkdir()
        zookeeper, zk_port = zk.start_zookeeper(java, classpath, root / "zookeeper", timeout_s)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    node: KafkaNode | None = None
    try:
        port = free_port()
        config = root / "broker" / "server.properties"
        text = zk.zookeeper_mode_properties(port, zk_port, root / "broker" / "data",
                                            extra=[f"zookeeper.session.timeout.ms={zk.SESSION_MS}"])
        config.write_text(authorized_properties(text, port, release) if auth else text, encoding="utf-8")
        (root / "broker" / "run-0").mkdir()
        process = BrokerProcess(f"kafka-{release}", kafka_argv(java, classpath, config), workdir=str(root / "broker" / "run-0"))
        substitute = ", ZooKeeper 3.5.9's client" if zk.needs_client_substitute(release) else ""
        secured = ", SASL/PLAIN and AclAuthorizer" if auth else ""
        node = KafkaNode(process, port, release, f"ZooKeeper mode, one broker{substitute}{secured}", zookeeper, root)
        process.wait_listening(port, timeout_s)
    except BaseException:
        if node is not None:
            node.stop()
        else:
            zookeeper.stop()
            shutil.rmtree(root, ignore_errors=True)
        raise
    return node
