"""Hypothesis strategies for authorizer scenarios: dependent and bounded.

As cedar-spec does it: first draw a small *pool* (principals, hosts, resource
names sharing prefixes), then ACLs drawn from the pool so that matches actually
happen, then many questions per ACL set drawn from the same pool.  Random
independent strings would almost never match an ACL and would test nothing.

Three modes:

* ``mixed`` (the default): about one scenario in five is hostile, the rest
  well-formed, so a run with no options meets the edges of the input domain
  while most cases still read as ordinary ACL sets;
* ``well-formed``: what Kafka's controller accepts;
* ``hostile``: adds what only records, odd clients and hand-written properties
  files produce: empty names, ``*`` and ``/`` inside names, ``user:*`` and
  ``Group:*``, principals differing only in case or spaces, principals with
  extra colons, unicode, IPv6 renderings, the name ``hardcode``, non-literal
  actions, empty and malformed ``super.users`` entries, flag values that are
  neither true nor false.

The classes of :mod:`~kafka_conformance.authorizer.domain.classes` are the
checklist: edge probes (:mod:`~kafka_conformance.authorizer.domain.edges`) and
look-alike questions make most of them common around the cases of the coverage
phase (:mod:`~kafka_conformance.authorizer.domain.coverage`), which reach every
class that applies before any of these is drawn.

Every strategy is built inside a function, never at import time, so loading the
pytest plugin has no Hypothesis side effects.

Speed: a scenario is one Hypothesis draw (a seed) and every choice inside it
comes from :class:`~kafka_conformance.authorizer.domain.choices.Choices` (why:
that module's docstring); the strategies are built once per argument tuple.  The
choices offered and their probabilities are those of 0.1.0, but a seed yields
other cases than it did before: a corpus's generator version (the kit's, the
generator's and Hypothesis's) says which kit made it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import ByTypeQuery, Query, Scenario
from kafka_conformance.authorizer.domain.choices import Choices, seeded
from kafka_conformance.authorizer.domain.pool import (
    _IMPLYING,
    DEFAULT_MODE,
    MODES,
    Pool,
    _choose,
    _lookalike,
    draw_pool,
    for_release,
    pools,
)
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    CLUSTER_NAME,
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext

__all__ = ["DEFAULT_MODE", "MODES", "Pool", "acl_sets", "pools", "scenarios"]


def _resource(c: Choices, pool: Pool, rtype: ResourceType, *, for_acl: bool) -> str:
    if rtype is ResourceType.CLUSTER:
        return CLUSTER_NAME
    return _choose(c, pool, (*pool.names, "*") if for_acl else pool.names)


def acl_bindings(pool: Pool, caps: Capabilities) -> st.SearchStrategy[AclBinding]:
    """One ACL over the pool's names, principals, hosts and operations."""
    return seeded(_acl_binding, pool, caps)


def _acl_binding(c: Choices, pool: Pool, caps: Capabilities) -> AclBinding:
    rtype = c.pick(pool.types)
    name = _resource(c, pool, rtype, for_acl=True)
    patterns: tuple[PatternType, ...] = (PatternType.LITERAL,)
    if caps.prefixed and rtype is not ResourceType.CLUSTER:
        patterns = (PatternType.LITERAL, PatternType.PREFIXED)
    pattern = c.pick(patterns)
    return AclBinding(
        ResourcePattern(rtype, name, pattern),
        _entry(c, pool, _acl_ops(pool, caps)),
    )


@functools.lru_cache(maxsize=1024)
def _acl_ops(pool: Pool, caps: Capabilities) -> tuple[AclOperation, ...]:
    profile = caps.profile()
    return tuple(op for op in (*pool.ops, AclOperation.ALL, *_IMPLYING) if profile.supports(op))


@functools.lru_cache(maxsize=1024)
def _entry_ops(pool: Pool, caps: Capabilities) -> tuple[AclOperation, ...]:
    """The operations of prefix chains and dominance groups (ALL, not the implying ones)."""
    profile = caps.profile()
    return tuple(op for op in (*pool.ops, AclOperation.ALL) if profile.supports(op))


_PERMISSIONS = (AclPermissionType.ALLOW, AclPermissionType.DENY)


def _entry(c: Choices, pool: Pool, ops: Sequence[AclOperation]) -> AccessControlEntry:
    return AccessControlEntry(
        _choose(c, pool, (*pool.principals, "User:*")),
        _choose(c, pool, (*pool.hosts, "*")),
        c.pick(ops),
        c.pick(_PERMISSIONS),
    )


def acl_sets(pool: Pool, caps: Capabilities, max_size: int = 8) -> st.SearchStrategy[tuple[tuple[str, AclBinding], ...]]:
    """An ACL snapshot over the pool, with mirrors, prefix chains and edge ACLs."""
    return seeded(_acl_set, pool, caps, max_size)


