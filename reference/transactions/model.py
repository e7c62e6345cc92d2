"""Run a transaction script against the spec: one coordinator, one topic's partitions, one replica each.

This is what a Kafka release answers to the script, step by step, and what the partitions
hold at the end; a real broker's run of the same script is held to it
(``conformance/transactions``).
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.transactions.coordinator import (
    CoordinatorAnswer,
    TxnError,
    TxnMetadata,
    add_partitions,
    end_transaction,
    init_producer_id,
    time_out,
    verify_partition,
)
from kafka_conformance.reference.transactions.partition import TxnPartition
from kafka_conformance.reference.transactions.profile import TxnProfile
from kafka_conformance.reference.transactions.run import PartitionRead, Reply, ScriptRun, drive
from kafka_conformance.reference.transactions.script import TxnScript

__all__ = ["TRANSACTIONAL_ID", "run_model"]

TRANSACTIONAL_ID = "conformance-txn"
FIRST_PRODUCER_ID = 1000
MODEL_NOW_MS = 10**13
"""The clock a script runs at in the model: every step at the same instant, so no transaction times
out except at an :class:`~kafka_conformance.reference.transactions.script.Expire` step."""


class _Model:
    """The coordinator of the script's transactional id and the topic's partitions, as a driver."""

    def __init__(self, partitions: int, profile: TxnProfile) -> None:
        self.profile = profile
        broker = broker_profile(profile.version)
        self.partitions = [TxnPartition(broker, profile) for _ in range(partitions)]
        self.metadata: TxnMetadata | None = None
        self.next_id = FIRST_PRODUCER_ID

    @property
    def bumps_epoch_per_transaction(self) -> bool:
        return self.profile.bumps_epoch_per_transaction

    def now_ms(self) -> int:
        return MODEL_NOW_MS

    def _apply(self, answer: CoordinatorAnswer) -> Reply:
        """Keep the coordinator's new metadata and write its markers; the reply the client gets."""
        self.metadata = answer.metadata
        for markers in answer.markers:
            for p in sorted(markers.partitions):
                self.partitions[p].write_marker(markers)
        return Reply(int(answer.error), answer.producer_id, answer.epoch, detail=answer.rule)

    def init(self, timeout_ms: int) -> Reply:
        answer = init_producer_id(self.metadata, TRANSACTIONAL_ID, timeout_ms, self.next_id)
        if answer.producer_id == self.next_id:
            self.next_id += 1
        return self._apply(answer)

    def add(self, producer_id: int, epoch: int, partitions: Iterable[int]) -> Reply:
        return self._apply(add_partitions(self.metadata, producer_id, epoch, frozenset(partitions), MODEL_NOW_MS))

    def end(self, producer_id: int, epoch: int, commit: bool) -> Reply:
        return self._apply(end_transaction(self.metadata, producer_id, epoch, commit, self.profile))

    def produce(self, partition: int, batch: ProducerBatch) -> Reply:
        def ask(pid: int, epoch: int) -> TxnError:
            if not self.profile.bumps_epoch_per_transaction:
                return verify_partition(self.metadata, pid, epoch, partition, self.profile)
            added = add_partitions(self.metadata, pid, epoch, frozenset({partition}), MODEL_NOW_MS)  # Produce v12 adds it
            self._apply(added)
            return added.error

        answer = self.partitions[partition].produce(batch, ask)
        return Reply(answer.code, base_offset=answer.base_offset, detail=answer.rule)

    def expire(self, timeout_ms: int) -> Reply:
        """The coordinator's timeout check, run once the open transaction's timeout has passed."""
        if self.metadata is None:
            return Reply(0, detail="no transactional id yet: nothing times out")
        answer = time_out(self.metadata, self.metadata.started_ms + self.metadata.timeout_ms + 1)
        if answer is None:
            return Reply(0, detail=f"{self.metadata.state.value}: no transaction open, nothing times out")
        return self._apply(answer)

    def read(self, partition: int) -> PartitionRead:
        part = self.partitions[partition]
        return PartitionRead(partition, tuple(r.value for r in part.read_committed()),
                             tuple(r.value for r in part.read_uncommitted()), part.last_stable_offset, part.log_end_offset)


def run_model(script: TxnScript, profile: TxnProfile) -> ScriptRun:
    """What ``profile``'s release answers to each step of ``script``, and the partitions' reads after."""
    return drive(script, _Model(script.partitions, profile), str(profile))
