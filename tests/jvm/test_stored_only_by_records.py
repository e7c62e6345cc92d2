"""Stored ACLs only records hold, judged by real Kafka: a principal without a colon, UNKNOWN values.

3.2.x compared the stored principal's text with the caller's, so such an ACL never applies;
from 3.3.0 (KAFKA-13651) StandardAuthorizer parses it as its walk meets it and throws, unless a
DENY that applies was met first.  The reference models the walk (``walk.kafka_walk``); random
sets of ACLs on names around the one asked, in every order, must get the same answers from the
real authorizers as from the reference of their release.
"""

from __future__ import annotations

import random

import pytest

from kafka_conformance.adapters.jvm.kafka_releases import parse_kafka_target
from kafka_conformance.adapters.jvm.kafka_target import not_runnable_reason
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.targets import close_targets, resolve_target
from kafka_conformance.reference.acl.principal import KafkaPrincipal
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

LITERAL, PREFIXED = PatternType.LITERAL, PatternType.PREFIXED
PATTERNS = [("foo", LITERAL), ("*", LITERAL), ("f", PREFIXED), ("fo", PREFIXED), ("", PREFIXED), ("e", LITERAL),
            ("*", PREFIXED), ("foo", PREFIXED), ("bar", LITERAL)]
PRINCIPALS = ["User:alice", "alice", "User:*", "Alice", "zed", "User:bob"]
OPERATIONS = [AclOperation.READ, AclOperation.ALL, AclOperation.WRITE]
ALICE = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")


def _cases(seed: int, count: int) -> list[Scenario]:
    rnd = random.Random(seed)
    cases = []
    while len(cases) < count:
        acls = {AclBinding(ResourcePattern(ResourceType.TOPIC, *rnd.choice(PATTERNS)),
                           AccessControlEntry(rnd.choice(PRINCIPALS), rnd.choice(["*", "10.0.0.1", "10.0.0.2"]),
                                              rnd.choice(OPERATIONS),
                                              rnd.choice([AclPermissionType.ALLOW, AclPermissionType.DENY])))
                for _ in range(rnd.randint(2, 5))}
        if any(":" not in a.entry.principal for a in acls):
            asked = Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "foo"))
            cases.append(Scenario(acls=tuple((f"acl-{i}", b) for i, b in enumerate(acls)),
                                  queries=(Query(ALICE, (asked,)),)))
    return cases


@pytest.fixture(autouse=True)
def _stop_jvms() -> object:
    yield
    close_targets()


@pytest.mark.parametrize("spec", ["kafka:3.2.3", "kafka:3.3.0", "kafka:3.9.1", "kafka:4.3.1"])
def test_real_kafka_answers_every_case_as_the_reference_of_its_release(spec: str) -> None:
    reason = not_runnable_reason(parse_kafka_target(spec.removeprefix("kafka:")))
    if reason is not None:
        pytest.skip(f"{spec}: {reason}")
    target = resolve_target(spec)
    differ = []
    cases = _cases(seed=13, count=40)
    for scenario in cases:
        result = run_property_once("authorize", target, scenario)
        if result.status is not Status.PASSED:
            differ.append(result.counterexample)
    assert not differ, differ[:3]
    # The cases do tell the releases apart: 3.2.3 never fails one, the others fail some and answer others.
    errors = sum(_expects_error(spec, s) for s in cases)
    assert (errors == 0) if spec == "kafka:3.2.3" else (0 < errors < len(cases))


def _expects_error(spec: str, scenario: Scenario) -> bool:
    from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
    from kafka_conformance.reference.authorizer.profiles import profile_for

    reference = ReferenceAuthorizer(profile_for(spec.removeprefix("kafka:")))
    reference.configure({})
    reference.load_snapshot(dict(scenario.acls))
    reference.complete_initial_load()
    (decision,) = reference.authorize(ALICE, scenario.queries[0].actions)
    return decision.error == "illegal-state"


UNKNOWN_PATTERNS = [("foo", LITERAL), ("*", LITERAL), ("f", PREFIXED), ("fo", PatternType.UNKNOWN),
                    ("foo", PatternType.UNKNOWN), ("", PREFIXED), ("bar", LITERAL)]


def _unknown_cases(seed: int, count: int) -> list[Scenario]:
    """Random sets holding UNKNOWN operations, permissions or pattern types (what a release decodes a
    code it does not know to), under either default."""
    rnd = random.Random(seed)
    unknown = (AclOperation.UNKNOWN, AclPermissionType.UNKNOWN, PatternType.UNKNOWN)
    cases = []
    while len(cases) < count:
        acls = {AclBinding(ResourcePattern(ResourceType.TOPIC, *rnd.choice(UNKNOWN_PATTERNS)),
                           AccessControlEntry(rnd.choice(["User:alice", "User:*", "User:bob"]), "*",
                                              rnd.choice([AclOperation.READ, AclOperation.ALL, AclOperation.UNKNOWN,
                                                          AclOperation.DESCRIBE]),
                                              rnd.choice([AclPermissionType.ALLOW, AclPermissionType.DENY,
                                                          AclPermissionType.UNKNOWN])))
                for _ in range(rnd.randint(1, 4))}
        if not any(v in unknown for a in acls for v in (a.entry.operation, a.entry.permission_type,
                                                          a.pattern.pattern_type)):
            continue
        asked = Action(rnd.choice([AclOperation.READ, AclOperation.DESCRIBE, AclOperation.WRITE]),
                       ResourcePattern(ResourceType.TOPIC, "foo"))
        cases.append(Scenario(properties=(("allow.everyone.if.no.acl.found", rnd.choice(["true", "false"])),),
                              acls=tuple((f"acl-{i}", b) for i, b in enumerate(acls)), queries=(Query(ALICE, (asked,)),)))
    return cases


@pytest.mark.parametrize("spec", ["kafka:3.2.3", "kafka:3.3.2", "kafka:4.3.1"])
def test_real_kafka_answers_unknown_stored_values_as_the_reference_of_its_release(spec: str) -> None:
    reason = not_runnable_reason(parse_kafka_target(spec.removeprefix("kafka:")))
    if reason is not None:
        pytest.skip(f"{spec}: {reason}")
    target = resolve_target(spec)
    differ = [r.counterexample for r in (run_property_once("authorize", target, s) for s in _unknown_cases(29, 40))
              if r.status is not Status.PASSED]
    assert not differ, differ[:3]

