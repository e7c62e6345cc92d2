"""The same bug, the same verdict, on every run (issue 36): a case saved by an earlier run is
asked again first, and fails the run again until it is fixed, whatever the seed; a run without
a seed draws one, says which, and that seed repeats it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.render import to_text
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.saved import save_counterexample
from kafka_conformance.authorizer.targets import Target
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.releases import KafkaVersion

PROFILE = profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD)
RARE = "zz-sticky"
"""A name no generated scenario holds (the pools draw from 'fob-'): only the saved case asks it."""


class AllowsTheRareName(ReferenceTarget):
    """The reference, except that it allows anyone to do anything on the topic ``RARE``."""

    def __init__(self) -> None:
        super().__init__(PROFILE)

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        answers = super().authorize(context, actions)
        return [AuthorizationResult.ALLOWED if a.resource.name == RARE else r for a, r in zip(actions, answers, strict=True)]


def target(spec: str = "python:tests:rare") -> Target:
    return Target(spec, AllowsTheRareName, AllowsTheRareName().capabilities())


def saved_case(directory: Path) -> Path:
    alice = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
    scenario = Scenario(queries=(Query(alice, (Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, RARE)),)),))
    found = run_property_once("authorize", target(), scenario)
    assert found.status is Status.FAILED and found.counterexample is not None
    return save_counterexample(found.counterexample, directory, target(), 7)


def test_a_saved_case_that_still_fails_fails_every_later_run_whatever_the_seed(tmp_path: Path) -> None:
    path = saved_case(tmp_path)
    for seed in (1, 2, 3):
        report = check_authorizer(target(), Options(seed=seed, max_examples=5, failures_dir=tmp_path), properties=["authorize"])
        (result,) = report.results
        assert result.status is Status.FAILED
        assert result.saved_to == str(path)
        assert "found again" in result.reason
    # without the folder, the search alone does not find it: the saved case is what makes it sticky
    alone = check_authorizer(target(), Options(seed=1, max_examples=5), properties=["authorize"])
    assert alone.results[0].status is Status.PASSED


def test_a_saved_case_of_another_target_or_property_is_not_asked(tmp_path: Path) -> None:
    saved_case(tmp_path)
    other = check_authorizer(target("python:tests:other"), Options(seed=1, max_examples=5, failures_dir=tmp_path), properties=["authorize"])
    assert other.results[0].status is Status.PASSED
    listing = check_authorizer(target(), Options(seed=1, max_examples=5, failures_dir=tmp_path), properties=["listing"])
    assert listing.results[0].status is Status.PASSED


def test_a_fixed_case_lets_the_run_pass_and_an_unreadable_file_is_not_this_runs_to_judge(tmp_path: Path) -> None:
    saved_case(tmp_path)
    (tmp_path / "authorize-broken-0000000000.json").write_text("{not json", encoding="utf-8")
    fixed = Target("python:tests:rare", lambda: ReferenceTarget(PROFILE), ReferenceTarget(PROFILE).capabilities())
    report = check_authorizer(fixed, Options(seed=1, max_examples=5, failures_dir=tmp_path), properties=["authorize"])
    assert report.results[0].status is Status.PASSED


def test_a_run_without_a_seed_draws_one_says_which_and_that_seed_repeats_it(
        hypothesis_profile: Callable[[str], None]) -> None:
    hypothesis_profile("kc-tests-random")
    first = check_authorizer("reference", Options(max_examples=10), properties=["authorize", "record-log"])
    assert isinstance(first.seed, int)
    assert f"seed {first.seed}," in to_text(first)
    again = check_authorizer("reference", Options(seed=first.seed, max_examples=10), properties=["authorize", "record-log"])
    assert again.seed == first.seed
    assert (again.coverage, again.domain) == (first.coverage, first.domain)


def test_a_derandomized_run_draws_no_seed_says_so_and_runs_the_same_cases_again(
        hypothesis_profile: Callable[[str], None]) -> None:
    """Hypothesis loads its own ``ci`` profile, which derandomizes, when ``CI`` is set: such a
    run is repeatable without a seed, and must not claim one (or say it was random)."""
    hypothesis_profile("kc-tests-derandomized")
    first = check_authorizer("reference", Options(max_examples=10), properties=["authorize", "record-log"])
    again = check_authorizer("reference", Options(max_examples=10), properties=["authorize", "record-log"])
    assert first.seed is None and again.seed is None
    assert "derandomized" in to_text(first) and "random" not in to_text(first).replace("derandomized", "")
    assert (again.coverage, again.domain) == (first.coverage, first.domain)


def test_every_suite_draws_its_seed_the_same_way(hypothesis_profile: Callable[[str], None]) -> None:
    from kafka_conformance.producer.check import check_producer

    hypothesis_profile("kc-tests-random")
    assert isinstance(check_producer("model", Options(max_examples=1)).seed, int)
    hypothesis_profile("kc-tests-derandomized")
    assert check_producer("model", Options(max_examples=1)).seed is None
    assert check_producer("model", Options(seed=4, max_examples=1)).seed == 4


@pytest.mark.parametrize("seed", [0, 5])
def test_a_given_seed_is_kept(seed: int) -> None:
    assert check_authorizer("reference", Options(seed=seed, max_examples=2), properties=["authorize"]).seed == seed


class RaisesOnIPv6(ReferenceTarget):
    """A user's bug: a host lookup table without the IPv6 loopback."""

    def __init__(self) -> None:
        super().__init__(PROFILE)
        self.zones = {"10.0.0.1": "a", "10.0.0.2": "b"}

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        if self.zones[context.host]:  # the bug: KeyError for any other host
            return super().authorize(context, actions)
        return []


