"""Run each real producer against a test cluster and record what the application saw.

Deliberately plain client code (not the kit's client adapters): these tests
check the *broker*, so the client side is the smallest program that sends
unique values with idempotence on and records every completion as a trace
event on the cluster's clock.  Every failure is recorded as Indeterminate
(the checker never blames a broker for one) and also returned, so a test can
insist there were none.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence

from kafka_conformance.adapters.brokers.testbroker import TestCluster
from kafka_conformance.reference.delivery.checker import DeliveryConfig, check_delivery
from kafka_conformance.reference.delivery.verdicts import DeliveryReport, Outcome
from kafka_conformance.reference.traces.events import Acked, Event, Indeterminate, Send

CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka")
FLUSH_S = 30


class Run:
    """Sends and completions of one client run, in the order they happened."""

    def __init__(self, cluster: TestCluster) -> None:
        self.cluster = cluster
        self.sends: list[Event] = []
        self.completions: list[Event] = []
        self.failures: list[str] = []
        self._lock = threading.Lock()

    def sent(self, value: str, partition: int) -> None:
        self.sends.append(Send(value, partition, time_ms=self.cluster.clock()))

    def acked(self, value: str, offset: int) -> None:
        with self._lock:
            self.completions.append(Acked(value, offset, self.cluster.clock()))

    def failed(self, value: str, why: str) -> None:
        with self._lock:
            self.failures.append(f"{value}: {why}")
            self.completions.append(Indeterminate(value, why, self.cluster.clock()))

    def trace(self) -> list[Event]:
        return [*self.sends, *self.cluster.events(), *self.completions]

    def report(self, config: DeliveryConfig | None = None) -> DeliveryReport:
        return check_delivery(self.trace(), self.cluster.final_log(), config, log_start_offsets=self.cluster.log_start())


def violated(report: DeliveryReport) -> list[str]:
    return [v.describe() for v in report.verdicts if v.outcome is Outcome.VIOLATED]


Pause = Callable[[], None]


@contextlib.contextmanager
def quiet_imports() -> Iterator[None]:
    """kafka-python warns about its own importlib use at import; not ours to fail on."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def produce(
    client: str,
    cluster: TestCluster,
    sends: Sequence[tuple[str, int]],
    *,
    request_timeout_ms: int = 5000,
    pause_at: int | None = None,
    on_pause: Pause | None = None,
    flush_every: int | None = None,
) -> Run:
    """Send ``(value, partition)`` pairs with ``client``; at index ``pause_at`` wait for every
    earlier send to complete, call ``on_pause`` (a cluster fault), then carry on.  With
    ``flush_every`` the application also waits after every that many sends (so requests
    stay small and a fault plan's request numbers are reached)."""
    run = Run(cluster)
    runner = {"kafka-python": _kafka_python, "aiokafka": _aiokafka, "confluent-kafka": _confluent}[client]
    pauses = {pause_at: on_pause or (lambda: None)} if pause_at is not None else {}
    if flush_every:
        for index in range(flush_every, len(sends), flush_every):
            pauses.setdefault(index, lambda: None)
    runner(run, sends, request_timeout_ms, pauses)
    return run


def _kafka_python(run: Run, sends: Sequence[tuple[str, int]], timeout_ms: int, pauses: dict[int, Pause]) -> None:
    with quiet_imports():
        from kafka import KafkaProducer

    producer = KafkaProducer(
        bootstrap_servers=run.cluster.bootstrap,
        enable_idempotence=True,
        acks="all",
        request_timeout_ms=timeout_ms,
        delivery_timeout_ms=max(30_000, timeout_ms * 4),
        retry_backoff_ms=50,
        linger_ms=0,
        max_in_flight_requests_per_connection=5,
    )
    try:
        for index, (value, partition) in enumerate(sends):
            if index in pauses:
                producer.flush(FLUSH_S)
                pauses[index]()
            run.sent(value, partition)
            future = producer.send(run.cluster.model.spec.topic, value=value.encode(), partition=partition)
            future.add_callback(lambda md, v=value: run.acked(v, md.offset))
            future.add_errback(lambda exc, v=value: run.failed(v, repr(exc)))
        producer.flush(FLUSH_S)
    finally:
        producer.close(FLUSH_S)


def _aiokafka(run: Run, sends: Sequence[tuple[str, int]], timeout_ms: int, pauses: dict[int, Pause]) -> None:
    with quiet_imports():
        from aiokafka import AIOKafkaProducer

    async def main() -> None:
        producer = AIOKafkaProducer(
            bootstrap_servers=run.cluster.bootstrap, enable_idempotence=True, request_timeout_ms=timeout_ms, retry_backoff_ms=50
        )
        await producer.start()
        futures: list[asyncio.Future[object]] = []
        try:
            for index, (value, partition) in enumerate(sends):
                if index in pauses:
                    await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), FLUSH_S)
                    pauses[index]()
                run.sent(value, partition)
                future = await producer.send(run.cluster.model.spec.topic, value=value.encode(), partition=partition)
                future.add_done_callback(lambda f, v=value: _aio_done(run, v, f))
                futures.append(future)
            await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), FLUSH_S)
        finally:
            await producer.stop()

    asyncio.run(main())


def _aio_done(run: Run, value: str, future: asyncio.Future[object]) -> None:
    if future.cancelled():
        run.failed(value, "cancelled")
    elif future.exception() is not None:
        run.failed(value, repr(future.exception()))
    else:
        run.acked(value, future.result().offset)  # type: ignore[attr-defined]


def _confluent(run: Run, sends: Sequence[tuple[str, int]], timeout_ms: int, pauses: dict[int, Pause]) -> None:
    from confluent_kafka import Producer

    producer = Producer(
        {
            "bootstrap.servers": run.cluster.bootstrap,
            "enable.idempotence": True,
            "request.timeout.ms": timeout_ms,
            "socket.timeout.ms": timeout_ms,
            "message.timeout.ms": max(30_000, timeout_ms * 4),
            "retry.backoff.ms": 50,
            "linger.ms": 1,
            "log_level": 0,
        }
    )

    def report(err: object, msg: object, value: str) -> None:
        if err is None:
            run.acked(value, msg.offset())  # type: ignore[attr-defined]
        else:
            run.failed(value, str(err))

    try:
        for index, (value, partition) in enumerate(sends):
            if index in pauses:
                producer.flush(FLUSH_S)
                pauses[index]()
            run.sent(value, partition)
            producer.produce(
                run.cluster.model.spec.topic, value=value.encode(), partition=partition, on_delivery=lambda e, m, v=value: report(e, m, v)
            )
            producer.poll(0)
        left = producer.flush(FLUSH_S)
        if left:
            run.failures.append(f"{left} messages still queued after {FLUSH_S} s")
    finally:
        del producer
