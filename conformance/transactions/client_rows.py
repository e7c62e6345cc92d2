"""The transaction client rows: what an application does with a real transactional producer, and
what the network does to its requests, one named row each.

The broker rows (``reference/transactions/table.py``) play the producer themselves, request by
request.  These rows leave the producer to a real client (the Java ``KafkaProducer``, ...): a
row says only what the *application* calls (begin, send, commit, abort) and what the fault
proxy does to the client's produce requests (a :class:`~kafka_conformance.reference.traces.fault_plan.FaultPlan`).
Whether the client's own defences (an epoch bump after a lost batch, KIP-360) and the broker's
(partition verification and the epoch bump per transaction, KIP-890) keep the data right is
what the row finds out: the kit reads every partition back as read_committed and
read_uncommitted consumers and the transaction checker names what went wrong.

A :class:`Commit` does what every application is told to do: commit, and when the client says
the transaction cannot commit but can be aborted, abort it.

The ``late-*`` rows are the shape of Jepsen's 2024 analysis: a Produce held back in the network
until its transaction has ended (``Action.HOLD``), while the path to its partition is down so
the client's retries are lost as well and the client gives the batch up.  The transaction that
meets the hold writes to partition 0 alone, so the held request carries that batch and no other
(a request for two partitions would be held whole, or not, as the client happens to group them).

The ``coordinator-*`` rows need a cluster (``kafka-cluster:VERSION``): the broker coordinating the
transaction is killed mid-transaction (:class:`CrashCoordinator`), and the client must find the
coordinator the transaction log's new leader becomes, which loads the transaction's state from the
replicated log (KIP-98's "Transaction Coordinator failover").  On a single broker they are left out.

A row with a :class:`Stall` is an application that stops mid-transaction for longer than its
``transaction.timeout.ms`` (:data:`STALL_TIMEOUT_MS` in that row): the coordinator aborts the
transaction, and the client must not report the commit that follows as done.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule, Release

__all__ = ["CLIENT_TXN_ROWS", "STALL_TIMEOUT_MS", "Abort", "Begin", "ClientStep", "ClientTxnRow", "Commit",
           "CrashCoordinator", "Stall", "Write", "client_txn_row"]

STALL_TIMEOUT_MS = 4000
"""``transaction.timeout.ms`` of a row with a :class:`Stall`: above the rows' ``delivery.timeout.ms``
(3 s), which librdkafka requires, and short enough to wait out."""


@attrs.frozen
class Begin:
    """``beginTransaction()``."""


@attrs.frozen
class Write:
    """``send(value)`` to ``partition``, without waiting for it."""

    value: str
    partition: int


@attrs.frozen
class Commit:
    """``commitTransaction()``; when it fails and the client can still abort, ``abortTransaction()``."""


@attrs.frozen
class Abort:
    """``abortTransaction()``."""


@attrs.frozen
class CrashCoordinator:
    """Once every earlier send has completed, SIGKILL the broker coordinating the transaction and wait
    until another broker leads the transaction log (a cluster only)."""


@attrs.frozen
class Stall:
    """Once every earlier send has completed, the application does nothing until the transaction's
    timeout has passed and the coordinator has aborted the transaction (the kit watches the coordinator)."""


ClientStep = Begin | Write | Commit | Abort | CrashCoordinator | Stall


@attrs.frozen
class ClientTxnRow:
    name: str
    question: str
    steps: tuple[ClientStep, ...]
    plan: FaultPlan = attrs.field(factory=FaultPlan)
    partitions: int = 2

    def __attrs_post_init__(self) -> None:
        values = [s.value for s in self.steps if isinstance(s, Write)]
        if len(set(values)) != len(values):
            raise ValueError(f"row {self.name}: a value is written twice; values identify records")
        open_ = False
        for step in self.steps:
            if isinstance(step, Begin) == open_:
                raise ValueError(f"row {self.name}: {type(step).__name__} {'inside' if open_ else 'outside'} a transaction")
            if isinstance(step, (Begin, Commit, Abort)):
                open_ = not open_

    @property
    def timeout_ms(self) -> int:
        """The client's ``transaction.timeout.ms``: short in a row that waits for it, far beyond the row otherwise."""
        return STALL_TIMEOUT_MS if any(isinstance(s, Stall) for s in self.steps) else 60_000

    @property
    def needs_cluster(self) -> bool:
        """A row that kills a broker runs only on a cluster, where the transaction outlives it."""
        return any(isinstance(s, CrashCoordinator) for s in self.steps)


