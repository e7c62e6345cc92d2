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

Producer snapshots and what a restart on the same data recovers (clean or after a
crash) live here too (:meth:`PartitionLog.restart`), because they are what one
broker does with its own files.  Replication, acks and elections live in
:mod:`replication`; this class is the part a single broker does on its own.  It
is mutable on purpose (a log is), but every value it hands out is frozen.
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
        self.snapshots: dict[int, dict[int, ProducerEntry]] = {}
        """Producer snapshot files by offset, each as :meth:`take_snapshot` wrote it."""
        self.last_snapshot_offset = 0
        """``lastSnapOffset``: where the state was last written or loaded from."""
        self.checkpointed_log_start = 0
        """The log start offset as ``log-start-offset-checkpoint`` last holds it: written at a
        clean shutdown, and otherwise every ``log.flush.start.offset.checkpoint.interval.ms``
        (one minute by default; the kit's brokers set a day, so a run sees only the first)."""

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
        """Drop every batch at or after ``offset`` and rebuild producer state up to it
        (``UnifiedLog.truncateTo``: ``rebuildProducerState`` to the new end, from the newest
        snapshot at or below it).  An offset at or past the log end changes nothing, as in
        Kafka ("has no effect as the largest offset in the log is ...")."""
        if offset >= self.log_end_offset:
            return
        had_state = bool(self.producers)
        self.entries = [e for e in self.entries if e.last_offset < offset]
        self.log_start_offset = min(self.log_start_offset, offset)  # UnifiedLog.scala@3.9.0-rc3:1838, Log.scala@1.0.1:1485
        self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset
        self._reload(had_state=had_state)

    def delete_records(self, before_offset: int) -> None:
        """Advance the log start offset (retention or DeleteRecords).  The batches stay in the
        segment (only whole segments are deleted, and the suite's logs have one) but are no
        longer read.  Before 2.4 (KAFKA-7190) producers whose last offset falls below it lose
        their state at once."""
        if before_offset <= self.log_start_offset:
            return
        self.log_start_offset = min(before_offset, self.log_end_offset)
        if not self.profile.state_survives_log_start_advance:
            self.producers = {pid: s for pid, s in self.producers.items() if s.last_offset >= self.log_start_offset}

    def expire_producers(self, now_ms: int, expiration_ms: int | None = None) -> tuple[int, ...]:
        """Drop idle producers (``removeExpiredProducers``); returns the expired ids."""
        limit = self._expiration_ms(expiration_ms)
        expired = tuple(pid for pid, s in self.producers.items() if is_expired(s, now_ms, limit))
        for pid in expired:
            del self.producers[pid]
        return expired

    def _expiration_ms(self, expiration_ms: int | None) -> int:
        return self.profile.default_producer_id_expiration_ms if expiration_ms is None else expiration_ms

    # -- producer snapshots and restarts ---------------------------------------------
    def take_snapshot(self) -> None:
        """``ProducerStateManager.takeSnapshot``: the producer state as a snapshot file keeps
        it (the last batch of each producer, :meth:`ProducerEntry.as_snapshot`) at the log end,
        written only if the state moved past the last snapshot written or loaded
        (``ProducerStateManager.scala@1.0.1:630-638``, ``ProducerStateManager.java@3.9.0-rc3:465-467``)."""
        if self.log_end_offset > self.last_snapshot_offset:
            self.snapshots[self.log_end_offset] = {pid: e.as_snapshot() for pid, e in self.producers.items()}
            self.last_snapshot_offset = self.log_end_offset

    def lose_tail(self, offset: int) -> None:
        """A power loss: the batches at or after ``offset`` (never fsynced) are gone from the
        files; the producer state in memory dies with the process (see :meth:`restart`)."""
        self.entries = [e for e in self.entries if e.last_offset < offset]
        self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset
        self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}

    def restart(self, *, clean: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:
        """The broker stops and starts again on this log's data.

        * **clean** (SIGTERM, controlled shutdown): ``Log.close`` snapshots the producer state
          at the log end (``Log.scala@1.0.1:564-572``, ``UnifiedLog.scala@3.9.0-rc3:661-664``);
        * **crash** (SIGKILL; the page cache keeps every write): no clean-shutdown marker, so
          the active segment is recovered (``recoverLog``): a producer-state manager of its own
          replays every batch of the segment (even those below the log start offset) and
          snapshots the result at the log end (``Log.scala@1.0.1:349-369``,
          ``LogLoader.scala@3.9.0-rc3:355-375``); the snapshots it found above the segment's
          base were deleted first (``truncateAndReload``).

        Either way the load then starts from that newest snapshot with nothing after it to
        replay, so each producer comes back with its **last batch only**: a resend of an older
        batch of the window is no longer a duplicate (OUT_OF_ORDER_SEQUENCE_NUMBER).
        ``now_ms``: producers idle longer than the expiry at that time are not loaded
        (``loadFromSnapshot``); None loads them all.

        The log start offset comes back from ``log-start-offset-checkpoint``: a clean shutdown
        writes it (``LogManager.shutdown``), a crash loses what DeleteRecords moved since the
        last write (``UnifiedLog.maybeIncrementLogStartOffset`` says so,
        ``UnifiedLog.scala@3.9.0-rc3:1000-1002``), and the deleted records are read again.
        Found by real Kafka 2.4.1 under ``check broker`` (DeleteRecords, then SIGKILL).
        """
        if clean:
            self.take_snapshot()
            self.checkpointed_log_start = self.log_start_offset
        else:
            self.log_start_offset = min(self.checkpointed_log_start, self.log_end_offset)
            replayed: dict[int, ProducerEntry] = {}
            for entry in self.entries:
                if entry.batch.has_producer_id:
                    pid = entry.batch.producer_id
                    replayed[pid] = record_batch(replayed.get(pid), entry.batch, entry.base_offset, self.profile)
            self.snapshots = {}
            if self.log_end_offset > 0:  # the recovering manager's first snapshot (its last one was "at 0")
                self.snapshots[self.log_end_offset] = {pid: e.as_snapshot() for pid, e in replayed.items()}
        self.producers = {}
        self._reload(had_state=True, now_ms=now_ms, expiration_ms=expiration_ms)

    def _reload(self, *, had_state: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:
        """``rebuildProducerState`` up to the log end (``Log.scala@1.0.1:474-520``,
        ``UnifiedLog.scala@3.9.0-rc3:2203-2279``), for one segment:

        1. ``truncateAndReload``: snapshots above the log end or at/below the log start are
           deleted; the newest left is loaded, less expired producers (and before 2.4 those
           whose last offset is below the log start); none left: no state, from the log start;
        2. unless there was no state before (``isEmptyBeforeTruncation``), every batch from
           there to the log end replayed (full windows); the snapshot Kafka takes at the start
           of each segment it replays is never new for a log of one segment;
        3. from 2.0 (KAFKA-7076) a snapshot at the log end.
        """
        end, start_of_log = self.log_end_offset, self.log_start_offset
        self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o <= end}
        base = max(self.snapshots, default=None)
        limit = self._expiration_ms(expiration_ms)
        self.producers = {
            pid: e for pid, e in (self.snapshots[base] if base is not None else {}).items()
            if (now_ms is None or not is_expired(e, now_ms, limit))
            and (self.profile.state_survives_log_start_advance or e.last_offset >= start_of_log)
        }
        start = base if base is not None else start_of_log
        self.last_snapshot_offset = start
        if end > start and had_state:
            for entry in self.entries:
                if entry.last_offset >= start and entry.batch.has_producer_id:
                    pid = entry.batch.producer_id
                    self.producers[pid] = record_batch(self.producers.get(pid), entry.batch, entry.base_offset, self.profile)
        if self.profile.snapshot_at_end_of_reload:
            self.take_snapshot()

    # -- reading -------------------------------------------------------------------
    def records(self) -> tuple[LogRecord, ...]:
        """Every record from the log start offset, as a final read sees them."""
        return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)

    def entries_from(self, offset: int) -> tuple[LogEntry, ...]:
        return tuple(e for e in self.entries if e.base_offset >= offset)
