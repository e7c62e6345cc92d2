"""The kit's exam, in the gate: every mutant of the zoo is caught under the default
profile on seed 0 (``tox -e selftest`` runs all five seeds), the unmutated zoo
authorizer and the independent example pass, and the default run reaches every
input class."""

from __future__ import annotations

import pytest
from my_authorizer import factory

from kafka_conformance.adapters.protocol import validate_adapter
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.domain.classes import DOMAIN, applicable_classes
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.targets import Target
from kafka_conformance.options import Options
from kafka_conformance.selftest.scorecard import run_baseline, run_mutant
from kafka_conformance.selftest.zoo import SHOWN_ONLY_BY, ZOO


@pytest.mark.parametrize("name", sorted(ZOO))
def test_mutant_is_caught_under_the_default_profile(name: str) -> None:
    catch = run_mutant(ZOO[name], seed=0)
    assert catch.caught, f"the kit passed the faulty authorizer {name!r} ({ZOO[name].what})"


@pytest.mark.parametrize("mode", ["mixed", "well-formed", "hostile"])
def test_the_coverage_phase_alone_catches_every_mutant_the_mode_can_show(mode: str) -> None:
    """With one random example per property, only the fixed cases of the coverage phase decide:
    a verdict that holds on every seed.  A well-formed run is excused only the mutants whose
    defect hostile input alone shows."""
    missed = [name for name, mutant in sorted(ZOO.items())
              if not (mode == "well-formed" and mutant.hostile_only)
              and not run_mutant(mutant, seed=7, mode=mode, max_examples=1).caught]
    assert missed == []


def test_the_mutants_excused_from_well_formed_runs_name_a_hostile_class() -> None:
    hostile = {c.name for c in DOMAIN if "hostile" in c.needs}
    assert SHOWN_ONLY_BY and set(SHOWN_ONLY_BY) <= set(ZOO) and set(SHOWN_ONLY_BY.values()) <= hostile
    assert {name for name, m in ZOO.items() if m.hostile_only} == set(SHOWN_ONLY_BY)


@pytest.mark.parametrize("name", sorted(SHOWN_ONLY_BY))
def test_an_excused_mutant_does_escape_well_formed_input(name: str) -> None:
    """The excuse is not too broad: a well-formed run cannot tell the mutant from Kafka."""
    assert not run_mutant(ZOO[name], seed=7, mode="well-formed", max_examples=10).caught


def test_unmutated_zoo_authorizer_conforms_and_reaches_every_class() -> None:
    run = run_baseline(seed=0)
    assert run.conforms
    assert run.classes_reached == run.classes_applicable and not run.missing, run.missing


@pytest.mark.parametrize("mode", ["mixed", "well-formed", "hostile"])
def test_independent_example_passes(mode: str) -> None:
    sample = factory()
    validate_adapter(sample, where="example")
    report = check_authorizer(Target("example", factory, sample.capabilities()), Options(seed=1), mode=mode)
    assert report.verdict.value == "conforms", [r.counterexample for r in report.results if r.counterexample]


def test_the_zoo_is_big_and_named_by_area() -> None:
    assert len(ZOO) >= 60
    assert {m.area for m in ZOO.values()} >= {"principal", "host", "name", "operation", "decision", "config",
                                               "readiness", "records", "by-type", "listing"}


def test_every_class_has_a_stable_unique_name() -> None:
    names = [c.name for c in DOMAIN]
    assert len(names) == len(set(names))
    assert all(":" in n and n == n.lower() for n in names)


def test_well_formed_mode_has_no_hostile_classes() -> None:
    from kafka_conformance.adapters.protocol import Capabilities

    assert not any("hostile" in c.needs for c in applicable_classes(Capabilities(), "well-formed"))


def test_counterexamples_are_one_minimal() -> None:
    """Removing any one ACL, record or question from a saved case makes its failure go away."""
    from kafka_conformance.authorizer.minimize import smaller_by_one
    from kafka_conformance.authorizer.properties import PROPERTIES
    from kafka_conformance.authorizer.support import CheckContext

    for name in ("allow-beats-deny", "kafka-14265-longest-prefix-only", "by-type-deny-only-wildcard",
                 "unknown-remove-ignored"):
        mutant = ZOO[name]
        target = Target(f"zoo:{name}", mutant.make, mutant.make().capabilities())
        report = check_authorizer(target, Options(seed=0), stop_at_first_failure=True)
        failed = next(r for r in report.results if r.status in (Status.FAILED, Status.ERROR))
        cx = failed.counterexample
        assert cx is not None
        prop = next(p for p in PROPERTIES if p.name == failed.name)
        for smaller in smaller_by_one(cx.scenario):
            try:
                prop.check(CheckContext(target.make, target.capabilities), smaller)
            except AssertionError as exc:
                anomaly = getattr(getattr(exc, "divergence", None), "anomaly", "adapter-error")
                assert anomaly != cx.anomaly, (name, smaller)
