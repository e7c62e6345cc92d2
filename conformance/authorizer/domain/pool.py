"""The pool a scenario draws from.

A pool is a handful of principals, hosts, resource names, operations and types
that share prefixes and look-alikes, so that ACLs and questions drawn from it
meet.  A hostile pool adds the domain's edges (see
:mod:`~kafka_conformance.authorizer.domain.classes`) and marks them, so that
draws prefer them half the time.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.domain.choices import Choices, seeded
from kafka_conformance.reference.acl.values import AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME

__all__ = ["DEFAULT_MODE", "MODES", "Pool", "draw_pool", "for_release", "pools"]

MODES = ("mixed", "well-formed", "hostile")
DEFAULT_MODE = "mixed"
HOSTILE_ONE_IN = 5
"""In ``mixed`` mode one pool in this many is hostile."""

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
    edges: frozenset[str] = frozenset()
    """The hostile principals, hosts and names of the pool: drawn half the time, so
    that every edge class is met in most hostile scenarios, not in a few."""


def _names(c: Choices, hostile: bool) -> list[str]:
    alphabet = "fob-" if not hostile else "foFO-*\u00e9"
    return c.unique(lambda c: c.text(alphabet, 1, 5), 1, 4)


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
    return seeded(draw_pool, mode)


def draw_pool(c: Choices, mode: str) -> Pool:
    hostile = mode == "hostile" or (mode == "mixed" and c.below(HOSTILE_ONE_IN) == HOSTILE_ONE_IN - 1)
    users = c.subset(("alice", "bob", "carol", "dave"), 1, 3)
    principals = [f"User:{u}" for u in users]
    # Kafka accepts any principal type; `User:*` must match them too, `User:alice` must not.
    principals.append(c.pick(("Group:ops", "ServiceAccount:alice", f"Group:{users[0]}")))
    # Principal names are case-sensitive too, and a user name in capitals is one Kafka accepts:
    # well-formed input, in every pool (a hostile pool draws it as an edge, half the time).
    cased_user = f"User:{users[0].upper()}"
    hosts = ["10.0.0.1", "10.0.0.2"]
    edge_principals: list[str] = []
    edge_hosts: list[str] = []
    edge_names: list[str] = []
    if hostile:
        edge_principals += [cased_user, *_hostile_principals(c, users[0])]
        edge_hosts += [h for group in _HOSTILE_HOSTS for h in group]
    else:
        principals.append(cased_user)
    base = _names(c, hostile)
    # Add prefixes and extensions of the drawn names so PREFIXED ACLs and requests meet.
    extended = set(base)
    # Names are case-sensitive, and Kafka accepts names that differ only in case: well-formed
    # input, so every pool has them (a hostile pool draws them as edges, half the time).
    cased = [n.swapcase() for n in base if n.swapcase() != n]
    if hostile:
        edge_names += cased
        edge_names += _HOSTILE_NAMES
    else:
        extended.update(cased)
    for name in base:
        if len(name) > 1:
            extended.add(name[: c.between(1, len(name) - 1)])
        extended.add(name + c.pick(("o", "-x", "bar")))
    # A few operations and resource types per scenario, so ACLs and questions meet.
    ops = c.subset(_REQUEST_OPS, 1, 3)
    types = c.subset((*_TYPES, ResourceType.CLUSTER), 1, 2)
    principals += edge_principals
    hosts += edge_hosts
    extended.update(edge_names)
    return Pool(tuple(dict.fromkeys(principals)), tuple(dict.fromkeys(hosts)), tuple(sorted(extended)), hostile,
                tuple(ops), tuple(types), frozenset(edge_principals + edge_hosts + edge_names))


_HOSTILE_HOSTS = (("::1", "0:0:0:0:0:0:0:1"), ("localhost",), ("",))
_HOSTILE_NAMES = ("", "*f", "**", "f*", PROBE_NAME, "ü", "fo/o", "é-x")
"""Names Kafka treats as plain strings although they look special (no ':' in any)."""


def _choose(c: Choices, pool: Pool, choices: Sequence[str]) -> str:
    """One of ``choices``; in a hostile pool, one of its edges half the time."""
    if pool.edges:
        edge = [x for x in choices if x in pool.edges]
        use_edge = c.coin()
        if edge and use_edge:
            return c.pick(edge)
    return c.pick(choices)


def _normal(value: str) -> str:
    return value.lower().replace(" ", "").replace("0:0:0:0:0:0:0:1", "::1")


def _lookalike(c: Choices, pool: Pool, value: str, choices: Sequence[str]) -> str:
    """In a hostile pool, often a value that differs from ``value`` only in case,
    spaces or rendering (or a principal of the same name and another type): the
    one Kafka must tell apart from it."""
    if not pool.edges or not c.coin():
        return value
    same = [x for x in choices if x != value and (_normal(x) == _normal(value)
                                                   or x.partition(":")[2] == value.partition(":")[2] != "")]
    return c.pick(same) if same else value


def _hostile_principals(c: Choices, user: str) -> list[str]:
    """Principals that must stay distinct from their look-alikes: spaces, a typed
    wildcard that is not Kafka's wildcard, odd syntax."""
    return [
        c.pick((f"User:{user} ", f"User: {user}")),
        c.pick(("Group:*", "user:*", "Svc:*")),
        c.pick(("User:", "User:a:b")),
    ]
