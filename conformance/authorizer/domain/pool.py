"""The pool a scenario draws from, and the small cached leaf strategies.

A pool is a handful of principals, hosts, resource names, operations and types
that share prefixes and look-alikes, so that ACLs and questions drawn from it
meet.  A hostile pool adds the domain's edges (see
:mod:`~kafka_conformance.authorizer.domain.classes`) and marks them, so that
draws prefer them half the time.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.reference.acl.values import AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME

__all__ = ["DEFAULT_MODE", "MODES", "Pool", "for_release", "pools"]

H = TypeVar("H", bound=Hashable)

MODES = ("mixed", "well-formed", "hostile")
DEFAULT_MODE = "mixed"
HOSTILE_ONE_IN = 5
"""In ``mixed`` mode one pool in this many is hostile."""

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
    edges: frozenset[str] = frozenset()
    """The hostile principals, hosts and names of the pool: drawn half the time, so
    that every edge class is met in most hostile scenarios, not in a few."""


@functools.lru_cache(maxsize=2)
def _names(hostile: bool) -> st.SearchStrategy[str]:
    alphabet = "fob-" if not hostile else "foFO-*\u00e9"
    plain = st.text(alphabet=alphabet, min_size=1, max_size=5)
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
        # AclAuthorizer stores a resource's ACLs in a ZooKeeper znode named after it: ZooKeeper
        # refuses the path of an empty name (2.4.1 to 3.9.1, seen by the release campaign), and
        # a '/' would be a path separator (refused from 3.3.0, "Failed to create ACL").
        names = tuple(n for n in names if n and "/" not in n) or ("f",)
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
    # Shrinking moves towards 0, so 0 is well-formed: a counterexample is hostile only if it must be.
    hostile = mode == "hostile" or (mode == "mixed" and draw(_ints(0, HOSTILE_ONE_IN - 1)) == HOSTILE_ONE_IN - 1)
    users = draw(_subsets(("alice", "bob", "carol", "dave"), 1, 3))
    principals = [f"User:{u}" for u in users]
    # Kafka accepts any principal type; `User:*` must match them too, `User:alice` must not.
    principals.append(_pick(draw, ("Group:ops", "ServiceAccount:alice", f"Group:{users[0]}")))
    hosts = ["10.0.0.1", "10.0.0.2"]
    edge_principals: list[str] = []
    edge_hosts: list[str] = []
    edge_names: list[str] = []
    if hostile:
        edge_principals += _hostile_principals(draw, users[0])
        edge_hosts += [h for group in _HOSTILE_HOSTS for h in group]
    base = draw(_base_names(hostile))
    # Add prefixes and extensions of the drawn names so PREFIXED ACLs and requests meet.
    extended = set(base)
    if hostile:
        edge_names += [n.swapcase() for n in base if n.swapcase() != n]  # names are case-sensitive
        edge_names += _HOSTILE_NAMES
    for name in base:
        if len(name) > 1:
            extended.add(name[: draw(_ints(1, len(name) - 1))])
        extended.add(name + _pick(draw, ("o", "-x", "bar")))
    # A few operations and resource types per scenario, so ACLs and questions meet.
    ops = draw(_subsets(_REQUEST_OPS, 1, 3))
    types = draw(_subsets((*_TYPES, ResourceType.CLUSTER), 1, 2))
    principals += edge_principals
    hosts += edge_hosts
    extended.update(edge_names)
    return Pool(tuple(dict.fromkeys(principals)), tuple(dict.fromkeys(hosts)), tuple(sorted(extended)), hostile,
                tuple(ops), tuple(types), frozenset(edge_principals + edge_hosts + edge_names))


_HOSTILE_HOSTS = (("::1", "0:0:0:0:0:0:0:1"), ("localhost",), ("",))
_HOSTILE_NAMES = ("", "*f", "**", "f*", PROBE_NAME, "ü", "fo/o", "é-x")
"""Names Kafka treats as plain strings although they look special (no ':' in any)."""


def _choose(draw: st.DrawFn, pool: Pool, choices: Sequence[str]) -> str:
    """One of ``choices``; in a hostile pool, one of its edges half the time."""
    if pool.edges:
        edge = [c for c in choices if c in pool.edges]
        use_edge: bool = draw(_bools())
        if edge and use_edge:
            return _pick(draw, edge)
    return _pick(draw, choices)


def _normal(value: str) -> str:
    return value.lower().replace(" ", "").replace("0:0:0:0:0:0:0:1", "::1")


def _lookalike(draw: st.DrawFn, pool: Pool, value: str, choices: Sequence[str]) -> str:
    """In a hostile pool, often a value that differs from ``value`` only in case,
    spaces or rendering (or a principal of the same name and another type): the
    one Kafka must tell apart from it."""
    if not pool.edges or not draw(_bools()):
        return value
    same = [c for c in choices if c != value and (_normal(c) == _normal(value)
                                                   or c.partition(":")[2] == value.partition(":")[2] != "")]
    return _pick(draw, same) if same else value


def _hostile_principals(draw: st.DrawFn, user: str) -> list[str]:
    """Principals that must stay distinct from their look-alikes: another case,
    spaces, a typed wildcard that is not Kafka's wildcard, odd syntax."""
    return [
        f"User:{user.upper()}",
        _pick(draw, (f"User:{user} ", f"User: {user}")),
        _pick(draw, ("Group:*", "user:*", "Svc:*")),
        _pick(draw, ("User:", "User:a:b")),
    ]
