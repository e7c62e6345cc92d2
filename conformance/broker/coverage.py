"""The broker suite's coverage phase: fixed cases that reach every input class, run first.

Random moves reach the edges of the producer-state rules often but not always (a
window's oldest batch, the batch that just left it, a resend after a restart), and a
class a run misses is a class it says nothing about.  These cases reach every class of
:data:`~kafka_conformance.broker.classes.BROKER_CLASSES` by construction (a test
classifies them), so every run, on every seed, asks each question at least once; the
random cases then look between them.  They run as Hypothesis explicit examples, so
Hypothesis reports them like any other failing case.

The restart cases are left out for a target the kit cannot restart, the DeleteRecords cases
for one that does not offer DeleteRecords.
"""

from __future__ import annotations

from kafka_conformance.broker.cases import Action, ActionKind, BrokerCase, CraftedBatch, SlotKind
from kafka_conformance.reference.broker.batches import INT16_MAX, INT32_MAX

__all__ = ["AGED_MS", "aged_restart", "coverage_cases"]

A, U = SlotKind.ALLOCATED, SlotKind.UNALLOCATED


def _case(*batches: tuple[int, int, int, int], slots: tuple[SlotKind, ...] = (A,), actions: tuple[Action, ...] = ()) -> BrokerCase:
    return BrokerCase(slots, tuple(CraftedBatch(*b) for b in batches), actions=actions)


def _sent(n: int) -> list[tuple[int, int, int, int]]:
    return [(0, 0, seq, 1) for seq in range(n)]


def _window_edges(window: int) -> BrokerCase:
    """``window + 3`` batches, then resends of the second newest, the oldest cached, the one
    that just left and the first (refused resends change nothing, so each keeps its place)."""
    sent = window + 3
    return _case(*_sent(sent), *((0, 0, sent - back, 1) for back in (2, window, window + 1, sent)))


def _after_restart(kind: ActionKind) -> BrokerCase:
    """Three batches, a restart, a resend of the first (forgotten) and the last (kept), the next."""
    return _case(*_sent(3), (0, 0, 0, 1), (0, 0, 2, 1), (0, 0, 3, 1), actions=(Action(3, kind),))


def _after_delete() -> BrokerCase:
    """Three batches, all deleted, then a resend of the last and the next (KAFKA-7190)."""
    return _case(*_sent(3), (0, 0, 2, 1), (0, 0, 3, 1), actions=(Action(3, ActionKind.DELETE_RECORDS, 3),))


def _delete_inside_window() -> BrokerCase:
    """Two producers' batches at offsets 0, 1 and 2, DeleteRecords up to 1 (one producer's newest
    batch at the new log start, the other's above it), then each resends its last and sends its
    next: both keep their state on every release (before 2.4 a producer goes only when its newest
    batch falls below the log start)."""
    return _case((0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 1), (1, 0, 0, 1), (0, 0, 2, 1), (1, 0, 1, 1),
                 slots=(A, A), actions=(Action(3, ActionKind.DELETE_RECORDS, 1),))


def _delete_below_log_start() -> BrokerCase:
    """Three batches, DeleteRecords up to 2, then up to 1, below the new log start (Kafka keeps the log
    start where it is), then a resend of the last and the next."""
    return _case(*_sent(3), (0, 0, 2, 1), (0, 0, 3, 1),
                 actions=(Action(3, ActionKind.DELETE_RECORDS, 2), Action(3, ActionKind.DELETE_RECORDS, 1)))


def _restart_after_delete() -> BrokerCase:
    """Two batches, all deleted, a clean restart (the snapshot at the log start is deleted at
    load), then a resend of the last and the next."""
    return _case(*_sent(2), (0, 0, 1, 1), (0, 0, 2, 1),
                 actions=(Action(2, ActionKind.DELETE_RECORDS, 2), Action(2, ActionKind.RESTART_CLEAN)))


AGED_MS = 2 * 86_400_000
"""Two days: past the one-day producer-id expiry of 3.4 and later (KIP-854), short of the
seven days of 1.0 to 3.3, so the same case tells the two apart."""


def aged_restart() -> BrokerCase:
    """Three batches stamped two days ago, a clean restart, a resend of the last and the next."""
    return BrokerCase((A,), (*(CraftedBatch(0, 0, seq, 1, AGED_MS) for seq in range(3)), CraftedBatch(0, 0, 2, 1),
                             CraftedBatch(0, 0, 3, 1)), actions=(Action(3, ActionKind.RESTART_CLEAN),))


