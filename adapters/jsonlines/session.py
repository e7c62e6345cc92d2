"""A command line, the process currently running it, and what the implementation declared.

Why sessions exist apart from adapters: the kit makes a fresh adapter for every
generated case (hundreds per property), but starting a Node or JVM process per
case would cost far more than the case itself.  A session keeps one process
alive and hands it to adapter after adapter; each adapter starts by sending
``reset``.  When the process dies or is stopped (crash, timeout, malformed
output) the session starts a new one on the next request, with a new
*generation* number, so an adapter whose state lived in the old process is told
its state is lost instead of being answered by a blank authorizer.

This module also maps the implementation's error objects to the exceptions the
kit compares: Kafka-style kinds become :class:`AuthorizerError` /
:class:`ConfigError`; everything else is an :class:`AdapterError` ("could not
answer").
"""

from __future__ import annotations

import os
import shlex
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from kafka_conformance.adapters.jsonlines.process import ImplementationProcess
from kafka_conformance.adapters.jsonlines.wire import (
    PROTOCOL_VERSION,
    WireError,
    WireErrorInfo,
    decode_capabilities,
    decode_error,
)
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.adapters.timed import DEFAULT_TIMEOUT_S, check_timeout
from kafka_conformance.reference.errors import AuthorizerError, ConfigError, KafkaException

__all__ = [
    "DEFAULT_TIMEOUT",
    "TIMEOUT_ENV",
    "ImplementationSession",
    "default_timeout",
    "split_command",
]

DEFAULT_TIMEOUT = DEFAULT_TIMEOUT_S
TIMEOUT_ENV = "KAFKA_CONFORMANCE_CMD_TIMEOUT"
"""The environment variable that used to set the timeout of ``cmd:`` targets: replaced by
``--timeout`` (CLI), ``kafka_conformance_timeout`` (pytest ini) and ``timeout=`` (``check_*``).
A run where it is still set stops with an error saying so, rather than ignoring it."""

_JAVA_EXCEPTIONS = {
    "not-ready": "org.apache.kafka.common.errors.AuthorizerNotReadyException",
    "invalid-argument": "java.lang.IllegalArgumentException",
    "illegal-state": "java.lang.IllegalStateException",
}


