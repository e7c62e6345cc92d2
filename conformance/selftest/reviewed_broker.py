"""The reviewed survivors of the broker spec's mutation run (:mod:`.mutation_broker`).

As in :mod:`.equivalent`, each entry names a mutant by its file, operator and the text of its
line (narrowed by the changed text or the scope where the line alone is ambiguous) and says why
it is let through.  The judge here is the broker suite's fixed cases driving the kit's Python test
broker, which serves one partition of one topic, takes no leader change and reads its log back
through Fetch from the stored batches: a mutant is *equivalent* when nothing that judge can send
tells it apart (each reason says why), and a *known gap* when Kafka defines an answer the suite
does not ask for yet (each names the input it lacks).  An entry whose mutant is caught, or gone,
is reported stale.
"""

from __future__ import annotations

from kafka_conformance.selftest.equivalent import Equivalent, KnownGap

__all__ = ["BROKER_EQUIVALENT", "BROKER_KNOWN_GAPS"]

_BATCHES = "reference/broker/batches.py"
_STATE = "reference/broker/producer_state.py"
_LOG = "reference/broker/partition_log.py"
_PROFILE = "reference/broker/profile.py"

# -- reasons, each reviewed once and shared by the mutants it explains ------------------------------
_NEGATIVE = ("a negative base sequence from a producer with an id never reaches this line: the batch is refused as "
             "invalid first (PartitionLog._validate_records), and the other negative sequence, NO_SEQUENCE, is -1")
_ONE_BATCH = ("every producer entry the broker spec stores caches at least one batch (record_batch adds one, a snapshot "
              "keeps the last), so the branch for an entry without one is never taken; only a transaction marker leaves "
              "an epoch without a batch, and the broker spec writes none")
_TEXT = "the rule's text: it explains an answer in the kit's reports and is carried by no answer on the wire"
_DEFAULT = "a default no caller of the served broker relies on: every call passes the argument"
_CODEC = ("the test broker's codec builds every batch from the wire with its timestamp, transactional flag and magic "
          "given; the default serves the kit's own builders, which the judge imports unmutated")
_SIGNATURE = ("a `/` for a `*` makes the parameters before it positional-only and lets those after it be passed by "
              "position too: every call passes them as before")
_APPENDED = "whether this attempt wrote the batch is the cluster model's own note for its event log; no answer carries it"
_SHARED_START = ("on a shared partition the judge reads the log start from the broker itself before each case (ListOffsets, "
                 "and the checkpoint a crash falls back to), so the value a fresh log starts from is taken as given")
_JAVA_NAME = "the name of the Java exception a client builds from error 47: no broker answer carries it"
_MODULO_NOW = ("a batch's timestamp t lies within days of the broker's clock now, so now/2 < t <= now and now % t equals "
               "now - t")
_NO_SEQUENCE = ("NO_SEQUENCE marks a sequence the broker never compares with a live one: a batch with a producer id and a "
                "negative sequence is refused first, and every stored entry caches a batch")
_LOWER_EPOCH = ("a batch of a lower epoch is fenced before it is recorded, and a follower copies only batches its "
                "leader accepted, so the recorded epoch is never below the stored one")
_READS = ("the test broker serves Fetch from the stored batches (its codec encodes LogEntry values), not from "
          "LogEntry.records, PartitionLog.records or ProducerBatch.sequence_of: those build the reads the producer "
          "suite's cluster model compares")
_ALL_ONES = ("Int.MAX is 2^31 - 1, every bit below 31 set: subtracting a non-negative int below 2^31 from it and XOR "
             "with it give the same number")
_SIGN_BIT = "modulo 2^32, adding 2^31 and flipping bit 31 are the same"
_SMALL_INT = ("compared with -1 (NO_PRODUCER_EPOCH, NO_SEQUENCE): CPython keeps one object for each int from -5 to "
              "256, so `is` and `==` agree here")
_UNMODELLED = ("which releases broker_profile refuses: the judge serves only modelled releases (1.0.0 and later), so "
               "the refusal never runs in a served broker; tests/unit holds the CLI's refusal of older ones")
