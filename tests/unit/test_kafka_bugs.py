"""Kafka's own bugs: a verdict says when one of them alone separates the two answers, and the
user chooses which answer to hold an implementation to (``--kafka-bugs``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.saved import load_case
from kafka_conformance.authorizer.targets import Target, TargetError
from kafka_conformance.options import Options
from kafka_conformance.reference.authorizer.profiles import KAFKA_BUGS, KafkaBugs, profile_for
from kafka_conformance.reference.errors import AclValueError


def test_every_bug_is_a_flag_of_the_profile_and_fixing_it_turns_the_flag_off() -> None:
    for bug in KAFKA_BUGS:
        having = [p for p in (profile_for(v, f) for v, f in (("2.0.0", "acl"), ("3.2.0", "standard"),
                                                              ("4.3.0", "standard"))) if getattr(p, bug.flag)]
        assert having, f"{bug.id}: no modelled release has it"
        for profile in having:
            assert bug in profile.bugs()
            assert not getattr(profile_for(profile.version, profile.flavour, frozenset({bug.id})), bug.flag)
            assert not getattr(profile_for(profile.version, profile.flavour, kafka_bugs=KafkaBugs.DOCUMENTED), bug.flag)


def test_a_release_without_the_bug_is_the_same_profile_whatever_is_asked() -> None:
    assert profile_for("3.9.1", "acl", kafka_bugs=KafkaBugs.DOCUMENTED) == profile_for("3.9.1", "acl")
    assert profile_for("3.9.1", "acl", frozenset({"KAFKA-14265"})) == profile_for("3.9.1", "acl")
    documented = profile_for("3.2.3", "standard", kafka_bugs=KafkaBugs.DOCUMENTED)
    assert str(documented) == "standard@3.2.3 as documented" and documented.documented
    assert str(profile_for("3.2.3", "standard", frozenset({"KAFKA-14265"}))) == "standard@3.2.3 without KAFKA-14265"
    with pytest.raises(AclValueError, match="KAFKA-1"):
        profile_for("3.2.3", "standard", frozenset({"KAFKA-1"}))


def _implementation(fixed: frozenset[str] = frozenset(), *, release: str = "4.3.0") -> Target:
    """The reference of ``release`` with some of its bugs fixed, claiming that release: an
    implementation that gives the documented answer where Kafka has those bugs."""
    profile = profile_for(release, "standard", fixed)
    caps = ReferenceTarget(profile_for(release, "standard")).capabilities()
    return Target(f"documented-{release}", lambda: ReferenceTarget(profile), caps)


@pytest.mark.parametrize("bug", ["star-names-skip-wildcard", "KAFKA-17759"])
def test_the_documented_answer_is_a_divergence_that_names_kafkas_bug(bug: str) -> None:
    report = check_authorizer(_implementation(frozenset({bug})), Options(seed=1, max_examples=1), properties=["authorize"])
    cx = report.results[0].counterexample
    assert report.results[0].status is Status.FAILED and cx is not None and cx.kafka_bug is not None
    assert cx.kafka_bug.bug == bug and cx.kafka_bug.follows is KafkaBugs.DOCUMENTED
    assert "--kafka-bugs documented" in cx.kafka_bug.describe()
    held = check_authorizer(_implementation(frozenset({bug})), Options(seed=1, max_examples=1),
                            properties=["authorize"], kafka_bugs="documented")
    if bug == "KAFKA-17759":  # the documentation answers KAFKA-17759 alone; the other bug is still the release's
        assert held.results[0].counterexample is not None
        assert held.results[0].counterexample.kafka_bug.bug == "star-names-skip-wildcard"  # type: ignore[union-attr]
    else:
        other = held.results[0].counterexample
        assert other is None or (other.kafka_bug is not None and other.kafka_bug.bug != bug)


def test_an_implementation_of_the_documentation_conforms_when_held_to_it() -> None:
    every = frozenset(b.id for b in profile_for("4.3.0", "standard").bugs())
    assert check_authorizer(_implementation(every), Options(seed=2, max_examples=20), kafka_bugs="documented").exit_code == 0
    report = check_authorizer("reference:4.3.0", Options(seed=2, max_examples=5), properties=["authorize"], kafka_bugs="documented")
    cx = report.results[0].counterexample
    assert cx is not None and cx.kafka_bug is not None and cx.kafka_bug.follows is KafkaBugs.AS_RELEASED
    assert report.profile == "standard@4.3.0 as documented"


def test_a_divergence_no_bug_explains_says_nothing_of_kafkas_bugs() -> None:
    report = check_authorizer("python:kafka_conformance.selftest.zoo:factories.allow-beats-deny", Options(seed=1, max_examples=5),
                              properties=["authorize"])
    cx = report.results[0].counterexample
    assert cx is not None and cx.kafka_bug is None


def test_a_saved_case_keeps_the_choice_and_is_asked_again_only_under_it(tmp_path: Path) -> None:
    folder = tmp_path / "failures"
    spec = "reference:4.3.0"
    first = check_authorizer(spec, Options(seed=1, max_examples=1, failures_dir=folder), properties=["authorize"], kafka_bugs="documented")
    saved = first.results[0].saved_to
    assert saved is not None and load_case(saved).kafka_bugs == "documented"
    assert json.loads(Path(saved).read_text())["kafka_bugs"] == "documented"
    again = check_authorizer(spec, Options(seed=3, max_examples=1, failures_dir=folder), properties=["authorize"], kafka_bugs="documented")
    assert "found again" in again.results[0].reason
    as_released = check_authorizer(spec, Options(seed=3, max_examples=1, failures_dir=folder), properties=["authorize"])
    assert as_released.exit_code == 0  # the reference of the release is the release, bugs and all


def test_an_unknown_choice_is_a_usage_error() -> None:
    with pytest.raises(TargetError, match="as-released"):
        check_authorizer("reference:4.3.0", Options(max_examples=1), kafka_bugs="fixed")
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "authorizer", "--target", "reference",
                           "--kafka-bugs", "fixed"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--kafka-bugs" in done.stderr


def test_the_report_takes_the_choice_and_names_the_column_for_it(tmp_path: Path) -> None:
    from kafka_conformance.report.run import run_report

    report = run_report(suites=["authorizer"], targets=["reference:4.3.0"], profile="smoke", seed=0,
                        kafka_bugs="documented", failures_dir=tmp_path)
    (column,) = report.columns()
    assert column.release == "4.3.0 standard as documented"
    (finding,) = report.findings()
    assert finding.divergence.kafka_bug.startswith("Kafka's own bug: this implementation answers as Kafka 4.3.0")
    as_released = run_report(suites=["authorizer"], targets=["reference:4.3.0"], profile="smoke", seed=0)
    assert as_released.columns()[0].release == "4.3.0 standard" and not as_released.findings()
