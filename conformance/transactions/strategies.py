"""Generated transaction scripts: what a transactional producer does, with the network's faults in it.

A script is drawn as a few transactions of one producer instance, each a move of its own:
the partitions it adds, its produces (some to a partition it never added, some retried,
some *held* and sent late: before its EndTxn, right after it, or once the next
transaction has added the partition, which is the shape Jepsen found in 2024), and
whether it commits or aborts.  A zombie may join: a second instance with the same
transactional id whose InitProducerId fences the first, which then keeps going.  A
transaction may be left to its timeout before its EndTxn (an ``expire`` step; the script then
uses a short timeout).  The
moves are built into a :class:`~kafka_conformance.reference.transactions.script.TxnScript`
that is valid by construction, so Hypothesis shrinks the moves (fewer transactions, fewer
produces, no late sends) and every shrunk script still runs.
"""

from __future__ import annotations

import enum

import attrs
from hypothesis import strategies as st

from kafka_conformance.reference.transactions.script import (
    EXPIRE_TIMEOUT_MS,
    Add,
    End,
    Expire,
    Init,
    Produce,
    Send,
    Step,
    TxnScript,
)

__all__ = ["Late", "ProduceMove", "TxnMove", "build_script", "txn_scripts"]

PARTITIONS = 2


class Late(enum.Enum):
    """When a held produce is finally sent."""

    NO = "no"
    """Not held: sent at once."""
    BEFORE_END = "before-end"
    """Held past the transaction's later produces, sent before its EndTxn (reordered, in time)."""
    AFTER_END = "after-end"
    """Sent right after its transaction's EndTxn."""
    IN_NEXT = "in-next"
    """Sent once the next transaction has added its partitions (right after EndTxn if there is none)."""


@attrs.frozen
class ProduceMove:
    partition: int
    records: int = 1
    late: Late = Late.NO
    retried: bool = False
    """Sent once more, with the same stamps, right after (a retry)."""
    added: bool = True
    """False: the move does not add the partition for this produce (another produce of the move may add it,
    and a move none of whose produces adds one adds partition 0)."""


@attrs.frozen
class TxnMove:
    instance: str
    partitions: frozenset[int]
    produces: tuple[ProduceMove, ...]
    commit: bool
    expire: bool = False
    """Left to the transaction timeout before its EndTxn, which then finds it aborted by the coordinator."""


def _produce_moves() -> st.SearchStrategy[ProduceMove]:
    return st.builds(
        ProduceMove,
        partition=st.integers(0, PARTITIONS - 1),
        records=st.integers(1, 2),
        late=st.sampled_from(Late),
        retried=st.booleans(),
        added=st.sampled_from((True, True, True, False)),  # shrinks to True: an added partition
    )


@st.composite
def _txn_moves(draw: st.DrawFn, instance: str) -> TxnMove:
    produces = draw(st.lists(_produce_moves(), min_size=1, max_size=3))
    partitions = frozenset(p.partition for p in produces if p.added) or frozenset({0})
    expire = draw(st.sampled_from((False,) * 9 + (True,)))  # shrinks to False; each one waits the timeout out
    return TxnMove(instance, partitions, tuple(produces), draw(st.booleans()), expire)


@st.composite
def txn_scripts(draw: st.DrawFn) -> TxnScript:
    """A script of one to three transactions; in about two scripts of five, a zombie instance."""
    moves = draw(st.lists(_txn_moves("a"), min_size=1, max_size=3))
    zombie_at = draw(st.none() | st.integers(0, len(moves)))
    if zombie_at is not None:
        moves.insert(zombie_at, draw(_txn_moves("b")))
    return build_script(tuple(moves), zombie_at)


def build_script(moves: tuple[TxnMove, ...], zombie_at: int | None = None, name: str = "generated") -> TxnScript:
    """The script the moves describe; ``zombie_at`` is the index of the move of instance ``b``,
    whose InitProducerId comes right before it."""
    steps: list[Step] = [Init("a")]
    due_in_next: list[str] = []
    count = 0
    for index, move in enumerate(moves):
        if index == zombie_at:
            steps.append(Init("b"))
        steps.append(Add(move.instance, move.partitions))
        steps += [Send(n) for n in due_in_next]
        due_in_next = []
        before_end: list[str] = []
        after_end: list[str] = []
        for produce in move.produces:
            count += 1
            held = produce.late is not Late.NO
            named = f"p{count}" if held or produce.retried else None
            steps.append(Produce(move.instance, produce.partition, produce.records, name=named, held=held))
            if produce.retried and not held:
                steps.append(Send(str(named)))
            if produce.late is Late.BEFORE_END:
                before_end.append(str(named))
            elif produce.late is Late.AFTER_END:
                after_end.append(str(named))
            elif produce.late is Late.IN_NEXT:
                due_in_next.append(str(named))
        steps += [Send(n) for n in before_end]
        if move.expire:
            steps.append(Expire())
        steps.append(End(move.instance, move.commit))
        steps += [Send(n) for n in after_end]
    steps += [Send(n) for n in due_in_next]
    timeout_ms = EXPIRE_TIMEOUT_MS if any(m.expire for m in moves) else 60_000
    return TxnScript(name, tuple(steps), PARTITIONS, timeout_ms)
