"""``decide`` (steps 1-7 of :mod:`~kafka_conformance.reference.authorizer.decide`) over a TypeIndex.

Kept apart from :class:`~.acls.IndexedAcls` (which owns the store and the
indexes) so each module stays readable.  The step numbers below are the
spec's; each step reads the index instead of scanning ACLs:

4. R is found by lookups (:mod:`.lookup`), as *groups* of
   :class:`~.index.Bucket` whose ``(group, seq)`` order is the spec's.
6. Only sub-buckets keyed by the caller's principal/``User:*`` and host/``*``
   are read; the operation and permission tests are the spec's.
7. The full R is materialised only when the answer must list it (no ACL
   applied), and memoised per (name, profile mode) until the type changes.
"""

from __future__ import annotations

from collections.abc import Callable

from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    WILDCARD_PRINCIPAL,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
)
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decide import IMPLIED_BY, default_decision, error_decision, unparseable_met_first
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.indexed.by_type import principal_key
from kafka_conformance.reference.indexed.index import Bucket, PrincipalKey, TypeIndex
from kafka_conformance.reference.indexed.lookup import (
    Flags,
    flags_for,
    matching_buckets,
    r_tuple,
    shadowed_groups,
)

__all__ = ["decide_indexed"]

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
ALL = AclOperation.ALL
LITERAL = PatternType.LITERAL
_NO_OPS: frozenset[AclOperation] = frozenset()
_WILDCARD_KEY: PrincipalKey = (None, None)
_IMPLIED: dict[int, frozenset[AclOperation]] = {id(op): ops for op, ops in IMPLIED_BY.items()}
"""IMPLIED_BY keyed by member identity: hashing an Enum runs Python code, per call."""


def decide_indexed(
    index: TypeIndex | None,
    context: RequestContext,
    action: Action,
    config: AuthorizerConfig,
    profile: Profile,
    ready: bool,
    keep: bool,
    fallback: Callable[[], Decision],
) -> Decision:
    """The spec's steps 1-7 for the ACLs in ``index`` (those of the action's type).

    ``keep=False`` (internal callers that only look at ALLOWED answers) skips
    building the list of R for a DENIED answer.  ``fallback`` is the spec over
    the same ACLs, used only for the tie case described in :mod:`.acls`.
    """
    flags = flags_for(profile)
    resource = action.resource
    if resource.pattern_type is not LITERAL and flags.rejects_non_literal:
        return error_decision(
            "invalid-argument",
            f"only LITERAL resources can be authorized, got {resource.pattern_type.name}",
        )
    principal = context.principal
    if config.super_users and principal in config.super_users:
        return Decision(ALLOWED, Rule.SUPER_USER)
    if not ready:
        return error_decision("not-ready", "the initial ACL load has not completed")
    if flags.session_throws and str(principal) == WILDCARD_PRINCIPAL:
        return error_decision(
            "invalid-argument",
            "session principal equals User:* (Set.of duplicate element, KAFKA-17759 line)",
        )
    if index is None:
        return default_decision(config, Rule.NO_ACL_FOR_RESOURCE)
    name = resource.name
    if flags.shadowing:
        if index.surrogate_names:
            return fallback()
        groups = shadowed_groups(index, name)
    else:
        group = matching_buckets(index, name, flags)
        groups = [group] if group else []
    if not groups:
        return default_decision(config, Rule.NO_ACL_FOR_RESOURCE)
    return _evaluate(index, groups, context, action.operation, config, flags, name, keep)


def _evaluate(
    index: TypeIndex,
    groups: list[list[Bucket]],
    context: RequestContext,
    operation: AclOperation,
    config: AuthorizerConfig,
    flags: Flags,
    name: str,
    keep: bool,
) -> Decision:
    """Steps 6 and 7 over the buckets of R; ``(group, seq)`` is the spec's order."""
    implied = _IMPLIED.get(id(operation), _NO_OPS)
    unknown_denies = flags.unknown_permission_denies
    host = context.host
    hosts = (host,) if host == "*" else (host, "*")
    # 3.2.x compared the stored text with the caller's: the stored principals whose parse equals
    # the parse of the caller's text (parsing splits at the first colon, so that is text equality).
    own = principal_key(parse_principal(str(context.principal)) if flags.text_principals else context.principal)
    principals = (_WILDCARD_KEY,) if own is None else (own, _WILDCARD_KEY)
    denies: list[tuple[int, int, AclBinding]] = []
    allows: list[tuple[int, int, AclBinding]] = []
    bad: list[AclBinding] = []
    for g, group in enumerate(groups):
        for bucket in group:
            for acl in bucket.bad.values():
                permission = acl.entry.permission_type
                if unknown_denies or permission is ALLOW or permission is DENY:
                    bad.append(acl)
            for principal in principals:
                by_host = bucket.who.get(principal)
                if by_host is None:
                    continue
                for h in hosts:
                    sub = by_host.get(h)
                    if sub is not None:
                        _collect(sub, g, operation, implied, unknown_denies, allows, denies)
    if bad and not flags.text_principals:  # 3.2.x compared the text: such an ACL never applies
        # Rare (only records hold one): the spec's own rule over R, in its order.
        failed = unparseable_met_first(r_tuple(index, groups, name, flags), bad, [d[2] for d in denies])
        if failed is not None:
            return failed
    if denies:
        return Decision(DENIED, Rule.DENY_ACL, _ordered(denies))
    if allows:
        return Decision(ALLOWED, Rule.ALLOW_ACL, _ordered(allows))
    if flags.default_when_none_applies:
        if keep or config.allow_everyone_if_no_acl_found:
            return default_decision(config, Rule.NO_ACL_APPLIED_DEFAULT, r_tuple(index, groups, name, flags))
        return default_decision(config, Rule.NO_ACL_APPLIED_DEFAULT)
    if not keep:
        return Decision(DENIED, Rule.NO_ACL_APPLIED)
    return Decision(DENIED, Rule.NO_ACL_APPLIED, r_tuple(index, groups, name, flags))


def _collect(
    sub: dict[int, AclBinding],
    g: int,
    operation: AclOperation,
    implied: frozenset[AclOperation],
    unknown_denies: bool,
    allows: list[tuple[int, int, AclBinding]],
    denies: list[tuple[int, int, AclBinding]],
) -> None:
    """Step 6's operation and permission tests for one principal/host sub-bucket."""
    for seq, acl in sub.items():
        entry = acl.entry
        op, permission = entry.operation, entry.permission_type
        if permission is ALLOW:
            if op is operation or op is ALL or op in implied:
                allows.append((g, seq, acl))
        elif (permission is DENY or unknown_denies) and (op is operation or op is ALL):
            denies.append((g, seq, acl))


def _ordered(found: list[tuple[int, int, AclBinding]]) -> tuple[AclBinding, ...]:
    if len(found) > 1:
        found.sort()  # (group, seq) pairs are unique, so bindings are never compared
    return tuple(item[2] for item in found)
