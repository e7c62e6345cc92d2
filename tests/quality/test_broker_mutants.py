"""Every broker mutant is caught: by the trace table rows that name it, and by the model property.

The reference producer is correct, so against a mutated broker any broker or
client anomaly, or any row expectation the run misses, is the mutant showing.
"""

from __future__ import annotations

import pytest
from broker_mutants import MUTANTS
from hypothesis import HealthCheck, Phase, given, settings

from kafka_conformance.producer.model_engine import model_failures, run_model
from kafka_conformance.producer.strategies import producer_traces
from kafka_conformance.producer.trace_table import TRACE_TABLE, TableEntry, entry_problems
from kafka_conformance.reference.traces.program import ProducerTrace

SEARCH = settings(
    max_examples=500, derandomize=True, database=None, phases=(Phase.generate,), suppress_health_check=list(HealthCheck), deadline=None
)


def row_catches(row: TableEntry) -> list[str]:
    run = run_model(row.trace)
    expected = {name for name, _ in row.anomalies}
    problems = entry_problems(row, run.report, run.events, epoch_bumps=run.epoch_bumps)
    return problems + [a.describe() for a in model_failures(run) if a.name not in expected]


class _Found(Exception):
    def __init__(self, trace: ProducerTrace) -> None:
        super().__init__("found")
        self.trace = trace


def property_catches(kafka_version: str) -> ProducerTrace | None:
    """The first of 500 generated traces (derandomized) on which the model shows a failure."""

    @SEARCH
    @given(producer_traces(kafka_version=kafka_version))
    def search(trace: ProducerTrace) -> None:
        if model_failures(run_model(trace)):
            raise _Found(trace)

    try:
        search()
    except _Found as found:
        return found.trace
    return None


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_rows_that_name_a_mutant_catch_it(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [r for r in TRACE_TABLE if name in r.kills]
    assert rows, f"no trace table row claims to kill {name}"
    MUTANTS[name](monkeypatch)
    for row in rows:
        assert row_catches(row), f"row {row.number} does not notice {name}"


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_unmutated_rows_pass(name: str) -> None:
    for row in (r for r in TRACE_TABLE if name in r.kills):
        assert not row_catches(row)


PROPERTY_FINDS = ("no-dedup-window", "no-state-on-followers")
"""Mutants the model property finds in 500 generated traces.  The others need shapes random
traces rarely hit (a wrap at a batch boundary costs the correct producer only an epoch bump,
five lost answers in a row, a crash losing a batch under RF 1, a bump followed by a range equal
to a cached one); the trace table rows that name them catch them all."""


@pytest.mark.parametrize("name", PROPERTY_FINDS)
def test_the_model_property_finds_the_mutant(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    MUTANTS[name](monkeypatch)
    found = property_catches("4.3.0")
    assert found is not None, f"{name}: not found by 500 generated traces"
    assert model_failures(run_model(found))


def test_every_mutant_is_caught_by_the_table_or_the_property() -> None:
    claimed = {name for row in TRACE_TABLE for name in row.kills}
    assert set(MUTANTS) <= claimed | set(PROPERTY_FINDS)
