"""Client specs for ``check producer --client``: the real producers, and the in-process model.

Each real client is an adapter module of its own (``adapters/producer_*.py``),
imported only when named, so a missing optional package costs nothing until it
is asked for - and then it is a usage error naming the extra to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import attrs

from kafka_conformance.adapters.clients.protocol import ProducerClient
from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.reference.delivery.run import DeliveryConfig
from kafka_conformance.reference.producer.config import ProducerConfigError, java_config
from kafka_conformance.reference.producer.config_values import EffectiveConfig
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["CLIENTS", "MODEL", "REAL_CLIENTS", "delivery_config_for", "resolve_client"]

MODEL = "model"
_ADAPTERS: dict[str, tuple[str, str]] = {
    "kafka-python": ("kafka_conformance.adapters.clients.kafka_python_client", "KafkaPythonClient"),
    "aiokafka": ("kafka_conformance.adapters.clients.aiokafka_client", "AiokafkaClient"),
    "confluent-kafka": ("kafka_conformance.adapters.clients.confluent_client", "ConfluentKafkaClient"),
    "java": ("kafka_conformance.adapters.clients.java_client", "JavaProducerClient"),
    "franz-go": ("kafka_conformance.adapters.go.producers", "FranzGoClient"),
    "sarama": ("kafka_conformance.adapters.go.producers", "SaramaClient"),
    "kafkajs": ("kafka_conformance.adapters.node.producers", "KafkaJSClient"),
    "platformatic": ("kafka_conformance.adapters.node.producers", "PlatformaticClient"),
}
_OWN_FIX = ("java", "franz-go", "sarama", "kafkajs", "platformatic")
"""Clients whose unavailability reason names its own fix (a JDK, a Go toolchain, Node.js), not a Python extra."""
REAL_CLIENTS = tuple(_ADAPTERS)
CLIENTS = (*REAL_CLIENTS, MODEL)
EXTRA = "kafka-conformance[clients]"


def resolve_client(spec: str) -> ProducerClient:
    """The adapter for ``spec`` (a real client, not the model); a :class:`TargetError` when it is
    not a client (the one grammar) or cannot run here."""
    name = parse_target(spec, Role.CLIENT).kind
    if name not in _ADAPTERS:
        raise TargetError(f"{name} is no real client: it needs no adapter", Problem.WRONG_ROLE, Role.CLIENT)
    module_name, class_name = _ADAPTERS[name]
    client: ProducerClient = getattr(importlib.import_module(module_name), class_name)()
    reason = client.available()
    if reason is not None:
        fix = "" if spec in _OWN_FIX else f"; install the extra {EXTRA}"
        raise TargetError(f"client {spec} cannot run here: {reason}{fix}", Problem.UNAVAILABLE, Role.CLIENT)
    return client


def delivery_config_for(
    client: str, trace: ProducerTrace, *, kafka_version: str = DEFAULT_RELEASE, liveness_slack_ms: int = 4000
) -> DeliveryConfig:
    """What ``client`` promises under ``trace.producer`` and the trace's topic (KIP-185).

    kafka-python follows the Java client's rules, confluent-kafka librdkafka's; aiokafka
    forces acks=all when idempotent and keeps one request in flight.  A configuration
    the reference refuses is judged by its raw values (the client's own refusal, if any,
    happens when the run starts)."""
    props = trace.config
    cluster = trace.cluster
    topic = _Topic(cluster.replication_factor, cluster.min_insync_replicas)
    resolvers: dict[str, Callable[[], DeliveryConfig]] = {
        "confluent-kafka": lambda: _from_librdkafka(props, topic),
        "aiokafka": lambda: _aiokafka(props, topic),
        "franz-go": lambda: _go(client, trace, topic),
        "sarama": lambda: _go(client, trace, topic),
        "kafkajs": lambda: _node(client, trace, topic),
        "platformatic": lambda: _node(client, trace, topic),
    }
    try:
        cfg = resolvers.get(client, lambda: topic.resolved(java_config(props, kafka_version)))()
    except ProducerConfigError:
        cfg = _raw(props, topic)
    return _with_slack(cfg, liveness_slack_ms)


@attrs.frozen
class _Topic:
    replication_factor: int
    min_insync_replicas: int

    def resolved(self, effective: EffectiveConfig) -> DeliveryConfig:
        return DeliveryConfig.from_effective(
            effective, replication_factor=self.replication_factor, min_insync_replicas=self.min_insync_replicas
        )


def _from_librdkafka(props: dict[str, str], topic: _Topic) -> DeliveryConfig:
    from kafka_conformance.reference.producer.librdkafka import librdkafka_config

    return topic.resolved(librdkafka_config(props))


def _aiokafka(props: dict[str, str], topic: _Topic) -> DeliveryConfig:
    idempotent = props.get("enable.idempotence", "false").strip().lower() == "true"
    acks = -1 if idempotent else _acks(props.get("acks", "1"))
    timeout = _int(props.get("delivery.timeout.ms"), 120_000)
    return DeliveryConfig(idempotent, acks, 2**31 - 1, 1, topic.replication_factor, topic.min_insync_replicas, delivery_timeout_ms=timeout)


def _go(client: str, trace: ProducerTrace, topic: _Topic) -> DeliveryConfig:
    """What the Go client is actually set to (``adapters/go/producers.py`` maps the Java
    properties: franz-go keeps five requests in flight when idempotent, sarama one, and
    sarama's retry budget stands in for the delivery timeout it does not have)."""
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.adapters.go.producers import go_settings

    try:
        s = go_settings(client, trace.config, trace.cluster.kafka_version).as_dict()
    except ClientConfigError:
        return _raw(trace.config, topic)
    return DeliveryConfig(s["idempotent"], s["acks"], s["retries"], s["max_in_flight"], topic.replication_factor,
                          topic.min_insync_replicas, delivery_timeout_ms=_int(trace.config.get("delivery.timeout.ms"), 120_000))


def _node(client: str, trace: ProducerTrace, topic: _Topic) -> DeliveryConfig:
    """What the Node.js client is actually set to (``adapters/node/producers.py`` maps the Java
    properties: KafkaJS keeps one idempotent request in flight per broker, @platformatic/kafka
    forces acks=all, one request in flight and unlimited retries when idempotent, and each
    client's retry budget stands in for the delivery timeout neither has)."""
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.adapters.node.producers import node_settings

    try:
        s = node_settings(client, trace.config).as_dict()
    except ClientConfigError:
        return _raw(trace.config, topic)
    in_flight = 1 if s["idempotent"] else s["max_in_flight"]
    return DeliveryConfig(s["idempotent"], s["acks"], s["retries"], in_flight, topic.replication_factor,
                          topic.min_insync_replicas, delivery_timeout_ms=_int(trace.config.get("delivery.timeout.ms"), 120_000))


def _raw(props: dict[str, str], topic: _Topic) -> DeliveryConfig:
    return DeliveryConfig(
        props.get("enable.idempotence", "true").strip().lower() == "true",
        _acks(props.get("acks", "all")),
        _int(props.get("retries"), 2**31 - 1),
        _int(props.get("max.in.flight.requests.per.connection"), 5),
        topic.replication_factor,
        topic.min_insync_replicas,
        delivery_timeout_ms=_int(props.get("delivery.timeout.ms"), 120_000),
    )


def _acks(text: str) -> int:
    return -1 if text.strip() in ("all", "-1") else _int(text, 1)


def _int(text: str | None, default: int) -> int:
    try:
        return int(str(text).strip()) if text is not None else default
    except ValueError:
        return default


def _with_slack(cfg: DeliveryConfig, slack_ms: int) -> DeliveryConfig:
    return attrs.evolve(cfg, liveness_slack_ms=slack_ms)
