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

Speed: a scenario takes about eighty draws.  Building a fresh ``sampled_from``
or ``lists`` for each draw made strategy construction and validation cost more
than the drawing itself, so every leaf and list strategy comes from a small
cache keyed by its arguments (:func:`_sample`, :func:`_ints`, ...), built on
first use.  The choices offered are those of 0.1.0, but the draws are structured
differently, so a seed yields other cases than it did under 0.1.0: a corpus's
generator version (the kit's and Hypothesis's) says which kit made it.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import ByTypeQuery, LogStep, Query, Scenario, SnapshotStep
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
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["MODES", "Pool", "acl_sets", "pools", "record_logs", "scenarios"]

H = TypeVar("H", bound=Hashable)

MODES = ("well-formed", "hostile")

_TYPES = (ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID)
_OPS = tuple(op for op in AclOperation if op not in (AclOperation.ANY, AclOperation.UNKNOWN))
_REQUEST_OPS = tuple(op for op in _OPS if op is not AclOperation.ALL)
_IMPLYING = (AclOperation.READ, AclOperation.ALTER_CONFIGS)
"""Operations whose ALLOW implies another (DESCRIBE, DESCRIBE_CONFIGS): always in play."""


@functools.lru_cache(maxsize=4096)
def _sample(choices: tuple[H, ...]) -> st.SearchStrategy[H]:
    """``sampled_from`` over a tuple, built once per distinct tuple."""
    return st.sampled_from(choices)


