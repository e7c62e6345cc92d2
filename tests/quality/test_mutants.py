"""The kit must catch every planted bug with the default number of examples, and
must pass the independent correct implementation."""

from __future__ import annotations

import pytest
from hypothesis import settings
from mutants import MUTANTS
from my_authorizer import factory

from kafka_conformance.adapters.protocol import validate_adapter
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.properties import PROPERTIES
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.targets import Target

DEFAULT = settings(max_examples=100, derandomize=True, database=None)


def _target(name: str, make: object) -> Target:
    sample = make()  # type: ignore[operator]
    validate_adapter(sample, where=name)
    return Target(f"mutant:{name}", make, sample.capabilities())  # type: ignore[arg-type]


def _first_failure(target: Target, mode: str) -> tuple[str, str] | None:
    for prop in PROPERTIES:
        report = check_authorizer(target, settings=DEFAULT, mode=mode, properties=[prop.name])
        result = report.results[0]
        if result.status in (Status.FAILED, Status.ERROR):
            assert result.counterexample is not None
            return prop.name, result.counterexample.anomaly
    return None


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_caught(name: str) -> None:
    make, mode = MUTANTS[name]
    found = _first_failure(_target(name, make), mode)
    assert found is not None, f"the kit passed the faulty authorizer {name!r}"


@pytest.mark.parametrize("mode", ["well-formed", "hostile"])
def test_independent_correct_implementation_passes(mode: str) -> None:
    report = check_authorizer(_target("correct", factory), settings=DEFAULT, mode=mode)
    assert report.verdict.value == "conforms", report


def test_at_least_twenty_mutants() -> None:
    assert len(MUTANTS) >= 20
