"""The input domain of the broker suite as data: the classes of a crafted batch that Kafka's
producer-state rules tell apart, and the classifier that says which classes a case reached.

A class is a branch of the checks (``ProducerStateManager``'s order: duplicate, fencing,
sequence) *at its edges*: a duplicate of the newest batch and of the oldest one still cached,
a resend one batch beyond the window, a batch ending exactly at Int.MAX, the batch after it.
Faulty brokers hide at those edges (a window of four or six, a wrap to 1), so a run that
never reached one of them proves nothing about it; the report names every class a run missed.

Classification replays the case against the reference model of the release, so it is the
same whatever broker answered.
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka_conformance.broker.cases import MAX_AGE_MS, MODEL_NOW_MS, Action, ActionKind, BrokerCase, SlotKind
from kafka_conformance.reference.broker.batches import (
    INT16_MAX,
    INT32_MAX,
    NO_PRODUCER_ID,
    ProducerBatch,
    increment_sequence,
)
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = ["BROKER_CLASSES", "DELETE_CLASSES", "RESTART_CLASSES", "case_classes", "excluded_classes", "missed_classes"]

BROKER_CLASSES: tuple[tuple[str, str], ...] = (
    ("first-at-zero", "a producer's first batch at sequence 0"),
    ("first-nonzero", "a producer without state starting at a non-zero sequence (KIP-360)"),
    ("continues", "the next sequence of the epoch"),
    ("duplicate-newest", "an exact resend of the newest batch"),
    ("duplicate-inside", "an exact resend of a batch between the newest and the oldest cached"),
    ("duplicate-oldest", "an exact resend of the oldest batch still cached (the window's edge)"),
    ("resend-just-outside", "an exact resend of the batch that just left the window"),
    ("resend-far-outside", "an exact resend of a batch further back"),
    ("gap", "a sequence beyond the next one"),
    ("overlap-same-first", "a longer batch with the first sequence of a cached one"),
    ("overlap", "a batch overlapping the newest one"),
    ("new-epoch-at-zero", "a higher epoch starting at 0"),
    ("new-epoch-nonzero", "a higher epoch starting elsewhere"),
    ("new-epoch-jump", "an epoch more than one above the stored one, starting at 0 (any higher epoch is a new one)"),
    ("epoch-at-max", "a batch at the highest epoch, 32767 (Short.MAX_VALUE)"),
    ("stale-epoch", "a batch of an older epoch"),
    ("negative-sequence", "an idempotent batch with base sequence -1"),
    ("ends-at-int-max", "a batch whose last sequence is Int.MAX"),
    ("spans-the-wrap", "a batch running from below Int.MAX past it to 0 and on"),
    ("after-int-max", "the batch right after one that ended at Int.MAX (sequence 0)"),
    ("two-producers", "two producers interleaved on one partition"),
    ("unallocated-producer", "a producer id the broker never issued"),
    ("restart-clean", "the broker stopped cleanly (SIGTERM) and started again on its data between two batches"),
    ("restart-crash", "the broker killed (SIGKILL) and started again on its data between two batches"),
    ("duplicate-newest-after-restart", "after a restart, an exact resend of the producer's last batch (the snapshot keeps it)"),
    ("resend-older-after-restart", "after a restart, an exact resend of an older batch of the window (the snapshot forgot it)"),
    ("continues-after-restart", "after a restart, the producer's next sequence"),
    ("delete-records", "DeleteRecords moved the log start offset (KIP-107)"),
    ("continues-after-delete", "a producer whose every record was deleted sends its next sequence (KAFKA-7190)"),
    ("resend-after-delete", "an exact resend of a batch whose records were deleted"),
    ("restart-after-delete", "a restart while every record is deleted (no snapshot survives the load)"),
    ("expired-at-restart", "a restart after a producer's last batch grew older than the producer-id expiry (it is not loaded)"),
)
"""(name, what it is); stable names, shown in reports."""

RESTART_CLASSES = frozenset({
    "restart-clean", "restart-crash", "duplicate-newest-after-restart", "resend-older-after-restart", "continues-after-restart",
    "restart-after-delete", "expired-at-restart",
})
"""The classes only a target the kit can restart on its own data reaches."""
DELETE_CLASSES = frozenset({"delete-records", "continues-after-delete", "resend-after-delete", "restart-after-delete"})
"""The classes only a target that offers DeleteRecords reaches."""


def _resend_class(history: list[tuple[int, int, int]], batch: ProducerBatch, window: int) -> str | None:
    same = [i for i, h in enumerate(reversed(history), 1) if h == (batch.producer_epoch, batch.base_sequence, batch.last_sequence)]
    if not same:
        return None
    back = same[0]
    if back == 1:
        return "duplicate-newest"
    if back < window:
        return "duplicate-inside"
    if back == window:
        return "duplicate-oldest"
    return "resend-just-outside" if back == window + 1 else "resend-far-outside"


def _step_class(log: PartitionLog, history: list[tuple[int, int, int]], batch: ProducerBatch, window: int) -> set[str]:
    found: set[str] = set()
    first, last = batch.base_sequence, batch.last_sequence
    if first < 0:
        return {"negative-sequence"}
    entry = log.producers.get(batch.producer_id)
    if last == INT32_MAX:
        found.add("ends-at-int-max")
    if first > last:
        found.add("spans-the-wrap")
    if batch.producer_epoch == INT16_MAX:
        found.add("epoch-at-max")
    if entry is None or (not entry.batches and entry.epoch < 0):
        return found | {"first-at-zero" if first == 0 else "first-nonzero"}
    if batch.producer_epoch < entry.epoch:
        return found | {"stale-epoch"}
    if batch.producer_epoch > entry.epoch:
        jump = {"new-epoch-jump"} if first == 0 and batch.producer_epoch > entry.epoch + 1 else set()
        return found | jump | {"new-epoch-at-zero" if first == 0 else "new-epoch-nonzero"}
    resend = _resend_class(history, batch, window)
    if resend is not None:
        return found | {resend}
    if entry.last_seq == INT32_MAX and first == 0:
        return found | {"after-int-max"}
    expected = increment_sequence(entry.last_seq, 1) if entry.batches else 0
    if first == expected:
        return found | {"continues"}
    if any(b.first_seq == first for b in entry.batches):
        return found | {"overlap-same-first"}
    newest = entry.batches[-1] if entry.batches else None
    if newest is not None and newest.first_seq <= first <= newest.last_seq:
        return found | {"overlap"}
    return found | {"gap"}


def case_classes(case: BrokerCase, profile: BrokerProfile) -> set[str]:
    """The classes ``case`` reaches, replayed on the reference model of ``profile``."""
    log = PartitionLog(profile)
    found: set[str] = set()
    if len(case.slots) > 1:
        found.add("two-producers")
    if SlotKind.UNALLOCATED in case.slots:
        found.add("unallocated-producer")
    histories: list[list[tuple[int, int, int]]] = [[] for _ in case.slots]
    ends: list[list[int]] = [[] for _ in case.slots]
    """Per slot, the last offset of each batch in its history."""
    before_restart: list[list[tuple[int, int, int]] | None] = [None for _ in case.slots]
    """Per slot, what it had written before the last restart, until its first batch after it."""
    ages = [0 for _ in case.slots]
    """Per slot, the age of its newest written batch."""
    expiry = profile.default_producer_id_expiration_ms

    def act(action: Action) -> None:
        nonlocal before_restart
        if action.kind.is_restart:
            if any(h and age >= expiry for h, age in zip(histories, ages, strict=True)):
                found.add("expired-at-restart")
            before_restart = [list(h) for h in histories]
        found.update(_act(log, action))

    for i, crafted in enumerate(case.batches):
        for action in case.actions_before(i):
            act(action)
        slot = crafted.producer
        if case.slots[slot] is SlotKind.NONE:  # no producer id: it reaches no idempotence class
            log.append_client(crafted.to_batch(NO_PRODUCER_ID, "classes", i, MODEL_NOW_MS))
            continue
        batch = crafted.to_batch(slot + 1, "classes", i, MODEL_NOW_MS)
        written = before_restart[slot]
        after = _after_restart(written, batch) if written else None
        if after is not None:
            found.add(after)
        else:
            found |= _step_class(log, histories[slot], batch, profile.window_size)
        found |= _after_delete(log, histories[slot], ends[slot], batch)
        if written and "continues" in _step_class(log, histories[slot], batch, profile.window_size):
            found.add("continues-after-restart")
        answer = log.append_client(batch)
        if answer.appended:  # only written batches are cached (or leave the window)
            histories[slot].append((batch.producer_epoch, batch.base_sequence, batch.last_sequence))
            ends[slot].append(answer.base_offset + batch.record_count - 1)
            ages[slot] = crafted.age_ms
            before_restart[slot] = None
    for action in case.actions_before(len(case.batches)):
        act(action)
    return found



def _act(log: PartitionLog, action: Action) -> set[str]:
    if action.kind is ActionKind.DELETE_RECORDS:
        log.delete_records(action.offset)
        return {"delete-records"}
    everything_deleted = log.log_end_offset > 0 and log.log_start_offset == log.log_end_offset
    log.restart(clean=action.kind is ActionKind.RESTART_CLEAN, now_ms=MODEL_NOW_MS)
    return {action.kind.value} | ({"restart-after-delete"} if everything_deleted else set())


def _after_delete(log: PartitionLog, history: list[tuple[int, int, int]], ends: list[int], batch: ProducerBatch) -> set[str]:
    """A producer whose newest written batch lies below the log start offset sends its next
    batch, or resends one of those deleted batches."""
    if not history or ends[-1] >= log.log_start_offset:
        return set()
    key = (batch.producer_epoch, batch.base_sequence, batch.last_sequence)
    if key in history:
        return {"resend-after-delete"}
    epoch, _, last = history[-1]
    if batch.producer_epoch == epoch and batch.base_sequence == increment_sequence(last, 1):
        return {"continues-after-delete"}
    return set()


def _after_restart(written: list[tuple[int, int, int]], batch: ProducerBatch) -> str | None:
    """The restart class of an exact resend of a batch written before the restart, if it is one."""
    key = (batch.producer_epoch, batch.base_sequence, batch.last_sequence)
    if key not in written:
        return None
    return "duplicate-newest-after-restart" if written[-1] == key else "resend-older-after-restart"


NO_RESTART = "the kit cannot restart this target on its own data (kafka:VERSION and test-broker can)"
NO_DELETE = "the target does not offer DeleteRecords"


def excluded_classes(profile: BrokerProfile, *, restartable: bool, deletes: bool = True) -> dict[str, str]:
    """The classes a run cannot reach, and why: the restart classes on a target the kit cannot
    restart, the DeleteRecords classes on one without DeleteRecords, and a batch after Int.MAX
    on releases where no producer without state may start near it (before 2.5 such a producer
    must start at 0: UNKNOWN_PRODUCER_ID, KIP-360)."""
    out = {} if restartable else dict.fromkeys(sorted(RESTART_CLASSES), NO_RESTART)
    if not deletes:
        out.update({name: NO_DELETE for name in sorted(DELETE_CLASSES) if name not in out})
    if profile.unknown_producer_on_empty_state:
        out["after-int-max"] = f"Kafka {profile.version} refuses a producer without state that starts near Int.MAX (59)"
    if profile.default_producer_id_expiration_ms > MAX_AGE_MS and "expired-at-restart" not in out:
        out["expired-at-restart"] = (f"Kafka {profile.version} keeps an idle producer 7 days, as long as a segment lives "
                                     "before it rolls and is deleted, so the kit does not age batches that far")
    return out


def missed_classes(reached: Iterable[str], *, excluded: Iterable[str] = ()) -> tuple[str, ...]:
    """The classes not reached, in catalogue order, less ``excluded`` (which the report names apart)."""
    skip = set(reached) | set(excluded)
    return tuple(name for name, _ in BROKER_CLASSES if name not in skip)
