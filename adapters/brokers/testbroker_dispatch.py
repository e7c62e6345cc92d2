"""What the test broker answers to each request: the model decides, the codec encodes.

:class:`Dispatcher` is socket-free: it takes one request frame that arrived at
one broker and returns a :class:`Reply` saying what to write (if anything),
after how long, whether to close the connection, and which produce attempts
the written answer completes (so the server logs each ``Response`` event when
the bytes actually leave).  The server calls it under its lock.

Produce: every partition of a request goes through
:meth:`ClusterModel.produce`, so each is counted by the fault plan and logged.
One request is answered once, so when its partitions meet different faults the
most disruptive wins: any close closes, any lost answer loses the whole answer,
and the longest delay delays it.  acks=0 is never answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kafka_conformance.adapters.brokers import testbroker_codec as codec
from kafka_conformance.reference.broker.partition_log import ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.cluster.model import ClusterModel, ProduceOutcome
from kafka_conformance.reference.releases import KafkaVersion
from kafka_conformance.reference.traces.fault_plan import Action

__all__ = ["Dispatcher", "Reply"]

NONE = 0
OFFSET_OUT_OF_RANGE = 1
UNKNOWN_TOPIC_OR_PARTITION = 3
LEADER_NOT_AVAILABLE = 5
NOT_LEADER_OR_FOLLOWER = 6
UNSUPPORTED_VERSION = 35
INVALID_REQUEST = 42
INVALID_RECORD = 87
MAX_FETCH_WAIT_MS = 200
"""An empty Fetch is answered after min(max_wait_ms, this): long enough not to spin, short enough not to stall."""


@attrs.frozen
class Reply:
    data: bytes | None = None
    delay_ms: int = 0
    close: bool = False
    answered: tuple[tuple[int, ProduceResponse], ...] = ()
    """(attempt id, response) pairs to log with :meth:`ClusterModel.responded` once ``data`` is written."""
    note: str = ""
    """Why a request was refused or the connection closed (the server keeps these notes)."""
    lost: str = ""
    """``request`` or ``response`` when the fault plan lost this request or its answer: the
    connection then loses everything after it in that direction (TCP delivers in order or
    not at all), until the client gives up on it and reconnects."""


KIP_360 = KafkaVersion(2, 5, 0)
"""The first release whose InitProducerId (v3) lets an idempotent producer bump its own epoch."""

_NEWEST: tuple[tuple[str, dict[int, int]], ...] = (
    ("1.0.0", {0: 5, 1: 6, 2: 2, 3: 5, 18: 1, 21: 0, 22: 0}),
    ("1.1.0", {1: 7}),
    ("2.0.0", {0: 6, 1: 8, 2: 3, 3: 6, 18: 2, 21: 1, 22: 1}),
    ("2.1.0", {0: 7, 1: 10, 2: 4, 3: 7}),
    ("2.2.0", {2: 5}),
    ("2.3.0", {1: 11, 3: 8}),
    ("2.4.0", {0: 8, 3: 9, 18: 3, 22: 2}),
    ("2.5.0", {22: 3}),
    ("2.7.0", {1: 12, 22: 4}),
    ("2.8.0", {0: 9, 2: 6, 3: 11}),
    ("3.0.0", {2: 7}),
    ("3.1.0", {1: 13, 3: 12}),
    ("3.5.0", {1: 15, 2: 8}),
    ("3.7.0", {0: 10, 1: 16}),
    ("3.8.0", {0: 11, 22: 5}),
    ("3.9.0", {1: 17, 2: 9, 18: 4}),
    ("4.0.0", {0: 12, 2: 10, 3: 13}),
    ("4.1.0", {0: 13, 1: 18}),
    ("4.2.0", {2: 11}),
    ("4.4.0", {18: 5}),
)
"""The newest version of each API the test broker speaks that Apache Kafka's broker lists in
ApiVersions, from the release where it changed.  Read from the real brokers (every pinned
release from 1.0.1 to 4.4.0 started by the kit, ApiVersions asked; 2026-11-25): clients guess a
broker's release from these (kafka-python does) and take release-dependent paths."""


