"""The mutation run of the reference (``kafka-conformance selftest --mutants``), in light.

The whole run (every mutant of ``reference/authorizer`` and ``reference/acl``, about an hour)
is the ``mutation`` tox environment, outside the gate.  Here: one module, end to end, with
its reviewed equivalents, and the two claims the run's design stands on."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.domain.coverage import coverage_cases
from kafka_conformance.authorizer.properties import PROPERTIES
from kafka_conformance.options import Options
from kafka_conformance.reference.acl import principal
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES
from kafka_conformance.selftest.equivalent import EQUIVALENT, KNOWN_GAPS, Equivalent, KnownGap
from kafka_conformance.selftest.mutation import (
    MUTATED,
    MutantResult,
    Outcome,
    judged_under,
    match_reviewed,
    representative_profiles,
    run_mutation,
)
from kafka_conformance.selftest.reviewed_broker import BROKER_EQUIVALENT, BROKER_KNOWN_GAPS


def test_the_mixed_coverage_phase_holds_every_case_of_the_other_modes() -> None:
    """Why the run judges in ``mixed`` alone: a mutant it misses, no mode catches."""
    for served in judged_under():
        caps = ReferenceTarget(served.profile, by_type_variant=served.by_type).capabilities()
        for prop in PROPERTIES:
            mixed = {repr(c) for c in coverage_cases(prop.name, caps, "mixed")}
            for mode in ("well-formed", "hostile"):
                missing = {repr(c) for c in coverage_cases(prop.name, caps, mode)} - mixed
                assert not missing, f"{served} {prop.name}: {len(missing)} {mode} cases not in mixed"


def test_every_value_of_every_release_flag_is_judged() -> None:
    """Why one profile per class is enough: each flag takes, among the judged profiles, every value
    it takes in some modelled release."""
    chosen = representative_profiles()
    every = []
    for version in APACHE_KAFKA_RELEASES:
        for flavour in Flavour:
            try:
                every.append(profile_for(version, flavour))
            except AclValueError:
                continue
    flags = [n for n in dir(chosen[0]) if not n.startswith("_") and isinstance(getattr(chosen[0], n), bool)]
    assert len(flags) > 15
    for flag in flags:
        assert {getattr(p, flag) for p in chosen} == {getattr(p, flag) for p in every}, flag
    assert len(chosen) < len(every) / 3


def test_one_module_end_to_end(tmp_path: Path) -> None:
    """Cosmic Ray mutates a copy, each mutant is served and judged; the principal parser's mutants
    are caught or reviewed, and an entry naming no mutant is reported stale."""
    pytest.importorskip("cosmic_ray", reason="the mutation extra is not installed")
    ghost = Equivalent("reference/acl/principal.py", "ReplaceComparisonOperator_Eq_NotEq", "no such line", "a test entry")
    run = run_mutation(["reference/acl/principal.py"], profiles=judged_under()[:2], work=tmp_path,
                       equivalent=(*EQUIVALENT, ghost))
    outcomes = {r.outcome for r in run.results}
    assert run.count(Outcome.CAUGHT) >= 8, [r.line for r in run.results]
    assert Outcome.SURVIVED not in outcomes, [(r.line, r.operator) for r in run.results if r.outcome is Outcome.SURVIVED]
    assert run.count(Outcome.EQUIVALENT) >= 3
    assert run.stale == (ghost,)
    assert not run.perfect
    caught = next(r for r in run.results if r.outcome is Outcome.CAUGHT)
    assert caught.caught_by.startswith("caught: standard@4.4.0 mixed"), caught.caught_by
    assert (tmp_path / "src" / "kafka_conformance" / "reference" / "acl" / "principal.py").read_text() == (
        Path(principal.__file__).read_text())  # Cosmic Ray put every mutant back


def test_what_is_claimed_outside_the_protocol_is_never_run_by_a_served_reference(tmp_path: Path) -> None:
    """The OUTSIDE_PROTOCOL claims, checked: the reference served under every judged release runs
    the whole coverage phase, recording each function it enters, and enters none of them."""
    import shlex
    import sys

    from hypothesis import Phase, settings

    from kafka_conformance import check_authorizer
    from kafka_conformance.adapters.jsonlines.adapter import close_shared_sessions
    from kafka_conformance.selftest.equivalent import OUTSIDE_PROTOCOL

    helper = Path(__file__).with_name("traced_serve.py")
    entered: set[tuple[str, str]] = set()
    for n, served in enumerate(judged_under()):
        out = tmp_path / f"entered-{n}.json"
        variant = ["--by-type", served.by_type.value] if served.by_type else []
        variant += ["--kafka-bugs", served.kafka_bugs.value]
        p = served.profile
        command = [sys.executable, str(helper), str(out), *variant, f"reference:{p.version}:{p.flavour.value}"]
        try:
            report = check_authorizer("cmd:" + shlex.join(command), Options(settings=settings(phases=[Phase.explicit], database=None)),
                                      kafka_bugs=served.kafka_bugs.value)
        finally:
            close_shared_sessions()
        assert all(r.status.value in ("passed", "skipped") for r in report.results), served
        entered |= {tuple(pair) for pair in json.loads(out.read_text())}  # type: ignore[misc]
    assert ("reference/authorizer/decide.py", "decide") in entered  # the recording works
    broken = []
    for claim in OUTSIDE_PROTOCOL:
        hits = [q for f, q in entered if f == claim.file and q != "<module>"
                and (claim.scope == "*" or q == claim.scope or q.startswith(claim.scope + "."))]
        if hits:
            broken.append(f"{claim.file} {claim.scope}: entered as {', '.join(sorted(hits))}")
    assert not broken, "claimed outside the protocol, yet run:\n" + "\n".join(broken)


def _result(outcome: Outcome, after: str, scope: str = "Profile.flag", follows: str = "@cached_property") -> MutantResult:
    return MutantResult("reference/authorizer/profiles.py", "NumberReplacer", "return 1", after, scope, follows, 10, outcome)


def test_reviewed_entries_name_mutants_by_text_and_a_false_claim_is_stale() -> None:
    """An entry names every variant of its operator on its line, or only the one whose changed text,
    scope and preceding line it gives; an entry naming a caught mutant, or none, is stale."""
    plus, minus = _result(Outcome.SURVIVED, "return 2"), _result(Outcome.CAUGHT, "return 0")
    broad = Equivalent("reference/authorizer/profiles.py", "NumberReplacer", "return 1", "why")
    narrow = attrs.evolve(broad, after="return 2")
    elsewhere = attrs.evolve(broad, scope="Profile.other")
    follows = attrs.evolve(broad, after="return 2", follows="@cached_property")
    gap = KnownGap("reference/authorizer/profiles.py", "NumberReplacer", "return 1", "the input it lacks", after="return 2")
    modules = ("reference/authorizer",)
    results, stale = match_reviewed([plus, minus], [broad], modules)
    assert stale == (broad,) and results[0].outcome is Outcome.EQUIVALENT
    results, stale = match_reviewed([plus, minus], [narrow, elsewhere], modules)
    assert [r.outcome for r in results] == [Outcome.EQUIVALENT, Outcome.CAUGHT] and stale == (elsewhere,)
    results, stale = match_reviewed([plus, minus], [follows], modules)
    assert results[0].reason == "why" and stale == ()
    results, stale = match_reviewed([plus, minus], [gap], modules)
    assert results[0].outcome is Outcome.KNOWN_GAP and results[0].reason == "the input it lacks" and stale == ()
    assert match_reviewed([plus], [narrow], ("reference/acl",))[1] == ()  # entries of modules not run are not judged


def test_every_reviewed_entry_is_distinct_and_says_why() -> None:
    entries = [*EQUIVALENT, *KNOWN_GAPS, *BROKER_EQUIVALENT, *BROKER_KNOWN_GAPS]
    assert len(set(entries)) == len(entries)
    assert all(len(getattr(e, "reason", getattr(e, "gap", ""))) > 20 for e in entries)
    assert all(e.file.startswith(MUTATED) for e in entries)
