"""What changed, release by release, in how a broker handles idempotent batches.

Each flag below is one behaviour change with the ticket that made it, checked
against the apache/kafka tags (``git tag --contains``).  The producer-state
rules in :mod:`producer_state` read only these flags, never version numbers, so
each rule can be checked against one ticket at a time.

Releases before 1.0.0 (0.11.x kept only the last batch and forced one request
in flight) are not modelled.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.releases import KafkaVersion, fixed_in

__all__ = ["OLDEST_BROKER", "BrokerProfile", "broker_profile"]

OLDEST_BROKER = KafkaVersion(1, 0, 0)
"""KAFKA-5494 (1.0.0): the five-batch window and up to five requests in flight."""


def _since(version: KafkaVersion, *firsts: str) -> bool:
    """True when ``version`` has a change shipped as each of ``firsts`` on its own
    minor line (backports) or, on any later line, from the last of them."""
    for first in map(KafkaVersion.parse, firsts):
        if (version.major, version.minor) == (first.major, first.minor):
            return version >= first
    return version >= KafkaVersion.parse(firsts[-1])


@attrs.frozen
class BrokerProfile:
    """The idempotent-produce semantics of one broker release."""

    version: KafkaVersion

    @property
    def window_size(self) -> int:
        """``NUM_BATCHES_TO_RETAIN``: metadata of the last 5 batches per producer (KAFKA-5494, 1.0.0)."""
        return 5

    @property
    def duplicate_sequence_below_window(self) -> bool:
        """1.0.0 and 1.0.1 answer DUPLICATE_SEQUENCE_NUMBER (46) to a same-epoch batch whose
        last sequence lies below the oldest cached batch.  KAFKA-6683 removed that branch
        (1.0.2, 1.1.0); later brokers answer OUT_OF_ORDER_SEQUENCE_NUMBER."""
        return not _since(self.version, "1.0.2", "1.1.0")

    @property
    def unknown_producer_on_empty_state(self) -> bool:
        """Before 2.5 a producer id with no state and a non-zero first sequence gets
        UNKNOWN_PRODUCER_ID (59).  From 2.5 (KIP-360, KAFKA-8710) any first sequence is accepted."""
        return not self.version.at_least("2.5.0")

    @property
    def unknown_producer_when_sequence_unknown(self) -> bool:
        """KAFKA-7298 (2.0.1, 2.1.0): same epoch but no cached sequence (only a transaction
        marker left) and a non-zero sequence → UNKNOWN_PRODUCER_ID instead of
        OUT_OF_ORDER_SEQUENCE_NUMBER; gone with KIP-360 in 2.5, where "no epoch" accepts anything."""
        return _since(self.version, "2.0.1", "2.1.0") and self.unknown_producer_on_empty_state

    @property
    def fresh_partition_requires_sequence_zero(self) -> bool:
        """KAFKA-15591 (apache/kafka PR #23234): a partition whose log never held a record
        accepts only first sequence 0 from an unknown producer.  Dated 4.5 after franz-go
        PR #1417; not checked against a release tag [uncertain]."""
        return self.version.at_least("4.5.0")

    @property
    def state_survives_log_start_advance(self) -> bool:
        """KAFKA-7190 (2.4.0, KIP-360): producer state outlives the deletion of the producer's
        records (retention, DeleteRecords) until it expires.  Before, a producer whose last
        offset fell below the log start offset was dropped at once."""
        return self.version.at_least("2.4.0")

    @property
    def snapshot_at_end_of_reload(self) -> bool:
        """KAFKA-7076 (2.0.0): rebuilding producer state (at load and on every truncation) ends
        with a snapshot at the offset it rebuilt to (``Log.scala@2.0.0``, ``loadProducerState``;
        ``UnifiedLog.scala@3.9.0-rc3:2277-2278``).  1.0 and 1.1 took none there
        (``Log.scala@1.0.1:505-520``), so a later reload went back to an older snapshot."""
        return self.version.at_least("2.0.0")

    @property
    def wrapped_batch_offset_bug(self) -> bool:
        """KAFKA-7692 (2.1.1 and 2.2.0; ``ProducerStateManager.scala`` ``BatchMetadata.firstSeq``
        at 2.1.0 versus 2.1.1): before, the first sequence of a cached batch was its last minus its
        offset delta without the Int.MAX wrap, so a duplicate of a batch spanning the wrap
        answered a wrong first offset."""
        return not fixed_in(self.version, "2.1.1", "2.2.0")

    @property
    def supports_old_message_formats(self) -> bool:
        """Message formats v0/v1 were removed in 4.0 (KIP-724)."""
        return not self.version.at_least("4.0.0")

    @property
    def invalid_record_is_its_own_code(self) -> bool:
        """KIP-467 (2.4.0): ``InvalidRecordException`` is answered as INVALID_RECORD (87);
        before it was CORRUPT_MESSAGE (2) [inferred from Errors.java history]."""
        return self.version.at_least("2.4.0")

    @property
    def invalid_record_carries_log_start(self) -> bool:
        """KIP-467 (2.4.0): a batch refused by record validation is answered with the
        partition's log start offset.  Before, ``InvalidRecordException`` was a
        ``CorruptRecordException``, which ``ReplicaManager.appendToLocalLog`` answers with
        ``LogAppendInfo.UnknownLogAppendInfo``: log start offset -1
        (``core/src/main/scala/kafka/server/ReplicaManager.scala@2.3.1:782-785``).  Found by
        real Kafka 2.3.1 and 1.1.1 brokers under ``check broker``."""
        return self.version.at_least("2.4.0")

    @property
    def producer_id_expiration_key(self) -> str:
        """KIP-854 (3.4.0) split ``producer.id.expiration.ms`` from ``transactional.id.expiration.ms``."""
        return "producer.id.expiration.ms" if self.version.at_least("3.4.0") else "transactional.id.expiration.ms"

    @property
    def default_producer_id_expiration_ms(self) -> int:
        """1 day since 3.4 (KIP-854); before, the transactional-id expiry of 7 days."""
        return 86_400_000 if self.version.at_least("3.4.0") else 604_800_000

    @property
    def lower_epoch_exception(self) -> str:
        """The Java exception the client builds from code 47 (KIP-588, 2.7)."""
        if self.version.at_least("2.7.0"):
            return "org.apache.kafka.common.errors.InvalidProducerEpochException"
        return "org.apache.kafka.common.errors.ProducerFencedException"

    def __str__(self) -> str:
        return f"broker@{self.version}"


def broker_profile(version: str | KafkaVersion) -> BrokerProfile:
    """The profile of a broker release; releases before 1.0.0 are refused."""
    v = KafkaVersion.parse(version)
    if v < OLDEST_BROKER:
        raise ValueError(f"broker releases before {OLDEST_BROKER} are not modelled (asked for {v})")
    return BrokerProfile(v)
