"""A producer runner process spoken to in JSON lines: the harness half shared by every runner.

The protocol is the one ``adapters/jvm/ProducerRunner.java`` documents (``open``,
``send``, ``flush``, ``close`` in; ``ready``, ``acked``, ``error``, ``flushed``,
``closed`` out); the Java producer, the Go producers (``adapters/go``) and the Node.js
producers (``adapters/node``) speak it, and :class:`ProgramClient` is the client half they share.
Every wait has a timeout, a closed stdin ends the runner, and :meth:`RunnerProcess.stop`
always stops the process and all it started (close, then terminate, then kill).
"""

from __future__ import annotations

import collections
import contextlib
import json
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from kafka_conformance.adapters.clients.protocol import (
    CallTimedOut,
    ClientConfigError,
    ClientRunError,
    CompletionLog,
    MappedConfig,
    run_program,
)
from kafka_conformance.adapters.reaper import stop_tree, tagged_env
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.program import ClusterStep, ProducerTrace, SendStep

__all__ = ["ProgramClient", "RunnerProcess", "started_runner"]

START_TIMEOUT_S = 60.0
"""Start-up plus the producer's constructor; a JVM on a machine under load can take seconds."""
CLOSE_TIMEOUT_MS = 1000
STOP_TIMEOUT_S = 10.0


