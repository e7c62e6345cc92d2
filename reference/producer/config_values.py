"""Value types for producer configuration: effective settings, where each came from, and errors.

Shared by the Java rules (:mod:`producer_config`) and librdkafka's
(:mod:`librdkafka_config`).  Users mostly meet these through
``explain_config``: they want to know not only *what* their producer runs with,
but *why* (a default of that release, their own value, a console-producer
option default, or a value the client changed behind their back), because the
surprises (idempotence silently off, KAFKA-13598/13673) live in that "why".
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

from kafka_conformance.reference.errors import ConfigError
from kafka_conformance.reference.releases import KafkaVersion

__all__ = [
    "EffectiveConfig",
    "IdempotenceRequest",
    "Origin",
    "ProducerConfigError",
    "Setting",
    "SettingsBuilder",
    "TopicIdempotence",
    "render_effective_config",
]


class Origin(enum.Enum):
    DEFAULT = "default"
    """The client's default in this release."""
    TOOL = "tool"
    """Set by ``kafka-console-producer`` from its own option defaults; the client sees it as user-set."""
    USER = "user"
    ADJUSTED = "adjusted"
    """Changed by the client's own validation (an override, or idempotence switched off)."""


class IdempotenceRequest(enum.Enum):
    """What the configuration asks of idempotence, in the never-shipped tri-state
    proposal's words (``docs/spec/idempotence.md`` §1.7); the shipped clients know only on and off."""

    OFF = "off"
    REQUIRED = "required"
    """Idempotent, and a topic that cannot support it fails the send."""
    REQUESTED = "requested"
    """Best effort (first called "safe"): idempotent where the topic's format allows, else silently not."""


class TopicIdempotence(enum.Enum):
    """How a producer writes to a topic of a given message format."""

    IDEMPOTENT = "idempotent"
    NOT_IDEMPOTENT = "not-idempotent"
    FAILS = "fails"
    """Every send fails with UNSUPPORTED_FOR_MESSAGE_FORMAT (the broker refuses producer ids below v2)."""


class ProducerConfigError(ConfigError):
    """A producer configuration the client refuses at construction (Java ``ConfigException``,
    librdkafka's ``rd_kafka_new`` error); ``keys`` names every key in the conflict."""

    def __init__(self, keys: Iterable[str], value: object, reason: str) -> None:
        self.keys = tuple(keys)
        super().__init__(self.keys[0], value, reason)
        self.args = (f"{', '.join(self.keys)}: {reason}",)


@attrs.frozen
class Setting:
    key: str
    value: str
    origin: Origin
    note: str = ""


@attrs.frozen
class EffectiveConfig:
    """The configuration a producer really runs with, key by key."""

    client: str
    version: KafkaVersion
    settings: tuple[Setting, ...]
    """Sorted by key."""
    notes: tuple[str, ...] = ()
    request: IdempotenceRequest = IdempotenceRequest.OFF

    def get(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key == key), None)

    def __getitem__(self, key: str) -> Setting:
        setting = self.get(key)
        if setting is None:
            raise KeyError(key)
        return setting

    def value(self, key: str) -> str:
        return self[key].value

    @property
    def idempotent(self) -> bool:
        return self.value("enable.idempotence") == "true"

    @property
    def acks(self) -> int:
        return int(self.value("acks"))

    @property
    def retries(self) -> int:
        return int(self.value("retries"))

    @property
    def max_in_flight(self) -> int:
        return int(self.value("max.in.flight.requests.per.connection"))

    def as_properties(self) -> dict[str, str]:
        return {s.key: s.value for s in self.settings}

    def topic_idempotence(self, message_format: int) -> TopicIdempotence:
        """Whether sends to a topic of ``message_format`` (0, 1 or 2) are idempotent."""
        if not self.idempotent:
            return TopicIdempotence.NOT_IDEMPOTENT
        if message_format >= 2:
            return TopicIdempotence.IDEMPOTENT
        if self.request is IdempotenceRequest.REQUESTED:
            return TopicIdempotence.NOT_IDEMPOTENT
        return TopicIdempotence.FAILS


class SettingsBuilder:
    """Collects settings in the order a client applies them; later writes win."""

    def __init__(self) -> None:
        self._settings: dict[str, Setting] = {}
        self.notes: list[str] = []

    def set(self, key: str, value: str, origin: Origin, note: str = "") -> None:
        self._settings[key] = Setting(key, value, origin, note)

    def adjust(self, key: str, value: str, note: str) -> None:
        """A client-made change; recorded only if the value really changes."""
        current = self._settings.get(key)
        if current is None or current.value != value:
            self.set(key, value, Origin.ADJUSTED, note)

    def get(self, key: str) -> Setting | None:
        return self._settings.get(key)

    def value(self, key: str) -> str:
        return self._settings[key].value

    def explicit(self, key: str) -> bool:
        """Set by the user or a tool (Java: ``originals().containsKey``)."""
        setting = self._settings.get(key)
        return setting is not None and setting.origin in (Origin.USER, Origin.TOOL)

    def build(self, client: str, version: KafkaVersion, request: IdempotenceRequest | None = None) -> EffectiveConfig:
        idempotent = self._settings["enable.idempotence"].value == "true"
        if request is None:
            request = IdempotenceRequest.REQUIRED if idempotent else IdempotenceRequest.OFF
        elif not idempotent:
            request = IdempotenceRequest.OFF
        settings = tuple(self._settings[k] for k in sorted(self._settings))
        return EffectiveConfig(client, version, settings, tuple(self.notes), request)


def render_effective_config(cfg: EffectiveConfig) -> str:
    """A plain-text table: one line per key with value and origin, then the notes."""
    width = max((len(s.key) for s in cfg.settings), default=0)
    vwidth = max((len(s.value) for s in cfg.settings), default=0)
    state = "on" if cfg.idempotent else "off"
    if cfg.request is IdempotenceRequest.REQUESTED:
        state += " (requested: off for topics below message format v2)"
    lines = [f"{cfg.client} producer {cfg.version}: idempotence {state}", ""]
    for s in cfg.settings:
        note = f"  {s.note}" if s.note else ""
        lines.append(f"  {s.key:<{width}}  {s.value:<{vwidth}}  [{s.origin.value}]{note}".rstrip())
    if cfg.notes:
        lines += ["", "notes:"] + [f"  - {n}" for n in cfg.notes]
    return "\n".join(lines) + "\n"
