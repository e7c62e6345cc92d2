"""Edge probes: one ACL and the one question that tells Kafka apart from a careless
imitation, for each hostile trait of the input domain.

Random hostile values meet each other too rarely to discriminate: a question
from ``User:ALICE`` matters only next to an ALLOW for ``User:alice`` on the same
resource and operation.  A probe builds exactly that pair, with the trait as the
only difference, so Kafka's answer (DENIED, or the ACL applies after all) and the
look-alike's differ.  A hostile scenario carries probes of about half the kinds
beside its random part; one well-formed scenario in three carries well-formed ones.
"""

from __future__ import annotations

import attrs

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import ByTypeQuery, Query
from kafka_conformance.authorizer.domain.choices import Choices
from kafka_conformance.authorizer.domain.pool import Pool
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME
from kafka_conformance.reference.authorizer.decision import Action, RequestContext

__all__ = ["EDGE_KINDS", "WELL_FORMED_KINDS", "EdgeProbes", "edge_probes"]

WELL_FORMED_KINDS = (
    "wildcard-other-type", "principal-type", "host-other", "by-type-literal-deny", "by-type-prefix-deny", "by-type-other-host",
    "by-type-wildcard-deny",
)
"""Probes whose every value Kafka's controller accepts."""

EDGE_KINDS = (
    *WELL_FORMED_KINDS,
    "principal-case", "principal-space", "typed-wildcard", "lowercase-user-star",
    "empty-principal-name", "host-empty", "ipv6-rendering", "name-case", "star-glob", "star-name-wildcard",
    "empty-prefix", "empty-literal", "slash", "probe", "super-user-lookalike",
)


@attrs.frozen
class EdgeProbes:
    acls: tuple[AclBinding, ...] = ()
    queries: tuple[Query, ...] = ()
    by_type: tuple[ByTypeQuery, ...] = ()
    super_users: tuple[str, ...] = ()


def edge_probes(c: Choices, pool: Pool, caps: Capabilities) -> EdgeProbes:
    """A few probes of kinds the pool's mode allows and the target's release can hold."""
    standard = caps.profile().is_standard
    kinds = [k for k in (EDGE_KINDS if pool.hostile else WELL_FORMED_KINDS)
             if (standard or k not in ("empty-prefix", "empty-literal"))
             and (caps.prefixed or k not in ("empty-prefix", "by-type-prefix-deny"))]
    out = EdgeProbes()
    # Each kind about every other time: a hostile scenario probes most traits at once, so a
    # run's twenty-odd hostile scenarios leave none of them untried (the shrinker drops the rest).
    for kind in kinds:
        if c.coin():
            out = _merge(out, _probe(c, pool, kind))
    return out


def _merge(a: EdgeProbes, b: EdgeProbes) -> EdgeProbes:
    return EdgeProbes(a.acls + tuple(x for x in b.acls if x not in a.acls), a.queries + b.queries,
                      a.by_type + b.by_type, a.super_users + b.super_users)


def _probe(c: Choices, pool: Pool, kind: str) -> EdgeProbes:
    user = next((p for p in pool.principals if p.startswith("User:") and p[5:].isalpha()), "User:alice")
    # A name of its own ('q' is in no pool's alphabet), so the pool's other ACLs rarely meet the probe.
    name = "q" + c.pick(("a", "ab", "b-c"))
    rtype = c.pick([t for t in pool.types if t is not ResourceType.CLUSTER] or [ResourceType.TOPIC])
    op = c.pick(pool.ops)
    acl_who, acl_host, acl_name, acl_pattern = user, "10.0.0.1", name, PatternType.LITERAL
    who, host, asked = user, "10.0.0.1", name
    supers: tuple[str, ...] = ()
    if kind.startswith("by-type-"):
        return _by_type_probe(c, kind, user, name, rtype, op)
    if kind == "wildcard-other-type":
        acl_who, who = "User:*", c.pick(("Group:ops", "ServiceAccount:" + user[5:]))
    elif kind == "host-other":
        acl_host = "10.0.0.2"
    elif kind == "principal-case":
        who = user.upper()
    elif kind == "principal-space":
        acl_who, who = c.pick(((user, user + " "), (user + " ", user), ("User: " + user[5:], user),
                                    (user, "User: " + user[5:])))
    elif kind == "typed-wildcard":
        acl_who, who = "Group:*", "Group:ops"
    elif kind == "lowercase-user-star":
        acl_who = "user:*"
    elif kind == "principal-type":
        who = "ServiceAccount:" + user[5:]
    elif kind == "empty-principal-name":
        acl_who = "User:"
    elif kind == "host-empty":
        acl_host = ""
    elif kind == "ipv6-rendering":
        acl_host, host = c.pick((("::1", "0:0:0:0:0:0:0:1"), ("0:0:0:0:0:0:0:1", "::1")))
    elif kind == "name-case":
        asked = name.swapcase() if name.swapcase() != name else name.upper() + "x"
    elif kind == "star-glob":
        acl_name = name[:1] + "*"
    elif kind == "star-name-wildcard":
        acl_name, asked = "*", "*" + name
    elif kind == "empty-prefix":
        acl_name, acl_pattern = "", PatternType.PREFIXED
    elif kind == "empty-literal":
        acl_name = ""
    elif kind == "slash":
        asked = name + "/x"
    elif kind == "probe":
        acl_name = asked = PROBE_NAME
    elif kind == "super-user-lookalike":
        supers = (user,)
        who = c.pick((user.upper(), user + " ", "ServiceAccount:" + user[5:]))
    acl = AclBinding(ResourcePattern(rtype, acl_name, acl_pattern),
                     AccessControlEntry(acl_who, acl_host, op, AclPermissionType.ALLOW))
    context = RequestContext(parse_principal(who), host)
    query = Query(context, (Action(op, ResourcePattern(rtype, asked)),))
    by_type = (ByTypeQuery(context, op, rtype),) if kind in ("probe", "typed-wildcard", "host-empty") else ()
    return EdgeProbes((acl,), (query,), by_type, supers)


def _by_type_probe(c: Choices, kind: str, user: str, name: str, rtype: ResourceType,
                   op: AclOperation) -> EdgeProbes:
    """An ALLOW of the type for the caller and what must cancel it (a LITERAL DENY of
    the same name, a PREFIXED DENY of its prefix) or keep it from counting (another host)."""
    entry = AccessControlEntry(user, "10.0.0.1", op, AclPermissionType.ALLOW)
    allow = AclBinding(ResourcePattern(rtype, name, PatternType.LITERAL), entry)
    acls: tuple[AclBinding, ...]
    if kind == "by-type-other-host":
        acls = (attrs.evolve(allow, entry=attrs.evolve(entry, host="10.0.0.2")),)
    else:
        deny_name, deny_pattern = ((name, PatternType.LITERAL) if kind == "by-type-literal-deny"
                                   else ("*", PatternType.LITERAL) if kind == "by-type-wildcard-deny"
                                   else (name[: c.between(1, len(name))], PatternType.PREFIXED))
        deny = AclBinding(ResourcePattern(rtype, deny_name, deny_pattern),
                          attrs.evolve(entry, permission_type=AclPermissionType.DENY))
        acls = (allow, deny)
    return EdgeProbes(acls, (), (ByTypeQuery(RequestContext(parse_principal(user), "10.0.0.1"), op, rtype),))
