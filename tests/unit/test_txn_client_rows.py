"""The transaction client rows' plumbing: the HOLD rule, the rows' shape, the history a run gives the
checker, the report, and the command's refusals.  Real clients on real brokers are in
``tests/wire_brokers/test_kafka_transaction_clients.py``."""

from __future__ import annotations

import json

import pytest

from kafka_conformance.cli.main import main
from kafka_conformance.reference.traces.events import Acked, Failed, Indeterminate
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, PlanError, ProduceRule, Release
from kafka_conformance.reference.traces.program import ProducerTrace
from kafka_conformance.reference.transactions.checker import Outcome, check_history
from kafka_conformance.reference.transactions.run import PartitionRead
from kafka_conformance.transactions.client_rows import (
    CLIENT_TXN_ROWS,
    Abort,
    Begin,
    ClientTxnRow,
    Commit,
    Write,
    client_txn_row,
)
from kafka_conformance.transactions.clients import ClientRowResult, TxnClientReport, client_history, unacknowledged_commits
from kafka_conformance.transactions.report import render_client_json, render_client_text


def test_a_hold_needs_a_release_point_and_only_a_hold_takes_one() -> None:
    with pytest.raises(PlanError, match="needs a release point"):
        ProduceRule(1, Action.HOLD)
    with pytest.raises(PlanError, match="takes no release point"):
        ProduceRule(1, Action.DROP_REQUEST, release=Release.AFTER_END)
    rule = ProduceRule(1, Action.HOLD, 0, release=Release.INTO_NEXT)
    assert rule.describe() == "produce request #1 of partition 0: hold until into-next"
    assert FaultPlan.from_json(FaultPlan([rule]).to_json()).rules == (rule,)
    with pytest.raises(PlanError, match=r"rules\[0\]\.release: 'later' is not one of"):
        FaultPlan.from_json([{"nth": 1, "action": "hold", "release": "later"}])


def test_a_hold_that_lets_retries_through_says_so_and_round_trips() -> None:
    rule = ProduceRule(1, Action.HOLD, 0, release=Release.INTO_NEXT, cut=False)
    assert rule.describe() == "produce request #1 of partition 0: hold until into-next, its retries let through"
    assert rule.to_json()["cut"] is False and "cut" not in ProduceRule(1, Action.HOLD, release=Release.NEVER).to_json()
    assert FaultPlan.from_json(FaultPlan([rule]).to_json()).rules == (rule,)
    with pytest.raises(PlanError, match="cut=false is only for hold"):
        ProduceRule(1, Action.DROP_REQUEST, cut=False)
    with pytest.raises(PlanError, match=r"rules\[0\]\.cut: expected true or false, got 'no'"):
        FaultPlan.from_json([{"nth": 1, "action": "hold", "release": "never", "cut": "no"}])


def test_a_producer_trace_refuses_a_hold() -> None:
    """An idempotence trace has no transaction to end, so a hold would never be released."""
    with pytest.raises(PlanError, match="a producer trace has no transactions"):
        ProducerTrace(name="t", steps=(), plan=FaultPlan([ProduceRule(1, Action.HOLD, release=Release.NEVER)]))


def test_a_row_keeps_its_steps_inside_transactions_and_its_values_unique() -> None:
    with pytest.raises(ValueError, match="Write outside a transaction"):
        ClientTxnRow("x", "?", (Write("a", 0),))
    with pytest.raises(ValueError, match="Begin inside a transaction"):
        ClientTxnRow("x", "?", (Begin(), Begin()))
    with pytest.raises(ValueError, match="written twice"):
        ClientTxnRow("x", "?", (Begin(), Write("a", 0), Write("a", 1), Commit()))
    assert client_txn_row("late-produce-into-next").plan.rules[0].release is Release.INTO_NEXT
    with pytest.raises(KeyError, match="no transaction client row 'nosuch'"):
        client_txn_row("nosuch")
    assert len({r.name for r in CLIENT_TXN_ROWS}) == len(CLIENT_TXN_ROWS)


def _read(partition: int, committed: tuple[str, ...], uncommitted: tuple[str, ...] | None = None,
          stable: int = 10, end: int = 10) -> PartitionRead:
    return PartitionRead(partition, committed, uncommitted if uncommitted is not None else committed, stable, end)


