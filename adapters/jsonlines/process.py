"""One implementation process spoken to in JSON lines over its stdin and stdout.

Why this is careful: the kit must never hang and never leave processes behind,
whatever the implementation does.  So:

* the command is a list handed to ``Popen`` (never a shell), started in its own
  process group so that wrapper scripts and their children stop together;
* stdin and stdout are non-blocking and driven by one ``selectors`` loop, so a
  request is written while responses are read (pipelining) and a full pipe in
  either direction cannot deadlock;
* every exchange has a deadline: each response must arrive within ``timeout``
  seconds of the exchange start or of the previous response;
* stderr is drained continuously by a daemon thread into a bounded buffer
  (an implementation that logs a lot cannot block on a full pipe), and its tail
  is quoted in every error;
* any failure that leaves the stream out of step (crash, timeout, a line that
  is not JSON, a wrong id) stops the process; the owner starts a new one;
* the process is stopped by :meth:`ImplementationProcess.stop` and, failing
  that, at interpreter exit by a ``weakref.finalize`` that holds no reference
  to the object: terminate, a grace period, then kill.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import IO, Any

from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.adapters.reaper import OWNER_VAR, stop_tagged, tagged_env

__all__ = ["ImplementationProcess", "StderrTail"]

_READ_SIZE = 1 << 16

_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


class Encoded(str):
    """A request field's value already in JSON (ASCII only, as :func:`encoded` makes it),
    written into the request line as it is.  A record-log case asks the same questions
    after every step; their JSON is built once and sent with each step."""

    __slots__ = ()


def encoded(value: Any) -> Encoded:
    """``value`` in JSON, as a request line carries it."""
    return Encoded(_ENCODER.encode(value))


def request_line(request: Mapping[str, Any]) -> bytes:
    """One request as the line written to the implementation (with its newline)."""
    for value in request.values():
        if type(value) is Encoded:
            break
    else:
        return _ENCODER.encode(request).encode("ascii") + b"\n"
    fields = ",".join(f"{_ENCODER.encode(k)}:{v if type(v) is Encoded else _ENCODER.encode(v)}" for k, v in request.items())
    return f"{{{fields}}}\n".encode("ascii")


class StderrTail:
    """The last ``limit`` bytes an implementation wrote to stderr, kept by a daemon thread."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._lock = threading.Lock()
        # The thread closes the stream itself at EOF: closing it from another
        # thread while a read is blocked on it is unsafe (the fd may be reused).
        self._thread = threading.Thread(target=self._drain, args=(stream,), name="kc-stderr", daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        try:
            while chunk := os.read(fd, 4096):
                with self._lock:
                    self._buffer += chunk
                    if len(self._buffer) > self._limit:
                        del self._buffer[: len(self._buffer) - self._limit]
        except OSError:
            pass
        finally:
            stream.close()

    def wait(self, seconds: float) -> None:
        """Let the thread collect what a dead process wrote last."""
        self._thread.join(seconds)

    def text(self, max_chars: int = 4000) -> str:
        with self._lock:
            data = bytes(self._buffer)
        return data.decode("utf-8", "replace")[-max_chars:]


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    """Signal the process group while its leader is unreaped (so the id is surely ours)."""
    if proc.returncode is not None:
        return
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, sig)
        else:  # pragma: no cover - not POSIX
            proc.send_signal(sig)
    except (ProcessLookupError, PermissionError):
        pass


