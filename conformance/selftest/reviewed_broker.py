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
_RESTART_AT_END = ("after a restart the newest snapshot lies at the log end (a clean stop writes one, a crash's recovery "
                   "writes one), so nothing is left to replay whether the reload may replay or not")
_FIRST_SNAPSHOT = ("the offset a log's first snapshot must pass matters only for a log of at most one record: with none "
                   "there is no state to keep, with one the snapshot and the replay hold the same state; a shared "
                   "partition holds many")
_IS_SUCCESS = ("is_success serves the producer model and the delivery checker; the served broker reads a response's "
               "error itself")
_CODEC_MAGIC = ("the test broker's codec refuses a v0 or v1 message set before the log sees it, and no magic above 2 "
                "exists: the log's own check meets magic 2 only")
_DELETE_SAME = ("DeleteRecords to the log start itself moves nothing: the log start stays, and before 2.4 the producers "
                "kept are those at or above it, as before")
_SETTING_NAME = ("the name of the broker setting that holds the producer-id expiry: the kit's launcher of real brokers "
                 "writes it; the served test broker reads no setting")
_MAX_BEFORE_2_5 = ("an oldest cached batch starting at Int.MAX needs a producer to start there, which before 2.5 it may not "
                   "(KIP-360), and the check below the window is 1.0.0's and 1.0.1's only")
_LAST_AT_MAX = ("a batch ending exactly at Int.MAX gets -1 for its last sequence instead, and -1 + 1 is 0, the wrapped next "
                "sequence: its duplicate is computed the same way and every comparison the broker makes answers alike")
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
_GAP_NO_PID = ("a batch from producer id 0 or 1, or with a producer id below -1, which Kafka also takes for none "
               "(hasProducerId is NO_PRODUCER_ID < producerId): the suite's idempotent producers get ids the broker hands "
               "out (from 1000 on the test broker) or unallocated ones far above, and its producer without one (probe "
               "no-producer-id) sends -1")
_GAP_TRUNCATION = ("truncation (a follower catching up with a new leader, a leader losing an unreplicated tail) and the "
                   "replay of the log after the newest snapshot it leads to: the broker suite drives one leader and "
                   "never moves leadership (issue 30: truncation on kafka-cluster)")
_GAP_FOLLOWER = ("what a follower copies from its leader: the broker suite reads the leader only and never moves leadership, "
                 "so a follower's log is never read (issue 30: leader change on kafka-cluster)")
_GAP_OLD_FORMAT = "a topic of message format v0 or v1 (before 4.0): the broker suite creates v2 topics only"
_GAP_POWER_LOSS = ("a power loss, where the batches never fsynced are gone from the files: the broker suite's restarts "
                   "keep every write (the page cache survives a SIGKILL); the producer suite's cluster model loses them")
_WRAP_ALL_ONES = ("Int.MAX is 31 one bits, so for any sequence s, Int.MAX - s is Int.MAX ^ s; and a batch spans the wrap "
                  "only from s above Int.MAX / 2 (a batch holds far fewer than 2**30 records), where Int.MAX % s is "
                  "Int.MAX - s too")
_GAP_DELETE_CRASH = ("a crash after DeleteRecords and a clean restart on a release before 2.4: the replay brings back producers "
                     "whose records the log start left behind, which the load drops again")
_GAP_PERIODIC_EXPIRY = ("a producer expiring while the broker runs (every producer.id.expiration.check.interval.ms): the broker "
                        "suite meets expiry only when a restart loads a snapshot (issue 30: periodic expiry)")
_GAP_WINDOW_EDGE_1_0 = ("on 1.0.0 and 1.0.1, a resend that ends at the first sequence of the oldest cached batch without being "
                        "that batch (out of order at the window's edge, DUPLICATE_SEQUENCE_NUMBER below it)")
_GAP_FRESH_SHARED = ("a partition that never held a record meeting a non-zero first sequence, on the served test broker: it "
                     "serves one shared partition, which has held records by the time the probe asks; brokers that give "
                     "each case a topic of its own are asked it")
_GAP_WALL_CLOCK = ("a producer idle for exactly the expiry, to the millisecond: the broker reads its wall clock when it "
                   "loads a snapshot, so a case can stand only well past the boundary or well short of it")

