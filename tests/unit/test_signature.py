"""A divergence's signature: what was observed, the same whatever the values of the case."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance import check_authorizer
from kafka_conformance.authorizer.cases import ByTypeQuery, Query, Scenario
from kafka_conformance.authorizer.report import Counterexample, Divergence
from kafka_conformance.options import Options
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
from kafka_conformance.report.baseline import compare
from kafka_conformance.report.columns.authorizer import authorizer_column, authorizer_rows
from kafka_conformance.report.model import Report, SuiteRun

ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY


def _acl(name: str, principal: str, host: str, permission: AclPermissionType = ALLOW,
         pattern: PatternType = PatternType.PREFIXED, op: AclOperation = AclOperation.READ) -> AclBinding:
    return AclBinding(ResourcePattern(ResourceType.TOPIC, name, pattern),
                      AccessControlEntry(principal, host, op, permission))


def _case(acl_name: str, asked: str, principal: str, host: str, acl_host: str,
          permission: AclPermissionType = ALLOW, expected: str = "DENIED", actual: str = "ALLOWED") -> Counterexample:
    context = RequestContext(parse_principal(principal), host)
    action = Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, asked, PatternType.LITERAL))
    scenario = Scenario(acls=(("a1", _acl(acl_name, principal, acl_host, permission)),),
                        queries=(Query(context, (action,)),))
    question = f"authorize({context}, [{action}])"
    return Counterexample("authorize", scenario, Divergence("default-deny-violated", question, expected, actual, "why"))


def test_the_same_observation_with_other_values_is_one_signature() -> None:
    """Names, principals and hosts are not part of the identity; their relations are."""
    one = _case("Fo", "foo", "User:alice", "10.0.0.1", "*")
    other = _case("Ba", "bar-topic", "User:bob", "192.168.1.7", "*")
    assert one.signature == other.signature and one.signature.id == other.signature.id
    text = str(one.signature)
    assert "a prefix of the name asked in another case" in text and "the caller" in text and "any host" in text
    for value in ("Fo", "foo", "alice", "10.0.0.1"):
        assert value not in text


@pytest.mark.parametrize("change", ["permission", "answers", "relation", "host"])
def test_another_observation_is_another_signature(change: str) -> None:
    base = _case("Fo", "foo", "User:alice", "10.0.0.1", "*")
    other = {
        "permission": _case("Fo", "foo", "User:alice", "10.0.0.1", "*", permission=DENY),
        "answers": _case("Fo", "foo", "User:alice", "10.0.0.1", "*", expected="ALLOWED", actual="DENIED"),
        "relation": _case("fo", "foo", "User:alice", "10.0.0.1", "*"),
        "host": _case("Fo", "foo", "User:alice", "10.0.0.1", "10.0.0.9"),
    }[change]
    assert other.signature != base.signature and other.signature.id != base.signature.id


def test_a_listing_is_observed_as_what_is_missing_or_extra_not_as_its_acls() -> None:
    acl = _acl("foo", "User:alice", "*")
    scenario = Scenario(acls=(("a1", acl),))
    missing = Counterexample("listing", scenario, Divergence("listing-wrong", "acls(ANY)", str(acl), "(none)", "why"))
    extra = Counterexample("listing", scenario, Divergence("listing-wrong", "acls(ANY)", "(none)", str(acl), "why"))
    assert "got some missing" in str(missing.signature) and "got extra ACLs" in str(extra.signature)
    assert "alice" not in str(missing.signature)


def test_by_type_questions_and_moments_are_part_of_it() -> None:
    context = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    q = ByTypeQuery(context, AclOperation.WRITE, ResourceType.TOPIC)
    scenario = Scenario(acls=(("a1", _acl("fo", "User:alice", "*", op=AclOperation.WRITE)),), by_type=(q,))
    cx = Counterexample("by-type", scenario, Divergence("by-type-too-restrictive", f"authorize_by_resource_type({q})",
                                                       "ALLOWED", "DENIED", "why", "before complete_initial_load()"))
    text = str(cx.signature)
    assert "asked WRITE on any TOPIC as a user" in text and "for the operation asked" in text
    assert "(before the initial load completed)" in text


def test_an_adapter_error_is_named_by_its_kind_not_its_question() -> None:
    one = Counterexample("authorize", Scenario(), adapter_error="authorize() raised KeyError: '::1'\n  asked: x",
                         error_kind="raised")
    other = Counterexample("authorize", Scenario(), adapter_error="authorize() raised KeyError: '10.0.0.1'",
                           error_kind="raised")
    assert one.signature == other.signature
    assert str(one.signature) == "authorize, authorize(): expected an answer, got no answer (raised: KeyError)"
    counted = Counterexample("records", Scenario(), adapter_error="apply(step 3: add acl-7) returned 3 results",
                             error_kind="wrong-answer")
    assert str(counted.signature) == "records, apply(): expected an answer, got no answer (wrong-answer)"


def test_the_order_of_the_acls_in_the_case_is_not_part_of_it() -> None:
    context = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    action = Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "foo", PatternType.LITERAL))
    allow, deny = _acl("foo", "User:alice", "*", pattern=PatternType.LITERAL), _acl("foo", "User:bob", "*", DENY)
    question = f"authorize({context}, [{action}])"

    def case(*acls: AclBinding) -> Counterexample:
        scenario = Scenario(acls=tuple((f"a{i}", b) for i, b in enumerate(acls)), queries=(Query(context, (action,)),))
        return Counterexample("authorize", scenario, Divergence("deny-not-applied", question, "ALLOWED", "DENIED", ""))

    assert case(allow, deny).signature == case(deny, allow).signature


def test_super_users_are_described_by_the_shape_of_their_entries_never_their_principals() -> None:
    def configured(value: str) -> str:
        scenario = Scenario(properties=(("super.users", value),))
        cx = Counterexample("authorize", scenario, Divergence("config-parse-differs", f"configure({scenario.config})",
                                                             "accepted", "rejected", ""))
        return str(cx.signature)

    assert configured("User:alice; User:bob") == configured("User:carol; User:dave")
    assert "alice" not in configured("User:alice; User:bob") and "padded entries" in configured("User:alice; User:bob")
    assert "an empty entry" in configured("User:alice;;User:bob") and "without a colon" in configured("alice")


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python_authorizer" / "my_authorizer.py"


@pytest.fixture
def prefixes_ignore_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Issue 36's bug: PREFIXED ACLs compared without case, in a copy of the example authorizer."""
    right, bug = "name[: len(rname)] == rname", "name[: len(rname)].lower() == rname.lower()"
    source = EXAMPLE.read_text(encoding="utf-8")
    assert source.count(right) == 1
    (tmp_path / "sig_prefix_bug.py").write_text(source.replace(right, bug), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "python:sig_prefix_bug:factory"


def test_the_same_bug_on_seeds_1_to_5_is_one_signature_and_unchanged_against_a_baseline(
        prefixes_ignore_case: str) -> None:
    reports = [check_authorizer(prefixes_ignore_case, Options(seed=seed, max_examples=20), properties=["authorize", "records"])
               for seed in (1, 2, 3, 4, 5)]
    signatures = {tuple(str(r.counterexample.signature) for r in rep.results if r.counterexample) for rep in reports}
    assert len(signatures) == 1 and len(next(iter(signatures))) == 2, signatures
    as_reports = [Report((SuiteRun("authorizer", authorizer_rows(), (authorizer_column(rep),)),)) for rep in reports]
    for later in as_reports[1:]:
        comparison = compare(as_reports[0], later)
        assert comparison.new == () and comparison.fixed == (), comparison.verdict_line()
    cell = as_reports[0].cells()[0][1]
    assert cell.divergences[0].signature == next(iter(signatures))[0]


def test_a_baseline_written_before_signatures_is_compared_by_anomaly(prefixes_ignore_case: str) -> None:
    """An older report has no signatures: its columns are compared by anomaly on both sides, so
    the unchanged bug is neither new nor fixed."""
    import attrs

    report = check_authorizer(prefixes_ignore_case, Options(seed=1, max_examples=5), properties=["authorize"])
    new = Report((SuiteRun("authorizer", authorizer_rows(), (authorizer_column(report),)),))
    column = new.suites[0].columns[0]
    old_cells = tuple(attrs.evolve(c, divergences=tuple(attrs.evolve(d, signature="") for d in c.divergences))
                      for c in column.cells)
    old = Report((SuiteRun("authorizer", authorizer_rows(), (attrs.evolve(column, cells=old_cells),)),))
    assert column.cells[0].divergences and not old.cells()[0][1].divergences[0].signature
    for before, after in ((old, new), (new, old)):
        comparison = compare(before, after)
        assert comparison.new == () and comparison.fixed == (), comparison.verdict_line()
