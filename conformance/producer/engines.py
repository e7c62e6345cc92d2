"""Where a wire trace runs: broker specs resolved to a started cluster the client can connect to.

A broker spec names the other half of a run:

* ``test-broker`` or ``test-broker:VERSION``: the kit's Python test broker, a
  cluster of several brokers in one process governed by the reference model of
  that Kafka version; every fault of the trace is applied exactly, and it logs
  every attempt and response.
* ``tansu``, ``noida``, ``rdkafka-mock``: a real broker from its PyPI wheel,
  started on a free 127.0.0.1 port and stopped afterwards, with the fault proxy
  in front of it (it applies the fault plan and logs attempts and responses); a
  single real broker cannot fail over or crash on cue, so a trace with cluster
  steps is refused by name, not run half-way.  The final log is
  read back with Fetch, straight from the broker.
* ``kfake``: franz-go's in-memory cluster, one broker, built from the kit's Go
  module and started on 127.0.0.1 like the wheel brokers (cluster steps refused
  the same way).
* ``kafka-cluster:VERSION[:N]`` and ``kfake-cluster[:N]``: clusters whose brokers
  the kit crashes, restarts and re-leads on cue (:mod:`.cluster_engine`,
  :mod:`.kfake_engine`; the steps a cluster cannot take refuse the trace by name).

Each spec opens a :class:`WireBroker`: a bootstrap address, the ``control`` and
``tick`` callbacks the client runner is given, and after the run the broker-side
events, the final log and the log start offsets.

Apache Kafka takes seconds to start (a cluster about fifteen), so inside
:func:`shared_brokers` (the trace table, a matrix, generated traces and the report
enter it) ``kafka:VERSION`` and ``kafka-cluster:VERSION[:N]`` start once and serve
every trace of the block, each trace on a topic of its own; a cluster whose brokers
a trace crashed is restored before the next one, a broker that died is started again,
and one a trace ended with an error on (other than the client's own failure) is
stopped and started afresh.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

import attrs

from kafka_conformance.adapters.clients.protocol import ClientConfigError, ClientRunError
from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.traces.events import Event, FaultKind
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, ProducerTrace

__all__ = ["REAL_BROKERS", "BrokerSpec", "SharedBrokers", "WireBroker", "open_broker", "parse_broker",
           "shared_brokers", "trace_for_run"]

REAL_BROKERS = ("tansu", "noida", "rdkafka-mock", "kfake")
TEST_BROKER = "test-broker"
CLUSTER = "kafka-cluster"
"""A cluster of Apache Kafka brokers of a release (``kafka-cluster:VERSION[:N]``): KRaft with a controller of its own,
or ZooKeeper mode (2.4 to 3.2) with a ZooKeeper of its own."""
KFAKE_CLUSTER = "kfake-cluster"
"""kfake with N brokers, its leaders moved and its brokers removed and added on cue (``kfake-cluster[:N]``)."""
KAFKA = "kafka"
"""Apache Kafka's own broker of a release (``kafka:VERSION``, one KRaft node, from its jars)."""


@attrs.frozen
class BrokerSpec:
    kind: str
    """``test-broker`` or one of :data:`REAL_BROKERS`."""
    version: str | None = None
    """For the test broker: the Kafka version it models (None: the trace's own); for
    ``kafka``: the release started."""

    def __str__(self) -> str:
        return f"{self.kind}:{self.version}" if self.version else self.kind


def parse_broker(spec: str) -> BrokerSpec:
    """A spec of the producer-broker role (the one grammar, :mod:`kafka_conformance.adapters.targets`)
    with its release and broker count checked; a :class:`TargetError` saying what is wrong."""
    parsed = parse_target(spec, Role.PRODUCER_BROKER)
    kind, version = parsed.kind, parsed.argument or ""
    try:
        if kind == TEST_BROKER:
            return BrokerSpec(kind, version or None)
        if kind == CLUSTER:
            from kafka_conformance.adapters.brokers.kafka_cluster import parse_cluster

            release, brokers = parse_cluster(version)
            return BrokerSpec(kind, f"{release}:{brokers}")
        if kind == KFAKE_CLUSTER:
            from kafka_conformance.producer.kfake_engine import parse_kfake_cluster

            parsed_cluster = BrokerSpec(kind, str(parse_kfake_cluster(version)))
            _kfake_runs_here(str(parsed_cluster))
            return parsed_cluster
        if kind == KAFKA:
            from kafka_conformance.adapters.brokers.kafka_broker import broker_release

            return BrokerSpec(kind, str(broker_release(version)))
    except TargetError:
        raise
    except ValueError as exc:
        raise TargetError(str(exc), Problem.MALFORMED, Role.PRODUCER_BROKER) from None
    if kind == "kfake":
        _kfake_runs_here(kind)
    return BrokerSpec(kind)


