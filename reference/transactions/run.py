"""Running a transaction script, on the model or on a broker: one walk through the steps for both.

:func:`drive` walks a script's steps and asks a :class:`ScriptDriver` (the model, or the wire
harness of ``adapters/brokers/wire_txn.py``) to answer each request.  It stamps batches as
the Java client does (:class:`Stamper`) and keeps held produces until their send, so both
sides send byte-for-byte the same batches for the same answers.  They fill the same
values: one :class:`StepAnswer` per step and one :class:`PartitionRead` per partition at the
end, compared field by field.  Producer ids are given as ordinals (0 for the first id the run
met, 1 for the next), since a real broker allocates its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import attrs

from kafka_conformance.reference.broker.batches import ProducerBatch, increment_sequence
from kafka_conformance.reference.transactions.script import Add, End, Expire, Init, Produce, Send, TxnScript

__all__ = ["NOT_TIMED_OUT", "PartitionRead", "Reply", "ScriptDriver", "ScriptRun", "Stamper", "StepAnswer", "drive",
           "values_of"]

NOT_TIMED_OUT = -1000
"""An :class:`~kafka_conformance.reference.transactions.script.Expire` step's answer when the open
transaction was still open long after its timeout: no request was sent, so no Kafka error code (and
not -1, which is Kafka's UNKNOWN_SERVER_ERROR)."""


@attrs.frozen
class Reply:
    """A driver's answer to one request: the error code, the producer id and epoch an
    InitProducerId (or an EndTxn v5) returned, a Produce's base offset, how it came about."""

    code: int
    producer_id: int = -1
    epoch: int = -1
    base_offset: int = -1
    detail: str = ""


class ScriptDriver(Protocol):
    """One side a script runs on."""

    @property
    def bumps_epoch_per_transaction(self) -> bool:
        """True with transaction.version 2: EndTxn answers the producer's new epoch."""
        ...

    def now_ms(self) -> int: ...

    def init(self, timeout_ms: int) -> Reply: ...

    def add(self, producer_id: int, epoch: int, partitions: Iterable[int]) -> Reply: ...

    def end(self, producer_id: int, epoch: int, commit: bool) -> Reply: ...

    def produce(self, partition: int, batch: ProducerBatch) -> Reply: ...

    def expire(self, timeout_ms: int) -> Reply:
        """Let the transaction timeout pass: code 0 once an open transaction was aborted by the
        coordinator (or when none was open), :data:`NOT_TIMED_OUT` if it was still open long after."""
        ...

    def read(self, partition: int) -> PartitionRead:
        """The partition read back by read_committed and read_uncommitted consumers."""
        ...


@attrs.frozen
class StepAnswer:
    """The answer to one step: the error code (None for a held produce, not yet sent), the
    producer (as an ordinal) and epoch InitProducerId or EndTxn gave, a Produce's base offset."""

    index: int
    error: int | None
    producer: int = -1
    epoch: int = -1
    base_offset: int = -1
    detail: str = ""
    """How the answer came about (the model's rule; the retries a real broker needed); not compared."""

    def same_as(self, other: StepAnswer) -> bool:
        return (self.error, self.producer, self.epoch, self.base_offset) == (other.error, other.producer, other.epoch,
                                                                          other.base_offset)


@attrs.frozen
class PartitionRead:
    """One partition read back at the end of a run."""

    partition: int
    committed: tuple[str, ...]
    """What a read_committed consumer read: values below the last stable offset, aborted ones left out."""
    uncommitted: tuple[str, ...]
    last_stable_offset: int
    log_end_offset: int


@attrs.frozen
class ScriptRun:
    script: TxnScript
    answers: tuple[StepAnswer, ...]
    reads: tuple[PartitionRead, ...]
    ran_on: str = ""


def values_of(index: int, step: Produce) -> tuple[str, ...]:
    """The record values of the produce at step ``index``: unique in the script, and saying whose they are."""
    return tuple(f"{step.instance}{index}.{i}" for i in range(step.records))


class Stamper:
    """Producer instances as the Java client keeps them: (producer id, epoch) and a sequence per partition."""

    def __init__(self) -> None:
        self._ids: dict[str, tuple[int, int]] = {}
        self._next: dict[tuple[str, int], int] = {}
        self.ordinals: dict[int, int] = {}

    def ordinal(self, producer_id: int) -> int:
        if producer_id < 0:
            return -1
        return self.ordinals.setdefault(producer_id, len(self.ordinals))

    def ids(self, instance: str) -> tuple[int, int]:
        return self._ids.get(instance, (-1, -1))

    def set_ids(self, instance: str, producer_id: int, epoch: int) -> None:
        """After InitProducerId (or a transaction.version 2 EndTxn): a new epoch restarts every sequence."""
        if self._ids.get(instance) != (producer_id, epoch):
            self._next = {k: v for k, v in self._next.items() if k[0] != instance}
        self._ids[instance] = (producer_id, epoch)

    def stamp(self, index: int, step: Produce, timestamp_ms: int) -> ProducerBatch:
        pid, epoch = self.ids(step.instance)
        key = (step.instance, step.partition)
        sequence = self._next.get(key, 0)
        self._next[key] = increment_sequence(sequence, step.records)
        return ProducerBatch(pid, epoch, sequence, values_of(index, step), timestamp_ms, transactional=step.transactional)


def drive(script: TxnScript, driver: ScriptDriver, ran_on: str) -> ScriptRun:
    """Run every step of ``script`` through ``driver``, then read every partition back."""
    stamper = Stamper()
    batches: dict[int, tuple[int, ProducerBatch]] = {}
    named: dict[str, int] = {}
    answers: list[StepAnswer] = []

    def ids(index: int, reply: Reply, instance: str, new_ids: bool) -> StepAnswer:
        if not new_ids:
            return StepAnswer(index, reply.code, detail=reply.detail)
        stamper.set_ids(instance, reply.producer_id, reply.epoch)
        return StepAnswer(index, reply.code, stamper.ordinal(reply.producer_id), reply.epoch, detail=reply.detail)

    def send(index: int, origin: int) -> StepAnswer:
        reply = driver.produce(*batches[origin])
        return StepAnswer(index, reply.code, base_offset=reply.base_offset, detail=reply.detail)

    for index, step in enumerate(script.steps):
        if isinstance(step, Init):
            reply = driver.init(script.timeout_ms)
            answers.append(ids(index, reply, step.instance, reply.code == 0))
        elif isinstance(step, Add):
            reply = driver.add(*stamper.ids(step.instance), step.partitions)
            answers.append(StepAnswer(index, reply.code, detail=reply.detail))
        elif isinstance(step, End):
            reply = driver.end(*stamper.ids(step.instance), step.commit)
            answers.append(ids(index, reply, step.instance, reply.code == 0 and driver.bumps_epoch_per_transaction))
        elif isinstance(step, Produce):
            batches[index] = (step.partition, stamper.stamp(index, step, driver.now_ms()))
            if step.name is not None:
                named[step.name] = index
            answers.append(StepAnswer(index, None, detail="held: stamped, not sent") if step.held else send(index, index))
        elif isinstance(step, Send):
            answers.append(send(index, named[step.name]))
        elif isinstance(step, Expire):
            reply = driver.expire(script.timeout_ms)
            answers.append(StepAnswer(index, reply.code, detail=reply.detail))
    return ScriptRun(script, tuple(answers), tuple(driver.read(p) for p in range(script.partitions)), ran_on)
