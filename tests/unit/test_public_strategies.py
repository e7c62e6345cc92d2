"""``kafka_conformance.strategies`` (issue 36, item 8): public, Hypothesis-native strategies a
user composes in their own ``@given`` tests; Hypothesis shrinks a failing property of theirs to
one ACL with plain values, and the values are the ones the kit's adapters take."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from kafka_conformance import strategies as kst
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.cases import Query
from kafka_conformance.reference.acl.values import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.releases import KafkaVersion

PROFILE = profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD)
QUICK = settings(max_examples=200, database=None, derandomize=True, suppress_health_check=list(HealthCheck))


def _loaded(target: ReferenceTarget, acls: Sequence[AclBinding]) -> ReferenceTarget:
    target.configure({})
    target.load_snapshot({f"acl-{n}": b for n, b in enumerate(acls)})
    target.complete_initial_load()
    return target


class HostIgnored(ReferenceTarget):
    """A user's authorizer with one bug: it never looks at an ACL's host."""

    def __init__(self) -> None:
        super().__init__(PROFILE)

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        super().load_snapshot({i: AclBinding(b.pattern, attrs.evolve(b.entry, host="*")) for i, b in acls.items()})


def test_a_users_failing_property_shrinks_to_one_acl_with_plain_values() -> None:
    def disagrees(case: tuple[list[AclBinding], Query]) -> bool:
        acls, question = case
        mine = _loaded(HostIgnored(), acls).authorize(question.context, question.actions)
        kafka = _loaded(ReferenceTarget(PROFILE), acls).authorize(question.context, question.actions)
        return mine != kafka

    acls, question = find(st.tuples(kst.acl_sets(), kst.questions()), disagrees, settings=QUICK)
    assert len(acls) == 1 and len(question.actions) == 1, (acls, question)
    (acl,) = acls
    (action,) = question.actions
    assert acl.entry.principal == "User:alice" == str(question.context.principal)
    assert acl.pattern == ResourcePattern(ResourceType.TOPIC, "foo", PatternType.LITERAL) == action.resource
    assert {acl.entry.host, question.context.host} == {"10.0.0.1", "10.0.0.2"}
    assert action.operation is AclOperation.READ and acl.entry.permission_type is AclPermissionType.ALLOW


@QUICK
@given(kst.record_logs())
def test_record_logs_are_consistent_and_the_reference_accepts_every_record(log: list[AddAcl | RemoveAcl]) -> None:
    target = _loaded(ReferenceTarget(PROFILE), [])
    held: set[str] = set()
    for record in log:
        target.apply(record)  # raises for a record Kafka refuses
        if isinstance(record, AddAcl):
            held.add(record.id)
        else:
            assert record.id in held
            held.remove(record.id)
    assert target.acl_count() == len(held)


@QUICK
@given(kst.acl_bindings(prefixed=False), kst.actions())
def test_values_are_the_kits_own_and_valid(acl: AclBinding, action: Action) -> None:
    assert acl.pattern.pattern_type is PatternType.LITERAL
    assert action.resource == ResourcePattern(action.resource.resource_type, action.resource.name)


def test_the_suites_strategies_are_public_here_too() -> None:
    from kafka_conformance.broker.strategies import broker_cases
    from kafka_conformance.producer.strategies import producer_traces

    assert kst.producer_traces is producer_traces and kst.broker_cases is broker_cases
    assert set(kst.__all__) >= {"acl_bindings", "acl_sets", "questions", "record_logs", "producer_traces", "broker_cases"}
