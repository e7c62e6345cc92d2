"""ACL filters: what DescribeAcls, DeleteAcls and ``Authorizer.acls()`` match.

Semantics of ``ResourcePatternFilter.matches`` and ``AccessControlEntryFilter.matches``
in Kafka's clients module:

* resource type ``ANY`` matches every type; otherwise types must be equal;
* a ``None`` name matches every name;
* pattern ``ANY``: the name must equal exactly, whatever the binding's pattern type;
* pattern ``MATCH``: the binding is LITERAL with the same name or the wildcard ``*``,
  or PREFIXED with a name that is a prefix of (or equal to) the filter's name;
  with no name, MATCH matches everything;
* pattern ``LITERAL``/``PREFIXED``: pattern types must be equal and names equal;
* entry fields: ``None`` principal/host and ``ANY`` operation/permission match all;
  otherwise exact equality (a filter for ``User:*`` only finds ACLs written for
  ``User:*``).
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.acl.values import (
    WILDCARD_RESOURCE,
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "ANY_ACL",
    "AccessControlEntryFilter",
    "AclBindingFilter",
    "ResourcePatternFilter",
]


@attrs.frozen
class ResourcePatternFilter:
    resource_type: ResourceType = ResourceType.ANY
    name: str | None = None
    pattern_type: PatternType = PatternType.ANY

    def matches(self, pattern: ResourcePattern) -> bool:
        rtype = self.resource_type
        if rtype is not ResourceType.ANY and rtype is not pattern.resource_type:
            return False
        if self.pattern_type is PatternType.MATCH:
            if self.name is None:
                return True
            if pattern.pattern_type is PatternType.LITERAL:
                return pattern.name in (self.name, WILDCARD_RESOURCE)
            if pattern.pattern_type is PatternType.PREFIXED:
                return self.name.startswith(pattern.name)
            # Kafka throws for a stored binding whose pattern is UNKNOWN (found by
            # running the real AclBindingFilter.matches under the kit).
            raise AclValueError("pattern_type", pattern.pattern_type.name, "Unsupported PatternType for a MATCH filter")
        ptype = self.pattern_type
        if ptype is not PatternType.ANY and ptype is not pattern.pattern_type:
            return False
        return self.name is None or self.name == pattern.name

    @property
    def is_unknown(self) -> bool:
        return (
            self.resource_type is ResourceType.UNKNOWN
            or self.pattern_type is PatternType.UNKNOWN
        )


@attrs.frozen
class AccessControlEntryFilter:
    principal: str | None = None
    host: str | None = None
    operation: AclOperation = AclOperation.ANY
    permission_type: AclPermissionType = AclPermissionType.ANY

    def matches(self, entry: AccessControlEntry) -> bool:
        if self.principal is not None and self.principal != entry.principal:
            return False
        if self.host is not None and self.host != entry.host:
            return False
        if self.operation is not AclOperation.ANY and self.operation is not entry.operation:
            return False
        return (
            self.permission_type is AclPermissionType.ANY
            or self.permission_type is entry.permission_type
        )

    @property
    def is_unknown(self) -> bool:
        return (
            self.operation is AclOperation.UNKNOWN
            or self.permission_type is AclPermissionType.UNKNOWN
        )


@attrs.frozen
class AclBindingFilter:
    pattern: ResourcePatternFilter = attrs.field(factory=ResourcePatternFilter)
    entry: AccessControlEntryFilter = attrs.field(factory=AccessControlEntryFilter)

    def matches(self, binding: AclBinding) -> bool:
        return self.pattern.matches(binding.pattern) and self.entry.matches(binding.entry)

    @property
    def is_unknown(self) -> bool:
        """Kafka's ``isUnknown``: the controller rejects such a filter on delete."""
        return self.pattern.is_unknown or self.entry.is_unknown

    @classmethod
    def for_binding(cls, binding: AclBinding) -> AclBindingFilter:
        """The filter that matches exactly this binding (Kafka's ``toFilter``)."""
        p, e = binding.pattern, binding.entry
        return cls(
            ResourcePatternFilter(p.resource_type, p.name, p.pattern_type),
            AccessControlEntryFilter(e.principal, e.host, e.operation, e.permission_type),
        )


ANY_ACL = AclBindingFilter()
"""Matches every ACL."""
