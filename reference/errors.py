"""Errors raised by the reference model.

Each error names the field and the value that were wrong, because users meet
them when loading their own ACL files and configurations.  Errors that stand for
an exception Kafka itself throws carry the Java class name in ``kafka_exception``
so conformance checks can compare error *kinds* across implementations.
"""

from __future__ import annotations

__all__ = [
    "AclFileError",
    "AclValueError",
    "AuthorizerConfigError",
    "AuthorizerError",
    "ConfigError",
    "KafkaException",
]


def _shown(value: object, limit: int = 200) -> str:
    """``repr(value)``, abbreviated: a message never echoes a large input back."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 30]}... ({len(text)} characters)"


class KafkaException(Exception):
    """Base class for errors that model an exception a Kafka component throws."""

    kafka_exception = "org.apache.kafka.common.KafkaException"
    kind = "kafka-exception"


class AclValueError(KafkaException, ValueError):
    """A value that Kafka's constructors or validators reject (IllegalArgumentException)."""

    kafka_exception = "java.lang.IllegalArgumentException"
    kind = "invalid-argument"

    def __init__(self, field: str, value: object, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"invalid {field} {_shown(value)}: {reason}")


class ConfigError(KafkaException, ValueError):
    """An authorizer or producer configuration value Kafka refuses at configure()."""

    kafka_exception = "org.apache.kafka.common.config.ConfigException"
    kind = "config-error"

    def __init__(self, key: str, value: object, reason: str) -> None:
        self.key = key
        self.value = value
        self.reason = reason
        super().__init__(f"invalid value {_shown(value)} for configuration {key}: {reason}")


class AuthorizerConfigError(ConfigError):
    """An authorizer refusing its configuration: both flavours throw
    IllegalArgumentException from ``configure()``."""

    kafka_exception = "java.lang.IllegalArgumentException"


class AuthorizerError(KafkaException):
    """An exception an authorizer throws instead of answering.

    ``kind`` is a stable name: ``invalid-argument`` (non-literal action,
    malformed stored principal), ``not-ready`` (AuthorizerNotReadyException),
    ``illegal-state`` (record log inconsistencies such as removing an unknown id).
    """

    def __init__(self, kind: str, message: str, kafka_exception: str) -> None:
        self.kind = kind
        self.kafka_exception = kafka_exception
        super().__init__(message)


class AclFileError(ValueError):
    """A malformed ACL file: names the source, the line (when known) and the reason."""

    def __init__(self, source: str, line: int | None, reason: str) -> None:
        self.source = source
        self.line = line
        self.reason = reason
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {reason}")
