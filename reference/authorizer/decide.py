"""The decision procedure of ``Authorizer.authorize``: the executable spec.

This module is meant to be read side by side with KIP-11, KIP-290, KIP-801 and
the Kafka documentation, one numbered step at a time.  It is deliberately
unoptimised: it scans every ACL for every action.  Fast engines live elsewhere
and are tested against this one.

Steps (``decide``):

1. A non-LITERAL action is an error (IllegalArgumentException), even for super
   users.  StandardAuthorizer before 3.4.1/3.5.0 matched the name as if literal.
2. A super user is ALLOWED; no ACL, not even a DENY, is consulted.
3. StandardAuthorizer before its initial load: error (AuthorizerNotReadyException).
4. R = the ACLs of the action's resource type that match the resource *by name*:
   LITERAL equal name, LITERAL ``*``, or PREFIXED whose name is a prefix of (or
   equal to) the action's name.  Principal, host, operation and permission are
   ignored here.
5. R empty: ``allow.everyone.if.no.acl.found`` decides.  This is the only place
   the flag applies.
6. An ACL in R *applies* when its principal is the caller or ``User:*``, its
   host is the caller's address or ``*``, and its operation is the action's, or
   ALL, or (ALLOW only) an operation that implies the action's.
7. Any applying DENY: DENIED.  Else any applying ALLOW: ALLOWED.  Else DENIED.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from kafka_conformance.reference.acl.principal import KafkaPrincipal, parse_principal
from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    WILDCARD_RESOURCE,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
)
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
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
    "IMPLIED_BY",
    "acl_applies",
    "decide",
    "error_decision",
    "matching_acls",
    "name_matches",
    "operation_matches",
]

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED

IMPLIED_BY: dict[AclOperation, frozenset[AclOperation]] = {
    AclOperation.DESCRIBE: frozenset(
        {AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER}
    ),
    AclOperation.DESCRIBE_CONFIGS: frozenset({AclOperation.ALTER_CONFIGS}),
}
"""Requested operation -> the other operations whose ALLOW grants it.  DENY never implies."""


def error_decision(kind: str, detail: str) -> Decision:
    return Decision(AuthorizationResult.ERROR, Rule.ERROR, error=kind, detail=detail)


def decide(
    acls: Iterable[AclBinding],
    context: RequestContext,
    action: Action,
    config: AuthorizerConfig,
    profile: Profile,
    *,
    ready: bool = True,
) -> Decision:
    """Answer one action the way the profile's authorizer does (steps 1-7 above)."""
    resource = action.resource
    # 1. Only literal resources can be authorized.
    if resource.pattern_type is not PatternType.LITERAL:
        if profile.rejects_non_literal_actions:
            return error_decision(
                "invalid-argument",
                f"only LITERAL resources can be authorized, got {resource.pattern_type.name}",
            )
        resource = ResourcePattern(resource.resource_type, resource.name, PatternType.LITERAL)
    # 2. Super users bypass every ACL.
    if context.principal in config.super_users:
        return Decision(ALLOWED, Rule.SUPER_USER)
    # 3. StandardAuthorizer refuses to answer until the initial ACL load completes.
    if not ready:
        return error_decision("not-ready", "the initial ACL load has not completed")
    if profile.wildcard_principal_session_throws and str(context.principal) == WILDCARD_PRINCIPAL:
        return error_decision(
            "invalid-argument",
            "session principal equals User:* (Set.of duplicate element, KAFKA-17759 line)",
        )
    # 4. The ACLs that match the resource by name.
    on_resource = matching_acls(acls, resource, profile)
    # 5. No ACL for the resource at all: the configured default.
    if not on_resource:
        return _default(config, Rule.NO_ACL_FOR_RESOURCE)
    # 6. The ACLs that apply to this caller and operation.
    denies: list[AclBinding] = []
    allows: list[AclBinding] = []
    unparseable: list[AclBinding] = []
    for acl in on_resource:
        try:
            applies = acl_applies(acl, context, action.operation, profile)
        except AclValueError:
            unparseable.append(acl)
            continue
        if not applies:
            continue
        if acl.entry.permission_type is AclPermissionType.ALLOW:
            allows.append(acl)
        else:
            denies.append(acl)
    failed = unparseable_met_first(on_resource, unparseable, denies)
    if failed is not None:
        return failed
    # 7. DENY wins, then ALLOW, else DENIED.
    if denies:
        return Decision(DENIED, Rule.DENY_ACL, tuple(denies))
    if allows:
        return Decision(ALLOWED, Rule.ALLOW_ACL, tuple(allows))
    if profile.default_when_no_acl_applies:
        return _default(config, Rule.NO_ACL_APPLIED_DEFAULT, tuple(on_resource))
    return Decision(DENIED, Rule.NO_ACL_APPLIED, tuple(on_resource))