def _kfake_runs_here(spec: str) -> None:
    """kfake is built from the kit's Go module: without it and without Go, a usage error before any run."""
    from kafka_conformance.adapters.go.kfake import kfake_reason

    reason = kfake_reason()
    if reason is not None:
        raise TargetError(f"{spec}: {reason}", Problem.UNAVAILABLE, Role.PRODUCER_BROKER)


class SharedBrokers:
    """Real brokers started once and kept for the traces of one block (:func:`shared_brokers`).

    Each entry owns its broker's stop: :meth:`discard` stops one (a trace ended with an
    error on it, so its state is unknown), :meth:`close` stops all, also on Ctrl-C."""

    def __init__(self) -> None:
        self._live: dict[str, tuple[Any, contextlib.ExitStack]] = {}
        self._topics = itertools.count(1)
        self.started = 0
        """How many brokers (or clusters) were started: the test of reuse reads it."""

    def take(self, key: str, start: Callable[[], contextlib.AbstractContextManager[Any]]) -> Any:
        """The running broker under ``key``, started with ``start()`` the first time (and again
        when the one kept has died since)."""
        if key in self._live and not _alive(self._live[key][0]):
            self.discard(key)
        if key not in self._live:
            stack = contextlib.ExitStack()
            try:
                running = stack.enter_context(start())
            except BaseException:
                stack.close()
                raise
            self._live[key] = (running, stack)
            self.started += 1
        return self._live[key][0]

    @property
    def live(self) -> dict[str, Any]:
        """The brokers (or clusters) running now, by spec."""
        return {key: running for key, (running, _) in self._live.items()}

    def discard(self, key: str) -> None:
        """Stop the broker under ``key`` (if any); the next :meth:`take` starts a new one."""
        entry = self._live.pop(key, None)
        if entry is not None:
            entry[1].close()

    def keep_only(self, broker: str) -> None:
        """Stop every broker kept but the one ``broker`` names (a spec, as the CLI takes it):
        a run that moves on to another broker does not keep the last one's JVMs running."""
        try:
            keep = str(parse_broker(broker))
        except TargetError:
            keep = broker
        for key in [k for k in self._live if k != keep]:
            self.discard(key)

    def next_topic(self, topic: str) -> str:
        """``topic`` with a suffix no other trace of this pool has: each trace reads only its own records."""
        return f"{topic}-{next(self._topics)}"

    def close(self) -> None:
        """Stop every broker, each even when stopping another failed; then raise the first failure."""
        errors: list[BaseException] = []
        while self._live:
            try:
                self.discard(next(iter(self._live)))
            except BaseException as exc:  # stop the others first, then say it
                errors.append(exc)
        if errors:
            raise errors[0]


_SHARED: contextvars.ContextVar[SharedBrokers | None] = contextvars.ContextVar("kafka_conformance_shared_brokers", default=None)
_SHAREABLE = frozenset({"kafka", "kafka-cluster"})


@contextlib.contextmanager
def shared_brokers() -> Iterator[SharedBrokers]:
    """Within the block, Apache Kafka brokers and clusters start once per spec; nested blocks share the outer one."""
    outer = _SHARED.get()
    if outer is not None:
        yield outer
        return
    pool = SharedBrokers()
    token = _SHARED.set(pool)
    try:
        yield pool
    except BaseException:
        _SHARED.reset(token)
        # What ended the block (a Ctrl-C too) is what the caller must see, not a failure to stop.
        with contextlib.suppress(Exception):
            pool.close()
        raise
    _SHARED.reset(token)
    pool.close()


