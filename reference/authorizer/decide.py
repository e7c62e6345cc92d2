"""The decision procedure of ``Authorizer.authorize``: the executable spec.

This module is meant to be read side by side with KIP-11, KIP-290, KIP-801 and
the Kafka documentation, one numbered step at a time.  It is deliberately
unoptimised: it scans every ACL for every action.  Fast engines live elsewhere
and are tested against this one.  Where a release departs from the KIPs, the step
says so and asks the release's :class:`~.profiles.Profile` (each flag there names its
ticket and the releases it holds for); where the order of StandardAuthorizer's sorted
walk shows in an answer, :mod:`.walk` models it.

Steps (``decide``):

1. A non-LITERAL action is an error (IllegalArgumentException), even for super
   users.  StandardAuthorizer before 3.4.1/3.5.0 matched the name as if literal
   (KAFKA-14733).
2. A super user is ALLOWED; no ACL, not even a DENY, is consulted.
3. StandardAuthorizer refuses everyone else until its initial load completes
   (AuthorizerNotReadyException, KAFKA-13649), and from 4.0 it fails a session
   principal equal to ``User:*`` (KAFKA-17759).
4. R = the ACLs of the action's resource type that match the resource *by name*:
   LITERAL equal name, LITERAL ``*``, or PREFIXED whose name is a prefix of (or
   equal to) the action's name.  Principal, host, operation and permission are
   ignored here.  Release quirks: no LITERAL ``*`` for names beginning with
   ``*`` (StandardAuthorizer), the empty PREFIXED name, KAFKA-7702's
   one-character prefixes, KAFKA-14265's walk that stops early (:mod:`.walk`).
5. R empty: ``allow.everyone.if.no.acl.found`` decides.
6. An ACL in R *applies* when its principal is the caller or ``User:*``, its
   host is the caller's address or ``*``, and its operation is the action's, or
   ALL, or (ALLOW only) an operation that implies the action's.  A stored
   principal that does not parse fails the question if StandardAuthorizer's walk
   meets it before an applying DENY (from 3.3.0, KAFKA-13651).
7. Any applying DENY: DENIED.  Else any applying ALLOW: ALLOWED.  Else DENIED,
   except that StandardAuthorizer 3.2.0-3.3.1 let ``allow.everyone.if.no.acl.found``
   decide here too (KAFKA-14435).
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
from kafka_conformance.reference.authorizer.walk import kafka_walk, shadowed_lookup
from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "IMPLIED_BY",
    "acl_applies",
    "decide",
    "default_decision",
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
    # 1. Only literal resources can be authorized (KAFKA-14733: StandardAuthorizer before
    #    3.4.1/3.5.0 took the name as literal).
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
    # 3. StandardAuthorizer refuses to answer until the initial ACL load completes, and from
    #    4.0 fails the session principal User:* (KAFKA-17759).
    if not ready:
        return error_decision("not-ready", "the initial ACL load has not completed")
    if profile.wildcard_principal_session_throws and str(context.principal) == WILDCARD_PRINCIPAL:
        return error_decision(
            "invalid-argument",
            "session principal equals User:* (Set.of duplicate element, KAFKA-17759 line)",
        )
    # 4. R, the ACLs that match the resource by name.
    on_resource = matching_acls(acls, resource, profile)
    # 5. No ACL for the resource at all: the configured default.
    if not on_resource:
        return default_decision(config, Rule.NO_ACL_FOR_RESOURCE)
    # 6. The ACLs that apply to this caller and operation; a stored principal that does not
    #    parse fails the question where StandardAuthorizer's walk meets it first (KAFKA-13651).
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
    # 7. DENY wins, then ALLOW, else DENIED (KAFKA-14435: StandardAuthorizer 3.2.0-3.3.1 let
    #    the default decide here too).
    if denies:
        return Decision(DENIED, Rule.DENY_ACL, tuple(denies))
    if allows:
        return Decision(ALLOWED, Rule.ALLOW_ACL, tuple(allows))
    if profile.default_when_no_acl_applies:
        return default_decision(config, Rule.NO_ACL_APPLIED_DEFAULT, tuple(on_resource))
    return Decision(DENIED, Rule.NO_ACL_APPLIED, tuple(on_resource))


def unparseable_met_first(on_resource: Sequence[AclBinding], unparseable: Sequence[AclBinding],
                          denies: Sequence[AclBinding]) -> Decision | None:
    """The error of a stored principal that does not parse, where Kafka meets it.

    StandardAuthorizer (3.3.0 onwards, KAFKA-13651) parses each ACL's principal as its walk
    meets it and stops at the first DENY that applies (``checkSection``,
    ``StandardAuthorizerData.java@3.9.0-rc3:385-434``).  So the question fails only when an
    unparseable ACL is met before every applying DENY; otherwise that DENY decides.  Only records
    hold such an ACL, so this runs rarely and follows the walk's order (:func:`.walk.kafka_walk`)."""
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


def default_decision(config: AuthorizerConfig, rule: Rule, acls: tuple[AclBinding, ...] = ()) -> Decision:
    """What ``allow.everyone.if.no.acl.found`` answers (steps 5 and, for KAFKA-14435, 7)."""
    result = ALLOWED if config.allow_everyone_if_no_acl_found else DENIED
    flag = "true" if config.allow_everyone_if_no_acl_found else "false"
    return Decision(result, rule, acls, detail=f"allow.everyone.if.no.acl.found={flag}")


def matching_acls(
    acls: Iterable[AclBinding], resource: ResourcePattern, profile: Profile
) -> list[AclBinding]:
    """Step 4: the set R of ACLs that match the (literal) resource by name."""
    same_type = [a for a in acls if a.pattern.resource_type is resource.resource_type]
    if profile.prefix_shadowing_bug:
        return shadowed_lookup(same_type, resource.name)
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