def unparseable_met_first(on_resource: Sequence[AclBinding], unparseable: Sequence[AclBinding],
                          denies: Sequence[AclBinding]) -> Decision | None:
    """The error of a stored principal that does not parse, where Kafka meets it.

    StandardAuthorizer (3.3.0 onwards, KAFKA-13651) parses each ACL's principal as its walk
    meets it and stops at the first DENY that applies (``checkSection``,
    ``StandardAuthorizerData.java@3.9.0-rc3:385-434``).  So the question fails only when an
    unparseable ACL is met before every applying DENY; otherwise that DENY decides.  Only records
    hold such an ACL, so this runs rarely and follows the walk's order (:func:`kafka_walk`)."""
    if not unparseable:
        return None
    bad, deny = set(unparseable), set(denies)
    for acl in kafka_walk(on_resource):
        if acl in deny:
            return None
        if acl in bad:
            try:
                _stored_principal(acl.entry.principal)
            except AclValueError as exc:
                return error_decision("illegal-state", f"stored ACL has an unparseable principal: {exc}")
    return None


def kafka_walk(on_resource: Sequence[AclBinding]) -> list[AclBinding]:
    """The ACLs of R in the order StandardAuthorizer's walk meets them.

    The walk goes down the set sorted by ``StandardAcl.compareTo`` (names in reverse, then pattern
    type, operation, principal, host and permission by code, strings as Java compares them;
    ``StandardAcl.java@3.9.0-rc3:162-178``) from the asked name, then again from LITERAL ``*``
    (``StandardAuthorizerData.java@3.9.0-rc3:341-367,385-434``).  What makes it skip, seek or (in
    3.2.0-3.3.0) stop are names that do not match the asked one, and R holds none: only the ACLs
    the walk reaches (:func:`matching_acls` models which).  So among R the walk meets them in that
    sorted order, LITERAL ``*`` in its place (met again in the second pass, to no new effect)."""
    by_fields = sorted(on_resource, key=lambda a: (a.pattern.pattern_type.value, a.entry.operation.value,
                                                    _java_order(a.entry.principal), _java_order(a.entry.host),
                                                    a.entry.permission_type.value))
    return sorted(by_fields, key=lambda a: _java_order(a.pattern.name), reverse=True)  # stable: the fields stay


def _default(config: AuthorizerConfig, rule: Rule, acls: tuple[AclBinding, ...] = ()) -> Decision:
    result = ALLOWED if config.allow_everyone_if_no_acl_found else DENIED
    flag = "true" if config.allow_everyone_if_no_acl_found else "false"
    return Decision(result, rule, acls, detail=f"allow.everyone.if.no.acl.found={flag}")


def matching_acls(
    acls: Iterable[AclBinding], resource: ResourcePattern, profile: Profile
) -> list[AclBinding]:
    """Step 4: the set R of ACLs that match the (literal) resource by name."""
    same_type = [a for a in acls if a.pattern.resource_type is resource.resource_type]
    if profile.prefix_shadowing_bug:
        return _shadowed_lookup(same_type, resource.name)
    return [a for a in same_type if name_matches(a.pattern, resource.name, profile)]


def wildcard_skipped(name: str, profile: Profile) -> bool:
    """Whether LITERAL ``*`` ACLs are out of R for this name (see
    ``Profile.star_names_skip_wildcard_literal``)."""
    return profile.star_names_skip_wildcard_literal and name.startswith(WILDCARD_RESOURCE) and name != WILDCARD_RESOURCE


def name_matches(pattern: ResourcePattern, name: str, profile: Profile) -> bool:
    """Does an ACL's pattern cover the resource ``name``?"""
    if pattern.pattern_type is PatternType.LITERAL:
        if pattern.name == WILDCARD_RESOURCE:
            return not wildcard_skipped(name, profile)
        return pattern.name == name
    if pattern.pattern_type is PatternType.PREFIXED:
        if pattern.name == "" and not profile.empty_prefix_matches_all:
            # AclAuthorizer's range lookup only finds "" for the empty name.
            return name == ""
        if profile.single_char_prefix_bug and len(pattern.name) == 1:
            # KAFKA-7702: the prefix lookup ranged from the name down to, but
            # excluding, its first character, so a one-character PREFIXED ACL
            # never matched anything.
            return False
        return name.startswith(pattern.name)
    # A stored ACL with pattern UNKNOWN: StandardAuthorizer's lookup treats any
    # non-LITERAL pattern as a prefix; AclAuthorizer never stores one.
    return profile.is_standard and name.startswith(pattern.name)