def coverage_cases(window: int = 5, *, restarts: bool = True, deletes: bool = True) -> tuple[BrokerCase, ...]:
    """The fixed cases, smallest first; ``window`` is the release's duplicate window; the
    restart and DeleteRecords cases only for a target that can run them."""
    cases = [
        _case((0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 1)),  # first at 0, continues, duplicate of the newest
        # long batches early: on a broker serving one shared partition the cases after them meet
        # offsets past the small-integer range, where a comparison by identity would fail
        _case((0, 0, 0, 100), (0, 0, 100, 100), (0, 0, 200, 100), (0, 0, 100, 100), (0, 0, 300, 1)),
        _case((0, 0, 7, 1)),  # a producer without state at a non-zero sequence
        _case((0, 0, -1, 1)),
        _case((0, 0, 0, 1), (0, 0, 3, 1)),  # a gap
        _case((0, 0, 0, 2), (0, 0, 0, 3)),  # a longer batch with a cached first sequence
        _case((0, 0, 0, 3), (0, 0, 1, 3)),  # an overlap with the newest
        _case((0, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (0, 2, 3, 1)),  # new epoch at 0, stale epoch, new epoch elsewhere
        _case((0, 0, 0, 1), (0, 5, 0, 1), (0, INT16_MAX, 0, 1), (0, INT16_MAX, 1, 1)),  # epochs jumped, up to Short.MAX
        # ends at Int.MAX, then 0; spans the wrap, resent.  Another producer writes first, so that the
        # partition is not fresh (KAFKA-15591); before 2.5 no producer without state may start there.
        _case((1, 0, 0, 1), (0, 0, INT32_MAX - 1, 2), (0, 0, 0, 1), slots=(A, A)),
        _case((1, 0, 0, 1), (0, 0, INT32_MAX - 1, 3), (0, 0, 2, 1), (0, 0, INT32_MAX - 1, 3), slots=(A, A)),
        _case((0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 1, 1), (1, 0, 1, 1), slots=(A, U)),
        # resends spanning two cached batches: a duplicate of neither, and (1.0.x) ending inside the
        # window rather than below it, so out of order (real 1.0.1, 2.7.2, 3.9.1 and 4.3.1 agree)
        _case(*_sent(3), (0, 0, 0, 2), (0, 0, 1, 2), (0, 0, 3, 1)),
        # an epoch past the small-integer range keeps its window (a resend is a duplicate)
        _case((0, 0, 0, 1), (0, 300, 0, 1), (0, 300, 1, 1), (0, 300, 0, 1), (0, 300, 2, 1)),
        # sequences past the small-integer range continue, skip and resend like any other
        _case((1, 0, 0, 1), (0, 0, 1000, 1), (0, 0, 1001, 1), (0, 0, 1003, 1), (0, 0, 1002, 1), slots=(A, A)),
        # after a batch ending at Int.MAX only 0 continues; a batch from Int.MAX itself spans the wrap
        _case((1, 0, 0, 1), (0, 0, INT32_MAX - 1, 2), (0, 0, 1, 1), (0, 0, 0, 1), slots=(A, A)),
        _case((1, 0, 0, 1), (0, 0, INT32_MAX, 3), (0, 0, 2, 1), (0, 0, INT32_MAX, 3), slots=(A, A)),
        # spanning the wrap by three records (Int.MAX - 1, Int.MAX, 0, 1, 2): where the wrap cases above
        # span it by one and two, halving the distance past Int.MAX agrees with subtracting one
        _case((1, 0, 0, 1), (0, 0, INT32_MAX - 1, 5), (0, 0, 3, 1), (0, 0, INT32_MAX - 1, 5), slots=(A, A)),
        # duplicates of two-record batches at offsets of both parities (their cached offsets; before
        # 2.1.1 the offset delta came from the sequences, KAFKA-7692)
        _case(*_sent(1), (0, 0, 1, 2), (0, 0, 3, 1), (0, 0, 4, 2), (0, 0, 1, 2), (0, 0, 4, 2)),
        _window_edges(window),
    ]
    if deletes:
        cases += [_after_delete(), _delete_inside_window(), _delete_below_log_start()]
    if restarts:
        cases += [_after_restart(ActionKind.RESTART_CLEAN), _after_restart(ActionKind.RESTART_CRASH), aged_restart()]
    if restarts and deletes:
        cases.append(_restart_after_delete())
    return tuple(cases)