@functools.lru_cache(maxsize=256)
def _ints(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


@functools.lru_cache(maxsize=1)
def _bools() -> st.SearchStrategy[bool]:
    return st.booleans()


@functools.lru_cache(maxsize=1024)
def _subsets(choices: tuple[H, ...], min_size: int, max_size: int | None) -> st.SearchStrategy[list[H]]:
    """Lists of distinct elements of ``choices``."""
    return st.lists(_sample(choices), min_size=min_size, max_size=max_size, unique=True)


def _pick(draw: st.DrawFn, choices: Sequence[H]) -> H:
    return draw(_sample(tuple(choices)))


def _cached(factory: Any) -> Any:
    """A strategy factory that returns the same strategy object for the same
    (hashable) arguments, so Hypothesis validates it once."""
    return functools.lru_cache(maxsize=1024)(factory)


@attrs.frozen
class Pool:
    principals: tuple[str, ...]
    hosts: tuple[str, ...]
    names: tuple[str, ...]
    hostile: bool
    ops: tuple[AclOperation, ...] = _REQUEST_OPS
    types: tuple[ResourceType, ...] = _TYPES


@functools.lru_cache(maxsize=2)
def _names(hostile: bool) -> st.SearchStrategy[str]:
    alphabet = "fob-" if not hostile else "foFO-*\u00e9"
    plain = st.text(alphabet=alphabet, min_size=1, max_size=5)
    if hostile:
        return st.one_of(plain, st.sampled_from(["", "*", "**", PROBE_NAME, "hard", "f*", "ü"]))
    return plain


@functools.lru_cache(maxsize=2)
def _base_names(hostile: bool) -> st.SearchStrategy[list[str]]:
    return st.lists(_names(hostile), min_size=1, max_size=4, unique=True)


def for_release(pool: Pool, caps: Capabilities) -> Pool:
    """The pool without what the target's release cannot hold: operations and resource types it
    has no constant for (CREATE_TOKENS and USER before 3.3: no request of that release can carry
    them, and AclAuthorizer 2.4 throws KafkaException for them), and for AclAuthorizer the empty
    resource name.  The same pool object for StandardAuthorizer releases that know every value,
    so generation there is unchanged."""
    profile = caps.profile()
    ops = tuple(op for op in pool.ops if profile.supports(op))
    types = tuple(t for t in pool.types if profile.supports(t))
    names = pool.names
    if not profile.is_standard:
        # AclAuthorizer stores a resource's ACLs in a ZooKeeper znode named after it, and ZooKeeper
        # refuses the path of an empty name (2.4.1 to 3.9.1, seen by the release campaign).
        names = tuple(n for n in names if n) or ("f",)
    if ops == pool.ops and types == pool.types and names == pool.names:
        return pool
    return attrs.evolve(pool, ops=ops or (AclOperation.READ,), types=types or (ResourceType.TOPIC,), names=names)


def pools(mode: str = "well-formed") -> st.SearchStrategy[Pool]:
    """The pool a scenario's ACLs and questions are drawn from."""
    return _pools(mode)


@functools.lru_cache(maxsize=len(MODES))
def _pools(mode: str) -> st.SearchStrategy[Pool]:
    return _draw_pool(mode)


@st.composite
def _draw_pool(draw: st.DrawFn, mode: str) -> Pool:
    hostile = mode == "hostile"
    users = draw(_subsets(("alice", "bob", "carol", "dave"), 1, 3))
    principals = [f"User:{u}" for u in users]
    # Kafka accepts any principal type; `User:*` must match them too, `User:alice` must not.
    principals.append(_pick(draw, ("Group:ops", "ServiceAccount:alice")))
    if hostile:
        # The same name in another case must be a different principal.
        principals.append(f"User:{users[0].upper()}")
        principals += draw(_subsets(("Group:ops", "user:*", "User:a:b", "User:", "User:ALICE", "Svc:*"), 0, 2))
    hosts = ["10.0.0.1", "10.0.0.2"]
    if hostile:
        hosts += draw(_subsets(("0:0:0:0:0:0:0:1", "::1", "localhost", ""), 0, 2))
    base = draw(_base_names(hostile))
    # Add prefixes and extensions of the drawn names so PREFIXED ACLs and requests meet.
    extended = set(base)
    if hostile:
        extended.add(base[0].swapcase())  # resource names are case-sensitive
    for name in base:
        if len(name) > 1:
            extended.add(name[: draw(_ints(1, len(name) - 1))])
        extended.add(name + _pick(draw, ("o", "-x", "bar")))
    # A few operations and resource types per scenario, so ACLs and questions meet.
    ops = draw(_subsets(_REQUEST_OPS, 1, 3))
    types = draw(_subsets((*_TYPES, ResourceType.CLUSTER), 1, 2))
    return Pool(tuple(principals), tuple(hosts), tuple(sorted(extended)), hostile, tuple(ops), tuple(types))


def _resource(draw: st.DrawFn, pool: Pool, rtype: ResourceType, *, for_acl: bool) -> str:
    if rtype is ResourceType.CLUSTER:
        return CLUSTER_NAME
    return _pick(draw, (*pool.names, "*") if for_acl else pool.names)


def acl_bindings(pool: Pool, caps: Capabilities) -> st.SearchStrategy[AclBinding]:
    """One ACL over the pool's names, principals, hosts and operations."""
    return _acl_bindings(pool, caps)


@_cached
@st.composite
def _acl_bindings(draw: st.DrawFn, pool: Pool, caps: Capabilities) -> AclBinding:
    rtype = _pick(draw, pool.types)
    name = _resource(draw, pool, rtype, for_acl=True)
    patterns: tuple[PatternType, ...] = (PatternType.LITERAL,)
    if caps.prefixed and rtype is not ResourceType.CLUSTER:
        patterns = (PatternType.LITERAL, PatternType.PREFIXED)
    pattern = _pick(draw, patterns)
    return AclBinding(
        ResourcePattern(rtype, name, pattern),
        _entry(draw, pool, _acl_ops(pool, caps)),
    )


@functools.lru_cache(maxsize=1024)
def _acl_ops(pool: Pool, caps: Capabilities) -> tuple[AclOperation, ...]:
    profile = caps.profile()
    return tuple(op for op in (*pool.ops, AclOperation.ALL, *_IMPLYING) if profile.supports(op))


@functools.lru_cache(maxsize=1024)
def _binding_lists(pool: Pool, caps: Capabilities, max_size: int) -> st.SearchStrategy[list[AclBinding]]:
    return st.lists(acl_bindings(pool, caps), max_size=max_size, unique=True)


_PERMISSIONS = (AclPermissionType.ALLOW, AclPermissionType.DENY)


def _entry(draw: st.DrawFn, pool: Pool, ops: Sequence[AclOperation]) -> AccessControlEntry:
    return AccessControlEntry(
        _pick(draw, (*pool.principals, "User:*")),
        _pick(draw, (*pool.hosts, "*")),
        _pick(draw, ops),
        _pick(draw, _PERMISSIONS),
    )


@st.composite
def acl_sets(draw: st.DrawFn, pool: Pool, caps: Capabilities, max_size: int = 8) -> tuple[tuple[str, AclBinding], ...]:
    acls, _ = _acls_with_focus(draw, pool, caps, max_size)
    return acls


def _acls_with_focus(
    draw: st.DrawFn, pool: Pool, caps: Capabilities, max_size: int = 8
) -> tuple[tuple[tuple[str, AclBinding], ...], list[AclBinding]]:
    """ACLs from the pool, plus *mirrors*: an existing ACL with the permission
    flipped and perhaps the principal, host, operation, pattern or resource
    widened.  Mirrors make DENY-versus-ALLOW conflicts, the heart of the
    semantics, common; the mirrored pairs are returned as the *focus* that
    questions are aimed at."""
    bindings = draw(_binding_lists(pool, caps, max_size))
    focus: list[AclBinding] = []
    for _ in range(draw(_ints(1, 4)) if bindings else 0):
        source = _pick(draw, bindings)
        mirror = _mirror(draw, source, caps)
        if mirror not in bindings:
            bindings.append(mirror)
            focus += [source, mirror]
    if caps.prefixed and draw(_ints(0, 2)) == 0:
        chain = _prefix_chain(draw, pool, caps)
        bindings += [b for b in chain if b not in bindings]
        focus += [*chain, chain[-1]]  # the longest prefix is the one a lookup finds first
    return tuple((f"acl-{i}", b) for i, b in enumerate(bindings)), focus


def _prefix_chain(draw: st.DrawFn, pool: Pool, caps: Capabilities) -> list[AclBinding]:
    """Nested PREFIXED ACLs on successive prefixes of one name with mixed
    permissions (the shape of Kafka's StandardAuthorizerPropertyTest): every
    prefix must count, the shortest (one character) and the longest alike."""
    rtypes = [t for t in pool.types if t is not ResourceType.CLUSTER] or [ResourceType.TOPIC]
    rtype = _pick(draw, rtypes)
    name = _pick(draw, [n for n in pool.names if len(n) >= 2] or ["foo"])
    entry = _entry(draw, pool, [op for op in (*pool.ops, AclOperation.ALL) if caps.profile().supports(op)])
    cuts = draw(_subsets(tuple(range(1, len(name) + 1)), 2, 3))
    chain = []
    # Alternating permissions: a DENY under an ALLOW (or the reverse) on nested prefixes.
    permission = _pick(draw, _PERMISSIONS)
    for cut in sorted(cuts):
        permission = AclPermissionType.DENY if permission is AclPermissionType.ALLOW else AclPermissionType.ALLOW
        chain.append(AclBinding(ResourcePattern(rtype, name[:cut], PatternType.PREFIXED),
                                attrs.evolve(entry, permission_type=permission)))
    return chain


_WIDEN = ("none", "principal", "host", "operation", "pattern", "pattern", "wildcard")


def _mirror(draw: st.DrawFn, acl: AclBinding, caps: Capabilities) -> AclBinding:
    entry, pattern = acl.entry, acl.pattern
    to_deny = entry.permission_type is AclPermissionType.ALLOW
    flipped = AclPermissionType.DENY if to_deny else AclPermissionType.ALLOW
    widen = _pick(draw, _WIDEN)
    principal, host, op = entry.principal, entry.host, entry.operation
    rtype, name, ptype = pattern.resource_type, pattern.name, pattern.pattern_type
    if widen == "principal":
        principal = "User:*"
    elif widen == "host":
        host = "*"
    elif widen == "operation":
        op = _pick(draw, _related_ops(op, to_deny))
    elif widen == "pattern" and caps.prefixed and rtype is not ResourceType.CLUSTER and name not in ("", "*"):
        # A prefix of the name (shorter when possible): several prefixes of one name must all count.
        cut = draw(_ints(1, max(1, len(name) - 1)))
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
    principal = _pick(draw, pool.principals)
    return RequestContext(parse_principal(principal), _pick(draw, pool.hosts))


def queries(pool: Pool, caps: Capabilities, acls: Sequence[AclBinding] = ()) -> st.SearchStrategy[Query]:
    """A batch of actions; most are aimed at an existing ACL so that it matters."""
    return _queries(pool, caps, tuple(acls))


@functools.lru_cache(maxsize=1024)
def _query_lists(pool: Pool, caps: Capabilities, acls: tuple[AclBinding, ...], max_size: int) -> st.SearchStrategy[list[Query]]:
    return st.lists(_queries(pool, caps, acls), min_size=1, max_size=max_size)


@_cached
@st.composite
def _queries(draw: st.DrawFn, pool: Pool, caps: Capabilities, acls: tuple[AclBinding, ...]) -> Query:
    aimed = bool(acls) and draw(_ints(0, 3)) > 0
    target = _pick(draw, acls) if aimed else None
    if target is not None and target.entry.principal in pool.principals:
        context = RequestContext(parse_principal(target.entry.principal), _host(draw, pool, target.entry.host))
    elif target is not None and target.entry.principal == "User:*":
        # `User:*` must cover every principal type, not only User: ask as another type when there is one.
        others = [p for p in pool.principals if not p.startswith("User:")]
        use_other = bool(others) and draw(_bools())
        who = _pick(draw, others if use_other else pool.principals)
        context = RequestContext(parse_principal(who), _host(draw, pool, target.entry.host))
    else:
        context = _context(draw, pool)
    actions = []
    asked = (*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS)
    for _ in range(draw(_ints(1, 3))):
        if target is not None and draw(_bools()):
            actions.append(_aimed_action(draw, pool, target))
            continue
        rtype = _pick(draw, pool.types)
        name = _resource(draw, pool, rtype, for_acl=False)
        pattern = PatternType.LITERAL
        if pool.hostile and draw(_ints(0, 9)) == 0:
            pattern = PatternType.PREFIXED
        op = _pick(draw, asked)
        actions.append(Action(op, ResourcePattern(rtype, name, pattern)))
    return Query(context, tuple(actions))


def _host(draw: st.DrawFn, pool: Pool, acl_host: str) -> str:
    return acl_host if acl_host != "*" and acl_host in pool.hosts else _pick(draw, pool.hosts)


_EXTENSIONS = ("", "o", "-x")


def _aimed_action(draw: st.DrawFn, pool: Pool, acl: AclBinding) -> Action:
    pattern = acl.pattern
    name = pattern.name
    if pattern.is_wildcard or name == "":
        name = _resource(draw, pool, pattern.resource_type, for_acl=False)
    elif pattern.pattern_type is PatternType.PREFIXED:
        name = name + _pick(draw, _EXTENSIONS)
    op = acl.entry.operation
    if op is AclOperation.ALL or draw(_ints(0, 3)) == 0:
        op = _pick(draw, (*pool.ops, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS))
    elif draw(_ints(0, 2)) == 0:
        op = _pick(draw, _related_ops(op, True)[1:] or [op])
    return Action(op, ResourcePattern(pattern.resource_type, name))


_SEPARATORS = (";", " ; ", "; ")
_PADS = ("", " ")
_RAW_BOOLEANS = ("true", "false", "TRUE", "True", " true", "false ")


def _config_properties(draw: st.DrawFn, pool: Pool) -> tuple[tuple[str, str], ...]:
    props: list[tuple[str, str]] = []
    supers = draw(_subsets(pool.principals, 0, 2))
    if supers:
        # Kafka trims entries and skips empty ones (StandardAuthorizer); users write both.
        sep = _pick(draw, _SEPARATORS)
        pad = _pick(draw, _PADS)
        props.append(("super.users", pad + sep.join(supers) + pad))
    if draw(_ints(0, 3)) > 0:
        # Raw values as users write them: case and padding differ between flavours and versions.
        raw = _pick(draw, _RAW_BOOLEANS)
        props.append(("allow.everyone.if.no.acl.found", raw))
    return tuple(props)


def scenarios(caps: Capabilities, mode: str = "well-formed") -> st.SearchStrategy[Scenario]:
    """A configuration, an ACL snapshot and several questions about it."""
    return _scenarios(caps, mode)


@_cached
@st.composite
def _scenarios(draw: st.DrawFn, caps: Capabilities, mode: str) -> Scenario:
    pool = for_release(draw(pools(mode)), caps)
    acls, focus = _acls_with_focus(draw, pool, caps)
    bindings = [b for _, b in acls]
    aims = bindings + focus * 2  # questions mostly about the conflicting pairs
    qs = tuple(draw(_query_lists(pool, caps, tuple(aims), 6)))
    by_type: list[ByTypeQuery] = []
    if caps.by_type_variant is not None:
        for _ in range(draw(_ints(0, 4))):
            by_type.append(ByTypeQuery(_context(draw, pool), _pick(draw, pool.ops), _pick(draw, pool.types)))
    return Scenario(properties=_config_properties(draw, pool), acls=acls, queries=qs, by_type=tuple(by_type))


_STEP_KINDS = ("add", "add", "remove", "snapshot")


def record_logs(caps: Capabilities, mode: str = "well-formed") -> st.SearchStrategy[Scenario]:
    """A valid KIP-801 record log: adds with fresh ids, removals of present ids,
    re-adds of removed ACLs under new ids, and occasional snapshot loads, with
    questions to ask after every step.  The snapshot loaded before the initial
    load is part of the scenario too."""
    return _record_logs(caps, mode)


@_cached
@st.composite
def _record_logs(draw: st.DrawFn, caps: Capabilities, mode: str) -> Scenario:
    pool = for_release(draw(pools(mode)), caps)
    initial, _ = _acls_with_focus(draw, pool, caps, max_size=3)
    candidates = [b for _, b in _acls_with_focus(draw, pool, caps, max_size=6)[0]] + [b for _, b in initial]
    present: dict[str, AclBinding] = dict(initial)
    steps: list[LogStep] = []
    next_id = 0
    for _ in range(draw(_ints(1, 10))):
        kind = _pick(draw, _STEP_KINDS)
        absent = [b for b in candidates if b not in present.values()]
        if kind == "remove" and present:
            victim = _pick(draw, sorted(present))
            del present[victim]
            steps.append(RemoveAcl(victim))
        elif kind == "snapshot" and present:
            keep = draw(_subsets(tuple(sorted(present)), 0, None))
            present = {i: present[i] for i in sorted(keep)}
            steps.append(SnapshotStep(tuple(present.items())))
        elif absent:
            next_id += 1
            acl_id = f"r-{next_id}"
            present[acl_id] = _pick(draw, absent)
            steps.append(AddAcl(acl_id, present[acl_id]))
    everything = tuple({b: None for b in candidates})
    qs = tuple(draw(_query_lists(pool, caps, everything, 4)))
    return Scenario(properties=_config_properties(draw, pool), acls=initial, records=tuple(steps), queries=qs)
