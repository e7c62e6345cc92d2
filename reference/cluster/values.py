"""The frozen values a :class:`~cluster_model.ClusterModel` hands out.

They cross the boundary to the socket layer (the test broker encodes them on
the wire) and to the in-process model engine, so each is a frozen attrs class
that says everything the caller needs without reaching back into the model.
"""

from __future__ import annotations

import enum

import attrs

from kafka_conformance.reference.broker.partition_log import ProduceResponse
from kafka_conformance.reference.traces.fault_plan import Action, ProduceRule

__all__ = [
    "ClusterMetadata",
    "InitProducerIdError",
    "InitProducerIdResult",
    "PartitionMetadata",
    "ProduceOutcome",
]


@attrs.frozen
class PartitionMetadata:
    """One partition as a Metadata response shows it; ``leader`` None while it has none."""

    partition: int
    leader: int | None
    leader_epoch: int
    replicas: tuple[int, ...]
    isr: tuple[int, ...]


@attrs.frozen
class ClusterMetadata:
    """What a Metadata request to any live broker answers."""

    topic: str
    brokers: tuple[int, ...]
    """Live brokers only: a crashed broker is not advertised (its listener refuses clients)."""
    controller: int
    partitions: tuple[PartitionMetadata, ...]

    def partition(self, partition: int) -> PartitionMetadata:
        return self.partitions[partition]


class InitProducerIdError(enum.Enum):
    """The InitProducerId answers the model gives (wire codes of ``Errors.java``)."""

    NONE = 0
    INVALID_REQUEST = 42
    """v3+: one of producer id / epoch given without the other (``KafkaApis``)."""

    @property
    def code(self) -> int:
        return self.value


@attrs.frozen
class InitProducerIdResult:
    error: InitProducerIdError
    producer_id: int = -1
    producer_epoch: int = -1
    rule: str = ""


@attrs.frozen
class ProduceOutcome:
    """What the cluster did with one produce request for one partition, and what to answer.

    ``result`` is the broker's own answer (None when the request never reached the
    partition: dropped, disconnected, or an injected error); ``response`` is what the
    caller must send after ``delay_ms`` (None: send nothing, as for acks=0 or a dropped
    response).  When ``close_connection`` is set the caller closes the client's
    connection instead of (or after not) answering.  The caller logs the answer with
    :meth:`ClusterModel.responded` when it actually leaves.
    """

    attempt_id: int
    rule: ProduceRule
    result: ProduceResponse | None
    response: ProduceResponse | None
    delay_ms: int = 0
    close_connection: bool = False

    @property
    def action(self) -> Action:
        return self.rule.action
