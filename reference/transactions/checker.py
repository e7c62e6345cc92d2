"""The transaction checker: what KIP-98 promises, as a pure function from a history to anomalies.

A :class:`TxnHistory` says, for each transaction, which values it wrote to which
partitions, whether the broker took each write, and how it ended (committed, aborted,
or unknown), plus which values a read_committed and a read_uncommitted consumer read back
from each partition and each partition's last stable and end offsets.  :func:`check_history`
names every way the read contradicts the outcomes:

========================  =============================================================
anomaly                   meaning
========================  =============================================================
aborted-read              a value of an aborted transaction is read by read_committed
lost-committed-write      a value the broker took, of a committed transaction, is not
                          read by read_committed (and no open transaction hides it)
torn-transaction          part of a transaction is visible to read_committed, part not
fenced-write-visible      a value sent after its producer was fenced is read
duplicate                 a value is read twice by read_committed
reordered                 two values one transaction wrote to one partition, in order,
                          are read in the other order
hanging-transaction       every transaction has ended, yet a partition's last stable
                          offset is stuck below its end: read_committed readers stall
========================  =============================================================

Each anomaly is attributed: to the **broker** when it acknowledged the write and the
transaction's end (what the producer did was right by the protocol), else **unknown**
(the producer's own part is not in the history).  Whether a given Kafka release has an
anomaly too is not the checker's business: the suite runs the spec's model of that
release through the same checker and says so.
"""

from __future__ import annotations

import enum
from collections import Counter

import attrs

from kafka_conformance.reference.transactions.run import PartitionRead, ScriptRun, values_of
from kafka_conformance.reference.transactions.script import End, Expire, Init, Produce, Send

__all__ = [
    "TXN_ANOMALIES",
    "Blame",
    "Outcome",
    "Transaction",
    "TxnAnomaly",
    "TxnHistory",
    "TxnWrite",
    "check_history",
    "history_of",
]

TXN_ANOMALIES = ("aborted-read", "lost-committed-write", "torn-transaction", "fenced-write-visible", "duplicate",
                 "reordered", "hanging-transaction")


class Outcome(enum.Enum):
    COMMITTED = "committed"
    ABORTED = "aborted"
    UNKNOWN = "unknown"
    """EndTxn failed or was never sent, and no timeout was waited for: the transaction may still be open."""


class Blame(enum.Enum):
    BROKER = "broker"
    UNKNOWN = "unknown"


@attrs.frozen
class TxnWrite:
    value: str
    partition: int
    taken: bool
    """The broker answered the Produce without an error."""
    fenced: bool = False
    """Sent after another instance of the same transactional id had initialised (the producer was a zombie)."""


@attrs.frozen
class Transaction:
    name: str
    writes: tuple[TxnWrite, ...]
    outcome: Outcome
    end_taken: bool = False
    """The coordinator answered the EndTxn that set the outcome without an error."""


@attrs.frozen
class TxnHistory:
    transactions: tuple[Transaction, ...]
    reads: tuple[PartitionRead, ...]


@attrs.frozen
class TxnAnomaly:
    name: str
    transaction: str
    values: tuple[str, ...]
    partition: int
    blame: Blame
    explanation: str