def _acl_set(c: Choices, pool: Pool, caps: Capabilities, max_size: int) -> tuple[tuple[str, AclBinding], ...]:
    return _acls_with_focus(c, pool, caps, max_size)[0]


def _acls_with_focus(
    c: Choices, pool: Pool, caps: Capabilities, max_size: int = 8
) -> tuple[tuple[tuple[str, AclBinding], ...], list[AclBinding]]:
    """ACLs from the pool, plus *mirrors*: an existing ACL with the permission
    flipped and perhaps the principal, host, operation, pattern or resource
    widened.  Mirrors make DENY-versus-ALLOW conflicts, the heart of the
    semantics, common; the mirrored pairs are returned as the *focus* that
    questions are aimed at."""
    bindings = c.unique(lambda c: _acl_binding(c, pool, caps), 0, max_size)
    focus: list[AclBinding] = []
    for _ in range(c.count(1, 4) if bindings else 0):
        source = c.pick(bindings)
        mirror = _mirror(c, source, caps)
        if mirror not in bindings:
            bindings.append(mirror)
            focus += [source, mirror]
    if caps.prefixed and c.below(3) == 0:
        chain = _prefix_chain(c, pool, caps)
        bindings += [b for b in chain if b not in bindings]
        focus += [*chain, chain[-1]]  # the longest prefix is the one a lookup finds first
    if pool.edges and bindings:
        # Edge ACLs: a hostile name, principal or host in an ACL the questions are aimed at.
        for _ in range(c.count(1, 2)):
            edge = _edge_acl(c, pool, c.pick(bindings))
            if edge not in bindings:
                bindings.append(edge)
                focus += [edge, edge]
    if caps.prefixed and c.below(3) == 0:
        group = _dominance_group(c, pool, caps)
        bindings += [b for b in group if b not in bindings]
        focus += group
    return tuple((f"acl-{i}", b) for i, b in enumerate(bindings)), focus


def _prefix_chain(c: Choices, pool: Pool, caps: Capabilities) -> list[AclBinding]:
    """Nested PREFIXED ACLs on successive prefixes of one name with mixed
    permissions (the shape of Kafka's StandardAuthorizerPropertyTest): every
    prefix must count, the shortest (one character) and the longest alike."""
    rtypes = [t for t in pool.types if t is not ResourceType.CLUSTER] or [ResourceType.TOPIC]
    rtype = c.pick(rtypes)
    name = c.pick([n for n in pool.names if len(n) >= 2] or ["foo"])
    entry = _entry(c, pool, _entry_ops(pool, caps))
    cuts = c.subset(range(1, len(name) + 1), 2, 3)
    chain = []
    # Alternating permissions: a DENY under an ALLOW (or the reverse) on nested prefixes.
    permission = c.pick(_PERMISSIONS)
    for cut in sorted(cuts):
        permission = AclPermissionType.DENY if permission is AclPermissionType.ALLOW else AclPermissionType.ALLOW
        chain.append(AclBinding(ResourcePattern(rtype, name[:cut], PatternType.PREFIXED),
                                attrs.evolve(entry, permission_type=permission)))
    return chain


def _edge_acl(c: Choices, pool: Pool, acl: AclBinding) -> AclBinding:
    """``acl`` with its name, principal or host replaced by one of the pool's edges."""
    which = c.pick(("name", "principal", "host"))
    edges = sorted(e for e in pool.edges if (e in pool.names if which == "name" else
                                              e in pool.principals if which == "principal" else e in pool.hosts))
    if not edges or (acl.pattern.resource_type is ResourceType.CLUSTER and which == "name"):
        return acl
    value = c.pick(edges)
    if which == "name":
        return attrs.evolve(acl, pattern=attrs.evolve(acl.pattern, name=value))
    if which == "principal":
        return attrs.evolve(acl, entry=attrs.evolve(acl.entry, principal=value))
    return attrs.evolve(acl, entry=attrs.evolve(acl.entry, host=value))


_KINDS = tuple((p, t) for p in (AclPermissionType.ALLOW, AclPermissionType.DENY)
               for t in (PatternType.LITERAL, PatternType.PREFIXED))


def _dominance_group(c: Choices, pool: Pool, caps: Capabilities) -> list[AclBinding]:
    """ACLs for one caller, host and operation on prefix-related names of one type,
    with both permissions and both pattern types: which one dominates which is what
    authorize and authorize_by_resource_type must get right together."""
    rtypes = [t for t in pool.types if t is not ResourceType.CLUSTER] or [ResourceType.TOPIC]
    rtype = c.pick(rtypes)
    name = c.pick([n for n in pool.names if len(n) >= 2] or ["foo"])
    entry = _entry(c, pool, _entry_ops(pool, caps))
    group = []
    for permission, ptype in _KINDS:
        cut = c.between(1, len(name))
        group.append(AclBinding(ResourcePattern(rtype, name[:cut], ptype),
                                attrs.evolve(entry, permission_type=permission)))
    return group