def _stop(proc: subprocess.Popen[bytes], grace: float, token: str) -> None:
    """EOF on stdin, then terminate, then kill; always reaps; then every process that
    carries the owner tag (helpers started with setsid, daemons).  Holds no adapter object."""
    if proc.stdin is not None and not proc.stdin.closed:
        with contextlib.suppress(OSError):  # a full pipe to a dead reader
            proc.stdin.close()
    for sig in (None, signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
        if sig is not None:
            _signal_group(proc, sig)
        try:
            proc.wait(grace)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        proc.wait()
    stop_tagged(OWNER_VAR, token, grace)
    if proc.stdout is not None and not proc.stdout.closed:
        proc.stdout.close()


class ImplementationProcess:
    """A started implementation; :meth:`exchange` sends requests and returns their responses."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        timeout: float,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        grace: float = 2.0,
        stderr_limit: int = 64 * 1024,
        max_line: int = 64 * 1024 * 1024,
    ) -> None:
        if not argv:
            raise AdapterError("invalid-command", "empty command line")
        self.argv = tuple(argv)
        self.timeout = timeout
        self.grace = grace
        self.max_line = max_line
        tagged, self._token = tagged_env(env)
        try:
            self._proc = subprocess.Popen(
                list(self.argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                env=tagged,
                start_new_session=True,
            )
        except OSError as exc:
            raise AdapterError("cannot-start", f"cannot start {self.command}: {exc}") from exc
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._finalizer = weakref.finalize(self, _stop, proc, grace, self._token)
        self.stderr = StderrTail(proc.stderr, stderr_limit)
        self._stdin_fd, self._stdout_fd = proc.stdin.fileno(), proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout_fd, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._scanned = 0
        self._failed: str | None = None

    # -- state ------------------------------------------------------------------------------
    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode

    def alive(self) -> bool:
        return self._failed is None and self._proc.poll() is None

    def describe_exit(self, when: str = "") -> str:
        """``... exited with code 3 <when>`` / ``was killed by SIGSEGV`` / ``is still running``, plus stderr."""
        code = self._proc.poll()
        if code is None:
            status = "is still running"
        elif code < 0:
            try:
                status = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                status = f"was killed by signal {-code}"
        else:
            status = f"exited with code {code}"
        when = f" {when}" if when else ""
        return f"the implementation process {self.pid} ({self.command}) {status}{when}{self._stderr_note()}"

    def _stderr_note(self) -> str:
        tail = self.stderr.text().rstrip()
        return f"; its stderr ends with:\n{tail}" if tail else "; it wrote nothing to stderr"

    # -- the exchange -----------------------------------------------------------------------
    def exchange(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write every request, then collect one response per request id (any order).
        (Requests longer than the pipe holds are written on while responses are read.)

        Raises AdapterError ``crash``, ``timeout`` or ``malformed``; after any of
        them this process is stopped and must be replaced.  The error carries in
        ``received`` the responses that had come, by position.
        """
        if self._failed is not None:
            raise AdapterError("crash", f"the implementation process was stopped earlier ({self._failed})")
        payload = b"".join(request_line(r) for r in requests)
        order = {int(r["id"]): n for n, r in enumerate(requests)}
        names = {int(r["id"]): str(r.get("op")) for r in requests}
        answers: list[dict[str, Any] | None] = [None] * len(requests)
        view, written = memoryview(payload), 0
        try:
            written += self._write(view, names)
            if written < len(view):
                self._selector.register(self._stdin_fd, selectors.EVENT_WRITE)
            deadline = time.monotonic() + self.timeout
            while order:
                line = self._next_line()
                if line is not None:
                    self._accept(line, order, names, answers)
                    deadline = time.monotonic() + self.timeout
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    waiting = ", ".join(f"id {i} ({names[i]})" for i in order)
                    self._fail("timeout", f"no response within {self.timeout:g} s; still waiting for {waiting}")
                for key, _ in self._selector.select(remaining):
                    if key.fd == self._stdin_fd:
                        sent = self._write(view[written:], names)
                        written += sent
                        if sent:  # it is reading: a large request is progress too
                            deadline = time.monotonic() + self.timeout
                        if written >= len(view):
                            self._selector.unregister(self._stdin_fd)
                    else:
                        self._read(names, order)
        except AdapterError as exc:
            exc.received = answers  # what had come before the failure, for the caller to meet first
            raise
        except BaseException:
            if self._failed is None:  # e.g. KeyboardInterrupt: the stream is out of step now
                self._failed = "interrupted"
                self.stop()
            raise
        return [a for a in answers if a is not None]

    def _write(self, data: memoryview, names: Mapping[int, str]) -> int:
        if not data:
            return 0
        try:
            return os.write(self._stdin_fd, data)
        except BlockingIOError:
            return 0
        except (BrokenPipeError, ConnectionResetError):
            self._crashed("while the kit was writing requests", names)
        raise AssertionError("unreachable")

    def _read(self, names: Mapping[int, str], order: Mapping[int, int]) -> None:
        try:
            chunk = os.read(self._stdout_fd, _READ_SIZE)
        except BlockingIOError:
            return
        if not chunk:
            waiting = ", ".join(f"id {i} ({names[i]})" for i in order)
            self._crashed(f"before answering {waiting}", names)
        self._buffer += chunk

    def _next_line(self) -> bytes | None:
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end < 0:
                self._scanned = len(self._buffer)  # never search the same bytes twice
                if self._scanned > self.max_line:
                    self._fail("malformed", f"a response line is longer than {self.max_line} bytes")
                return None
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            self._scanned = 0
            if line.strip():  # blank lines are allowed and ignored
                return line

    def _accept(self, line: bytes, order: dict[int, int], names: Mapping[int, str], answers: list[dict[str, Any] | None]) -> None:
        excerpt = line[:300].decode("utf-8", "replace")
        try:
            message = json.loads(line)
        except ValueError as exc:
            self._fail("malformed", f"stdout line {excerpt!r} is not JSON ({exc}); write logs to stderr, not stdout")
        if not isinstance(message, dict):
            self._fail("malformed", f"stdout line {excerpt!r} is not a JSON object")
        if "id" not in message:
            self._fail("malformed", f"response {excerpt!r} has no 'id' field")
        rid = message["id"]
        if isinstance(rid, bool) or not isinstance(rid, int) or rid not in order:
            waiting = ", ".join(f"id {i} ({names[i]})" for i in order)
            self._fail("malformed", f"response {excerpt!r} has id {rid!r}, which matches no request awaiting an answer "
                                    f"(awaiting {waiting})")
        answers[order.pop(rid)] = message

    def _crashed(self, when: str, names: Mapping[int, str]) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(min(self.grace, 1.0))
        if self._proc.poll() is None:
            self._fail("crash", f"the implementation closed its stdout {when}")
        self.stderr.wait(0.5)
        self._fail("crash", self.describe_exit(when), described=True)

    def _fail(self, kind: str, message: str, *, described: bool = False) -> None:
        """Stop the process at once (the stream is out of step) and raise AdapterError(kind)."""
        self._failed = kind
        _signal_group(self._proc, signal.SIGTERM)  # no polite EOF wait: it may be stuck
        self.stop()
        note = "" if described else f"\nThe kit stopped the implementation process {self.pid} ({self.command}){self._stderr_note()}"
        raise AdapterError(kind, f"{message}{note}")

    # -- stopping -----------------------------------------------------------------------------
    def stop(self) -> None:
        """EOF, terminate, kill: idempotent; leaves no process and no open pipe behind."""
        if self._failed is None:
            self._failed = "stopped"
        self._selector.close()
        self._finalizer()
        self.stderr.wait(0.5)
