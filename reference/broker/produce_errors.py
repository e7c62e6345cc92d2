"""The Produce response error codes the idempotence model uses, and what each says about the write.

The numeric codes are Kafka's wire codes (``Errors.java``), so a harness can
compare a real broker's ``ProduceResponse`` with the model's answer by number.

Two facts per code drive the delivery checker and any client model:

* ``appended``: whether the *attempt* that got this answer put the batch in the
  leader's log (``NO``, ``YES`` or ``MAYBE``).  A definite client failure may
  only be reported when every attempt got a ``NO`` (property G-DEF).
* ``retriable``: whether the Java client's exception for the code is a
  ``RetriableException``.  OUT_OF_ORDER_SEQUENCE_NUMBER and UNKNOWN_PRODUCER_ID
  are not, but the idempotent producer handles them specially (retry or epoch
  bump), see ``docs/spec/idempotence.md`` §2.1.

The lower-epoch answer is code 47 in every release: before 2.7 the Java
client mapped 47 to ``ProducerFencedException``; since KIP-588 and
KAFKA-10687 (both in 2.7.0) to ``InvalidProducerEpochException`` (``docs/spec/idempotence.md`` §1.6).  The wire code
never changed, only the exception class.
"""

from __future__ import annotations

import enum

__all__ = ["Appended", "ProduceError"]


class Appended(enum.Enum):
    """Whether one produce attempt that got a given answer wrote its batch."""

    NO = "no"
    YES = "yes"
    MAYBE = "maybe"


class ProduceError(enum.Enum):
    """Produce error codes: ``(wire code, appended, retriable)``."""

    NONE = (0, Appended.YES, False)
    UNKNOWN_SERVER_ERROR = (-1, Appended.MAYBE, False)
    CORRUPT_MESSAGE = (2, Appended.NO, True)
    """``InvalidRecordException`` was answered with this code before 2.4 (KIP-467)."""
    UNKNOWN_TOPIC_OR_PARTITION = (3, Appended.NO, True)
    NOT_LEADER_OR_FOLLOWER = (6, Appended.MAYBE, True)
    """MAYBE: a delayed acks=all produce is answered with it when leadership moves after the append."""
    REQUEST_TIMED_OUT = (7, Appended.MAYBE, True)
    """acks=all: appended to the leader, not replicated in time."""
    MESSAGE_TOO_LARGE = (10, Appended.NO, False)
    NETWORK_EXCEPTION = (13, Appended.MAYBE, True)
    """Client-side: the connection dropped before the response arrived."""
    RECORD_LIST_TOO_LARGE = (18, Appended.NO, False)
    NOT_ENOUGH_REPLICAS = (19, Appended.NO, True)
    NOT_ENOUGH_REPLICAS_AFTER_APPEND = (20, Appended.YES, True)
    """Written to the leader, but the ISR shrank below min.insync.replicas before the ack."""
    INVALID_REQUIRED_ACKS = (21, Appended.NO, False)
    TOPIC_AUTHORIZATION_FAILED = (29, Appended.NO, False)
    CLUSTER_AUTHORIZATION_FAILED = (31, Appended.NO, False)
    INVALID_TIMESTAMP = (32, Appended.NO, False)
    UNSUPPORTED_FOR_MESSAGE_FORMAT = (43, Appended.NO, False)
    OUT_OF_ORDER_SEQUENCE_NUMBER = (45, Appended.NO, False)
    DUPLICATE_SEQUENCE_NUMBER = (46, Appended.YES, False)
    """Only 1.0.0/1.0.1 brokers send it on Produce; clients treat it as success without an offset."""
    INVALID_PRODUCER_EPOCH = (47, Appended.NO, False)
    INVALID_TXN_STATE = (48, Appended.NO, False)
    KAFKA_STORAGE_ERROR = (56, Appended.MAYBE, True)
    UNKNOWN_PRODUCER_ID = (59, Appended.NO, False)
    INVALID_RECORD = (87, Appended.NO, False)

    @property
    def code(self) -> int:
        return self.value[0]

    @property
    def appended(self) -> Appended:
        return self.value[1]

    @property
    def retriable(self) -> bool:
        return self.value[2]

    @property
    def is_success(self) -> bool:
        """NONE and DUPLICATE_SEQUENCE_NUMBER both mean "the batch is in the log"."""
        return self in (ProduceError.NONE, ProduceError.DUPLICATE_SEQUENCE_NUMBER)

    def __repr__(self) -> str:
        return f"<ProduceError.{self.name}: {self.code}>"

    @classmethod
    def from_code(cls, code: int) -> ProduceError:
        for member in cls:
            if member.code == code:
                return member
        raise ValueError(f"no produce error with wire code {code}")
