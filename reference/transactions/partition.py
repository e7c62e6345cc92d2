"""One partition's side of transactions: transactional batches, markers, the last stable offset.

Read beside ``ProducerAppendInfo`` and ``ProducerStateManager`` (``storage/.../log/`` from 3.5,
``core/.../log/ProducerStateManager.scala`` before) and ``ReplicaManager.appendRecords``:

1. **Verification** (3.6+, KIP-890 part 1): a transactional batch from a producer with no
   transaction open on the partition is first checked with the coordinator; a batch of a
   transaction the coordinator does not have this partition in is refused.
2. **Idempotence**: the duplicate, epoch and sequence checks of
   :mod:`~kafka_conformance.reference.broker.producer_state`, unchanged.
3. **Transaction state**: a transactional batch opens a transaction on the partition at its
   first offset if none is open; a non-transactional batch of a producer with one open is
   refused (INVALID_TXN_STATE).
4. **Markers**: a COMMIT or ABORT control record (one offset) closes the producer's open
   transaction; an abort is remembered for read_committed readers (the aborted transaction
   index); a marker of a newer epoch clears the producer's cached batches, as any new epoch does.

The last stable offset is the first offset of the oldest open transaction, or the log end
(one replica: the high watermark is the log end).  A read_committed reader sees records
below it, less those of aborted transactions.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.partition_log import LogEntry
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.producer_state import CheckKind, ProducerEntry, check_client_batch, record_batch
from kafka_conformance.reference.broker.profile import BrokerProfile
from kafka_conformance.reference.transactions.coordinator import Markers, TxnError
from kafka_conformance.reference.transactions.profile import TxnProfile

__all__ = ["AbortedTxn", "Control", "TxnPartition", "TxnProduceAnswer", "Verifier"]

Verifier = Callable[[int, int], TxnError]
"""The coordinator's answer to a leader asking about (producer id, epoch) for this partition: a
verification (transaction.version 1) or, with transaction.version 2, an add of the partition."""


@attrs.frozen
class Control:
    """A control batch in the log: one COMMIT or ABORT marker at ``offset``."""

    offset: int
    producer_id: int
    epoch: int
    commit: bool


@attrs.frozen
class AbortedTxn:
    """An entry of the aborted transaction index: the producer's records in [first, last] are aborted."""

    producer_id: int
    first_offset: int
    last_offset: int


@attrs.frozen
class TxnProduceAnswer:
    code: int
    """The partition's error code: a :class:`ProduceError`'s, or a coordinator's passed on by verification."""
    base_offset: int = -1
    rule: str = ""


def _verification_code(verdict: TxnError, produce_version: int) -> int:
    """The code a Produce gets when verification fails: the coordinator's, except that
    PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH (producers handle that one on a
    Produce) and TRANSACTION_ABORTABLE as INVALID_TXN_STATE to Produce before v11
    (``AddPartitionsToTxnManager``: ``core/.../server/AddPartitionsToTxnManager.scala@3.8.0``,
    ``server/.../transaction/AddPartitionsToTxnManager.java@4.3.1:172-178``)."""
    if verdict is TxnError.PRODUCER_FENCED:
        return ProduceError.INVALID_PRODUCER_EPOCH.code
    if verdict is TxnError.TRANSACTION_ABORTABLE and produce_version < 11:
        return ProduceError.INVALID_TXN_STATE.code
    return int(verdict)


