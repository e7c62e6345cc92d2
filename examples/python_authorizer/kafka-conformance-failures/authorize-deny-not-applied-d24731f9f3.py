"""Regression test written by kafka-conformance: authorize / deny-not-applied (see FOUND)."""

from kafka_conformance.authorizer.cases import BatchStep, ByTypeQuery, Query, Scenario, SnapshotStep
from kafka_conformance.reference import (
    AclBinding, AclOperation, Action, AddAcl, KafkaPrincipal, PatternType, RemoveAcl,
    RequestContext, ResourcePattern, ResourceType,
)
from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.targets import resolve_target

FOUND = "authorize(User:alice from 10.0.0.1, [READ TOPIC 'foo'])"
SCENARIO = Scenario(properties=(), acls=(('acl-1', AclBinding.of('UNKNOWN', 'User:alice', 'READ', 'TOPIC', 'foo', 'LITERAL', host='*')),), records=(), queries=(Query(context=RequestContext(principal=KafkaPrincipal('User', 'alice'), host='10.0.0.1'), actions=(Action(operation=AclOperation.READ, resource=ResourcePattern(resource_type=ResourceType.TOPIC, name='foo', pattern_type=PatternType.LITERAL)),)),), by_type=())


def test_authorize_deny_not_applied():
    target = resolve_target('python:my_authorizer:factory', kafka_version='4.3.0', flavour='standard', kafka_bugs='as-released')
    result = run_property_once('authorize', target, SCENARIO)
    assert result.status.value == "passed", result.counterexample