_WIDEN = ("none", "principal", "host", "operation", "pattern", "pattern", "wildcard", "wildcard")


def _mirror(c: Choices, acl: AclBinding, caps: Capabilities) -> AclBinding:
    entry, pattern = acl.entry, acl.pattern
    to_deny = entry.permission_type is AclPermissionType.ALLOW
    flipped = AclPermissionType.DENY if to_deny else AclPermissionType.ALLOW
    widen = c.pick(_WIDEN)
    principal, host, op = entry.principal, entry.host, entry.operation
    rtype, name, ptype = pattern.resource_type, pattern.name, pattern.pattern_type
    if widen == "principal":
        principal = "User:*"
    elif widen == "host":
        host = "*"
    elif widen == "operation":
        op = c.pick(_related_ops(op, to_deny))
    elif widen == "pattern" and caps.prefixed and rtype is not ResourceType.CLUSTER and name not in ("", "*"):
        # A prefix of the name (shorter when possible): several prefixes of one name must all count.
        cut = c.between(1, max(1, len(name) - 1))
        name, ptype = name[:cut], PatternType.PREFIXED
    elif widen == "wildcard":
        name, ptype = "*", PatternType.LITERAL
    return AclBinding(ResourcePattern(rtype, name, ptype), AccessControlEntry(principal, host, op, flipped))


def _related_ops(op: AclOperation, to_deny: bool) -> list[AclOperation]:
    """Operations whose interplay with ``op`` Kafka defines: ALL, and implication
    in the direction that matters (a DENY of an implying operation must not deny
    the implied one; an ALLOW of an implying operation must grant it)."""
    related = [AclOperation.ALL]
    implying = {AclOperation.DESCRIBE: (AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER),
                AclOperation.DESCRIBE_CONFIGS: (AclOperation.ALTER_CONFIGS,)}
    if op in implying:
        related += implying[op]
    for implied, sources in implying.items():
        if op in sources:
            related.append(implied)
    return related


def _context(c: Choices, pool: Pool) -> RequestContext:
    principal = _choose(c, pool, pool.principals)
    return RequestContext(parse_principal(principal), _choose(c, pool, pool.hosts))


def queries(pool: Pool, caps: Capabilities, acls: Sequence[AclBinding] = ()) -> st.SearchStrategy[Query]:
    """A batch of actions; most are aimed at an existing ACL so that it matters."""
    return seeded(_query, pool, caps, tuple(acls))


def _query_list(c: Choices, pool: Pool, caps: Capabilities, acls: Sequence[AclBinding], max_size: int) -> list[Query]:
    """Between one and ``max_size`` questions (``lists(queries(...), min_size=1)``)."""
    return [_query(c, pool, caps, acls) for _ in range(c.count(1, max_size))]


def _query(c: Choices, pool: Pool, caps: Capabilities, acls: Sequence[AclBinding]) -> Query:
    aimed = bool(acls) and c.below(4) > 0
    target = c.pick(acls) if aimed else None
    if target is not None and target.entry.principal in pool.principals:
        who = _lookalike(c, pool, target.entry.principal, pool.principals)
        context = RequestContext(parse_principal(who), _host(c, pool, target.entry.host))
    elif target is not None and target.entry.principal == "User:*":
        # `User:*` must cover every principal type, not only User: ask as another type when there is one.
        others = [p for p in pool.principals if not p.startswith("User:")]
        use_other = bool(others) and c.coin()
        who = c.pick(others if use_other else pool.principals)
        context = RequestContext(parse_principal(who), _host(c, pool, target.entry.host))
    else:
        context = _context(c, pool)
    actions = []
    asked = (*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS)
    for _ in range(c.count(1, 3)):
        if target is not None and c.coin():
            actions.append(_aimed_action(c, pool, target))
            continue
        rtype = c.pick(pool.types)
        name = _resource(c, pool, rtype, for_acl=False)
        pattern = PatternType.LITERAL
        if pool.hostile and c.below(10) == 0:
            pattern = PatternType.PREFIXED
        op = c.pick(asked)
        actions.append(Action(op, ResourcePattern(rtype, name, pattern)))
    return Query(context, tuple(actions))


def _host(c: Choices, pool: Pool, acl_host: str) -> str:
    if acl_host != "*" and acl_host in pool.hosts:
        return _lookalike(c, pool, acl_host, [h for h in pool.hosts if ":" in h])
    return _choose(c, pool, pool.hosts)


_EXTENSIONS = ("", "o", "-x")


