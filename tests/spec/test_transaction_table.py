"""The transaction table on the model, and the transaction checker on hand-made histories.

The expected anomalies per release below are what real brokers showed: ``kafka-conformance check
transactions`` ran every row on Kafka 3.5.2, 3.6.2, 3.9.1 and 4.3.1 (with transaction.version 1
and 2) and each broker answered every step and every read exactly as the model does
(``docs/transactions-conformance.md``; ``tests/wire_brokers/test_kafka_transactions.py`` repeats
it on real brokers).  Pinning them here keeps a change to the spec from moving a verdict unseen.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference.transactions.checker import (
    TXN_ANOMALIES,
    Blame,
    Outcome,
    Transaction,
    TxnHistory,
    TxnWrite,
    check_history,
    history_of,
)
from kafka_conformance.reference.transactions.model import run_model
from kafka_conformance.reference.transactions.profile import txn_profile
from kafka_conformance.reference.transactions.run import NOT_TIMED_OUT, PartitionRead, ScriptRun, StepAnswer
from kafka_conformance.reference.transactions.script import (
    Add,
    End,
    Expire,
    Init,
    Produce,
    ScriptError,
    Send,
    TxnScript,
    script_from_json,
    script_to_json,
)
from kafka_conformance.reference.transactions.table import TXN_ROWS, txn_row

LATE = ("late-produce-after-abort", "late-produce-into-next", "late-produce-after-commit")
EXPECTED = {  # release (transaction.version) -> row -> anomaly names
    ("3.5.2", 1): {"produce-without-add": ("torn-transaction", "hanging-transaction"),
                   "produce-after-refused": ("aborted-read",),
                   "late-produce-after-abort": ("hanging-transaction",),
                   "late-produce-into-next": ("aborted-read",),
                   "late-produce-after-commit": ("lost-committed-write", "torn-transaction")},
    ("3.6.2", 1): {"late-produce-into-next": ("aborted-read",),
                   "late-produce-after-commit": ("lost-committed-write", "torn-transaction")},
    ("3.9.1", 1): {"late-produce-into-next": ("aborted-read",),
                   "late-produce-after-commit": ("lost-committed-write", "torn-transaction")},
    ("4.3.1", 1): {"late-produce-into-next": ("aborted-read",),
                   "late-produce-after-commit": ("lost-committed-write", "torn-transaction")},
    ("4.3.1", 2): {},
}


@pytest.mark.parametrize(("release", "tv"), list(EXPECTED))
def test_each_release_shows_the_anomalies_real_kafka_showed(release: str, tv: int) -> None:
    profile = txn_profile(release, transaction_version=tv)
    got = {row.name: tuple(a.name for a in check_history(history_of(run_model(row.script, profile)))) for row in TXN_ROWS}
    assert {k: v for k, v in got.items() if v} == EXPECTED[(release, tv)]


def test_verification_refuses_the_late_produce_after_an_abort_from_3_6() -> None:
    row = txn_row("late-produce-after-abort")
    codes = {v: run_model(row.script, txn_profile(v)).answers[-1].error for v in ("3.5.2", "3.6.2", "3.9.1")}
    assert codes == {"3.5.2": 0, "3.6.2": 48, "3.9.1": 48}
    assert run_model(row.script, txn_profile("4.3.1", transaction_version=2)).answers[-1].error == 47


def test_the_lowest_sequence_verification_saw_refuses_a_higher_one_from_3_6() -> None:
    """KAFKA-14920 (3.6.0, ProducerAppendInfo.checkSequence): a batch refused by verification leaves its
    sequence behind, and the next batch with a higher one is OUT_OF_ORDER_SEQUENCE_NUMBER until a
    transactional append of the producer clears it; with transaction.version 2 the epoch bump resets it."""
    row = txn_row("produce-after-refused")
    codes = {(v, tv): [a.error for a in run_model(row.script, txn_profile(v, transaction_version=tv)).answers]
             for v, tv in (("3.5.2", 1), ("3.6.2", 1), ("4.3.1", 2))}
    assert codes == {("3.5.2", 1): [0] * 8, ("3.6.2", 1): [0, 0, 0, 48, 0, 0, 45, 0], ("4.3.1", 2): [0] * 8}


def test_with_transaction_version_2_a_fresh_producer_starts_at_sequence_0_from_4_1() -> None:
    """KAFKA-18202 (4.1.0): the shrunk script a generated run found on Kafka 4.3.1 with transaction.version 2,
    a held first batch overtaken by the second, whose sequence 1 a producer with no state may not start at."""
    script = TxnScript("overtaken", (Init("a"), Add("a", {0}), Produce("a", 0, name="first", held=True), Produce("a", 0),
                                     Send("first"), End("a", False)))
    codes = {v: [a.error for a in run_model(script, txn_profile(v, transaction_version=2)).answers] for v in ("4.0.0", "4.3.1")}
    assert codes == {"4.0.0": [0, 0, None, 0, 45, 0], "4.3.1": [0, 0, None, 45, 0, 0]}
    assert [a.error for a in run_model(script, txn_profile("4.3.1")).answers] == [0, 0, None, 0, 45, 0]


def test_a_zombie_is_fenced_and_its_open_transaction_aborted() -> None:
    run = run_model(txn_row("zombie-fenced").script, txn_profile("3.9.1"))
    assert [a.error for a in run.answers] == [0, 0, 0, 0, 47, 90, 90, 0, 0, 0]
    assert (run.answers[3].producer, run.answers[3].epoch) == (0, 2)  # the same id, epoch + 2 after the abort
    assert run.reads[0].committed == ("b8.0",) and run.reads[0].uncommitted == ("a2.0", "b8.0")


def test_the_last_stable_offset_waits_for_an_open_transaction() -> None:
    run = run_model(txn_row("open-holds-lso").script, txn_profile("3.9.1"))
    read = run.reads[0]
    assert (read.committed, read.last_stable_offset, read.log_end_offset) == (("a2.0",), 2, 3)


@pytest.mark.parametrize(("release", "tv", "commit_code"), [("3.5.2", 1, 90), ("3.9.1", 1, 90), ("4.3.1", 1, 90),
                                                            ("4.3.1", 2, 48)])
def test_a_timed_out_transaction_is_aborted_and_its_commit_refused(release: str, tv: int, commit_code: int) -> None:
    """``abortTimedOutTransactions``: epoch + 1 and abort markers; the producer's commit at the old epoch is
    PRODUCER_FENCED with transaction.version 1, and INVALID_TXN_STATE with version 2, where CompleteAbort one
    epoch on reads as a retry (real Kafka 3.5.2, 3.9.1 and 4.3.1 answered the same, 2026-11-29)."""
    run = run_model(txn_row("timeout-then-commit").script, txn_profile(release, transaction_version=tv))
    assert [a.error for a in run.answers] == [0, 0, 0, 0, 0, commit_code]
    assert [(r.committed, r.uncommitted) for r in run.reads] == [((), ("a2.0",)), ((), ("a3.0",))]
    assert run.answers[4].detail == "transaction timed out: fenced and aborted"
    assert [t.outcome for t in history_of(run).transactions] == [Outcome.ABORTED]


def test_after_a_timeout_version_2_takes_the_abort_for_a_retry_and_carries_on() -> None:
    row = txn_row("timeout-then-abort")
    v1 = run_model(row.script, txn_profile("3.9.1"))
    v2 = run_model(row.script, txn_profile("4.3.1", transaction_version=2))
    assert [a.error for a in v1.answers] == [0, 0, 0, 0, 90, 90, 47, 90]  # fenced for good: it must InitProducerId
    assert [a.error for a in v2.answers] == [0, 0, 0, 0, 0, 0, 0, 0]
    assert (v2.answers[4].epoch, v2.answers[7].epoch) == (1, 2)  # the bumped epoch handed back, then the next bump
    assert v2.reads[0].committed == ("a6.0",)


def test_expire_with_nothing_open_does_nothing() -> None:
    script = TxnScript("idle", (Init("a"), Expire(), Add("a", {0}), Produce("a", 0), End("a", True)), timeout_ms=1500)
    run = run_model(script, txn_profile("3.9.1"))
    assert [a.error for a in run.answers] == [0, 0, 0, 0, 0] and run.reads[0].committed == ("a3.0",)
    assert "nothing times out" in run.answers[1].detail


def test_history_aborts_open_writes_at_a_timeout_and_leaves_them_open_when_none_came() -> None:
    script = TxnScript("t", (Init("a"), Add("a", {0}), Produce("a", 0), Expire()), timeout_ms=1500)
    reads = (PartitionRead(0, (), ("a2.0",), 2, 2), PartitionRead(1, (), (), 0, 0))

    def outcome(expire_code: int) -> Outcome:
        answers = tuple(StepAnswer(i, c) for i, c in enumerate((0, 0, 0, expire_code)))
        [txn] = history_of(ScriptRun(script, answers, reads)).transactions
        return txn.outcome

    assert (outcome(0), outcome(NOT_TIMED_OUT)) == (Outcome.ABORTED, Outcome.UNKNOWN)


def test_every_row_round_trips_through_json() -> None:
    for row in TXN_ROWS:
        assert script_from_json(script_to_json(row.script)) == row.script


@pytest.mark.parametrize(("steps", "message"), [
    ((Add("a", {0}),), "has not sent InitProducerId"),
    ((Init("a"), Send("x")), "no earlier produce names"),
    ((Init("a"), Produce("a", 0, held=True)), "needs a name"),
    ((Init("a"), Produce("a", 0, name="x", held=True)), "never sent"),
    ((Init("a"), Produce("a", 5)), "out of range"),
    ((Init("a"), Produce("a", 0, name="x"), Produce("a", 0, name="x")), "used twice"),
    ((Init("a"), Expire()), "timeout_ms must be 1000 to 10000, not 60000"),
    ((Expire(),), "before any InitProducerId"),
])
def test_scripts_that_cannot_describe_a_run_are_refused(steps: tuple, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        TxnScript("bad", steps)


def test_a_saved_script_with_a_bad_step_names_it() -> None:
    with pytest.raises(ScriptError, match="step 0: kind"):
        script_from_json({"format": 1, "name": "x", "steps": [{"kind": "explode"}]})
    with pytest.raises(ScriptError, match="format"):
        script_from_json({"format": 9, "name": "x", "steps": []})


# -- the checker on hand-made histories -------------------------------------------------

def _read(committed: tuple[str, ...], uncommitted: tuple[str, ...] | None = None, lso: int = 5, end: int = 5) -> PartitionRead:
    return PartitionRead(0, committed, uncommitted if uncommitted is not None else committed, lso, end)


def _names(history: TxnHistory) -> list[str]:
    return [a.name for a in check_history(history)]


def test_a_clean_history_has_no_anomaly() -> None:
    t = Transaction("a#1", (TxnWrite("v0", 0, True), TxnWrite("v1", 0, True)), Outcome.COMMITTED, True)
    assert _names(TxnHistory((t,), (_read(("v0", "v1")),))) == []


def test_each_anomaly_is_named() -> None:
    ok = TxnWrite("v0", 0, True)
    cases = {
        "aborted-read": TxnHistory((Transaction("a#1", (ok,), Outcome.ABORTED, True),), (_read(("v0",)),)),
        "lost-committed-write": TxnHistory((Transaction("a#1", (ok, TxnWrite("v1", 0, True)), Outcome.COMMITTED, True),),
                                           (_read(("v0",)),)),
        "fenced-write-visible": TxnHistory((Transaction("a#1", (TxnWrite("v0", 0, True, fenced=True),), Outcome.UNKNOWN),),
                                           (_read(("v0",)),)),
        "duplicate": TxnHistory((Transaction("a#1", (ok,), Outcome.COMMITTED, True),), (_read(("v0", "v0")),)),
        "reordered": TxnHistory((Transaction("a#1", (ok, TxnWrite("v1", 0, True)), Outcome.COMMITTED, True),),
                                (_read(("v1", "v0")),)),
        "hanging-transaction": TxnHistory((Transaction("a#1", (ok,), Outcome.COMMITTED, True),),
                                          (_read(("v0",), ("v0", "z"), lso=1, end=2),)),
    }
    for name, history in cases.items():
        assert name in _names(history), name
    torn = TxnHistory((Transaction("a#1", (ok, TxnWrite("v1", 0, True)), Outcome.UNKNOWN),), (_read(("v0",)),))
    assert _names(torn) == ["torn-transaction"]
    assert set(TXN_ANOMALIES) == {*cases, "torn-transaction", "lost-committed-write"}


def test_a_write_hidden_by_an_open_transaction_is_not_called_lost() -> None:
    t = Transaction("a#1", (TxnWrite("v0", 0, True), TxnWrite("v1", 0, True)), Outcome.COMMITTED, True)
    hidden = TxnHistory((t,), (_read(("v0",), ("v0", "x", "v1"), lso=1, end=3),))
    assert "lost-committed-write" not in _names(hidden)


def test_blame_needs_the_end_of_the_transaction_to_be_acknowledged() -> None:
    write = TxnWrite("v0", 0, True)
    acked = check_history(TxnHistory((Transaction("a#1", (write,), Outcome.ABORTED, True),), (_read(("v0",)),)))
    unknown = check_history(TxnHistory((Transaction("a#1", (write,), Outcome.ABORTED, False),), (_read(("v0",)),)))
    assert (acked[0].blame, unknown[0].blame) == (Blame.BROKER, Blame.UNKNOWN)


def test_history_of_puts_a_late_write_in_the_transaction_that_stamped_it() -> None:
    script = TxnScript("late", (Init("a"), Add("a", {0}), Produce("a", 0, name="late", held=True), End("a", False),
                                Add("a", {0}), Send("late"), Produce("a", 0), End("a", True)))
    history = history_of(run_model(script, txn_profile("3.9.1")))
    first, second = history.transactions
    assert (first.name, first.outcome, [w.value for w in first.writes]) == ("a#1", Outcome.ABORTED, ["a2.0"])
    assert first.writes[0].taken  # taken when it was finally sent, after its transaction ended
    assert (second.outcome, [w.value for w in second.writes]) == (Outcome.COMMITTED, ["a6.0"])