def test_the_history_groups_writes_by_transaction_with_the_brokers_word_on_each() -> None:
    """The late-into-next shape as Kafka 3.5.2 and the Java client left it: the checker names the aborted read."""
    row = client_txn_row("late-produce-into-next")
    history = client_history(row, [Outcome.ABORTED, Outcome.COMMITTED], {"a0", "b0", "b1"},
                       (_read(0, ("a0", "b0")), _read(1, ("b1",))))
    assert [t.name for t in history.transactions] == ["t1", "t2"]
    assert [(w.value, w.partition, w.taken) for w in history.transactions[0].writes] == [("a0", 0, True)]
    assert [a.name for a in check_history(history)] == ["aborted-read"]


def test_a_run_cut_short_keeps_only_the_transactions_that_ended() -> None:
    row = ClientTxnRow("x", "?", (Begin(), Write("a", 0), Commit(), Begin(), Write("b", 0), Abort()))
    history = client_history(row, [Outcome.UNKNOWN], set(), (_read(0, ()),))
    assert [(t.name, t.outcome, t.end_taken) for t in history.transactions] == [("t1", Outcome.UNKNOWN, False)]
    assert check_history(history) == ()


def test_the_report_says_what_the_late_request_met() -> None:
    rows = (ClientRowResult("commit", "?", ("t1 committed",), (), ()),
            ClientRowResult("late-produce-into-next", "?", ("t1 commit refused (X), then aborted", "t2 committed"),
                            ("'a0' to partition 0: answered without an error (offset 1)",), ("aborted-read",),
                            ("t1 was aborted, yet read_committed reads 'a0' from partition 0",)),
            ClientRowResult("abort", "?", (), (), (), error="java: the producer process died"))
    report = TxnClientReport("java", "kafka:3.5.2", rows, 3.0)
    text = render_client_text(report)
    assert "  holds   commit" in text and "  ANOMALY late-produce-into-next     aborted-read" in text
    assert "held request sent late: 'a0' to partition 0: answered without an error (offset 1)" in text
    assert "  ERROR   abort" in text and "the row did not finish: java: the producer process died" in text
    assert "1 of 3 rows hold" in text and report.exit_code == 1
    body = json.loads(render_client_json(report))
    assert body["client"] == "java" and [r["holds"] for r in body["rows"]] == [True, False, False]