BROKER_EQUIVALENT: tuple[Equivalent, ...] = (
    Equivalent(_BATCHES, 'NumberReplacer', 'NO_PRODUCER_EPOCH = -1', _EPOCH_BELOW, after='NO_PRODUCER_EPOCH = - 2', scope=''),
    Equivalent(_BATCHES, 'ReplaceUnaryOperator_USub_Invert', 'NO_PRODUCER_EPOCH = -1', _EPOCH_BELOW, after='NO_PRODUCER_EPOCH = ~1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'NumberReplacer', 'NO_SEQUENCE = -1', _NO_SEQUENCE, after='NO_SEQUENCE = - 2', scope=''),
    Equivalent(_BATCHES, 'ReplaceUnaryOperator_USub_Invert', 'NO_SEQUENCE = -1', _NO_SEQUENCE, after='NO_SEQUENCE = ~1', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 1**15 - 1', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2** 14 - 1', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2** 16 - 1', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 - 0', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 - 2', scope=''),
    Equivalent(_BATCHES, 'NumberReplacer', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 3**15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_Add', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2+15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_BitAnd', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2&15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_BitOr', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2|15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_BitXor', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2^15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_Div', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2/15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_FloorDiv', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2//15 - 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_LShift', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2<<15 - 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_Mod', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2%15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_Mul', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2*15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_RShift', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2>>15 - 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Pow_Sub', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2-15 - 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Add', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 + 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitAnd', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 & 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitOr', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 | 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitXor', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 ^ 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Div', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 / 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_FloorDiv', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 // 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_LShift', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 << 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Mod', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 % 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Mul', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 * 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Pow', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 ** 1', scope=''),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_RShift', 'INT16_MAX = 2**15 - 1', _CLIENT_SIDE, after='INT16_MAX = 2**15 >> 1', scope=''),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitXor', 'if sequence > INT32_MAX - increment:', _ALL_ONES, after='if sequence > INT32_MAX ^ increment:', scope='increment_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Gt_GtE', 'if sequence > INT32_MAX - increment:', _LAST_AT_MAX, after='if sequence >= INT32_MAX - increment:', scope='increment_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'NumberReplacer', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value + 2**31) % 2** 33 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'NumberReplacer', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value + 2**31) % 3**32 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Add_BitOr', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value | 2**31) % 2**32 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Add_BitXor', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value ^ 2**31) % 2**32 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Add_Sub', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value - 2**31) % 2**32 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Mod_BitXor', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value + 2**31) ^ 2**32 - 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitXor', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value + 2**31) % 2**32 ^ 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Mod', 'return (value + 2**31) % 2**32 - 2**31', _WRAP_BEFORE_2_5, after='return (value + 2**31) % 2**32 % 2**31', scope='java_int'),  # noqa: E501
    Equivalent(_BATCHES, 'NumberReplacer', 'timestamp_ms: int = 0', _CODEC, after='timestamp_ms: int = -1', scope='ProducerBatch'),
    Equivalent(_BATCHES, 'NumberReplacer', 'timestamp_ms: int = 0', _CODEC, after='timestamp_ms: int = 1', scope='ProducerBatch'),
    Equivalent(_BATCHES, 'ReplaceFalseWithTrue', 'transactional: bool = False', _CODEC, after='transactional: bool = True', scope='ProducerBatch'),  # noqa: E501
    Equivalent(_BATCHES, 'NumberReplacer', 'magic: int = 2', _CODEC, after='magic: int = 1', scope='ProducerBatch'),
    Equivalent(_BATCHES, 'NumberReplacer', 'magic: int = 2', _CODEC, after='magic: int = 3', scope='ProducerBatch'),
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_Is', 'if self.base_sequence == NO_SEQUENCE:', _SMALL_INT, after='if self.base_sequence is NO_SEQUENCE:', scope='ProducerBatch.last_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_Lt', 'if self.base_sequence == NO_SEQUENCE:', _NEGATIVE, after='if self.base_sequence < NO_SEQUENCE:', scope='ProducerBatch.last_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_LtE', 'if self.base_sequence == NO_SEQUENCE:', _NEGATIVE, after='if self.base_sequence <= NO_SEQUENCE:', scope='ProducerBatch.last_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'AddNot', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if not self.base_sequence == NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_Gt', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence > NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_GtE', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence >= NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_Is', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence is NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_IsNot', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence is not NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_Lt', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence < NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_LtE', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence <= NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceComparisonOperator_Eq_NotEq', 'if self.base_sequence == NO_SEQUENCE:', _READS, after='if self.base_sequence != NO_SEQUENCE:', scope='ProducerBatch.sequence_of'),  # noqa: E501
    Equivalent(_BATCHES, 'RemoveDecorator', '@attrs.frozen', _READS, after='(removed)', scope='LogRecord'),
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_BitXor', 'return increment - (INT32_MAX - sequence) - 1', _WRAP_ALL_ONES, after='return increment - (INT32_MAX ^ sequence) - 1', scope='increment_sequence'),  # noqa: E501
    Equivalent(_BATCHES, 'ReplaceBinaryOperator_Sub_Mod', 'return increment - (INT32_MAX - sequence) - 1', _WRAP_ALL_ONES, after='return increment - (INT32_MAX % sequence) - 1', scope='increment_sequence'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'leader_epoch: int = 0', _DEFAULT, after='leader_epoch: int = -1', scope='LogEntry'),
    Equivalent(_LOG, 'NumberReplacer', 'leader_epoch: int = 0', _DEFAULT, after='leader_epoch: int = 1', scope='LogEntry'),
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_BitAnd', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset & i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_BitOr', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset | i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_BitXor', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset ^ i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_Div', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset / i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_FloorDiv', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset // i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_LShift', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset << i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_Mod', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset % i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_Mul', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset * i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_Pow', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset ** i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_RShift', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset >> i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Add_Sub', 'LogRecord(self.base_offset + i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', _READS, after='LogRecord(self.base_offset - i, value, b.producer_id, b.producer_epoch, b.sequence_of(i))', scope='LogEntry.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceFalseWithTrue', 'appended: bool = False', _APPENDED, after='appended: bool = True', scope='ProduceResponse'),
    Equivalent(_LOG, 'RemoveDecorator', '@property', _IS_SUCCESS, after='(removed)', scope='ProduceResponse.is_success'),
    Equivalent(_LOG, 'ReplaceBinaryOperator_Mul_Div', 'def __init__(self, profile: BrokerProfile, *, message_format: int = 2) -> None:', _SIGNATURE, after='def __init__(self, profile: BrokerProfile, /, message_format: int = 2) -> None:', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if message_format not in (0, 1, 2):', _FORMATS, after='if message_format not in ( -1, 1, 2):', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if message_format not in (0, 1, 2):', _FORMATS, after='if message_format not in ( 1, 1, 2):', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if message_format not in (0, 1, 2):', _FORMATS, after='if message_format not in (0, 0, 2):', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if message_format not in (0, 1, 2):', _FORMATS, after='if message_format not in (0, 2, 2):', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if message_format < 2 and not profile.supports_old_message_formats:', _FORMATS, after='if message_format < 1 and not profile.supports_old_message_formats:', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Lt_Gt', 'if message_format < 2 and not profile.supports_old_message_formats:', _FORMATS, after='if message_format > 2 and not profile.supports_old_message_formats:', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Lt_NotEq', 'if message_format < 2 and not profile.supports_old_message_formats:', _FORMATS, after='if message_format != 2 and not profile.supports_old_message_formats:', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceUnaryOperator_Delete_Not', 'if message_format < 2 and not profile.supports_old_message_formats:', _FORMATS, after='if message_format < 2 and  profile.supports_old_message_formats:', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.log_start_offset = 0', _SHARED_START, after='self.log_start_offset = -1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.log_start_offset = 0', _SHARED_START, after='self.log_start_offset = 1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.last_snapshot_offset = 0', _FIRST_SNAPSHOT, after='self.last_snapshot_offset = -1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.last_snapshot_offset = 0', _FIRST_SNAPSHOT, after='self.last_snapshot_offset = 1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.checkpointed_log_start = 0', _SHARED_START, after='self.checkpointed_log_start = -1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'self.checkpointed_log_start = 0', _SHARED_START, after='self.checkpointed_log_start = 1', scope='PartitionLog.__init__'),  # noqa: E501
    Equivalent(_LOG, 'RemoveDecorator', '@property', _FRESH_UNMODELLED, after='(removed)', scope='PartitionLog.ever_held_records'),
    Equivalent(_LOG, 'NumberReplacer', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset > -1', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset > 1', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_Eq', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset == 0', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_GtE', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset >= 0', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_Lt', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset < 0', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_LtE', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset <= 0', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_NotEq', 'return self.log_end_offset > 0', _FRESH_UNMODELLED, after='return self.log_end_offset != 0', scope='PartitionLog.ever_held_records'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 0) -> ProduceResponse:', _DEFAULT, after='def append_client(self, batch: ProducerBatch, *, leader_epoch: int = -1) -> ProduceResponse:', scope='PartitionLog.append_client'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 0) -> ProduceResponse:', _DEFAULT, after='def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 1) -> ProduceResponse:', scope='PartitionLog.append_client'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Mul_Div', 'def append_client(self, batch: ProducerBatch, *, leader_epoch: int = 0) -> ProduceResponse:', _SIGNATURE, after='def append_client(self, batch: ProducerBatch, /, leader_epoch: int = 0) -> ProduceResponse:', scope='PartitionLog.append_client'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_NotEq_Gt', 'if batch.magic != 2:', _CODEC_MAGIC, after='if batch.magic > 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_NotEq_Lt', 'if batch.magic != 2:', _CODEC_MAGIC, after='if batch.magic < 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceTrueWithFalse', 'return ProduceResponse(ProduceError.NONE, entry.base_offset, self.log_start_offset, rule, appended=True)', _APPENDED, after='return ProduceResponse(ProduceError.NONE, entry.base_offset, self.log_start_offset, rule, appended=False)', scope='PartitionLog._append'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_LtE_Lt', 'if before_offset <= self.log_start_offset:', _DELETE_SAME, after='if before_offset < self.log_start_offset:', scope='PartitionLog.delete_records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_GtE', 'if self.log_end_offset > self.last_snapshot_offset:', _SNAPSHOT_SAME, after='if self.log_end_offset >= self.last_snapshot_offset:', scope='PartitionLog.take_snapshot'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_IsNot', 'if self.log_end_offset > self.last_snapshot_offset:', _SNAPSHOT_SAME, after='if self.log_end_offset is not self.last_snapshot_offset:', scope='PartitionLog.take_snapshot'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Mul_Div', 'def restart(self, *, clean: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:', _SIGNATURE, after='def restart(self, /, clean: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if self.log_end_offset > 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', _ONE_RECORD, after='if self.log_end_offset > -1:  # the recovering manager\'s first snapshot (its last one was "at 0")', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'NumberReplacer', 'if self.log_end_offset > 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', _ONE_RECORD, after='if self.log_end_offset > 1:  # the recovering manager\'s first snapshot (its last one was "at 0")', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_GtE', 'if self.log_end_offset > 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', _ONE_RECORD, after='if self.log_end_offset >= 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_Gt_NotEq', 'if self.log_end_offset > 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', _ONE_RECORD, after='if self.log_end_offset != 0:  # the recovering manager\'s first snapshot (its last one was "at 0")', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceTrueWithFalse', 'self._reload(had_state=True, now_ms=now_ms, expiration_ms=expiration_ms)', _RESTART_AT_END, after='self._reload(had_state=False, now_ms=now_ms, expiration_ms=expiration_ms)', scope='PartitionLog.restart'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceBinaryOperator_Mul_Div', 'def _reload(self, *, had_state: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:', _SIGNATURE, after='def _reload(self, /, had_state: bool, now_ms: int | None = None, expiration_ms: int | None = None) -> None:', scope='PartitionLog._reload'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_Eq', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset == self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_Gt', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset > self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_Is', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset is self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_IsNot', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset is not self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_Lt', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset < self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_LtE', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset <= self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_LOG, 'ReplaceComparisonOperator_GtE_NotEq', 'return tuple(r for e in self.entries for r in e.records() if r.offset >= self.log_start_offset)', _READS, after='return tuple(r for e in self.entries for r in e.records() if r.offset != self.log_start_offset)', scope='PartitionLog.records'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_GtE', 'return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)', _MAX_SEQ, after='return next_seq == last_seq + 1 or (next_seq == 0 and last_seq >= INT32_MAX)', scope='in_sequence'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)', _NEGATIVE, after='return next_seq == last_seq + 1 or (next_seq <= 0 and last_seq == INT32_MAX)', scope='in_sequence'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = - 0', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = - 2', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_Delete_USub', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = 1', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_Invert', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = ~1', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_Not', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = not 1', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_UAdd', 'last_timestamp_ms: int = -1', _STAMPED, after='last_timestamp_ms: int = +1', scope='ProducerEntry'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else - 0', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else - 2', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_Delete_USub', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else 1', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_Invert', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else ~1', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_Not', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else not 1', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_USub_UAdd', 'return self.batches[-1].last_offset if self.batches else -1', _ONE_BATCH, after='return self.batches[-1].last_offset if self.batches else +1', scope='ProducerEntry.last_offset'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceBinaryOperator_Mul_Div', '*,', _SIGNATURE, after='/,', scope='check_client_batch'),
    Equivalent(_STATE, 'ReplaceTrueWithFalse', 'partition_ever_held_records: bool = True,', _DEFAULT, after='partition_ever_held_records: bool = False,', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Is', 'if stored_epoch == NO_PRODUCER_EPOCH:', _SMALL_INT, after='if stored_epoch is NO_PRODUCER_EPOCH:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'if stored_epoch == NO_PRODUCER_EPOCH:', _EPOCH_BELOW, after='if stored_epoch <= NO_PRODUCER_EPOCH:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Gt', 'if batch.producer_epoch != stored_epoch:', _LOWER_EPOCH, after='if batch.producer_epoch > stored_epoch:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Gt', 'if first != 0:', _NEGATIVE, after='if first > 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first != -1:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first != 1:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Is', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last is NO_SEQUENCE and first != 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Lt', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last < NO_SEQUENCE and first != 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last <= NO_SEQUENCE and first != 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Eq', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first == 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Gt', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first > 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_GtE', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first >= 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Lt', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first < 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_LtE', 'if last == NO_SEQUENCE and first != 0:', _ONE_BATCH, after='if last == NO_SEQUENCE and first <= 0:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'AddNot', 'if profile.unknown_producer_when_sequence_unknown:', _ONE_BATCH, after='if not profile.unknown_producer_when_sequence_unknown:', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'AddNot', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if not last == NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = -1 if last == NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 0)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 2)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'NumberReplacer', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 1 if last == NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Gt', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last > NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_GtE', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last >= NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Is', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last is NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_IsNot', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last is not NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_Lt', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last < NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last <= NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_NotEq', 'expected = 0 if last == NO_SEQUENCE else increment_sequence(last, 1)', _TEXT, after='expected = 0 if last != NO_SEQUENCE else increment_sequence(last, 1)', scope='check_client_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'if first == 0:', _NEGATIVE, after='if first <= 0:', scope='_check_unknown_producer'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceUnaryOperator_Delete_Not', 'if profile.fresh_partition_requires_sequence_zero and not ever_held_records:', _FRESH_UNMODELLED, after='if profile.fresh_partition_requires_sequence_zero and  ever_held_records:', scope='_check_unknown_producer'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Gt', 'return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', _NEGATIVE, after='return last > 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', scope='_below_window'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_IsNot', 'return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', _MAX_BEFORE_2_5, after='return last != 0 and entry.first_seq is not INT32_MAX and last < entry.first_seq', scope='_below_window'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_Lt', 'return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', _MAX_SEQ, after='return last != 0 and entry.first_seq < INT32_MAX and last < entry.first_seq', scope='_below_window'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_NotEq_LtE', 'return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', _MAX_BEFORE_2_5, after='return last != 0 and entry.first_seq <= INT32_MAX and last < entry.first_seq', scope='_below_window'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceComparisonOperator_Eq_LtE', 'kept = current.batches if batch.producer_epoch == current.epoch else ()', _LOWER_EPOCH, after='kept = current.batches if batch.producer_epoch <= current.epoch else ()', scope='record_batch'),  # noqa: E501
    Equivalent(_STATE, 'ReplaceBinaryOperator_Sub_Mod', 'return now_ms - entry.last_timestamp_ms >= expiration_ms', _MODULO_NOW, after='return now_ms % entry.last_timestamp_ms >= expiration_ms', scope='is_expired'),  # noqa: E501
    Equivalent(_PROFILE, 'NumberReplacer', 'OLDEST_BROKER = KafkaVersion(1, 0, 0)', _UNMODELLED, after='OLDEST_BROKER = KafkaVersion( 0, 0, 0)', scope=''),  # noqa: E501
    Equivalent(_PROFILE, 'NumberReplacer', 'OLDEST_BROKER = KafkaVersion(1, 0, 0)', _UNMODELLED, after='OLDEST_BROKER = KafkaVersion(1, -1, 0)', scope=''),  # noqa: E501
    Equivalent(_PROFILE, 'NumberReplacer', 'OLDEST_BROKER = KafkaVersion(1, 0, 0)', _UNMODELLED, after='OLDEST_BROKER = KafkaVersion(1, 0, -1)', scope=''),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_Eq_GtE', 'if (version.major, version.minor) == (first.major, first.minor):', _BACKPORTS, after='if (version.major, version.minor) >= (first.major, first.minor):', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_Eq_IsNot', 'if (version.major, version.minor) == (first.major, first.minor):', _BACKPORTS, after='if (version.major, version.minor) is not (first.major, first.minor):', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_Eq_LtE', 'if (version.major, version.minor) == (first.major, first.minor):', _BACKPORTS, after='if (version.major, version.minor) <= (first.major, first.minor):', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_GtE_Eq', 'return version >= first', _BACKPORTS, after='return version == first', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'NumberReplacer', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[- 0])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'NumberReplacer', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[- 2])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_GtE_Gt', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version > KafkaVersion.parse(firsts[-1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_GtE_IsNot', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version is not KafkaVersion.parse(firsts[-1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_GtE_NotEq', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version != KafkaVersion.parse(firsts[-1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceUnaryOperator_Delete_USub', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceUnaryOperator_USub_Invert', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[~1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceUnaryOperator_USub_Not', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[not 1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceUnaryOperator_USub_UAdd', 'return version >= KafkaVersion.parse(firsts[-1])', _BACKPORTS, after='return version >= KafkaVersion.parse(firsts[+1])', scope='_since'),  # noqa: E501
    Equivalent(_PROFILE, 'RemoveDecorator', '@property', _ONE_BATCH, after='(removed)', scope='BrokerProfile.unknown_producer_when_sequence_unknown'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceAndWithOr', 'return _since(self.version, "2.0.1", "2.1.0") and self.unknown_producer_on_empty_state', _ONE_BATCH, after='return _since(self.version, "2.0.1", "2.1.0") or self.unknown_producer_on_empty_state', scope='BrokerProfile.unknown_producer_when_sequence_unknown'),  # noqa: E501
    Equivalent(_PROFILE, 'RemoveDecorator', '@property', _SETTING_NAME, after='(removed)', scope='BrokerProfile.producer_id_expiration_key'),  # noqa: E501
    Equivalent(_PROFILE, 'AddNot', 'return "producer.id.expiration.ms" if self.version.at_least("3.4.0") else "transactional.id.expiration.ms"', _SETTING_NAME, after='return "producer.id.expiration.ms" if not self.version.at_least("3.4.0") else "transactional.id.expiration.ms"', scope='BrokerProfile.producer_id_expiration_key'),  # noqa: E501
    Equivalent(_PROFILE, 'RemoveDecorator', '@property', _JAVA_NAME, after='(removed)', scope='BrokerProfile.lower_epoch_exception'),
    Equivalent(_PROFILE, 'AddNot', 'if self.version.at_least("2.7.0"):', _JAVA_NAME, after='if not self.version.at_least("2.7.0"):', scope='BrokerProfile.lower_epoch_exception'),  # noqa: E501
    Equivalent(_PROFILE, 'ReplaceComparisonOperator_Lt_Is', 'if v < OLDEST_BROKER:', _UNMODELLED, after='if v is OLDEST_BROKER:', scope='broker_profile'),  # noqa: E501
)
"""Reviewed: the broker spec's mutants no input of the broker suite's judge can tell apart."""

BROKER_KNOWN_GAPS: tuple[KnownGap, ...] = (
    # caught in the run of 2026-11-29 only while the probe table asked its fresh-partition probe first
    KnownGap(_STATE, 'AddNot', 'if profile.fresh_partition_requires_sequence_zero and not ever_held_records:', _GAP_FRESH_SHARED, after='if not profile.fresh_partition_requires_sequence_zero and not ever_held_records:', scope='_check_unknown_producer'),  # noqa: E501
    KnownGap(_BATCHES, 'NumberReplacer', 'NO_PRODUCER_ID = -1', _GAP_NO_PID, after='NO_PRODUCER_ID = - 0', scope=''),
    KnownGap(_BATCHES, 'ReplaceUnaryOperator_Delete_USub', 'NO_PRODUCER_ID = -1', _GAP_NO_PID, after='NO_PRODUCER_ID = 1', scope=''),
    KnownGap(_BATCHES, 'ReplaceUnaryOperator_USub_Not', 'NO_PRODUCER_ID = -1', _GAP_NO_PID, after='NO_PRODUCER_ID = not 1', scope=''),
    KnownGap(_BATCHES, 'ReplaceUnaryOperator_USub_UAdd', 'NO_PRODUCER_ID = -1', _GAP_NO_PID, after='NO_PRODUCER_ID = +1', scope=''),
    KnownGap(_BATCHES, 'ReplaceComparisonOperator_Gt_IsNot', 'return self.producer_id > NO_PRODUCER_ID', _GAP_NO_PID, after='return self.producer_id is not NO_PRODUCER_ID', scope='ProducerBatch.has_producer_id'),  # noqa: E501
    KnownGap(_BATCHES, 'ReplaceComparisonOperator_Gt_NotEq', 'return self.producer_id > NO_PRODUCER_ID', _GAP_NO_PID, after='return self.producer_id != NO_PRODUCER_ID', scope='ProducerBatch.has_producer_id'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'if (batch.has_producer_id or batch.transactional) and self.message_format < 2:', _GAP_OLD_FORMAT, after='if not (batch.has_producer_id or batch.transactional) and self.message_format < 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'if (batch.has_producer_id or batch.transactional) and self.message_format < 2:', _GAP_OLD_FORMAT, after='if (batch.has_producer_id or batch.transactional) and self.message_format < 1:', scope='PartitionLog._validate_records'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Gt', 'if (batch.has_producer_id or batch.transactional) and self.message_format < 2:', _GAP_OLD_FORMAT, after='if (batch.has_producer_id or batch.transactional) and self.message_format > 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_NotEq', 'if (batch.has_producer_id or batch.transactional) and self.message_format < 2:', _GAP_OLD_FORMAT, after='if (batch.has_producer_id or batch.transactional) and self.message_format != 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceOrWithAnd', 'if (batch.has_producer_id or batch.transactional) and self.message_format < 2:', _GAP_OLD_FORMAT, after='if (batch.has_producer_id and batch.transactional) and self.message_format < 2:', scope='PartitionLog._validate_records'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_NotEq_Gt', 'if entry.base_offset != self.log_end_offset:', _GAP_FOLLOWER, after='if entry.base_offset > self.log_end_offset:', scope='PartitionLog.append_replicated'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_NotEq_Lt', 'if entry.base_offset != self.log_end_offset:', _GAP_FOLLOWER, after='if entry.base_offset < self.log_end_offset:', scope='PartitionLog.append_replicated'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if not offset >= self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Eq', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset == self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Gt', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset > self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Is', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset is self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_IsNot', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset is not self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Lt', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset < self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_LtE', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset <= self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_NotEq', 'if offset >= self.log_end_offset:', _GAP_TRUNCATION, after='if offset != self.log_end_offset:', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Eq', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset == offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Gt', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset > offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_GtE', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset >= offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Is', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset is offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_IsNot', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset is not offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_LtE', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset <= offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_NotEq', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_TRUNCATION, after='self.entries = [e for e in self.entries if e.last_offset != offset]', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset + 1 if not self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[- 0].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[- 2].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset + 0 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset + 2 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitAnd', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset & 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitOr', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset | 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitXor', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset ^ 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Div', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset / 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_FloorDiv', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset // 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_LShift', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset << 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Mod', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset % 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Mul', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset * 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Pow', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset ** 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_RShift', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset >> 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Sub', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[-1].last_offset - 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_Delete_USub', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_Invert', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[~1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_Not', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[not 1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_UAdd', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_TRUNCATION, after='self.log_end_offset = self.entries[+1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.truncate_to'),  # noqa: E501
    KnownGap(_LOG, 'ZeroIterationForLoop', 'for pid in expired:', _GAP_PERIODIC_EXPIRY, after='for pid in []:', scope='PartitionLog.expire_producers'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_NotEq', 'if self.log_end_offset > self.last_snapshot_offset:', _GAP_TRUNCATION, after='if self.log_end_offset != self.last_snapshot_offset:', scope='PartitionLog.take_snapshot'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Eq', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset == offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Gt', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset > offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_GtE', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset >= offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_Is', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset is offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_IsNot', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset is not offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_LtE', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset <= offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Lt_NotEq', 'self.entries = [e for e in self.entries if e.last_offset < offset]', _GAP_POWER_LOSS, after='self.entries = [e for e in self.entries if e.last_offset != offset]', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset + 1 if not self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[- 0].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[- 2].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset + 0 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'NumberReplacer', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset + 2 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitAnd', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset & 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitOr', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset | 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_BitXor', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset ^ 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Div', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset / 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_FloorDiv', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset // 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_LShift', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset << 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Mod', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset % 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Mul', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset * 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Pow', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset ** 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_RShift', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset >> 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceBinaryOperator_Add_Sub', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[-1].last_offset - 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_Delete_USub', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_Invert', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[~1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_Not', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[not 1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceUnaryOperator_USub_UAdd', 'self.log_end_offset = self.entries[-1].last_offset + 1 if self.entries else self.log_start_offset', _GAP_POWER_LOSS, after='self.log_end_offset = self.entries[+1].last_offset + 1 if self.entries else self.log_start_offset', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Eq', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o == self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Gt', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o > self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_GtE', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o >= self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Is', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o is self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_IsNot', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o is not self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Lt', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o < self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_NotEq', 'self.snapshots = {o: s for o, s in self.snapshots.items() if o <= self.log_end_offset}', _GAP_POWER_LOSS, after='self.snapshots = {o: s for o, s in self.snapshots.items() if o != self.log_end_offset}', scope='PartitionLog.lose_tail'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Eq', 'self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o <= end}', _GAP_TRUNCATION, after='self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o == end}', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_GtE', 'self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o <= end}', _GAP_TRUNCATION, after='self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o >= end}', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_LtE_Is', 'self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o <= end}', _GAP_TRUNCATION, after='self.snapshots = {o: s for o, s in self.snapshots.items() if start_of_log < o is end}', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Gt', 'and (self.profile.state_survives_log_start_advance or e.last_offset >= start_of_log)', _GAP_DELETE_CRASH, after='and (self.profile.state_survives_log_start_advance or e.last_offset > start_of_log)', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_IsNot', 'and (self.profile.state_survives_log_start_advance or e.last_offset >= start_of_log)', _GAP_DELETE_CRASH, after='and (self.profile.state_survives_log_start_advance or e.last_offset is not start_of_log)', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_NotEq', 'and (self.profile.state_survives_log_start_advance or e.last_offset >= start_of_log)', _GAP_DELETE_CRASH, after='and (self.profile.state_survives_log_start_advance or e.last_offset != start_of_log)', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'if end > start and had_state:', _GAP_TRUNCATION, after='if not end > start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceAndWithOr', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end > start or had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_Eq', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end == start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_GtE', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end >= start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_Is', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end is start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_IsNot', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end is not start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_Lt', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end < start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_LtE', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end <= start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_Gt_NotEq', 'if end > start and had_state:', _GAP_TRUNCATION, after='if end != start and had_state:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ZeroIterationForLoop', 'for entry in self.entries:', _GAP_TRUNCATION, after='for entry in []:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if not entry.last_offset >= start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceAndWithOr', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset >= start or entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Eq', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset == start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Gt', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset > start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Is', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset is start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_IsNot', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset is not start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Lt', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset < start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_LtE', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset <= start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_NotEq', 'if entry.last_offset >= start and entry.batch.has_producer_id:', _GAP_TRUNCATION, after='if entry.last_offset != start and entry.batch.has_producer_id:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'AddNot', 'if self.profile.snapshot_at_end_of_reload:', _GAP_TRUNCATION, after='if not self.profile.snapshot_at_end_of_reload:', scope='PartitionLog._reload'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Eq', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset == offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Gt', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset > offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Is', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset is offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_IsNot', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset is not offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_Lt', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset < offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_LtE', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset <= offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_LOG, 'ReplaceComparisonOperator_GtE_NotEq', 'return tuple(e for e in self.entries if e.base_offset >= offset)', _GAP_FOLLOWER, after='return tuple(e for e in self.entries if e.base_offset != offset)', scope='PartitionLog.entries_from'),  # noqa: E501
    KnownGap(_STATE, 'ReplaceComparisonOperator_Lt_LtE', 'return last != 0 and entry.first_seq != INT32_MAX and last < entry.first_seq', _GAP_WINDOW_EDGE_1_0, after='return last != 0 and entry.first_seq != INT32_MAX and last <= entry.first_seq', scope='_below_window'),  # noqa: E501
    KnownGap(_STATE, 'ReplaceComparisonOperator_GtE_Gt', 'return now_ms - entry.last_timestamp_ms >= expiration_ms', _GAP_WALL_CLOCK, after='return now_ms - entry.last_timestamp_ms > expiration_ms', scope='is_expired'),  # noqa: E501
    KnownGap(_PROFILE, 'RemoveDecorator', '@property', _GAP_TRUNCATION, after='(removed)', scope='BrokerProfile.snapshot_at_end_of_reload'),
    KnownGap(_PROFILE, 'RemoveDecorator', '@property', _GAP_OLD_FORMAT, after='(removed)', scope='BrokerProfile.supports_old_message_formats'),  # noqa: E501
    KnownGap(_PROFILE, 'ReplaceUnaryOperator_Delete_Not', 'return not self.version.at_least("4.0.0")', _GAP_OLD_FORMAT, after='return  self.version.at_least("4.0.0")', scope='BrokerProfile.supports_old_message_formats'),  # noqa: E501
    KnownGap(_PROFILE, 'NumberReplacer', 'return 86_400_000 if self.version.at_least("3.4.0") else 604_800_000', _GAP_WALL_CLOCK, after='return 86399999 if self.version.at_least("3.4.0") else 604_800_000', scope='BrokerProfile.default_producer_id_expiration_ms'),  # noqa: E501
    KnownGap(_PROFILE, 'NumberReplacer', 'return 86_400_000 if self.version.at_least("3.4.0") else 604_800_000', _GAP_WALL_CLOCK, after='return 86400001 if self.version.at_least("3.4.0") else 604_800_000', scope='BrokerProfile.default_producer_id_expiration_ms'),  # noqa: E501
    KnownGap(_PROFILE, 'NumberReplacer', 'return 86_400_000 if self.version.at_least("3.4.0") else 604_800_000', _GAP_WALL_CLOCK, after='return 86_400_000 if self.version.at_least("3.4.0") else 604799999', scope='BrokerProfile.default_producer_id_expiration_ms'),  # noqa: E501
    KnownGap(_PROFILE, 'NumberReplacer', 'return 86_400_000 if self.version.at_least("3.4.0") else 604_800_000', _GAP_WALL_CLOCK, after='return 86_400_000 if self.version.at_least("3.4.0") else 604800001', scope='BrokerProfile.default_producer_id_expiration_ms'),  # noqa: E501
)
"""Reviewed: the broker spec's survivors the suite cannot catch yet, each with the input it lacks."""
