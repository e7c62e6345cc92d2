"""The transactions suite in the report: which brokers it runs on, and its report as a column."""

from __future__ import annotations

import pytest

from kafka_conformance.reference.transactions.table import TXN_ROWS
from kafka_conformance.report import plan
from kafka_conformance.report.columns.transactions import (
    DIFFERS,
    GENERATED_SCRIPTS,
    transactions_column,
    transactions_rows,
)
from kafka_conformance.report.model import CellStatus, Report, SuiteRun
from kafka_conformance.report.write_html import to_html
from kafka_conformance.transactions.check import Generated, RowResult, TxnReport

A, B, C = (r.name for r in TXN_ROWS[:3])
DIFFERENCE = ("step 2 commit : broker answered held, Kafka answers error INVALID_TXN_STATE "
              "(the transaction was aborted)")


def _report(generated: Generated | None) -> TxnReport:
    rows = (RowResult(A, "q-a", (), ("zombie-write",), ("zombie-write",)),
            RowResult(B, "q-b", (DIFFERENCE, "partition 0 committed: broker [1, 2], Kafka [1]"), ("aborted-read",), ()),
            RowResult(C, "q-c", (), (), (), error="connection reset"))
    return TxnReport("kfake", "Kafka 3.9.0 transactions (v1)", rows, generated, 3.5)


def test_each_row_becomes_a_cell_that_says_what_the_broker_did() -> None:
    column = transactions_column(_report(None), release="3.9.0", replay_options="--kafka-version 3.9.0")
    assert column.suite == "transactions" and column.release == "3.9.0"
    cells = {c.row: c for c in column.cells}
    assert cells[A].status is CellStatus.HOLDS and cells[A].notes == ("zombie-write: Kafka's release shows it too on this row",)
    assert cells[C].status is CellStatus.COULD_NOT_RUN and "connection reset" in cells[C].reason
    [found] = cells[B].divergences
    assert cells[B].status is CellStatus.DIVERGES and found.anomaly == "aborted-read"  # the broker's own anomaly
    assert found.expected == "error INVALID_TXN_STATE (the transaction was aborted)" and found.actual == "held"
    assert found.replay == f"kafka-conformance check transactions --broker kfake --row {B} --kafka-version 3.9.0"
    assert any(line.startswith("0. ") for line in found.case) and f"differs: {DIFFERENCE}" in found.case
    assert cells[GENERATED_SCRIPTS].status is CellStatus.NOT_RUN
    assert [r.id for r in transactions_rows()][-1] == GENERATED_SCRIPTS
    assert {c.row for c in column.cells} <= {r.id for r in transactions_rows()}


def test_generated_scripts_hold_or_diverge_with_the_shrunk_script() -> None:
    held = transactions_column(_report(Generated(10, 3)), release="3.9.0")
    assert {c.row: c for c in held.cells}[GENERATED_SCRIPTS].status is CellStatus.HOLDS and held.seed == 3
    script = TXN_ROWS[0].script
    failure = RowResult("generated", "a generated script", ("partition 1 last stable offset: broker 4, Kafka 2",), (), ())
    diverged = transactions_column(_report(Generated(4, 3, failure, script, flaky=True)), release="3.9.0")
    cell = {c.row: c for c in diverged.cells}[GENERATED_SCRIPTS]
    [found] = cell.divergences
    assert cell.status is CellStatus.DIVERGES and cell.cases == 4 and found.anomaly == DIFFERS
    assert (found.expected, found.actual) == ("2", "4") and found.replay is None
    assert len([line for line in found.case if not line.startswith("differs")]) == len(script.steps)
    assert "differently when it was run again" in cell.notes[-1]
    page = to_html(Report(suites=(SuiteRun("transactions", transactions_rows(), (diverged,)),)))
    assert "Transactions: the coordinator" in page and DIFFERS in page


def test_a_broker_named_runs_the_transaction_table_and_the_defaults_say_what_would() -> None:
    named = plan.make_plan(brokers=["kafka:3.9.1"])
    assert "transactions" in named.suites and named.transactions == (("kafka:3.9.1", True),)
    assert "transactions" not in plan.make_plan(brokers=["test-broker"]).suites  # the test broker has no coordinator
    default = plan.make_plan(suites=["transactions"])
    if not default.transactions:  # no wheel broker installed here: the page says how to run the suite
        [line] = [n for n in default.not_run if n.suite == "transactions" and n.target == "--broker"]
        assert "--broker kafka:VERSION" in line.reason
    with pytest.raises(plan.ReportError, match="transactions"):
        plan.make_plan(suites=["nope"])
    with pytest.raises(plan.ReportError, match=r"no broker named runs transactions \(test-broker\)"):
        plan.make_plan(suites=["transactions"], brokers=["test-broker"])


def test_a_requests_run_is_a_column_whose_named_scenarios_hold_or_diverge() -> None:
    """``check requests --junit-xml`` writes through the report's JUnit writer: each named scenario a
    test case, the generated ones one more."""
    from kafka_conformance.report.columns.requests import GENERATED_SCENARIOS, requests_column, requests_rows
    from kafka_conformance.report.write_junit import to_junit_xml
    from kafka_conformance.requests.check import Divergence as RequestDivergence
    from kafka_conformance.requests.check import RequestsReport
    from kafka_conformance.requests.scenarios import NAMED

    refused = RequestDivergence("refused-but-allowed", NAMED[1].name, ("ALLOW User:alice WRITE on TOPIC orders",),
                                "InitProducerId", None, "granted", "CLUSTER_AUTHORIZATION_FAILED (31)", "KIP-679")
    report = RequestsReport("kafka:2.7.2", "127.0.0.1:1", "2.8.2", "acl", 1, len(NAMED), 8 * len(NAMED), (refused,), 2.0)
    column = requests_column(report)
    cells = {c.row: c for c in column.cells}
    assert [r.id for r in requests_rows()] == [*(s.name for s in NAMED), GENERATED_SCENARIOS]
    assert cells[NAMED[0].name].status is CellStatus.HOLDS
    [found] = cells[NAMED[1].name].divergences
    assert cells[NAMED[1].name].status is CellStatus.DIVERGES and found.actual == "CLUSTER_AUTHORIZATION_FAILED (31)"
    assert found.case[-1] == "request: InitProducerId"
    assert cells[GENERATED_SCENARIOS].status is CellStatus.NOT_RUN  # no scenario beyond the named ones
    xml = to_junit_xml(Report(suites=(SuiteRun("requests", requests_rows(), (column,)),)))
    assert f'tests="{len(NAMED) + 1}" failures="1"' in xml
