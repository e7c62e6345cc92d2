"""franz-go's ``kgo`` producer and IBM/sarama's ``AsyncProducer`` as producers under test.

Both run as our own Go programs (``cmd/franz-go-producer``, ``cmd/sarama-producer``)
speaking the Java runner's JSON-lines protocol, so :func:`run_program` drives them
exactly as it drives the Java client.  The trace's Java properties are mapped to
each client's own settings here (:func:`go_settings`), so a setting the client
cannot express is refused by name before anything starts, and one it satisfies by
a fixed behaviour is run with a note.  The facts below are read in the module
sources at the versions ``go.mod`` pins (franz-go v1.22.3, sarama v1.61.1):

* franz-go is idempotent unless told otherwise and then keeps up to five
  requests in flight whatever it is asked (``pkg/kgo/config.go:1263-1266``);
  it requires acks=all for idempotence and refuses the options otherwise.  It
  does not fail an in-flight idempotent record when ``RecordDeliveryTimeout``
  or ``RecordRetries`` run out unless ``AllowIdempotentProduceCancellation``
  is set (``pkg/kgo/config.go:1233-1259``): the kit leaves it unset, the
  default a Go application gets.
* sarama's idempotent producer needs ``Net.MaxOpenRequests=1``, acks=all and
  ``Retry.Max>=1`` (``config.go:823-834``); it has no delivery timeout at all, so
  Java's ``delivery.timeout.ms`` becomes a retry budget:
  ``Retry.Max = delivery.timeout.ms // (request.timeout.ms + retry.backoff.ms)``
  (at least 1, and never more than ``retries``), with a note.  Its
  ``Version`` is the trace's Kafka release (sarama does not negotiate upwards).

What a failure claims: a record the client refused before buffering it
(franz-go's ``ErrMaxBuffered``, sarama's ``ErrMessageTooLarge``) was never
sent: :class:`~trace.Failed`.  A record failed by a timeout, a retry limit, a
closed client or a transport error is :class:`~trace.Indeterminate`.  Otherwise
the Kafka code decides, from the reference table of produce errors.
"""

from __future__ import annotations

from typing import Any

import attrs

from kafka_conformance.adapters.clients.protocol import (
    ClientRunError,
    CompletionLog,
    MappedConfig,
    as_int,
    broker_error_outcome,
    java_settings,
)
from kafka_conformance.adapters.clients.runner import ProgramClient, started_runner
from kafka_conformance.adapters.clients.txn import TxnSession
from kafka_conformance.adapters.go.build import GoBuildError, GoUnavailable, cached_program, go_tool, program
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["SARAMA_RELEASE", "FranzGoClient", "GoSettings", "GoTxnClient", "SaramaClient", "classify_go_error", "go_settings"]

FRANZ_GO = "franz-go"
SARAMA = "sarama"
FRANZ_IN_FLIGHT = 5
"""franz-go's own limit for idempotent producers (``pkg/kgo/config.go:1263-1266``)."""
NOT_WRITTEN = frozenset({"kgo.ErrMaxBuffered", "sarama.ErrMessageTooLarge"})
MAYBE_WRITTEN = frozenset({
    "kgo.ErrRecordTimeout", "kgo.ErrRecordRetries", "kgo.ErrAborting", "kgo.ErrClientClosed",
    "context.Canceled", "context.DeadlineExceeded", "sarama.ErrOutOfBrokers", "sarama.ErrNotConnected",
    "sarama.ErrShuttingDown", "sarama.ErrClosedClient", "sarama.ErrProducerRetryBufferOverflow",
})

GoSettings = dict[str, Any]


