"""Producer configuration as librdkafka resolves it (``rd_kafka_conf_finalize``,
``rd_kafka_topic_conf_finalize`` in ``src/rdkafka_conf.c``).

librdkafka never silently turns idempotence off: with ``enable.idempotence=true``
it adjusts every *unset* dependent property (in-flight capped at 5, retries to
INT32_MAX, acks to all, FIFO queuing, back-pressure threshold 1) and refuses an
*explicit* conflicting value.  A ``transactional.id`` switches idempotence on
unless it was explicitly set false (then an error).  ``enable.gapless.guarantee``
needs idempotence.  ``message.timeout.ms`` (alias ``delivery.timeout.ms``) must
exceed ``linger.ms``: an explicit linger is an error, else linger is lowered;
with a ``transactional.id`` it defaults to, and may not exceed,
``transaction.timeout.ms``.

Keys are reported under the Java names where librdkafka has them as aliases
(``acks``, ``retries``, ``linger.ms``, ``delivery.timeout.ms``,
``max.in.flight.requests.per.connection``).  Defaults by librdkafka release:
acks -1 from 1.0.0 (before 1), linger 5 ms from 1.5.0 (before 0.5), retries
INT32_MAX from 1.5.2 (before 2; ``rdkafka_conf.c`` ``message.send.max.retries`` at v1.5.0
against v1.5.2).  Idempotence arrived in 1.0.0.
"""

from __future__ import annotations

from collections.abc import Mapping

from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.producer.config_values import EffectiveConfig, Origin, ProducerConfigError, SettingsBuilder
from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["LATEST_LIBRDKAFKA", "librdkafka_config"]

LATEST_LIBRDKAFKA = KafkaVersion(2, 15, 0)
"""The newest release read; later ones are assumed to resolve producer settings alike."""
INT32_MAX = 2**31 - 1
MAX_IN_FLIGHT_IDEMPOTENT = 5  # RD_KAFKA_IDEMP_MAX_INFLIGHT

ALIASES = {
    "request.required.acks": "acks",
    "message.send.max.retries": "retries",
    "max.in.flight": "max.in.flight.requests.per.connection",
    "queue.buffering.max.ms": "linger.ms",
    "message.timeout.ms": "delivery.timeout.ms",
}
IDEMPOTENCE, ACKS, RETRIES, IN_FLIGHT = "enable.idempotence", "acks", "retries", "max.in.flight.requests.per.connection"
LINGER, TIMEOUT, TXN_ID, TXN_TIMEOUT = "linger.ms", "delivery.timeout.ms", "transactional.id", "transaction.timeout.ms"
GAPLESS, QUEUING, BACKPRESSURE = "enable.gapless.guarantee", "queuing.strategy", "queue.buffering.backpressure.threshold"
# key -> (kind, minimum, maximum); kind is bool, int, float or a tuple of allowed words
RANGES: dict[str, tuple[object, float, float]] = {
    IDEMPOTENCE: ("bool", 0, 1),
    GAPLESS: ("bool", 0, 1),
    ACKS: ("int", -1, 1000),
    RETRIES: ("int", 0, INT32_MAX),
    IN_FLIGHT: ("int", 1, 1_000_000),
    LINGER: ("float", 0, 900_000),
    TIMEOUT: ("int", 0, INT32_MAX),
    TXN_TIMEOUT: ("int", 1000, INT32_MAX),
    BACKPRESSURE: ("int", 1, 1_000_000),
    QUEUING: (("fifo", "lifo"), 0, 0),
}


def _defaults(v: KafkaVersion) -> dict[str, str]:
    return {
        IDEMPOTENCE: "false",
        GAPLESS: "false",
        ACKS: "-1" if v.at_least("1.0.0") else "1",
        RETRIES: str(INT32_MAX) if v.at_least("1.5.2") else "2",
        IN_FLIGHT: "1000000",
        LINGER: "5" if v.at_least("1.5.0") else "0.5",
        TIMEOUT: "300000",
        TXN_TIMEOUT: "60000",
        BACKPRESSURE: "1",
        QUEUING: "fifo",
    }


def _parse(key: str, raw: str) -> str:
    kind, low, high = RANGES.get(key, ("str", 0, 0))
    text = raw.strip()
    if kind == "bool":
        word = text.lower()
        if word in ("true", "t", "1"):
            return "true"
        if word in ("false", "f", "0"):
            return "false"
        raise ProducerConfigError([key], raw, "expected a boolean (true, t, 1, false, f, 0)")
    if isinstance(kind, tuple):
        if text.lower() not in kind:
            raise ProducerConfigError([key], raw, f"expected one of {', '.join(kind)}")
        return text.lower()
    if kind in ("int", "float"):
        if key == ACKS and text.lower() == "all":
            return "-1"
        try:
            number = float(text) if kind == "float" else int(text)
        except ValueError:
            raise ProducerConfigError([key], raw, f"expected a number from {low:g} to {high:g}") from None
        if not low <= number <= high:
            raise ProducerConfigError([key], raw, f"must be from {low:g} to {high:g}")
        return f"{number:g}" if kind == "float" else str(number)
    return raw


