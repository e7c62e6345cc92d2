"""confluent-kafka (librdkafka) as a producer under test.

librdkafka keeps a per-message persistence status (NOT_PERSISTED,
POSSIBLY_PERSISTED, PERSISTED; sticky: once possibly persisted, never
downgraded), the best oracle of "definite versus indeterminate" failure.
**confluent-kafka 2.16.1 does not expose it**: ``Message`` has no status
accessor, and the ``KafkaError`` of a delivery report carries only the code
(``retriable()``, ``fatal()`` and ``txn_requires_abort()`` are all False
there).  So the claim is inferred from the code, conservatively:

* a broker code whose answer means "not written" (the reference table), when
  the message failed on it without retrying, is :class:`~trace.Failed`; the
  error text says the status was inferred;
* everything else is :class:`~trace.Indeterminate`: ``_MSG_TIMED_OUT`` (queued
  or in flight: librdkafka alone knows which), ``_PURGE_QUEUE`` (a retried
  message sits in the queue again), ``_PURGE_INFLIGHT``, ``_FATAL``, transport
  errors.

Java property names are librdkafka's own or its aliases (``delivery.timeout.ms``
is ``message.timeout.ms``); ``request.timeout.ms`` is librdkafka's produce
request timeout, and ``socket.timeout.ms`` is set to match so that a lost
response is noticed as soon as the Java client would.
"""

from __future__ import annotations

import importlib.util
import logging
import time
from collections.abc import Callable
from typing import Any

from kafka_conformance.adapters.clients.protocol import (
    ClientConfigError,
    ClientRunError,
    CompletionLog,
    ConfigMap,
    MappedConfig,
    as_acks,
    as_bool,
    as_int,
    broker_error_outcome,
    run_program,
)
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.program import ClusterStep, ProducerTrace, SendStep

__all__ = ["ConfluentKafkaClient", "SendDriver", "classify_librdkafka_error", "librdkafka_logger"]

NAME = "confluent-kafka"
_NOT_SENT = frozenset({"_INVALID_ARG", "_UNKNOWN_TOPIC", "_UNKNOWN_PARTITION", "_MSG_SIZE_TOO_LARGE", "_QUEUE_FULL"})
"""Local codes librdkafka returns only for a message it never put on the wire."""


def _config_map() -> ConfigMap:
    def i(key: str, low: int = 0, *, also: tuple[str, ...] = ()) -> Callable[[str], list[tuple[str, Any]]]:
        def handle(v: str) -> list[tuple[str, Any]]:
            n = as_int(NAME, key, v, low)
            return [(key, n), *((k, n) for k in also)]

        return handle

    def refuse_txn(v: str) -> list[tuple[str, Any]]:
        raise ClientConfigError(f"{NAME}: transactional.id={v!r}: transactional producers are outside this suite")

    return ConfigMap(
        NAME,
        {
            "enable.idempotence": lambda v: [("enable.idempotence", as_bool(NAME, "enable.idempotence", v))],
            "acks": lambda v: [("acks", as_acks(NAME, v))],
            "retries": i("retries"),
            "max.in.flight.requests.per.connection": i("max.in.flight.requests.per.connection", 1),
            "request.timeout.ms": i("request.timeout.ms", 1, also=("socket.timeout.ms",)),
            "delivery.timeout.ms": i("delivery.timeout.ms", 1),
            "linger.ms": i("linger.ms"),
            "retry.backoff.ms": i("retry.backoff.ms", 1),
            "batch.size": i("batch.size", 1),
            "transactional.id": refuse_txn,
        },
        fixed={
            "client.id": "kafka-conformance",
            "log_level": 3,
            "reconnect.backoff.ms": 20,
            "reconnect.backoff.max.ms": 200,
            "topic.metadata.refresh.interval.ms": 1000,
        },
    )


def classify_librdkafka_error(code: int, name: str, *, retried: bool = False) -> tuple[Appended, str]:
    """(what a delivery report's error says about the write, its description).

    ``retried``: whether the client may have sent the message before (unknown from
    Python; pass True to stay conservative)."""
    if name in _NOT_SENT:
        return Appended.NO, name
    if code > 0:
        outcome = broker_error_outcome(code)
        if outcome is Appended.NO and not retried:
            return Appended.NO, f"{name} (definite: inferred from the code; confluent-kafka does not expose the message status)"
        return Appended.MAYBE if outcome is Appended.NO else outcome, name
    return Appended.MAYBE, name


def librdkafka_logger() -> logging.Logger:
    """librdkafka's log lines go to this logger instead of stderr: every injected fault would
    print otherwise.  A NullHandler keeps them quiet unless the application configures logging."""
    logger = logging.getLogger("kafka_conformance.librdkafka")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    return logger


class ConfluentKafkaClient:
    """Runs a trace through ``confluent_kafka.Producer``; callbacks are served by ``poll``."""

    name = NAME
    notes: tuple[str, ...] = ()

    def available(self) -> str | None:
        if importlib.util.find_spec("confluent_kafka") is None:
            return "confluent-kafka is not installed (pip install 'kafka-conformance[clients]')"
        return None

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        return _config_map().map(trace.config)

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
        from confluent_kafka import KafkaException, Producer

        started = time.monotonic()
        mapped = self.check_config(trace)
        log = CompletionLog(clock)
        try:
            producer = Producer({"bootstrap.servers": bootstrap, **mapped.as_dict(), "logger": librdkafka_logger()})
        except KafkaException as exc:
            err: Any = exc.args[0] if exc.args else exc
            if getattr(err, "name", lambda: "")() == "_INVALID_ARG":
                raise ClientConfigError(f"{NAME} refuses the configuration: {err.str()}") from exc
            raise ClientRunError(f"{NAME} could not start: {err}") from exc
        driver = SendDriver(producer, log)
        try:
            run_program(trace, driver, log, control=control, tick=tick, deadline_s=deadline_s, started=started)
        finally:
            events = log.close()
            self.notes = tuple(log.notes)
            producer.purge()
            producer.flush(1)
        return events


class SendDriver:
    """Sends a trace's values and records their completions; the transaction sessions send through it too."""

    def __init__(self, producer: Any, log: CompletionLog) -> None:
        self.producer = producer
        self.log = log

    def send(self, step: SendStep, topic: str) -> None:
        from confluent_kafka import KafkaException

        value = step.value
        self.log.send(value, step.partition)
        try:
            self.producer.produce(topic, value=value.encode("utf-8"), partition=step.partition, on_delivery=self._report)
        except BufferError:
            self.log.failed(value, "send refused: _QUEUE_FULL")
        except KafkaException as exc:  # refused before it was queued (e.g. after a fatal error): not written
            self.log.failed(value, f"send refused: {exc.args[0]}")
        self._served(self.producer.poll, 0)

    def _report(self, err: Any, msg: Any) -> None:
        value = msg.value().decode("utf-8")
        if err is None:
            self.log.acked(value, msg.offset())
        else:
            self.log.errored(value, *classify_librdkafka_error(err.code(), err.name(), retried=True))

    def flush(self, seconds: float) -> None:
        self._served(self.producer.flush, seconds)

    def serve(self, seconds: float) -> None:
        self._served(self.producer.poll, seconds)

    def _served(self, call: Callable[[float], Any], seconds: float) -> None:
        """poll/flush raise the producer's fatal error (an idempotence desync, say) once it is fatal;
        the run goes on - outstanding messages still get their delivery reports."""
        from confluent_kafka import KafkaException

        try:
            call(seconds)
        except KafkaException as exc:
            self.log.note(f"fatal error: {exc.args[0]}")
            time.sleep(seconds)