_HELD = "the first produce request to partition 0 is held in the network"


def _hold(release: Release, *, cut: bool = True) -> FaultPlan:
    return FaultPlan([ProduceRule(1, Action.HOLD, 0, release=release, cut=cut)])


CLIENT_TXN_ROWS: tuple[ClientTxnRow, ...] = (
    ClientTxnRow("commit", "are a committed transaction's writes to two partitions read by read_committed?",
                 (Begin(), Write("a0", 0), Write("a1", 1), Write("a2", 0), Commit())),
    ClientTxnRow("abort", "are an aborted transaction's writes kept from read_committed?",
                 (Begin(), Write("a0", 0), Write("a1", 1), Abort())),
    ClientTxnRow("two-transactions", "do two committed transactions in a row both read back, in order?",
                 (Begin(), Write("a0", 0), Write("a1", 1), Commit(), Begin(), Write("b0", 0), Write("b1", 1), Commit())),
    ClientTxnRow("lost-produce", f"{_HELD} and lost: does the client abort, and does the next transaction commit?",
                 (Begin(), Write("a0", 0), Commit(), Begin(), Write("b0", 0), Write("b1", 1), Commit()),
                 _hold(Release.NEVER)),
    ClientTxnRow("late-produce-after-abort", f"{_HELD} until the client has aborted the transaction: is it kept "
                 "out of the log (before KIP-890 it opens a transaction nobody ends)?",
                 (Begin(), Write("a0", 0), Commit()), _hold(Release.AFTER_END)),
    ClientTxnRow("late-produce-into-next", f"{_HELD} until the next transaction has begun: is it kept out of that "
                 "transaction (read by read_committed when it commits: an aborted read)?",
                 (Begin(), Write("a0", 0), Commit(), Begin(), Write("b0", 0), Write("b1", 1), Commit()),
                 _hold(Release.INTO_NEXT)),
    ClientTxnRow("late-retry-into-next", "the first produce request to partition 0 is held in the network, its retry "
                 "gets through and the transaction commits; the held request arrives once the next transaction has "
                 "begun: is it answered as the duplicate it is, and does the next transaction still commit?",
                 (Begin(), Write("a0", 0), Commit(), Begin(), Write("b0", 0), Write("b1", 1), Commit()),
                 _hold(Release.INTO_NEXT, cut=False)),
    ClientTxnRow("coordinator-crash", "the broker coordinating an open transaction is killed after its sends are "
                 "acknowledged: does the client commit through the new coordinator, and does the next transaction "
                 "commit too?",
                 (Begin(), Write("a0", 0), Write("a1", 1), CrashCoordinator(), Commit(), Begin(), Write("b0", 0),
                  Commit())),
    ClientTxnRow("stall-past-timeout", "the application stalls mid-transaction past transaction.timeout.ms and the "
                 "coordinator aborts the transaction: does the client refuse the commit that follows, rather than "
                 "report a transaction committed whose writes are gone?",
                 (Begin(), Write("a0", 0), Write("a1", 1), Stall(), Commit())),
)


def client_txn_row(name: str) -> ClientTxnRow:
    for row in CLIENT_TXN_ROWS:
        if row.name == name:
            return row
    raise KeyError(f"no transaction client row {name!r}; known: {', '.join(r.name for r in CLIENT_TXN_ROWS)}")
