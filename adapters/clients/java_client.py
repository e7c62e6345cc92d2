"""Apache Kafka's own Java ``KafkaProducer`` (kafka-clients 4.3.0) as a producer under test.

Why the Java client: it is the reference ``docs/spec/idempotence.md`` (§2.1, §2.2) and the trace table
(§5.2) are written against (KIP-98, KIP-360, KIP-679 ...), so its own behaviour on a row is
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

import os
from typing import Any

from kafka_conformance.adapters.clients.protocol import ClientConfigError, ClientRunError, MappedConfig, broker_error_outcome
from kafka_conformance.adapters.clients.runner import ProgramClient
from kafka_conformance.adapters.jvm.jars import JarError, fetch_jars
from kafka_conformance.adapters.jvm.session import jdk_tool, unavailable_reason
from kafka_conformance.adapters.jvm.shim import ShimError, shim_classes
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["RUNNER_CLASS", "JavaProducerClient", "classify_java_error"]

NAME = "java"
RUNNER_CLASS = "kafka_conformance.jvm.ProducerRunner"
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


class JavaProducerClient(ProgramClient):
    """Runs a trace through ``org.apache.kafka.clients.producer.KafkaProducer`` in a subprocess."""

    name = NAME

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

    def command(self) -> list[str]:
        return _command()

    def settings(self, mapped: MappedConfig, bootstrap: str) -> dict[str, Any]:
        return {**mapped.as_dict(), "bootstrap.servers": bootstrap}

    def classify(self, event: dict[str, Any]) -> tuple[Appended, str]:
        return classify_java_error(event)


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