class TxnPartition:
    """The log, producer state and open transactions of one partition (one replica)."""

    def __init__(self, broker: BrokerProfile, profile: TxnProfile) -> None:
        self.broker = broker
        self.profile = profile
        self.log: list[LogEntry | Control] = []
        self.producers: dict[int, ProducerEntry] = {}
        self.open: dict[int, int] = {}
        """``currentTxnFirstOffset`` per producer id with a transaction open here."""
        self.aborted: list[AbortedTxn] = []
        self.log_end_offset = 0
        self.verifying: dict[int, tuple[int, int]] = {}
        """KIP-890 part 1's ``VerificationStateEntry`` per producer id: (lowest sequence, epoch) of the
        batches that asked for verification here since the producer's last transactional append
        (ProducerStateManager.maybeCreateVerificationStateEntry, KAFKA-14920, 3.6.0)."""

    @property
    def last_stable_offset(self) -> int:
        return min(self.open.values(), default=self.log_end_offset)

    def produce(self, batch: ProducerBatch, verify: Verifier) -> TxnProduceAnswer:
        """Answer one client batch carrying a producer id, as the partition leader does."""
        pid = batch.producer_id
        # 1. KIP-890 part 1: verify with the coordinator when nothing is open for the producer here
        if batch.transactional and self.profile.verifies_partitions and pid not in self.open:
            self._remember_verification(pid, batch.base_sequence, batch.producer_epoch)
            verdict = verify(pid, batch.producer_epoch)
            if verdict is not TxnError.NONE:  # the entry stays: only an append clears it
                code = _verification_code(verdict, self.profile.produce_version)
                return TxnProduceAnswer(code, -1, f"verification with the coordinator failed: {verdict.name}")
        # 2. duplicate, epoch, then (ProducerAppendInfo.checkSequence) the lowest sequence verification saw, then sequence
        check = check_client_batch(self.producers.get(pid), batch, self.broker,
                                   partition_ever_held_records=self.log_end_offset > 0)
        if check.kind is CheckKind.DUPLICATE:
            assert check.duplicate_of is not None
            return TxnProduceAnswer(0, check.duplicate_of.first_offset, check.rule)
        if check.kind is CheckKind.REJECT and check.error is not ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER:
            return TxnProduceAnswer(check.error.code, -1, check.rule)
        lowest = self.verifying.get(pid)
        if (lowest is not None and self.profile.first_sequence_zero_with_version_2 and batch.base_sequence != 0
                and not self._has_batches(pid)):
            return TxnProduceAnswer(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER.code, -1,
                                    f"a producer with no state here must start at sequence 0 with transaction.version 2, "
                                    f"not {batch.base_sequence} (KAFKA-18202)")
        if lowest is not None and batch.base_sequence > lowest[0]:
            return TxnProduceAnswer(ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER.code, -1,
                                    f"sequence {batch.base_sequence} is above {lowest[0]}, the lowest a batch asking for "
                                    "verification here had (KAFKA-14920)")
        if check.kind is CheckKind.REJECT:
            return TxnProduceAnswer(check.error.code, -1, check.rule)
        # 3. transaction state
        if not batch.transactional and pid in self.open:
            return TxnProduceAnswer(ProduceError.INVALID_TXN_STATE.code, -1,
                                    "a non-transactional batch while the producer has a transaction open here")
        base = self.log_end_offset
        self.log.append(LogEntry(base, batch))
        self.log_end_offset = base + batch.record_count
        self.producers[pid] = record_batch(self.producers.get(pid), batch, base, self.broker)
        if batch.transactional:  # UnifiedLog.updateProducers: a transactional append clears the entry
            self.verifying.pop(pid, None)
        rule = check.rule
        if batch.transactional and pid not in self.open:
            self.open[pid] = base
            rule += "; opens a transaction here"
        return TxnProduceAnswer(0, base, rule)

    def write_marker(self, markers: Markers) -> None:
        """``appendEndTxnMarker``: close the producer's transaction here (a marker takes one offset)."""
        pid = markers.producer_id
        offset = self.log_end_offset
        first = self.open.pop(pid, offset)
        self.verifying.pop(pid, None)  # a marker is a transactional append too
        entry = self.producers.get(pid, ProducerEntry(pid))
        if entry.epoch != markers.epoch:  # ``maybeUpdateProducerEpoch``: a new epoch clears the cached batches
            entry = ProducerEntry(pid, markers.epoch, (), entry.last_timestamp_ms)
        self.producers[pid] = entry
        self.log.append(Control(offset, pid, markers.epoch, markers.commit))
        self.log_end_offset = offset + 1
        if not markers.commit:
            self.aborted.append(AbortedTxn(pid, first, offset))

    def _has_batches(self, pid: int) -> bool:
        """``currentEntry.isEmpty()`` negated: the producer has batch metadata here (a new epoch's marker clears it)."""
        entry = self.producers.get(pid)
        return entry is not None and bool(entry.batches)

    def _remember_verification(self, pid: int, sequence: int, epoch: int) -> None:
        """``maybeCreateVerificationStateEntry``: the first batch's sequence and epoch, then
        (``maybeUpdateLowestSequenceAndEpoch``) a lower sequence of that epoch, or a higher epoch's."""
        known = self.verifying.get(pid)
        if known is None or epoch > known[1] or (epoch == known[1] and sequence < known[0]):
            self.verifying[pid] = (sequence, epoch)

    def read_uncommitted(self) -> tuple[LogRecord, ...]:
        """Every data record up to the high watermark (here the log end)."""
        return tuple(r for item in self.log if isinstance(item, LogEntry) for r in item.records())

    def read_committed(self) -> tuple[LogRecord, ...]:
        """What a read_committed consumer gets: records below the last stable offset, less the
        records of aborted transactions (the producer's records from an aborted transaction's
        first offset up to its abort marker)."""
        lso = self.last_stable_offset

        def aborted(record: LogRecord, transactional: bool) -> bool:
            return transactional and any(a.producer_id == record.producer_id and a.first_offset <= record.offset <= a.last_offset
                                         for a in self.aborted)

        return tuple(r for item in self.log if isinstance(item, LogEntry) for r in item.records()
                     if r.offset < lso and not aborted(r, item.batch.transactional))
