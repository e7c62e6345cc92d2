"""Real clients as transactional producers: one session per row, with the four calls of KIP-98's
producer API and sends.

A :class:`TxnClient` opens a :class:`TxnSession` on a broker address with the row's Java
producer properties; the session answers each call (``init``, ``begin``, ``commit``, ``abort``)
with a dict: ``ok``, else the error's ``class``, ``message``, ``code`` and whether it is ``fatal``
(the producer cannot go on; otherwise the transaction can be aborted).  Sends complete into the
:class:`~kafka_conformance.adapters.clients.protocol.CompletionLog` the caller gives, as in the
idempotence suite.

Why sessions, not one driver: a runner program (the Java client) answers the calls over its
JSON-lines protocol (``adapters/clients/runner.py``), while confluent-kafka, kafka-python and
aiokafka run in this process; the rows (``conformance/transactions/client_rows.py``) drive them
all the same way.  Every call is bounded: a call that does not return in its time is a
:class:`ClientRunError` (the row could not finish), never a wait.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import logging
import threading
import time
from typing import Any, Protocol

import attrs

from kafka_conformance.adapters.clients.protocol import CallTimedOut, ClientRunError, CompletionLog
from kafka_conformance.adapters.clients.runner import started_runner
from kafka_conformance.reference.traces.program import SendStep

__all__ = ["AiokafkaTxnClient", "ConfluentTxnClient", "JavaTxnClient", "KafkaPythonTxnClient", "TxnClient", "TxnSession"]


class TxnSession(Protocol):
    def txn(self, action: str, timeout_s: float) -> dict[str, Any]:
        """One transactional call and its answer; :class:`ClientRunError` when no answer comes."""

    def send(self, step: SendStep, topic: str) -> None:
        """Hand one value to the client, without waiting for it."""

    def flush(self, seconds: float) -> None:
        """Wait, for at most ``seconds``, until every value handed over has completed (acknowledged or failed)."""

    def stop(self) -> None:
        """Close the producer and everything it started, on every path."""


class TxnClient(Protocol):
    name: str

    def available(self) -> str | None:
        """None when the client can run here, else why not."""

    def prepare(self) -> None:
        """Build or fetch what the client needs (never charged to a row's time)."""

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        """A started producer with the Java ``properties`` (``transactional.id`` among them)."""


@attrs.define
class JavaTxnClient:
    """Apache Kafka's own ``KafkaProducer``, in the kit's Java runner (``adapters/jvm/ProducerRunner.java``)."""

    name: str = "java"
    _command: list[str] | None = None

    def available(self) -> str | None:
        from kafka_conformance.adapters.clients.java_client import JavaProducerClient

        return JavaProducerClient().available()

    def prepare(self) -> None:
        from kafka_conformance.adapters.clients.java_client import JavaProducerClient

        self._command = JavaProducerClient().command()

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        from kafka_conformance.adapters.clients.java_client import FIXED, classify_java_error

        if self._command is None:
            self.prepare()
        assert self._command is not None
        return started_runner(self.name, self._command, log, classify_java_error,
                              {**FIXED, **properties, "bootstrap.servers": bootstrap})


_RDKAFKA_NAMES = {"delivery.timeout.ms": "message.timeout.ms"}
"""Java names librdkafka spells another way; the others are librdkafka's own."""


class ConfluentTxnClient:
    """confluent-kafka (librdkafka) in this process: ``init_transactions``, ``begin_transaction``,
    ``commit_transaction``, ``abort_transaction``; a commit whose error is retriable is retried, as
    librdkafka's documentation asks, until it succeeds, needs an abort, or the call's time is up."""

    name = "confluent-kafka"

    def available(self) -> str | None:
        if importlib.util.find_spec("confluent_kafka") is None:
            return "confluent-kafka is not installed (pip install 'kafka-conformance[clients]')"
        return None

    def prepare(self) -> None:
        return None

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        from confluent_kafka import KafkaException, Producer

        from kafka_conformance.adapters.clients.confluent_client import librdkafka_logger

        config: dict[str, Any] = {_RDKAFKA_NAMES.get(k, k): v for k, v in properties.items()}
        config.update({"bootstrap.servers": bootstrap, "client.id": "kafka-conformance", "log_level": 3,
                       "socket.timeout.ms": config.get("request.timeout.ms", 60000),
                       "reconnect.backoff.ms": 20, "reconnect.backoff.max.ms": 200, "logger": librdkafka_logger()})
        config.pop("max.block.ms", None)  # a Java setting with no librdkafka counterpart: calls take their own timeout
        try:
            producer = Producer(config)
        except KafkaException as exc:
            raise ClientRunError(f"{self.name} could not start: {exc.args[0] if exc.args else exc}") from exc
        return _ConfluentSession(producer, log)


class _ConfluentSession:
    def __init__(self, producer: Any, log: CompletionLog) -> None:
        from kafka_conformance.adapters.clients.confluent_client import SendDriver

        self.producer = producer
        self.driver = SendDriver(producer, log)

    def send(self, step: SendStep, topic: str) -> None:
        self.driver.send(step, topic)

    def flush(self, seconds: float) -> None:
        self.producer.flush(seconds)  # serves the delivery callbacks, which complete the log

    def txn(self, action: str, timeout_s: float) -> dict[str, Any]:
        from confluent_kafka import KafkaException

        deadline = time.monotonic() + timeout_s
        while True:
            left = max(0.1, deadline - time.monotonic())
            try:
                if action == "init":
                    self.producer.init_transactions(left)
                elif action == "begin":
                    self.producer.begin_transaction()
                elif action == "commit":
                    self.producer.commit_transaction(left)
                elif action == "abort":
                    self.producer.abort_transaction(left)
                else:
                    raise ValueError(f"unknown transactional call {action!r}")
                self.producer.poll(0)
                return {"ok": True}
            except KafkaException as exc:
                err = exc.args[0]
                if action == "commit" and err.retriable() and time.monotonic() < deadline:
                    time.sleep(0.1)
                    continue
                return {"ok": False, "class": err.name(), "message": err.str(), "code": err.code(),
                        "fatal": bool(err.fatal()) or not (err.txn_requires_abort() or err.retriable())}

    def stop(self) -> None:
        self.producer.purge()
        self.producer.flush(1)
        close = getattr(self.producer, "close", None)  # confluent-kafka 2.3 has none: collection stops it
        if close is not None:
            close()  # its threads stop here, not when the object is collected


_KAFKA_PYTHON_NAMES = {"enable.idempotence": "enable_idempotence", "acks": "acks", "linger.ms": "linger_ms",
                       "request.timeout.ms": "request_timeout_ms", "delivery.timeout.ms": "delivery_timeout_ms",
                       "retry.backoff.ms": "retry_backoff_ms", "transaction.timeout.ms": "transaction_timeout_ms",
                       "max.block.ms": "max_block_ms", "transactional.id": "transactional_id"}
_FATAL_NAMES = ("ProducerFenced", "OutOfOrderSequence", "Authorization", "UnsupportedVersion", "IllegalState")
"""The errors the Java client's documentation says to close the producer on, as the Python clients name them."""


def _python_settings(properties: dict[str, str], names: dict[str, str]) -> dict[str, Any]:
    """The rows' Java properties as a Python client's keyword arguments (those it has a name for)."""
    out: dict[str, Any] = {}
    for key, value in properties.items():
        if key in names:
            out[names[key]] = (value == "true" if key == "enable.idempotence"
                               else value if key in ("acks", "transactional.id") else int(value))
    return out


def _refused(exc: BaseException) -> dict[str, Any]:
    """A Python client's exception as a call's answer."""
    name = type(exc).__name__
    return {"ok": False, "class": name, "message": str(exc), "code": getattr(exc, "errno", 0) or 0,
            "fatal": any(part in name for part in _FATAL_NAMES)}


class KafkaPythonTxnClient:
    """kafka-python (3.x) in this process: ``init_transactions``, ``begin_transaction``,
    ``commit_transaction``, ``abort_transaction`` of ``kafka.KafkaProducer``."""

    name = "kafka-python"

    def available(self) -> str | None:
        if importlib.util.find_spec("kafka") is None:
            return "kafka-python is not installed (pip install 'kafka-conformance[clients]')"
        return None

    def prepare(self) -> None:
        return None

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        from kafka_conformance.adapters.clients.kafka_python_client import import_kafka

        kafka_producer, _, kafka_error = import_kafka()
        unknown = sorted(set(properties) - set(_KAFKA_PYTHON_NAMES))
        if unknown:
            raise ClientRunError(f"{self.name}: no setting for {', '.join(unknown)}")
        config = _python_settings(properties, _KAFKA_PYTHON_NAMES)
        try:
            producer = kafka_producer(bootstrap_servers=bootstrap, client_id="kafka-conformance", reconnect_backoff_ms=20,
                                      reconnect_backoff_max_ms=200, **config)
        except kafka_error as exc:
            raise ClientRunError(f"{self.name} could not start against {bootstrap}: {exc!r}") from exc
        return _KafkaPythonSession(producer, log)


class _KafkaPythonSession:
    def __init__(self, producer: Any, log: CompletionLog) -> None:
        from kafka_conformance.adapters.clients.kafka_python_client import SendDriver

        self.producer = producer
        self.driver = SendDriver(producer, log)

    def send(self, step: SendStep, topic: str) -> None:
        self.driver.send(step, topic)

    def flush(self, seconds: float) -> None:
        with contextlib.suppress(Exception):  # kafka.errors.KafkaTimeoutError: what is still open stays open
            self.producer.flush(timeout=seconds)

    def txn(self, action: str, timeout_s: float) -> dict[str, Any]:
        """kafka-python's commit and abort wait without a limit, so each call runs on a thread of its
        own and is given up after ``timeout_s`` (:class:`CallTimedOut`: the client is stuck)."""
        calls = {"init": self.producer.init_transactions, "begin": self.producer.begin_transaction,
                 "commit": self.producer.commit_transaction, "abort": self.producer.abort_transaction}
        answer: list[dict[str, Any]] = []

        def call() -> None:
            try:
                calls[action]()
                answer.append({"ok": True})
            except Exception as exc:  # kafka.errors.*: kafka-python is imported lazily
                answer.append(_refused(exc))

        worker = threading.Thread(target=call, name=f"kafka-conformance-kafka-python-{action}", daemon=True)
        worker.start()
        worker.join(timeout_s)
        if not answer:
            raise CallTimedOut(f"kafka-python: the transaction call {action} gave no answer within {timeout_s:.0f} s")
        return answer[0]

    def stop(self) -> None:
        from kafka_conformance.adapters.clients.kafka_python_client import close_producer

        close_producer(self.producer)


_AIOKAFKA_NAMES = {"enable.idempotence": "enable_idempotence", "acks": "acks", "linger.ms": "linger_ms",
                    "request.timeout.ms": "request_timeout_ms", "retry.backoff.ms": "retry_backoff_ms",
                    "transaction.timeout.ms": "transaction_timeout_ms", "transactional.id": "transactional_id"}
"""aiokafka has no delivery timeout and no max.block.ms: those two Java settings have no counterpart."""


class AiokafkaTxnClient:
    """aiokafka on an event loop of its own thread: the producer initialises its transactional id when
    it starts; ``begin_transaction()``, ``await commit_transaction()``, ``await abort_transaction()``.
    It never gives an in-flight batch up (no delivery timeout), so a held request's path coming back
    (``adapters/brokers/fault_hold.py``, ``PATH_HEALS_AFTER_S``) is what lets its commit finish."""

    name = "aiokafka"

    def available(self) -> str | None:
        if importlib.util.find_spec("aiokafka") is None:
            return "aiokafka is not installed (pip install 'kafka-conformance[clients]')"
        return None

    def prepare(self) -> None:
        return None

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        from kafka_conformance.adapters.clients.aiokafka_client import LoopThread, SendDriver, start_producer
        from kafka_conformance.adapters.clients.protocol import MappedConfig

        settings = {"client_id": "kafka-conformance", **_python_settings(properties, _AIOKAFKA_NAMES)}
        quiet = logging.getLogger("aiokafka")
        if not quiet.hasHandlers():  # its retry warnings would reach stderr through logging's last resort
            quiet.addHandler(logging.NullHandler())
        with contextlib.ExitStack() as stack:
            loop = stack.enter_context(LoopThread())
            producer = loop.call(start_producer(bootstrap, MappedConfig(self.name, tuple(settings.items()))), timeout=15)
            return _AiokafkaSession(producer, loop, SendDriver(producer, loop, log), stack.pop_all())
        raise AssertionError("unreachable")  # the with block returns or raises


class _AiokafkaSession:
    def __init__(self, producer: Any, loop: Any, driver: Any, loop_exit: contextlib.ExitStack) -> None:
        self.producer = producer
        self.loop = loop
        self.driver = driver
        self.loop_exit = loop_exit

    def send(self, step: SendStep, topic: str) -> None:
        self.driver.send(step, topic)

    def flush(self, seconds: float) -> None:
        import asyncio

        with contextlib.suppress(asyncio.TimeoutError, TimeoutError, ClientRunError):
            self.loop.call(asyncio.wait_for(self.producer.flush(), seconds), timeout=seconds + 5)

    def txn(self, action: str, timeout_s: float) -> dict[str, Any]:
        import asyncio

        async def call() -> None:
            if action == "begin":
                begun = self.producer.begin_transaction()  # a coroutine in aiokafka 0.11+, plain before
                if inspect.isawaitable(begun):
                    await begun
            elif action == "commit":
                await self.producer.commit_transaction()
            elif action == "abort":
                await self.producer.abort_transaction()
            elif action != "init":  # start() initialised the transactional id
                raise ValueError(f"unknown transactional call {action!r}")

        try:
            self.loop.call(asyncio.wait_for(call(), timeout_s), timeout=timeout_s + 5)
        except ClientRunError:
            raise
        except (asyncio.TimeoutError, TimeoutError) as exc:
            raise CallTimedOut(f"aiokafka: the transaction call {action} gave no answer within {timeout_s:.0f} s") from exc
        except Exception as exc:  # aiokafka.errors.*
            return _refused(exc)
        return {"ok": True}

    def stop(self) -> None:
        from kafka_conformance.adapters.clients.aiokafka_client import stop_producer

        with self.loop_exit:
            self.loop.call(stop_producer(self.producer), timeout=10)