@pytest.mark.parametrize(("argv", "message"), [
    (["--client", "nosuch", "--broker", "kafka:3.9.1"],
     "--client nosuch: transactions run with aiokafka, confluent-kafka, franz-go, java, kafka-python, kafkajs, platformatic, sarama"),
    (["--client", "java", "--broker", "kafka:3.9.1", "--seed", "3"], "--seed is for the kit's own transaction scripts"),
    (["--client", "java", "--broker", "kafka:3.9.1", "--transaction-version", "2"], "--transaction-version is for"),
    (["--client", "java", "--broker", "kafka:3.9.1", "--row", "nosuch"], "no transaction client row 'nosuch'"),
])
def test_bad_client_input_is_a_usage_error(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "transactions", *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_report_gets_a_column_per_client_and_broker() -> None:
    from kafka_conformance.report import plan
    from kafka_conformance.report.columns.transaction_clients import transaction_client_column, transaction_client_rows
    from kafka_conformance.report.model import CellStatus

    rows = (ClientRowResult("commit", "?", ("t1 committed",), (), ()),
            ClientRowResult("late-produce-into-next", "a question", ("t1 aborted", "t2 committed"),
                            ("'a0' to partition 0: answered without an error (offset 1)",), ("aborted-read",), ("why",)),
            ClientRowResult("abort", "?", (), (), (), error="gone"))
    column = transaction_client_column(TxnClientReport("java", "kafka:3.5.2", rows, 1.0), release="3.5.2")
    assert column.id == "transaction-clients:java on kafka:3.5.2@3.5.2"
    assert [c.status for c in column.cells] == [CellStatus.HOLDS, CellStatus.DIVERGES, CellStatus.COULD_NOT_RUN]
    (divergence,) = column.cells[1].divergences
    assert divergence.anomaly == "aborted-read" and divergence.replay == (
        "kafka-conformance check transactions --client java --broker kafka:3.5.2 --row late-produce-into-next")
    assert "held request sent late: 'a0' to partition 0: answered without an error (offset 1)" in divergence.case
    assert [r.id for r in transaction_client_rows()] == [r.name for r in CLIENT_TXN_ROWS]

    named = plan.make_plan(clients=["java", "platformatic"], brokers=["kafka:3.9.1"])
    assert "transaction-clients" in named.suites
    assert named.transaction_clients == (("java", "kafka:3.9.1", True), ("platformatic", "kafka:3.9.1", True))
    assert not any(n.suite == "transaction-clients" for n in named.not_run)  # every producer client of the kit runs them
    default = plan.make_plan(suites=["transaction-clients"])
    assert default.transaction_clients == ()
    assert any(n.suite == "transaction-clients" and "--client" in n.reason for n in default.not_run)


def test_a_commit_over_a_send_that_did_not_succeed_is_the_clients_anomaly() -> None:
    row = ClientTxnRow("x", "?", (Begin(), Write("a", 0), Write("b", 1), Commit(), Begin(), Write("c", 0), Write("d", 0),
                                  Commit(), Begin(), Write("e", 0), Abort()))
    events = (Acked("a", 0), Indeterminate("b", "KafkaTimeoutError"), Failed("c", "45"), Acked("e", 3))
    found = unacknowledged_commits(row, [Outcome.COMMITTED, Outcome.COMMITTED, Outcome.ABORTED], events)
    assert [name for name, _ in found] == ["committed-unacknowledged-write"] * 3
    assert [why.split(", but ")[1] for _, why in found] == [
        "its send of 'b' to partition 1 failed without saying whether it was written (KafkaTimeoutError)",
        "its send of 'c' to partition 0 failed (45)",
        "its send of 'd' to partition 0 never completed",
    ]
    assert unacknowledged_commits(row, [Outcome.ABORTED, Outcome.UNKNOWN], events) == []


def test_a_row_that_kills_a_broker_needs_a_cluster_and_is_left_out_on_one_broker() -> None:
    from kafka_conformance.report.columns.transaction_clients import transaction_client_column
    from kafka_conformance.report.model import CellStatus
    from kafka_conformance.transactions.client_rows import CrashCoordinator

    crash = client_txn_row("coordinator-crash")
    assert crash.needs_cluster and not any(r.needs_cluster for r in CLIENT_TXN_ROWS if r is not crash)
    with pytest.raises(ValueError, match="CrashCoordinator outside a transaction"):
        ClientTxnRow("x", "?", (CrashCoordinator(),))
    report = TxnClientReport("java", "kafka:3.9.1", (ClientRowResult("commit", "?", ("t1 committed",), (), ()),), 1.0,
                             left_out=("coordinator-crash",))
    assert report.conforms  # a row left out is no evidence either way
    text = render_client_text(report)
    assert "left out: coordinator-crash (kills a broker: run on kafka-cluster:VERSION)" in text
    assert json.loads(render_client_json(report))["left_out"] == ["coordinator-crash"]
    cells = transaction_client_column(report, release="3.9.1").cells
    assert [(c.row, c.status) for c in cells] == [("commit", CellStatus.HOLDS),
                                                  ("coordinator-crash", CellStatus.NOT_APPLICABLE)]


class _StuckCommit:
    """A session whose commit never answers (as kafka-python's after its coordinator was killed)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def txn(self, action: str, timeout_s: float) -> dict[str, object]:
        from kafka_conformance.adapters.clients.protocol import CallTimedOut

        self.calls.append(action)
        if action == "commit":
            raise CallTimedOut(f"the transaction call commit gave no answer within {timeout_s:.0f} s")
        return {"ok": True}

    def send(self, step: object, topic: str) -> None:
        self.calls.append("send")

    def flush(self, seconds: float) -> None:
        self.calls.append("flush")

    def stop(self) -> None:
        self.calls.append("stop")


def test_a_commit_that_never_answers_ends_the_row_with_the_transaction_unknown() -> None:
    from kafka_conformance.transactions import clients
    from kafka_conformance.transactions.client_rows import CrashCoordinator

    row = ClientTxnRow("x", "?", (Begin(), Write("a", 0), CrashCoordinator(), Commit(), Begin(), Write("b", 0), Commit()))
    session, crashed = _StuckCommit(), []
    outcomes: list[Outcome] = []
    words: list[str] = []
    clients._play(row, session, "t", lambda: crashed.append(True), lambda since: True, outcomes,  # type: ignore[arg-type]
                  words)
    assert outcomes == [Outcome.UNKNOWN] and crashed == [True]
    assert words == [f"t1 commit gave no answer within {clients.CALL_TIMEOUT_S:.0f} s: the producer cannot go on"]
    assert session.calls == ["begin", "send", "flush", "commit"]  # flushed before the kill; nothing after the hang


class _Answers(_StuckCommit):
    """A session whose commit and abort answer as given."""

    def __init__(self, commit: dict[str, object], abort: dict[str, object] | None = None) -> None:
        super().__init__()
        self.answers = {"commit": commit, "abort": abort or {"ok": True}}

    def txn(self, action: str, timeout_s: float) -> dict[str, object]:
        self.calls.append(action)
        return self.answers.get(action, {"ok": True})


@pytest.mark.parametrize(("aborted_by_timeout", "commit", "outcome", "said"), [
    (True, {"ok": False, "fatal": True, "error": "ProducerFencedException"}, Outcome.ABORTED,
     "the coordinator had aborted it at its timeout"),
    (True, {"ok": True}, Outcome.COMMITTED, "t1 committed"),  # the checker then finds its writes gone
])
def test_a_stalled_transaction_aborted_by_the_coordinator_ends_aborted_when_the_commit_is_refused(
        aborted_by_timeout: bool, commit: dict[str, object], outcome: Outcome, said: str) -> None:
    from kafka_conformance.transactions import clients
    from kafka_conformance.transactions.client_rows import STALL_TIMEOUT_MS, Stall, client_txn_row

    row = client_txn_row("stall-past-timeout")
    assert row.steps[-2:] == (Stall(), Commit()) and row.timeout_ms == STALL_TIMEOUT_MS
    assert ClientTxnRow("y", "?", (Begin(), Write("a", 0), Commit())).timeout_ms == 60_000
    session, stalled = _Answers(commit), []
    outcomes: list[Outcome] = []
    words: list[str] = []
    clients._play(row, session, "t", lambda: None, lambda since: stalled.append(since) or aborted_by_timeout,  # type: ignore[arg-type]
                  outcomes, words)
    assert outcomes == [outcome] and said in words[0], words
    assert session.calls[:4] == ["begin", "send", "send", "flush"] and len(stalled) == 1  # flushed, then the wait


def test_a_stall_the_coordinator_never_ended_is_no_evidence() -> None:
    from kafka_conformance.adapters.clients.protocol import ClientRunError
    from kafka_conformance.transactions import clients
    from kafka_conformance.transactions.client_rows import client_txn_row

    session = _Answers({"ok": True})
    with pytest.raises(ClientRunError, match="did not abort the transaction"):
        clients._play(client_txn_row("stall-past-timeout"), session, "t", lambda: None,  # type: ignore[arg-type]
                      lambda since: False, [], [])
    assert "commit" not in session.calls


def test_a_duplicates_answer_to_other_values_is_not_a_write() -> None:
    """KafkaJS on a cluster (docs/findings.md, "Where Kafka corrected the kit"): 'b0' stamped with the sequence 'a0'
    was written with is answered with a0's offset; the broker did not take b0, and the row says why."""
    from types import SimpleNamespace

    from kafka_conformance.adapters.brokers.fault_hold import LateDelivery
    from kafka_conformance.reference.broker.produce_errors import ProduceError
    from kafka_conformance.reference.traces.events import Attempt, Response
    from kafka_conformance.transactions import clients

    events = [Attempt(1, ("a0",), 0, 1000, 0, 0, 10), Response(1, ProduceError.NONE, 0, 11),
              Attempt(2, ("a0",), 0, 1000, 0, 0, 20), Response(2, ProduceError.NONE, 0, 21),  # a retry: the same answer
              Attempt(3, ("b0",), 0, 1000, 0, 0, 30), Response(3, ProduceError.NONE, 0, 31),  # a0's offset: not written
              Attempt(4, ("b1",), 1, 1000, 0, 0, 40), Response(4, ProduceError.NONE, 0, 41),
              Attempt(5, ("e0",), 0, 1000, 0, 3, 50), Response(5, ProduceError.NONE, 0, 51)]
    proxy = SimpleNamespace(events=events, late=[LateDelivery(("c0",), 0, 0, 1), LateDelivery(("d0",), 0, 48)])
    taken, notes = clients._taken(proxy)  # type: ignore[arg-type]
    assert taken == {"a0", "b1", "c0", "e0"}  # e0: other stamps, answered with a0's offset: the broker's word stands
    assert notes == ["'b0' to partition 0 was answered with offset 0, where 'a0' is: a duplicate's answer to a batch "
                     "stamped with a sequence already used, so it was not written"]