def _shadowed_lookup(same_type: Sequence[AclBinding], name: str) -> list[AclBinding]:
    """KAFKA-14265 (StandardAuthorizer 3.2.0-3.3.0).

    ACLs were kept sorted by name in descending order (UTF-16 code unit order,
    as Java's ``String.compareTo``).  The lookup walked from the action's name
    towards shorter names and stopped at the first entry whose name is not a
    prefix of the action's name, so a shorter PREFIXED ACL behind such an entry
    was never seen.  The LITERAL ``*`` entries were consulted separately.
    """
    found: list[AclBinding] = []
    found_ids: set[int] = set()
    for walk in (_walk_from(same_type, name), _walk_from_wildcard(same_type)):
        for acl in walk:
            if not name.startswith(acl.pattern.name):
                if acl.pattern.is_wildcard:
                    continue  # the LITERAL '*' entry was evaluated and the walk went on
                break
            if acl.pattern.pattern_type is PatternType.LITERAL and acl.pattern.name != name:
                continue  # a LITERAL that is only a prefix is skipped ('*' too: a name starting with '*')
            if id(acl) not in found_ids:
                found.append(acl)
                found_ids.add(id(acl))
    if not name.startswith(WILDCARD_RESOURCE):
        found.extend(
            a
            for a in same_type
            if a.pattern.is_wildcard and id(a) not in found_ids
        )
    return found


def _walk_from(same_type: Sequence[AclBinding], name: str) -> list[AclBinding]:
    """The first pass: every ACL whose name sorts at or below the action's, descending."""
    key = _java_order(name)
    return sorted(
        (a for a in same_type if _java_order(a.pattern.name) <= key),
        key=lambda a: _java_order(a.pattern.name),
        reverse=True,
    )


def _walk_from_wildcard(same_type: Sequence[AclBinding]) -> list[AclBinding]:
    """The second pass, the wildcard lookup: it starts at (``*``, LITERAL), so the ``*`` ACLs
    come LITERAL first, then PREFIXED (an UNKNOWN pattern sorts before LITERAL and is not
    on it), then every name below ``*``, descending, under the same walk rules."""
    order = {PatternType.LITERAL: 0, PatternType.PREFIXED: 1}
    at_star = sorted(
        (a for a in same_type if a.pattern.name == WILDCARD_RESOURCE and a.pattern.pattern_type in order),
        key=lambda a: order[a.pattern.pattern_type],
    )
    below = sorted(
        (a for a in same_type if _java_order(a.pattern.name) < _java_order(WILDCARD_RESOURCE)),
        key=lambda a: _java_order(a.pattern.name),
        reverse=True,
    )
    return at_star + below


def _java_order(text: str) -> bytes:
    """Sort key equal to Java's ``String.compareTo`` (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def acl_applies(
    acl: AclBinding, context: RequestContext, operation: AclOperation, profile: Profile
) -> bool:
    """Step 6: principal, host and operation of an ACL in R against the request."""
    entry = acl.entry
    permission = entry.permission_type
    if permission not in (AclPermissionType.ALLOW, AclPermissionType.DENY):
        # StandardAuthorizer treats an unknown permission as DENY; AclAuthorizer ignores it.
        if not profile.non_allow_deny_permission_denies:
            return False
    # StandardAuthorizer parses the stored principal before looking at the host, so a stored
    # principal without a colon fails even for other hosts; 3.2.x compared the text instead.
    if entry.principal != WILDCARD_PRINCIPAL:
        if profile.compares_stored_principal_text:
            if entry.principal != str(context.principal):
                return False
        elif _stored_principal(entry.principal) != context.principal:
            return False
    if entry.host not in (WILDCARD_HOST, context.host):
        return False
    return operation_matches(entry.operation, operation, permission is AclPermissionType.ALLOW)


@lru_cache(maxsize=65536)
def _stored_principal(text: str) -> KafkaPrincipal:
    """``parse_principal`` of a stored ACL's principal, remembered (the text of an ACL never
    changes and its parse is a frozen value; a failed parse is not remembered, so it raises
    every time, as Kafka's does)."""
    return parse_principal(text)


def operation_matches(acl_op: AclOperation, requested: AclOperation, is_allow: bool) -> bool:
    """ALL covers everything; implication only ever widens an ALLOW."""
    if acl_op is AclOperation.ALL or acl_op is requested:
        return True
    return is_allow and acl_op in IMPLIED_BY.get(requested, frozenset())
