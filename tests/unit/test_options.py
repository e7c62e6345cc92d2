"""One options value for every check_* callable: the same concept is spelled once, in one place."""

from __future__ import annotations

import inspect
from pathlib import Path

import attrs
import pytest

import kafka_conformance
from kafka_conformance import Options
from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.authorizer.domain.coverage import coverage_cases
from kafka_conformance.terminal.events import Kind, ProgressEvent

CHECKS = ("check_authorizer", "check_broker", "check_producer", "check_requests", "check_transactions")
SHARED = {f.name for f in attrs.fields(Options)}


@pytest.mark.parametrize("name", CHECKS)
def test_every_check_takes_its_target_then_the_options_and_nothing_shared_besides(name: str) -> None:
    params = list(inspect.signature(getattr(kafka_conformance, name)).parameters.values())
    assert params[1].name == "options" and params[1].default is None
    rest = params[2:]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest), name
    assert not SHARED & {p.name for p in rest}, f"{name} spells a shared setting as its own keyword"
    assert not [p.name for p in rest if p.name.startswith("on_")], f"{name} has a callback besides options.progress"


@pytest.mark.parametrize(("field", "value"), [
    ("max_examples", -1), ("max_examples", 100_001), ("max_examples", True), ("max_examples", 2.5),
    ("timeout", 0), ("timeout", "10"), ("timeout", float("nan")), ("timeout", 86_401),
    ("seed", -1), ("seed", "1"),
])
def test_a_value_no_suite_can_use_is_refused_where_it_is_built(field: str, value: object) -> None:
    with pytest.raises(TargetError, match=field):
        Options(**{field: value})


def test_defaults_are_each_suite_s_own() -> None:
    assert Options().examples(15) == 15
    assert Options(max_examples=0).examples(15) == 0
    assert Options(failures_dir="here").failures_dir == Path("here")


def test_zero_examples_runs_the_coverage_phase_alone() -> None:
    report = kafka_conformance.check_authorizer("reference", Options(max_examples=0, seed=1), properties=["authorize"])
    (result,) = report.results
    assert result.examples == len(coverage_cases("authorize", _caps(), "mixed")) > 0


def _caps():  # the reference's capabilities, as the run resolves them
    from kafka_conformance.authorizer.targets import resolve_target

    return resolve_target("reference").capabilities


def test_one_value_serves_two_suites_with_one_progress_stream() -> None:
    seen: list[ProgressEvent] = []
    options = Options(seed=7, max_examples=2, progress=seen.append)
    authorizer = kafka_conformance.check_authorizer("reference", options, properties=["authorize"])
    producer = kafka_conformance.check_producer("model", options)
    assert authorizer.seed == producer.seed == 7
    columns = {e.target.split()[0] for e in seen if e.kind is Kind.START}
    assert columns == {"authorizer", "producer"}