def _alive(running: Any) -> bool:
    """Whether a kept broker still runs: a cluster's controller (its brokers are restored per
    trace), or a single broker's process (not gone, not a zombie)."""
    controller = getattr(running, "controller", None)
    if controller is not None:
        return bool(controller.running())
    pid = getattr(running, "pid", None)
    if pid is None:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def trace_for_run(spec: BrokerSpec, trace: ProducerTrace) -> ProducerTrace:
    """The trace as it runs on ``spec``: on a shared broker its topic gets a name of its own,
    so that no trace reads another's records (the judged trace keeps its name)."""
    pool = _SHARED.get()
    if pool is None or spec.kind not in _SHAREABLE:
        return trace
    return attrs.evolve(trace, cluster=attrs.evolve(trace.cluster, topic=pool.next_topic(trace.cluster.topic)))


@contextlib.contextmanager
def _shared_or_own(key: str, start: Callable[[], contextlib.AbstractContextManager[Any]]) -> Iterator[Any]:
    """The shared broker under ``key`` inside :func:`shared_brokers`, else one of its own for this block."""
    pool = _SHARED.get()
    if pool is None:
        with start() as running:
            yield running
        return
    running = pool.take(key, start)
    try:
        yield running
    except (ClientRunError, ClientConfigError):
        raise  # the client's failure: the broker is as good as before, the next trace has a topic of its own
    except BaseException:
        pool.discard(key)  # anything else may have left the broker in a state no later trace should meet
        raise


class WireBroker(Protocol):
    """A started broker (or cluster) for one run."""

    @property
    def bootstrap(self) -> str: ...

    def control(self, step: ClusterStep) -> None: ...

    def tick(self) -> None: ...

    def events(self) -> tuple[Event, ...]: ...

    def final_log(self) -> Mapping[int, tuple[LogRecord, ...]] | None: ...

    def log_start(self) -> Mapping[int, int]: ...


@contextlib.contextmanager
def open_broker(spec: BrokerSpec, trace: ProducerTrace, clock: Callable[[], int]) -> Iterator[WireBroker]:
    """Start what ``spec`` names for ``trace`` and stop it when the block ends (inside
    :func:`shared_brokers`, Apache Kafka is kept for the next trace instead).  Give it, and the
    client, ``trace_for_run(spec, trace)``: on a shared broker the topic must be the trace's own."""
    if spec.kind == TEST_BROKER:
        with _test_cluster(spec, trace, clock) as broker:
            yield broker
        return
    if spec.kind == CLUSTER:
        from kafka_conformance.adapters.brokers.process import BrokerStartError
        from kafka_conformance.producer.cluster_engine import cluster_refusal, open_kafka_cluster

        assert spec.version is not None
        release, _, count = spec.version.partition(":")
        refusal = cluster_refusal(trace, int(count))
        if refusal is not None:
            raise TargetError(f"{spec} cannot run this trace: {refusal}", Problem.INCAPABLE, Role.PRODUCER_BROKER)
        try:
            with open_kafka_cluster(release, int(count), trace, clock,
                                    started=lambda start: _shared_or_own(str(spec), start)) as cluster:
                yield cluster
        except BrokerStartError as exc:
            raise TargetError(f"{spec}: {exc}", Problem.DID_NOT_START, Role.PRODUCER_BROKER) from exc
        return
    if spec.kind == KFAKE_CLUSTER:
        with _kfake_cluster(spec, trace, clock) as kfake:
            yield kfake
        return
    with _real_broker(spec, trace, clock) as real:
        yield real


@contextlib.contextmanager
def _kfake_cluster(spec: BrokerSpec, trace: ProducerTrace, clock: Callable[[], int]) -> Iterator[WireBroker]:
    from kafka_conformance.adapters.brokers.process import BrokerStartError
    from kafka_conformance.adapters.go.kfake import KfakeError
    from kafka_conformance.producer.kfake_engine import kfake_refusal, open_kfake_cluster

    brokers = int(spec.version or 0)
    refusal = kfake_refusal(trace, brokers)
    if refusal is not None:
        raise TargetError(f"{spec} cannot run this trace: {refusal}", Problem.INCAPABLE, Role.PRODUCER_BROKER)
    try:
        with open_kfake_cluster(brokers, trace, clock) as cluster:
            yield cluster
    except (BrokerStartError, KfakeError) as exc:
        raise TargetError(f"{spec}: {exc}", Problem.DID_NOT_START, Role.PRODUCER_BROKER) from exc


