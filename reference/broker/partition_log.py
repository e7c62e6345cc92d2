"""One replica's log of one partition, answering produce requests as a broker of a given release.

:class:`PartitionLog` keeps the batches it holds and the producer state derived
from them, and answers a client batch with a :class:`ProduceResponse` holding
Kafka's error code, the base offset and the log start offset, as
``ReplicaManager`` would:

* request and record checks first (magic 2 for Produce v3+, a producer id needs
  a non-negative base sequence, the topic's message format must be v2),
* then the producer-state checks of :mod:`producer_state` (duplicate, epoch,
  sequence), with offsets taken from the log end,
* then the append, and only then the producer-state commit (KAFKA-6683).

Errors from the producer-state and record checks carry the log start offset (the
Java client reads it on UNKNOWN_PRODUCER_ID); the base offset is then -1.

Replication, acks and crashes live in :mod:`replication`; this class is the
part a single broker does on its own.  It is mutable on purpose (a log is), but
every value it hands out is frozen.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.producer_state import (
    CheckKind,
    ProducerEntry,
    check_client_batch,
    is_expired,
    record_batch,
)
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = ["LogEntry", "PartitionLog", "ProduceResponse"]


@attrs.frozen
class LogEntry:
    """A batch as stored: the client's batch plus the offset of its first record."""

    base_offset: int
    batch: ProducerBatch
    leader_epoch: int = 0

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.batch.record_count - 1

    def records(self) -> tuple[LogRecord, ...]:
        b = self.batch
        return tuple(
            LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))
            for i, value in enumerate(b.values)
        )


@attrs.frozen
class ProduceResponse:
    """The partition part of a ``ProduceResponse``, plus the rule that decided it."""

    error: ProduceError
    base_offset: int = -1
    log_start_offset: int = -1
    rule: str = ""
    appended: bool = False
    """True when this attempt wrote the batch (not for a duplicate)."""

    @property
    def is_success(self) -> bool:
        return self.error.is_success


