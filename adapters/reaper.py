"""Finding and stopping every process the kit started, wherever it went.

A process group is not enough: an adapter may start a helper with ``setsid``
(its own session and group), a wrapper script may double-fork a daemon, Spark
and py4j start JVMs the kit never holds a handle to.  What all of them keep is
their environment, so every process the kit starts carries a tag in it, and the
kit stops everything that carries its tag (on Linux, by reading
``/proc/PID/environ``; elsewhere only the process groups are stopped).  The
idea is old and proven: CI servers kill a build's strays the same way.

Two tags:

* ``KAFKA_CONFORMANCE_OWNER`` is unique to one started process (an adapter, a
  broker) and its descendants: :func:`stop_tree` stops exactly those.
* ``KAFKA_CONFORMANCE_RUN`` is set in the kit's own environment for one CLI
  command or one pytest session (:func:`run_scope`), so that every process
  started during it inherits the tag, including the JVMs of py4j and Spark;
  at the end of the scope anything still carrying it is stopped.

Only processes of the same user can be read, so nothing else is ever touched.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

__all__ = [
    "OWNER_VAR",
    "RUN_VAR",
    "clear_stop",
    "close_shared",
    "closes_shared",
    "raise_if_stopping",
    "recording_signals",
    "request_stop",
    "run_scope",
    "signals_recorded",
    "stop_requested",
    "stop_tagged",
    "stop_tree",
    "tagged",
    "tagged_env",
]

OWNER_VAR = "KAFKA_CONFORMANCE_OWNER"
RUN_VAR = "KAFKA_CONFORMANCE_RUN"


def tagged_env(base: Mapping[str, str] | None = None) -> tuple[dict[str, str], str]:
    """A copy of ``base`` (default: this process's environment) with a fresh owner tag."""
    token = uuid.uuid4().hex
    env = dict(os.environ if base is None else base)
    env[OWNER_VAR] = token
    return env, token


def tagged(var: str, token: str) -> list[int]:
    """Every live process of this user (but this one) whose environment has ``var=token``."""
    needle = f"{var}={token}".encode()
    me, found = os.getpid(), []
    proc = Path("/proc")
    if not proc.is_dir():  # pragma: no cover - not Linux
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        with contextlib.suppress(OSError):
            data = (entry / "environ").read_bytes()
            if needle in data.split(b"\0"):
                found.append(int(entry.name))
    return found


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def stop_tagged(var: str, token: str, grace: float = 2.0) -> list[int]:
    """SIGTERM every process tagged ``var=token``, SIGKILL what is left after ``grace`` seconds;
    returns the pids that were found.  Our own unreaped children are reaped."""
    first = tagged(var, token)
    if not first:
        return []
    _signal(first, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        _reap(first)
        if not tagged(var, token):
            return first
        time.sleep(0.05)
    left = tagged(var, token)
    _signal(left, signal.SIGKILL)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        _reap(first + left)
        if not tagged(var, token):
            break
        time.sleep(0.05)
    return first


def _reap(pids: list[int]) -> None:
    """Collect the exit status of any of ``pids`` that is our child (so it stops being a zombie)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


def stop_tree(proc: subprocess.Popen[bytes] | subprocess.Popen[str], token: str | None, grace: float = 2.0) -> None:
    """Stop ``proc`` (started with ``start_new_session=True``), its process group, and every
    process carrying its owner tag; always reaps ``proc``."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # What is left of the group (its leader reaped, the group id may be reused) carries the tag.
    if token is not None:
        stop_tagged(OWNER_VAR, token, grace)


@contextlib.contextmanager
def run_scope() -> Iterator[str]:
    """Tag every process started inside the scope; stop whichever of them is still running at
    its end (after the code that started them had its chance to stop them politely).

    A nested scope (a CLI command run by a test under the plugin's scope) has a tag of its
    own and restores the outer one at its end."""
    outer = os.environ.get(RUN_VAR)
    token = uuid.uuid4().hex
    os.environ[RUN_VAR] = token
    try:
        yield token
    finally:
        try:
            stop_tagged(RUN_VAR, token)
        finally:
            if outer is None:
                os.environ.pop(RUN_VAR, None)
            else:
                os.environ[RUN_VAR] = outer


_CLOSERS: list[Callable[[], None]] = []


def closes_shared(closer: Callable[[], None]) -> Callable[[], None]:
    """Register ``closer``, a module's way to stop what it keeps open across cases (a pooled
    ``cmd:`` process, a JVM): :func:`close_shared` calls it.  A module registers when it is
    imported, so ending a run never imports a module the run did not use."""
    if closer not in _CLOSERS:
        _CLOSERS.append(closer)
    return closer


def close_shared() -> None:
    """Stop everything the registered modules keep open (the CLI and the pytest plugin call this
    when a run ends; each module's atexit hook is the last resort).  Every closer runs; the
    first failure is raised after the last."""
    failed: list[BaseException] = []
    for closer in list(_CLOSERS):
        try:
            closer()
        except Exception as exc:  # the others must still run
            failed.append(exc)
    if failed:
        raise failed[0]


_STOPPING: list[type[BaseException]] = []


def request_stop(exc_type: type[BaseException]) -> None:
    """Note that the run must stop (a signal arrived).  A signal handler's exception can be
    lost: raised inside a garbage-collector callback it is only printed as "ignored".  So
    the handler records the request here too, and the kit's loops re-raise it at their next
    :func:`raise_if_stopping`."""
    if not _STOPPING:
        _STOPPING.append(exc_type)


def stop_requested() -> bool:
    """Whether a signal asked the run to stop (and was not yet reported)."""
    return bool(_STOPPING)


_RECORDING: list[bool] = []


@contextlib.contextmanager
def recording_signals() -> Iterator[None]:
    """While the block runs, every stop signal is recorded (:func:`request_stop`) by the one who
    handles it (the CLI): a KeyboardInterrupt without a record is then no Ctrl-C."""
    _RECORDING.append(True)
    try:
        yield
    finally:
        _RECORDING.pop()


def signals_recorded() -> bool:
    return bool(_RECORDING)


def raise_if_stopping() -> None:
    """Raise the recorded stop request, if any (called between examples and calls)."""
    if _STOPPING:
        raise _STOPPING[0]()


def clear_stop() -> None:
    """Forget a stop request (the CLI, once it has reported it)."""
    _STOPPING.clear()