_BACKPORTS = ("every backport list _since is given names consecutive minor lines ('1.0.2', '1.1.0'; '2.0.1', '2.1.0'): "
              "the first and the last of two are the same index, and no release lies between the lines")
_EPOCH_BELOW = ("NO_PRODUCER_EPOCH is compared with itself and with the epochs of batches, which are 0 or more: any "
                "value below 0 answers alike")
_CLIENT_SIDE = ("INT16_MAX bounds the epochs the kit's own cases may hold (CraftedBatch, on the judge's side, which "
                "imports the kit unmutated); the served broker never reads it")
_MAX_SEQ = "a sequence is never above Int.MAX: the wire carries an int32, and increment_sequence wraps to 0 past it"
_STAMPED = ("every producer entry the broker stores is built by record_batch, which sets the timestamp of the batch "
            "it records; the default of a blank entry is never read")
_FRESH_UNMODELLED = ("whether a partition ever held a record is read only where KAFKA-15591 applies "
                     "(fresh_partition_requires_sequence_zero: 4.5 and later, no release the kit models yet)")
_FORMATS = ("the served broker builds every partition log with message format 2 (a v0 or v1 topic is a known gap), so "
            "the check of the format it is given never meets 0 or 1")
_SNAPSHOT_SAME = ("the last snapshot's offset is the log end's own int object until the log end moves (take_snapshot "
                  "and _reload store that object), so `is not` and `>` agree when the two are equal, and the log end "
                  "only moves up")
_ONE_RECORD = ("a crash with one record in the log: the snapshot of its last batch and the full replay of the log hold "
               "the same state, so taking the snapshot or not changes nothing")
_WRAP_BEFORE_2_5 = ("a batch spanning the sequence wrap needs a first sequence near Int.MAX, which a producer without "
                    "state may send only from 2.5 (KIP-360); KAFKA-7692's delta bug is gone from 2.1.1, so no release "
                    "that has it can be sent such a batch over the wire")

# -- known gaps: inputs Kafka defines an answer for, which the broker suite does not send yet -----------
_GAP_NO_PID = ("a batch without a producer id (a non-idempotent producer writing to the same partition), or from "
               "producer id 0 or 1: the suite's producers are idempotent, with ids the broker hands out from 1000")
_GAP_TRUNCATION = ("truncation (a follower catching up with a new leader, a leader losing an unreplicated tail) and the "
                   "replay of the log after the newest snapshot it leads to: the broker suite drives one leader and "
                   "never moves leadership (issue 30: truncation on kafka-cluster)")
_GAP_OLD_FORMAT = "a topic of message format v0 or v1 (before 4.0): the broker suite creates v2 topics only"
_GAP_POWER_LOSS = ("a power loss, where the batches never fsynced are gone from the files: the broker suite's restarts "
                   "keep every write (the page cache survives a SIGKILL); the producer suite's cluster model loses them")
_GAP_ERROR_OFFSET = ("the base offset of a refused batch: Kafka answers -1, and the suite compares a refusal's error code and "
                     "log start offset only")
_GAP_WIDE_WRAP = ("a batch spanning the sequence wrap by three records or more: the wrap cases span it by one and by two, "
                  "where `- 1` and `>> 1` agree")
_GAP_DELETE_CRASH = ("a crash after DeleteRecords and a clean restart on a release before 2.4: the replay brings back producers "
                     "whose records the log start left behind, which the load drops again")
_GAP_WALL_CLOCK = ("a producer idle for exactly the expiry, to the millisecond: the broker reads its wall clock when it "
                   "loads a snapshot, so a case can stand only well past the boundary or well short of it")

BROKER_EQUIVALENT: tuple[Equivalent, ...] = ()
"""Reviewed: the broker spec's mutants no input of the broker suite's judge can tell apart."""

BROKER_KNOWN_GAPS: tuple[KnownGap, ...] = ()
"""Reviewed: the broker spec's survivors the suite cannot catch yet, each with the input it lacks."""