def _aimed_action(c: Choices, pool: Pool, acl: AclBinding) -> Action:
    pattern = acl.pattern
    name = pattern.name
    if pattern.is_wildcard or name == "" or ("*" in name and not pool.hostile):
        # A PREFIXED '*' extended would ask a name holding '*': hostile input, not in a well-formed pool.
        name = _resource(c, pool, pattern.resource_type, for_acl=False)
    elif pattern.pattern_type is PatternType.PREFIXED:
        name = name + c.pick(_EXTENSIONS)
    else:
        name = _lookalike(c, pool, name, pool.names)
    op = acl.entry.operation
    if op is AclOperation.ALL or c.below(4) == 0:
        op = c.pick((*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS))
    elif c.below(3) == 0:
        op = c.pick(_related_ops(op, True)[1:] or [op])
    return Action(op, ResourcePattern(pattern.resource_type, name))


_SEPARATORS = (";", " ; ", "; ")
_PADS = ("", " ")
_RAW_BOOLEANS = ("true", "false", "TRUE", "True", " true", "false ")
_HOSTILE_BOOLEANS = ("yes", "1", "", "tru")
_HOSTILE_SUPERS = (";;", ";", ";alice")
"""An empty entry in the middle, a trailing one, an entry that is not Type:name."""


def _config_properties(c: Choices, pool: Pool) -> tuple[tuple[str, str], ...]:
    """Raw properties as a user's file holds them: padding, case, empty and
    malformed entries (the last two hostile only: they make Kafka refuse the
    configuration, so they are drawn rarely)."""
    props: list[tuple[str, str]] = []
    supers = c.subset(pool.principals, 0, 2)
    odd = pool.hostile and c.below(3) == 2
    if odd and not supers:
        supers = [pool.principals[0]]
    if supers:
        # Kafka trims entries and skips empty ones (StandardAuthorizer); users write both.
        sep = c.pick(_SEPARATORS)
        pad = c.pick(_PADS)
        raw = pad + sep.join(supers) + pad
        if odd:
            extra = c.pick(_HOSTILE_SUPERS)
            raw = raw + extra + (supers[0] if extra == ";;" else "")
        props.append(("super.users", raw))
    if c.below(4) > 0:
        # Raw values as users write them: case and padding differ between flavours and versions.
        choices = _HOSTILE_BOOLEANS if pool.hostile and c.coin() else _RAW_BOOLEANS
        props.append(("allow.everyone.if.no.acl.found", c.pick(choices)))
    return tuple(props)


def scenarios(caps: Capabilities, mode: str = DEFAULT_MODE) -> st.SearchStrategy[Scenario]:
    """A configuration, an ACL snapshot and several questions about it."""
    return seeded(draw_scenario, caps, mode)


def draw_scenario(c: Choices, caps: Capabilities, mode: str) -> Scenario:
    """One scenario, every choice from ``c``."""
    pool = for_release(draw_pool(c, mode), caps)
    acls, focus = _acls_with_focus(c, pool, caps)
    bindings = [b for _, b in acls]
    aims = bindings + focus * 2  # questions mostly about the conflicting pairs
    qs = tuple(_query_list(c, pool, caps, aims, 6))
    by_type: list[ByTypeQuery] = []
    if caps.by_type_variant is not None:
        for _ in range(c.count(0, 4)):
            by_type.append(_by_type_query(c, pool, focus or bindings))
    properties = _config_properties(c, pool)
    if pool.hostile or c.below(3) == 2:
        from kafka_conformance.authorizer.domain.edges import edge_probes

        probes = edge_probes(c, pool, caps)
        extra = [b for b in probes.acls if b not in bindings]
        acls += tuple((f"acl-{len(acls) + i}", b) for i, b in enumerate(extra))
        qs += probes.queries
        if caps.by_type_variant is not None:
            by_type += probes.by_type
        if probes.super_users:
            config = dict(properties)
            config["super.users"] = ";".join(filter(None, (config.get("super.users", ""), *probes.super_users)))
            properties = tuple(config.items())
    return Scenario(properties=properties, acls=acls, queries=qs, by_type=tuple(by_type))


def _by_type_query(c: Choices, pool: Pool, aims: Sequence[AclBinding]) -> ByTypeQuery:
    """Mostly aimed: asked as an ACL's principal, from its host, for its operation
    and type, so that the ACLs of that type that dominate each other all count."""
    if not aims or c.below(4) == 0:
        return ByTypeQuery(_context(c, pool), c.pick(pool.ops), c.pick(pool.types))
    acl = c.pick(aims)
    entry = acl.entry
    who = entry.principal if entry.principal in pool.principals else c.pick(pool.principals)
    op = entry.operation if entry.operation is not AclOperation.ALL else c.pick(pool.ops)
    return ByTypeQuery(RequestContext(parse_principal(who), _host(c, pool, entry.host)), op,
                       acl.pattern.resource_type)
