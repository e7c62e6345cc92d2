"""What the broker and the KRaft controller reject when ACLs are created or deleted.

Create (``AclControlManager.validateNewAcl`` plus the broker's ``AclApis`` checks):
resource type not UNKNOWN/ANY; pattern LITERAL or PREFIXED; operation not
UNKNOWN/ANY; permission ALLOW or DENY; non-empty name (controller from
3.4.1/3.5.0, broker always); CLUSTER ACLs must name ``kafka-cluster``;
AclAuthorizer also rejects '/' in names (3.3.0 onwards) and unparseable
principals.  The exact Kafka messages are kept so reports can quote them.
"""

from __future__ import annotations

from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    CLUSTER_NAME,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourceType,
)
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.errors import AclValueError

__all__ = ["validate_delete_filter", "validate_new_acl"]


def validate_new_acl(binding: AclBinding, profile: Profile) -> None:
    """Raise :class:`AclValueError` naming the field if Kafka would refuse the ACL."""
    pattern, entry = binding.pattern, binding.entry
    if pattern.resource_type in (ResourceType.UNKNOWN, ResourceType.ANY):
        raise AclValueError("resource_type", pattern.resource_type.name, "Invalid resourceType")
    if not profile.supports(pattern.resource_type):
        raise AclValueError(
            "resource_type", pattern.resource_type.name, f"not known to Kafka {profile.version}"
        )
    if pattern.pattern_type not in (PatternType.LITERAL, PatternType.PREFIXED):
        raise AclValueError("pattern_type", pattern.pattern_type.name, "Invalid patternType")
    if entry.operation in (AclOperation.UNKNOWN, AclOperation.ANY):
        raise AclValueError("operation", entry.operation.name, "Invalid operation")
    if not profile.supports(entry.operation):
        raise AclValueError(
            "operation", entry.operation.name, f"not known to Kafka {profile.version}"
        )
    if entry.permission_type not in (AclPermissionType.ALLOW, AclPermissionType.DENY):
        raise AclValueError("permission_type", entry.permission_type.name, "Invalid permissionType")
    if pattern.name == "":
        raise AclValueError("resource name", "", "Resource name should not be empty")
    if pattern.resource_type is ResourceType.CLUSTER and pattern.name != CLUSTER_NAME:
        raise AclValueError(
            "resource name", pattern.name, f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}"
        )
    if profile.rejects_slash_in_names and "/" in pattern.name:
        raise AclValueError("resource name", pattern.name, "ACL resource names may not contain '/'")
    # Principals: AclAuthorizer always parsed them; the KRaft controller from KAFKA-18051 (4.0 line).
    if not profile.is_standard or profile.version.at_least("4.0.0"):
        parse_principal(entry.principal)


def validate_delete_filter(acl_filter: AclBindingFilter) -> None:
    """A delete filter with an UNKNOWN component is rejected (InvalidRequestException)."""
    if acl_filter.is_unknown:
        raise AclValueError("filter", str(acl_filter), "a delete filter may not contain UNKNOWN values")