def librdkafka_config(properties: Mapping[str, str], version: str | KafkaVersion | None = None) -> EffectiveConfig:
    """Resolve ``properties`` as ``rd_kafka_new(RD_KAFKA_PRODUCER, conf)`` of ``version`` would."""
    v = LATEST_LIBRDKAFKA if version is None else KafkaVersion.parse(version)
    if v > LATEST_LIBRDKAFKA:
        raise AclValueError("librdkafka version", str(v), f"newer than the newest librdkafka modelled ({LATEST_LIBRDKAFKA})")
    b = SettingsBuilder()
    for key, value in _defaults(v).items():
        b.set(key, value, Origin.DEFAULT)
    seen: dict[str, str] = {}
    for name, raw in properties.items():
        key = ALIASES.get(name, name)
        if key in seen and seen[key] != name:
            raise ProducerConfigError([seen[key], name], raw, "the same property set twice under two names")
        seen[key] = name
        note = f"set as {name}" if name != key else ""
        b.set(key, _parse(key, raw), Origin.USER, note)
    if b.explicit(IDEMPOTENCE) and b.value(IDEMPOTENCE) == "true" and not v.at_least("1.0.0"):
        raise ProducerConfigError([IDEMPOTENCE], "true", "the idempotent producer arrived in librdkafka 1.0.0")
    _finalize(b)
    return b.build("librdkafka", v)


def _finalize(b: SettingsBuilder) -> None:
    """The checks in ``rd_kafka_conf_finalize`` order, then ``rd_kafka_topic_conf_finalize``'s."""
    transactional = b.explicit(TXN_ID)
    if transactional and b.value(IDEMPOTENCE) != "true":
        if b.explicit(IDEMPOTENCE):
            raise ProducerConfigError([TXN_ID, IDEMPOTENCE], b.value(TXN_ID), "transactional.id requires enable.idempotence=true")
        b.adjust(IDEMPOTENCE, "true", "implied by transactional.id")
    idempotent = b.value(IDEMPOTENCE) == "true"
    if idempotent:
        in_flight = int(b.value(IN_FLIGHT))
        if b.explicit(IN_FLIGHT) and in_flight > MAX_IN_FLIGHT_IDEMPOTENT:
            raise _conflict(IN_FLIGHT, in_flight, "must be set <= 5")
        b.adjust(IN_FLIGHT, str(min(in_flight, MAX_IN_FLIGHT_IDEMPOTENT)), "capped for the idempotent producer")
        if b.explicit(RETRIES) and int(b.value(RETRIES)) < 1:
            raise _conflict(RETRIES, b.value(RETRIES), "must be set >= 1")
        if not b.explicit(RETRIES):
            b.adjust(RETRIES, str(INT32_MAX), "set for the idempotent producer")
        if b.explicit(BACKPRESSURE) and int(b.value(BACKPRESSURE)) > 1:
            raise _conflict(BACKPRESSURE, b.value(BACKPRESSURE), "must be set to 1")
        b.adjust(BACKPRESSURE, "1", "set for the idempotent producer")
    elif b.explicit(GAPLESS) and b.value(GAPLESS) == "true":
        raise ProducerConfigError([GAPLESS, IDEMPOTENCE], "true", "enable.gapless.guarantee requires enable.idempotence to be enabled")
    _check_linger(b, adjust=True)
    # topic configuration
    if idempotent:
        if b.explicit(ACKS) and b.value(ACKS) != "-1":
            raise _conflict(ACKS, b.value(ACKS), "must be set to all")
        b.adjust(ACKS, "-1", "set to all for the idempotent producer")
        if b.explicit(QUEUING) and b.value(QUEUING) != "fifo":
            raise _conflict(QUEUING, b.value(QUEUING), "must be set to fifo")
        if transactional:
            txn_timeout = b.value(TXN_TIMEOUT)
            if not b.explicit(TIMEOUT):
                b.adjust(TIMEOUT, txn_timeout, "set to transaction.timeout.ms")
            elif int(b.value(TIMEOUT)) > int(txn_timeout):
                raise ProducerConfigError([TIMEOUT, TXN_TIMEOUT], b.value(TIMEOUT), "must be set <= transaction.timeout.ms")
    _check_linger(b, adjust=False)


def _conflict(key: str, value: object, reason: str) -> ProducerConfigError:
    return ProducerConfigError([key, IDEMPOTENCE], value, f"{reason} when enable.idempotence is true")


def _check_linger(b: SettingsBuilder, *, adjust: bool) -> None:
    """message.timeout.ms (0 = infinite) must exceed linger.ms: an explicit linger is an error;
    otherwise (first pass only) linger is lowered just below the timeout."""
    timeout = int(b.value(TIMEOUT))
    if timeout == 0 or timeout > float(b.value(LINGER)):
        return
    if b.explicit(LINGER):
        raise ProducerConfigError([TIMEOUT, LINGER], timeout, "message.timeout.ms must be greater than linger.ms")
    if adjust:
        b.adjust(LINGER, f"{timeout - 0.1:g}", "lowered below message.timeout.ms")
