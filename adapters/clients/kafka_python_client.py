"""kafka-python (3.x) as a producer under test.

kafka-python completes each send's future from its sender thread, with the
broker's error class (``errno`` = the wire code) or a client-side exception
(``KafkaTimeoutError`` when a batch expires, connection errors).  It has no
notion of "maybe written", so its claim is read from the exception class: a
broker code that means "not written" (NOT_ENOUGH_REPLICAS, OUT_OF_ORDER_SEQUENCE,
...) is a definite :class:`~trace.Failed`; timeouts, disconnects and codes
that may follow an append are :class:`~trace.Indeterminate`.

kafka-python mirrors the Java client's configuration rules (explicit idempotence
with acks other than all, retries=0 or more than 5 in flight is an error), so
its own refusals surface as :class:`ClientConfigError` too.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import time
import warnings
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

__all__ = ["KafkaPythonClient", "SendDriver", "classify_kafka_python_error", "close_producer", "import_kafka"]

NAME = "kafka-python"


def _config_map() -> ConfigMap:
    def i(key: str, kw: str, low: int = 0) -> Callable[[str], list[tuple[str, Any]]]:
        return lambda v: [(kw, as_int(NAME, key, v, low))]

    def acks(v: str) -> list[tuple[str, Any]]:
        n = as_acks(NAME, v)
        return [("acks", "all" if n == -1 else n)]

    def refuse_txn(v: str) -> list[tuple[str, Any]]:
        raise ClientConfigError(f"{NAME}: transactional.id={v!r}: transactional producers are outside this suite")

    return ConfigMap(
        NAME,
        {
            "enable.idempotence": lambda v: [("enable_idempotence", as_bool(NAME, "enable.idempotence", v))],
            "acks": acks,
            "retries": i("retries", "retries"),
            "max.in.flight.requests.per.connection": i("max.in.flight.requests.per.connection", "max_in_flight_requests_per_connection", 1),
            "request.timeout.ms": i("request.timeout.ms", "request_timeout_ms", 1),
            "delivery.timeout.ms": i("delivery.timeout.ms", "delivery_timeout_ms", 1),
            "linger.ms": i("linger.ms", "linger_ms"),
            "retry.backoff.ms": i("retry.backoff.ms", "retry_backoff_ms"),
            "batch.size": i("batch.size", "batch_size", 1),
            "transactional.id": refuse_txn,
        },
        # Reconnect fast after an injected disconnect, and never block a send for long on metadata.
        fixed={"reconnect_backoff_ms": 20, "reconnect_backoff_max_ms": 200, "max_block_ms": 5000, "client_id": "kafka-conformance"},
    )


def classify_kafka_python_error(exc: BaseException) -> tuple[Appended, str]:
    """(what the exception says about the write, its description) for one failed future."""
    errno = getattr(exc, "errno", None)
    name = type(exc).__name__
    text = f"{name}: {exc}" if str(exc) else name
    if isinstance(errno, int) and errno != 0:
        return broker_error_outcome(errno), text
    return Appended.MAYBE, text


def import_kafka() -> tuple[Any, Any, Any]:
    """kafka-python 3.0 reads its schemas with a deprecated importlib.resources call at import;
    that warning is the package's, not a fault of the run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from kafka import KafkaProducer  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from kafka.errors import KafkaConfigurationError, KafkaError  # type: ignore[import-untyped,import-not-found,unused-ignore]
    return KafkaProducer, KafkaConfigurationError, KafkaError


class KafkaPythonClient:
    """Runs a trace through ``kafka.KafkaProducer``."""

    name = NAME
    notes: tuple[str, ...] = ()

    def available(self) -> str | None:
        if importlib.util.find_spec("kafka") is None:
            return "kafka-python is not installed (pip install 'kafka-conformance[clients]')"
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
        KafkaProducer, KafkaConfigurationError, KafkaError = import_kafka()
        started = time.monotonic()
        mapped = self.check_config(trace)
        log = CompletionLog(clock)
        refused = None
        with warnings.catch_warnings():
            # kafka-python validates idempotence settings after its network client opened a wake-up
            # socket pair, and a refused constructor leaves it unclosed: that warning is the library's.
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                producer = KafkaProducer(bootstrap_servers=bootstrap, **mapped.as_dict())
            except KafkaConfigurationError as exc:
                refused = str(exc)
            except KafkaError as exc:
                raise ClientRunError(f"{NAME} could not start against {bootstrap}: {exc!r}") from exc
            if refused is not None:
                gc.collect()
        if refused is not None:
            raise ClientConfigError(f"{NAME} refuses the configuration: {refused}")
        driver = SendDriver(producer, log)
        try:
            run_program(trace, driver, log, control=control, tick=tick, deadline_s=deadline_s, started=started)
        finally:
            events = log.close()
            self.notes = tuple(log.notes)
            close_producer(producer)
        return events


def close_producer(producer: Any) -> None:
    """close() flushes first and raises KafkaTimeoutError while a send is still pending (a send
    the client never completed is a finding, not a reason to leak its sender thread): then the
    sender is force-closed, which fails the pending batches, as close() itself would after a flush."""
    try:
        producer.close(timeout=1)
    except Exception:  # kafka.errors.KafkaTimeoutError; kafka-python is imported lazily
        sender = getattr(producer, "_sender", None)
        if sender is not None:
            sender.force_close()
            sender.join(5)
        producer._closed = True
        metrics = getattr(producer, "_metrics", None)
        if metrics is not None:
            metrics.close()


class SendDriver:
    """Sends a trace's values and records their completions; the transaction sessions send through it too."""

    def __init__(self, producer: Any, log: CompletionLog) -> None:
        self.producer = producer
        self.log = log

    def send(self, step: SendStep, topic: str) -> None:
        value = step.value
        self.log.send(value, step.partition)
        try:
            future = self.producer.send(topic, value=value.encode("utf-8"), partition=step.partition)
        except Exception as exc:  # refused before it was queued: definitely not written
            self.log.failed(value, f"send refused: {type(exc).__name__}: {exc}")
            return
        future.add_callback(lambda md: self.log.acked(value, md.offset))
        future.add_errback(lambda exc: self.log.errored(value, *classify_kafka_python_error(exc)))

    def flush(self, seconds: float) -> None:
        from kafka.errors import KafkaTimeoutError

        with contextlib.suppress(KafkaTimeoutError):
            self.producer.flush(timeout=seconds)

    def serve(self, seconds: float) -> None:
        time.sleep(seconds)  # kafka-python's sender thread serves callbacks on its own