class PartitionLog:
    """The log and producer state of one replica of one partition."""

    def __init__(self, profile: BrokerProfile, *, message_format: int = 2) -> None:
        if message_format not in (0, 1, 2):
            raise ValueError(f"message format must be 0, 1 or 2, not {message_format}")
        if message_format < 2 and not profile.supports_old_message_formats:
            raise ValueError(f"{profile} has no message format v{message_format} (KIP-724)")
        self.profile = profile
        self.message_format = message_format
        self.entries: list[LogEntry] = []
        self.producers: dict[int, ProducerEntry] = {}
        self.log_start_offset = 0
        self.log_end_offset = 0

    @property
    def ever_held_records(self) -> bool:
        """KAFKA-15591's "fresh partition" test: a log emptied by DeleteRecords still has a
        non-zero end offset; one truncated back to 0 counts as fresh [inferred]."""
        return self.log_end_offset > 0

    # -- the leader path ---------------------------------------------------------
    def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 0) -> ProduceResponse:
        """Answer one client batch, appending it if the rules allow."""
        rejected = self._validate_records(batch)
        if rejected is not None:
            return rejected
        if not batch.has_producer_id:
            return self._append(batch, leader_epoch, "no producer id: idempotence does not apply")
        check = check_client_batch(
            self.producers.get(batch.producer_id), batch, self.profile, partition_ever_held_records=self.ever_held_records
        )
        if check.kind is CheckKind.DUPLICATE:
            assert check.duplicate_of is not None
            return ProduceResponse(ProduceError.NONE, check.duplicate_of.first_offset, self.log_start_offset, check.rule)
        if check.kind is CheckKind.REJECT:
            return self._error(check.error, check.rule)
        return self._append(batch, leader_epoch, check.rule)

    def _validate_records(self, batch: ProducerBatch) -> ProduceResponse | None:
        invalid = ProduceError.INVALID_RECORD if self.profile.invalid_record_is_its_own_code else ProduceError.CORRUPT_MESSAGE
        if batch.magic != 2:
            return ProduceResponse(invalid, rule="Produce v3+ carries only magic v2 batches")
        if batch.has_producer_id and batch.base_sequence < 0:
            rule = f"producer id set but base sequence {batch.base_sequence} < 0"
            if not self.profile.invalid_record_carries_log_start:
                return ProduceResponse(invalid, rule=rule + " (a CorruptRecordException: no log start offset)")
            return self._error(invalid, rule)
        if (batch.has_producer_id or batch.transactional) and self.message_format < 2:
            return self._error(ProduceError.UNSUPPORTED_FOR_MESSAGE_FORMAT, f"topic message format v{self.message_format} < v2")
        return None

    def _error(self, error: ProduceError, rule: str) -> ProduceResponse:
        return ProduceResponse(error, -1, self.log_start_offset, rule)

    def _append(self, batch: ProducerBatch, leader_epoch: int, rule: str) -> ProduceResponse:
        entry = LogEntry(self.log_end_offset, batch, leader_epoch)
        self._store(entry)
        return ProduceResponse(ProduceError.NONE, entry.base_offset, self.log_start_offset, rule, appended=True)

    def _store(self, entry: LogEntry) -> None:
        self.entries.append(entry)
        self.log_end_offset = entry.last_offset + 1
        if entry.batch.has_producer_id:  # committed only after the append (KAFKA-6683)
            pid = entry.batch.producer_id
            self.producers[pid] = record_batch(self.producers.get(pid), entry.batch, entry.base_offset, self.profile)

    # -- the follower path ---------------------------------------------------------
    def append_replicated(self, entry: LogEntry) -> None:
        """A follower's append (origin REPLICATION): offsets kept, no epoch or sequence checks,
        producer state updated all the same."""
        if entry.base_offset != self.log_end_offset:
            raise ValueError(f"replicated batch at {entry.base_offset} but log end is {self.log_end_offset}")
        self._store(entry)

    # -- log maintenance -----------------------------------------------------------
    def truncate_to(self, offset: int) -> None:
        """Drop every batch at or after ``offset`` and rebuild producer state from what is left
        (``truncateAndReload``)."""
        self.entries = [e for e in self.entries if e.last_offset < offset]
        self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset
        self.rebuild_producer_state()

    def rebuild_producer_state(self) -> None:
        """Producer state from a full replay of the surviving log, as after an unclean restart
        with no usable snapshot.  State kept only in memory (e.g. for producers whose records
        were deleted) is lost."""
        self.producers = {}
        for entry in self.entries:
            if entry.batch.has_producer_id:
                pid = entry.batch.producer_id
                self.producers[pid] = record_batch(self.producers.get(pid), entry.batch, entry.base_offset, self.profile)

    def delete_records(self, before_offset: int) -> None:
        """Advance the log start offset (retention or DeleteRecords).  Before 2.4 (KAFKA-7190)
        producers whose last offset falls below it lose their state at once."""
        if before_offset <= self.log_start_offset:
            return
        self.log_start_offset = min(before_offset, self.log_end_offset)
        self.entries = [e for e in self.entries if e.last_offset >= self.log_start_offset]
        if not self.profile.state_survives_log_start_advance:
            self.producers = {pid: s for pid, s in self.producers.items() if s.last_offset >= self.log_start_offset}

    def expire_producers(self, now_ms: int, expiration_ms: int | None = None) -> tuple[int, ...]:
        """Drop idle producers (``removeExpiredProducers``); returns the expired ids."""
        limit = self.profile.default_producer_id_expiration_ms if expiration_ms is None else expiration_ms
        expired = tuple(pid for pid, s in self.producers.items() if is_expired(s, now_ms, limit))
        for pid in expired:
            del self.producers[pid]
        return expired

    # -- reading -------------------------------------------------------------------
    def records(self) -> tuple[LogRecord, ...]:
        """Every record from the log start offset, as a final read sees them."""
        return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)

    def entries_from(self, offset: int) -> tuple[LogEntry, ...]:
        return tuple(e for e in self.entries if e.base_offset >= offset)
