"""``fuzz --kafka-bugs``: the choice between Kafka's answer and the documented one where a release
has a bug of its own reaches every case of a run, and is kept with the run."""

from __future__ import annotations

from pathlib import Path

from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.corpora.fuzz import FuzzSpec
from kafka_conformance.corpora.generate import CorpusSpec
from kafka_conformance.corpora.parquet_io import manifest_digest
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.profiles import KafkaBugs

SUITE = AuthorizerSuite()
SETTINGS = SUITE.generation_settings(target="reference:4.3.0", kafka_version=None, flavour=None, mode="mixed")

# Kafka 4.3.0 never consults an ALLOW on LITERAL '*' for a name that begins with '*' (a bug of its
# own, "star-names-skip-wildcard"): as released it denies, the documentation allows.
STAR_NAME = Scenario(
    acls=(("acl-0", AclBinding(ResourcePattern(ResourceType.TOPIC, "*"),
                               AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW))),),
    queries=(Query(RequestContext(parse_principal("User:alice"), "10.0.0.1"),
                   (Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "*x")),)),),
)


def test_the_choice_reaches_the_judge() -> None:
    released = SUITE.open("reference:4.3.0", SETTINGS)
    documented = SUITE.open("reference:4.3.0", {**SETTINGS, "kafka_bugs": "documented"})
    try:
        assert released.target.capabilities.kafka_bugs is KafkaBugs.AS_RELEASED
        assert documented.target.capabilities.kafka_bugs is KafkaBugs.DOCUMENTED
        assert released.check("authorize", STAR_NAME).verdict == "pass"
        held = documented.check("authorize", STAR_NAME)
        assert held.verdict == "fail" and "expected ALLOWED, got DENIED" in held.detail
    finally:
        released.close()
        documented.close()


def test_the_choice_is_kept_with_the_run_and_absent_when_not_made(tmp_path: Path) -> None:
    cases = CorpusSpec("authorizer", 1, 10, 10, tuple(sorted(SETTINGS.items())))
    plain = FuzzSpec(str(tmp_path), "reference:4.3.0", cases)
    assert "kafka_bugs" not in plain.manifest() and plain.judging_settings() == SETTINGS
    chosen = FuzzSpec(str(tmp_path), "reference:4.3.0", cases, None, "documented")
    assert FuzzSpec.from_json(chosen.to_json()) == chosen
    assert chosen.judging_settings() == {**SETTINGS, "kafka_bugs": "documented"}
    # A run directory is resumed only by the same choice: the manifests differ.
    assert manifest_digest(plain.manifest()) != manifest_digest(chosen.manifest())
