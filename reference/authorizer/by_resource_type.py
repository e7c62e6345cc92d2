"""``Authorizer.authorizeByResourceType`` (KIP-679): three variants.

The contract says ALLOWED iff the caller may perform the operation on *at least
one* resource of the type.  Kafka ships two approximations of it, and they
disagree with each other and with the contract in documented ways
(``docs/spec/authorization.md`` §3):

* ``INTERFACE_DEFAULT``: the interface's default method, which StandardAuthorizer
  uses.  It first probes ``authorize()`` on a resource literally named
  ``hardcode`` (that is how super users pass), then scans the ACLs of the type.
* ``ACL_AUTHORIZER``: AclAuthorizer's override (2.8.0 to 3.9.x).
* ``GROUND_TRUTH``: the contract itself, decided by searching for a witness name.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence

from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    WILDCARD_RESOURCE,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decide import decide, error_decision
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "PROBE_NAME",
    "ByTypeVariant",
    "authorize_by_resource_type",
    "candidate_names",
]

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED
PROBE_NAME = "hardcode"
"""The resource name the KIP-679 default probes with ``authorize()``."""


class ByTypeVariant(enum.Enum):
    INTERFACE_DEFAULT = "default"
    ACL_AUTHORIZER = "acl"
    GROUND_TRUTH = "truth"

    @classmethod
    def parse(cls, text: str | ByTypeVariant) -> ByTypeVariant:
        if isinstance(text, ByTypeVariant):
            return text
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise AclValueError(
                "by-type variant", text, "expected 'default', 'acl' or 'truth'"
            ) from None


Authorize = Callable[[RequestContext, Action], Decision]


def authorize_by_resource_type(
    acls: Sequence[AclBinding],
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    config: AuthorizerConfig,
    profile: Profile,
    variant: ByTypeVariant,
    *,
    ready: bool = True,
) -> Decision:
    """Answer a by-type query with the chosen variant.

    An operation or resource type the release does not know (CREATE_TOKENS before 3.3)
    reaches Kafka's code as UNKNOWN (``fromCode`` of a code it has no constant for), so it
    is refused as UNKNOWN is: seen on AclAuthorizer 3.2.3 by the release campaign."""
    operation, resource_type = as_release_sees(profile, operation, resource_type)
    bad = _check_args(operation, resource_type)
    if bad is not None:
        return bad

    def authorize(ctx: RequestContext, action: Action) -> Decision:
        return decide(acls, ctx, action, config, profile, ready=ready)

    if variant is ByTypeVariant.INTERFACE_DEFAULT:
        return _interface_default(acls, context, operation, resource_type, authorize)
    if variant is ByTypeVariant.ACL_AUTHORIZER:
        return _acl_authorizer(acls, context, operation, resource_type, config)
    return _ground_truth(acls, context, operation, resource_type, authorize)


def as_release_sees(
    profile: Profile, operation: AclOperation, resource_type: ResourceType
) -> tuple[AclOperation, ResourceType]:
    """The values as the release's own enums decode them: UNKNOWN where it has no constant."""
    return (operation if profile.supports(operation) else AclOperation.UNKNOWN,
            resource_type if profile.supports(resource_type) else ResourceType.UNKNOWN)


def _check_args(operation: AclOperation, resource_type: ResourceType) -> Decision | None:
    """``SecurityUtils.authorizeByResourceTypeCheckArgs``: filter-only and unknown
    values are rejected; ALL is accepted."""
    if resource_type in (ResourceType.ANY, ResourceType.UNKNOWN):
        return error_decision(
            "invalid-argument", f"resource type {resource_type.name} is not a concrete type"
        )
    if operation in (AclOperation.ANY, AclOperation.UNKNOWN):
        return error_decision(
            "invalid-argument", f"operation {operation.name} is not a concrete operation"
        )
    return None


def _applicable(
    acls: Iterable[AclBinding],
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
) -> list[AclBinding]:
    """ACLs of the type for this host, principal and operation (ALL or exact: no implication).

    The host is tested before the principal is parsed, as in the interface default.
    """
    out = []
    for acl in acls:
        if acl.pattern.resource_type is not resource_type:
            continue
        entry = acl.entry
        if entry.host not in (context.host, WILDCARD_HOST):
            continue
        if entry.principal != WILDCARD_PRINCIPAL and parse_principal(entry.principal) != context.principal:
            continue
        if entry.operation not in (operation, AclOperation.ALL):
            continue
        out.append(acl)
    return out


def _dominated(name: str, deny_prefixes: set[str]) -> bool:
    """A name is dominated when one of its non-empty prefixes (itself included) is denied."""
    return any(name[:i] in deny_prefixes for i in range(1, len(name) + 1))