def newest_versions(release: KafkaVersion) -> dict[int, int]:
    """Per API key, the newest version Apache Kafka ``release`` serves (of those in :data:`_NEWEST`)."""
    newest: dict[int, int] = {}
    for since, changes in _NEWEST:
        if release < KafkaVersion.parse(since):
            break
        newest.update(changes)
    return newest


class Dispatcher:
    def __init__(self, model: ClusterModel, address: Callable[[int], tuple[str, int]]) -> None:
        self.model = model
        self.address = address
        self.topic = model.spec.topic

    def handle(self, broker: int, frame: bytes) -> Reply:
        try:
            header = codec.parse_header(frame)
        except ValueError as exc:
            return Reply(close=True, note=f"broker {broker}: {exc}")
        if not header.served or header.api_version > self._bounds().get(header.api_key, (0, -1))[1]:
            return self._unserved(broker, header)
        try:
            request = codec.decode_request(header, frame)
        except Exception as exc:  # kafka-python raises many types on a malformed body
            return Reply(close=True, note=f"broker {broker}: undecodable {header.api_name} v{header.api_version}: {exc!r}")
        handler = getattr(self, f"_{codec.API_NAMES[header.api_key].lower()}")
        reply: Reply = handler(broker, header, request)
        return reply

    def _encode(self, header: codec.RequestHeader, **fields: Any) -> bytes:
        return codec.encode_response(header.api_key, header.api_version, header.correlation_id, **fields)

    def _unserved(self, broker: int, header: codec.RequestHeader) -> Reply:
        if header.api_key == 18:  # KIP-511: answer an unknown ApiVersions version in the v0 layout
            data = codec.encode_response(
                18, 0, header.correlation_id, error_code=UNSUPPORTED_VERSION, api_keys=self._api_keys(), throttle_time_ms=0
            )
            return Reply(data, note=f"broker {broker}: ApiVersions v{header.api_version} unsupported; answered error 35 in v0")
        bounds = self._bounds().get(header.api_key)
        served = "not served" if bounds is None else f"served at v{bounds[0]}-v{bounds[1]} only"
        return Reply(close=True, note=f"broker {broker}: {header.api_name} v{header.api_version} {served}; connection closed")

    def _bounds(self) -> dict[int, tuple[int, int]]:
        """The versions this broker serves: what it decodes, capped at what the modelled
        release's broker lists (:data:`_NEWEST`).  A client reads its broker's release from
        them: before 2.5, for instance, InitProducerId stops at v2 (no epoch bump of the
        producer's own, KIP-360), and a client must start over with a new producer id, as
        against real 2.4 (kafka-python then stalls: docs/producer-conformance.md)."""
        newest = newest_versions(KafkaVersion.parse(self.model.spec.kafka_version))
        return {key: (lo, min(hi, newest.get(key, hi))) for key, (lo, hi) in codec.SERVED_VERSIONS.items()}

    def _api_keys(self) -> list[Any]:
        version = codec.kp().responses[18].ApiVersion
        return [version(api_key=k, min_version=lo, max_version=hi) for k, (lo, hi) in sorted(self._bounds().items())]

    # ------------------------------------------------------------------ ApiVersions, Metadata
    def _apiversions(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        return Reply(self._encode(header, error_code=NONE, api_keys=self._api_keys(), throttle_time_ms=0))

    def _metadata(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        cls = codec.kp().responses[3]
        meta = self.model.metadata()
        brokers = [cls.MetadataResponseBroker(node_id=b, host=self.address(b)[0], port=self.address(b)[1], rack=None) for b in meta.brokers]
        wanted = None if request.topics is None or (header.api_version == 0 and not request.topics) else [t.name for t in request.topics]
        topics = []
        for name in [self.topic] if wanted is None else wanted:
            if name != self.topic:
                topics.append(cls.MetadataResponseTopic(error_code=UNKNOWN_TOPIC_OR_PARTITION, name=name, is_internal=False, partitions=[]))
                continue
            partitions = [
                cls.MetadataResponseTopic.MetadataResponsePartition(
                    error_code=NONE if p.leader is not None else LEADER_NOT_AVAILABLE,
                    partition_index=p.partition,
                    leader_id=-1 if p.leader is None else p.leader,
                    leader_epoch=p.leader_epoch,
                    replica_nodes=list(p.replicas),
                    isr_nodes=list(p.isr),
                    offline_replicas=[b for b in p.replicas if b not in meta.brokers],
                )
                for p in meta.partitions
            ]
            topics.append(cls.MetadataResponseTopic(error_code=NONE, name=name, is_internal=False, partitions=partitions))
        data = self._encode(
            header, throttle_time_ms=0, brokers=brokers, cluster_id="kafka-conformance", controller_id=meta.controller, topics=topics
        )
        return Reply(data)

    # ------------------------------------------------------------------ InitProducerId
    def _initproducerid(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        if request.transactional_id is not None:
            data = self._encode(header, throttle_time_ms=0, error_code=INVALID_REQUEST, producer_id=-1, producer_epoch=-1)
            return Reply(data, note=f"broker {broker}: InitProducerId for transactional id {request.transactional_id!r}: not served")
        pid, epoch = (request.producer_id, request.producer_epoch) if header.api_version >= 3 else (-1, -1)
        result = self.model.init_producer_id(producer_id=pid, producer_epoch=epoch)
        data = self._encode(
            header, throttle_time_ms=0, error_code=result.error.code, producer_id=result.producer_id, producer_epoch=result.producer_epoch
        )
        return Reply(data)

    # ------------------------------------------------------------------ Produce
    def _produce(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        cls = codec.kp().responses[0]
        part_cls = cls.TopicProduceResponse.PartitionProduceResponse
        acks = request.acks
        if acks not in (-1, 0, 1):
            return Reply(close=True, note=f"broker {broker}: Produce with acks={acks}")
        outcomes: list[ProduceOutcome] = []
        topics, notes = [], []
        for topic in request.topic_data:
            answers = []
            for pdata in topic.partition_data:
                answer, outcome, note = self._produce_partition(broker, topic.name, pdata.index, pdata.records, acks)
                if outcome is not None:
                    outcomes.append(outcome)
                if note:
                    notes.append(note)
                answers.append(
                    part_cls(
                        index=pdata.index,
                        error_code=answer.error.code if isinstance(answer, ProduceResponse) else answer,
                        base_offset=answer.base_offset if isinstance(answer, ProduceResponse) else -1,
                        log_append_time_ms=-1,
                        log_start_offset=answer.log_start_offset if isinstance(answer, ProduceResponse) else -1,
                        record_errors=[],
                        error_message=None,
                    )
                )
            topics.append(cls.TopicProduceResponse(name=topic.name, partition_responses=answers))
        note = "; ".join(notes)
        if any(o.close_connection for o in outcomes):
            return Reply(close=True, note=note)
        lost = ""
        if any(o.action is Action.DROP_REQUEST for o in outcomes):
            lost = "request"
        elif any(o.action is Action.DROP_RESPONSE for o in outcomes):
            lost = "response"
        if acks == 0 or any(o.response is None for o in outcomes):
            return Reply(note=note, lost=lost)
        answered = tuple((o.attempt_id, o.response) for o in outcomes if o.response is not None)
        delay = max((o.delay_ms for o in outcomes), default=0)
        return Reply(self._encode(header, responses=topics, throttle_time_ms=0), delay, answered=answered, note=note)

    def _produce_partition(
        self, broker: int, topic: str, partition: int, records: bytes | None, acks: int
    ) -> tuple[ProduceResponse | int, ProduceOutcome | None, str]:
        if topic != self.topic or not 0 <= partition < self.model.spec.partitions:
            return UNKNOWN_TOPIC_OR_PARTITION, None, f"broker {broker}: Produce to unknown {topic}-{partition}"
        try:
            batches = codec.decode_batches(records)
        except Exception as exc:  # a corrupt batch: CRC, truncation, compression codec
            return INVALID_RECORD, None, f"broker {broker}: Produce {topic}-{partition}: {exc}"
        if len(batches) != 1:
            return INVALID_RECORD, None, f"broker {broker}: Produce {topic}-{partition} carries {len(batches)} batches, not one"
        outcome = self.model.produce(broker, partition, batches[0], acks)
        answer = outcome.response if outcome.response is not None else ProduceResponse(ProduceError.NONE)
        return answer, outcome, ""

    # ------------------------------------------------------------------ ListOffsets, Fetch
    def _leader_state(self, broker: int, topic: str, partition: int) -> tuple[int, Any, int]:
        """(error, leader log, high watermark) for a read of ``topic-partition`` at ``broker``."""
        if topic != self.topic or not 0 <= partition < self.model.spec.partitions:
            return UNKNOWN_TOPIC_OR_PARTITION, None, -1
        if self.model.leader(partition) != broker:
            return NOT_LEADER_OR_FOLLOWER, None, -1
        return NONE, self.model.leader_log(partition), self.model.high_watermark(partition)

    def _listoffsets(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        cls = codec.kp().responses[2].ListOffsetsTopicResponse
        topics = []
        for topic in request.topics:
            answers = []
            for p in topic.partitions:
                error, log, hw = self._leader_state(broker, topic.name, p.partition_index)
                offset = -1
                if error == NONE:
                    offset = log.log_start_offset if p.timestamp == -2 else hw
                epoch = self.model.metadata().partition(p.partition_index).leader_epoch if error == NONE else -1
                answers.append(
                    cls.ListOffsetsPartitionResponse(
                        partition_index=p.partition_index, error_code=error, timestamp=-1, offset=offset, leader_epoch=epoch
                    )
                )
            topics.append(cls(name=topic.name, partitions=answers))
        return Reply(self._encode(header, throttle_time_ms=0, topics=topics))

    def _deleterecords(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        cls = codec.kp().responses[21].DeleteRecordsTopicResult
        topics = []
        for topic in request.topics:
            answers = []
            for p in topic.partitions:
                error, low = UNKNOWN_TOPIC_OR_PARTITION, -1
                if topic.name == self.topic and 0 <= p.partition_index < self.model.spec.partitions:
                    accepted, low = self.model.delete_records(broker, p.partition_index, p.offset)
                    leads = self.model.leader(p.partition_index) == broker
                    error = NONE if accepted else (OFFSET_OUT_OF_RANGE if leads else NOT_LEADER_OR_FOLLOWER)
                answers.append(cls.DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=low,
                                                                error_code=error))
            topics.append(cls(name=topic.name, partitions=answers))
        return Reply(self._encode(header, throttle_time_ms=0, topics=topics))

    def _fetch(self, broker: int, header: codec.RequestHeader, request: Any) -> Reply:
        cls = codec.kp().responses[1].FetchableTopicResponse
        topics, found = [], 0
        for topic in request.topics:
            answers = []
            for p in topic.partitions:
                error, log, hw = self._leader_state(broker, topic.topic, p.partition)
                records, start = b"", -1
                if error == NONE:
                    start = log.log_start_offset
                    if not start <= p.fetch_offset <= log.log_end_offset:
                        error = OFFSET_OUT_OF_RANGE
                    else:
                        entries = [e for e in log.entries if e.last_offset >= p.fetch_offset and e.last_offset < hw]
                        records = codec.encode_entries(entries, p.partition_max_bytes)
                        found += len(records)
                answers.append(
                    cls.PartitionData(
                        partition_index=p.partition,
                        error_code=error,
                        high_watermark=hw,
                        last_stable_offset=hw,
                        log_start_offset=start,
                        aborted_transactions=[],
                        preferred_read_replica=-1,
                        records=records,
                    )
                )
            topics.append(cls(topic=topic.topic, partitions=answers))
        data = self._encode(header, throttle_time_ms=0, error_code=NONE, session_id=0, responses=topics)
        return Reply(data, 0 if found else min(max(request.max_wait_ms, 0), MAX_FETCH_WAIT_MS))

