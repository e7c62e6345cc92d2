"""aiokafka (0.14) as a producer under test.

aiokafka is asyncio-only, so the adapter runs one event loop on a private
thread and the shared step loop submits sends to it; completions are recorded
from the message futures' done-callbacks on that loop.

What aiokafka can and cannot be asked (``docs/spec/idempotence.md`` §2.4): it keeps one produce
request in flight per broker whatever ``max.in.flight`` says (accepted with a
note: one is within any bound), it has no ``retries`` count (retriable errors are
retried; ``retries=0`` is refused), and no delivery timeout: a batch's time to
live is ``request.timeout.ms``, and an idempotent batch never expires - except
when its partition has no leader, where an expired batch is failed locally
(aio-libs/aiokafka#1017's suspected sequence gap).

Errors are read by class, as for kafka-python: a broker code that means "not
written" is :class:`~trace.Failed` (INVALID_PRODUCER_EPOCH arrives as
``ProducerFenced``), everything else :class:`~trace.Indeterminate`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib.util
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

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
from kafka_conformance.reference.broker.produce_errors import Appended, ProduceError
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.program import ClusterStep, ProducerTrace, SendStep

__all__ = ["AiokafkaClient", "LoopThread", "SendDriver", "classify_aiokafka_error", "start_producer", "stop_producer"]

NAME = "aiokafka"
T = TypeVar("T")


def _config_map() -> ConfigMap:
    def i(key: str, kw: str, low: int = 0) -> Callable[[str], list[tuple[str, Any]]]:
        return lambda v: [(kw, as_int(NAME, key, v, low))]

    def acks(v: str) -> list[tuple[str, Any]]:
        n = as_acks(NAME, v)
        return [("acks", "all" if n == -1 else n)]

    def retries(v: str) -> list[tuple[str, Any]] | str:
        if as_int(NAME, "retries", v) == 0:
            raise ClientConfigError(f"{NAME}: retries=0 cannot be expressed (aiokafka always retries retriable errors)")
        return "aiokafka has no retry count: retriable errors are retried until the batch expires (never, when idempotent)"

    def in_flight(v: str) -> str:
        as_int(NAME, "max.in.flight.requests.per.connection", v, 1)
        return "aiokafka keeps one produce request in flight per broker"

    def delivery(v: str) -> str:
        as_int(NAME, "delivery.timeout.ms", v, 1)
        return "aiokafka has no delivery timeout: idempotent batches are retried until they succeed"

    def refuse_txn(v: str) -> list[tuple[str, Any]]:
        raise ClientConfigError(f"{NAME}: transactional.id={v!r}: transactional producers are outside this suite")

    return ConfigMap(
        NAME,
        {
            "enable.idempotence": lambda v: [("enable_idempotence", as_bool(NAME, "enable.idempotence", v))],
            "acks": acks,
            "retries": retries,
            "max.in.flight.requests.per.connection": in_flight,
            "request.timeout.ms": i("request.timeout.ms", "request_timeout_ms", 1),
            "delivery.timeout.ms": delivery,
            "linger.ms": i("linger.ms", "linger_ms"),
            "retry.backoff.ms": i("retry.backoff.ms", "retry_backoff_ms"),
            "batch.size": i("batch.size", "max_batch_size", 1),
            "transactional.id": refuse_txn,
        },
        fixed={"client_id": "kafka-conformance"},
    )


def classify_aiokafka_error(exc: BaseException) -> tuple[Appended, str]:
    """(what the exception says about the write, its description) for one failed send future."""
    name = type(exc).__name__
    text = f"{name}: {exc}" if str(exc) else name
    if name == "ProducerFenced":
        return ProduceError.INVALID_PRODUCER_EPOCH.appended, text
    errno = getattr(exc, "errno", None)
    if isinstance(errno, int) and errno != 0:
        return broker_error_outcome(errno), text
    return Appended.MAYBE, text


class AiokafkaClient:
    """Runs a trace through ``aiokafka.AIOKafkaProducer`` on a private event loop."""

    name = NAME
    notes: tuple[str, ...] = ()

    def available(self) -> str | None:
        if importlib.util.find_spec("aiokafka") is None:
            return "aiokafka is not installed (pip install 'kafka-conformance[clients]')"
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
        started = time.monotonic()
        mapped = self.check_config(trace)
        log = CompletionLog(clock)
        with LoopThread() as loop:
            producer = loop.call(start_producer(bootstrap, mapped), timeout=10)
            try:
                run_program(trace, SendDriver(producer, loop, log), log, control=control, tick=tick, deadline_s=deadline_s, started=started)
            finally:
                events = log.close()
                self.notes = tuple(log.notes)
                loop.call(stop_producer(producer), timeout=10)
        return events


async def start_producer(bootstrap: str, mapped: MappedConfig) -> Any:
    from aiokafka import AIOKafkaProducer  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from aiokafka.errors import KafkaError  # type: ignore[import-untyped,import-not-found,unused-ignore]

    try:
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap, **mapped.as_dict())
    except ValueError as exc:
        raise ClientConfigError(f"{NAME} refuses the configuration: {exc}") from exc
    try:
        await asyncio.wait_for(producer.start(), 5)
    except (KafkaError, OSError, asyncio.TimeoutError) as exc:
        await stop_producer(producer)
        raise ClientRunError(f"{NAME} could not start against {bootstrap}: {exc!r}") from exc
    return producer


async def stop_producer(producer: Any) -> None:
    """Stop without waiting forever: aiokafka's stop() waits for pending idempotent batches."""
    try:
        await asyncio.wait_for(producer.stop(), 1.0)
    except Exception:  # best effort (TimeoutError included), then force the sockets shut
        sender = getattr(producer, "_sender", None)
        task = getattr(sender, "sender_task", None) if sender is not None else None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await producer.client.close()


class LoopThread:
    """An asyncio loop on its own daemon thread; closed (tasks cancelled) on exit."""

    def __enter__(self) -> LoopThread:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="kafka-conformance-aiokafka", daemon=True)
        self.thread.start()
        return self

    def call(self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ClientRunError(f"{NAME}: the event loop did not answer within {timeout} s") from None

    def __exit__(self, *exc: object) -> None:
        async def cancel_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with contextlib.suppress(ClientRunError):
            self.call(cancel_rest(), timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()


class SendDriver:
    def __init__(self, producer: Any, loop: LoopThread, log: CompletionLog) -> None:
        self.producer = producer
        self.loop = loop
        self.log = log

    def send(self, step: SendStep, topic: str) -> None:
        self.log.send(step.value, step.partition)
        self.loop.call(self._send(step, topic), timeout=10)

    async def _send(self, step: SendStep, topic: str) -> None:
        value = step.value
        try:
            future = await asyncio.wait_for(self.producer.send(topic, value=value.encode("utf-8"), partition=step.partition), 5)
        except Exception as exc:  # refused before it was queued: definitely not written
            self.log.failed(value, f"send refused: {type(exc).__name__}: {exc}")
            return
        future.add_done_callback(lambda f: self._done(value, f))

    def _done(self, value: str, future: asyncio.Future[Any]) -> None:
        if future.cancelled():
            self.log.indeterminate(value, "cancelled")
        elif future.exception() is not None:
            self.log.errored(value, *classify_aiokafka_error(future.exception()))  # type: ignore[arg-type]
        else:
            self.log.acked(value, future.result().offset)

    def flush(self, seconds: float) -> None:
        time.sleep(seconds)  # aiokafka's flush has no timeout; the step loop waits for completions itself

    def serve(self, seconds: float) -> None:
        time.sleep(seconds)
