"""The named transaction scripts: the behaviours users ask about, one row each.

Each row is a script and a question; what the answer *should* be is not written here
but is the model's run of the script for the release asked about, so the table stays
right for every release the spec knows.  The rows named ``late-produce-*`` are the shape
Jepsen found in 2024 (a Produce request delayed in the network until after its
transaction ended) that KIP-890 set out to close.  The rows named ``timeout-*`` leave a
transaction to the coordinator's timeout, as a producer that stalls or dies does (their
scripts use a short ``transaction.timeout.ms``, :data:`EXPIRE_TIMEOUT_MS`).
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.transactions.script import EXPIRE_TIMEOUT_MS, Add, End, Expire, Init, Produce, Send, TxnScript

__all__ = ["TXN_ROWS", "TxnRow", "txn_row"]


@attrs.frozen
class TxnRow:
    name: str
    question: str
    script: TxnScript


def _row(name: str, question: str, *steps: object, partitions: int = 2) -> TxnRow:
    timeout_ms = EXPIRE_TIMEOUT_MS if any(isinstance(s, Expire) for s in steps) else 60_000
    return TxnRow(name, question, TxnScript(name, tuple(steps), partitions, timeout_ms))  # type: ignore[arg-type]


TXN_ROWS: tuple[TxnRow, ...] = (
    _row("commit", "are a committed transaction's writes to two partitions read by read_committed?",
         Init("a"), Add("a", {0, 1}), Produce("a", 0, 2), Produce("a", 1), End("a", True)),
    _row("abort", "are an aborted transaction's writes kept from read_committed (and read by read_uncommitted)?",
         Init("a"), Add("a", {0, 1}), Produce("a", 0), Produce("a", 1, 2), End("a", False)),
    _row("open-holds-lso", "does an open transaction hold the last stable offset, hiding later committed writes?",
         Init("a"), Add("a", {0}), Produce("a", 0), End("a", True), Add("a", {0}), Produce("a", 0)),
    _row("sequences-continue", "do sequences continue across transactions of one epoch, a resend of an earlier "
         "committed batch being refused or answered as a duplicate?",
         Init("a"), Add("a", {0}), Produce("a", 0, 2, name="first"), End("a", True), Add("a", {0}), Produce("a", 0),
         Send("first"), End("a", True)),
    _row("retry-in-transaction", "is a retried batch of the open transaction answered with its first offset, not written twice?",
         Init("a"), Add("a", {0}), Produce("a", 0, name="x"), Send("x"), End("a", True)),
    _row("end-twice", "is a repeated commit answered as done, and an abort after a commit refused?",
         Init("a"), Add("a", {0}), Produce("a", 0), End("a", True), End("a", True), End("a", False)),
    _row("end-empty", "is EndTxn with no transaction begun refused?", Init("a"), End("a", True)),
    _row("zombie-fenced", "does a new instance's InitProducerId abort the old one's open transaction and fence it?",
         Init("a"), Add("a", {0}), Produce("a", 0), Init("b"), Produce("a", 0), Add("a", {1}), End("a", True),
         Add("b", {0}), Produce("b", 0), End("b", True)),
    _row("produce-without-add", "is a transactional write to a partition never added to the transaction refused?",
         Init("a"), Add("a", {1}), Produce("a", 1), Produce("a", 0), End("a", True)),
    _row("produce-after-refused", "after a produce to a partition never added was refused, is the next transaction's "
         "produce there, one sequence later, refused as out of order (3.6+ remember the lowest sequence that asked for "
         "verification, KAFKA-14920; found by a generated script)?",
         Init("a"), Add("a", {0}), Produce("a", 0), Produce("a", 1), End("a", False), Add("a", {1}), Produce("a", 1),
         End("a", True)),
    _row("non-transactional-inside", "is a non-transactional write of a producer with a transaction open refused?",
         Init("a"), Add("a", {0}), Produce("a", 0), Produce("a", 0, transactional=False), End("a", True)),
    _row("late-produce-after-abort", "is a Produce that arrives after its transaction was aborted kept out of the log "
         "(before KIP-890 it opens a transaction nobody ends)?",
         Init("a"), Add("a", {0, 1}), Produce("a", 1), Produce("a", 0, name="late", held=True), End("a", False),
         Send("late")),
    _row("late-produce-into-next", "is a Produce of an aborted transaction, arriving once the next transaction has added "
         "its partition, kept out of the next transaction (an aborted read if it commits)?",
         Init("a"), Add("a", {0}), Produce("a", 0, name="late", held=True), End("a", False), Add("a", {0}), Send("late"),
         Produce("a", 0), End("a", True)),
    _row("late-produce-after-commit", "is a Produce of a committed transaction, arriving in the next transaction, kept out "
         "(a lost write of the next transaction if it is taken for a duplicate)?",
         Init("a"), Add("a", {0}), Produce("a", 0), Produce("a", 0, name="late", held=True), End("a", True), Add("a", {0}),
         Produce("a", 0), Send("late"), End("a", False)),
    _row("timeout-then-commit", "is a transaction left open past its timeout aborted by the coordinator, and its "
         "producer's late commit refused?",
         Init("a"), Add("a", {0, 1}), Produce("a", 0), Produce("a", 1), Expire(), End("a", True)),
    _row("timeout-then-abort", "after its transaction timed out, is the producer's abort refused as fenced (answered as "
         "done with transaction.version 2, which takes it for a retry), and what of its next transaction?",
         Init("a"), Add("a", {0}), Produce("a", 0), Expire(), End("a", False), Add("a", {0}), Produce("a", 0),
         End("a", True)),
    _row("timeout-then-late-produce", "is a Produce held back until its transaction timed out kept out of the log, "
         "and does the producer's restart (InitProducerId) commit cleanly after?",
         Init("a"), Add("a", {0}), Produce("a", 0), Produce("a", 0, name="late", held=True), Expire(), Send("late"),
         Init("a"), Add("a", {0}), Produce("a", 0), End("a", True)),
)


def txn_row(name: str) -> TxnRow:
    for row in TXN_ROWS:
        if row.name == name:
            return row
    raise KeyError(f"no transaction row {name!r}; known: {', '.join(r.name for r in TXN_ROWS)}")
