"""Kafka's ACL value types: the enumerations, resource patterns, entries and bindings.

Names and wire codes are Kafka's (``org.apache.kafka.common.acl`` and
``org.apache.kafka.common.resource``).  Construction checks mirror the Java
constructors: a binding may never carry a filter-only value (``ANY``/``MATCH``),
but it may carry ``UNKNOWN``, which only the controller rejects (see
:mod:`kafka_conformance.reference.authorizer.validation`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from kafka_conformance.reference.acl.principal import KafkaPrincipal, parse_principal
from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "CLUSTER_NAME",
    "WILDCARD_HOST",
    "WILDCARD_PRINCIPAL",
    "WILDCARD_RESOURCE",
    "AccessControlEntry",
    "AclBinding",
    "AclOperation",
    "AclPermissionType",
    "PatternType",
    "ResourcePattern",
    "ResourceType",
]

WILDCARD_RESOURCE = "*"
"""A LITERAL pattern with this name matches every resource of its type."""
WILDCARD_PRINCIPAL = "User:*"
"""The only principal wildcard; it matches every principal whatever its type."""
WILDCARD_HOST = "*"
CLUSTER_NAME = "kafka-cluster"


_E = TypeVar("_E", bound="_Coded")
_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


class _Coded(enum.Enum):
    """An enum whose members carry Kafka's wire code and decode unknown codes to UNKNOWN."""

    # Members are singletons and compare by identity, so hashing by identity agrees with
    # equality; it spares CPython 3.11's Enum.__hash__ (a Python call hashing the name) on
    # every lookup in a table keyed by an operation, a type or a pattern type.
    __hash__ = object.__hash__

    @property
    def code(self) -> int:
        return int(self.value)

    @classmethod
    def from_code(cls: type[_E], code: int) -> _E:
        for member in cls:
            if member.value == code:
                return member
        return cls["UNKNOWN"]

    @classmethod
    def from_name(cls: type[_E], text: str) -> _E:
        """Kafka's ``fromString``: upper-case the text (no trimming); unrecognised
        text is UNKNOWN.  ``PatternType`` overrides this: its lookup is exact."""
        return cls.__members__.get(text.upper(), cls["UNKNOWN"])

    @classmethod
    def parse(cls: type[_E], text: str, *, field: str) -> _E:
        """Strict parsing for user files: accept ``READ``, ``read``, ``Read`` and the
        Pascal-case spelling ``DescribeConfigs``; reject anything else with an error
        naming the field and the value."""
        key = text.strip()
        upper = key.upper()
        if upper in cls.__members__:
            return cls[upper]
        squashed = {name.replace("_", ""): name for name in cls.__members__}
        if upper in squashed:
            return cls[squashed[upper]]
        choices = ", ".join(n for n in cls.__members__ if n != "UNKNOWN")
        raise AclValueError(field, text, f"expected one of {choices}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class ResourceType(_Coded):
    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(_Coded):
    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4

    @classmethod
    def from_name(cls, text: str) -> PatternType:
        """``PatternType.fromString`` is exact and case-sensitive on the enum name."""
        return cls.__members__.get(text, cls.UNKNOWN)

    @property
    def is_specific(self) -> bool:
        return self in (PatternType.LITERAL, PatternType.PREFIXED)


class AclOperation(_Coded):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class AclPermissionType(_Coded):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


def _not_filter_resource_type(inst: object, attr: attrs.Attribute[ResourceType], value: object) -> None:
    if not isinstance(value, ResourceType):
        raise AclValueError("resource_type", value, "must be a ResourceType")
    if value is ResourceType.ANY:
        raise AclValueError("resource_type", value.name, "ANY is only valid in a filter")


def _not_filter_pattern_type(inst: object, attr: attrs.Attribute[PatternType], value: object) -> None:
    if not isinstance(value, PatternType):
        raise AclValueError("pattern_type", value, "must be a PatternType")
    if value in (PatternType.ANY, PatternType.MATCH):
        raise AclValueError("pattern_type", value.name, f"{value.name} is only valid in a filter")


def _is_str(field: str) -> _Validator:
    def check(inst: object, attr: attrs.Attribute[str], value: object) -> None:
        if not isinstance(value, str):
            raise AclValueError(field, value, "must be a string")

    return check


@attrs.frozen(order=False)
class ResourcePattern:
    """A resource (type + name) with a pattern type; the unit ACLs attach to."""

    resource_type: ResourceType = attrs.field(validator=_not_filter_resource_type)
    name: str = attrs.field(validator=_is_str("resource name"))
    pattern_type: PatternType = attrs.field(
        default=PatternType.LITERAL, validator=_not_filter_pattern_type
    )

    @property
    def is_wildcard(self) -> bool:
        return self.pattern_type is PatternType.LITERAL and self.name == WILDCARD_RESOURCE

    def __str__(self) -> str:
        return f"{self.resource_type.name}:{self.pattern_type.name}:{self.name}"


def _entry_operation(inst: object, attr: attrs.Attribute[AclOperation], value: object) -> None:
    if not isinstance(value, AclOperation):
        raise AclValueError("operation", value, "must be an AclOperation")
    if value is AclOperation.ANY:
        raise AclValueError("operation", "ANY", "ANY is only valid in a filter")


def _entry_permission(
    inst: object, attr: attrs.Attribute[AclPermissionType], value: object
) -> None:
    if not isinstance(value, AclPermissionType):
        raise AclValueError("permission_type", value, "must be an AclPermissionType")
    if value is AclPermissionType.ANY:
        raise AclValueError("permission_type", "ANY", "ANY is only valid in a filter")


@attrs.frozen(order=False)
class AccessControlEntry:
    """Who (principal string, host) may or may not do what (operation).

    The principal is kept as the raw string Kafka stores (``"User:alice"``): Kafka
    parses it lazily, so an ACL whose principal lacks a colon can exist in a record
    log and only fails when evaluated.
    """

    principal: str = attrs.field(validator=_is_str("principal"))
    host: str = attrs.field(validator=_is_str("host"))
    operation: AclOperation = attrs.field(validator=_entry_operation)
    permission_type: AclPermissionType = attrs.field(validator=_entry_permission)

    def parsed_principal(self) -> KafkaPrincipal:
        return parse_principal(self.principal)

    def __str__(self) -> str:
        return (
            f"{self.permission_type.name} {self.principal} {self.operation.name} "
            f"from host {self.host or repr(self.host)}"
        )


@attrs.frozen(order=False)
class AclBinding:
    """An ACL: a resource pattern bound to an access control entry."""

    pattern: ResourcePattern
    entry: AccessControlEntry

    @classmethod
    def of(
        cls,
        permission: AclPermissionType | str,
        principal: str,
        operation: AclOperation | str,
        resource_type: ResourceType | str,
        name: str,
        pattern_type: PatternType | str = PatternType.LITERAL,
        host: str = WILDCARD_HOST,
    ) -> AclBinding:
        """Compact constructor for tests, examples and generated programs."""
        return cls(
            ResourcePattern(
                _coerce(ResourceType, resource_type, "resource_type"),
                name,
                _coerce(PatternType, pattern_type, "pattern_type"),
            ),
            AccessControlEntry(
                principal,
                host,
                _coerce(AclOperation, operation, "operation"),
                _coerce(AclPermissionType, permission, "permission_type"),
            ),
        )

    def __str__(self) -> str:
        return (
            f"{self.entry.permission_type.name} {self.entry.principal} "
            f"{self.entry.operation.name} on {self.pattern.pattern_type.name} "
            f"{self.pattern.resource_type.name} {self.pattern.name!r} "
            f"from host {self.entry.host or repr(self.entry.host)}"
        )

    def __repr__(self) -> str:
        p, e = self.pattern, self.entry
        return (
            f"AclBinding.of({e.permission_type.name!r}, {e.principal!r}, "
            f"{e.operation.name!r}, {p.resource_type.name!r}, {p.name!r}, "
            f"{p.pattern_type.name!r}, host={e.host!r})"
        )


def _coerce(enum_cls: type[_E], value: object, field: str) -> _E:
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        return enum_cls.parse(value, field=field)
    raise AclValueError(field, value, f"must be a {enum_cls.__name__} or its name")
