"""The reference idempotent producer: a deterministic state machine driven by events.

No threads, no sockets, no clock of its own: the engine that drives it
(:mod:`kafka_conformance.producer.model_engine`) says what time it is, which broker leads
each partition, and which answer (or disconnect) arrived.  The producer answers
with the produce requests it sends (:class:`ProduceCall`) and logs what the
application sees (:class:`~trace.Send`, :class:`~trace.Acked`,
:class:`~trace.Failed`, :class:`~trace.Indeterminate`).

It follows the Java producer from 2.5 on (``docs/spec/idempotence.md`` §2.1) where that is safe,
and departs from it where Java is known to break its own guarantee:

* **Stamps.**  A batch gets (producer id, epoch, base sequence) when first
  drained; sequences start at ``initial_sequence`` and wrap past Int.MAX; a
  retry keeps its stamp.
* **Order.**  At most ``max.in.flight.requests.per.connection`` requests per
  broker; a retried batch goes back in sequence order and is sent only when it
  is the lowest stamped batch still out; new batches of a partition wait while
  retries are queued.  Completions of one partition reach the application in
  send order (they are held back until every earlier send completed).
* **Answers.**  Retriable errors are retried with the same stamp.
  DUPLICATE_SEQUENCE_NUMBER is success with offset -1.  OUT_OF_ORDER_SEQUENCE_NUMBER
  on a batch with an earlier batch still out is a knock-on failure: retried.  On
  the batch right after the last acknowledged one (or after only unresolved
  batches) it proves a real gap: an epoch bump.  UNKNOWN_PRODUCER_ID with a known
  log start offset asks for a bump too (a re-stamped batch is just retried).
  Other errors fail the batch.
* **Failed vs Indeterminate.**  A batch is reported as a definite failure only
  when no attempt may have been written (every answer said "not written"); any
  unanswered or possibly-appended attempt makes it indeterminate.
* **Timeouts.**  ``request.timeout.ms`` closes the connection (every request on
  it fails as a disconnect); ``delivery.timeout.ms`` completes a batch even while
  it is in flight.
* **Unresolved sequences block.**  A failed or expired stamped batch is a hole:
  no new sequence is stamped on its partition until every batch still out has
  settled; then a hole that a later acknowledgement proves written is resolved,
  anything else leads to an epoch bump.
* **The bump** (client-local, as Java's since KIP-360; a new producer id via
  InitProducerId when the epoch is exhausted) re-stamps from sequence 0 only
  batches *known not written*, and only once no batch of the partition may still
  be written under the old stamp.  That is the fix proposed for KAFKA-14034
  (apache/kafka PR #13796); Java itself re-stamps at once.  Other partitions move
  to the new epoch lazily, when nothing of theirs is out (KAFKA-12152's fix).

Simplifications, said plainly: each batch travels in its own request (Java
packs one batch per partition into a request per broker; the in-flight limit
counts these requests); metadata is always fresh (the engine passes the current
leaders); one send is one batch unless ``linger.ms`` > 0, when a partition's
waiting records form one batch once the oldest has waited ``linger.ms`` (no
``batch.size`` limit, no splitting after MESSAGE_TOO_LARGE); retry backoff is
constant.  Without idempotence the producer behaves as the Java client then
does: no stamps, a retry goes to the front of the queue (so retries may
duplicate and, with more than one request in flight, reorder); acks=0 completes
on send with offset -1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

import attrs

from kafka_conformance.reference.broker.batches import INT16_MAX, ProducerBatch, increment_sequence
from kafka_conformance.reference.broker.produce_errors import Appended, ProduceError
from kafka_conformance.reference.producer.model_state import BatchState, ModelBatch, ModelConfig, PartitionState
from kafka_conformance.reference.traces.events import Acked, Completion, Event, Failed, Indeterminate, Send

__all__ = ["ModelConfig", "ModelProducer", "ProduceCall"]

QUEUED, SENT, PARKED, HOLE = BatchState.QUEUED, BatchState.SENT, BatchState.PARKED, BatchState.HOLE
_Make: TypeAlias = Callable[[str, int], Completion]
"""Builds the completion of the ``index``-th record of a batch from its value."""


@attrs.frozen
class ProduceCall:
    """One produce request the producer sends now: one batch for one partition."""

    request_id: int
    broker: int
    partition: int
    batch: ProducerBatch
    acks: int


@attrs.define
class _Request:
    batch: ModelBatch
    broker: int
    deadline_ms: int


class ModelProducer:
    """One producer session.  Drive it with :meth:`send`, :meth:`poll`, :meth:`on_response`,
    :meth:`on_disconnect` and :meth:`set_producer_id`; read :meth:`take_events`."""

    def __init__(self, config: ModelConfig, partitions: int, *, initial_sequence: int = 0) -> None:
        if partitions < 1:
            raise ValueError("a producer needs at least one partition")
        self.config = config
        self.initial_sequence = initial_sequence
        self.parts = [PartitionState(p) for p in range(partitions)]
        self.producer_id = -1
        self.producer_epoch = -1
        self.needs_producer_id = config.idempotence
        """The engine must answer with :meth:`set_producer_id` (InitProducerId) before batches go out."""
        self.flushing = False
        """Set by the engine while the application waits in ``flush()``: lingering batches go at once."""
        self._requests: dict[int, _Request] = {}
        self._in_flight: dict[int, int] = {}
        self._next_request = 1
        self._events: list[Event] = []
        self._pending = 0
        self._leaders: Sequence[int | None] = ()
        self.epoch_bumps = 0

    # ------------------------------------------------------------------ application
    def send(self, value: str, partition: int, now_ms: int) -> None:
        if not 0 <= partition < len(self.parts):
            raise ValueError(f"send to partition {partition}; the producer knows {len(self.parts)}")
        part = self.parts[partition]
        part.fresh.append((value, now_ms))
        part.order.append(value)
        self._pending += 1
        self._events.append(Send(value, partition, time_ms=now_ms))

    @property
    def pending(self) -> int:
        """Sends whose completion the application has not seen yet."""
        return self._pending

    def take_events(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    # ------------------------------------------------------------------ engine inputs
    def set_producer_id(self, producer_id: int, producer_epoch: int) -> None:
        """The answer to InitProducerId: every partition moves to the new id lazily."""
        self.producer_id, self.producer_epoch = producer_id, producer_epoch
        self.needs_producer_id = False

    def accepts(self, request_id: int) -> bool:
        """Whether a response to ``request_id`` can still reach the producer (its connection is open)."""
        return request_id in self._requests

    def on_disconnect(self, broker: int, now_ms: int) -> None:
        """The connection to ``broker`` closed: every request on it fails (it may have been handled)."""
        for request_id in [r for r, req in self._requests.items() if req.broker == broker]:
            self.on_response(request_id, ProduceError.NETWORK_EXCEPTION, -1, -1, now_ms)

    def on_response(self, request_id: int, error: ProduceError, base_offset: int, log_start_offset: int, now_ms: int) -> None:
        request = self._requests.pop(request_id, None)
        if request is None:
            return  # its connection was closed; the answer never reaches the producer
        self._in_flight[request.broker] -= 1
        batch = request.batch
        part = self.parts[batch.partition]
        if error.is_success:
            self._acked(part, batch, -1 if error is ProduceError.DUPLICATE_SEQUENCE_NUMBER else base_offset, now_ms)
            return
        if error is ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER:
            batch.maybe_written = False  # the broker checked its window: no attempt of this stamp is there
        elif error.appended is not Appended.NO:
            batch.maybe_written = True
        if error.appended is not Appended.NO:
            batch.possibly_appended = True
        retry = self._can_retry(batch, now_ms) and self._retriable(part, batch, error, log_start_offset)
        if retry:
            batch.state = PARKED if part.bump_needed and not batch.maybe_written and self.config.idempotence else QUEUED
            batch.retry_at_ms = now_ms + max(1, self.config.retry_backoff_ms)  # time moves on between retries
        else:
            self._give_up(part, batch, error.name, now_ms)

    # ------------------------------------------------------------------ the loop
    def poll(self, now_ms: int, leaders: Sequence[int | None]) -> list[ProduceCall]:
        """Fire due timeouts, settle partitions, and drain every batch that may go now."""
        self._leaders = leaders
        for broker in sorted({req.broker for req in self._requests.values() if req.deadline_ms <= now_ms}):
            self.on_disconnect(broker, now_ms)  # request.timeout.ms: the client closes the connection
        self._expire(now_ms)
        if self.config.idempotence:
            for part in self.parts:
                self._settle(part, now_ms)
        calls: list[ProduceCall] = []
        progress = True
        while progress:
            progress = False
            for part in self.parts:
                leader = leaders[part.partition] if part.partition < len(leaders) else None
                if leader is None or self._in_flight.get(leader, 0) >= self.config.max_in_flight:
                    continue
                batch = self._next_batch(part, now_ms)
                if batch is not None:
                    calls.append(self._dispatch(part, batch, leader, now_ms))
                    progress = True
        return calls

    def next_wakeup(self, now_ms: int) -> int | None:
        """The earliest time after ``now_ms`` at which :meth:`poll` could do something new."""
        times = [req.deadline_ms for req in self._requests.values()]
        for part in self.parts:
            if part.fresh:
                times += [part.fresh[0][1] + self.config.delivery_timeout_ms, part.fresh[0][1] + self.config.linger_ms]
            times += [b.created_ms + self.config.delivery_timeout_ms for b in part.batches if not b.done]
            times += [b.retry_at_ms for b in part.batches if b.state is QUEUED]
            leaderless = part.partition >= len(self._leaders) or self._leaders[part.partition] is None
            if leaderless and (part.fresh or part.in_state(QUEUED)):
                times.append(now_ms + self.config.retry_backoff_ms)  # metadata refresh until a leader shows
        later = [t for t in times if t > now_ms]
        return min(later) if later else None

    # ------------------------------------------------------------------ draining
    def _next_batch(self, part: PartitionState, now_ms: int) -> ModelBatch | None:
        queued = sorted(part.in_state(QUEUED), key=lambda b: b.ordinal)
        if not self.config.idempotence:
            if queued:  # a retry goes first, in the order it failed (Java's addFirst)
                return queued[0] if queued[0].retry_at_ms <= now_ms else None
            return self._new_batch(part, now_ms)
        if self.needs_producer_id:
            return None
        if queued:
            head = queued[0]
            out = [b.ordinal for b in part.in_state(QUEUED, SENT)]
            if head.retry_at_ms > now_ms or head.ordinal != min(out):
                return None  # only the lowest batch still out may be retried (in-order retry)
            return head
        stale = (part.stamp_pid, part.stamp_epoch) != (self.producer_id, self.producer_epoch)
        if part.bump_needed or stale or part.in_state(HOLE, PARKED):
            return None  # an unresolved sequence or a pending bump blocks new sequences
        return self._new_batch(part, now_ms)

    def _new_batch(self, part: PartitionState, now_ms: int) -> ModelBatch | None:
        if not part.fresh:
            return None
        if self.config.linger_ms > 0 and not self.flushing and part.fresh[0][1] + self.config.linger_ms > now_ms:
            return None
        records = [part.fresh.popleft()] if self.config.linger_ms == 0 else [part.fresh.popleft() for _ in range(len(part.fresh))]
        batch = ModelBatch(tuple(v for v, _ in records), part.partition, records[0][1])
        if self.config.idempotence:
            batch.producer_id, batch.producer_epoch = self.producer_id, self.producer_epoch
            batch.base_sequence, batch.ordinal = part.next_sequence, part.next_ordinal
            part.next_sequence = increment_sequence(part.next_sequence, batch.record_count)
            part.next_ordinal += batch.record_count
        part.batches.append(batch)
        return batch

    def _dispatch(self, part: PartitionState, batch: ModelBatch, broker: int, now_ms: int) -> ProduceCall:
        request_id = self._next_request
        self._next_request += 1
        batch.attempts += 1
        call = ProduceCall(request_id, broker, part.partition, batch.wire_batch(now_ms), self.config.acks)
        if self.config.acks == 0:  # no answer will come: done on send, offset unknown
            part.batches.remove(batch)
            self._finish(part, batch, lambda v, i: Acked(v, -1, now_ms), now_ms)
            return call
        batch.state = SENT
        self._requests[request_id] = _Request(batch, broker, now_ms + self.config.request_timeout_ms)
        self._in_flight[broker] = self._in_flight.get(broker, 0) + 1
        return call

    # ------------------------------------------------------------------ outcomes
    def _acked(self, part: PartitionState, batch: ModelBatch, offset: int, now_ms: int) -> None:
        if batch in part.batches:
            part.batches.remove(batch)
        if self.config.idempotence and (batch.producer_id, batch.producer_epoch) == (part.stamp_pid, part.stamp_epoch):
            part.last_acked_ordinal = max(part.last_acked_ordinal, batch.last_ordinal)
        if not batch.done:
            self._finish(part, batch, lambda v, i: Acked(v, offset + i if offset >= 0 else -1, now_ms), now_ms)

    def _can_retry(self, batch: ModelBatch, now_ms: int) -> bool:
        within = now_ms < batch.created_ms + self.config.delivery_timeout_ms
        return not batch.done and within and batch.attempts <= self.config.retries

    def _retriable(self, part: PartitionState, batch: ModelBatch, error: ProduceError, log_start_offset: int) -> bool:
        if not self.config.idempotence:
            return error.retriable
        if error is ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER:
            if batch.ordinal <= part.last_acked_ordinal:
                return False  # behind a later acknowledged batch: it can never be written in order
            earlier = [b for b in part.batches if b.ordinal < batch.ordinal and b is not batch]
            if any(b.state in (QUEUED, SENT, PARKED) for b in earlier):
                return True  # knock-on failure of an earlier batch: retry, no bump
            for hole in earlier:  # the broker expected the unresolved batch(es): not written
                hole.maybe_written = False
            part.bump_needed = True  # a real gap
            return True
        if error is ProduceError.UNKNOWN_PRODUCER_ID:
            if log_start_offset >= 0 and not batch.reset:
                part.bump_needed = True
            return True
        return error.retriable

    def _give_up(self, part: PartitionState, batch: ModelBatch, reason: str, now_ms: int) -> None:
        """Complete ``batch`` without an ack: a hole in its partition's sequence run."""
        if not self.config.idempotence:
            part.batches.remove(batch)
        else:
            batch.state = HOLE
            if not batch.maybe_written and batch.ordinal > part.last_acked_ordinal:
                part.bump_needed = True  # a sequence the broker will never see
        if not batch.done:
            if batch.possibly_appended or batch.maybe_written:
                self._finish(part, batch, lambda v, i: Indeterminate(v, reason, now_ms), now_ms)
            else:
                self._finish(part, batch, lambda v, i: Failed(v, reason, now_ms), now_ms)

    def _expire(self, now_ms: int) -> None:
        """delivery.timeout.ms: complete what waited too long, in flight or not."""
        limit = self.config.delivery_timeout_ms
        for part in self.parts:
            while part.fresh and part.fresh[0][1] + limit <= now_ms:
                value, created = part.fresh.popleft()
                self._finish(
                    part,
                    ModelBatch((value,), part.partition, created),
                    lambda v, i: Failed(v, "expired before it was sent", now_ms),
                    now_ms,
                )
            for batch in list(part.batches):
                if batch.done or batch.created_ms + limit > now_ms:
                    continue
                if batch.state is SENT:
                    batch.done = True
                    self._finish(part, batch, lambda v, i: Indeterminate(v, "delivery timeout while in flight", now_ms), now_ms)
                else:
                    self._give_up(part, batch, "delivery timeout", now_ms)

    def _finish(self, part: PartitionState, batch: ModelBatch, make: _Make, now_ms: int) -> None:
        batch.done = True
        for index, value in enumerate(batch.values):
            part.finished[value] = make(value, index)
        while part.order and part.order[0] in part.finished:  # completions in send order
            completion = part.finished.pop(part.order.popleft())
            self._events.append(attrs.evolve(completion, time_ms=now_ms))
            self._pending -= 1

    # ------------------------------------------------------------------ resolution and bumps
    def _settle(self, part: PartitionState, now_ms: int) -> None:
        """Resolve unresolved sequences and bump the epoch once nothing of ``part`` is out."""
        if part.bump_needed:
            for batch in part.in_state(QUEUED):
                if not batch.maybe_written:
                    batch.state = PARKED
        if part.unsettled() or self.needs_producer_id:
            return
        for hole in part.in_state(HOLE):
            if hole.last_ordinal <= part.last_acked_ordinal:
                part.batches.remove(hole)  # the broker has moved past it: nothing left to resolve
        stale = (part.stamp_pid, part.stamp_epoch) != (self.producer_id, self.producer_epoch)
        if not (stale or part.bump_needed or part.in_state(HOLE)):
            return
        if not stale:
            self._bump_epoch()
            if self.needs_producer_id:
                return
        self._restamp(part, now_ms)

    def _bump_epoch(self) -> None:
        self.epoch_bumps += 1
        if self.producer_epoch >= INT16_MAX:
            self.needs_producer_id = True  # epoch exhausted: InitProducerId for a new id
        else:
            self.producer_epoch += 1

    def _restamp(self, part: PartitionState, now_ms: int) -> None:
        """Move ``part`` to the current (pid, epoch): sequences restart at 0 and every batch known
        not written is stamped again in its order; holes are dropped (their fate stays unknown,
        but they are never sent again, so they cannot be duplicated)."""
        first_run = part.stamp_pid == -1
        part.stamp_pid, part.stamp_epoch = self.producer_id, self.producer_epoch
        part.next_sequence = self.initial_sequence if first_run else 0
        part.next_ordinal, part.last_acked_ordinal, part.bump_needed = 0, -1, False
        parked = sorted(part.in_state(PARKED), key=lambda b: b.ordinal)
        part.batches = []
        for batch in parked:
            batch.producer_id, batch.producer_epoch = self.producer_id, self.producer_epoch
            batch.base_sequence, batch.ordinal = part.next_sequence, part.next_ordinal
            part.next_sequence = increment_sequence(part.next_sequence, batch.record_count)
            part.next_ordinal += batch.record_count
            batch.state, batch.reset, batch.retry_at_ms = QUEUED, True, now_ms
            part.batches.append(batch)
