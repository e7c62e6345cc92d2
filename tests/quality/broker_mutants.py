"""Broker-side mutants of the reference: known real bugs planted in producer_state / partition_log / broker_profile.

Each mutant is a function that monkeypatches the reference's broker side for the
duration of one test.  The model engine then runs the (correct) reference
producer against the mutated cluster; the trace table and the model property
must notice.  Sources: ``docs/spec/idempotence.md`` §4.3.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kafka_conformance.reference.broker import partition_log, producer_state
from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch
from kafka_conformance.reference.broker.partition_log import LogEntry, PartitionLog
from kafka_conformance.reference.broker.profile import BrokerProfile

Mutant = Callable[[pytest.MonkeyPatch], None]


def no_dedup_window(mp: pytest.MonkeyPatch) -> None:
    """No duplicate detection at all: a retry meets the sequence check (redpanda#3039/#3038)."""
    mp.setattr(producer_state.ProducerEntry, "find_duplicate", lambda self, batch: None)


def window_4(mp: pytest.MonkeyPatch) -> None:
    """Four cached batches instead of five: the fifth retry falls out of the window."""
    mp.setattr(BrokerProfile, "window_size", property(lambda self: 4))


def dedup_ignores_epoch(mp: pytest.MonkeyPatch) -> None:
    """A batch matches a cached one of another epoch with the same range: acked but never written."""

    def find(self: producer_state.ProducerEntry, batch: ProducerBatch) -> producer_state.BatchMetadata | None:
        return next((c for c in self.batches if (c.first_seq, c.last_seq) == (batch.base_sequence, batch.last_sequence)), None)

    mp.setattr(producer_state.ProducerEntry, "find_duplicate", find)


def no_sequence_wrap(mp: pytest.MonkeyPatch) -> None:
    """Int.MAX is not followed by 0 (KAFKA-7692 era, redpanda#4854): only last + 1 continues."""

    def in_sequence(last_seq: int, next_seq: int) -> bool:
        return next_seq == last_seq + 1 and next_seq <= INT32_MAX

    mp.setattr(producer_state, "in_sequence", in_sequence)


def no_state_on_followers(mp: pytest.MonkeyPatch) -> None:
    """Followers append replicated batches without updating producer state (``docs/spec/idempotence.md`` §1.3 step 6)."""

    def append_replicated(self: PartitionLog, entry: LogEntry) -> None:
        if entry.base_offset != self.log_end_offset:
            raise ValueError("replicated batch out of place")
        self.entries.append(entry)
        self.log_end_offset = entry.last_offset + 1

    mp.setattr(PartitionLog, "append_replicated", append_replicated)


def state_ahead_of_log(mp: pytest.MonkeyPatch) -> None:
    """Producer state outlives the loss of the log's tail (a snapshot ahead of the log,
    KAFKA-6683): a crash brings back the state as it was before the lost batches, and a
    truncation keeps it."""
    recover = PartitionLog.restart

    def restart(self: PartitionLog, *, clean: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:
        ahead = dict(self.producers)
        recover(self, clean=clean, now_ms=now_ms, expiration_ms=expiration_ms)
        self.producers = ahead

    def truncate_to(self: PartitionLog, offset: int) -> None:
        self.entries = [e for e in self.entries if e.last_offset < offset]
        self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset

    mp.setattr(PartitionLog, "restart", restart)
    mp.setattr(PartitionLog, "truncate_to", truncate_to)


def fresh_partition_any_sequence(mp: pytest.MonkeyPatch) -> None:
    """A 4.5 broker that still accepts any first sequence on a fresh partition (KAFKA-15591)."""
    mp.setattr(BrokerProfile, "fresh_partition_requires_sequence_zero", property(lambda self: False))


MUTANTS: dict[str, Mutant] = {
    "no-dedup-window": no_dedup_window,
    "window-4": window_4,
    "dedup-ignores-epoch": dedup_ignores_epoch,
    "no-sequence-wrap": no_sequence_wrap,
    "no-state-on-followers": no_state_on_followers,
    "state-ahead-of-log": state_ahead_of_log,
    "fresh-partition-any-sequence": fresh_partition_any_sequence,
}
"""Name -> patch; the names are the ``kills`` of the trace table rows."""

# partition_log imports check_client_batch by name; in_sequence is looked up in producer_state at call time.
assert partition_log.check_client_batch is producer_state.check_client_batch