def _interface_default(
    acls: Sequence[AclBinding],
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    authorize: Authorize,
) -> Decision:
    # 1. The probe: an ordinary authorize() on a literal resource named "hardcode".
    probe = authorize(context, Action(operation, ResourcePattern(resource_type, PROBE_NAME)))
    if probe.result is AuthorizationResult.ERROR:
        return probe
    if probe.allowed:
        return Decision(ALLOWED, Rule.BY_TYPE_PROBE, probe.acls, detail=probe.explain())
    # 2. Scan the ACLs of the type that apply, without implication.
    try:
        applicable = _applicable(acls, context, operation, resource_type)
    except AclValueError as exc:
        return error_decision("invalid-argument", f"stored ACL principal: {exc}")
    deny_literal: set[str] = set()
    deny_prefix: set[str] = set()
    allow_literal: dict[str, AclBinding] = {}
    allow_prefix: dict[str, AclBinding] = {}
    wildcard_allow: AclBinding | None = None
    for acl in applicable:
        pattern, permission = acl.pattern, acl.entry.permission_type
        if permission is AclPermissionType.DENY:
            if pattern.pattern_type is PatternType.LITERAL:
                if pattern.name == WILDCARD_RESOURCE:
                    return Decision(DENIED, Rule.BY_TYPE_WILDCARD_DENY, (acl,))
                deny_literal.add(pattern.name)
            elif pattern.pattern_type is PatternType.PREFIXED:
                deny_prefix.add(pattern.name)
        elif permission is AclPermissionType.ALLOW:
            if pattern.pattern_type is PatternType.LITERAL:
                if pattern.name == WILDCARD_RESOURCE:
                    wildcard_allow = wildcard_allow or acl
                else:
                    allow_literal.setdefault(pattern.name, acl)
            elif pattern.pattern_type is PatternType.PREFIXED:
                allow_prefix.setdefault(pattern.name, acl)
    if wildcard_allow is not None:
        return Decision(ALLOWED, Rule.BY_TYPE_WILDCARD_ALLOW, (wildcard_allow,))
    # 3. An allow wins unless denied literally (literals only) or dominated by a deny prefix.
    for name, acl in allow_prefix.items():
        if not _dominated(name, deny_prefix):
            return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (acl,))
    for name, acl in allow_literal.items():
        if name not in deny_literal and not _dominated(name, deny_prefix):
            return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (acl,))
    return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)


def _acl_authorizer(
    acls: Sequence[AclBinding],
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    config: AuthorizerConfig,
) -> Decision:
    # 1. Super users.
    if context.principal in config.super_users:
        return Decision(ALLOWED, Rule.SUPER_USER)
    applicable = _applicable(acls, context, operation, resource_type)
    deny_literal = {
        a.pattern.name: a
        for a in applicable
        if a.entry.permission_type is AclPermissionType.DENY
        and a.pattern.pattern_type is PatternType.LITERAL
    }
    deny_prefix = {
        a.pattern.name
        for a in applicable
        if a.entry.permission_type is AclPermissionType.DENY
        and a.pattern.pattern_type is PatternType.PREFIXED
    }
    allows = [a for a in applicable if a.entry.permission_type is AclPermissionType.ALLOW]
    # 2. A wildcard DENY blocks everything.
    if WILDCARD_RESOURCE in deny_literal:
        return Decision(DENIED, Rule.BY_TYPE_WILDCARD_DENY, (deny_literal[WILDCARD_RESOURCE],))
    # 3. allow.everyone: unconditionally ALLOWED at this point (over-permissive).
    if config.allow_everyone_if_no_acl_found:
        return Decision(ALLOWED, Rule.BY_TYPE_ALLOW_EVERYONE)
    # 4. No denies at all: any allow will do.
    if not deny_literal and not deny_prefix:
        if allows:
            return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (allows[0],))
        return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)
    # 5. Otherwise an allow that no deny dominates.
    for acl in allows:
        name = acl.pattern.name
        if acl.pattern.pattern_type is PatternType.PREFIXED:
            if not _dominated(name, deny_prefix):
                return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (acl,))
        elif acl.pattern.pattern_type is PatternType.LITERAL:
            if name == WILDCARD_RESOURCE:
                return Decision(ALLOWED, Rule.BY_TYPE_WILDCARD_ALLOW, (acl,))
            if name not in deny_literal and not _dominated(name, deny_prefix):
                return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (acl,))
    return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)


_FRESH = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


def candidate_names(acls: Iterable[AclBinding], resource_type: ResourceType) -> list[str]:
    """Names that between them cover every way a resource name can relate to the ACLs.

    authorize() depends on a name only through which ACLs match it: whether it
    equals a literal ACL name, and which prefixed ACL names are prefixes of it.
    Every literal name, every prefix name, and every prefix name (or nothing)
    followed by a character that starts no longer ACL name, together realise
    every such relation.  The empty name is excluded: no Kafka resource has it.
    """
    names = {a.pattern.name for a in acls if a.pattern.resource_type is resource_type}
    prefixes = {
        a.pattern.name
        for a in acls
        if a.pattern.resource_type is resource_type and a.pattern.pattern_type is not PatternType.LITERAL
    }
    candidates = {n for n in names if n}
    for stem in sorted(prefixes | {""}):
        taken = {n[len(stem)] for n in names if len(n) > len(stem) and n.startswith(stem)}
        fresh = next((c for c in _FRESH if c not in taken), None)
        if fresh is None:
            fresh = next(chr(cp) for cp in range(0x100, 0x10000) if chr(cp) not in taken)
        candidates.add(stem + fresh)
    return sorted(candidates)


def _ground_truth(
    acls: Sequence[AclBinding],
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    authorize: Authorize,
) -> Decision:
    for name in candidate_names(acls, resource_type):
        answer = authorize(context, Action(operation, ResourcePattern(resource_type, name)))
        if answer.result is AuthorizationResult.ERROR:
            return answer
        if answer.allowed:
            return Decision(ALLOWED, Rule.BY_TYPE_WITNESS, answer.acls, witness=name)
    return Decision(DENIED, Rule.BY_TYPE_NO_WITNESS)