def go_settings(client: str, props: dict[str, str], kafka_version: str) -> MappedConfig:
    """The settings our Go runner for ``client`` takes, from the trace's Java properties."""
    j = java_settings(client, props)
    idempotent, acks, retries, in_flight = j.idempotent, j.acks, j.retries, j.in_flight
    request_ms, delivery_ms, backoff_ms = j.request_ms, j.delivery_ms, j.backoff_ms
    out: GoSettings = {"client_id": "kafka-conformance", "idempotent": idempotent, "acks": acks,
                       "request_timeout_ms": request_ms, "linger_ms": j.linger_ms,
                       "retry_backoff_ms": backoff_ms}
    if "batch.size" in props:
        out["batch_size"] = as_int(client, "batch.size", props["batch.size"], 1)
    notes: list[str] = []
    if client == FRANZ_GO:
        out.update(retries=retries, delivery_timeout_ms=delivery_ms, max_in_flight=in_flight)
        if idempotent and in_flight != FRANZ_IN_FLIGHT:
            notes.append(f"max.in.flight.requests.per.connection={in_flight}: franz-go keeps up to {FRANZ_IN_FLIGHT} "
                         "requests in flight when idempotent, whatever it is asked (pkg/kgo/config.go:1263-1266)")
    else:
        budget = j.retry_budget
        out.update(retries=min(retries, budget), kafka_version=kafka_version,
                   max_in_flight=1 if idempotent else in_flight)
        notes.append(f"delivery.timeout.ms={delivery_ms}: sarama has no delivery timeout; Retry.Max={min(retries, budget)} "
                     "retries bound its time instead")
        if idempotent and in_flight != 1:
            notes.append(f"max.in.flight.requests.per.connection={in_flight}: sarama's idempotent producer keeps one "
                         "request in flight (Net.MaxOpenRequests=1, config.go:833-834)")
    return MappedConfig(client, tuple(out.items()), tuple(notes))


def classify_go_error(event: dict[str, Any]) -> tuple[Appended, str]:
    """(what one ``error`` line of a Go runner says about the write, its description)."""
    cls = str(event.get("class", "?"))
    text = f"{cls}: {event.get('message', '')}"
    code = event.get("code")
    if event.get("sync") is True or cls in NOT_WRITTEN:
        return Appended.NO, f"send refused: {text}"
    if cls in MAYBE_WRITTEN or not isinstance(code, int) or code == 0:
        return Appended.MAYBE, text
    return broker_error_outcome(code), text


class _GoClient(ProgramClient):

    def available(self) -> str | None:
        if cached_program(self.name) is not None:
            return None
        try:
            go_tool()
        except GoUnavailable as exc:
            return f"{exc} (then: kafka-conformance fetch {self.name})"
        return None

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        return go_settings(self.name, trace.config, trace.cluster.kafka_version)

    def command(self) -> list[str]:
        try:
            return [str(program(self.name))]
        except (GoUnavailable, GoBuildError) as exc:
            raise ClientRunError(f"{self.name} could not be prepared: {exc}") from exc

    def classify(self, event: dict[str, Any]) -> tuple[Appended, str]:
        return classify_go_error(event)


class FranzGoClient(_GoClient):
    """Runs a trace through franz-go's ``kgo.Client`` in our Go runner."""

    name = FRANZ_GO


class SaramaClient(_GoClient):
    """Runs a trace through sarama's ``AsyncProducer`` in our Go runner."""

    name = SARAMA


SARAMA_RELEASE = "2.5.0"
"""The Kafka release sarama is told it speaks to: sarama does not negotiate request versions, and
2.5 (transactions with KIP-360's epoch bump) is spoken by every release the rows run on."""


@attrs.define
class GoTxnClient:
    """franz-go's ``kgo.Client`` or sarama's ``AsyncProducer`` in the kit's Go runners
    (``adapters/go/cmd/*``), which answer the ``txn`` calls of the runner protocol."""

    name: str
    _command: list[str] | None = None

    def available(self) -> str | None:
        return (FranzGoClient() if self.name == "franz-go" else SaramaClient()).available()

    def prepare(self) -> None:
        self._command = (FranzGoClient() if self.name == "franz-go" else SaramaClient()).command()

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        if self._command is None:
            self.prepare()
        assert self._command is not None
        txn_keys = ("transactional.id", "transaction.timeout.ms", "max.block.ms")
        mapped = go_settings(self.name, {k: v for k, v in properties.items() if k not in txn_keys}, SARAMA_RELEASE)
        settings = {**mapped.as_dict(), "bootstrap": bootstrap.split(","), "transactional_id": properties["transactional.id"]}
        if "transaction.timeout.ms" in properties:
            settings["transaction_timeout_ms"] = int(properties["transaction.timeout.ms"])
        return started_runner(self.name, self._command, log, classify_go_error, settings)
