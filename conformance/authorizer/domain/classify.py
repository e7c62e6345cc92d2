"""Which domain classes a scenario reaches.

A pure function of the scenario and the profile, using the reference's own name
matching (step 4 of :mod:`~kafka_conformance.reference.authorizer.decide`) and
applicability (step 6), so "a PREFIXED ACL matched" means what Kafka means by it.
It looks at inputs and at which ACLs meet which question; it never asks the
target, so it counts the same whatever the target answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kafka_conformance.authorizer.cases import BatchStep, Query, Scenario, SnapshotStep
from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME
from kafka_conformance.reference.authorizer.config import ALLOW_EVERYONE_KEY, SUPER_USERS_KEY, parse_config
from kafka_conformance.reference.authorizer.decide import (
    IMPLIED_BY,
    acl_applies,
    matching_acls,
    name_matches,
    operation_matches,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AclValueError, ConfigError

__all__ = ["classes_of", "super_users_in"]

ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
_IPV6_LOOPBACK = {"::1", "0:0:0:0:0:0:0:1"}


def classes_of(scenario: Scenario, profile: Profile) -> set[str]:
    """Every class the scenario reaches (names from :data:`~.classes.DOMAIN`)."""
    found: set[str] = set()
    _config(scenario.properties, found)
    try:
        parse_config(dict(scenario.properties), profile)
    except ConfigError:
        return found  # Kafka refuses the configuration: nothing else in the case is asked
    acls = list(scenario.bindings)
    supers = super_users_in(scenario.properties)
    allow_everyone = dict(scenario.properties).get(ALLOW_EVERYONE_KEY, "").strip().lower() == "true"
    for acl in acls:
        _acl_traits(acl, found)
    for query in scenario.queries:
        _principal_traits(str(query.context.principal), found)
        if str(query.context.principal) == WILDCARD_PRINCIPAL:
            found.add("principal:wildcard-session")
        if len(query.actions) > 1:
            found.add("action:batch")
        if query.context.host == "":
            found.add("host:empty")
        for action in query.actions:
            _question(query, action, acls, supers, allow_everyone, profile, found)
    for q in scenario.by_type:
        _by_type(q.context, q.operation, q.resource_type, acls, profile, found)
    _records(scenario, found)
    return found


def _flatten(step: object) -> Sequence[object]:
    return step.records if isinstance(step, BatchStep) else (step,)


def super_users_in(properties: Iterable[tuple[str, str]]) -> set[str]:
    """The entries of ``super.users`` as Kafka splits and trims them (no parse: classes count look-alikes)."""
    raw = dict(properties).get(SUPER_USERS_KEY, "")
    return {p.strip() for p in raw.split(";") if p.strip()}


def _config(properties: Iterable[tuple[str, str]], found: set[str]) -> None:
    config = dict(properties)
    supers = config.get(SUPER_USERS_KEY)
    if supers is not None and supers.strip():
        found.add("config:super-users")
        pieces = supers.split(";")
        if any(p != p.strip() for p in pieces if p.strip()):
            found.add("config:super-users-padded")
        if any(not p.strip() for p in pieces):
            found.add("config:super-users-empty-entry")
        if any(p.strip() and ":" not in p for p in pieces):
            found.add("config:super-users-malformed")
    flag = config.get(ALLOW_EVERYONE_KEY)
    if flag is not None:
        if flag.strip().lower() == "true":
            found.add("config:allow-everyone-true")
        if flag.strip().lower() not in ("true", "false"):
            found.add("config:allow-everyone-invalid")
        elif flag.strip() not in ("true", "false"):
            found.add("config:allow-everyone-case")
        if flag != flag.strip():
            found.add("config:allow-everyone-padded")


def _principal_traits(principal: str, found: set[str]) -> None:
    _, _, name = principal.partition(":")
    if name == "" or ":" in name:
        found.add("principal:odd-syntax")


def _name_traits(name: str, found: set[str]) -> None:
    if name == "":
        found.add("name:empty")
    if "*" in name and name != "*":
        found.add("name:star-inside")
    if not name.isascii():
        found.add("name:non-ascii")
    if "/" in name:
        found.add("name:slash")


def _acl_traits(acl: AclBinding, found: set[str]) -> None:
    _name_traits(acl.pattern.name, found)
    _principal_traits(acl.entry.principal, found)
    if acl.pattern.name == "hardcode":
        found.add("name:probe")
    if acl.entry.host == "":
        found.add("host:empty")
    if ":" not in acl.entry.principal:  # only records hold one, and only StandardAuthorizer can
        found.add("principal:colonless-stored")
    if acl.pattern.resource_type is ResourceType.UNKNOWN:  # the same: only records hold one
        found.add("type:unknown-stored")


def _applies(acl: AclBinding, context: RequestContext, op: AclOperation, profile: Profile) -> bool:
    try:
        return acl_applies(acl, context, op, profile)
    except AclValueError:
        return False


def _question(query: Query, action: Action, acls: list[AclBinding], supers: set[str], allow_everyone: bool,
              profile: Profile, found: set[str]) -> None:
    ctx, resource = query.context, action.resource
    caller = str(ctx.principal)
    found.add("principal:user" if ctx.principal.principal_type == "User" else "principal:other-type")
    _name_traits(resource.name, found)
    if resource.resource_type is ResourceType.CLUSTER:
        found.add("name:cluster")
    if resource.pattern_type is not PatternType.LITERAL:
        found.add("action:non-literal")
        return
    found.add("action:literal")
    same_type = [a for a in acls if a.pattern.resource_type is resource.resource_type]
    on_resource = matching_acls(same_type, resource, profile)
    applying = [a for a in on_resource if _applies(a, ctx, action.operation, profile)]
    if caller in supers:
        found.add("decision:super-user")
        if any(a.entry.permission_type is DENY for a in applying):
            found.add("decision:super-user-over-deny")
        return
    if not applying and (on_resource or not allow_everyone):
        # A near miss discriminates only where Kafka's answer is DENIED: no ACL applies
        # and the default does not grant, so an imitation that lets it apply says ALLOWED.
        for acl in same_type:
            _near_misses(acl, resource.name, caller, ctx, action.operation, profile, found)
    _match_traits(on_resource, resource.name, found)
    if any(a.entry.operation is AclOperation.UNKNOWN for a in on_resource):
        found.add("op:unknown-stored")
    if any(a.pattern.pattern_type is PatternType.UNKNOWN for a in on_resource):
        found.add("name:unknown-pattern")
    if any(a.entry.permission_type is AclPermissionType.UNKNOWN for a in applying):
        found.add("decision:unknown-permission")
    for acl in on_resource:
        _entry_traits(acl, applying, ctx, caller, action.operation, found)
    denies = [a for a in applying if a.entry.permission_type is DENY]
    allows = [a for a in applying if a.entry.permission_type is ALLOW]
    if not on_resource:
        found.add("decision:no-acl-allowed" if allow_everyone else "decision:no-acl-denied")
    elif denies:
        found.add("decision:deny")
    elif allows:
        found.add("decision:allow")
        if all(a.pattern.pattern_type is PatternType.PREFIXED and a.pattern.name == "" for a in allows):
            found.add("name:empty-prefix-decides")
        if resource.name == PROBE_NAME and all(a.pattern.name == PROBE_NAME for a in allows):
            found.add("name:probe-decides")
    else:
        found.add("decision:none-applied")
    _conflicts(denies, allows, on_resource, caller, resource.name, found)


def _near_misses(acl: AclBinding, name: str, caller: str, ctx: RequestContext, op: AclOperation,
                 profile: Profile, found: set[str]) -> None:
    """ACLs of the question's resource type that would apply but for one trait that
    Kafka distinguishes and a careless implementation may not: the question
    discriminates only then."""
    entry, pattern = acl.entry, acl.pattern
    who_ok = entry.principal in (caller, WILDCARD_PRINCIPAL)
    host_ok = entry.host in (WILDCARD_HOST, ctx.host)
    op_ok = operation_matches(entry.operation, op, entry.permission_type is ALLOW)
    name_ok = name_matches(pattern, name, profile)
    if entry.permission_type is not ALLOW:
        return
    if name_ok and who_ok and host_ok and not op_ok:
        found.add("op:unrelated")
    if not op_ok:
        return
    if name_ok and who_ok and not host_ok:
        found.add("host:other")
        if entry.host == "" and ctx.host:
            found.add("host:empty-acl")
    if who_ok and host_ok and not name_ok and pattern.pattern_type is PatternType.LITERAL and pattern.name == "":
        found.add("name:empty-literal-not-wildcard")
    if name_ok and host_ok and entry.principal.endswith(":") and caller.startswith(entry.principal) \
            and caller != entry.principal:
        found.add("principal:empty-name-not-wildcard")
    if who_ok and host_ok and pattern.pattern_type is PatternType.LITERAL and len(pattern.name) > 1 \
            and pattern.name.endswith("*") and name != pattern.name and name.startswith(pattern.name[:-1]):
        found.add("name:star-not-a-glob")
    if who_ok and host_ok and pattern.pattern_type is PatternType.LITERAL and "/" in name \
            and name.split("/", 1)[0] == pattern.name:
        found.add("name:slash-not-a-separator")
    if who_ok and host_ok and pattern.is_wildcard and name.startswith("*") and name != "*":
        found.add("name:star-name-and-wildcard")
    if who_ok and host_ok and not name_ok:
        if pattern.pattern_type is PatternType.LITERAL and pattern.name and name.startswith(pattern.name):
            found.add("name:literal-on-prefix")
        if pattern.pattern_type is PatternType.PREFIXED and len(pattern.name) > len(name) \
                and pattern.name.startswith(name):
            found.add("name:prefixed-too-long")
        if pattern.name.lower() == name.lower():
            found.add("name:case-variant")
    if name_ok and host_ok and not who_ok:
        if entry.principal.lower() == caller.lower():
            found.add("principal:case-variant")
        if entry.principal.strip() == caller.strip():
            found.add("principal:outer-space-variant")
        elif entry.principal.replace(" ", "") == caller.replace(" ", ""):
            found.add("principal:whitespace-variant")
    if name_ok and who_ok and not host_ok and entry.host in _IPV6_LOOPBACK and ctx.host in _IPV6_LOOPBACK:
        found.add("host:ipv6-rendering")


def _match_traits(on_resource: list[AclBinding], name: str, found: set[str]) -> None:
    prefixes = set()
    for acl in on_resource:
        pattern = acl.pattern
        if pattern.pattern_type is PatternType.PREFIXED:
            prefixes.add(pattern.name)
            found.add("name:prefixed-equal" if pattern.name == name else "name:prefixed-longer")
            if len(pattern.name) == 1:
                found.add("name:prefixed-one-char")
        elif pattern.is_wildcard:
            found.add("name:wildcard")
        else:
            found.add("name:literal-exact")
    if len(prefixes) > 1:
        found.add("name:prefixed-nested")


def _entry_traits(acl: AclBinding, applying: list[AclBinding], ctx: RequestContext, caller: str,
                  op: AclOperation, found: set[str]) -> None:
    entry = acl.entry
    kind, _, name = entry.principal.partition(":")
    covers_op = operation_matches(entry.operation, op, entry.permission_type is ALLOW)
    if covers_op and entry.host in (WILDCARD_HOST, ctx.host) and entry.permission_type is ALLOW:
        if name == "*" and entry.principal != WILDCARD_PRINCIPAL and kind.lower() == ctx.principal.principal_type.lower():
            found.add("principal:typed-wildcard")
        if kind != ctx.principal.principal_type and name == ctx.principal.name and entry.principal != WILDCARD_PRINCIPAL:
            found.add("principal:same-name-other-type")
    if entry.permission_type is DENY and entry.operation in IMPLIED_BY.get(op, ()) \
            and entry.principal in (caller, WILDCARD_PRINCIPAL):
        found.add("op:implied-deny")
    if acl not in applying:
        return
    if entry.principal == WILDCARD_PRINCIPAL:
        found.add("principal:wildcard-applies")
        if ctx.principal.principal_type != "User" and entry.permission_type is ALLOW \
                and not any(a.entry.permission_type is DENY for a in applying):
            found.add("principal:wildcard-other-type")
    found.add("host:wildcard" if entry.host == WILDCARD_HOST else "host:exact")
    if entry.operation is AclOperation.ALL:
        found.add("op:all")
    elif entry.operation is op:
        found.add("op:exact")
    elif entry.permission_type is ALLOW:
        found.add("op:implied-allow")


def _conflicts(denies: list[AclBinding], allows: list[AclBinding], on_resource: list[AclBinding], caller: str,
               name: str, found: set[str]) -> None:
    if denies and allows:
        found.add("conflict:deny-and-allow")
        deny_patterns = {a.pattern.pattern_type for a in denies}
        allow_patterns = {a.pattern.pattern_type for a in allows}
        if PatternType.PREFIXED in deny_patterns and any(not a.pattern.is_wildcard and a.pattern.pattern_type
                                                         is PatternType.LITERAL for a in allows):
            found.add("conflict:prefix-deny-literal-allow")
        if PatternType.PREFIXED in allow_patterns and any(not a.pattern.is_wildcard and a.pattern.pattern_type
                                                          is PatternType.LITERAL for a in denies):
            found.add("conflict:prefix-allow-literal-deny")
        if any(a.pattern.is_wildcard for a in denies) and any(a.pattern.name == name and
                                                              a.pattern.pattern_type is PatternType.LITERAL
                                                              for a in allows):
            found.add("conflict:wildcard-deny-exact-allow")
    prefixed = {(a.pattern.name, a.entry.permission_type) for a in denies + allows
                if a.pattern.pattern_type is PatternType.PREFIXED}
    if len({n for n, _ in prefixed}) > 1 and len({p for _, p in prefixed}) > 1:
        found.add("conflict:nested-prefixes-mixed")
    if allows and any(a.entry.permission_type is DENY and a.entry.principal not in (caller, WILDCARD_PRINCIPAL)
                      for a in on_resource):
        found.add("conflict:deny-for-another")


def _by_type(ctx: RequestContext, op: AclOperation, rtype: ResourceType, acls: list[AclBinding],
             profile: Profile, found: set[str]) -> None:
    mine = [a for a in acls if a.pattern.resource_type is rtype and a.entry.principal in (str(ctx.principal),
                                                                                          WILDCARD_PRINCIPAL)
            and a.entry.host in (WILDCARD_HOST, ctx.host)
            and a.entry.operation in (op, AclOperation.ALL)]
    if any(a.pattern.resource_type is rtype and a.entry.permission_type is ALLOW
           and a.entry.principal in (str(ctx.principal), WILDCARD_PRINCIPAL) and a.entry.host not in (WILDCARD_HOST, ctx.host)
           and a.entry.operation in (op, AclOperation.ALL) for a in acls):
        found.add("by-type:allow-for-another-host")
    if any(a.pattern.resource_type is rtype and a.entry.host in (WILDCARD_HOST, ctx.host) and ":" not in a.entry.principal
           for a in acls):
        found.add("by-type:colonless-stored")
    if not mine:
        found.add("by-type:no-acl")
        return
    allows = [a for a in mine if a.entry.permission_type is ALLOW]
    denies = [a for a in mine if a.entry.permission_type is DENY]
    if any(a.pattern.pattern_type is PatternType.LITERAL and not a.pattern.is_wildcard for a in allows):
        found.add("by-type:literal-allow")
    if any(a.pattern.is_wildcard for a in denies) and allows:
        found.add("by-type:wildcard-deny")
    deny_prefixes = [a.pattern.name for a in denies if a.pattern.pattern_type is PatternType.PREFIXED]
    if any(a.pattern.name.startswith(p) for a in allows for p in deny_prefixes):
        found.add("by-type:prefix-deny-over-allow")
    literal_denies = {a.pattern.name for a in denies if a.pattern.pattern_type is PatternType.LITERAL}
    if any(a.pattern.pattern_type is PatternType.LITERAL and a.pattern.name in literal_denies for a in allows):
        found.add("by-type:literal-deny-cancels")
    kinds = {(a.entry.permission_type, a.pattern.pattern_type) for a in mine}
    if len(kinds) == 4:
        found.add("by-type:mixed-patterns")


def _records(scenario: Scenario, found: set[str]) -> None:
    present: dict[str, AclBinding] = dict(scenario.acls)
    removed: set[AclBinding] = set()
    for step in scenario.records:
        if isinstance(step, SnapshotStep):
            found.add("records:snapshot")
            present = dict(step.acls)
            continue
        batch = _flatten(step)
        if len(batch) > 1:
            found.add("records:batch")
        for record in batch:
            if isinstance(record, RemoveAcl):
                if record.id not in present:
                    found.add("records:unknown-remove")
                    continue
                found.add("records:remove")
                removed.add(present.pop(record.id))
            elif isinstance(record, AddAcl):
                if record.id in present:
                    found.add("records:duplicate-id")
                elif record.binding in present.values():
                    found.add("records:duplicate-content")
                else:
                    found.add("records:re-add" if record.binding in removed else "records:add")
                    present[record.id] = record.binding