def check_history(history: TxnHistory) -> tuple[TxnAnomaly, ...]:
    """Every anomaly of the history, in a stable order: each transaction's in turn, then duplicates,
    then hanging partitions."""
    reads = {r.partition: r for r in history.reads}
    position = {p: {v: i for i, v in enumerate(r.committed)} for p, r in reads.items()}
    hidden = {p: set(r.uncommitted) - set(r.committed) if r.last_stable_offset < r.log_end_offset else set()
              for p, r in reads.items()}
    out: list[TxnAnomaly] = []
    for txn in history.transactions:
        blame = Blame.BROKER if txn.end_taken else Blame.UNKNOWN
        visible = [w for w in txn.writes if w.value in position.get(w.partition, {})]
        missing = [w for w in txn.writes if w.taken and w not in visible]
        by_partition: dict[int, list[TxnWrite]] = {}
        for w in visible:
            by_partition.setdefault(w.partition, []).append(w)
        if txn.outcome is Outcome.ABORTED:
            for p, ws in sorted(by_partition.items()):
                out.append(TxnAnomaly("aborted-read", txn.name, tuple(w.value for w in ws), p, blame,
                                      f"{txn.name} was aborted, yet read_committed reads {_list(ws)} from partition {p}"))
        if txn.outcome is Outcome.COMMITTED:
            lost = [w for w in missing if w.value not in hidden.get(w.partition, set()) and not w.fenced]
            for p in sorted({w.partition for w in lost}):
                ws = [w for w in lost if w.partition == p]
                out.append(TxnAnomaly("lost-committed-write", txn.name, tuple(w.value for w in ws), p, blame,
                                      f"{txn.name} was committed and the broker took {_list(ws)}, but read_committed "
                                      f"does not read {'it' if len(ws) == 1 else 'them'} from partition {p}"))
        if visible and missing and txn.outcome is not Outcome.ABORTED:
            out.append(TxnAnomaly("torn-transaction", txn.name, tuple(w.value for w in missing), missing[0].partition, blame,
                                  f"read_committed reads {_list(visible)} of {txn.name} but not {_list(missing)}"))
        for w in visible:
            if w.fenced:
                out.append(TxnAnomaly("fenced-write-visible", txn.name, (w.value,), w.partition, Blame.BROKER,
                                      f"{w.value!r} was sent by a fenced producer, yet read_committed reads it"))
        for p, ws in sorted(by_partition.items()):
            seen = [position[p][w.value] for w in ws]
            if seen != sorted(seen):
                out.append(TxnAnomaly("reordered", txn.name, tuple(w.value for w in ws), p, Blame.BROKER,
                                      f"{txn.name} wrote {_list(ws)} to partition {p} in that order; read_committed "
                                      f"reads them in another"))
    for p, r in sorted(reads.items()):
        for value, count in sorted(Counter(r.committed).items()):
            if count > 1:
                owner = next((t.name for t in history.transactions for w in t.writes if w.value == value), "?")
                out.append(TxnAnomaly("duplicate", owner, (value,), p, Blame.BROKER,
                                      f"read_committed reads {value!r} {count} times from partition {p}"))
    if all(t.outcome is not Outcome.UNKNOWN for t in history.transactions):
        for p, r in sorted(reads.items()):
            if r.last_stable_offset < r.log_end_offset:
                stuck = tuple(sorted(hidden[p]))
                out.append(TxnAnomaly("hanging-transaction", "", stuck, p, Blame.BROKER,
                                      f"every transaction has ended, yet partition {p}'s last stable offset is "
                                      f"{r.last_stable_offset}, below its end {r.log_end_offset}: read_committed "
                                      f"readers never get past it"))
    return tuple(out)


def _list(writes: list[TxnWrite]) -> str:
    return ", ".join(repr(w.value) for w in writes)


def history_of(run: ScriptRun) -> TxnHistory:
    """The history of a script run: each instance's transactions (one per EndTxn or timeout, or left open),
    the values each Produce carried and whether the broker took them (a held produce belongs
    to the transaction it was stamped in, however late it is sent)."""
    steps, answers = run.script.steps, run.answers
    open_writes: dict[str, list[tuple[int, int]]] = {}  # instance -> [(produce index, partition)]
    taken: dict[int, bool] = {}
    stamped_fenced: dict[int, bool] = {}
    fenced: set[str] = set()
    produce_at: dict[str, int] = {}
    instances = {s.instance for s in steps if isinstance(s, Init)}
    counts: Counter[str] = Counter()
    closed: list[tuple[str, list[tuple[int, int]], Outcome, bool]] = []

    def close(instance: str, outcome: Outcome, end_taken: bool) -> None:
        writes = open_writes.pop(instance, [])
        if not writes and outcome is not Outcome.UNKNOWN:
            return
        counts[instance] += 1
        closed.append((f"{instance}#{counts[instance]}", writes, outcome, end_taken))

    for index, step in enumerate(steps):
        answer = answers[index]
        if isinstance(step, Init):
            if answer.error == 0:
                for other in list(open_writes):  # the coordinator aborts every open transaction of the id
                    close(other, Outcome.ABORTED, True)
                fenced = instances - {step.instance}
        elif isinstance(step, Produce):
            if step.name is not None:
                produce_at[step.name] = index
            stamped_fenced[index] = step.instance in fenced
            if step.transactional:
                open_writes.setdefault(step.instance, []).append((index, step.partition))
            if answer.error is not None:  # a held one is sent (and maybe taken) later
                taken[index] = answer.error == 0
        elif isinstance(step, Send):
            origin = produce_at[step.name]
            taken[origin] = taken.get(origin, False) or answer.error == 0
        elif isinstance(step, End):
            if answer.error == 0:
                close(step.instance, Outcome.COMMITTED if step.commit else Outcome.ABORTED, True)
        elif isinstance(step, Expire) and answer.error == 0:
            for other in list(open_writes):  # KIP-98: a transaction not ended within its timeout is aborted
                close(other, Outcome.ABORTED, True)
    for instance in list(open_writes):
        close(instance, Outcome.UNKNOWN, False)
    transactions = []
    for name, writes, outcome, end_taken in closed:  # built last: a held write is taken only when sent, maybe later
        txn_writes: list[TxnWrite] = []
        for index, partition in writes:
            produce = steps[index]
            assert isinstance(produce, Produce)
            txn_writes.extend(TxnWrite(value, partition, taken.get(index, False), stamped_fenced[index])
                              for value in values_of(index, produce))
        transactions.append(Transaction(name, tuple(txn_writes), outcome, end_taken))
    return TxnHistory(tuple(transactions), run.reads)
