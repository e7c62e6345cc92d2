"""The producer-client protocol: run one :class:`ProducerTrace` through a real Kafka producer.

A client adapter plays the *application* half of a failure trace against a
broker it is given (the Python test broker, or a real broker behind the fault
proxy): it sends each value without waiting, lets time pass, flushes, asks the
harness to apply cluster steps, and records what the client *claims* about each
send - :class:`~trace.Acked` with the offset it reported, :class:`~trace.Failed`
(it says the record is not in the log) or :class:`~trace.Indeterminate` (it may
be).  The broker half (attempts, responses, faults) is recorded by whoever
serves the wire; the delivery checker reads both.

Why one protocol and one step loop for every client: the engines must run the
*same* program, so the only per-client code is how to send, how to wait while
callbacks are served, how to flush, how Java property names map to the client's
own, and how its errors map to "definitely not written" versus "maybe written".

Settings a client cannot express are refused with :class:`ClientConfigError`
(the CLI turns it into exit code 2) rather than silently approximated; a
setting the client satisfies by a fixed, stricter behaviour (aiokafka keeps one
request in flight whatever ``max.in.flight`` asks) is accepted with a note.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

import attrs

from kafka_conformance.reference.broker.produce_errors import Appended, ProduceError
from kafka_conformance.reference.traces.events import Acked, Event, Failed, Indeterminate, Send
from kafka_conformance.reference.traces.program import ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep

__all__ = [
    "JAVA_DEFAULTS",
    "RUNNER_PROPERTIES",
    "ClientConfigError",
    "ClientRunError",
    "CompletionLog",
    "ConfigMap",
    "JavaSettings",
    "MappedConfig",
    "ProducerClient",
    "StepDriver",
    "broker_error_outcome",
    "java_settings",
    "run_program",
]


class ClientConfigError(ValueError):
    """The trace asks for a producer setting this client cannot express; the message names both."""


class ClientRunError(RuntimeError):
    """The client could not run the trace at all (it would not start, or crashed the harness)."""


class CallTimedOut(ClientRunError):
    """A call of the application (a transactional commit, ...) gave no answer within its time: the
    client is alive but stuck, which a row may judge as the client's own failure."""


@runtime_checkable
class ProducerClient(Protocol):
    """A real producer client driven through one trace.

    ``run`` executes ``trace.steps`` in order against ``bootstrap`` and returns the
    application events (Send and its completion) stamped with ``clock()``: it calls
    ``control(step)`` for cluster steps and ``tick()`` between steps, waits at the end
    for every completion until ``deadline_s`` seconds after it started, and leaves a
    send that never completed without a completion (the checker judges liveness).
    """

    name: str
    notes: tuple[str, ...]
    """What the last run noted besides its events (fatal errors, double completions)."""

    def available(self) -> str | None:
        """None when the client can run here, else why not (package missing, ...)."""

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        """The client's own settings for ``trace.producer``; raises :class:`ClientConfigError`."""

    def run(
        self,
        trace: ProducerTrace,
        bootstrap: str,
        *,
        control: Callable[[ClusterStep], None],
        tick: Callable[[], None],
        clock: Callable[[], int],
        deadline_s: float,
    ) -> tuple[Event, ...]: ...


# ------------------------------------------------------------------ completions