@contextlib.contextmanager
def _test_cluster(spec: BrokerSpec, trace: ProducerTrace, clock: Callable[[], int]) -> Iterator[WireBroker]:
    try:
        from kafka_conformance.adapters.brokers.testbroker import TestCluster
    except ImportError as exc:  # pragma: no cover - only before the test broker exists
        raise TargetError(f"the Python test broker is not available in this installation: {exc}", Problem.UNAVAILABLE,
                          Role.PRODUCER_BROKER) from exc
    cluster_spec = trace.cluster if spec.version is None else attrs.evolve(trace.cluster, kafka_version=spec.version)
    with TestCluster(cluster_spec, trace.plan, clock=clock) as cluster:
        yield _TestClusterBroker(cluster)


@attrs.define
class _TestClusterBroker:
    cluster: object

    @property
    def bootstrap(self) -> str:
        return str(self.cluster.bootstrap)  # type: ignore[attr-defined]

    def control(self, step: ClusterStep) -> None:
        self.cluster.apply(step)  # type: ignore[attr-defined]

    def tick(self) -> None:
        self.cluster.replicate()  # type: ignore[attr-defined]

    def events(self) -> tuple[Event, ...]:
        return tuple(self.cluster.events())  # type: ignore[attr-defined]

    def final_log(self) -> Mapping[int, tuple[LogRecord, ...]] | None:
        return dict(self.cluster.final_log())  # type: ignore[attr-defined]

    def log_start(self) -> Mapping[int, int]:
        return dict(self.cluster.log_start())  # type: ignore[attr-defined]


def _cluster_steps(trace: ProducerTrace, *, restartable: bool = False) -> list[str]:
    """The cluster steps a single real broker cannot take. One the kit can restart on its own data
    (``kafka:VERSION``) takes a STOP or CRASH of broker 0 followed at once by its RESTART: the broker
    is stopped and started again there, as one step (nothing can run while it is down)."""
    steps = list(trace.steps)
    refused = []
    for i, step in enumerate(steps):
        if not isinstance(step, ClusterStep):
            continue
        if restartable and step.broker == 0 and step.action in _RESTART_PAIR:
            following = steps[i + 1] if i + 1 < len(steps) else None
            if isinstance(following, ClusterStep) and following.action is ClusterAction.RESTART and following.broker == 0:
                continue
        if restartable and step.action is ClusterAction.RESTART and step.broker == 0 and i > 0:
            previous = steps[i - 1]
            if isinstance(previous, ClusterStep) and previous.action in _RESTART_PAIR and previous.broker == 0:
                continue
        refused.append(f"cluster step {step.action.value}")
    return refused


_RESTART_PAIR = frozenset({ClusterAction.STOP, ClusterAction.CRASH})


