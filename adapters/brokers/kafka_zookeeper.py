"""ZooKeeper-mode Apache Kafka brokers (1.0 to 3.2), each with a ZooKeeper of its own (issue 16).

Before KRaft (3.3, KIP-833) a broker needs a ZooKeeper ensemble.  The kit starts one
per broker, in its own process, from the ZooKeeper jar that the release's POM brings
(``org.apache.zookeeper.server.ZooKeeperServerMain`` on a ``zoo.cfg`` whose
``clientPortAddress`` is 127.0.0.1: the ``PORT DATADIR`` form would bind every
interface), then ``kafka.Kafka`` with ``zookeeper.connect`` pointing at it.

One substitution, said plainly wherever the broker is described: releases before 2.4
depend on the ZooKeeper 3.4 client, which cannot connect on Java 14 or later: its
``StaticHostProvider.getHostString`` parses ``InetSocketAddress.toString()``, whose format
changed in JDK 14 to ``127.0.0.1/<unresolved>:PORT`` (apache/zookeeper pull request #1509;
seen here on Java 17 with 1.0.1 to 2.3.1: "Unable to canonicalize address ... because it's
not resolvable", then ``UnresolvedAddressException``).  For those releases
the 3.4 jar is replaced by ZooKeeper 3.5.9's client and server jars, which speak the same
protocol to the same API.  Kafka's own classes, the ones whose produce path the kit
checks, are the release's unchanged.  0.11 does not start on Java 17 at all
(``javax.xml.bind`` is gone since Java 11) and its broker is not modelled.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from kafka_conformance.adapters.brokers.process import BrokerProcess, free_port
from kafka_conformance.adapters.jvm.maven import Artifact
from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["ZOOKEEPER_CLIENT", "broker_classpath", "start_zookeeper", "zookeeper_mode_properties"]

ZOOKEEPER_CLIENT = Artifact("org.apache.zookeeper", "zookeeper", "3.5.9")
"""Stands in for the 3.4 client of releases before 2.4 (the module docstring says why)."""
_OLD_CLIENT_PREFIX = "zookeeper-3.4."
_SUBSTITUTES = ("zookeeper-3.5.9.jar", "zookeeper-jute-3.5.9.jar")


def needs_client_substitute(release: KafkaVersion) -> bool:
    """Releases before 2.4 ship the ZooKeeper 3.4 client (2.4.0 moved to 3.5.6)."""
    return release < KafkaVersion(2, 4, 0)


def broker_classpath(broker_jars: Sequence[Path], zookeeper_jars: Sequence[Path] = ()) -> str:
    """The release's jars, with a ZooKeeper 3.4 jar replaced by the 3.5.9 client when given."""
    kept = [j for j in broker_jars if not j.name.startswith(_OLD_CLIENT_PREFIX)]
    replaced = len(kept) != len(broker_jars)
    if replaced:
        chosen = [j for j in zookeeper_jars if j.name in _SUBSTITUTES]
        if len(chosen) != len(_SUBSTITUTES):
            raise ValueError(f"the ZooKeeper 3.4 client needs {', '.join(_SUBSTITUTES)} in its place "
                             f"(run: kafka-conformance fetch for this broker again)")
        kept += chosen
    return os.pathsep.join(str(j) for j in kept)


def start_zookeeper(java: str, classpath: str, workdir: Path, timeout_s: float) -> tuple[BrokerProcess, int]:
    """A standalone ZooKeeper on 127.0.0.1 (a free port) run in ``workdir``, its data inside it.

    ``zookeeper.jmx.log4j.disable``: a 3.4 server registers log4j MBeans at start and dies
    without log4j on the classpath; the admin server (3.5+) is off, so only the client
    port listens.  The caller stops the process."""
    data = workdir / "data"
    data.mkdir(parents=True, exist_ok=True)
    port = free_port()
    config = workdir / "zoo.cfg"
    config.write_text("\n".join([
        f"dataDir={data}",
        f"clientPort={port}",
        "clientPortAddress=127.0.0.1",
        "admin.enableServer=false",
        "tickTime=2000",
        "maxClientCnxns=0",
        "4lw.commands.whitelist=",
    ]) + "\n", encoding="utf-8")
    argv = [java, "-Xmx128m", "-Xms32m", "-XX:TieredStopAtLevel=1", "-Dzookeeper.jmx.log4j.disable=true",
            "-Djava.awt.headless=true", "-cp", classpath, "org.apache.zookeeper.server.ZooKeeperServerMain",
            str(config)]
    process = BrokerProcess("zookeeper", argv, workdir=str(workdir))
    try:
        process.wait_listening(port, timeout_s)
        process.check_loopback_only()
    except BaseException:
        process.stop()
        raise
    return process, port


SESSION_MS = 4000
"""How soon a killed ZooKeeper-mode broker's registration goes: the least session ZooKeeper
grants at its tick of 2 s (the default, 6 s before 2.5 and 18 s after, would make a crash and
restart wait that long)."""


def zookeeper_mode_properties(port: int, zookeeper_port: int, data: Path, broker_id: int = 0, *, replication: int = 1,
                              extra: Sequence[str] = ()) -> str:
    """``server.properties`` of a ZooKeeper-mode broker (one, or one of a cluster sharing the
    ZooKeeper), every listener on 127.0.0.1."""
    from kafka_conformance.adapters.brokers.kafka_broker import shared_broker_properties  # imports this module

    return "\n".join([
        f"broker.id={broker_id}",
        f"listeners=PLAINTEXT://127.0.0.1:{port}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{port}",
        f"log.dirs={data}",
        f"zookeeper.connect=127.0.0.1:{zookeeper_port}",
        "zookeeper.connection.timeout.ms=30000",
        *shared_broker_properties(replication=replication),
        *extra,
    ]) + "\n"
