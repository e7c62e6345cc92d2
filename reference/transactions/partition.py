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

    @property
    def last_stable_offset(self) -> int:
        return min(self.open.values(), default=self.log_end_offset)

    def produce(self, batch: ProducerBatch, verify: Verifier) -> TxnProduceAnswer:
        """Answer one client batch carrying a producer id, as the partition leader does."""
        pid = batch.producer_id
        # 1. KIP-890 part 1: verify with the coordinator when nothing is open for the producer here
        if batch.transactional and self.profile.verifies_partitions and pid not in self.open:
            verdict = verify(pid, batch.producer_epoch)
            if verdict is not TxnError.NONE:
                code = _verification_code(verdict, self.profile.produce_version)
                return TxnProduceAnswer(code, -1, f"verification with the coordinator failed: {verdict.name}")
        # 2. duplicate, epoch, sequence
        check = check_client_batch(self.producers.get(pid), batch, self.broker,
                                   partition_ever_held_records=self.log_end_offset > 0)
        if check.kind is CheckKind.DUPLICATE:
            assert check.duplicate_of is not None
            return TxnProduceAnswer(0, check.duplicate_of.first_offset, check.rule)
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
        entry = self.producers.get(pid, ProducerEntry(pid))
        if entry.epoch != markers.epoch:  # ``maybeUpdateProducerEpoch``: a new epoch clears the cached batches
            entry = ProducerEntry(pid, markers.epoch, (), entry.last_timestamp_ms)
        self.producers[pid] = entry
        self.log.append(Control(offset, pid, markers.epoch, markers.commit))
        self.log_end_offset = offset + 1
        if not markers.commit:
            self.aborted.append(AbortedTxn(pid, first, offset))

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
