"""Every row of the trace table, run on the model engine, shows what the row expects.

The table (conformance/producer/trace_table.py) is ``docs/spec/idempotence.md`` §5.2 as producer traces;
the model engine is the reference producer against the reference cluster.  A row
failing here means the reference and the table disagree: one of them is wrong.
"""

from __future__ import annotations

import pytest

from kafka_conformance.producer.model_engine import model_failures, run_model
from kafka_conformance.producer.trace_table import NOT_EXPRESSIBLE, TRACE_TABLE, TableEntry, entry_problems
from kafka_conformance.reference.delivery.verdicts import Attribution


@pytest.mark.parametrize("row", TRACE_TABLE, ids=lambda r: f"row{r.number}")
def test_row_on_the_model(row: TableEntry) -> None:
    run = run_model(row.trace)
    problems = entry_problems(
        row, None if run.config_error else run.report, run.events, epoch_bumps=run.epoch_bumps, config_error=run.config_error is not None
    )
    assert not problems, "\n".join([*problems, run.report.describe()])


@pytest.mark.parametrize("row", [r for r in TRACE_TABLE if not r.config_error], ids=lambda r: f"row{r.number}")
def test_failures_are_only_the_expected_ones(row: TableEntry) -> None:
    """The reference shows no broker or client anomaly beyond those the row names."""
    run = run_model(row.trace)
    expected = {(name, who) for name, who in row.anomalies if who is not Attribution.OUTSIDE_GUARANTEE}
    unexpected = [a for a in model_failures(run) if (a.name, a.attribution) not in expected]
    assert not unexpected, run.report.describe()


def test_rows_are_unique_and_cover_the_facts_file() -> None:
    numbers = [r.number for r in TRACE_TABLE]
    assert len(numbers) == len(set(numbers))
    covered = {n.rstrip("bc") for n in numbers} | {n for n, _ in NOT_EXPRESSIBLE}
    assert covered == {str(i) for i in range(1, 26)}


def test_model_only_rows_are_the_seeded_ones() -> None:
    for row in TRACE_TABLE:
        assert row.model_only == (row.trace.initial_sequence != 0), row.number


def test_entry_problems_reports_a_wrong_run() -> None:
    """The expectations can fail: row 1's expectations against row 17's run (a duplicate)."""
    row1 = next(r for r in TRACE_TABLE if r.number == "1")
    row17 = next(r for r in TRACE_TABLE if r.number == "17")
    run = run_model(row17.trace)
    problems = entry_problems(row1, run.report, run.events, epoch_bumps=run.epoch_bumps)
    assert any("G-AMO" in p for p in problems)
    assert any("v1: expected acked" in p for p in problems)


def test_a_delayed_answer_holds_back_the_answers_behind_it() -> None:
    """The model engine answers in request order per connection, as TCP and the test broker do:
    row 14b's INVALID_RECORD for v2 (not delayed) arrives only with v1's delayed answer."""
    from kafka_conformance.producer.model_engine import run_model
    from kafka_conformance.producer.trace_table import TRACE_TABLE
    from kafka_conformance.reference.traces.events import Response

    row = next(r for r in TRACE_TABLE if r.number == "14b")
    answers = [(e.attempt_id, e.time_ms) for e in run_model(row.trace).events if isinstance(e, Response)]
    assert answers[1:3] == [(2, answers[1][1]), (3, answers[1][1])] and answers[1][1] >= 1000, answers
