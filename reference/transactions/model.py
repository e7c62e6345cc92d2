"""Run a transaction script against the spec: one coordinator, one topic's partitions, one replica each.

This is what a Kafka release answers to the script, step by step, and what the partitions
hold at the end; a real broker's run of the same script is held to it
(``conformance/transactions``).
"""

from __future__ import annotations

from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.transactions.coordinator import (
    CoordinatorAnswer,
    TxnError,
    TxnMetadata,
    add_partitions,
    end_transaction,
    init_producer_id,
    verify_partition,
)
from kafka_conformance.reference.transactions.partition import TxnPartition
from kafka_conformance.reference.transactions.profile import TxnProfile
from kafka_conformance.reference.transactions.run import PartitionRead, ScriptRun, Stamper, StepAnswer
from kafka_conformance.reference.transactions.script import Add, End, Init, Produce, Send, TxnScript

__all__ = ["TRANSACTIONAL_ID", "run_model"]

TRANSACTIONAL_ID = "conformance-txn"
FIRST_PRODUCER_ID = 1000
MODEL_NOW_MS = 10**13
"""The clock a script runs at in the model: every step at the same instant, so no transaction times out."""


def run_model(script: TxnScript, profile: TxnProfile) -> ScriptRun:
    """What ``profile``'s release answers to each step of ``script``, and the partitions' reads after."""
    broker = broker_profile(profile.version)
    partitions = [TxnPartition(broker, profile) for _ in range(script.partitions)]
    metadata: TxnMetadata | None = None
    next_id = FIRST_PRODUCER_ID
    stamper = Stamper()
    batches: dict[int, ProducerBatch] = {}
    answers: list[StepAnswer] = []

    def coordinator(answer: CoordinatorAnswer) -> None:
        nonlocal metadata
        metadata = answer.metadata
        for markers in answer.markers:
            for p in sorted(markers.partitions):
                partitions[p].write_marker(markers)

    def send(index: int, name_index: int, step: Produce) -> StepAnswer:
        batch = batches[name_index]
        part = partitions[step.partition]

        def ask(pid: int, epoch: int) -> TxnError:
            if not profile.bumps_epoch_per_transaction:
                return verify_partition(metadata, pid, epoch, step.partition, profile)
            added = add_partitions(metadata, pid, epoch, frozenset({step.partition}), MODEL_NOW_MS)  # Produce v12 adds it
            coordinator(added)
            return added.error

        answer = part.produce(batch, ask)
        return StepAnswer(index, answer.code, base_offset=answer.base_offset, detail=answer.rule)

    named: dict[str, int] = {}
    for index, step in enumerate(script.steps):
        if isinstance(step, Init):
            result = init_producer_id(metadata, TRANSACTIONAL_ID, script.timeout_ms, next_id, profile)
            if result.error is TxnError.NONE and result.producer_id == next_id:
                next_id += 1
            coordinator(result)
            if result.error is TxnError.NONE:
                stamper.set_ids(step.instance, result.producer_id, result.epoch)
            answers.append(StepAnswer(index, int(result.error), stamper.ordinal(result.producer_id), result.epoch,
                                      detail=result.rule))
        elif isinstance(step, Add):
            pid, epoch = stamper.ids(step.instance)
            result = add_partitions(metadata, pid, epoch, step.partitions, MODEL_NOW_MS)
            coordinator(result)
            answers.append(StepAnswer(index, int(result.error), detail=result.rule))
        elif isinstance(step, End):
            pid, epoch = stamper.ids(step.instance)
            result = end_transaction(metadata, pid, epoch, step.commit, profile)
            coordinator(result)
            bumped = result.error is TxnError.NONE and profile.bumps_epoch_per_transaction
            if bumped:  # EndTxn v5 answers the producer id and the (bumped) epoch
                stamper.set_ids(step.instance, result.producer_id, result.epoch)
            answers.append(StepAnswer(index, int(result.error), stamper.ordinal(result.producer_id) if bumped else -1,
                                      result.epoch if bumped else -1, detail=result.rule))
        elif isinstance(step, Produce):
            batches[index] = stamper.stamp(index, step, MODEL_NOW_MS)
            if step.name is not None:
                named[step.name] = index
            if step.held:
                answers.append(StepAnswer(index, None, detail="held: stamped, not sent"))
            else:
                answers.append(send(index, index, step))
        elif isinstance(step, Send):
            origin = named[step.name]
            produce = script.steps[origin]
            assert isinstance(produce, Produce)
            answers.append(send(index, origin, produce))
    reads = tuple(PartitionRead(p, tuple(r.value for r in part.read_committed()), tuple(r.value for r in part.read_uncommitted()),
                                part.last_stable_offset, part.log_end_offset) for p, part in enumerate(partitions))
    return ScriptRun(script, tuple(answers), reads, str(profile))
