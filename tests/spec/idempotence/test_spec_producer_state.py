"""Broker producer state: the order of checks, the five-batch window, epochs, sequences, versions.

Facts: ``docs/spec/idempotence.md`` §1.3 (order of evaluation), §1.4 (window and
DUPLICATE_SEQUENCE_NUMBER), §1.5 (unknown producer, expiry), §1.6 (epochs),
§1.7 (message formats) and the broker rows of its table (§5.2 rows 1-12,
17-19, 23), restated against ``ProducerStateEntry``, ``ProducerAppendInfo`` and
``UnifiedLog`` at apache/kafka 1.0.0 ... trunk.  Version boundaries were checked
with ``git tag --contains`` (KAFKA-6683 in 1.0.2/1.1.0; KAFKA-7298 in
2.0.1/2.1.0; KAFKA-7190 in 2.4.0; KAFKA-7692 in 2.1.1 and 2.2.0; KAFKA-8710 in 2.5.0).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch, increment_sequence
from kafka_conformance.reference.broker.partition_log import LogEntry, PartitionLog
from kafka_conformance.reference.broker.produce_errors import Appended, ProduceError
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.broker.replication import Partition

E = ProduceError
PID = 7
NEW = "4.3.0"


def log_of(version: str = NEW, **kw: int) -> PartitionLog:
    return PartitionLog(broker_profile(version), **kw)


def batch(seq: int, n: int = 1, *, epoch: int = 0, pid: int = PID, tag: str = "", ts: int = 0) -> ProducerBatch:
    return ProducerBatch(pid, epoch, seq, [f"{tag}e{epoch}s{increment_sequence(seq, i)}" for i in range(n)], ts)


def seeded(version: str, *batches: ProducerBatch) -> PartitionLog:
    """A log whose producer state was built by replication (no client checks)."""
    log = log_of(version)
    for b in batches:
        log.append_replicated(LogEntry(log.log_end_offset, b))
    return log


# -- sequence arithmetic --------------------------------------------------------------------------


@given(st.integers(0, INT32_MAX), st.integers(0, 10_000))
def test_increment_sequence_wraps_past_int_max_to_zero(seq, inc):
    assert increment_sequence(seq, inc) == (seq + inc) % (INT32_MAX + 1)


def test_last_sequence_of_a_batch_spanning_the_wrap():
    assert batch(INT32_MAX - 1, 5).last_sequence == 2


# -- order of checks (``docs/spec/idempotence.md`` §1.3) -------------------------------------------------------


def test_duplicate_is_answered_with_the_original_offsets_and_nothing_is_appended():
    """Row 1: b0 appended, response dropped, retried → success with b0's offsets."""
    log = log_of()
    first = log.append_client(batch(0, 3))
    log.append_client(batch(3, 2))
    again = log.append_client(batch(0, 3))
    assert again.error is E.NONE and again.base_offset == first.base_offset == 0
    assert not again.appended and log.log_end_offset == 5


def test_duplicate_check_comes_before_the_epoch_check():
    """A retry of a cached batch is a duplicate even though the entry moved on within its epoch."""
    log = log_of()
    for s in range(3):
        log.append_client(batch(s))
    assert log.append_client(batch(1)).base_offset == 1


@pytest.mark.parametrize("cached", [1, 2, 3, 4, 5])
def test_window_holds_the_last_five_batches(cached):
    """Row 2: five batches written, all five retried → five dedups."""
    log = log_of()
    for s in range(5):
        log.append_client(batch(s))
    assert log.append_client(batch(5 - cached)).base_offset == 5 - cached