class RunnerProcess:
    """A runner program, its reader threads, and the StepDriver half of :func:`run_program`.

    ``classify`` reads one ``error`` line: (what it says about the write, its description)."""

    def __init__(self, name: str, command: list[str], log: CompletionLog,
                 classify: Callable[[dict[str, Any]], tuple[Appended, str]]) -> None:
        self.name = name
        self.classify = classify
        self.command = command
        self.log = log
        self.stderr: collections.deque[str] = collections.deque(maxlen=40)
        self._answer: dict[str, Any] | None = None
        self._answered = threading.Event()
        self._flushing = False
        self._flushed = threading.Event()
        self._closed = threading.Event()
        self._txn_answer: dict[str, Any] | None = None
        self._txn_done = threading.Event()
        self._proc: subprocess.Popen[str] | None = None
        self._owner: str | None = None
        self._threads: list[threading.Thread] = []
        self._stopping = False

    # ------------------------------------------------------------ lifecycle

    def open(self, props: dict[str, Any]) -> None:
        try:
            env, self._owner = tagged_env()
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", bufsize=1, env=env, start_new_session=True,
            )
        except OSError as exc:
            raise ClientRunError(f"{self.name} could not start {self.command[0]!r}: {exc}") from exc
        assert self._proc.stdout is not None and self._proc.stderr is not None
        for target, stream in ((self._read_stdout, self._proc.stdout), (self._read_stderr, self._proc.stderr)):
            thread = threading.Thread(target=target, args=(stream,), name=f"kafka-conformance-{self.name}-{target.__name__}", daemon=True)
            thread.start()
            self._threads.append(thread)
        self._write({"op": "open", "props": props})
        if not self._answered.wait(START_TIMEOUT_S):
            raise ClientRunError(f"{self.name} could not start: no answer in {START_TIMEOUT_S:.0f} s{self._stderr_tail()}")
        if self._answer is None:
            code = None
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._proc.wait(5)
            for thread in self._threads:
                thread.join(2)
            raise ClientRunError(f"{self.name} could not start: the producer process exited (code {code}) before it answered"
                                 f"{self._stderr_tail()}")
        answer = self._answer
        event = answer.get("event")
        if event == "config-error":
            refusal = f"{str(answer.get('class', '')).rsplit('.', 1)[-1]}: {answer.get('message')}"
            raise ClientConfigError(f"{self.name} refuses the configuration: {refusal}")
        if event != "ready":
            what = f"{answer.get('class', event)}: {answer.get('message', '')}"
            raise ClientRunError(f"{self.name} could not start: {what}{self._stderr_tail()}")

    def stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        self._stopping = True
        try:
            if proc.poll() is None:
                self._write({"op": "close", "timeout_ms": CLOSE_TIMEOUT_MS}, quiet=True)
                try:
                    proc.wait(STOP_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    self.log.note(f"{self.name}: the producer did not close within {STOP_TIMEOUT_S:.0f} s; terminated")
                    proc.terminate()
                    try:
                        proc.wait(5)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait(5)
        finally:
            stop_tree(proc, self._owner)
            for thread in self._threads:
                thread.join(5)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            if proc.returncode not in (0, None):
                self.log.note(f"{self.name}: the producer process exited with {proc.returncode}{self._stderr_tail()}")

    # -------------------------------------------------------------- streams

    def _write(self, command: dict[str, Any], *, quiet: bool = False) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(command) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            if not quiet:
                code = None
                with contextlib.suppress(subprocess.TimeoutExpired):
                    code = proc.wait(5)
                for thread in self._threads:
                    thread.join(2)
                raise ClientRunError(f"{self.name}: the producer process exited (code {code}) ({exc}){self._stderr_tail()}") from exc

    def _read_stdout(self, stream: IO[str]) -> None:
        for line in stream:
            try:
                event = json.loads(line)
            except ValueError:
                self.log.note(f"{self.name}: unreadable line from the producer process: {line.strip()[:200]!r}")
                continue
            if isinstance(event, dict):
                self._dispatch(event)
        self._answered.set()  # the process ended: whoever waits for an answer stops waiting
        self._txn_done.set()

    def _read_stderr(self, stream: IO[str]) -> None:
        for line in stream:
            self.stderr.append(line.rstrip("\n"))

    def _dispatch(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        value = str(event.get("id"))
        if kind == "acked":
            offset = event.get("offset")
            self.log.acked(value, offset if isinstance(offset, int) else -1)
        elif kind == "error":
            self.log.errored(value, *self.classify(event))
        elif kind == "flushed":
            self._flushing = False
            self._flushed.set()
        elif kind in ("ready", "config-error", "start-error"):
            self._answer = event
            self._answered.set()
        elif kind == "txn":
            self._txn_answer = event
            self._txn_done.set()
        elif kind == "closed":
            self._closed.set()
        else:
            self.log.note(f"{self.name}: {event}")

    def _stderr_tail(self) -> str:
        tail = [line for line in self.stderr if "SLF4J" not in line][-10:]
        return ("; stderr: " + " | ".join(tail)) if tail else ""

    # ----------------------------------------------------------- StepDriver

    def _check_alive(self) -> None:
        """A runner that died under the run is an error of the run, said at once, never a wait."""
        proc = self._proc
        if proc is not None and not self._stopping and proc.poll() is not None:
            for thread in self._threads:
                thread.join(2)
            raise ClientRunError(f"{self.name}: the producer process died (exit code {proc.returncode}){self._stderr_tail()}")

    def send(self, step: SendStep, topic: str) -> None:
        self._check_alive()
        self.log.send(step.value, step.partition)
        self._write({"op": "send", "id": step.value, "topic": topic, "partition": step.partition, "value": step.value})

    def flush(self, seconds: float) -> None:
        self._check_alive()
        if not self._flushing:
            self._flushing = True
            self._flushed.clear()
            self._write({"op": "flush"})
        self._flushed.wait(seconds)

    def txn(self, action: str, timeout_s: float) -> dict[str, Any]:
        """A transactional producer's call (``init``, ``begin``, ``commit``, ``abort``) and its answer line:
        ``ok``, else the exception's ``class``, ``message``, ``code`` and whether it is ``fatal``."""
        self._check_alive()
        self._txn_answer = None
        self._txn_done.clear()
        self._write({"op": "txn", "action": action})
        if not self._txn_done.wait(timeout_s):
            raise CallTimedOut(f"{self.name}: the transaction call {action} gave no answer within {timeout_s:.0f} s"
                               f"{self._stderr_tail()}")
        self._check_alive()
        answer = self._txn_answer
        if answer is None:
            raise ClientRunError(f"{self.name}: the producer process ended during {action}{self._stderr_tail()}")
        return answer

    def serve(self, seconds: float) -> None:
        self._check_alive()
        time.sleep(seconds)  # the producer's I/O thread and our reader serve completions on their own


def started_runner(name: str, command: list[str], log: CompletionLog,
                   classify: Callable[[dict[str, Any]], tuple[Appended, str]], settings: dict[str, Any]) -> RunnerProcess:
    """A runner process opened with ``settings``; stopped again, with all it started, when it does not open."""
    process = RunnerProcess(name, command, log, classify)
    try:
        process.open(settings)
    except BaseException:
        process.stop()
        raise
    return process


class ProgramClient:
    """A producer client run as a runner program: the :class:`~protocol.ProducerClient` half every
    runner-backed client shares (the Java client, the Go and the Node.js runners).

    A subclass says how to start its program (:meth:`command`), what settings the ``open`` line
    carries (:meth:`settings`) and what one ``error`` line claims (:meth:`classify`); the run itself,
    its clock, its deadline and stopping the process on every path are here, once."""

    name = ""
    notes: tuple[str, ...] = ()

    def available(self) -> str | None:
        raise NotImplementedError

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        raise NotImplementedError

    def command(self) -> list[str]:
        """The program to start; :class:`ClientRunError` when it cannot be prepared."""
        raise NotImplementedError

    def settings(self, mapped: MappedConfig, bootstrap: str) -> dict[str, Any]:
        """The ``open`` line's settings: the mapped configuration and the brokers to reach (a list, as the
        kit's Go and Node.js runners read it; the Java runner takes ``bootstrap.servers``)."""
        return {**mapped.as_dict(), "bootstrap": bootstrap.split(",")}

    def classify(self, event: dict[str, Any]) -> tuple[Appended, str]:
        """(what one ``error`` line says about the write, its description)."""
        raise NotImplementedError

    def run(
        self,
        trace: ProducerTrace,
        bootstrap: str,
        *,
        control: Callable[[ClusterStep], None],
        tick: Callable[[], None],
        clock: Callable[[], int],
        deadline_s: float,
    ) -> tuple[Event, ...]:
        command = self.command()  # a first build or install is not the trace's time
        started = time.monotonic()
        settings = self.settings(self.check_config(trace), bootstrap)
        log = CompletionLog(clock)
        process = RunnerProcess(self.name, command, log, self.classify)
        try:
            process.open(settings)
            run_program(trace, process, log, control=control, tick=tick, deadline_s=deadline_s, started=started)
        finally:
            events = log.close()
            process.stop()
            self.notes = tuple(log.notes)
        return events