class CompletionLog:
    """Thread-safe recorder of Send events and their completions, in the order they happen.

    Callbacks of real clients fire on their own threads (kafka-python's sender,
    librdkafka's poll, an asyncio loop), so every write takes the lock.  A second
    completion of one value is a client bug worth seeing, not a crash of the
    harness: it is kept aside in :attr:`double_completions`.  After :meth:`close`
    nothing more is recorded: completions after the deadline do not count."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._events: list[Event] = []
        self._done: set[str] = set()
        self._sent: list[str] = []
        self._closed = False
        self.double_completions: list[Event] = []
        self.notes: list[str] = []
        """What the client said besides completions (a fatal error, ...), for the report."""

    def send(self, value: str, partition: int) -> None:
        with self._lock:
            self._events.append(Send(value, partition, time_ms=self._clock()))
            self._sent.append(value)

    def acked(self, value: str, offset: int) -> None:
        self._complete(value, lambda t: Acked(value, offset if offset is not None and offset >= 0 else -1, t))

    def failed(self, value: str, error: str) -> None:
        self._complete(value, lambda t: Failed(value, error, t))

    def indeterminate(self, value: str, reason: str) -> None:
        self._complete(value, lambda t: Indeterminate(value, reason, t))

    def errored(self, value: str, outcome: Appended, text: str) -> None:
        """A send the client reported as an error: Failed only when it cannot have been written."""
        if outcome is Appended.NO:
            self.failed(value, text)
        else:
            self.indeterminate(value, text)

    def _complete(self, value: str, make: Callable[[int], Event]) -> None:
        with self._lock:
            if self._closed:
                return
            event = make(self._clock())
            if value in self._done:
                self.double_completions.append(event)
                return
            self._done.add(value)
            self._events.append(event)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._sent) - len(self._done)

    def note(self, text: str) -> None:
        with self._lock:
            if text not in self.notes:
                self.notes.append(text)

    def close(self) -> tuple[Event, ...]:
        with self._lock:
            self._closed = True
            if self.double_completions:
                self.notes.append(f"{len(self.double_completions)} send(s) completed twice: {self.double_completions}")
            return tuple(self._events)


# --------------------------------------------------------------- error mapping


def broker_error_outcome(code: int) -> Appended:
    """What a broker's Produce error code says about the write, from the reference table;
    an unknown code is MAYBE (a client must not claim more than it knows)."""
    try:
        return ProduceError.from_code(code).appended
    except ValueError:
        return Appended.MAYBE


# -------------------------------------------------------------- config mapping


@attrs.frozen
class MappedConfig:
    """A client's own settings for a trace's Java properties, with what could only be approximated."""

    client: str
    settings: tuple[tuple[str, Any], ...]
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return dict(self.settings)


Handler = Callable[[str], Iterable[tuple[str, Any]] | str]
"""Maps one Java property value to client settings, or returns a note (the value is honoured
by the client's fixed behaviour); raises :class:`ClientConfigError` when it cannot be expressed."""


class ConfigMap:
    """Java producer property names → one client's settings, key by key."""

    def __init__(self, client: str, handlers: Mapping[str, Handler], fixed: Mapping[str, Any] | None = None) -> None:
        self.client = client
        self.handlers = dict(handlers)
        self.fixed = dict(fixed or {})

    def map(self, properties: Mapping[str, str]) -> MappedConfig:
        out = dict(self.fixed)
        notes = []
        for key in sorted(properties):
            value = properties[key]
            handler = self.handlers.get(key)
            if handler is None:
                known = ", ".join(sorted(self.handlers))
                raise ClientConfigError(f"{self.client}: producer setting {key}={value!r} has no equivalent here (supported: {known})")
            result = handler(value)
            if isinstance(result, str):
                notes.append(f"{key}={value}: {result}")
            else:
                out.update(result)
        return MappedConfig(self.client, tuple(out.items()), tuple(notes))


JAVA_DEFAULTS = {"enable.idempotence": "true", "acks": "all", "retries": str(2**31 - 1),
                 "max.in.flight.requests.per.connection": "5", "request.timeout.ms": "30000",
                 "delivery.timeout.ms": "120000", "retry.backoff.ms": "100", "linger.ms": "5"}
"""Kafka 3.0+ defaults, for the properties a trace leaves out when a client of another language
is set up from the trace's Java properties (the Java client's rules)."""


RUNNER_PROPERTIES = ("enable.idempotence", "acks", "retries", "max.in.flight.requests.per.connection", "request.timeout.ms",
                     "delivery.timeout.ms", "linger.ms", "retry.backoff.ms", "batch.size")
"""The Java producer properties the kit's Go and Node.js runners map to their clients' own settings."""


@attrs.frozen
class JavaSettings:
    """A trace's Java producer properties read once, the Java client's defaults filling the gaps: what a
    client of another language is set up from."""

    idempotent: bool
    acks: int
    retries: int
    in_flight: int
    request_ms: int
    delivery_ms: int
    backoff_ms: int
    linger_ms: int

    @property
    def retry_budget(self) -> int:
        """Retries that fit the delivery timeout, for a client that has none (at least 1)."""
        return max(1, self.delivery_ms // max(1, self.request_ms + self.backoff_ms))


def java_settings(client: str, props: Mapping[str, str]) -> JavaSettings:
    """Read ``props`` for ``client``; :class:`ClientConfigError` names a transactional producer, a property
    outside :data:`RUNNER_PROPERTIES` or a value that is not one."""
    for key in props:
        if key == "transactional.id":
            raise ClientConfigError(f"{client}: transactional.id={props[key]!r}: transactional producers are outside this suite")
        if key not in RUNNER_PROPERTIES:
            raise ClientConfigError(f"{client}: producer setting {key}={props[key]!r} has no equivalent here "
                                    f"(supported: {', '.join(sorted(RUNNER_PROPERTIES))})")

    def java(key: str) -> str:
        return props.get(key, JAVA_DEFAULTS.get(key, ""))

    return JavaSettings(
        idempotent=as_bool(client, "enable.idempotence", java("enable.idempotence")),
        acks=as_acks(client, java("acks")),
        retries=as_int(client, "retries", java("retries")),
        in_flight=as_int(client, "max.in.flight.requests.per.connection", java("max.in.flight.requests.per.connection"), 1),
        request_ms=as_int(client, "request.timeout.ms", java("request.timeout.ms"), 1),
        delivery_ms=as_int(client, "delivery.timeout.ms", java("delivery.timeout.ms"), 1),
        backoff_ms=as_int(client, "retry.backoff.ms", java("retry.backoff.ms")),
        linger_ms=as_int(client, "linger.ms", java("linger.ms")),
    )


def as_int(client: str, key: str, value: str, low: int = 0) -> int:
    try:
        number = int(value.strip())
    except ValueError:
        raise ClientConfigError(f"{client}: {key}={value!r} is not an integer") from None
    if number < low:
        raise ClientConfigError(f"{client}: {key}={value!r} must be at least {low}")
    return number


def as_bool(client: str, key: str, value: str) -> bool:
    word = value.strip().lower()
    if word not in ("true", "false"):
        raise ClientConfigError(f"{client}: {key}={value!r} is not true or false")
    return word == "true"


def as_acks(client: str, value: str) -> int:
    text = value.strip()
    if text not in ("all", "-1", "0", "1"):
        raise ClientConfigError(f"{client}: acks={value!r} is not one of all, -1, 0, 1")
    return -1 if text == "all" else int(text)


# ------------------------------------------------------------------- step loop


class StepDriver(Protocol):
    """The per-client half of :func:`run_program`."""

    def send(self, step: SendStep, topic: str) -> None:
        """Hand one record to the client without waiting; completions go to the CompletionLog."""

    def flush(self, seconds: float) -> None:
        """Call the client's own flush for at most ``seconds`` (a timeout is not an error)."""

    def serve(self, seconds: float) -> None:
        """Let about ``seconds`` of real time pass while the client serves its callbacks."""


TICK_S = 0.02
"""How often the harness gets :func:`tick` while the program waits: the test broker's
followers replicate on ticks, so an acks=all produce completes while the client waits."""


def run_program(
    trace: ProducerTrace,
    driver: StepDriver,
    log: CompletionLog,
    *,
    control: Callable[[ClusterStep], None],
    tick: Callable[[], None],
    deadline_s: float,
    started: float | None = None,
) -> None:
    """Run the steps in order, then wait for every completion until the deadline.

    Waits and flushes are served in slices of :data:`TICK_S` with a ``tick()``
    after each, and are bounded by the deadline, so no trace can hang the harness."""
    until = (time.monotonic() if started is None else started) + deadline_s
    for step in trace.steps:
        tick()
        if isinstance(step, SendStep):
            driver.send(step, trace.cluster.topic)
        elif isinstance(step, WaitStep):
            _slices(min(until, time.monotonic() + step.ms / 1000), driver.serve, tick)
        elif isinstance(step, FlushStep):
            _slices(until, driver.flush, tick, done=lambda: log.pending == 0)
        else:
            control(step)
    tick()
    _slices(until, driver.flush, tick, done=lambda: log.pending == 0)


def _slices(until: float, serve: Callable[[float], None], tick: Callable[[], None], done: Callable[[], bool] | None = None) -> None:
    while not (done is not None and done()):
        remaining = until - time.monotonic()
        if remaining <= 0:
            return
        serve(min(TICK_S, remaining))
        tick()
