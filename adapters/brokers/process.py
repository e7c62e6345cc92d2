"""Process plumbing shared by the real-broker launchers: free ports, listening sockets, clean stop.

Why a module of its own: every launcher must obey the same rules, and a test
checks them once here.

* Every port is a free ephemeral port on 127.0.0.1, chosen by the kernel.
* :func:`listening_addresses` reads ``/proc/<pid>/fd`` and ``/proc/net/tcp{,6}``
  (no psutil) to list what a process really listens on, so a launcher can
  refuse a broker that opened anything beyond 127.0.0.1.
* Output goes to files, not pipes: a chatty broker can never block on a full
  pipe, and the tail of its stderr is quoted in every error.
* Stop is terminate, a grace period, then kill, always with a timeout; and a
  ``weakref.finalize`` stops a forgotten process at interpreter exit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path

from kafka_conformance.adapters.reaper import stop_tree, tagged_env

__all__ = ["BrokerProcess", "BrokerStartError", "free_port", "listening_addresses"]

_ENV_SCRUB = (
    "LISTENER_URL", "ADVERTISED_LISTENER_URL", "STORAGE_ENGINE", "SCHEMA_REGISTRY", "CLUSTER_ID",
    "OTEL_EXPORTER_OTLP_ENDPOINT", "KAFKA_LISTENER_URL", "KAFKA_ADVERTISED_LISTENER_URL",
)
"""Environment variables some brokers read as configuration; dropped so the command line alone decides
where a broker listens and whom it contacts."""


class BrokerStartError(Exception):
    """A broker could not be started, did not become ready in time, or listened where it must not."""


def free_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _hex_address(text: str) -> tuple[str, int]:
    """``0100007F:1F90`` → ("127.0.0.1", 8080); IPv6 in the kernel's word order."""
    host_hex, port_hex = text.split(":")
    port = int(port_hex, 16)
    raw = bytes.fromhex(host_hex)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw[::-1]), port
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, words), port


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        for fd in fd_dir.iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    return inodes


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def listening_addresses(pid: int) -> tuple[tuple[str, int], ...]:
    """Every (address, port) a process and its descendants listen on (TCP, IPv4 and IPv6)."""
    pids, todo = set(), [pid]
    while todo:
        p = todo.pop()
        if p not in pids:
            pids.add(p)
            todo += _children(p)
    inodes: set[str] = set()
    for p in pids:
        inodes |= _socket_inodes(p)
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                cols = line.split()
                if len(cols) > 9 and cols[3] == "0A" and cols[9] in inodes:
                    found.append(_hex_address(cols[1]))
    return tuple(sorted(set(found)))


def port_is_listening(port: int) -> bool:
    """True when anything on this machine listens on ``port`` (any address)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                cols = line.split()
                if len(cols) > 3 and cols[3] == "0A" and _hex_address(cols[1])[1] == port:
                    return True
    return False


def _finalize(proc: subprocess.Popen[bytes], workdir: str, grace_s: float, token: str) -> None:
    if proc.stdin is not None:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    stop_tree(proc, token, grace_s)
    shutil.rmtree(workdir, ignore_errors=True)


class BrokerProcess:
    """One broker process with its own scratch directory and output files."""

    def __init__(self, name: str, argv: Sequence[str], *, extra_env: Mapping[str, str] | None = None,
                 grace_s: float = 5.0, workdir: str | None = None, keep_stdin: bool = False) -> None:
        """``keep_stdin``: stdin is a pipe the caller writes commands to (and whose end, when this
        process dies, tells a well-behaved broker to stop); otherwise /dev/null."""
        self.name = name
        self.argv = list(argv)
        self.grace_s = grace_s
        self.workdir = workdir or tempfile.mkdtemp(prefix=f"kc-{name}-")
        self._out_path = Path(self.workdir) / "stdout.log"
        self._err_path = Path(self.workdir) / "stderr.log"
        env, self._token = tagged_env(
            {k: v for k, v in os.environ.items() if k not in _ENV_SCRUB and not k.startswith("OTEL_")})
        env.update(extra_env or {})
        with open(self._out_path, "wb") as out, open(self._err_path, "wb") as err:
            try:
                self.proc: subprocess.Popen[bytes] = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE if keep_stdin else subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                    cwd=self.workdir,
                    start_new_session=True,
                )
            except OSError as exc:
                shutil.rmtree(self.workdir, ignore_errors=True)
                raise BrokerStartError(f"cannot run {name} ({self.argv[0]}): {exc}") from exc
        self._finalizer = weakref.finalize(self, _finalize, self.proc, self.workdir, grace_s, self._token)

    @property
    def stdout_path(self) -> Path:
        return self._out_path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def running(self) -> bool:
        return self.proc.poll() is None

    def output_tail(self, limit: int = 2000) -> str:
        parts = []
        for label, path in (("stderr", self._err_path), ("stdout", self._out_path)):
            with contextlib.suppress(OSError):
                text = path.read_bytes()[-limit:].decode("utf-8", "replace").strip()
                if text:
                    parts.append(f"--- {label} tail ---\n{text}")
        return "\n".join(parts) or "(no output)"

    def fail(self, why: str) -> BrokerStartError:
        """Stop the process and build the error that says why, with its output tail."""
        code = self.proc.poll()
        tail = self.output_tail()
        self.stop()
        status = "" if code is None else f" (exited with {code})"
        return BrokerStartError(f"{self.name}{status}: {why}\n{tail}")

    def wait_listening(self, port: int, timeout_s: float) -> None:
        """Until something accepts on 127.0.0.1:``port``; a BrokerStartError on exit or timeout."""
        deadline = time.monotonic() + timeout_s
        while True:
            if not self.running():
                raise self.fail(f"exited before listening on 127.0.0.1:{port}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
            if time.monotonic() >= deadline:
                raise self.fail(f"not listening on 127.0.0.1:{port} after {timeout_s}s")
            time.sleep(0.02)

    def check_loopback_only(self) -> tuple[tuple[str, int], ...]:
        """Every listening socket of the broker; stops it and raises if any is not on 127.0.0.1."""
        found = listening_addresses(self.pid)
        bad = [f"{a}:{p}" for a, p in found if a not in ("127.0.0.1", "::ffff:127.0.0.1")]
        if bad:
            raise self.fail(f"listens beyond 127.0.0.1: {', '.join(bad)}")
        return found

    def crash(self) -> None:
        """SIGKILL the process group at once, as a power cut would end the process (no shutdown
        hook, no controlled shutdown), then stop and clean up as :meth:`stop` does."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
        self._finalizer()

    def stop(self) -> None:
        """Terminate, wait up to the grace period, kill; then remove the scratch directory."""
        self._finalizer()

    def stop_cleanly(self, grace_s: float) -> bool:
        """SIGTERM the process group and give the process ``grace_s`` to end by itself (a
        broker's controlled shutdown, which writes what a clean restart reads); True if it
        did, False if it had to be killed.  Then stop and clean up as :meth:`stop` does."""
        ended = True
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(grace_s)
            except subprocess.TimeoutExpired:
                ended = False
        self._finalizer()
        return ended
