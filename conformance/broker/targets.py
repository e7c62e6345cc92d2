"""Broker targets: a spec of the broker role (:mod:`kafka_conformance.adapters.targets` holds the
one grammar, ``docs/targets.md`` lists it) opened as a running broker for the length of a run.

``tansu``, ``noida``, ``rdkafka-mock`` and ``kafka:VERSION`` are started by the kit on a free
127.0.0.1 port and stopped at the end (``adapters/brokers/launchers.py``); ``bootstrap:HOST:PORT``
is never started or stopped (each case creates its own topic there); ``test-broker[:VERSION]``
is the kit's Python test broker in this process; ``kfake`` is built from the kit's Go module.

New kinds plug in with one entry in :data:`BROKER_TARGETS` (and one in the grammar): a
function of the spec's argument (or None) returning a context manager that yields an
object with ``host``, ``port`` and ``describe()``.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.launchers import BrokerStartError, available, started_for
from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.reference.releases import DEFAULT_RELEASE, IDEMPOTENCE_RELEASES, known_release

__all__ = [
    "BROKER_TARGETS",
    "BrokerHandle",
    "broker_targets_table",
    "open_broker_target",
    "parse_broker_target",
]


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
    with started_for(spec, Role.BROKER) as broker:
        yield BrokerHandle(spec, broker.host, broker.port, broker.describe(), restart=broker.restart)


@contextlib.contextmanager
def _test_broker(name: str, arg: str | None) -> Iterator[BrokerHandle]:
    """The in-process Python test broker (``adapters/brokers/testbroker.py``), when present."""
    if importlib.util.find_spec("kafka_conformance.adapters.brokers.testbroker") is None:
        raise TargetError("test-broker: the Python test broker (kafka_conformance.adapters.brokers.testbroker) is not in "
                          "this build", Problem.UNAVAILABLE, Role.BROKER)
    module: Any = importlib.import_module("kafka_conformance.adapters.brokers.testbroker")
    version = arg or DEFAULT_RELEASE
    try:
        version = str(known_release(version, IDEMPOTENCE_RELEASES))
    except ValueError as exc:
        raise TargetError(f"test-broker:{version}: {exc}", Problem.MALFORMED, Role.BROKER) from exc
    with module.TestCluster(kafka_version=version) as cluster:
        host, _, port = str(cluster.bootstrap).split(",")[0].rpartition(":")
        description = f"Python test broker (Kafka {version} model) at {cluster.bootstrap}"
        yield BrokerHandle(f"test-broker:{version}", host, int(port), description, str(cluster.model.spec.topic),
                           restart=lambda clean: cluster.restart_in_place(clean=clean), checkpoint=cluster.log_start_checkpoint)


@contextlib.contextmanager
def _kfake(name: str, arg: str | None) -> Iterator[BrokerHandle]:
    from kafka_conformance.adapters.go.kfake import KfakeError, kfake_cluster

    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(kfake_cluster(1))
        except KfakeError as exc:
            raise TargetError(str(exc), Problem.DID_NOT_START, Role.BROKER) from exc
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
    """(kind, argument) of a spec of the broker role; a :class:`TargetError` saying what is wrong."""
    parsed = parse_target(spec, Role.BROKER)
    if parsed.kind == "kafka":
        from kafka_conformance.adapters.brokers.kafka_broker import broker_release

        try:
            broker_release(str(parsed.argument))
        except ValueError as exc:
            raise TargetError(str(exc), Problem.MALFORMED, Role.BROKER) from None
    return parsed.kind, parsed.argument


@contextlib.contextmanager
def open_broker_target(spec: str | BrokerHandle) -> Iterator[BrokerHandle]:
    """Start (or reach) the broker named by ``spec`` for the block; stopped when the block ends.
    A handle is a broker its caller runs: yielded as it is, neither started nor stopped."""
    if isinstance(spec, BrokerHandle):
        yield spec
        return
    name, arg = parse_broker_target(spec)
    with contextlib.ExitStack() as stack:
        try:
            handle = stack.enter_context(BROKER_TARGETS[name](name, arg))
        except BrokerStartError as exc:
            raise TargetError(f"broker target {spec!r} did not start: {exc}", Problem.DID_NOT_START, Role.BROKER) from exc
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
