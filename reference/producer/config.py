"""Producer configuration as the Java client (and kafka-console-producer) resolves it, by release.

Read against ``ProducerConfig.postProcessAndValidateIdempotenceConfigs`` and
``KafkaProducer.configure*`` at each tag.  Three eras of idempotence handling:

* **legacy** (0.11 to 3.0.0, and 3.1.0): idempotence is on only when
  ``enable.idempotence=true`` is set explicitly or a ``transactional.id`` is set.
  In 3.0.0 and 3.1.0 the default became ``true`` (KIP-679) but was ignored unless
  set explicitly: that is KAFKA-13598.  When on: unset ``acks`` becomes all and
  unset ``retries`` becomes Int.MAX; an explicit conflicting value is a
  ConfigException; in-flight must be <= 5 (exactly 1 in 0.11).
* **modern** (3.0.1, 3.1.1, 3.2.0 onwards; KAFKA-13598 + KAFKA-13673): the
  default ``true`` counts; a conflicting ``retries=0``, ``acks`` other than all
  or in-flight > 5 is a ConfigException if ``enable.idempotence`` was set
  explicitly, and otherwise silently turns idempotence off.
* **4.0+** (KAFKA-17927): in-flight > 5 with idempotence on is always an error.

A ``transactional.id`` with idempotence off is a ConfigException (after the
silent disable, in the modern era).  ``delivery.timeout.ms`` (2.1+, KIP-91) must
be >= ``linger.ms + request.timeout.ms``: an explicit smaller value is an error,
the default is raised to the sum.

The console producer sets ``acks`` (``1`` until 3.0.1/3.1.1/3.2.0, then ``-1``),
``retries=3``, ``linger.ms=1000`` and ``request.timeout.ms=1500`` from its own
option defaults; from 2.2.0 (KAFKA-6627) a ``--producer-property`` wins over them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from kafka_conformance.reference.producer.config_values import (
    EffectiveConfig,
    IdempotenceRequest,
    Origin,
    ProducerConfigError,
    SettingsBuilder,
    render_effective_config,
)
from kafka_conformance.reference.producer.librdkafka import librdkafka_config
from kafka_conformance.reference.releases import DEFAULT_VERSION, KafkaVersion

__all__ = [
    "CLIENTS",
    "EffectiveConfig",
    "IdempotenceProfile",
    "IdempotenceRequest",
    "ProducerConfigError",
    "explain_config",
    "java_config",
    "render_effective_config",
]

CLIENTS = ("java", "console", "librdkafka")
INT_MAX = 2**31 - 1
OLDEST_JAVA = KafkaVersion(0, 11, 0)
IDEMPOTENCE, ACKS, RETRIES = "enable.idempotence", "acks", "retries"
IN_FLIGHT, TXN_ID = "max.in.flight.requests.per.connection", "transactional.id"
DELIVERY, LINGER, REQUEST_TIMEOUT = "delivery.timeout.ms", "linger.ms", "request.timeout.ms"


class IdempotenceProfile(enum.Enum):
    SHIPPED = "shipped"
    """What the Java client really does (the default)."""
    TRISTATE = "tristate"
    """The never-shipped proposal: ``enable.idempotence`` is off / required / requested (alias safe);
    true means required, false off; unset means requested from 3.0 (idempotence by default), else off.
    Resolved with the modern rules in every release: required behaves as an explicit true
    (conflicts are errors), requested as the implicit default (conflicts switch it off, so
    before 3.0 the default acks=1 switches it off unless acks=all is set)."""


def _since(version: KafkaVersion, *firsts: str) -> bool:
    """A change shipped as each of ``firsts`` on its own minor line, and from the last onwards."""
    for first in map(KafkaVersion.parse, firsts):
        if (version.major, version.minor) == (first.major, first.minor):
            return version >= first
    return version >= KafkaVersion.parse(firsts[-1])


def _defaults(v: KafkaVersion) -> dict[str, str]:
    defaults = {
        IDEMPOTENCE: "true" if v.at_least("3.0.0") else "false",  # KIP-679
        ACKS: "-1" if v.at_least("3.0.0") else "1",  # KIP-679
        RETRIES: str(INT_MAX) if v.at_least("2.1.0") else "0",  # KIP-91
        IN_FLIGHT: "5",
        LINGER: "5" if v.at_least("4.0.0") else "0",  # KIP-1030 (KAFKA-16368)
        REQUEST_TIMEOUT: "30000",
    }
    if v.at_least("2.1.0"):
        defaults[DELIVERY] = "120000"  # KIP-91
    return defaults


def _console_values(v: KafkaVersion) -> dict[str, str]:
    acks = "-1" if _since(v, "3.0.1", "3.1.1", "3.2.0") else "1"  # changed with KAFKA-13598
    return {ACKS: acks, RETRIES: "3", LINGER: "1000", REQUEST_TIMEOUT: "1500"}


def _parse(key: str, raw: str) -> str:
    """ConfigDef parsing and validators of the keys modelled; the normalised value."""
    text = raw.strip()
    shown = repr(raw if len(raw) <= 40 else raw[:30] + "...")
    if key == IDEMPOTENCE:
        if text.lower() not in ("true", "false"):
            raise ProducerConfigError([key], raw, f"expected true or false, got {shown}")
        return text.lower()
    if key == ACKS:
        if text not in ("all", "-1", "0", "1"):
            raise ProducerConfigError([key], raw, f"must be one of all, -1, 0, 1, got {shown}")
        return "-1" if text == "all" else text
    if key in (RETRIES, IN_FLIGHT, DELIVERY, LINGER, REQUEST_TIMEOUT):
        kind, high = ("LONG", 2**63 - 1) if key == LINGER else ("INT", INT_MAX)
        try:
            number = int(text) if len(text) <= 20 else None
        except ValueError:
            number = None
        if number is None or not -high - 1 <= number <= high:
            # ConfigDef parses with Integer.parseInt / Long.parseLong: out of range is "not a number".
            raise ProducerConfigError([key], raw, f"{shown} is not a number of type {kind}") from None
        low = 1 if key == IN_FLIGHT else 0
        if number < low:
            raise ProducerConfigError([key], raw, f"must be at least {low}, got {number}")
        return str(number)
    return raw


def java_config(
    properties: Mapping[str, str],
    version: str | KafkaVersion = DEFAULT_VERSION,
    *,
    console: bool = False,
    profile: IdempotenceProfile = IdempotenceProfile.SHIPPED,
) -> EffectiveConfig:
    """Resolve ``properties`` as ``new KafkaProducer(properties)`` of ``version`` would."""
    v = KafkaVersion.parse(version)
    if v < OLDEST_JAVA:
        raise ProducerConfigError([IDEMPOTENCE], str(v), "the idempotent producer arrived in 0.11.0 (KIP-98)")
    b = SettingsBuilder()
    for key, value in _defaults(v).items():
        b.set(key, value, Origin.DEFAULT)
    props = dict(properties)
    request = _tristate_request(props, v) if profile is IdempotenceProfile.TRISTATE else None
    tool = _console_values(v) if console else {}
    for key, value in props.items():
        if key in tool and not v.at_least("2.2.0"):
            continue  # before KAFKA-6627 the console option default overwrote the property
        note = "unknown to this release (KIP-91 is 2.1.0)" if key == DELIVERY and not v.at_least("2.1.0") else ""
        b.set(key, _parse(key, value), Origin.USER, note)
    for key, value in tool.items():
        if key not in props or not v.at_least("2.2.0"):
            b.set(key, value, Origin.TOOL, "kafka-console-producer option default")
    if request is IdempotenceRequest.REQUESTED:
        b.set(IDEMPOTENCE, "true", Origin.DEFAULT, "requested: best effort")
    if request is not None or _since(v, "3.0.1", "3.1.1", "3.2.0"):
        _modern_idempotence(b, v)
        _delivery_timeout(b, v)
    else:
        _legacy_idempotence(b, v)
    return b.build("console" if console else "java", v, request)


def _tristate_request(props: dict[str, str], v: KafkaVersion) -> IdempotenceRequest:
    """Rewrite the tri-state ``enable.idempotence`` into the boolean the shipped rules read."""
    raw = props.get(IDEMPOTENCE)
    if raw is None:
        if v.at_least("3.0.0"):
            return IdempotenceRequest.REQUESTED
        return IdempotenceRequest.OFF
    words = {"true": "required", "false": "off", "safe": "requested"}
    word = words.get(raw.strip().lower(), raw.strip().lower())
    try:
        request = IdempotenceRequest(word)
    except ValueError:
        raise ProducerConfigError([IDEMPOTENCE], raw, "expected off, required, requested (or safe), true or false") from None
    if request is IdempotenceRequest.REQUESTED:
        del props[IDEMPOTENCE]  # behaves as the implicit default, set by java_config
    else:
        props[IDEMPOTENCE] = "true" if request is IdempotenceRequest.REQUIRED else "false"
    return request


def _legacy_idempotence(b: SettingsBuilder, v: KafkaVersion) -> None:
    """Before 3.0.1/3.1.1/3.2.0.  The checks run in the order of that release's constructor,
    which decides the error when several keys conflict."""
    steps: tuple[Callable[[SettingsBuilder, KafkaVersion], None], ...]
    if v < KafkaVersion(2, 1, 0):
        steps = (_legacy_decide, _legacy_retries, _legacy_in_flight, _legacy_acks)
    elif v < KafkaVersion(2, 5, 0):
        steps = (_delivery_timeout, _legacy_decide, _legacy_in_flight, _legacy_retries, _legacy_acks)
    else:  # acks and retries moved into ProducerConfig in 2.5
        steps = (_legacy_decide, _legacy_retries, _legacy_acks, _delivery_timeout, _legacy_in_flight)
    for step in steps:
        if step in (_delivery_timeout, _legacy_decide) or b.value(IDEMPOTENCE) == "true":
            step(b, v)


def _legacy_decide(b: SettingsBuilder, v: KafkaVersion) -> None:
    """On iff set explicitly to true, or a transactional.id is set."""
    explicit = b.explicit(IDEMPOTENCE)
    transactional = b.explicit(TXN_ID)
    asked = explicit and b.value(IDEMPOTENCE) == "true"
    if explicit and not asked and transactional:
        raise ProducerConfigError([TXN_ID, IDEMPOTENCE], b.value(TXN_ID), "cannot set a transactional.id without also enabling idempotence")
    if asked or transactional:
        b.adjust(IDEMPOTENCE, "true", "implied by transactional.id")
    elif b.value(IDEMPOTENCE) == "true":
        b.adjust(IDEMPOTENCE, "false", "KAFKA-13598: the default true is ignored unless set explicitly (3.0.0, 3.1.0)")
        b.notes.append("KAFKA-13598: idempotence is off although its default is true; set enable.idempotence=true")


def _legacy_retries(b: SettingsBuilder, v: KafkaVersion) -> None:
    if not b.explicit(RETRIES):
        b.adjust(RETRIES, str(INT_MAX), "idempotence overrides the default retries")
    elif b.value(RETRIES) == "0":
        raise ProducerConfigError([RETRIES, IDEMPOTENCE], "0", "must set retries to non-zero when using the idempotent producer")


def _legacy_acks(b: SettingsBuilder, v: KafkaVersion) -> None:
    if not b.explicit(ACKS):
        b.adjust(ACKS, "-1", "idempotence overrides the default acks to all")
    elif b.value(ACKS) != "-1":
        raise ProducerConfigError([ACKS, IDEMPOTENCE], b.value(ACKS), "must set acks to all in order to use the idempotent producer")


def _legacy_in_flight(b: SettingsBuilder, v: KafkaVersion) -> None:
    in_flight = int(b.value(IN_FLIGHT))
    if not v.at_least("1.0.0"):  # 0.11: one request in flight (KAFKA-5494 lifted it in 1.0.0)
        if not b.explicit(IN_FLIGHT):
            b.adjust(IN_FLIGHT, "1", "0.11 idempotence needs one request in flight")
        elif in_flight != 1:
            raise ProducerConfigError([IN_FLIGHT, IDEMPOTENCE], in_flight, "must be 1 to use the idempotent producer (0.11)")
    elif in_flight > 5:
        raise ProducerConfigError([IN_FLIGHT, IDEMPOTENCE], in_flight, "must be at most 5 to use the idempotent producer")


def _modern_idempotence(b: SettingsBuilder, v: KafkaVersion) -> None:
    explicit = b.explicit(IDEMPOTENCE)
    if b.value(IDEMPOTENCE) == "true":
        conflicts = []
        if b.value(RETRIES) == "0":
            conflicts.append((RETRIES, "0", "retries is 0"))
        if b.value(ACKS) != "-1":
            conflicts.append((ACKS, b.value(ACKS), f"acks is {b.value(ACKS)}, not all"))
        if int(b.value(IN_FLIGHT)) > 5:
            if v.at_least("4.0.0") or explicit:  # KAFKA-17927: always an error from 4.0
                raise ProducerConfigError([IN_FLIGHT, IDEMPOTENCE], b.value(IN_FLIGHT), "must be at most 5 to use the idempotent producer")
            conflicts.append((IN_FLIGHT, b.value(IN_FLIGHT), "in-flight > 5 (an error from 4.0)"))
        if conflicts and explicit:
            key, value, reason = conflicts[0]
            raise ProducerConfigError([key, IDEMPOTENCE], value, f"conflicts with enable.idempotence=true: {reason}")
        if conflicts:
            reasons = "; ".join(reason for _, _, reason in conflicts)
            b.adjust(IDEMPOTENCE, "false", f"KAFKA-13673: silently disabled ({reasons})")
            b.notes.append(f"idempotence silently disabled because {reasons}; duplicates on retry are possible")
    if b.explicit(TXN_ID) and b.value(IDEMPOTENCE) != "true":
        raise ProducerConfigError([TXN_ID, IDEMPOTENCE], b.value(TXN_ID), "cannot set a transactional.id without also enabling idempotence")


def _delivery_timeout(b: SettingsBuilder, v: KafkaVersion) -> None:
    if not v.at_least("2.1.0"):
        return
    floor = min(int(b.value(LINGER)) + int(b.value(REQUEST_TIMEOUT)), INT_MAX)
    if int(b.value(DELIVERY)) >= floor:
        return
    if b.explicit(DELIVERY):
        reason = "should be equal to or larger than linger.ms + request.timeout.ms"
        raise ProducerConfigError([DELIVERY, LINGER, REQUEST_TIMEOUT], b.value(DELIVERY), reason)
    b.adjust(DELIVERY, str(floor), "raised to linger.ms + request.timeout.ms")


def explain_config(
    properties: Mapping[str, str],
    *,
    client: str = "java",
    version: str | KafkaVersion | None = None,
    profile: IdempotenceProfile = IdempotenceProfile.SHIPPED,
) -> EffectiveConfig:
    """The effective producer configuration, or :class:`ProducerConfigError` naming the keys.

    ``client`` is ``java``, ``console`` (kafka-console-producer on the Java client) or
    ``librdkafka``.  ``version`` is the Apache Kafka release for the first two and the
    librdkafka release for the last; None means the newest modelled.  ``profile`` selects
    the tri-state ``enable.idempotence`` proposal (Java only).
    """
    if client in ("java", "console"):
        return java_config(properties, version or DEFAULT_VERSION, console=client == "console", profile=profile)
    if client == "librdkafka":
        if profile is not IdempotenceProfile.SHIPPED:
            raise ValueError("the tri-state idempotence profile is modelled for the Java client only")
        return librdkafka_config(properties, version)
    raise ValueError(f"unknown client {client!r}; expected one of {', '.join(CLIENTS)}")

