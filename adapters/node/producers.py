"""KafkaJS and @platformatic/kafka, the two pure-JavaScript producers, as producers under test.

Both run as our own Node.js programs (``kafkajs-producer.mjs``,
``platformatic-producer.mjs``) speaking the Java runner's JSON-lines protocol,
so they are driven exactly as the Java and Go clients are.  Each record is one
``producer.send()`` call not awaited, as a Node.js application hands records
over.  The trace's Java properties are mapped to each client's own options here
(:func:`node_settings`): a setting the client refuses is refused by name before
anything starts, and one it satisfies by a fixed behaviour runs with a note.
The facts below are read in the packages at the versions ``package.json`` pins
(kafkajs 2.2.4, @platformatic/kafka 2.12.1; paths are inside each package):

* Neither client has a delivery timeout: a send's time is bounded by its retry
  count.  As for sarama, Java's ``delivery.timeout.ms`` becomes a retry budget,
  ``retries = min(retries, delivery.timeout.ms // (request.timeout.ms + retry.backoff.ms))``
  (at least 1), with a note; the backoff is constant and without jitter
  (KafkaJS ``multiplier: 1, factor: 0``; @platformatic/kafka's ``retryDelay`` is
  constant), so a trace waits the same way on every run.
* KafkaJS refuses an idempotent producer with ``retries < 1``
  (``src/producer/index.js:45-49``) and an idempotent send without ``acks=-1``
  (``src/producer/messageProducer.js:59-63``); both are refused here by name.
  It assigns a partition's sequence when it builds a Produce request, under a
  lock per broker that keeps one idempotent Produce in flight per broker
  whatever ``maxInFlightRequests`` says (``src/producer/sendMessages.js:84-89``,
  ``src/producer/eosManager/index.js:350-360``), and gives the sequence back when
  the request fails (``sendMessages.js:105-111``).  It has no linger and no
  batching across ``send()`` calls: each call is a request of its own.
* @platformatic/kafka, when idempotent, forces one request in flight,
  ``acks=-1`` and, for ``retries <= 1``, unlimited retries
  (``dist/clients/producer/producer.js:36-42``), silently: the mapping notes each
  override and promises what the client does.  Its ``timeout`` (default 5 s,
  ``dist/clients/base/options.js:78-86``) is the request timeout and the
  Produce request's timeout, and, for a transactional producer, the transaction
  timeout it sends with InitProducerId (``producer.js:550``); it has no option of
  its own for that, so ``transaction.timeout.ms`` becomes ``timeout`` there.
  No linger either.

What a failure claims: neither client refuses a send synchronously (each returns a promise, and its
refusals before sending, such as KafkaJS's acks check, arrive as rejections without a broker code),
so only @platformatic/kafka's ``PLT_KFK_USER`` (its refusal of a send) is :class:`~trace.Failed` by
kind; the configurations either refuses are refused here first.  An error carrying a broker's code (KafkaJS's
``KafkaJSProtocolError.code``, @platformatic/kafka's ``ProtocolError.apiCode``,
found through the wrappers each puts around it, the last attempt's) is judged by the
reference table of produce errors; timeouts, network errors and anything else are
:class:`~trace.Indeterminate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from kafka_conformance.adapters.clients.protocol import (
    ClientConfigError,
    ClientRunError,
    CompletionLog,
    MappedConfig,
    broker_error_outcome,
    java_settings,
)
from kafka_conformance.adapters.clients.runner import ProgramClient, started_runner
from kafka_conformance.adapters.clients.txn import TxnSession
from kafka_conformance.adapters.node.install import NodeInstallError, NodeUnavailable, installed_runner, node_major, node_tool, runner
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["KafkaJSClient", "NodeTxnClient", "PlatformaticClient", "classify_node_error", "node_settings"]

KAFKAJS = "kafkajs"
PLATFORMATIC = "platformatic"
UNLIMITED = 2**53 - 1
"""``Number.MAX_SAFE_INTEGER``: what both clients mean by retrying for ever."""
NOT_WRITTEN = frozenset({"PLT_KFK_USER"})
"""Error kinds raised before a record was handed to the network (@platformatic/kafka's validation)."""


def node_settings(client: str, props: Mapping[str, str]) -> MappedConfig:
    """The options our Node.js runner for ``client`` takes, from the trace's Java properties."""
    j = java_settings(client, props)
    idempotent, acks, retries, in_flight = j.idempotent, j.acks, j.retries, j.in_flight
    request_ms, delivery_ms, backoff_ms, linger_ms = j.request_ms, j.delivery_ms, j.backoff_ms, j.linger_ms
    budget = j.retry_budget
    notes = [f"delivery.timeout.ms={delivery_ms}: {client} has no delivery timeout; retries={min(retries, budget)} "
             "(the retry budget) bounds a send's time instead"]
    if linger_ms > 0 or "batch.size" in props:
        notes.append(f"linger.ms={linger_ms}: {client} has no linger and sends each send() call as a request of its own")
    out: dict[str, Any] = {"client_id": "kafka-conformance", "idempotent": idempotent, "acks": acks,
                           "request_timeout_ms": request_ms, "retry_backoff_ms": backoff_ms,
                           "retries": min(retries, budget), "max_in_flight": in_flight}
    if client == KAFKAJS:
        if idempotent and acks != -1:
            raise ClientConfigError(f"{client}: acks={acks} with enable.idempotence=true: KafkaJS refuses an idempotent send "
                                    "without acks=-1 (src/producer/messageProducer.js:59-63)")
        if idempotent and out["retries"] < 1:
            raise ClientConfigError(f"{client}: retries=0 with enable.idempotence=true: KafkaJS refuses an idempotent "
                                    "producer without retries (src/producer/index.js:45-49)")
        out["max_retry_ms"] = backoff_ms
        if idempotent and in_flight != 1:
            notes.append(f"max.in.flight.requests.per.connection={in_flight}: KafkaJS keeps one idempotent Produce in flight "
                         "per broker (a lock per broker, src/producer/eosManager/index.js:350-360)")
    else:
        if idempotent:
            if acks != -1:
                notes.append(f"acks={acks}: @platformatic/kafka's idempotent producer uses acks=-1 whatever it is asked "
                             "(dist/clients/producer/producer.js:36-42)")
                out["acks"] = -1
            if in_flight != 1:
                notes.append(f"max.in.flight.requests.per.connection={in_flight}: @platformatic/kafka's idempotent producer "
                             "keeps one request in flight (dist/clients/producer/producer.js:36-42)")
                out["max_in_flight"] = 1
            if out["retries"] <= 1:
                notes.append(f"retries={out['retries']}: @platformatic/kafka's idempotent producer retries for ever when "
                             "asked for one retry or none (dist/clients/producer/producer.js:36-42)")
                out["retries"] = UNLIMITED
    return MappedConfig(client, tuple(out.items()), tuple(notes))


def classify_node_error(event: dict[str, Any]) -> tuple[Appended, str]:
    """(what one ``error`` line of a Node.js runner says about the write, its description)."""
    cls = str(event.get("class", "?"))
    text = str(event.get("message", "")) or cls
    code = event.get("code")
    if event.get("sync") is True or cls in NOT_WRITTEN:
        return Appended.NO, f"send refused: {text}"
    if not isinstance(code, int) or isinstance(code, bool) or code == 0:
        return Appended.MAYBE, text
    return broker_error_outcome(code), text


class _NodeClient(ProgramClient):
    def available(self) -> str | None:
        try:
            node_major(node_tool("node"))
            if installed_runner(self.name) is None:
                node_tool("npm")
        except NodeUnavailable as exc:
            return f"{exc} (then: kafka-conformance fetch {self.name})"
        return None

    def check_config(self, trace: ProducerTrace) -> MappedConfig:
        return node_settings(self.name, trace.config)

    def command(self) -> list[str]:
        try:
            script = runner(self.name)
            return [node_tool("node"), "--no-warnings", str(script)]
        except (NodeUnavailable, NodeInstallError) as exc:
            raise ClientRunError(f"{self.name} could not be prepared: {exc}") from exc

    def classify(self, event: dict[str, Any]) -> tuple[Appended, str]:
        return classify_node_error(event)


class KafkaJSClient(_NodeClient):
    """Runs a trace through KafkaJS's producer in our Node.js runner."""

    name = KAFKAJS


class PlatformaticClient(_NodeClient):
    """Runs a trace through @platformatic/kafka's ``Producer`` in our Node.js runner."""

    name = PLATFORMATIC


@attrs.define
class NodeTxnClient:
    """KafkaJS or @platformatic/kafka in the kit's Node.js runner, which answers the ``txn`` calls of the
    runner protocol (KafkaJS's ``producer.transaction()``, @platformatic/kafka's
    ``producer.beginTransaction()``, then the transaction's ``commit()`` or ``abort()``)."""

    name: str = KAFKAJS
    _command: list[str] | None = None

    def _trace_client(self) -> _NodeClient:
        return KafkaJSClient() if self.name == KAFKAJS else PlatformaticClient()

    def available(self) -> str | None:
        return self._trace_client().available()

    def prepare(self) -> None:
        self._command = self._trace_client().command()

    def open(self, properties: dict[str, str], bootstrap: str, log: CompletionLog) -> TxnSession:
        if self._command is None:
            self.prepare()
        assert self._command is not None
        txn_keys = ("transactional.id", "transaction.timeout.ms", "max.block.ms")
        mapped = node_settings(self.name, {k: v for k, v in properties.items() if k not in txn_keys})
        # Both keep one idempotent request in flight whatever they are told; a transactional producer
        # is told so, as KafkaJS's documentation asks of one.
        settings = {**mapped.as_dict(), "max_in_flight": 1, "bootstrap": bootstrap.split(","),
                    "transactional_id": properties["transactional.id"],
                    "transaction_timeout_ms": int(properties.get("transaction.timeout.ms", "60000"))}
        return started_runner(self.name, self._command, log, classify_node_error, settings)