def split_command(command: str | Sequence[str]) -> tuple[str, ...]:
    """POSIX shell-like splitting, without a shell: no expansion, no redirection, no pipes."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise AdapterError("invalid-command", f"cannot split the command line {command!r}: {exc}") from None
    else:
        argv = [str(a) for a in command]
    if not argv:
        raise AdapterError("invalid-command", "empty command line; expected e.g. cmd:node my_authorizer.js")
    return tuple(argv)


def default_timeout() -> float:
    """The per-request timeout when none is given: :data:`DEFAULT_TIMEOUT` seconds.  The old
    environment variable is refused loudly: a setting the kit ignored would pass silently."""
    if os.environ.get(TIMEOUT_ENV, "").strip():
        raise AdapterError("invalid-setting", f"{TIMEOUT_ENV} is no longer read; give the timeout with "
                                              "--timeout SECONDS (pytest: kafka_conformance_timeout, "
                                              "check_authorizer: timeout=) and unset the variable")
    return DEFAULT_TIMEOUT


class ImplementationSession:
    """Owns at most one live :class:`ImplementationProcess` at a time; thread-safe."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        grace: float = 2.0,
    ) -> None:
        self.argv = split_command(command)
        try:
            self.timeout = default_timeout() if timeout is None else check_timeout(timeout)
        except ValueError as exc:
            raise AdapterError("invalid-setting", str(exc)) from None
        self.cwd, self.env, self.grace = cwd, env, grace
        self.implementation = ""
        """The ``implementation`` name from the handshake, for reports."""
        self._process: ImplementationProcess | None = None
        self._capabilities: Capabilities | None = None
        self._generation = 0
        self._next_id = 0
        self._closed = False
        self._lock = threading.RLock()

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def pid(self) -> int | None:
        """The running process, if any (tests use it to see restarts)."""
        proc = self._process
        return proc.pid if proc is not None and proc.alive() else None

    @property
    def capabilities(self) -> Capabilities:
        """The declaration from the first handshake (starting the process if none was made)."""
        with self._lock:
            if self._capabilities is None:
                if self._closed:
                    raise AdapterError("closed", f"the session for {self.command} is closed")
                self._live()
            assert self._capabilities is not None
            return self._capabilities

    def stderr_tail(self) -> str:
        proc = self._process
        return "" if proc is None else proc.stderr.text()

    # -- requests -------------------------------------------------------------------------------
    def call(self, requests: Sequence[tuple[str, dict[str, Any]]], *, generation: int | None,
             ) -> tuple[list[dict[str, Any]], int]:
        """Send ``(op, params)`` requests in one pipelined write; return the responses and
        the generation that answered.  ``generation`` is the one the caller's state lives
        in (None for a caller that starts with ``reset``)."""
        with self._lock:
            if self._closed:
                raise AdapterError("closed", f"the session for {self.command} is closed")
            proc = self._process
            if proc is not None and not proc.alive():
                death = proc.describe_exit("between requests, so the state it held is lost")
                self._discard()
                if generation == self._generation:
                    raise AdapterError("crash", death)
            if generation is not None and (self._process is None or generation != self._generation):
                raise AdapterError(
                    "crash",
                    f"the implementation process ({self.command}) was replaced since this adapter last used it "
                    "(after a crash, a timeout or a malformed answer), so the configuration and ACLs it held are lost; "
                    "make a new adapter or call reset()",
                )
            live = self._live()
            messages = []
            for op, params in requests:
                self._next_id += 1
                messages.append({"id": self._next_id, "op": op, **params})
            try:
                return live.exchange(messages), self._generation
            except AdapterError:
                self._discard()
                raise

    def unwrap(self, response: Mapping[str, Any], op: str, properties: Mapping[str, str] | None = None) -> Any:
        """The ``result`` of a response, or raise what its ``error`` stands for."""
        has_result, has_error = "result" in response, "error" in response
        if has_result and not has_error:
            return response["result"]
        if has_error and not has_result:
            try:
                info = decode_error(response["error"], "error")
            except WireError as exc:
                raise AdapterError("malformed", f"the error answer to {op} (id {response.get('id')}): {exc}") from None
            raise self.error(info, op, properties)
        fields = ", ".join(sorted(response)) or "none"
        raise AdapterError(
            "malformed",
            f"the response to {op} (id {response.get('id')}) must have exactly one of 'result' or 'error' (fields: {fields})",
        )

    def error(self, info: WireErrorInfo, op: str, properties: Mapping[str, str] | None = None) -> Exception:
        """The exception for an implementation's error object."""
        if info.kind == "config-error":
            key = info.key or "(the implementation did not name the key)"
            exc: KafkaException = ConfigError(key, (properties or {}).get(key), info.message)
            if info.exception:
                exc.kafka_exception = info.exception
            return exc
        if info.kind in _JAVA_EXCEPTIONS:
            return AuthorizerError(info.kind, info.message, info.exception or _JAVA_EXCEPTIONS[info.kind])
        tail = self.stderr_tail().rstrip()
        note = f"\nits stderr ends with:\n{tail}" if tail and info.kind == "internal" else ""
        return AdapterError("protocol-error", f"the implementation answered {op} with error kind {info.kind!r}: {info.message}{note}")

    # -- process lifecycle ------------------------------------------------------------------------
    def _live(self) -> ImplementationProcess:
        if self._process is not None and self._process.alive():
            return self._process
        self._discard()
        proc = ImplementationProcess(self.argv, timeout=self.timeout, cwd=self.cwd, env=self.env, grace=self.grace)
        self._next_id += 1
        try:
            response = proc.exchange([{"id": self._next_id, "op": "hello", "protocol": PROTOCOL_VERSION, "kit": "kafka-conformance"}])[0]
            caps = self._handshake(proc, response)
        except BaseException:
            proc.stop()
            raise
        if self._capabilities is not None and caps != self._capabilities:
            proc.stop()
            raise AdapterError("handshake", f"the restarted implementation declared {caps}, before it declared {self._capabilities}")
        self._capabilities = caps
        self._process = proc
        self._generation += 1
        return proc

    def _handshake(self, proc: ImplementationProcess, response: Mapping[str, Any]) -> Capabilities:
        try:
            result = self.unwrap(response, "hello")
        except AdapterError as exc:
            if exc.kind == "malformed":
                raise AdapterError("malformed", f"{self.command} answered the handshake wrongly: {exc}{_stderr(proc)}") from None
            raise AdapterError("handshake", f"{self.command} refused the handshake: {exc}{_stderr(proc)}") from None
        except KafkaException as exc:
            raise AdapterError("handshake", f"{self.command} refused the handshake: {exc}{_stderr(proc)}") from None
        try:
            if not isinstance(result, dict):
                raise WireError("result", "expected a JSON object")
            version = result.get("protocol")
            if version != PROTOCOL_VERSION:
                raise WireError("result.protocol", f"the kit speaks protocol {PROTOCOL_VERSION}, the implementation {version!r}")
            caps = decode_capabilities(result.get("capabilities"))
            name = result.get("implementation", "")
            self.implementation = name if isinstance(name, str) else ""
        except WireError as exc:
            raise AdapterError("malformed", f"the hello answer of {self.command}: {exc}{_stderr(proc)}") from None
        return caps

    def _discard(self) -> None:
        proc, self._process = self._process, None
        if proc is not None:
            proc.stop()

    def close(self) -> None:
        """Ask the process to shut down, then stop it for sure; idempotent."""
        with self._lock:
            self._closed = True
            proc, self._process = self._process, None
            if proc is None:
                return
            try:
                if proc.alive():
                    proc.timeout = min(proc.timeout, self.grace)
                    self._next_id += 1
                    proc.exchange([{"id": self._next_id, "op": "shutdown"}])
            except AdapterError:
                pass  # it is being stopped anyway
            finally:
                proc.stop()


def _stderr(proc: ImplementationProcess) -> str:
    tail = proc.stderr.text().rstrip()
    return f"\nits stderr ends with:\n{tail}" if tail else ""
