"""Hypothesis strategies for authorizer scenarios: dependent and bounded.

As cedar-spec does it: first draw a small *pool* (principals, hosts, resource
names sharing prefixes), then ACLs drawn from the pool so that matches actually
happen, then many questions per ACL set drawn from the same pool.  Random
independent strings would almost never match an ACL and would test nothing.

Two modes:

* ``well-formed``: what Kafka's controller accepts;
* ``hostile``: adds what only records or odd clients produce: empty names,
  ``*`` in odd places, ``user:*`` and other principal types, principals with
  extra colons, unicode, IPv6 renderings, the name ``hardcode``, non-literal
  actions.

Every strategy is built inside a function, never at import time, so loading the
pytest plugin has no Hypothesis side effects.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.cases import ByTypeQuery, LogStep, Query, Scenario, SnapshotStep
from kafka_conformance.reference.acl import (
    CLUSTER_NAME,
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.by_resource_type import PROBE_NAME
from kafka_conformance.reference.decision import Action, RequestContext
from kafka_conformance.reference.principal import parse_principal
from kafka_conformance.reference.records import AddAcl, RemoveAcl

__all__ = ["MODES", "Pool", "acl_sets", "pools", "record_logs", "scenarios"]

MODES = ("well-formed", "hostile")

_TYPES = (ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID)
_OPS = tuple(op for op in AclOperation if op not in (AclOperation.ANY, AclOperation.UNKNOWN))
_REQUEST_OPS = tuple(op for op in _OPS if op is not AclOperation.ALL)
_IMPLYING = (AclOperation.READ, AclOperation.ALTER_CONFIGS)
"""Operations whose ALLOW implies another (DESCRIBE, DESCRIBE_CONFIGS): always in play."""


@attrs.frozen
class Pool:
    principals: tuple[str, ...]
    hosts: tuple[str, ...]
    names: tuple[str, ...]
    hostile: bool
    ops: tuple[AclOperation, ...] = _REQUEST_OPS
    types: tuple[ResourceType, ...] = _TYPES


def _names(hostile: bool) -> st.SearchStrategy[str]:
    alphabet = "fob-" if not hostile else "foFO-*\u00e9"
    plain = st.text(alphabet=alphabet, min_size=1, max_size=5)
    if hostile:
        return st.one_of(plain, st.sampled_from(["", "*", "**", PROBE_NAME, "hard", "f*", "ü"]))
    return plain


@st.composite
def pools(draw: st.DrawFn, mode: str = "well-formed") -> Pool:
    hostile = mode == "hostile"
    users = draw(st.lists(st.sampled_from(["alice", "bob", "carol", "dave"]), min_size=1, max_size=3, unique=True))
    principals = [f"User:{u}" for u in users]
    # Kafka accepts any principal type; `User:*` must match them too, `User:alice` must not.
    principals += draw(st.lists(st.sampled_from(["Group:ops", "ServiceAccount:alice"]), min_size=1, max_size=1))
    if hostile:
        # The same name in another case must be a different principal.
        principals.append(f"User:{users[0].upper()}")
        principals += draw(
            st.lists(
                st.sampled_from(["Group:ops", "user:*", "User:a:b", "User:", "User:ALICE", "Svc:*"]),
                max_size=2,
                unique=True,
            )
        )
    hosts = ["10.0.0.1", "10.0.0.2"]
    if hostile:
        hosts += draw(st.lists(st.sampled_from(["0:0:0:0:0:0:0:1", "::1", "localhost", ""]), max_size=2, unique=True))
    base = draw(st.lists(_names(hostile), min_size=1, max_size=4, unique=True))
    # Add prefixes and extensions of the drawn names so PREFIXED ACLs and requests meet.
    extended = set(base)
    if hostile:
        extended.add(base[0].swapcase())  # resource names are case-sensitive
    for name in base:
        if len(name) > 1:
            extended.add(name[: draw(st.integers(1, len(name) - 1))])
        extended.add(name + draw(st.sampled_from(["o", "-x", "bar"])))
    # A few operations and resource types per scenario, so ACLs and questions meet.
    ops = draw(st.lists(st.sampled_from(_REQUEST_OPS), min_size=1, max_size=3, unique=True))
    types = draw(st.lists(st.sampled_from((*_TYPES, ResourceType.CLUSTER)), min_size=1, max_size=2, unique=True))
    return Pool(tuple(principals), tuple(hosts), tuple(sorted(extended)), hostile, tuple(ops), tuple(types))


def _resource(draw: st.DrawFn, pool: Pool, rtype: ResourceType, *, for_acl: bool) -> str:
    if rtype is ResourceType.CLUSTER:
        return CLUSTER_NAME
    choices = list(pool.names)
    if for_acl:
        choices.append("*")
    return draw(st.sampled_from(choices))


@st.composite
def acl_bindings(draw: st.DrawFn, pool: Pool, caps: Capabilities) -> AclBinding:
    profile = caps.profile()
    rtype = draw(st.sampled_from(pool.types))
    name = _resource(draw, pool, rtype, for_acl=True)
    patterns = [PatternType.LITERAL]
    if caps.prefixed and rtype is not ResourceType.CLUSTER:
        patterns.append(PatternType.PREFIXED)
    pattern = draw(st.sampled_from(patterns))
    ops = [op for op in (*pool.ops, AclOperation.ALL, *_IMPLYING) if profile.supports(op)]
    return AclBinding(
        ResourcePattern(rtype, name, pattern),
        _entry(draw, pool, ops),
    )


def _entry(draw: st.DrawFn, pool: Pool, ops: Sequence[AclOperation]) -> AccessControlEntry:
    return AccessControlEntry(
        draw(st.sampled_from([*pool.principals, "User:*"])),
        draw(st.sampled_from([*pool.hosts, "*"])),
        draw(st.sampled_from(list(ops))),
        draw(st.sampled_from([AclPermissionType.ALLOW, AclPermissionType.DENY])),
    )


@st.composite
def acl_sets(draw: st.DrawFn, pool: Pool, caps: Capabilities, max_size: int = 8) -> tuple[tuple[str, AclBinding], ...]:
    acls, _ = draw(_acls_with_focus(pool, caps, max_size))
    return acls


@st.composite
def _acls_with_focus(
    draw: st.DrawFn, pool: Pool, caps: Capabilities, max_size: int = 8
) -> tuple[tuple[tuple[str, AclBinding], ...], list[AclBinding]]:
    """ACLs from the pool, plus *mirrors*: an existing ACL with the permission
    flipped and perhaps the principal, host, operation, pattern or resource
    widened.  Mirrors make DENY-versus-ALLOW conflicts, the heart of the
    semantics, common; the mirrored pairs are returned as the *focus* that
    questions are aimed at."""
    bindings = draw(st.lists(acl_bindings(pool, caps), max_size=max_size, unique=True))
    focus: list[AclBinding] = []
    for _ in range(draw(st.integers(1, 4)) if bindings else 0):
        source = draw(st.sampled_from(bindings))
        mirror = _mirror(draw, source, caps)
        if mirror not in bindings:
            bindings.append(mirror)
            focus += [source, mirror]
    if caps.prefixed and draw(st.integers(0, 2)) == 0:
        chain = _prefix_chain(draw, pool, caps)
        bindings += [b for b in chain if b not in bindings]
        focus += [*chain, chain[-1]]  # the longest prefix is the one a lookup finds first
    return tuple((f"acl-{i}", b) for i, b in enumerate(bindings)), focus


def _prefix_chain(draw: st.DrawFn, pool: Pool, caps: Capabilities) -> list[AclBinding]:
    """Nested PREFIXED ACLs on successive prefixes of one name with mixed
    permissions (the shape of Kafka's StandardAuthorizerPropertyTest): every
    prefix must count, the shortest (one character) and the longest alike."""
    rtypes = [t for t in pool.types if t is not ResourceType.CLUSTER] or [ResourceType.TOPIC]
    rtype = draw(st.sampled_from(rtypes))
    name = draw(st.sampled_from([n for n in pool.names if len(n) >= 2] or ["foo"]))
    entry = _entry(draw, pool, [op for op in (*pool.ops, AclOperation.ALL) if caps.profile().supports(op)])
    cuts = draw(st.lists(st.integers(1, len(name)), min_size=2, max_size=3, unique=True))
    chain = []
    # Alternating permissions: a DENY under an ALLOW (or the reverse) on nested prefixes.
    permission = draw(st.sampled_from([AclPermissionType.ALLOW, AclPermissionType.DENY]))
    for cut in sorted(cuts):
        permission = AclPermissionType.DENY if permission is AclPermissionType.ALLOW else AclPermissionType.ALLOW
        chain.append(AclBinding(ResourcePattern(rtype, name[:cut], PatternType.PREFIXED),
                                attrs.evolve(entry, permission_type=permission)))
    return chain


def _mirror(draw: st.DrawFn, acl: AclBinding, caps: Capabilities) -> AclBinding:
    entry, pattern = acl.entry, acl.pattern
    to_deny = entry.permission_type is AclPermissionType.ALLOW
    flipped = AclPermissionType.DENY if to_deny else AclPermissionType.ALLOW
    widen = draw(st.sampled_from(["none", "principal", "host", "operation", "pattern", "pattern", "wildcard"]))
    principal, host, op = entry.principal, entry.host, entry.operation
    rtype, name, ptype = pattern.resource_type, pattern.name, pattern.pattern_type
    if widen == "principal":
        principal = "User:*"
    elif widen == "host":
        host = "*"
    elif widen == "operation":
        op = draw(st.sampled_from(_related_ops(op, to_deny)))
    elif widen == "pattern" and caps.prefixed and rtype is not ResourceType.CLUSTER and name not in ("", "*"):
        # A prefix of the name (shorter when possible): several prefixes of one name must all count.
        cut = draw(st.integers(1, max(1, len(name) - 1)))
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


def _context(draw: st.DrawFn, pool: Pool) -> RequestContext:
    principal = draw(st.sampled_from(pool.principals))
    return RequestContext(parse_principal(principal), draw(st.sampled_from(pool.hosts)))


@st.composite
def queries(draw: st.DrawFn, pool: Pool, caps: Capabilities, acls: Sequence[AclBinding] = ()) -> Query:
    """A batch of actions; most are aimed at an existing ACL so that it matters."""
    aimed = bool(acls) and draw(st.integers(0, 3)) > 0
    target = draw(st.sampled_from(list(acls))) if aimed else None
    if target is not None and target.entry.principal in pool.principals:
        context = RequestContext(parse_principal(target.entry.principal), _host(draw, pool, target.entry.host))
    elif target is not None and target.entry.principal == "User:*":
        # `User:*` must cover every principal type, not only User: ask as another type when there is one.
        others = [p for p in pool.principals if not p.startswith("User:")]
        use_other = bool(others) and draw(st.booleans())
        who = draw(st.sampled_from(others if use_other else list(pool.principals)))
        context = RequestContext(parse_principal(who), _host(draw, pool, target.entry.host))
    else:
        context = _context(draw, pool)
    actions = []
    for _ in range(draw(st.integers(1, 3))):
        if target is not None and draw(st.booleans()):
            actions.append(_aimed_action(draw, pool, target))
            continue
        rtype = draw(st.sampled_from(pool.types))
        name = _resource(draw, pool, rtype, for_acl=False)
        pattern = PatternType.LITERAL
        if pool.hostile and draw(st.integers(0, 9)) == 0:
            pattern = PatternType.PREFIXED
        op = draw(st.sampled_from((*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS)))
        actions.append(Action(op, ResourcePattern(rtype, name, pattern)))
    return Query(context, tuple(actions))


def _host(draw: st.DrawFn, pool: Pool, acl_host: str) -> str:
    return acl_host if acl_host != "*" and acl_host in pool.hosts else draw(st.sampled_from(pool.hosts))


def _aimed_action(draw: st.DrawFn, pool: Pool, acl: AclBinding) -> Action:
    pattern = acl.pattern
    name = pattern.name
    if pattern.is_wildcard or name == "":
        name = _resource(draw, pool, pattern.resource_type, for_acl=False)
    elif pattern.pattern_type is PatternType.PREFIXED:
        name = name + draw(st.sampled_from(["", "o", "-x"]))
    op = acl.entry.operation
    if op is AclOperation.ALL or draw(st.integers(0, 3)) == 0:
        op = draw(st.sampled_from((*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS)))
    elif draw(st.integers(0, 2)) == 0:
        op = draw(st.sampled_from(_related_ops(op, True)[1:] or [op]))
    return Action(op, ResourcePattern(pattern.resource_type, name))


@st.composite
def config_properties(draw: st.DrawFn, pool: Pool) -> tuple[tuple[str, str], ...]:
    props: list[tuple[str, str]] = []
    supers = draw(st.lists(st.sampled_from(pool.principals), max_size=2, unique=True))
    if supers:
        # Kafka trims entries and skips empty ones (StandardAuthorizer); users write both.
        sep = draw(st.sampled_from([";", " ; ", "; "]))
        pad = draw(st.sampled_from(["", " "]))
        props.append(("super.users", pad + sep.join(supers) + pad))
    if draw(st.integers(0, 3)) > 0:
        # Raw values as users write them: case and padding differ between flavours and versions.
        raw = draw(st.sampled_from(["true", "false", "TRUE", "True", " true", "false "]))
        props.append(("allow.everyone.if.no.acl.found", raw))
    return tuple(props)


@st.composite
def scenarios(draw: st.DrawFn, caps: Capabilities, mode: str = "well-formed") -> Scenario:
    """A configuration, an ACL snapshot and several questions about it."""
    pool = draw(pools(mode))
    acls, focus = draw(_acls_with_focus(pool, caps))
    bindings = [b for _, b in acls]
    aims = bindings + focus * 2  # questions mostly about the conflicting pairs
    qs = tuple(draw(st.lists(queries(pool, caps, aims), min_size=1, max_size=6)))
    by_type: list[ByTypeQuery] = []
    if caps.by_type_variant is not None:
        for _ in range(draw(st.integers(0, 4))):
            by_type.append(
                ByTypeQuery(
                    _context(draw, pool),
                    draw(st.sampled_from(pool.ops)),
                    draw(st.sampled_from(pool.types)),
                )
            )
    return Scenario(
        properties=draw(config_properties(pool)), acls=acls, queries=qs, by_type=tuple(by_type)
    )


@st.composite
def record_logs(draw: st.DrawFn, caps: Capabilities, mode: str = "well-formed") -> Scenario:
    """A valid KIP-801 record log: adds with fresh ids, removals of present ids,
    re-adds of removed ACLs under new ids, and occasional snapshot loads, with
    questions to ask after every step.  The snapshot loaded before the initial
    load is part of the scenario too."""
    pool = draw(pools(mode))
    initial = draw(acl_sets(pool, caps, max_size=3))
    candidates = [b for _, b in draw(acl_sets(pool, caps, max_size=6))] + [b for _, b in initial]
    present: dict[str, AclBinding] = dict(initial)
    steps: list[LogStep] = []
    next_id = 0
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(["add", "add", "remove", "snapshot"]))
        absent = [b for b in candidates if b not in present.values()]
        if kind == "remove" and present:
            victim = draw(st.sampled_from(sorted(present)))
            del present[victim]
            steps.append(RemoveAcl(victim))
        elif kind == "snapshot" and present:
            keep = draw(st.lists(st.sampled_from(sorted(present)), unique=True))
            present = {i: present[i] for i in sorted(keep)}
            steps.append(SnapshotStep(tuple(present.items())))
        elif absent:
            next_id += 1
            acl_id = f"r-{next_id}"
            present[acl_id] = draw(st.sampled_from(absent))
            steps.append(AddAcl(acl_id, present[acl_id]))
    everything = list({b: None for b in candidates})
    qs = tuple(draw(st.lists(queries(pool, caps, everything), min_size=1, max_size=4)))
    return Scenario(properties=draw(config_properties(pool)), acls=initial, records=tuple(steps), queries=qs)
