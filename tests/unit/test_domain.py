"""The input domain: classes as data, the classifier, the record-log checks of refused
records, and the 1-minimal pass, on hand-made cases."""

from __future__ import annotations

import pytest

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import BatchStep, Query, Scenario, scenario_from_json, scenario_to_json
from kafka_conformance.authorizer.differential import check_record_log
from kafka_conformance.authorizer.domain.classes import DOMAIN, applicable_classes
from kafka_conformance.authorizer.domain.classify import classes_of
from kafka_conformance.authorizer.driver import CaseFailed
from kafka_conformance.authorizer.minimize import one_minimal, smaller_by_one
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.reference import AclBinding, Action, AddAcl, KafkaPrincipal, RemoveAcl, RequestContext
from kafka_conformance.reference.acl.values import AclOperation, ResourcePattern, ResourceType
from kafka_conformance.selftest.independent import ZooAdapter, ZooAuthorizer
from kafka_conformance.selftest.zoo import ZOO

PROFILE = Capabilities().profile()
ALICE = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")


def _ask(ctx: RequestContext, name: str, op: AclOperation = AclOperation.READ) -> Query:
    return Query(ctx, (Action(op, ResourcePattern(ResourceType.TOPIC, name)),))


def test_a_case_variant_counts_only_where_it_discriminates() -> None:
    allow = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo", host="10.0.0.1")
    shouting = RequestContext(KafkaPrincipal("User", "ALICE"), "10.0.0.1")
    reached = classes_of(Scenario(acls=(("a", allow),), queries=(_ask(shouting, "foo"),)), PROFILE)
    assert "principal:case-variant" in reached
    # A DENY for the caller decides anyway: the look-alike no longer tells anything apart.
    deny = AclBinding.of("DENY", "User:ALICE", "READ", "TOPIC", "foo", host="*")
    reached = classes_of(Scenario(acls=(("a", allow), ("d", deny)), queries=(_ask(shouting, "foo"),)), PROFILE)
    assert "principal:case-variant" not in reached


def test_a_refused_configuration_reaches_only_config_classes() -> None:
    allow = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")
    scenario = Scenario(properties=(("super.users", "User:bob;alice"),), acls=(("a", allow),),
                        queries=(_ask(ALICE, "foo"),))
    assert {c.split(":")[0] for c in classes_of(scenario, PROFILE)} == {"config"}


def test_record_classes() -> None:
    acl = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")
    other = AclBinding.of("DENY", "User:bob", "READ", "TOPIC", "foo")
    records = (AddAcl("r-1", acl), RemoveAcl("r-9"), AddAcl("r-1", other), AddAcl("r-2", acl),
               BatchStep((RemoveAcl("r-1"), AddAcl("r-3", acl))))
    reached = classes_of(Scenario(records=records), PROFILE)
    assert {"records:add", "records:unknown-remove", "records:duplicate-id", "records:duplicate-content",
            "records:batch", "records:remove", "records:re-add"} <= reached


def test_batches_survive_json() -> None:
    acl = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")
    scenario = Scenario(records=(BatchStep((AddAcl("r-1", acl), RemoveAcl("r-1"))),))
    assert scenario_from_json(scenario_to_json(scenario)) == scenario
    with pytest.raises(ValueError, match="add and remove records only"):
        scenario_from_json({"records": [{"batch": [{"snapshot": []}]}]})


@pytest.mark.parametrize("mutant", ["unknown-remove-ignored", "id-reuse-overwrites", "duplicate-content-kept",
                                    "refused-add-kept"])
def test_refused_records_must_be_refused_and_change_nothing(mutant: str) -> None:
    acl = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")
    other = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "bar")
    scenario = Scenario(records=(AddAcl("r-1", acl), RemoveAcl("r-7"), AddAcl("r-1", other), AddAcl("r-2", acl)),
                        queries=(_ask(ALICE, "foo"), _ask(ALICE, "bar")))
    check_record_log(CheckContext(lambda: ZooAdapter(ZooAuthorizer()), Capabilities()), scenario)
    with pytest.raises(CaseFailed) as failed:
        check_record_log(CheckContext(ZOO[mutant].make, Capabilities()), scenario)
    assert failed.value.divergence.anomaly in ("inconsistent-record-accepted", "refused-record-changed-state")


def test_one_minimal_keeps_only_what_fails() -> None:
    acls = tuple((f"a{i}", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", f"t{i}")) for i in range(9))
    scenario = Scenario(acls=acls, queries=tuple(_ask(ALICE, f"t{i}") for i in range(5)))

    def fails(s: Scenario) -> bool:  # "fails" while ACL a3 and a question about t3 are both there
        return any(i == "a3" for i, _ in s.acls) and any(q.actions[0].resource.name == "t3" for q in s.queries)

    smallest = one_minimal(scenario, fails)
    assert [i for i, _ in smallest.acls] == ["a3"] and len(smallest.queries) == 1
    assert not any(fails(s) for s in smaller_by_one(smallest))


def test_hostile_classes_do_not_apply_in_well_formed_mode_and_names_are_unique() -> None:
    assert len({c.name for c in DOMAIN}) == len(DOMAIN)
    assert all("hostile" not in c.needs for c in applicable_classes(Capabilities(), "well-formed"))
    acl_flavour = Capabilities(flavour="acl", version="3.9.0", by_type_variant=None)  # type: ignore[arg-type]
    names = {c.name for c in applicable_classes(acl_flavour, "mixed")}
    assert "name:empty" not in names and not any(n.startswith("by-type:") for n in names)
