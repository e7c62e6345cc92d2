"""Apache Kafka's own Java ``KafkaProducer`` (kafka-clients 4.3.0) as a producer under test.

Why the Java client: it is the reference the facts file and the trace table are
written against (KIP-98, KIP-360, KIP-679 ...), so its own behaviour on a row is
the most useful answer the kit can give - including where it is known to break
a row (KAFKA-14034).

How: a small Java program (``adapters/jvm/ProducerRunner.java``, compiled with the
authorizer shim against the cached jars) runs as a subprocess and speaks JSON
lines: the trace's Java properties go in unchanged (no mapping: these *are* the
client's own names), then ``send`` / ``flush`` / ``close``; it writes one line
per completion from the send callback, which a reader thread stamps on the
harness's clock.  A closed stdin ends the program, and the harness always stops
it (close, then terminate, then kill), so no run leaves a JVM behind.

What a failure claims: the Java client has no "maybe written" either, so the
claim is read from the exception.  A send refused before it reached the
accumulator (``send()`` threw, or failed its callback on the calling thread) was
never sent: :class:`~trace.Failed`.  Otherwise the Kafka error code
``Errors.forException`` gives is looked up in the reference table of produce
errors; only a code that says "not appended" is Failed, and a client-side
``TimeoutException`` (an expired batch) or anything unknown is
:class:`~trace.Indeterminate`.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from kafka_conformance.adapters.clients.protocol import (
    ClientConfigError,
    ClientRunError,
    CompletionLog,
    MappedConfig,
    broker_error_outcome,
    run_program,
)
from kafka_conformance.adapters.jvm.jars import JarError, fetch_jars
from kafka_conformance.adapters.jvm.session import jdk_tool, unavailable_reason
from kafka_conformance.adapters.jvm.shim import ShimError, shim_classes
from kafka_conformance.adapters.reaper import stop_tree, tagged_env
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.program import ClusterStep, ProducerTrace, SendStep

__all__ = ["RUNNER_CLASS", "JavaProducerClient", "classify_java_error"]

NAME = "java"
RUNNER_CLASS = "kafka_conformance.jvm.ProducerRunner"
START_TIMEOUT_S = 60.0
"""JVM start-up plus the producer's constructor; a machine under load can take seconds."""
CLOSE_TIMEOUT_MS = 1000
STOP_TIMEOUT_S = 10.0
FIXED: dict[str, str] = {
    "client.id": "kafka-conformance",
    "key.serializer": "org.apache.kafka.common.serialization.StringSerializer",
    "value.serializer": "org.apache.kafka.common.serialization.StringSerializer",
    # Reconnect fast after an injected disconnect, and never block a send for long on metadata.
    "reconnect.backoff.ms": "20",
    "reconnect.backoff.max.ms": "200",
    "max.block.ms": "5000",
}
OURS = ("bootstrap.servers", "key.serializer", "value.serializer")
CLIENT_TIMEOUT = "org.apache.kafka.common.errors.TimeoutException"


def classify_java_error(event: dict[str, Any]) -> tuple[Appended, str]:
    """(what one ``error`` line says about the write, its description)."""
    cls = str(event.get("class", "?"))
    text = f"{cls.rsplit('.', 1)[-1]}: {event.get('message', '')}"
    if event.get("cause"):
        text += f" (cause {event['cause']})"
    if event.get("sync") is True:
        return Appended.NO, f"send refused: {text}"
    code = event.get("code")
    if cls == CLIENT_TIMEOUT or not isinstance(code, int) or code == 0:
        return Appended.MAYBE, text
    return broker_error_outcome(code), text


class JavaProducerClient:
    """Runs a trace through ``org.apache.kafka.clients.producer.KafkaProducer`` in a subprocess."""

    name = NAME
    notes: tuple[str, ...] = ()

    def available(self) -> str | None:
        return unavailable_reason(need_py4j=False)

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        """The trace's properties unchanged (Java names are this client's own) on top of the fixed ones;
        the producer's constructor judges them, so its refusals surface when the run starts."""
        props = trace.config
        for key in OURS:
            if key in props:
                raise ClientConfigError(f"{NAME}: {key} is set by the harness, not by the trace")
        if "transactional.id" in props:
            txn = props["transactional.id"]
            raise ClientConfigError(f"{NAME}: transactional.id={txn!r}: transactional producers are outside this suite")
        return MappedConfig(NAME, tuple({**FIXED, **props}.items()))

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
        started = time.monotonic()
        props = {**self.check_config(trace).as_dict(), "bootstrap.servers": bootstrap}
        log = CompletionLog(clock)
        process = _RunnerProcess(_command(), log)
        try:
            process.open(props)
            run_program(trace, process, log, control=control, tick=tick, deadline_s=deadline_s, started=started)
        finally:
            events = log.close()
            process.stop()
            self.notes = tuple(log.notes)
        return events