def test_an_exception_of_the_implementation_names_the_question_and_the_line_and_is_shown_once() -> None:
    caps = RaisesOnIPv6().capabilities()
    report = check_authorizer(Target("python:tests:ipv6", RaisesOnIPv6, caps), Options(seed=3, max_examples=30),
                              mode="hostile", properties=["authorize", "not-ready", "records"])
    errors = [r for r in report.results if r.counterexample is not None and r.counterexample.adapter_error]
    assert errors, [r.status for r in report.results]
    error = errors[0].counterexample.adapter_error  # type: ignore[union-attr]
    assert error.startswith("authorize() raised KeyError")
    assert "\n  asked: authorize(" in error
    assert "test_sticky_and_seeds.py" in error and "self.zones[context.host]" in error
    text = to_text(report)
    assert text.count("raised at (innermost last)") == 1


def test_a_case_found_in_another_mode_is_not_asked(tmp_path: Path) -> None:
    saved_case(tmp_path)  # saved as a mixed-mode finding
    report = check_authorizer(target(), Options(seed=1, max_examples=5, failures_dir=tmp_path),
                              properties=["authorize"], mode="well-formed")
    assert report.results[0].status is Status.PASSED


def test_a_divergence_after_a_refused_record_is_blamed_on_it_only_where_the_answer_changed() -> None:
    """The target answers the rare name wrongly from the start; the first questions come after a
    refused record: nothing shows the record changed anything, so the divergence keeps its own name."""
    from kafka_conformance.reference.authorizer.records import RemoveAcl

    alice = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
    scenario = Scenario(queries=(Query(alice, (Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, RARE)),)),),
                        records=(RemoveAcl("unknown"),))
    found = run_property_once("record-log", target(), scenario)
    assert found.status is Status.FAILED and found.counterexample is not None
    assert found.counterexample.divergence is not None
    assert found.counterexample.divergence.anomaly != "refused-record-changed-state"
    assert "after the refused record" in found.counterexample.divergence.step


@pytest.mark.parametrize("message", [
    '"""\nimport pathlib; pathlib.Path("PWNED").write_text("x")\n"""',
    "C:\\new\\x\\u0041 and a lone surrogate \ud800",
    "'''\r\nraise SystemExit(9)\r\n'''",
])
def test_the_regression_file_of_a_saved_case_holds_the_targets_message_as_an_inert_string(
        tmp_path: Path, message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The target's error message lands in the .py written beside a saved case: it must be data,
    not code (issue 33), and the file must stay valid Python."""
    from kafka_conformance.authorizer.report import Counterexample

    monkeypatch.chdir(tmp_path)
    cx = Counterexample("authorize", Scenario(), adapter_error=message)
    saved = save_counterexample(cx, tmp_path / "failures", target(), 1)
    source = saved.with_suffix(".py").read_text(encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(compile(source, str(saved.with_suffix(".py")), "exec"), namespace)  # the module's top level only
    assert namespace["FOUND"] == message
    assert not (tmp_path / "PWNED").exists()
