"""Hypothesis strategies for your own ``@given`` tests: ACLs, questions, record logs, producer traces.

The kit's suites draw their cases from generators tuned to reach every input class
(:mod:`kafka_conformance.authorizer.domain`); each of their cases is one opaque draw,
and the kit shrinks a failing one itself.  The strategies here are for the property
*you* write about your authorizer or broker, next to the kit's: built from Hypothesis's
own combinators, so Hypothesis generates, shrinks and remembers them as it does any
strategy.  Every choice is ordered simplest first, so a failure shrinks towards one
ACL, ``User:alice``, the host ``10.0.0.1``, the topic ``foo``, ``READ``, ``ALLOW``,
``LITERAL``::

    from hypothesis import given
    from kafka_conformance import strategies as kst

    @given(kst.acl_sets(), kst.questions())
    def test_my_cache_agrees_with_my_authorizer(acls, question):
        ...

The values are the reference's frozen value types (:class:`AclBinding`,
:class:`~kafka_conformance.authorizer.cases.Query`, KIP-801 records), the ones the
kit's adapters take.  The names look alike on purpose (``foo``, ``fo``, ``Foo``,
``foobar``): an ACL and a question drawn apart still meet, and a PREFIXED ACL still
covers, or just misses, the name asked.  ``producer_traces`` and ``broker_cases`` are
the producer and broker suites' own strategies, which are Hypothesis-native already.
"""

from __future__ import annotations

from hypothesis import strategies as st

from kafka_conformance.authorizer.cases import Query
from kafka_conformance.broker.strategies import broker_cases
from kafka_conformance.producer.strategies import producer_traces
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
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = [
    "acl_bindings",
    "acl_sets",
    "actions",
    "broker_cases",
    "hosts",
    "principals",
    "producer_traces",
    "questions",
    "record_logs",
    "resource_names",
]

PRINCIPALS = ("User:alice", "User:bob", "User:carol", "Group:ops", "ServiceAccount:alice", "User:Alice")
"""Callers and ACL principals, simplest first; ACLs may also name the wildcard ``User:*``."""
HOSTS = ("10.0.0.1", "10.0.0.2")
"""Client addresses; ACLs may also name the wildcard host ``*``."""
NAMES = ("foo", "bar", "fo", "foobar", "Foo", "f", "foo-x")
"""Resource names that share prefixes and differ in case, so ACLs and questions meet."""
RESOURCE_TYPES = (ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID, ResourceType.CLUSTER)
OPERATIONS = (AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.CREATE, AclOperation.DELETE,
              AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
              AclOperation.CLUSTER_ACTION)
"""The operations a question asks (ACLs may also grant or deny ``ALL``)."""


def principals(*, wildcard: bool = False) -> st.SearchStrategy[str]:
    """A principal as Kafka writes it (``Type:name``); with ``wildcard``, ``User:*`` too (for ACLs)."""
    return st.sampled_from((*PRINCIPALS, "User:*") if wildcard else PRINCIPALS)


def hosts(*, wildcard: bool = False) -> st.SearchStrategy[str]:
    """A client address; with ``wildcard``, ``*`` too (for ACLs)."""
    return st.sampled_from((*HOSTS, "*") if wildcard else HOSTS)


def resource_names(*, wildcard: bool = False) -> st.SearchStrategy[str]:
    """A resource name; with ``wildcard``, the LITERAL wildcard ``*`` too (for ACLs)."""
    return st.sampled_from((*NAMES, "*") if wildcard else NAMES)


def _pattern(prefixed: bool) -> st.SearchStrategy[ResourcePattern]:
    types = st.sampled_from(RESOURCE_TYPES)
    patterns = st.sampled_from((PatternType.LITERAL, PatternType.PREFIXED) if prefixed else (PatternType.LITERAL,))

    def build(rtype: ResourceType, name: str, pattern: PatternType) -> ResourcePattern:
        if rtype is ResourceType.CLUSTER:  # one cluster resource, named as Kafka names it
            return ResourcePattern(rtype, "kafka-cluster", PatternType.LITERAL)
        if name == "*":  # the wildcard is a LITERAL ACL
            pattern = PatternType.LITERAL
        return ResourcePattern(rtype, name, pattern)

    return st.builds(build, types, resource_names(wildcard=True), patterns)


def acl_bindings(*, prefixed: bool = True) -> st.SearchStrategy[AclBinding]:
    """One ACL Kafka's CreateAcls accepts; ``prefixed=False`` for an authorizer that holds no PREFIXED ACLs."""
    entries = st.builds(AccessControlEntry, principals(wildcard=True), hosts(wildcard=True),
                        st.sampled_from((*OPERATIONS, AclOperation.ALL)),
                        st.sampled_from((AclPermissionType.ALLOW, AclPermissionType.DENY)))
    return st.builds(AclBinding, _pattern(prefixed), entries)


def acl_sets(*, min_size: int = 0, max_size: int = 8, prefixed: bool = True) -> st.SearchStrategy[list[AclBinding]]:
    """Distinct ACLs, as a snapshot holds them (shrinks towards fewer, simpler ones)."""
    return st.lists(acl_bindings(prefixed=prefixed), min_size=min_size, max_size=max_size, unique=True)


def actions() -> st.SearchStrategy[Action]:
    """One operation on one LITERAL resource, as a request asks it."""
    def build(op: AclOperation, rtype: ResourceType, name: str) -> Action:
        return Action(op, ResourcePattern(rtype, "kafka-cluster" if rtype is ResourceType.CLUSTER else name))

    return st.builds(build, st.sampled_from(OPERATIONS), st.sampled_from(RESOURCE_TYPES), resource_names())


def questions(*, max_actions: int = 3) -> st.SearchStrategy[Query]:
    """One ``authorize(context, actions)`` call: a caller, a host, one to ``max_actions`` actions."""
    contexts = st.builds(lambda p, h: RequestContext(parse_principal(p), h), principals(), hosts())
    return st.builds(lambda c, a: Query(c, tuple(a)), contexts, st.lists(actions(), min_size=1, max_size=max_actions))


@st.composite
def record_logs(draw: st.DrawFn, *, max_records: int = 10, prefixed: bool = True) -> list[AddAcl | RemoveAcl]:
    """A consistent KIP-801 record log: adds under fresh ids, removals of ids it holds.

    Every record is one Kafka's authorizer accepts (for the records it refuses, and for
    snapshot loads in the middle of a log, use the kit's ``record-log`` property)."""
    held: list[str] = []
    present: set[AclBinding] = set()
    log: list[AddAcl | RemoveAcl] = []
    for n in range(draw(st.integers(0, max_records))):
        if len(held) > 0 and draw(st.booleans()):
            victim = held.pop(draw(st.integers(0, len(held) - 1)))
            log.append(RemoveAcl(victim))
            present = {r.binding for r in log if isinstance(r, AddAcl) and r.id in held}
            continue
        binding = draw(acl_bindings(prefixed=prefixed))
        if binding in present:
            continue  # Kafka refuses an ACL it already holds: no such record in a consistent log
        log.append(AddAcl(f"r-{n}", binding))
        held.append(f"r-{n}")
        present.add(binding)
    return log

