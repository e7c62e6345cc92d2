"""The broker zoo: an idempotent partition log written apart from the reference, and faulty
variants of it, each one real bug class of Kafka or a Kafka-compatible broker.

The Python test broker serves whatever log class it is given (``TestCluster(log_class=...)``)
while ``check broker`` computes its expectations with the reference's own
:class:`~kafka_conformance.reference.broker.partition_log.PartitionLog`; so a faulty log here
sits behind the wire only, and the suite must find it.  :class:`IndependentLog` decides the
client path (duplicates, fencing, sequences) with its own state and its own code, Kafka 2.5
and later (KIP-360: any first sequence from a producer without state); storage and the
follower path are the base class's.  Each variant overrides one small method.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch
from kafka_conformance.reference.broker.partition_log import LogEntry, PartitionLog, ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError as E


@attrs.define
class _Producer:
    epoch: int
    last: int
    window: list[tuple[int, int, int]]
    """(first sequence, last sequence, base offset) of the newest batches, oldest first."""
    stamp: int = 0
    """The newest batch's timestamp (the expiry clock reads it)."""


class IndependentLog(PartitionLog):
    """A conforming idempotent leader, 2.5 and later, written from KIP-98/KIP-360 directly."""

    WINDOW = 5

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.mine: dict[int, _Producer] = {}

    # -- the decision, one method per rule so that a variant changes exactly one ---------
    def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 0) -> ProduceResponse:
        if not batch.has_producer_id or batch.magic != 2:
            return super().append_client(batch, leader_epoch=leader_epoch)
        if batch.base_sequence < 0:
            return self.invalid(batch)
        state = self.mine.get(batch.producer_id)
        if state is not None:
            found = self.duplicate_of(state, batch)
            if found is not None:
                return self.duplicate_answer(state, found)
            if self.fenced(state, batch):
                return self.refuse(self.fence_error(), "older epoch")
        if state is None:
            return self.unknown_producer(batch, leader_epoch)
        if batch.producer_epoch != state.epoch:
            if batch.base_sequence != 0 and not self.accepts_new_epoch_at(batch.base_sequence):
                return self.refuse(E.OUT_OF_ORDER_SEQUENCE_NUMBER, "a new epoch starts at 0")
            return self.write(batch, leader_epoch, new_epoch=True)
        if not self.continues(state.last, batch.base_sequence):
            return self.out_of_order(state, batch)
        return self.write(batch, leader_epoch, new_epoch=False)

    def invalid(self, batch: ProducerBatch) -> ProduceResponse:
        return self.refuse(E.INVALID_RECORD, "negative base sequence")

    def duplicate_of(self, state: _Producer, batch: ProducerBatch) -> tuple[int, int, int] | None:
        if batch.producer_epoch != state.epoch:
            return None
        return next((w for w in state.window if (w[0], w[1]) == (batch.base_sequence, batch.last_sequence)), None)

    def duplicate_answer(self, state: _Producer, found: tuple[int, int, int]) -> ProduceResponse:
        return ProduceResponse(E.NONE, found[2], self.log_start_offset, "duplicate")

    def fenced(self, state: _Producer, batch: ProducerBatch) -> bool:
        return batch.producer_epoch < state.epoch

    def fence_error(self) -> E:
        return E.INVALID_PRODUCER_EPOCH

    def unknown_producer(self, batch: ProducerBatch, leader_epoch: int) -> ProduceResponse:
        return self.write(batch, leader_epoch, new_epoch=True)

    def accepts_new_epoch_at(self, sequence: int) -> bool:
        return False

    def continues(self, last: int, first: int) -> bool:
        return first == last + 1 or (last == INT32_MAX and first == 0)

    def out_of_order(self, state: _Producer, batch: ProducerBatch) -> ProduceResponse:
        return self.refuse(E.OUT_OF_ORDER_SEQUENCE_NUMBER, "out of order")

    def refuse(self, error: E, rule: str) -> ProduceResponse:
        return ProduceResponse(error, -1, self.error_log_start(), rule)

    def error_log_start(self) -> int:
        return self.log_start_offset

    def write(self, batch: ProducerBatch, leader_epoch: int, *, new_epoch: bool) -> ProduceResponse:
        offset = self.log_end_offset
        self._store(LogEntry(offset, batch, leader_epoch))
        state = self.mine.get(batch.producer_id)
        if state is None or new_epoch:
            state = self.mine[batch.producer_id] = _Producer(batch.producer_epoch, batch.last_sequence, [])
        self.remember(state, (batch.base_sequence, batch.last_sequence, offset))
        state.last = batch.last_sequence
        state.stamp = batch.timestamp_ms
        return ProduceResponse(E.NONE, offset, self.log_start_offset, "written", appended=True)

    def remember(self, state: _Producer, batch: tuple[int, int, int]) -> None:
        state.window = [*state.window, batch][-self.WINDOW:]

    # -- a restart on the same data -------------------------------------------------------
    def restart(self, *, clean: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:
        super().restart(clean=clean, now_ms=now_ms, expiration_ms=expiration_ms)  # the storage side
        if self.log_start_offset >= self.log_end_offset:  # the only snapshot, at the log start, is deleted at load
            self.mine = {}
        if now_ms is not None:  # a producer idle for a day (Kafka 3.4 and later) is not loaded
            self.mine = {pid: p for pid, p in self.mine.items() if now_ms - p.stamp < 86_400_000}
        kept = {pid: self.after_restart(state) for pid, state in self.mine.items()}
        self.mine = {pid: state for pid, state in kept.items() if state is not None}

    def after_restart(self, state: _Producer) -> _Producer | None:
        """A producer snapshot file holds one batch per producer, its newest; a crash's
        recovery writes the same from the log, so either way that is all that comes back."""
        return _Producer(state.epoch, state.last, state.window[-1:], state.stamp)


# -- the variants --------------------------------------------------------------------------
class Window4(IndependentLog):
    """Four cached batches: the fifth-newest resend is written again."""

    WINDOW = 4


class Window6(IndependentLog):
    """Six cached batches: a resend Kafka refuses (45) is answered as a duplicate."""

    WINDOW = 6


class NoDedup(IndependentLog):
    """No duplicate detection (redpanda#3039): a resend meets the sequence check."""

    def duplicate_of(self, state: _Producer, batch: ProducerBatch) -> tuple[int, int, int] | None:
        return None


class DedupAcrossEpochs(IndependentLog):
    """A batch matching a cached range of another epoch is a duplicate: acked, never written."""

    def duplicate_of(self, state: _Producer, batch: ProducerBatch) -> tuple[int, int, int] | None:
        return next((w for w in state.window if (w[0], w[1]) == (batch.base_sequence, batch.last_sequence)), None)


class DedupByFirstSequence(IndependentLog):
    """A duplicate is recognised by its first sequence alone: a longer overlap is acked unwritten."""

    def duplicate_of(self, state: _Producer, batch: ProducerBatch) -> tuple[int, int, int] | None:
        if batch.producer_epoch != state.epoch:
            return None
        return next((w for w in state.window if w[0] == batch.base_sequence), None)


class DuplicateAnswered46(IndependentLog):
    """A duplicate is refused with DUPLICATE_SEQUENCE_NUMBER (Tansu 0.6)."""

    def duplicate_answer(self, state: _Producer, found: tuple[int, int, int]) -> ProduceResponse:
        return self.refuse(E.DUPLICATE_SEQUENCE_NUMBER, "duplicate")


class DuplicateNewestOffset(IndependentLog):
    """A duplicate is answered with the newest batch's offset (noida-db 0.2.3)."""

    def duplicate_answer(self, state: _Producer, found: tuple[int, int, int]) -> ProduceResponse:
        return ProduceResponse(E.NONE, state.window[-1][2], self.log_start_offset, "duplicate")


class NoSequenceWrap(IndependentLog):
    """Int.MAX is not followed by 0 (KAFKA-12152 era)."""

    def continues(self, last: int, first: int) -> bool:
        return first == last + 1


class WrapToOne(IndependentLog):
    """After Int.MAX the sequence continues at 1 (an off-by-one in the wrap)."""

    def continues(self, last: int, first: int) -> bool:
        return first == last + 1 or (last == INT32_MAX and first == 1)


class GapAccepted(IndependentLog):
    """Any sequence after the last is accepted (a > where == was meant)."""

    def continues(self, last: int, first: int) -> bool:
        return first > last or (last == INT32_MAX and first == 0)


class NoFencing(IndependentLog):
    """A batch of an older epoch is not fenced (librdkafka mock)."""

    def fenced(self, state: _Producer, batch: ProducerBatch) -> bool:
        return False


class FencedOutOfOrder(IndependentLog):
    """An older epoch is refused as out of order (45), not INVALID_PRODUCER_EPOCH (47)."""

    def fence_error(self) -> E:
        return E.OUT_OF_ORDER_SEQUENCE_NUMBER


class NewEpochAnySequence(IndependentLog):
    """A new epoch may start at any sequence."""

    def accepts_new_epoch_at(self, sequence: int) -> bool:
        return True


class UnknownProducerRefused(IndependentLog):
    """A producer without state must start at 0 (59 UNKNOWN_PRODUCER_ID), as before KIP-360."""

    def unknown_producer(self, batch: ProducerBatch, leader_epoch: int) -> ProduceResponse:
        if batch.base_sequence != 0:
            return self.refuse(E.UNKNOWN_PRODUCER_ID, "no state")
        return super().unknown_producer(batch, leader_epoch)


class UnknownProducerOutOfOrder(IndependentLog):
    """A producer without state must start at 0 (45), as Tansu and noida do."""

    def unknown_producer(self, batch: ProducerBatch, leader_epoch: int) -> ProduceResponse:
        if batch.base_sequence != 0:
            return self.refuse(E.OUT_OF_ORDER_SEQUENCE_NUMBER, "no state")
        return super().unknown_producer(batch, leader_epoch)


class NegativeSequenceAccepted(IndependentLog):
    """A batch with base sequence -1 and a producer id is written (Tansu, the mock)."""

    def invalid(self, batch: ProducerBatch) -> ProduceResponse:
        return self.write(batch, 0, new_epoch=batch.producer_id not in self.mine)


class NegativeSequenceOutOfOrder(IndependentLog):
    """A batch with base sequence -1 is refused as out of order (45), not invalid (87)."""

    def invalid(self, batch: ProducerBatch) -> ProduceResponse:
        return self.refuse(E.OUT_OF_ORDER_SEQUENCE_NUMBER, "negative")


class ErrorsWithoutLogStart(IndependentLog):
    """Refusals carry log start offset -1 (noida-db; Kafka before 2.4 for invalid records only)."""

    def error_log_start(self) -> int:
        return -1


class OutOfOrderAs46(IndependentLog):
    """A resend below the newest batch that is not cached is answered 46 (Kafka 1.0.0/1.0.1 on 4.x)."""

    def out_of_order(self, state: _Producer, batch: ProducerBatch) -> ProduceResponse:
        if state.window and _before(batch.last_sequence, state.window[0][0]):
            return self.refuse(E.DUPLICATE_SEQUENCE_NUMBER, "below the window")
        return super().out_of_order(state, batch)


class NewEpochKeepsWindow(IndependentLog):
    """A new epoch keeps the old epoch's window and last sequence for its duplicate check."""

    def write(self, batch: ProducerBatch, leader_epoch: int, *, new_epoch: bool) -> ProduceResponse:
        state = self.mine.get(batch.producer_id)
        kept = list(state.window) if state is not None else []
        answer = super().write(batch, leader_epoch, new_epoch=new_epoch)
        if new_epoch and kept:
            current = self.mine[batch.producer_id]
            current.window = [*kept, *current.window][-self.WINDOW:]
        return answer

    def duplicate_of(self, state: _Producer, batch: ProducerBatch) -> tuple[int, int, int] | None:
        return next((w for w in state.window if (w[0], w[1]) == (batch.base_sequence, batch.last_sequence)), None)


class WindowKeptAcrossRestart(IndependentLog):
    """The whole window comes back after a restart (the kit's own reference until issue 30):
    an older resend is answered as a duplicate where Kafka answers 45."""

    def after_restart(self, state: _Producer) -> _Producer | None:
        return state


class StateLostOnRestart(IndependentLog):
    """Producer state lives in memory only: after a restart every producer is new, so a resend
    of the last batch is written twice."""

    def after_restart(self, state: _Producer) -> _Producer | None:
        return None


def _before(a: int, b: int) -> bool:
    return a < b


ZOO: dict[str, type[IndependentLog]] = {
    "window-4": Window4,
    "window-6": Window6,
    "no-dedup": NoDedup,
    "dedup-across-epochs": DedupAcrossEpochs,
    "dedup-by-first-sequence": DedupByFirstSequence,
    "duplicate-answered-46": DuplicateAnswered46,
    "duplicate-newest-offset": DuplicateNewestOffset,
    "no-sequence-wrap": NoSequenceWrap,
    "wrap-to-one": WrapToOne,
    "gap-accepted": GapAccepted,
    "no-fencing": NoFencing,
    "fenced-out-of-order": FencedOutOfOrder,
    "new-epoch-any-sequence": NewEpochAnySequence,
    "unknown-producer-refused": UnknownProducerRefused,
    "unknown-producer-out-of-order": UnknownProducerOutOfOrder,
    "negative-sequence-accepted": NegativeSequenceAccepted,
    "negative-sequence-out-of-order": NegativeSequenceOutOfOrder,
    "errors-without-log-start": ErrorsWithoutLogStart,
    "out-of-order-as-46": OutOfOrderAs46,
    "new-epoch-keeps-window": NewEpochKeepsWindow,
    "window-kept-across-restart": WindowKeptAcrossRestart,
    "state-lost-on-restart": StateLostOnRestart,
}
"""Name -> faulty log; 22 bug classes of the broker's producer-state rules."""
