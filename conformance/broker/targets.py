"""Broker target specs: which broker a broker check runs against, and how it is started and stopped.

Grammar:

* ``tansu`` | ``noida`` | ``rdkafka-mock`` — a real broker from a PyPI wheel,
  started by the kit on a free 127.0.0.1 port for the whole run and stopped at
  its end (``adapters/brokers/launchers.py``);
* ``bootstrap:HOST:PORT`` — a broker the user already runs (never started or
  stopped by the kit; each case creates its own topic there);
* ``test-broker[:KAFKA_VERSION]`` — the kit's Python test broker, a cluster in
  one process governed by the reference model, when that module is installed;
* ``kfake`` — franz-go's in-memory cluster (one broker), built from the kit's Go
  module on first use and started on 127.0.0.1 (``adapters/go/kfake.py``).

New kinds plug in with one entry in :data:`BROKER_TARGETS`: a function of the
spec's argument (or None) returning a context manager that yields an object
with ``host``, ``port`` and ``describe()``.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.launchers import BrokerStartError, BrokerUnavailable, available, start_broker
from kafka_conformance.credentials import redact_spec
from kafka_conformance.reference.releases import DEFAULT_RELEASE, IDEMPOTENCE_RELEASES, known_release

__all__ = [
    "BROKER_TARGETS",
    "BrokerHandle",
    "BrokerTargetError",
    "broker_targets_table",
    "open_broker_target",
    "parse_broker_target",
]


class BrokerTargetError(ValueError):
    """An unknown or unusable broker target (the CLI's exit code 2); says what to install if that is why."""


@attrs.frozen
class BrokerHandle:
    """Where a started (or external) broker listens, for the length of a run."""

    spec: str
    host: str
    port: int
    description: str
    shared_topic: str | None = None
    """Set for brokers that serve one fixed topic: cases share its partition 0 (see ``run_case``)."""
    restart: Callable[[bool], None] | None = attrs.field(default=None, eq=False)
    """Stop and start the broker again on its own data (True: a clean stop, False: a kill),
    serving again when it returns; None when the kit cannot restart this target (one it did
    not start, or one that keeps no data across a restart)."""

    checkpoint: Callable[[], int] | None = attrs.field(default=None, eq=False)
    """For a shared topic: the log start offset its partition's checkpoint holds now (what a crash
    falls back to); a fresh topic's is 0."""

    @property
    def can_restart(self) -> bool:
        return self.restart is not None

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"


@contextlib.contextmanager
def _real(name: str, arg: str | None) -> Iterator[BrokerHandle]:
    spec = name if arg is None else f"{name}:{arg}"
    if arg is not None and name not in ("bootstrap", "kafka"):
        raise BrokerTargetError(f"broker target {name!r} takes no argument (got {spec!r})")
    with contextlib.ExitStack() as stack:
        try:
            broker = stack.enter_context(start_broker(spec))
        except (BrokerUnavailable, BrokerStartError, ValueError) as exc:
            raise BrokerTargetError(str(exc)) from exc
        yield BrokerHandle(spec, broker.host, broker.port, broker.describe(), restart=broker.restart)


@contextlib.contextmanager
def _test_broker(name: str, arg: str | None) -> Iterator[BrokerHandle]:
    """The in-process Python test broker (``adapters/brokers/testbroker.py``), when present."""
    if importlib.util.find_spec("kafka_conformance.adapters.brokers.testbroker") is None:
        raise BrokerTargetError("test-broker: the Python test broker (kafka_conformance.adapters.brokers.testbroker) is not in this build")
    module: Any = importlib.import_module("kafka_conformance.adapters.brokers.testbroker")
    version = arg or DEFAULT_RELEASE
    try:
        version = str(known_release(version, IDEMPOTENCE_RELEASES))
    except ValueError as exc:
        raise BrokerTargetError(f"test-broker:{version}: {exc}") from exc
    with module.TestCluster(kafka_version=version) as cluster:
        host, _, port = str(cluster.bootstrap).split(",")[0].rpartition(":")
        description = f"Python test broker (Kafka {version} model) at {cluster.bootstrap}"
        yield BrokerHandle(f"test-broker:{version}", host, int(port), description, str(cluster.model.spec.topic),
                           restart=lambda clean: cluster.restart_in_place(clean=clean), checkpoint=cluster.log_start_checkpoint)


@contextlib.contextmanager
def _kfake(name: str, arg: str | None) -> Iterator[BrokerHandle]:
    if arg is not None:
        raise BrokerTargetError(f"broker target kfake takes no argument (got {name}:{arg})")
    from kafka_conformance.adapters.go.kfake import KfakeError, kfake_cluster

    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(kfake_cluster(1))
        except KfakeError as exc:
            raise BrokerTargetError(str(exc)) from exc
        yield BrokerHandle("kfake", cluster.host, cluster.port, cluster.describe())


BROKER_TARGETS: dict[str, Callable[[str, str | None], AbstractContextManager[BrokerHandle]]] = {
    "tansu": _real,
    "noida": _real,
    "rdkafka-mock": _real,
    "bootstrap": _real,
    "kafka": _real,
    "test-broker": _test_broker,
    "kfake": _kfake,
}


def parse_broker_target(spec: str) -> tuple[str, str | None]:
    """(kind, argument) of a spec; a BrokerTargetError naming the known kinds if it is unknown."""
    name, sep, arg = spec.strip().partition(":")
    if name not in BROKER_TARGETS:
        known = "tansu, noida, rdkafka-mock, kfake, kafka:VERSION, bootstrap:HOST:PORT, test-broker[:VERSION]"
        raise BrokerTargetError(f"unknown broker target {spec!r}; known: {known}")
    if name == "bootstrap":
        host, colon, port = arg.rpartition(":")
        if not sep or not colon or not host or "," in host or not port.isdigit() or not 0 < int(port) < 65536:
            raise BrokerTargetError(f"{redact_spec(spec)}: bootstrap needs one address, bootstrap:HOST:PORT "
                                    "(the broker suite takes no logins)")
    if name == "kafka" and not arg:
        raise BrokerTargetError("kafka needs a release: kafka:VERSION (3.3.0 to 4.4.0), e.g. kafka:4.3.1")
    return name, (arg if sep else None)


@contextlib.contextmanager
def open_broker_target(spec: str) -> Iterator[BrokerHandle]:
    """Start (or reach) the broker named by ``spec`` for the block; stopped when the block ends."""
    name, arg = parse_broker_target(spec)
    with contextlib.ExitStack() as stack:
        try:
            handle = stack.enter_context(BROKER_TARGETS[name](name, arg))
        except BrokerStartError as exc:
            raise BrokerTargetError(f"broker target {spec!r} did not start: {exc}") from exc
        yield handle


def broker_targets_table() -> list[tuple[str, str, bool]]:
    """(spec, what it is or why it cannot run, runnable here) for listings."""
    out = []
    for name, avail in available().items():
        out.append((name, avail.reason if avail.ok else f"{avail.reason}", avail.ok))
    from kafka_conformance.adapters.brokers.kafka_broker import (
        BROKER_RELEASES,
        KRAFT_FIRST,
        kafka_broker_reason,
    )

    ready = [v for v in BROKER_RELEASES if kafka_broker_reason(str(v)) is None]
    out.append(("kafka:VERSION", f"Apache Kafka's own broker, {BROKER_RELEASES[0]} to {BROKER_RELEASES[-1]} "
                f"(ZooKeeper mode before {KRAFT_FIRST}, KRaft from it; {len(ready)} fetched here: "
                f"{', '.join(map(str, ready)) or 'none'}; kafka-conformance fetch kafka-broker:VERSION)", bool(ready)))
    from kafka_conformance.adapters.go.kfake import KFAKE_VERSION, kfake_reason

    reason = kfake_reason()
    out.append(("kfake", reason or f"franz-go's in-memory cluster {KFAKE_VERSION}, built from the kit's Go module "
                "(kafka-conformance fetch kfake)", reason is None))
    out.append(("kfake-cluster[:N]", (reason + "; " if reason else "") + "check producer --broker only: kfake with N "
                "brokers (default 3) that the kit crashes, restarts and re-leads for the trace table's failover rows",
                reason is None))
    out.append(("bootstrap:HOST:PORT", "a broker you already run", True))
    present = importlib.util.find_spec("kafka_conformance.adapters.brokers.testbroker") is not None
    what = "the kit's Python test broker" if present else "the Python test broker is not in this build"
    out.append(("test-broker[:VERSION]", what, present))
    return out
