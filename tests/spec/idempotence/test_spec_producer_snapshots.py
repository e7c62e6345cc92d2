"""Producer snapshots, restarts, truncation and log-start movement, checked against Kafka's own tests.

Upstream files, all read at apache/kafka tag ``3.9.0-rc3``:

* ``storage/src/test/java/org/apache/kafka/storage/internals/log/ProducerStateManagerTest.java`` (PSMT)
* ``core/src/test/scala/unit/kafka/log/LogLoaderTest.scala`` (LLT), the cases on producer state
* ``core/src/test/scala/unit/kafka/log/UnifiedLogTest.scala`` (ULT), the cases on producer state

Each test below restates one upstream test method, in our own words and code, against
:class:`PartitionLog` (one partition, idempotent non-transactional producers).  The test is named
``test_<UpstreamClass>_<method>`` and its docstring cites ``path@3.9.0-rc3:LINE`` (the line of the
method's declaration) and says what Kafka asserts.  A disagreement is a bug in the model, fixed
there, never an expected failure here.

Counts (at the time of writing):

* upstream methods read: **98** (PSMT: all 54; LLT: 14 on producer state; ULT: 30 on producer state),
* restated here: **27** (PSMT 15, LLT 1, ULT 11), plus 2 tests of our own on the restart experiment,
* assertions: **91** ``assert`` statements in this file, about **200** executed per run (loops
  and parametrisations counted once per execution): 82 in the 27 upstream restatements, the rest
  in the two experiment tests,
* agreeing with the model: all of them.  The first draft found two disagreements (ULT lines 910
  and 1083, one cause: the model wrote a snapshot where Kafka's ``takeSnapshot`` writes none
  because the state's end did not move past the last snapshot,
  ``ProducerStateManager.java@3.9.0-rc3:465-467``); the model was fixed.

Not restated, and why (line = declaration in the file at 3.9.0-rc3):

* PSMT, transactions, markers, coordinator epochs, verification guards, LSO: 125, 219, 238, 253,
  285, 312, 328, 371, 404, 427, 473, 495, 515, 530, 681, 752, 785, 802 (coordinator origin),
  814, 826, 848, 900, 990, 1008, 1029, 1044, 1058, 1097;
* PSMT, snapshot-file mechanics the model has no counterpart for (deleting snapshots with
  segments, ``truncateFullyAndStartAt``, re-listing files, corrupt/empty/truncated files, stray
  files relative to segment bases, ``.deleted`` renames, the on-disk format): 605, 627, 651, 863,
  874, 887, 914, 938, 961, 979, 1135;
* LLT: multi-segment logs 248, 253, 723, 753, 1607; mocked ``ProducerStateManager`` call counts
  420, 638; old message format with mocks 530, 585; transactions 496, 1410, 1461, 1512;
* ULT: transactions 181, 186, 191, 1202, 3313, 3338, 3992; compaction 790, 834, 876, 1041;
  multi-segment logs (roll, retention, segment deletion) 707, 960, 1014, 1093, 1115, 1142, 1169, 1461.

Two further tests (``test_issue_experiment_*``) are not upstream restatements: they pin down what a
restart does to the five-batch window (the snapshot keeps each producer's last batch only;
``ProducerStateManager.java@3.9.0-rc3:648-686`` reads one ``BatchMetadata`` per producer, as did
``ProducerStateManager.scala@1.0.1:350-383`` and ``@2.4.1:382-416``).  1.0.1 and 2.4.1 answer the
experiment alike except for the resend of sequence 3: 1.0.1 answers DUPLICATE_SEQUENCE_NUMBER (its
below-the-window clause, ``ProducerStateManager.scala@1.0.1:219-222``), 2.4.1 OUT_OF_ORDER_SEQUENCE_NUMBER.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch, increment_sequence
from kafka_conformance.reference.broker.partition_log import LogEntry, PartitionLog
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.producer_state import CheckKind, check_client_batch
from kafka_conformance.reference.broker.profile import broker_profile

E = ProduceError
PID = 1
UPSTREAM = "3.9.0"
"""The release of the upstream tag (3.9.0-rc3 shipped as 3.9.0)."""
DAY_MS = 86_400_000
"""``producer.id.expiration.ms`` default from 3.4 (the upstream tests' expiry)."""

PSMT = "storage/src/test/java/org/apache/kafka/storage/internals/log/ProducerStateManagerTest.java"
LLT = "core/src/test/scala/unit/kafka/log/LogLoaderTest.scala"
ULT = "core/src/test/scala/unit/kafka/log/UnifiedLogTest.scala"


def log_of(version: str = UPSTREAM, **kw: int) -> PartitionLog:
    return PartitionLog(broker_profile(version), **kw)


def batch(seq: int, n: int = 1, *, epoch: int = 0, pid: int = PID, tag: str = "", ts: int = 0) -> ProducerBatch:
    return ProducerBatch(pid, epoch, seq, [f"{tag}p{pid}e{epoch}s{increment_sequence(seq, i)}" for i in range(n)], ts)


def plain(n: int = 1, *, tag: str = "x") -> ProducerBatch:
    """A batch without a producer id (idempotence does not apply)."""
    return ProducerBatch(-1, -1, -1, [f"{tag}{i}" for i in range(n)])


def seeded(version: str, *batches: ProducerBatch) -> PartitionLog:
    """A log whose producer state was built by replication (no client checks)."""
    log = log_of(version)
    for b in batches:
        log.append_replicated(LogEntry(log.log_end_offset, b))
    return log


def padded(offset: int, version: str = UPSTREAM) -> PartitionLog:
    """A log whose next offset is ``offset``, filled with records without a producer id."""
    log = log_of(version)
    if offset:
        log.append_client(plain(offset))
    return log


# == ProducerStateManagerTest ====================================================================


def test_ProducerStateManagerTest_testBasicIdMapping():
    """PSMT ``storage/src/test/java/org/apache/kafka/storage/internals/log/ProducerStateManagerTest.java@3.9.0-rc3:104``:
    Kafka asserts that a repeat of sequence 1 and a jump to sequence 5 are refused by the sequence
    check (OutOfOrderSequence), that a bumped epoch may start at 0, and that the old epoch is then
    fenced.  Upstream calls the sequence check directly, below the duplicate lookup that
    ``UnifiedLog`` does first; through the log the repeat of the last batch is answered as a
    duplicate instead, which still writes nothing."""
    log = log_of()
    assert log.append_client(batch(0)).appended
    assert log.append_client(batch(1)).appended
    again = log.append_client(batch(1))
    assert again.error is E.NONE and not again.appended and log.log_end_offset == 2
    assert log.append_client(batch(5)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert log.append_client(batch(0, epoch=1)).appended
    assert log.append_client(batch(0, epoch=0, tag="old")).error is E.INVALID_PRODUCER_EPOCH


def test_ProducerStateManagerTest_testProducerSequenceWrapAround():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:153``: Kafka asserts that after a replicated
    batch at sequence Int.MAX a client batch at sequence 0 is accepted, leaving the entry with epoch
    15, first sequence Int.MAX and last sequence 0."""
    log = padded(735)
    log.append_replicated(LogEntry(735, batch(INT32_MAX, epoch=15)))
    assert log.append_client(batch(0, epoch=15)).appended
    entry = log.producers[PID]
    assert (entry.epoch, entry.first_seq, entry.last_seq) == (15, INT32_MAX, 0)


def test_ProducerStateManagerTest_testProducerSequenceWithWrapAroundBatchRecord():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:169``: Kafka asserts that one replicated batch
    spanning the wrap (sequences Int.MAX-10 .. 9, offsets 2000 .. 2020) is recorded with those first
    and last sequences and those first and last data offsets."""
    log = padded(2000)
    assert PID not in log.producers
    log.append_replicated(LogEntry(2000, batch(INT32_MAX - 10, 21, epoch=15)))
    entry = log.producers[PID]
    assert (entry.first_seq, entry.last_seq) == (INT32_MAX - 10, 9)
    assert (entry.batches[0].first_offset, entry.last_offset) == (2000, 2020)


def test_ProducerStateManagerTest_testProducerSequenceInvalidWrapAround():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:192``: Kafka asserts that after sequence
    Int.MAX a client batch at sequence 1 is out of order."""
    log = padded(735)
    log.append_replicated(LogEntry(735, batch(INT32_MAX, epoch=15)))
    assert log.append_client(batch(1, epoch=15)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_ProducerStateManagerTest_testNoValidationOnFirstEntryWhenLoadingLog():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:203``: Kafka asserts that a replicated first
    batch (epoch 5, sequence 16, offset 735) is taken as it is: epoch 5, first and last sequence 16,
    first and last data offset 735."""
    log = padded(735)
    log.append_replicated(LogEntry(735, batch(16, epoch=5)))
    entry = log.producers[PID]
    assert (entry.epoch, entry.first_seq, entry.last_seq) == (5, 16, 16)
    assert (entry.batches[0].first_offset, entry.last_offset) == (735, 735)


def test_ProducerStateManagerTest_testPrepareUpdateDoesNotMutate():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:344``: Kafka asserts that validating a batch
    (``prepareUpdate``/``appendDataBatch``) leaves the stored entry unchanged (sequences 0..5, last
    offset 20) until the update is committed, after which it spans sequences 0..10, last offset 30.
    The model's check is a pure function; the commit happens only in the append."""
    log = padded(15)
    assert log.append_client(batch(0, 6)).base_offset == 15
    log.append_client(plain(5))  # offsets 21..25, so the next batch lands at 26..30
    check = check_client_batch(log.producers[PID], batch(6, 5), log.profile)
    assert check.kind is CheckKind.APPEND
    entry = log.producers[PID]
    assert (entry.first_seq, entry.last_seq, entry.last_offset) == (0, 5, 20)
    assert log.append_client(batch(6, 5)).base_offset == 26
    entry = log.producers[PID]
    assert (entry.first_seq, entry.last_seq, entry.last_offset) == (0, 10, 30)


def test_ProducerStateManagerTest_testTruncateAndReloadRemovesOutOfRangeSnapshots():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:434``: Kafka asserts that with snapshots at
    1..5, reloading to the range (log start 1, log end 3) keeps only those in (1, 3]: oldest 2,
    newest 3."""
    log = log_of()
    for seq in range(5):
        log.append_client(batch(seq))
        log.take_snapshot()
    assert sorted(log.snapshots) == [1, 2, 3, 4, 5]
    log.delete_records(1)
    log.truncate_to(3)
    assert (min(log.snapshots), max(log.snapshots)) == (2, 3)
    assert (log.log_start_offset, log.log_end_offset) == (1, 3)


def test_ProducerStateManagerTest_testTakeSnapshot():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:453``: Kafka asserts that after two batches a
    snapshot leaves exactly one, non-empty, snapshot file."""
    log = log_of()
    log.append_client(batch(0))
    log.append_client(batch(1))
    log.take_snapshot()
    assert list(log.snapshots) == [2]
    assert PID in log.snapshots[2]


def test_ProducerStateManagerTest_testFetchSnapshotEmptySnapShot():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:467``: Kafka asserts that a fresh state has no
    snapshot at offset 1."""
    assert 1 not in log_of().snapshots


def test_ProducerStateManagerTest_testRemoveExpiredPidsOnReload():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:545``: Kafka asserts that after a reload that
    leaves no state for the producer (upstream reloads to end offset 1, below its only snapshot at
    2; the test is named for expiry on reload), a client batch at sequence 2 is accepted and is then
    the only producer, with last sequence 2 and state end 3.  Restated with the producer idle past
    the expiry when the broker restarts, so the load from the snapshot drops it."""
    log = log_of()
    log.append_client(batch(0, ts=0))
    log.append_client(batch(1, ts=1))
    log.restart(clean=True, now_ms=1 + DAY_MS)
    assert PID not in log.producers
    assert log.append_client(batch(2, ts=2 + DAY_MS)).appended
    assert list(log.producers) == [PID] and log.producers[PID].last_seq == 2
    assert log.log_end_offset == 3


def test_ProducerStateManagerTest_testAcceptAppendWithoutProducerStateOnReplica():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:564``: Kafka asserts that a replica with no
    state for the producer after a reload (as in line 545) still takes a replicated batch at
    sequence 2 and records it: epoch 0, first and last sequence 2.  Restated as for line 545."""
    log = log_of()
    log.append_client(batch(0, ts=0))
    log.append_client(batch(1, ts=1))
    log.restart(clean=True, now_ms=1 + DAY_MS)
    assert PID not in log.producers
    log.append_replicated(LogEntry(2, batch(2, ts=2 + DAY_MS)))
    entry = log.producers[PID]
    assert (entry.epoch, entry.first_seq, entry.last_seq) == (0, 2, 2)


def test_ProducerStateManagerTest_testAcceptAppendWithSequenceGapsOnReplica():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:586``: Kafka asserts that a client batch at
    sequence 3 after 0 is out of order and leaves the last sequence at 0, while the same batch
    replicated is taken and moves the last sequence to 3."""
    log = log_of()
    log.append_client(batch(0))
    assert log.append_client(batch(3)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert log.producers[PID].last_seq == 0
    log.append_replicated(LogEntry(1, batch(3)))
    assert log.producers[PID].last_seq == 3


def test_ProducerStateManagerTest_testLoadFromSnapshotRetainsNonExpiredProducers():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:704``: Kafka asserts that moving the log start
    to 1 past the first producer's only record keeps both producers, each with last sequence 0 and
    last data offsets 0 and 1.  Restated for the log-start move and for a reload from the snapshot
    at 2 after a restart."""
    log = log_of()
    log.append_client(batch(0, pid=1))
    log.append_client(batch(0, pid=2))
    log.take_snapshot()
    assert len(log.producers) == 2
    log.delete_records(1)
    for step in ("log start moved", "restarted"):
        if step == "restarted":
            log.restart(clean=True)
        assert sorted(log.producers) == [1, 2], step
        assert (log.producers[1].last_seq, log.producers[1].last_offset) == (0, 0), step
        assert (log.producers[2].last_seq, log.producers[2].last_offset) == (0, 1), step


def test_ProducerStateManagerTest_testSkipSnapshotIfOffsetUnchanged():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:726``: Kafka asserts that a second snapshot
    with nothing appended since the first leaves one snapshot, at offset 1."""
    log = log_of()
    log.append_client(batch(0))
    log.take_snapshot()
    assert list(log.snapshots) == [1]
    log.take_snapshot()
    assert list(log.snapshots) == [1]


def test_ProducerStateManagerTest_testPidExpirationTimeout():
    """PSMT ``...ProducerStateManagerTest.java@3.9.0-rc3:740``: Kafka asserts that once the producer has
    been idle longer than the expiry and expired producers are removed, its next batch (sequence 1,
    epoch 5) is accepted; one producer remains, last sequence 1, state end 3."""
    log = padded(1)
    log.append_client(batch(0, epoch=5, ts=0))
    assert log.expire_producers(now_ms=DAY_MS + 1) == (PID,)
    assert log.append_client(batch(1, epoch=5, ts=DAY_MS + 1)).appended
    assert list(log.producers) == [PID] and log.producers[PID].last_seq == 1
    assert log.log_end_offset == 3


# == LogLoaderTest ===============================================================================


def test_LogLoaderTest_testLoadProducersAfterDeleteRecordsMidSegment():
    """LLT ``core/src/test/scala/unit/kafka/log/LogLoaderTest.scala@3.9.0-rc3:691``: Kafka asserts that
    moving the log start to 1 (DeleteRecords inside the only segment) keeps both producers (the
    second with last sequence 0), and that reopening the log after an unclean shutdown with log
    start 1 rebuilds both again.  (Upstream's last comparison reads the closed log, not the
    reopened one; here it reads the restarted log.)"""
    log = log_of()
    log.append_client(batch(0, pid=1))
    log.append_client(batch(0, pid=2))
    assert len(log.producers) == 2
    log.delete_records(1)
    assert len(log.producers) == 2 and log.producers[2].last_seq == 0
    log.take_snapshot()  # Log.close
    log.checkpointed_log_start = 1  # upstream reopens the log with log start 1, as a checkpoint would give it
    log.restart(clean=False)
    assert log.log_start_offset == 1
    assert len(log.producers) == 2 and log.producers[2].last_seq == 0


# == UnifiedLogTest ==============================================================================


def test_UnifiedLogTest_testActiveProducers():
    """ULT ``core/src/test/scala/unit/kafka/log/UnifiedLogTest.scala@3.9.0-rc3:412``: Kafka asserts
    (for its idempotent producer; the transactional part is left out) that a three-record batch
    with epoch 5 leaves the producer with epoch 5 and last sequence 2."""
    log = log_of()
    log.append_client(batch(0, 3, epoch=5, pid=2))
    assert (log.producers[2].epoch, log.producers[2].last_seq) == (5, 2)


def test_UnifiedLogTest_testProducerIdMapOffsetUpdatedForNonIdempotentData():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:780``: Kafka asserts that a record without a producer id
    still advances the producer state's end, so a snapshot then lands at offset 1."""
    log = log_of()
    log.append_client(plain())
    log.take_snapshot()
    assert max(log.snapshots) == 1


def test_UnifiedLogTest_testProducerIdMapTruncateTo():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:910``: Kafka asserts that with snapshots at 2 and 3,
    truncating to 2 leaves the newest snapshot at 2 (state end 2), to 1 leaves it at 1 (end 1), and
    to 0 leaves no snapshot at all (end 0)."""
    log = log_of()
    log.append_client(plain(tag="a"))
    log.append_client(plain(tag="b"))
    log.take_snapshot()
    log.append_client(plain(tag="c"))
    log.take_snapshot()
    log.truncate_to(2)
    assert max(log.snapshots) == 2 and log.log_end_offset == 2
    log.truncate_to(1)
    assert max(log.snapshots) == 1 and log.log_end_offset == 1
    log.truncate_to(0)
    assert log.snapshots == {}, f"snapshots left at {sorted(log.snapshots)}"
    assert log.log_end_offset == 0


def test_UnifiedLogTest_testProducerIdMapTruncateToWithNoSnapshots():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:934``: Kafka asserts that with every snapshot file
    deleted, truncating to 1 rebuilds the state from the log: one producer, last sequence 0."""
    log = log_of()
    log.append_client(batch(0))
    log.append_client(batch(1))
    log.snapshots.clear()
    log.truncate_to(1)
    assert len(log.producers) == 1
    assert log.producers[PID].last_seq == 0


def test_UnifiedLogTest_testLoadingLogDeletesProducerStateSnapshotsPastLogEndOffset():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1083``: Kafka asserts that loading an empty log whose
    directory holds a stray snapshot at offset 42 leaves no snapshot file at all."""
    log = log_of()
    log.snapshots[42] = {}
    log.restart(clean=True)
    assert 42 not in log.snapshots
    assert log.snapshots == {}, f"snapshots left at {sorted(log.snapshots)}"


def test_UnifiedLogTest_testPeriodicProducerIdExpiration():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1230``: Kafka asserts that with a 200 ms expiry checked
    every 100 ms, the producer is still there after 100 ms and gone after 200 ms."""
    log = log_of()
    log.append_client(batch(0, pid=23, ts=0))
    assert set(log.producers) == {23}
    assert log.expire_producers(now_ms=100, expiration_ms=200) == ()
    assert set(log.producers) == {23}
    assert log.expire_producers(now_ms=200, expiration_ms=200) == (23,)
    assert set(log.producers) == set()


def test_UnifiedLogTest_testDuplicateAppends():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1251``: Kafka asserts that a retried three-record batch
    at the tail answers its original offsets, that a batch overlapping it partially is out of order,
    that a retry of the batch fourth from the tail is accepted as a duplicate (five batches are
    cached), that a retry of an older one is out of order, and that a retried single-record batch at
    the tail answers its original offsets."""
    log = log_of()
    for seq in range(6):
        log.append_client(batch(seq))
    first = log.append_client(batch(6, 3))
    assert (first.base_offset, log.log_end_offset) == (6, 9)
    dup = log.append_client(batch(6, 3))
    assert dup.base_offset == first.base_offset and not dup.appended and log.log_end_offset == 9
    assert log.append_client(batch(7, 2)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER
    fourth = log.append_client(batch(2))
    assert fourth.error is E.NONE and fourth.base_offset == 2 and not fourth.appended
    assert log.append_client(batch(1)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER
    orig = log.append_client(batch(9))
    again = log.append_client(batch(9))
    assert orig.appended and again.base_offset == orig.base_offset == 9 and not again.appended
    assert log.log_end_offset == 10


def test_UnifiedLogTest_testMultipleProducerIdsPerMemoryRecord():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1327``: Kafka asserts that four replicated batches of
    four producers (each at sequence 0) read back with the same producer ids, base offsets and base
    sequences."""
    sent = [LogEntry(offset, batch(0, pid=offset + 1)) for offset in range(4)]
    log = log_of()
    for entry in sent:
        log.append_replicated(entry)
    read = log.records()  # one record a batch: the record's offset and sequence are the batch's
    assert len(read) == len(sent)
    for got, want in zip(read, sent, strict=True):
        assert (got.producer_id, got.offset, got.sequence) == (
            want.batch.producer_id,
            want.base_offset,
            want.batch.base_sequence,
        )


def test_UnifiedLogTest_testDuplicateAppendToFollower():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1373``: Kafka asserts that a follower takes the same
    two-record batch (sequences 0..1) twice, at offsets 0 and 2, ending at offset 4."""
    log = log_of()
    assert log.log_end_offset == 0
    log.append_replicated(LogEntry(0, batch(0, 2)))
    log.append_replicated(LogEntry(2, batch(0, 2)))
    assert log.log_end_offset == 4


def test_UnifiedLogTest_testMultipleProducersWithDuplicatesInSingleAppend():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1394``: Kafka asserts that a follower takes five batches
    of two producers, the last a repeat of producer 1's sequence 1, ending at offset 5."""
    log = log_of()
    assert log.log_end_offset == 0
    for offset, (pid, seq) in enumerate([(1, 0), (2, 0), (1, 1), (2, 1), (1, 1)]):
        log.append_replicated(LogEntry(offset, batch(seq, pid=pid)))
    assert log.log_end_offset == 5


def test_UnifiedLogTest_testOldProducerEpoch():
    """ULT ``...UnifiedLogTest.scala@3.9.0-rc3:1446``: Kafka asserts that after a batch with epoch 1, a
    batch with epoch 0 is refused as an invalid producer epoch."""
    log = log_of()
    log.append_client(batch(0, epoch=1))
    assert log.append_client(batch(0, epoch=0)).error is E.INVALID_PRODUCER_EPOCH


# == the restart experiment (not an upstream test) ===============================================


def _five_batches_then_restart(version: str, *, clean: bool) -> PartitionLog:
    log = log_of(version)
    for seq in range(5):
        assert log.append_client(batch(seq)).base_offset == seq
    assert len(log.producers[PID].batches) == 5
    log.restart(clean=clean)
    return log


@pytest.mark.parametrize("clean", [True, False], ids=["clean", "crash"])
@pytest.mark.parametrize("version", ["3.3.2", "3.9.1", "4.3.1"])
def test_issue_experiment_five_batches_restart(version, clean):
    """Five one-record batches (sequences 0..4), then a restart on the same data.  Clean
    (``UnifiedLog.scala@3.9.0-rc3:653-664`` snapshots at close) or not (recovery replays the segment
    and snapshots at its end, ``LogLoader.scala@3.9.0-rc3:355-375``), the load comes from a snapshot
    at 5 that keeps the producer's last batch only (``ProducerStateManager.java@3.9.0-rc3:648-686``;
    the non-transactional analogue of PSMT line 473's "only the last appended batch" check).  So a
    resend of sequence 0 or 3 is out of order, and only sequence 4 is still a duplicate."""
    log = _five_batches_then_restart(version, clean=clean)
    assert sorted(log.snapshots) == [5]
    assert [b.first_seq for b in log.snapshots[5][PID].batches] == [4]
    assert len(log.producers[PID].batches) == 1 and log.producers[PID].last_seq == 4
    for seq in (0, 3):
        answer = log.append_client(batch(seq))
        assert answer.error is E.OUT_OF_ORDER_SEQUENCE_NUMBER and answer.base_offset == -1, seq
    answer = log.append_client(batch(4))
    assert answer.error is E.NONE and answer.base_offset == 4 and answer.appended is False
    assert log.log_end_offset == 5


@pytest.mark.parametrize("clean", [True, False], ids=["clean", "crash"])
def test_issue_experiment_on_1_0_1_and_2_4_1(clean):
    """The same experiment on 1.0.1 and 2.4.1: both keep only the last batch across the restart
    (``ProducerStateManager.scala@1.0.1:350-383``, ``@2.4.1:382-416``; ``Log.scala@1.0.1:349-369``
    and ``564-572`` for recovery and close), so both answer a resend of sequence 0 as out of order
    and a resend of sequence 4 as a duplicate at offset 4.  They differ on sequence 3: 1.0.1 still
    has the "below the oldest cached batch" clause of ``isDuplicate``
    (``ProducerStateManager.scala@1.0.1:219-222``), and after the restart the oldest cached batch is
    sequence 4, so it answers DUPLICATE_SEQUENCE_NUMBER (46, no offset); 2.4.1 (after KAFKA-6683)
    answers OUT_OF_ORDER_SEQUENCE_NUMBER."""
    old = _five_batches_then_restart("1.0.1", clean=clean)
    new = _five_batches_then_restart("2.4.1", clean=clean)
    for log in (old, new):
        assert len(log.producers[PID].batches) == 1
        assert log.append_client(batch(0)).error is E.OUT_OF_ORDER_SEQUENCE_NUMBER
        answer = log.append_client(batch(4))
        assert (answer.error, answer.base_offset, answer.appended) == (E.NONE, 4, False)
    old_3, new_3 = old.append_client(batch(3)), new.append_client(batch(3))
    assert (old_3.error, old_3.base_offset) == (E.DUPLICATE_SEQUENCE_NUMBER, -1)
    assert (new_3.error, new_3.base_offset) == (E.OUT_OF_ORDER_SEQUENCE_NUMBER, -1)
    assert old.log_end_offset == new.log_end_offset == 5


@pytest.mark.parametrize("version", ["2.3.1", "2.4.1", "3.9.1"])
def test_a_crash_forgets_a_delete_records_the_checkpoint_never_held(version):
    """Real Kafka 2.4.1 under ``check broker``: DeleteRecords moves the log start offset in
    memory only until ``log-start-offset-checkpoint`` is written (a minute by default, at a
    clean shutdown in any case); after SIGKILL the old log start is back, the deleted records
    are read again, and crash recovery rebuilds their producers (``UnifiedLog.scala@3.9.0-rc3:1000-1002``)."""
    crashed, stopped = log_of(version), log_of(version)
    for log in (crashed, stopped):
        log.append_client(batch(0))
        log.append_client(batch(1))
        log.delete_records(2)
    crashed.restart(clean=False)
    stopped.restart(clean=True)
    assert crashed.log_start_offset == 0 and [r.sequence for r in crashed.records()] == [0, 1]
    assert crashed.append_client(batch(1)).base_offset == 1  # a duplicate again, on every release
    assert stopped.log_start_offset == 2 and stopped.records() == ()
    assert stopped.append_client(batch(2)).error is not E.NONE or version >= "2.5"  # forgotten: 59 before 2.5
