"""One JVM (py4j gateway) per classpath, shared by every case of a run.

Why shared: the kit makes a fresh authorizer for every generated case
(hundreds per property).  Starting a JVM costs ~0.2 s and the shim a
compile, so a case gets a fresh *Java object* in a long-lived JVM instead.
``JvmSession.close()`` stops the JVM; sessions made by :func:`shared_session`
are stopped at interpreter exit, and the JVM also dies if Python does
(py4j's ``die_on_exit``: it exits when its stdin closes).

The gateway listens on 127.0.0.1 only (py4j's default address; tests/jvm checks
the listening socket) on an ephemeral port, with py4j's per-launch auth token.

py4j is imported inside functions only: ``import kafka_conformance`` stays light.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import shutil
import tempfile
import threading
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kafka_conformance.adapters.jvm.jars import FETCH_HINT, JarError, KafkaJars, fetch_jars, find_jars
from kafka_conformance.adapters.jvm.shim import SHIM_CLASS, ShimError, expand_classpath, shim_classes
from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.adapters.reaper import OWNER_VAR, closes_shared, stop_tagged

__all__ = [
    "JvmSession",
    "JvmUnavailable",
    "close_shared_sessions",
    "shared_session",
    "unavailable_reason",
]

_READ_TIMEOUT_S = 120.0
"""A hosted authorizer that hangs becomes an adapter error instead of a hung run."""


class JvmUnavailable(AdapterError):
    """Java, javac, py4j or the Kafka jars are missing; the message says which and how to fix it."""

    def __init__(self, message: str) -> None:
        super().__init__("jvm-unavailable", message)


def jdk_tool(name: str) -> str | None:
    """``$JAVA_HOME/bin/NAME`` if there is one, else NAME on the PATH (None: not found)."""
    home = os.environ.get("JAVA_HOME")
    if home and Path(home, "bin", name).is_file():
        return str(Path(home, "bin", name))
    return shutil.which(name)


def unavailable_reason(*, need_jars: bool = True, need_py4j: bool = True) -> str | None:
    """Why the JVM adapter cannot run here (None if it can); never downloads or starts anything.
    The Java producer runs in a plain subprocess: it asks with ``need_py4j=False``."""
    for tool in ("java", "javac"):
        if jdk_tool(tool) is None:
            return f"{tool} not found (install a JDK 11+ or set JAVA_HOME)"
    if need_py4j and importlib.util.find_spec("py4j") is None:
        return "py4j is not installed (pip install 'kafka-conformance[jvm]')"
    if need_jars:
        try:
            if find_jars() is None:
                return f"kafka-clients 4.3.0 is not fetched yet (run: {FETCH_HINT})"
        except JarError as exc:
            return str(exc)
    return None


class JvmSession:
    """A JVM with the shim, the Kafka jars and an optional user classpath.

    ``classpath`` entries come first, so a user's own ``kafka-clients`` wins
    over ours; ours (``jars``, fetched if needed) follows as the fallback.
    """

    def __init__(self, classpath: Sequence[str | Path] = (), *, jars: KafkaJars | None = None,
                 standalone: bool = False) -> None:
        """``standalone``: ``classpath`` is a whole Kafka release (``kafka:VERSION``); the shim is
        compiled against it alone and our kafka-clients 4.3.0 is not added."""
        reason = unavailable_reason(need_jars=False)
        if reason is not None:
            raise JvmUnavailable(reason)
        try:
            ours = () if standalone else (jars or fetch_jars()).classpath
            compile_path = [*expand_classpath(classpath), *ours]
            classes = shim_classes(compile_path, javac=jdk_tool("javac") or "javac")
        except (JarError, ShimError) as exc:
            raise JvmUnavailable(str(exc)) from exc
        self.classpath = (classes, *compile_path)
        self.stderr: deque[str] = deque(maxlen=200)
        self._lock = threading.Lock()
        self._gateway: Any = None
        self._proc: Any = None
        self._owner = ""
        self._zookeeper: Any = None
        self._zookeeper_dir: str | None = None
        self._chroots = 0
        self._start()

    def _start(self) -> None:
        from py4j.java_gateway import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            GatewayParameters,
            JavaGateway,
            launch_gateway,
        )

        # py4j starts the JVM with this process's environment: the owner tag goes in for the
        # moment of the start, so that close() finds the JVM and anything it started.
        self._owner = uuid.uuid4().hex
        saved = os.environ.get(OWNER_VAR)
        os.environ[OWNER_VAR] = self._owner
        try:
            port, token, proc = launch_gateway(
                classpath=os.pathsep.join(str(p) for p in self.classpath),
                die_on_exit=True, enable_auth=True, return_proc=True, javaopts=list(_JAVA_OPTIONS),
                redirect_stderr=self.stderr, java_path=jdk_tool("java") or "java",
            )
        finally:
            if saved is None:
                os.environ.pop(OWNER_VAR, None)
            else:
                os.environ[OWNER_VAR] = saved
        self._proc = proc
        self.port: int = port
        self._gateway = JavaGateway(
            gateway_parameters=GatewayParameters(address="127.0.0.1", port=port, auth_token=token,
                                                 read_timeout=_READ_TIMEOUT_S),
            java_process=proc,
        )
        shim = self._gateway.jvm
        for part in SHIM_CLASS.split("."):
            shim = getattr(shim, part)
        self._host: Callable[[str], Any] = shim.host
        self.run_case: Callable[[str, str, bool], str] = shim.runCase
        """A whole case in one round trip (``KafkaConformanceShim.runCase``)."""
        self.kafka_version: str = str(shim.kafkaVersion())
        filters = self._gateway.jvm.kafka_conformance.jvm.FilterCheck
        self.filter_matches: Callable[[str, str], str] = filters.matches
        self.filter_explain: Callable[[str, str], str] = filters.explain
        self.constructible: Callable[[str], str] = filters.constructible
        self.ping: Callable[[], str] = shim.kafkaVersion

    @property
    def alive(self) -> bool:
        return self._gateway is not None and self._proc is not None and self._proc.poll() is None

    def host(self, class_name: str) -> Any:
        """A new shim hosting a new instance of ``class_name`` (a py4j JavaObject)."""
        from py4j.protocol import Py4JError, Py4JJavaError  # type: ignore[import-untyped,import-not-found,unused-ignore]

        try:
            return self._host(class_name)
        except Py4JJavaError as exc:
            raise AdapterError("jvm-target", f"cannot instantiate {class_name}: {exc.java_exception}") from exc
        except Py4JError as exc:
            raise self.crashed(f"hosting {class_name}", exc) from exc

    def detach(self, obj: Any) -> None:
        """Let the JVM free an object now rather than when Python collects it."""
        if self.alive:
            self._gateway.detach(obj)

    def crashed(self, what: str, exc: BaseException) -> AdapterError:
        tail = "".join(list(self.stderr)[-20:]).strip()
        state = "the JVM exited" if not self.alive else "the py4j call failed"
        return AdapterError("jvm-crashed", f"{what}: {state}: {exc}" + (f"\nJVM stderr:\n{tail}" if tail else ""))

    def zookeeper_connect(self) -> str:
        """A ``zookeeper.connect`` string for one more AclAuthorizer: the JVM's own ZooKeeper
        (started on first use, on 127.0.0.1) and a fresh chroot, so no case sees another's ACLs."""
        from py4j.protocol import Py4JError  # type: ignore[import-untyped,import-not-found,unused-ignore]

        try:
            with self._lock:
                if self._zookeeper is None:
                    self._zookeeper_dir = tempfile.mkdtemp(prefix="kc-zookeeper-")
                    self._zookeeper = self._gateway.jvm.kafka_conformance.jvm.ZooKeeperHost.start(self._zookeeper_dir)
                self._chroots += 1
                chroot = f"/kafka-conformance-{self._chroots}"
                answer = str(self._zookeeper.createPath(chroot))
                port = int(self._zookeeper.port())
        except Py4JError as exc:
            raise self.crashed("starting ZooKeeper", exc) from exc
        if answer != "+":
            raise AdapterError("zookeeper", f"cannot create the ZooKeeper chroot {chroot}: {answer[1:]}")
        return f"127.0.0.1:{port}{chroot}"

    def close(self) -> None:
        """Stop the JVM (idempotent), and the ZooKeeper inside it first."""
        zookeeper, self._zookeeper = self._zookeeper, None
        if zookeeper is not None and self.alive:
            with contextlib.suppress(Exception):  # the JVM's exit stops it anyway
                zookeeper.stop()
        if self._zookeeper_dir is not None:
            shutil.rmtree(self._zookeeper_dir, ignore_errors=True)
            self._zookeeper_dir = None
        with self._lock:
            gateway, proc = self._gateway, self._proc
            self._gateway = self._proc = None
        if gateway is not None:
            with contextlib.suppress(Exception):  # the JVM may already be gone; stopping it is what matters
                gateway.close()
        if proc is not None:
            # The JVM holds nothing to save (ZooKeeper's data is a temporary folder, removed above),
            # and its orderly exit takes 0.37 s on every run, whatever it ran: it is killed.
            if proc.stdin is not None:
                proc.stdin.close()
            with contextlib.suppress(OSError):
                proc.kill()
            proc.wait(timeout=10)
            stop_tagged(OWNER_VAR, self._owner)

    def __enter__(self) -> JvmSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_JAVA_OPTIONS = (
    # ZooKeeper's NIO client sleeps 100 ms in cleanup() on every close (ClientCnxnSocketNIO, ZooKeeper
    # 3.5 to 3.8), and an AclAuthorizer case opens and closes two sessions; the Netty client does not.
    # Only ZooKeeper clients read it, so it changes nothing for the other targets.
    "-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty",
    # The JVM's own ZooKeeper server (ZooKeeperHost) serves one client at a time: one selector thread
    # that also handles the requests, instead of handing each to a pool of workers.
    "-Dzookeeper.nio.numSelectorThreads=1",
    "-Dzookeeper.nio.numWorkerThreads=0",
)

_SHARED: dict[tuple[str, ...], JvmSession] = {}
_SHARED_LOCK = threading.Lock()
_AT_EXIT: list[bool] = []


def shared_session(classpath: Sequence[str | Path] = (), *, standalone: bool = False) -> JvmSession:
    """The process-wide session for this user classpath, started on first use."""
    key = (str(standalone), *(str(p) for p in expand_classpath(classpath)))
    with _SHARED_LOCK:
        session = _SHARED.get(key)
        if session is None or not session.alive:
            if not _AT_EXIT:
                atexit.register(close_shared_sessions)
                _AT_EXIT.append(True)
            session = _SHARED[key] = JvmSession(classpath, standalone=standalone)
        return session


@closes_shared
def close_shared_sessions() -> None:
    with _SHARED_LOCK:
        sessions = list(_SHARED.values())
        _SHARED.clear()
    for session in sessions:
        session.close()