@contextlib.contextmanager
def _real_broker(spec: BrokerSpec, trace: ProducerTrace, clock: Callable[[], int]) -> Iterator[WireBroker]:
    """A real broker (a wheel's, kfake, or Apache Kafka's), the fault proxy between it and the client.

    A single real broker cannot fail over or go leaderless on cue, so a trace with such steps is
    refused (the matrix shows n/a), never run half-way; Apache Kafka's broker can be stopped
    (cleanly or killed) and started again on its own data, as a STOP or CRASH of broker 0 followed
    by its RESTART."""
    from kafka_conformance.adapters.brokers.launchers import BrokerStartError, BrokerUnavailable

    steps = _cluster_steps(trace, restartable=spec.kind == KAFKA)
    if steps:
        why = "a STOP or CRASH of broker 0 followed by its RESTART" if spec.kind == KAFKA else "none"
        raise TargetError(f"{spec}: a single real broker cannot run {'; '.join(steps)} "
                          f"(the test broker can; this one takes {why})", Problem.INCAPABLE, Role.PRODUCER_BROKER)
    try:
        def start() -> contextlib.AbstractContextManager[Any]:
            return _started(str(spec))

        with _shared_or_own(str(spec), start) if spec.kind == KAFKA else start() as running:
            broker = _RealBroker(running.host, running.port, trace, restart=getattr(running, "restart", None))
            broker.prepare()
            # Always through the proxy, a clean trace too: its log of attempts and answers is what
            # the delivery checker settles a run with (without it a clean run is only "unknown").
            from kafka_conformance.adapters.brokers.fault_proxy import FaultProxy

            with FaultProxy(running.host, running.port, trace.plan, clock=clock) as proxy:
                broker.proxy = proxy
                yield broker
    except BrokerUnavailable as exc:
        raise TargetError(f"{spec}: {exc}", Problem.UNAVAILABLE, Role.PRODUCER_BROKER) from exc
    except BrokerStartError as exc:
        raise TargetError(f"{spec}: {exc}", Problem.DID_NOT_START, Role.PRODUCER_BROKER) from exc


@contextlib.contextmanager
def _started(spec: str) -> Iterator[Any]:
    """A wheel broker from the launchers, or kfake from the kit's Go module."""
    from kafka_conformance.adapters.brokers.launchers import start_broker

    if spec != "kfake":
        with start_broker(spec) as running:
            yield running
        return
    from kafka_conformance.adapters.go.kfake import KfakeError, start_kfake

    try:
        cluster = start_kfake(1)
    except KfakeError as exc:
        raise TargetError(f"kfake: {exc}", Problem.DID_NOT_START, Role.PRODUCER_BROKER) from exc
    try:
        yield cluster
    finally:
        cluster.stop()


@attrs.define
class _RealBroker:
    host: str
    port: int
    trace: ProducerTrace
    restart: Callable[[bool], None] | None = None
    proxy: Any = None
    _stopped: ClusterAction | None = None

    @property
    def bootstrap(self) -> str:
        return str(self.proxy.bootstrap) if self.proxy is not None else f"{self.host}:{self.port}"

    def prepare(self) -> None:
        """Create the topic with its partitions (auto-creation would make one)."""
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

        spec = self.trace.cluster
        with WireClient(self.host, self.port) as wire:
            with contextlib.suppress(WireError):
                wire.create_topic(spec.topic, partitions=spec.partitions, replication_factor=1)
            wire.wait_for_leaders(spec.topic, spec.partitions, auto_create=True)

    def control(self, step: ClusterStep) -> None:
        """A STOP or CRASH is remembered; the RESTART right after it stops the broker that way and
        starts it again on its data (clients see their connections close and the broker refuse new
        ones until it serves again)."""
        if self.restart is not None and step.broker == 0 and step.action in _RESTART_PAIR:
            self._stopped = step.action
            return
        if self.restart is not None and step.action is ClusterAction.RESTART and self._stopped is not None:
            clean, self._stopped = self._stopped is ClusterAction.STOP, None
            if self.proxy is not None:  # logged as the test broker logs them (reference/cluster/model.py)
                self.proxy.record_fault(FaultKind.BROKER_STOP if clean else FaultKind.BROKER_CRASH)
                if not clean:  # every replica of every partition (the only one) failed at once
                    for partition in range(self.trace.cluster.partitions):
                        self.proxy.record_fault(FaultKind.CONCURRENT_FAILURE, partition)
            self.restart(clean)
            return
        raise TargetError(f"a single real broker cannot apply {step.action.value}", Problem.INCAPABLE, Role.PRODUCER_BROKER)

    def tick(self) -> None:
        return None

    def events(self) -> tuple[Event, ...]:
        return tuple(self.proxy.events) if self.proxy is not None else ()

    def final_log(self) -> Mapping[int, tuple[LogRecord, ...]] | None:
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

        spec = self.trace.cluster
        try:
            with WireClient(self.host, self.port) as wire:
                return {p: wire.read_log(spec.topic, p) for p in range(spec.partitions)}
        except WireError:
            return None

    def log_start(self) -> Mapping[int, int]:
        return {}