def test_a_sixth_in_flight_batch_falls_out_of_the_window():
    """Row 2: why in-flight is capped at 5: the oldest retry gets OOOS, not dedup."""
    log = log_of()
    for s in range(6):
        log.append_client(batch(s))
    assert log.append_client(batch(0)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER


@pytest.mark.parametrize(("seq", "n"), [(0, 5), (0, 10), (2, 3), (3, 1)])
def test_overlapping_ranges_are_not_duplicates(seq, n):
    """Row 3: only an exact (first, last) match dedups; overlaps fall through to OOOS."""
    log = log_of()
    log.append_client(batch(0, 3))
    log.append_client(batch(3, 2))
    assert log.append_client(batch(seq, n)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_dedup_is_scoped_to_the_epoch():
    """Row 4: after a bump, the new epoch's sequence 0 is appended, not matched to epoch 0's."""
    log = log_of()
    log.append_client(batch(0))
    answer = log.append_client(batch(0, epoch=1))
    assert answer.appended and answer.base_offset == 1


def test_lower_epoch_is_fenced_and_nothing_is_written():
    """Row 10."""
    log = log_of()
    log.append_client(batch(0, epoch=1))
    answer = log.append_client(batch(1, epoch=0))
    assert answer.error is E.INVALID_PRODUCER_EPOCH and answer.error.code == 47
    assert log.log_end_offset == 1 and answer.log_start_offset == 0 and answer.base_offset == -1


@pytest.mark.parametrize("seq", [1, 5])
def test_new_epoch_must_start_at_zero_when_state_exists(seq):
    """Row 11 (and row 16: an idle partition's stale sequence under a new epoch is refused)."""
    log = log_of()
    log.append_client(batch(0))
    assert log.append_client(batch(seq, epoch=1)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_a_new_epoch_clears_the_window():
    log = log_of()
    log.append_client(batch(0))
    log.append_client(batch(0, epoch=1, tag="x"))
    assert log.append_client(batch(0)).error is E.INVALID_PRODUCER_EPOCH
    assert [b.first_seq for b in log.producers[PID].batches] == [0]


@pytest.mark.parametrize("seq", [0, 2, 10])
def test_same_epoch_must_continue_at_last_plus_one(seq):
    """Row 5: a gap (or a going back) is OOOS; nothing is written."""
    log = log_of()
    log.append_client(batch(0))
    expected = E.NONE if seq == 1 else E.OUT_OF_ORDER_SEQUENCE_NUMBER
    answer = log.append_client(batch(seq))
    assert answer.error is (E.NONE if seq == 0 else expected)  # seq 0 is the cached duplicate
    assert log.log_end_offset == 1


def test_wraparound_past_int_max():
    """Row 12: last sequence Int.MAX-2, a 5-record batch wraps to 2, the next starts at 3."""
    log = seeded(NEW, batch(INT32_MAX - 4, 3))
    assert log.append_client(batch(INT32_MAX - 1, 5)).appended
    assert log.producers[PID].last_seq == 2
    assert log.append_client(batch(3)).appended
    assert log.append_client(batch(INT32_MAX - 1, 5)).base_offset == 3  # the wrapped batch dedups
    assert log.append_client(ProducerBatch(PID, 0, -(2**31) + 4, ["neg"])).error is E.INVALID_RECORD  # an int32 overflowing client


def test_wrapped_batch_duplicate_offset_bug_before_2_1_1():
    """KAFKA-7692: before 2.1.1 (and 2.2.0) a duplicate of a wrap-spanning batch answered a wrong
    first offset; the fix is in the 2.1.1 tag (``BatchMetadata.firstSeq`` wraps there)."""
    for version, good in (("2.0.1", False), ("2.1.0", False), ("2.1.1", True), ("2.2.0", True)):
        log = seeded(version, batch(INT32_MAX - 4, 3))
        first = log.append_client(batch(INT32_MAX - 1, 5))
        again = log.append_client(batch(INT32_MAX - 1, 5))
        assert (again.base_offset == first.base_offset) is good


# -- unknown producers and versions (``docs/spec/idempotence.md`` §1.5) ----------------------------------------


@pytest.mark.parametrize(
    ("version", "error"),
    [
        ("1.0.0", E.UNKNOWN_PRODUCER_ID),
        ("2.4.1", E.UNKNOWN_PRODUCER_ID),
        ("2.5.0", E.NONE),
        ("4.3.0", E.NONE),
        ("4.5.0", E.OUT_OF_ORDER_SEQUENCE_NUMBER),
    ],
)
def test_non_zero_first_sequence_with_no_state(version, error):
    """Row 11/18; KIP-360 (2.5) accepts any first sequence; KAFKA-15591 (4.5) only 0 on a fresh partition."""
    answer = log_of(version).append_client(batch(3))
    assert answer.error is error
    assert log_of(version).append_client(batch(0)).appended


def test_kafka_15591_only_guards_partitions_that_never_held_a_record():
    log = log_of("4.5.0")
    log.append_client(batch(0, pid=1))
    assert log.append_client(batch(3)).appended  # another producer wrote: not fresh


@pytest.mark.parametrize(
    ("version", "error"),
    [("2.0.0", E.OUT_OF_ORDER_SEQUENCE_NUMBER), ("2.0.1", E.UNKNOWN_PRODUCER_ID), ("2.4.0", E.UNKNOWN_PRODUCER_ID)],
)
def test_epoch_known_but_no_sequence_cached(version, error):
    """KAFKA-7298: an entry with an epoch but no batches (after a transaction marker)."""
    from kafka_conformance.reference.broker.producer_state import ProducerEntry

    log = log_of(version)
    log.producers[PID] = ProducerEntry(PID, epoch=0)
    assert log.append_client(batch(4)).error is error


@pytest.mark.parametrize(
    ("version", "error"),
    [
        ("1.0.0", E.DUPLICATE_SEQUENCE_NUMBER),
        ("1.0.1", E.DUPLICATE_SEQUENCE_NUMBER),
        ("1.0.2", E.OUT_OF_ORDER_SEQUENCE_NUMBER),
        ("1.1.0", E.OUT_OF_ORDER_SEQUENCE_NUMBER),
    ],
)
def test_retry_below_the_window(version, error):
    """Row 19: DUPLICATE_SEQUENCE_NUMBER (46) only before KAFKA-6683; success without offset."""
    log = log_of(version)
    for s in range(7):
        log.append_client(batch(s))
    answer = log.append_client(batch(1))  # the window holds 2..6
    assert answer.error is error and answer.base_offset == -1
    assert answer.error.is_success is (error is E.DUPLICATE_SEQUENCE_NUMBER)
    # 1.0.x ``isDuplicate`` skipped batches whose last sequence is 0
    assert log.append_client(batch(0)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER


@pytest.mark.parametrize("version", ["1.0.0", "1.0.1"])
def test_a_duplicate_below_the_window_is_answered_at_once_under_acks_all(version):
    """Kafka 1.0.x raises DuplicateSequenceException from the append: the partition's result holds
    it, and a request whose every partition failed does not wait for replication
    (ReplicaManager.scala@1.0.1:688-694).  Parked as a success, it came back as NONE."""
    part = Partition(broker_profile(version))
    for s in range(7):
        part.produce(batch(s), acks=1)
    answer = part.produce(batch(1), acks=-1)
    assert answer is not None and answer.error is E.DUPLICATE_SEQUENCE_NUMBER
    assert part.pending == []


def test_expired_producer_state_lets_a_late_retry_in_again():
    """Row 17: once the state expired (2.5-4.4) the retry of a written batch is appended twice."""
    log = log_of()
    log.append_client(batch(0, ts=1_000))
    assert log.expire_producers(now_ms=1_000 + 86_400_000) == (PID,)
    again = log.append_client(batch(0, ts=2_000))
    assert again.appended and [r.value for r in log.records()] == ["e0s0", "e0s0"]


def test_expiry_defaults_by_release():
    assert broker_profile("3.3.0").producer_id_expiration_key == "transactional.id.expiration.ms"
    assert broker_profile("3.4.0").default_producer_id_expiration_ms == 86_400_000
    log = log_of()
    log.append_client(batch(0, ts=0))
    assert log.expire_producers(now_ms=86_399_999) == ()


@pytest.mark.parametrize(("version", "kept"), [("2.3.0", False), ("2.4.0", True)])
def test_state_after_delete_records(version, kept):
    """KAFKA-7190 (2.4.0): state outlives the deletion of the producer's records."""
    log = log_of(version)
    log.append_client(batch(0))
    log.append_client(batch(0, pid=8))
    log.delete_records(1)
    assert (PID in log.producers) is kept


# -- record and format checks -----------------------------------------------------------------------------


def test_negative_sequence_with_producer_id_is_an_invalid_record():
    assert log_of().append_client(batch(-5)).error is E.INVALID_RECORD
    assert log_of("2.3.0").append_client(batch(-5)).error is E.CORRUPT_MESSAGE


@pytest.mark.parametrize(("version", "log_start"), [("1.1.1", -1), ("2.3.1", -1), ("2.4.0", 0), ("3.9.1", 0)])
def test_a_refused_record_carries_the_log_start_offset_from_kip_467(version, log_start):
    """Before 2.4 the refusal was a CorruptRecordException, answered with UnknownLogAppendInfo
    (ReplicaManager.scala@2.3.1:782-785); seen on real 1.1.1 and 2.3.1 brokers."""
    assert log_of(version).append_client(batch(-5)).log_start_offset == log_start


def test_old_message_format_refuses_idempotent_batches():
    """Row 23: nothing is written; v0/v1 do not exist from 4.0 (KIP-724)."""
    log = log_of("3.9.0", message_format=1)
    answer = log.append_client(batch(0))
    assert answer.error is E.UNSUPPORTED_FOR_MESSAGE_FORMAT and log.log_end_offset == 0
    assert log.append_client(ProducerBatch(-1, -1, -1, ["plain"])).appended
    with pytest.raises(ValueError):
        log_of("4.0.0", message_format=1)


def test_batches_without_producer_id_bypass_idempotence():
    log = log_of()
    for _ in range(2):
        assert log.append_client(ProducerBatch(-1, -1, -1, ["x"])).appended


def test_error_codes_and_what_they_say_about_the_write():
    assert E.from_code(45) is E.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert E.NOT_ENOUGH_REPLICAS.appended is Appended.NO
    assert E.NOT_ENOUGH_REPLICAS_AFTER_APPEND.appended is Appended.YES
    assert E.REQUEST_TIMED_OUT.appended is Appended.MAYBE


# -- replication (``docs/spec/idempotence.md`` §1.3 step 6, §5.2 rows 7-9, 20) ---------------------------------


def test_new_leader_deduplicates_what_it_replicated():
    """Row 7: b0 replicated, the leader dies before answering, the retry to the new leader is a DUP."""
    part = Partition(broker_profile(NEW))
    assert part.produce(batch(0, 2), request_id=1) is None
    part.replicate_all()
    assert part.crash(0) == [1]
    assert part.elect() == 1
    part.produce(batch(0, 2), request_id=2)
    part.replicate_all()
    [(rid, answer)] = part.completed()
    assert rid == 2 and answer.error is E.NONE and answer.base_offset == 0 and not answer.appended


def test_acks_all_survives_a_leader_power_loss():
    """Row 8: acked once the ISR has it; the leader's unflushed tail is lost, the record is not."""
    part = Partition(broker_profile(NEW))
    part.produce(batch(0), request_id=1)
    part.replicate_all()
    [(_, ack)] = part.completed()
    assert ack.error is E.NONE
    part.crash(0, lose_unflushed=True)
    part.elect()
    part.restart(0)
    part.replicate_all()
    assert [r.value for r in part.records()] == ["e0s0"]
    assert part.replicas[0].log.records() == part.records()


def test_replication_factor_one_loses_acked_data_on_power_loss():
    """Row 8, outside the guarantee: RF 1 offers at most once."""
    part = Partition(broker_profile(NEW), replication_factor=1, min_insync_replicas=1)
    part.produce(batch(0), request_id=1)
    assert part.completed()[0][1].error is E.NONE
    part.crash(0, lose_unflushed=True)
    part.restart(0)
    assert part.elect() == 0 and part.records() == ()


def test_truncation_rebuilds_state_so_a_lost_batch_is_appended_again():
    """Row 9 (KAFKA-6683): state must never run ahead of the surviving log."""
    part = Partition(broker_profile(NEW), replication_factor=1, min_insync_replicas=1)
    part.produce(batch(0), acks=1)
    part.crash(0, lose_unflushed=True)
    part.restart(0)
    part.elect()
    answer = part.produce(batch(0), acks=1)
    assert answer is not None and answer.appended


def test_not_enough_replicas_before_and_after_append():
    """Row 20: before the append nothing is written; after it the record is in the log."""
    part = Partition(broker_profile(NEW))
    part.produce(batch(0), request_id=1)
    part.crash(1)
    part.crash(2)  # ISR shrinks to the leader: the waiting request completes short of min.insync
    [(_, late)] = part.completed()
    assert late.error is E.NOT_ENOUGH_REPLICAS_AFTER_APPEND
    early = part.produce(batch(1), request_id=2)
    assert early is not None and early.error is E.NOT_ENOUGH_REPLICAS
    assert [r.value for r in part.records()] == ["e0s0"]


def test_unclean_election_can_lose_acknowledged_writes():
    part = Partition(broker_profile(NEW), unclean_leader_election=True)
    part.shrink_isr(2)
    part.produce(batch(0), request_id=1)
    part.replicate(1)
    assert part.completed()[0][1].error is E.NONE
    part.crash(0)
    part.crash(1)
    assert part.elect() == 2 and part.unclean_elections == 1
    assert part.records() == ()


# -- properties of the broker model ----------------------------------------------------------------------------

BATCHES = st.lists(
    st.builds(
        lambda pid, epoch, seq, n: batch(seq, n, epoch=epoch, pid=pid),
        st.integers(1, 2),
        st.integers(0, 2),
        st.integers(0, 8),
        st.integers(1, 3),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(BATCHES, st.sampled_from(["1.0.0", "2.4.0", "3.9.0", "4.3.0", "4.5.0"]))
def test_whatever_clients_send_the_log_keeps_sequences_and_epochs(batches, version):
    """The broker model never writes a gap, an overlap, a new epoch not at 0 (except a producer's
    very first batch), a lower epoch, or the same (pid, epoch, sequence) twice."""
    log = log_of(version)
    for b in batches:
        answer = log.append_client(b)
        if answer.appended:
            assert answer.error is E.NONE and answer.base_offset == log.log_end_offset - b.record_count
    last: dict[int, tuple[int, int]] = {}
    stamps = set()
    for r in log.records():
        stamp = (r.producer_id, r.producer_epoch, r.sequence)
        assert stamp not in stamps
        stamps.add(stamp)
        if r.producer_id in last:
            epoch, seq = last[r.producer_id]
            assert r.producer_epoch >= epoch
            assert r.sequence == (increment_sequence(seq, 1) if r.producer_epoch == epoch else 0)
        last[r.producer_id] = (r.producer_epoch, r.sequence)


@settings(max_examples=200, deadline=None)
@given(BATCHES)
def test_a_retry_of_any_of_the_last_five_appended_batches_is_a_duplicate(batches):
    log = log_of()
    appended = []
    for b in batches:
        if log.append_client(b).appended:
            appended.append(b)
    for b in appended:
        entry = log.producers[b.producer_id]
        answer = log.append_client(b)
        cached = any((m.first_seq, m.last_seq) == (b.base_sequence, b.last_sequence) for m in entry.batches)
        if cached and b.producer_epoch == entry.epoch:
            assert answer.error is E.NONE and not answer.appended
            assert [r.value for r in log.records() if r.offset == answer.base_offset] == [b.values[0]]


# -- message format sizes (KIP-98) -----------------------------------------------------------------------------


def test_v2_record_and_batch_sizes():
    from kafka_conformance.reference.message_format import batch_size_v2, message_set_size, record_size_v2, varint_size

    assert [varint_size(v) for v in (0, -1, 63, 64, -64, -65)] == [1, 1, 1, 2, 1, 2]
    assert record_size_v2(-1, 10) == 17  # length, attributes, offset delta, timestamp delta, null key, value length, headers
    assert batch_size_v2([(-1, 10)]) == 61 + 17
    assert message_set_size(0, [(-1, 10)]) == 12 + 14 + 10
    assert message_set_size(1, [(-1, 10)]) == 12 + 22 + 10


def test_v2_pays_for_small_batches_and_wins_on_large_ones():
    from kafka_conformance.reference.message_format import overhead_table

    single, *_, large = overhead_table((1, 10, 1000))
    assert single.v2 > single.v1 > single.v0
    assert large.v2 < large.v0 < large.v1
    assert large.overhead_per_record(2) < 11 and large.overhead_per_record(0) == 26
