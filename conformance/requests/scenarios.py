"""What the suite asks: ACL sets for the user ``alice`` and the requests she sends.

The input domain is small on purpose: every ACL that can decide one of the requests below
(topics ``orders`` and ``other``, transactional id ``tx1``, the cluster), written the ways
Kafka distinguishes (LITERAL, PREFIXED, the wildcard name, the wildcard principal, a host
that is not hers, another user, ALLOW and DENY, ALL and an operation that does not imply
the one asked).  The named scenarios are the rows of KIP-98's and KIP-679's tables; the
generated ones combine up to four ACLs of the domain.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

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
from kafka_conformance.reference.requests.rules import (
    AddPartitionsToTxn,
    EndTxn,
    FindCoordinator,
    InitProducerId,
    Produce,
    Request,
)

__all__ = ["DOMAIN", "NAMED", "REQUESTS", "USER", "Scenario", "describe_binding", "scenarios"]

USER = "alice"
TXN = "tx1"
TOPICS = ("orders", "other")


@attrs.frozen
class Scenario:
    """ACLs the admin creates before ``alice`` sends every request of :data:`REQUESTS`."""

    acls: tuple[AclBinding, ...]
    name: str = "generated"

    def describe(self) -> str:
        return "; ".join(describe_binding(b) for b in self.acls) or "(no ACL)"


def describe_binding(b: AclBinding) -> str:
    pattern = "" if b.pattern.pattern_type is PatternType.LITERAL else f" {b.pattern.pattern_type.name}"
    return (f"{b.entry.permission_type.name} {b.entry.principal} {b.entry.operation.name} "
            f"{b.pattern.resource_type.name} {b.pattern.name!r}{pattern} from {b.entry.host}")


REQUESTS: tuple[tuple[str, Request], ...] = (
    ("InitProducerId", InitProducerId()),
    ("InitProducerId(tx1)", InitProducerId(TXN)),
    ("Produce idempotent", Produce(TOPICS, idempotent=True)),
    ("Produce", Produce(TOPICS)),
    ("Produce transactional(tx1)", Produce(("orders",), transactional_id=TXN)),
    ("AddPartitionsToTxn(tx1)", AddPartitionsToTxn(TXN, TOPICS)),
    ("EndTxn(tx1)", EndTxn(TXN)),
    ("FindCoordinator(tx1)", FindCoordinator(TXN, "transaction")),
)
"""Each request with the name reports give it, in the order they are sent."""


def _acl(permission: str, operation: AclOperation, rtype: ResourceType, name: str, pattern: PatternType = PatternType.LITERAL,
         principal: str = f"User:{USER}", host: str = "*") -> AclBinding:
    return AclBinding(ResourcePattern(rtype, name, pattern),
                      AccessControlEntry(principal, host, operation, AclPermissionType[permission]))


T, X, C = ResourceType.TOPIC, ResourceType.TRANSACTIONAL_ID, ResourceType.CLUSTER
W, D, IW, ALL, READ = (AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALL,
                       AclOperation.READ)
PREFIXED = PatternType.PREFIXED

DOMAIN: tuple[AclBinding, ...] = (
    _acl("ALLOW", W, T, "orders"),
    _acl("ALLOW", W, T, "ord", PREFIXED),
    _acl("ALLOW", W, T, "*"),
    _acl("ALLOW", W, T, "orders", principal="User:*"),
    _acl("ALLOW", W, T, "orders", principal="User:bob"),
    _acl("ALLOW", W, T, "orders", host="10.0.0.1"),
    _acl("ALLOW", ALL, T, "other"),
    _acl("ALLOW", READ, T, "other"),
    _acl("DENY", W, T, "orders"),
    _acl("DENY", W, T, "o", PREFIXED),
    _acl("DENY", W, T, "other", host="10.0.0.1"),
    _acl("ALLOW", W, X, TXN),
    _acl("ALLOW", D, X, TXN),
    _acl("ALLOW", W, X, "tx", PREFIXED),
    _acl("ALLOW", ALL, X, "*"),
    _acl("DENY", W, X, TXN),
    _acl("DENY", D, X, "*"),
    _acl("ALLOW", IW, C, CLUSTER_NAME),
    _acl("ALLOW", ALL, C, CLUSTER_NAME),
    _acl("DENY", IW, C, CLUSTER_NAME),
)
"""Every ACL a generated scenario draws from."""

NAMED: tuple[Scenario, ...] = (
    Scenario((), "no ACL: everything refused"),
    Scenario((_acl("ALLOW", W, T, "orders"),), "KIP-679: WRITE on one topic, no IDEMPOTENT_WRITE"),
    Scenario((_acl("ALLOW", IW, C, CLUSTER_NAME),), "IDEMPOTENT_WRITE only"),
    Scenario((_acl("ALLOW", W, T, "orders"), _acl("ALLOW", IW, C, CLUSTER_NAME)), "KIP-98: an idempotent producer's ACLs"),
    Scenario((_acl("ALLOW", W, T, "*"), _acl("ALLOW", W, X, TXN), _acl("ALLOW", D, X, TXN)),
             "KIP-98: a transactional producer's ACLs"),
    Scenario((_acl("ALLOW", W, T, "ord", PREFIXED), _acl("DENY", W, T, "orders")), "KIP-679: DENY dominates the only ALLOW"),
    Scenario((_acl("ALLOW", W, X, "tx", PREFIXED),), "WRITE on the transactional id by prefix, no DESCRIBE"),
    Scenario((_acl("ALLOW", ALL, T, "other"), _acl("DENY", W, T, "o", PREFIXED)), "ALL on a topic denied by prefix"),
)


def scenarios() -> st.SearchStrategy[Scenario]:
    """Up to four distinct ACLs of :data:`DOMAIN`."""
    return st.lists(st.sampled_from(DOMAIN), max_size=4, unique=True).map(lambda acls: Scenario(tuple(acls)))
