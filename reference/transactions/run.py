"""What running a transaction script produced, whoever ran it, and how its batches are stamped.

The model and the wire harness fill the same values: one :class:`StepAnswer` per step
and one :class:`PartitionRead` per partition at the end, so the two can be compared
field by field.  Producer ids are given as ordinals (0 for the first id the run met,
1 for the next), since a real broker allocates its own.

:class:`Stamper` is the one place batches get their stamps, so the model and the wire
harness send byte-for-byte the same batches for the same answers.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.broker.batches import ProducerBatch, increment_sequence
from kafka_conformance.reference.transactions.script import Produce, TxnScript

__all__ = ["PartitionRead", "ScriptRun", "Stamper", "StepAnswer", "values_of"]


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
