"""The driver-side shrink: greedy removals that keep the failure."""

from __future__ import annotations

from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.shrink import shrink_scenario
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite
from kafka_conformance.reference import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    Action,
    PatternType,
    RequestContext,
    ResourcePattern,
    ResourceType,
    parse_principal,
)


def _acl(name: str) -> AclBinding:
    return AclBinding(ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL),
                      AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW))


def _action(name: str) -> Action:
    return Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name))


def test_shrinks_to_exactly_what_the_predicate_needs() -> None:
    alice = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    big = Scenario(
        properties=(("super.users", "User:bob"), ("allow.everyone.if.no.acl.found", "false")),
        acls=tuple((f"acl-{i}", _acl(f"t{i}")) for i in range(9)),
        queries=(Query(alice, (_action("t1"), _action("t7"), _action("x"))), Query(alice, (_action("t3"),))),
    )

    def needs_t7(s: Scenario) -> bool:
        return any(b.pattern.name == "t7" for _, b in s.acls) and any(
            a.resource.name == "t7" for q in s.queries for a in q.actions)

    small = shrink_scenario(big, needs_t7)
    assert small == Scenario(acls=(("acl-7", _acl("t7")),), queries=(Query(alice, (_action("t7"),)),))


def test_a_real_failure_shrinks_and_still_fails() -> None:
    suite = AuthorizerSuite()
    settings = suite.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed")
    cases = generate_shard(suite, CorpusSpec("authorizer", 2, 80, 80, tuple(sorted(settings.items()))), 0)
    checker = suite.open("python:corpus_targets:groups_allowed", settings)
    try:
        failing = [(c, o) for c in cases if (o := checker.check(c.property, c.payload)).verdict == "fail"]
        assert failing
        case, outcome = max(failing, key=lambda f: suite.size(f[0].payload))
        small = suite.shrink(checker, case.property, case.payload, outcome)
        again = checker.check(case.property, small)
        assert (again.verdict, again.anomaly) == (outcome.verdict, outcome.anomaly)
        assert suite.size(small) < suite.size(case.payload) and suite.size(small) <= 4
    finally:
        checker.close()


def test_the_check_budget_bounds_the_work() -> None:
    calls = []
    big = Scenario(acls=tuple((f"acl-{i}", _acl(f"t{i}")) for i in range(30)))

    def never(s: Scenario) -> bool:
        calls.append(s)
        return False

    assert shrink_scenario(big, never, max_checks=7) == big and len(calls) == 7
