"""Apache Kafka's own broker, started by the kit from the jars of a release (issue 16).

One node in KRaft combined mode (``process.roles=broker,controller``), 3.3.0 and
later: the runtime classpath of ``org.apache.kafka:kafka_2.13:VERSION`` as its POM
declares it (fetched and checked against the lock by ``kafka-conformance fetch
kafka-broker:VERSION``), started as Kafka's scripts would, without the scripts:

1. ``server.properties`` in a scratch directory, every listener on 127.0.0.1 on
   a free port, the controller listener out of ``advertised.listeners`` (3.3 to
   3.8 refuse it there), replication factors of one;
2. the storage formatted with ``kafka.tools.StorageTool format`` and a cluster id
   made here (base64url of 16 random bytes, as ``random-uuid`` makes them:
   starting a JVM for it cost 1 to 2 s);
3. ``java -Xmx512m -XX:TieredStopAtLevel=1 -cp JARS kafka.Kafka server.properties``
   (C1 only: a quicker start, and the broker's work here is small).

No logging backend is on the classpath: Kafka then logs nowhere (SLF4J's no-op
logger), and readiness comes from the broker itself: ApiVersions answered.  The
process is a :class:`~kafka_conformance.adapters.brokers.process.BrokerProcess`,
so it is refused if it listens beyond 127.0.0.1 and stopped with everything it
started.  Facts and figures: ``/work/shared/spec/real-kafka.md`` §2a and
``docs/broker-conformance.md``.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from kafka_conformance.adapters.brokers.process import BrokerProcess, BrokerStartError, free_port
from kafka_conformance.adapters.jvm.maven import Artifact, JarError, cached_jars
from kafka_conformance.adapters.jvm.session import jdk_tool
from kafka_conformance.adapters.reaper import stop_tree, tagged_env
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES, KafkaVersion

__all__ = ["KRAFT_RELEASES", "broker_artifact", "kafka_broker_reason", "kraft_release", "start_kafka_broker"]

KRAFT_FIRST = KafkaVersion(3, 3, 0)
"""KRaft production-ready (KIP-833); ZooKeeper-mode brokers are not started yet."""
KRAFT_RELEASES = tuple(v for v in APACHE_KAFKA_RELEASES if v >= KRAFT_FIRST)
FORMAT_TIMEOUT_S = 120.0
START_TIMEOUT_S = 120.0
"""A cold JVM on a busy 2-core machine: about 5 s measured, 25x headroom before a start is
called failed (the broker's own output is then quoted)."""


def broker_artifact(version: str) -> Artifact:
    return Artifact("org.apache.kafka", "kafka_2.13", version)


def kraft_release(version: str) -> KafkaVersion:
    """``version`` as a release the kit starts KRaft brokers of; ValueError otherwise."""
    parsed = KafkaVersion.parse(version)
    if parsed not in KRAFT_RELEASES:
        first, last = KRAFT_RELEASES[0], KRAFT_RELEASES[-1]
        raise ValueError(f"kafka:{version}: the kit starts KRaft brokers of {first} to {last}; "
                         f"{version} is {'not a release' if parsed not in APACHE_KAFKA_RELEASES else 'a ZooKeeper-era release'}")
    return parsed


def kafka_broker_reason(version: str) -> str | None:
    """Why ``kafka:VERSION`` cannot be started here (None: it can); starts nothing."""
    release = kraft_release(version)
    if jdk_tool("java") is None:
        return "no Java runtime (java) on the PATH or under $JAVA_HOME"
    try:
        if cached_jars(broker_artifact(str(release))) is None:
            return f"its jars are not fetched yet (run: kafka-conformance fetch kafka-broker:{release})"
    except JarError as exc:
        return str(exc)
    return None


def _cluster_id() -> str:
    """What ``StorageTool random-uuid`` prints: base64url of 16 random bytes, no padding, never
    starting with '-' (Kafka's Uuid.randomUuid refuses those)."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


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
        "num.partitions=1",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=1",
        "group.initial.rebalance.delay.ms=0",
    ]
    if release >= KafkaVersion(4, 0, 0):
        lines += ["share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1"]
    return "\n".join(lines) + "\n"


def _format(java: str, classpath: str, config: Path, workdir: Path) -> None:
    """``kafka.tools.StorageTool format`` in a process of its own (its main ends in System.exit)."""
    env, owner = tagged_env()
    argv = [java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classpath, "kafka.tools.StorageTool",
            "format", "-t", _cluster_id(), "-c", str(config)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=workdir, env=env,
                            start_new_session=True, text=True)
    try:
        out, _ = proc.communicate(timeout=FORMAT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise BrokerStartError(f"formatting the storage took more than {FORMAT_TIMEOUT_S:.0f} s") from None
    finally:
        stop_tree(proc, owner)
    if proc.returncode != 0:
        raise BrokerStartError(f"kafka.tools.StorageTool format exited with {proc.returncode}:\n{out.strip()[-2000:]}")


def start_kafka_broker(version: str, timeout_s: float = START_TIMEOUT_S) -> tuple[BrokerProcess, int, str]:
    """Format and start a one-node KRaft broker of ``version``; (process, port, description).

    The caller stops the process.  BrokerStartError when it cannot start (its output is
    quoted); ValueError for a release the kit does not start."""
    release = kraft_release(version)
    reason = kafka_broker_reason(str(release))
    if reason is not None:
        raise BrokerStartError(f"kafka:{release}: {reason}")
    java = jdk_tool("java")
    assert java is not None
    jars = cached_jars(broker_artifact(str(release))) or ()
    classpath = os.pathsep.join(str(j) for j in jars)
    workdir = Path(tempfile.mkdtemp(prefix=f"kc-kafka-{release}-"))
    port, controller = free_port(), free_port()
    while controller == port:
        controller = free_port()
    config = workdir / "server.properties"
    config.write_text(_properties(release, port, controller, workdir / "data"), encoding="utf-8")
    try:
        _format(java, classpath, config, workdir)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    argv = [java, "-Xmx512m", "-Xms64m", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
            "-cp", classpath, "kafka.Kafka", str(config)]
    process = BrokerProcess(f"kafka-{release}", argv, workdir=str(workdir))
    try:
        process.wait_listening(port, timeout_s)
    except BaseException:
        process.stop()
        raise
    return process, port, f"Apache Kafka {release} (KRaft, one node) at 127.0.0.1:{port}"