def _command() -> list[str]:
    java, javac = jdk_tool("java"), jdk_tool("javac")
    if java is None or javac is None:
        raise ClientRunError(f"{NAME}: java and javac are needed (install a JDK 11+ or set JAVA_HOME)")
    try:
        jars = fetch_jars(quiet=True)
        classes = shim_classes(jars.classpath, javac=javac)
    except (JarError, ShimError) as exc:
        raise ClientRunError(f"{NAME} could not be prepared: {exc}") from exc
    classpath = os.pathsep.join(str(p) for p in (classes, *jars.classpath))
    return [java, "-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classpath, RUNNER_CLASS]


class _RunnerProcess:
    """The Java program, its reader threads, and the StepDriver half of :func:`run_program`."""

    def __init__(self, command: list[str], log: CompletionLog) -> None:
        self.command = command
        self.log = log
        self.stderr: collections.deque[str] = collections.deque(maxlen=40)
        self._answer: dict[str, Any] | None = None
        self._answered = threading.Event()
        self._flushing = False
        self._flushed = threading.Event()
        self._closed = threading.Event()
        self._proc: subprocess.Popen[str] | None = None
        self._owner: str | None = None
        self._threads: list[threading.Thread] = []

    # ------------------------------------------------------------ lifecycle

    def open(self, props: dict[str, str]) -> None:
        try:
            env, self._owner = tagged_env()
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", bufsize=1, env=env, start_new_session=True,
            )
        except OSError as exc:
            raise ClientRunError(f"{NAME} could not start {self.command[0]!r}: {exc}") from exc
        assert self._proc.stdout is not None and self._proc.stderr is not None
        for target, stream in ((self._read_stdout, self._proc.stdout), (self._read_stderr, self._proc.stderr)):
            thread = threading.Thread(target=target, args=(stream,), name=f"kafka-conformance-java-{target.__name__}", daemon=True)
            thread.start()
            self._threads.append(thread)
        self._write({"op": "open", "props": props})
        if not self._answered.wait(START_TIMEOUT_S):
            raise ClientRunError(f"{NAME} could not start: no answer in {START_TIMEOUT_S:.0f} s{self._stderr_tail()}")
        answer = self._answer or {}
        event = answer.get("event")
        if event == "config-error":
            refusal = f"{str(answer.get('class', '')).rsplit('.', 1)[-1]}: {answer.get('message')}"
            raise ClientConfigError(f"{NAME} refuses the configuration: {refusal}")
        if event != "ready":
            raise ClientRunError(f"{NAME} could not start: {answer.get('class', event)}: {answer.get('message', '')}{self._stderr_tail()}")

    def stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.poll() is None:
                self._write({"op": "close", "timeout_ms": CLOSE_TIMEOUT_MS}, quiet=True)
                try:
                    proc.wait(STOP_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    self.log.note(f"{NAME}: the producer did not close within {STOP_TIMEOUT_S:.0f} s; terminated")
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
                self.log.note(f"{NAME}: the producer process exited with {proc.returncode}{self._stderr_tail()}")

    # -------------------------------------------------------------- streams

    def _write(self, command: dict[str, Any], *, quiet: bool = False) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(command) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            if not quiet:
                raise ClientRunError(f"{NAME}: the producer process is gone ({exc}){self._stderr_tail()}") from exc

    def _read_stdout(self, stream: IO[str]) -> None:
        for line in stream:
            try:
                event = json.loads(line)
            except ValueError:
                self.log.note(f"{NAME}: unreadable line from the producer process: {line.strip()[:200]!r}")
                continue
            if isinstance(event, dict):
                self._dispatch(event)
        self._answered.set()  # the process ended: whoever waits for an answer stops waiting

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
            self.log.errored(value, *classify_java_error(event))
        elif kind == "flushed":
            self._flushing = False
            self._flushed.set()
        elif kind in ("ready", "config-error", "start-error"):
            self._answer = event
            self._answered.set()
        elif kind == "closed":
            self._closed.set()
        else:
            self.log.note(f"{NAME}: {event}")

    def _stderr_tail(self) -> str:
        tail = [line for line in self.stderr if "SLF4J" not in line][-10:]
        return ("; stderr: " + " | ".join(tail)) if tail else ""

    # ----------------------------------------------------------- StepDriver

    def send(self, step: SendStep, topic: str) -> None:
        self.log.send(step.value, step.partition)
        self._write({"op": "send", "id": step.value, "topic": topic, "partition": step.partition, "value": step.value})

    def flush(self, seconds: float) -> None:
        if not self._flushing:
            self._flushing = True
            self._flushed.clear()
            self._write({"op": "flush"})
        self._flushed.wait(seconds)

    def serve(self, seconds: float) -> None:
        time.sleep(seconds)  # the producer's I/O thread and our reader serve completions on their own
