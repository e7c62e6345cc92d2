"""What changed, release by release, in how Kafka runs transactions (KIP-98, KIP-890).

Each flag is one behaviour change with the ticket that made it, checked against
apache/kafka's release tags; the coordinator and partition rules read only these
flags, never version numbers.  Releases before 3.0.0 are not modelled (the real
brokers the kit drives start at 3.3; KIP-588's PRODUCER_FENCED, which 2.7
introduced, is assumed throughout).
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["OLDEST_TXN_RELEASE", "TxnProfile", "txn_profile"]

OLDEST_TXN_RELEASE = KafkaVersion(3, 0, 0)


@attrs.frozen
class TxnProfile:
    """The transaction semantics of one broker release, with the transaction protocol in use."""

    version: KafkaVersion
    transaction_version: int = 1
    """The ``transaction.version`` feature the run uses: 1 is KIP-98's protocol; 2 is KIP-890's
    second part (an epoch bump on every EndTxn, partitions added by Produce v12), which a
    broker offers from 4.0 (:attr:`offers_transaction_version_2`) and a client must ask for."""

    def __attrs_post_init__(self) -> None:
        if self.transaction_version not in (1, 2):
            raise ValueError(f"transaction.version is 1 or 2, not {self.transaction_version}")
        if self.transaction_version == 2 and not self.offers_transaction_version_2:
            raise ValueError(f"Kafka {self.version} has no transaction.version 2 (KIP-890 part 2 shipped in 4.0.0)")

    @property
    def verifies_partitions(self) -> bool:
        """KIP-890 part 1, KAFKA-14402 (3.6.0): before a leader appends a transactional batch
        for a producer with no transaction open on the partition, it asks the coordinator
        (AddPartitionsToTxn v4, ``verifyOnly``) whether the partition is in the producer's
        ongoing transaction, and refuses the batch if not (``transaction.partition.verification.enable``,
        default true).  Before, any transactional batch opened a transaction on the partition,
        which is how a late Produce left a hanging transaction."""
        return self.version.at_least("3.6.0")

    @property
    def abortable_verification(self) -> bool:
        """KAFKA-16314 (3.8.0): the coordinator answers a verification of a partition that is not
        in the transaction with TRANSACTION_ABORTABLE (120) rather than INVALID_TXN_STATE; the
        leader passes 120 on only to Produce v11+ and still answers older requests 48
        (``ProduceRequest.json`` at 3.8: "Version 11 adds support for new error code
        TRANSACTION_ABORTABLE")."""
        return self.version.at_least("3.8.0")

    @property
    def produce_version(self) -> int:
        """The Produce version the kit's scripts are sent with: v9 with transaction.version 1
        (every release from 3.0 takes it), v12 with 2 (the version that adds partitions to the
        transaction by itself)."""
        return 12 if self.transaction_version == 2 else 9

    @property
    def offers_transaction_version_2(self) -> bool:
        """KIP-890 part 2 (4.0.0): the ``transaction.version`` feature level 2."""
        return self.version.at_least("4.0.0")

    @property
    def bumps_epoch_per_transaction(self) -> bool:
        """KIP-890 part 2: with transaction.version 2 every EndTxn bumps the producer epoch; the
        markers carry the new epoch, so a Produce of the ended transaction arriving late is
        fenced on every partition by the epoch alone."""
        return self.transaction_version == 2

    @property
    def first_sequence_zero_with_version_2(self) -> bool:
        """KAFKA-18202 (4.1.0): with transaction.version 2, a producer with no state on the
        partition must start at sequence 0; a verified batch with another first sequence is
        OUT_OF_ORDER_SEQUENCE_NUMBER (``ProducerAppendInfo.checkSequence``, the check on a
        verification entry that supports the epoch bump).  With version 1, and before 4.1, any
        first sequence is accepted from a producer with no state (KIP-360)."""
        return self.transaction_version == 2 and self.version.at_least("4.1.0")

    def __str__(self) -> str:
        return f"transactions@{self.version} (transaction.version {self.transaction_version})"


def txn_profile(version: str | KafkaVersion, *, transaction_version: int = 1) -> TxnProfile:
    """The transaction profile of a release; releases before 3.0.0 are refused."""
    v = KafkaVersion.parse(version)
    if v < OLDEST_TXN_RELEASE:
        raise ValueError(f"transactions are modelled from Kafka {OLDEST_TXN_RELEASE} (asked for {v})")
    return TxnProfile(v, transaction_version)
