"""Hypothesis strategies of crafted produce sequences aimed at the broker's producer-state rules.

A case is drawn as a list of *moves* (continue, resend an earlier batch, leave a
gap, overlap, bump the epoch, go back to an older epoch, ...) interpreted
against the reference model as it is drawn, so every move lands where it is
meant to: "resend the 3rd newest batch" is always an exact resend, "continue"
always starts at the sequence Kafka expects.  Hypothesis shrinks the moves; the
materialised case is recomputed from them, so a shrunk case is still a case of
the same shape.  Reaching each branch is counted with ``hypothesis.event`` (the
vacuity guard: a run that never sent a stale epoch says so).

The drawn :class:`~kafka_conformance.broker.cases.BrokerCase` holds concrete
batches only, so it is replayable without this module.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import event
from hypothesis import strategies as st

from kafka_conformance.broker.cases import MODEL_NOW_MS, Action, ActionKind, BrokerCase, CraftedBatch, SlotKind
from kafka_conformance.broker.coverage import AGED_MS
from kafka_conformance.reference.broker.batches import INT16_MAX, INT32_MAX, ProducerBatch, increment_sequence
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = ["MOVES", "broker_cases"]

MOVES = ("next", "resend", "gap", "overlap", "bump-epoch", "bump-epoch-nonzero", "stale-epoch", "negative-sequence", "window-edge",
         "jump-epoch")
"""What a step can do; each is a branch of the broker's checks (``docs/spec/idempotence.md`` §1.3).  ``window-edge``
sends batches until the producer has sent a window's worth and one more, then resends the
oldest batch still cached or the one that just left (the edges of
:mod:`~kafka_conformance.broker.classes`, where a window of four or six hides)."""

_FIRST_SEQUENCES = st.one_of(
    st.just(0),
    st.integers(1, 20),
    st.integers(0, 5).map(lambda k: INT32_MAX - k),  # wraparound within a few batches
)


class _Sent:
    """What the case has sent so far per slot (the producer's own view)."""

    def __init__(self, slots: int) -> None:
        self.history: list[list[CraftedBatch]] = [[] for _ in range(slots)]


def _next_sequence(log: PartitionLog, pid: int, epoch: int, first: int) -> int:
    entry = log.producers.get(pid)
    if entry is None or entry.epoch != epoch or not entry.batches:
        return first if entry is None else 0
    return increment_sequence(entry.last_seq, 1)


def _epoch(log: PartitionLog, pid: int) -> int:
    entry = log.producers.get(pid)
    return 0 if entry is None or entry.epoch < 0 else entry.epoch


_RESTART_PLANS = (*(None,) * 14, ActionKind.RESTART_CLEAN, ActionKind.RESTART_CRASH)
"""About one case in eight restarts the broker once: each restart costs a real broker seconds,
and the coverage phase (:mod:`~kafka_conformance.broker.coverage`) already asks the restart
questions on every run.  None first, so that a shrunk case restarts only when the failure needs it."""


@st.composite
def broker_cases(
    draw: Any, profile: BrokerProfile, *, max_steps: int = 10, unallocated: bool = True, restarts: bool = False,
    deletes: bool = False,
) -> BrokerCase:
    """Cases of 1..``max_steps`` batches from one or two producers, built move by move against the model.

    ``restarts``: a case may restart the broker once (clean or crash) between two batches, for
    targets the kit can restart; the move after a restart is drawn with a resend first, so
    that the batches a restart forgets are sent again.  ``deletes``: a case may delete the
    records up to a drawn offset once (DeleteRecords), for targets that offer it."""
    kinds = [SlotKind.ALLOCATED]
    if draw(st.booleans()):
        kinds.append(draw(st.sampled_from([SlotKind.ALLOCATED, SlotKind.UNALLOCATED] if unallocated else [SlotKind.ALLOCATED])))
    firsts = [draw(_FIRST_SEQUENCES) for _ in kinds]
    pids = list(range(1, len(kinds) + 1))  # stand-ins: the model only needs them distinct
    log = PartitionLog(profile)
    sent = _Sent(len(kinds))
    batches: list[CraftedBatch] = []
    window = profile.window_size
    plan = draw(st.sampled_from(_RESTART_PLANS)) if restarts else None
    restart_after = draw(st.integers(1, max_steps)) if plan is not None else 0
    aged = plan is not None and draw(st.booleans())  # slot 0's fresh batches before the restart stamped two days ago
    delete_after = draw(st.integers(0, 2 * max_steps)) if deletes else 0  # 0 or past the case: no DeleteRecords
    done: list[Action] = []
    restarted = deleted = False
    for _ in range(draw(st.integers(1, max_steps))):
        slot = draw(st.integers(0, len(kinds) - 1))
        pid = pids[slot]
        just_restarted = False
        if delete_after and not deleted and len(batches) >= delete_after and log.log_end_offset > log.log_start_offset:
            offset = draw(st.integers(log.log_start_offset + 1, log.log_end_offset))
            done.append(Action(len(batches), ActionKind.DELETE_RECORDS, offset))
            deleted = True
            log.delete_records(offset)
            event("move: delete-records")
        if plan is not None and not restarted and len(batches) >= restart_after:
            done.append(Action(len(batches), plan))
            restarted = True
            log.restart(clean=plan is ActionKind.RESTART_CLEAN, now_ms=MODEL_NOW_MS)
            event(f"move: {plan.value}")
            just_restarted = True
        move = draw(st.sampled_from(("resend", *MOVES) if just_restarted else MOVES))
        records = draw(st.integers(1, 3))
        epoch = _epoch(log, pid)
        nxt = _next_sequence(log, pid, epoch, firsts[slot])
        history = sent.history[slot]
        age = AGED_MS if aged and slot == 0 and not restarted else 0
        if nxt <= INT32_MAX - 1 and INT32_MAX - nxt < 3 and draw(st.booleans()):
            records = INT32_MAX - nxt + 1  # end exactly at Int.MAX: the next batch must be 0
        if move == "window-edge":
            back = draw(st.sampled_from([window, window + 1, window + 2]))
            for _ in range(back):  # fresh batches, all written: the resend's place is certain
                fresh = CraftedBatch(slot, epoch, _next_sequence(log, pid, epoch, firsts[slot]), 1, age)
                batches.append(fresh)
                history.append(fresh)
                log.append_client(_model_batch(pid, fresh))
            crafted = history[-back]
            event(f"window edge: resend of the {back}th newest batch")
        elif move == "resend" and history:
            edges = [b for b in (1, window, window + 1) if b <= len(history)]
            back = draw(st.one_of(st.sampled_from(edges), st.integers(1, min(len(history), window + 3))))
            crafted = history[-back]
            event(f"resend: {'inside' if back <= profile.window_size else 'outside'} the window")
        elif move == "gap":
            crafted = CraftedBatch(slot, epoch, increment_sequence(nxt, draw(st.integers(1, 5))), records)
        elif move == "overlap" and history:
            base = history[-1]
            shift = draw(st.integers(0, base.records))
            crafted = CraftedBatch(slot, base.epoch, increment_sequence(base.base_sequence, shift), records + (1 if shift == 0 else 0))
        elif move == "bump-epoch" and epoch < INT16_MAX:
            crafted = CraftedBatch(slot, epoch + 1, 0, records)
        elif move == "bump-epoch-nonzero" and epoch < INT16_MAX:
            crafted = CraftedBatch(slot, epoch + 1, draw(st.integers(1, 5)), records)
        elif move == "jump-epoch" and epoch < INT16_MAX - 1:  # any higher epoch is a new one, up to Short.MAX
            crafted = CraftedBatch(slot, draw(st.sampled_from((epoch + 2, INT16_MAX))), 0, records)
        elif move == "stale-epoch" and epoch > 0:
            crafted = CraftedBatch(slot, epoch - 1, nxt, records)
        elif move == "negative-sequence":
            crafted = CraftedBatch(slot, epoch, -1, records)
        else:
            move = "next"
            crafted = CraftedBatch(slot, epoch, nxt, records)
        if age and crafted not in history:  # a fresh batch (a resend keeps the timestamps it was sent with)
            crafted = attrs.evolve(crafted, age_ms=age)
        event(f"move: {move}")
        batches.append(crafted)
        history.append(crafted)
        answer = log.append_client(_model_batch(pid, crafted))
        event(f"model: {answer.error.name}{' (duplicate)' if answer.is_success and not answer.appended else ''}")
        if crafted.base_sequence + crafted.records - 1 > INT32_MAX and answer.appended:
            event("model: a batch spanning the sequence wrap was written")
    return BrokerCase(tuple(kinds), tuple(batches), actions=tuple(done))



def _model_batch(pid: int, crafted: CraftedBatch) -> ProducerBatch:
    return crafted.to_batch(pid, "v", 0, MODEL_NOW_MS)
