"""A small blocking Kafka client over one socket, for crafting requests a real producer never sends.

Broker conformance needs requests no client library will build: a batch with a
chosen producer id, epoch and base sequence, sent again, sent with a gap, sent
under a stale epoch.  This module speaks the wire protocol directly with
kafka-python 3.x's generated message classes (encode/decode with header and
framing) and its v2 record-batch builder, one request at a time, so every
answer is the broker's answer to exactly the bytes we chose.

Why it is careful:

* every connect and read has a timeout and a :class:`WireError` naming the
  broker, the request and what went wrong (never a hang, never a bare socket
  error);
* versions are negotiated from ApiVersions **v0**, whose reply layout every
  broker shares (the librdkafka mock answers a newer ApiVersions it dislikes in
  the flexible layout, which kafka-python cannot parse);
* a correlation id mismatch or an undecodable reply closes the connection, since
  the stream is then out of step;
* kafka-python is imported only inside functions here (the adapters package
  import must stay light).
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import struct
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch, increment_sequence

__all__ = [
    "API_CAPS",
    "FetchedBatch",
    "PartitionMetadata",
    "ProduceResult",
    "TopicMetadata",
    "WireClient",
    "WireError",
]

# The newest version of each API this client speaks, per API key.  Produce and
# Fetch stay below the versions that address topics by id (13, 13+).
API_CAPS: Mapping[int, int] = {
    0: 9,  # Produce
    1: 11,  # Fetch
    2: 5,  # ListOffsets
    3: 9,  # Metadata
    10: 3,  # FindCoordinator
    18: 0,  # ApiVersions (v0 on purpose, see the module docstring)
    19: 5,  # CreateTopics
    21: 1,  # DeleteRecords (v2 is flexible; v0 and v1 are the same fields)
    22: 4,  # InitProducerId
    24: 3,  # AddPartitionsToTxn (v4+ come from brokers only)
    26: 3,  # EndTxn
    43: 2,  # ElectLeaders
    45: 1,  # AlterPartitionReassignments
}
_API_NAMES = {0: "Produce", 1: "Fetch", 2: "ListOffsets", 3: "Metadata", 10: "FindCoordinator",
              18: "ApiVersions", 19: "CreateTopics", 21: "DeleteRecords", 22: "InitProducerId", 24: "AddPartitionsToTxn",
              26: "EndTxn", 43: "ElectLeaders", 45: "AlterPartitionReassignments"}
_MAX_FRAME = 64 * 1024 * 1024


class WireError(Exception):
    """The broker could not be reached, did not answer in time, or answered something unusable."""


@attrs.frozen
class ProduceResult:
    """The partition part of a ProduceResponse, as the broker sent it."""

    error_code: int
    base_offset: int
    log_start_offset: int
    error_message: str | None = None


@attrs.frozen
class PartitionMetadata:
    partition: int
    leader: int
    error_code: int
    replicas: tuple[int, ...] = ()
    isr: tuple[int, ...] = ()


@attrs.frozen
class TopicMetadata:
    name: str
    error_code: int
    partitions: tuple[PartitionMetadata, ...]


@attrs.frozen
class FetchedBatch:
    """One record batch read back, with each record's offset and value."""

    base_offset: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records: tuple[tuple[int, str], ...]
    """(offset, value) per record; values decoded as UTF-8 (``repr`` of the bytes if not)."""
    next_offset: int = -1
    """The offset after the batch's last offset (from its header, even if records were removed)."""

    def log_records(self) -> tuple[LogRecord, ...]:
        out = []
        for offset, value in self.records:
            seq = -1 if self.base_sequence < 0 else increment_sequence(self.base_sequence, offset - self.base_offset)
            out.append(LogRecord(offset, value, self.producer_id, self.producer_epoch, seq))
        return tuple(out)


KAFKA_PYTHON_MISSING = "the kit builds Kafka requests with kafka-python, which is not installed: pip install 'kafka-conformance[clients]'"


def _load_kafka() -> None:
    """Import the kafka-python modules this client uses, once (its 3.0 release warns of a deprecated
    ``importlib.resources`` call on import: not ours, so silenced); without it, a TargetError."""
    import importlib.util  # binds importlib too
    import warnings

    if importlib.util.find_spec("kafka") is None:
        from kafka_conformance.adapters.targets import Problem, TargetError
        raise TargetError(KAFKA_PYTHON_MISSING, Problem.UNAVAILABLE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for module in ("protocol.admin", "protocol.consumer", "protocol.metadata", "protocol.producer",
                       "record.default_records", "record.memory_records"):
            importlib.import_module(f"kafka.{module}")


def _decode_value(raw: bytes | None) -> str:
    if raw is None:
        return "<null>"
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return repr(raw)


def encode_batch(batch: ProducerBatch) -> bytes:
    """The v2 record batch bytes of ``batch`` (uncompressed, one record per value)."""
    _load_kafka()
    from kafka.record.default_records import DefaultRecordBatchBuilder  # type: ignore[import-untyped,import-not-found,unused-ignore]

    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=batch.transactional,
        producer_id=batch.producer_id, producer_epoch=batch.producer_epoch,
        base_sequence=batch.base_sequence, batch_size=1 << 30,
    )
    timestamp = batch.timestamp_ms if batch.timestamp_ms > 0 else int(time.time() * 1000)
    for offset, value in enumerate(batch.values):
        if builder.append(offset, timestamp, None, value.encode("utf-8"), []) is None:
            raise WireError(f"record {offset} of {batch.describe()} does not fit in one batch")
    return bytes(builder.build())


def decode_batches(data: bytes | None) -> tuple[FetchedBatch, ...]:
    """Every complete v2 batch in a fetched record set (a trailing partial batch is skipped; a
    control batch comes with no records)."""
    if not data:
        return ()
    _load_kafka()
    from kafka.record.memory_records import MemoryRecords  # type: ignore[import-untyped,import-not-found,unused-ignore]

    out = []
    records = MemoryRecords(bytes(data))
    while records.has_next():
        batch = records.next_batch()
        if batch is None:
            break
        if getattr(batch, "magic", 2) != 2:
            raise WireError(f"the broker returned a magic v{batch.magic} batch; only v2 is understood")
        # a transaction marker holds no records, but its offset counts: a reader moves past it
        items = () if batch.is_control_batch else tuple((r.offset, _decode_value(r.value)) for r in batch)
        out.append(FetchedBatch(batch.base_offset, batch.producer_id, batch.producer_epoch, batch.base_sequence, items,
                                batch.next_offset))
    return tuple(out)


class WireClient:
    """One connection to one broker; requests are sent and answered strictly one at a time."""

    def __init__(self, host: str, port: int, *, timeout_s: float = 10.0, client_id: str = "kafka-conformance",
                 login: Callable[[WireClient], None] | None = None) -> None:
        self.host = host
        self.port = port
        self.timeout_s = timeout_s
        self.client_id = client_id
        self._correlation = itertools.count(1)
        self._sock: socket.socket | None = None
        self.versions: dict[int, tuple[int, int]] = {}
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout_s)
        except OSError as exc:
            raise WireError(f"cannot connect to {host}:{port} within {timeout_s}s: {exc}") from exc
        self._sock.settimeout(timeout_s)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            _load_kafka()
            self.versions = self.api_versions()
            if login is not None:  # SASL (wire_auth.sasl_plain): after ApiVersions, before anything else
                login(self)
        except BaseException:
            self.close()
            raise

    # -- plumbing ----------------------------------------------------------------
    def close(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def version_for(self, api_key: int) -> int:
        """The newest version both sides speak; a WireError if there is none."""
        cap = API_CAPS[api_key]
        if api_key == 18:
            return 0
        if api_key not in self.versions:
            raise WireError(f"broker {self.address} does not offer {_API_NAMES[api_key]} (api key {api_key})")
        low, high = self.versions[api_key]
        chosen = min(cap, high)
        if chosen < low:
            raise WireError(f"broker {self.address} offers {_API_NAMES[api_key]} v{low}-v{high}; this client speaks up to v{cap}")
        return chosen

    def supports(self, api_key: int) -> bool:
        return api_key in self.versions

    def _recv_exact(self, n: int, what: str, timeout_s: float | None = None) -> bytes:
        assert self._sock is not None
        chunks = bytearray()
        while len(chunks) < n:
            try:
                chunk = self._sock.recv(n - len(chunks))
            except TimeoutError as exc:
                self.close()
                waited = self.timeout_s if timeout_s is None else timeout_s
                raise WireError(f"broker {self.address} did not answer {what} within {waited:g}s") from exc
            except OSError as exc:
                self.close()
                raise WireError(f"connection to {self.address} failed while reading {what}: {exc}") from exc
            if not chunk:
                self.close()
                raise WireError(f"broker {self.address} closed the connection instead of answering {what}")
            chunks += chunk
        return bytes(chunks)

    def request(self, request: Any, response_class: Any, version: int, *, timeout_s: float | None = None) -> Any:
        """Send one request at ``version`` and return the decoded response.

        ``timeout_s``: how long this answer may take, where it is longer than the connection's
        (a request whose own ``timeout_ms`` lets the broker hold the answer, such as an
        election or a reassignment in ZooKeeper mode, must be waited for at least that long)."""
        if self._sock is None:
            raise WireError(f"connection to {self.address} is closed")
        if timeout_s is None:
            return self._request(request, response_class, version, None)
        self._sock.settimeout(timeout_s)
        try:
            return self._request(request, response_class, version, timeout_s)
        finally:
            if self._sock is not None:
                self._sock.settimeout(self.timeout_s)

    def _request(self, request: Any, response_class: Any, version: int, timeout_s: float | None) -> Any:
        assert self._sock is not None
        what = f"{request.name} v{version}"
        correlation_id = next(self._correlation)
        request.API_VERSION = version
        request.with_header(correlation_id=correlation_id, client_id=self.client_id)
        data = request.encode(header=True, framed=True)
        try:
            self._sock.sendall(data)
        except OSError as exc:
            self.close()
            raise WireError(f"cannot send {what} to {self.address}: {exc}") from exc
        (size,) = struct.unpack(">i", self._recv_exact(4, what, timeout_s))
        if not 4 <= size <= _MAX_FRAME:
            self.close()
            raise WireError(f"broker {self.address} sent a {size}-byte frame in answer to {what}")
        body = self._recv_exact(size, what, timeout_s)
        (got,) = struct.unpack(">i", body[:4])
        if got != correlation_id:
            self.close()
            raise WireError(f"broker {self.address} answered correlation id {got} to {what} (sent {correlation_id})")
        try:
            return response_class[version].decode(body, header=True)
        except Exception as exc:
            self.close()
            raise WireError(f"cannot decode the {size}-byte answer of {self.address} to {what}: {exc}") from exc

    # -- operations --------------------------------------------------------------
    def api_versions(self) -> dict[int, tuple[int, int]]:
        from kafka.protocol.metadata import ApiVersionsRequest, ApiVersionsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        response = self.request(ApiVersionsRequest(), ApiVersionsResponse, 0)
        if response.error_code != 0:
            raise WireError(f"broker {self.address} answered ApiVersions v0 with error {response.error_code}")
        return {k.api_key: (k.min_version, k.max_version) for k in response.api_keys}

    def metadata(
        self, topics: Iterable[str] | None = None, *, auto_create: bool = False
    ) -> tuple[dict[int, tuple[str, int]], tuple[TopicMetadata, ...]]:
        """(brokers by node id as (host, port), topics)."""
        from kafka.protocol.metadata import MetadataRequest, MetadataResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        version = self.version_for(3)
        req = MetadataRequest(topics=None if topics is None else [MetadataRequest.MetadataRequestTopic(name=t) for t in topics])
        if version >= 4:
            req.allow_auto_topic_creation = auto_create
        response = self.request(req, MetadataResponse, version)
        brokers = {b.node_id: (b.host, b.port) for b in response.brokers}
        found = tuple(
            TopicMetadata(t.name, t.error_code, tuple(
                PartitionMetadata(p.partition_index, p.leader_id, p.error_code, tuple(p.replica_nodes or ()),
                                  tuple(p.isr_nodes or ()))
                for p in t.partitions))
            for t in response.topics
        )
        return brokers, found

    def controller_id(self) -> int:
        """The node Metadata names as the cluster's controller (-1: none known).  In ZooKeeper
        mode admin requests (CreateTopics, reassignments, elections) must go to it; a KRaft
        broker forwards them and names some live broker here."""
        from kafka.protocol.metadata import MetadataRequest, MetadataResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        version = self.version_for(3)
        if version < 1:
            return -1
        response = self.request(MetadataRequest(topics=[]), MetadataResponse, version)
        return int(getattr(response, "controller_id", -1))

    def create_topic(
        self, name: str, *, partitions: int = 1, replication_factor: int = 1, timeout_s: float = 10.0
    ) -> dict[int, int]:
        """Create ``name`` (CreateTopics when offered, else a Metadata auto-create), wait until every
        partition has a leader, and return the leader's node id per partition."""
        if self.supports(19):
            from kafka.protocol.admin import CreateTopicsRequest, CreateTopicsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

            topic = CreateTopicsRequest.CreatableTopic(
                name=name, num_partitions=partitions, replication_factor=replication_factor, assignments=[], configs=[]
            )
            req = CreateTopicsRequest(topics=[topic], timeout_ms=int(timeout_s * 1000))
            response = self.request(req, CreateTopicsResponse, self.version_for(19), timeout_s=timeout_s + 10.0)
            for result in response.topics:
                if result.error_code not in (0, 36):  # 36 TOPIC_ALREADY_EXISTS
                    detail = f"error {result.error_code} {result.error_message or ''}".rstrip()
                    raise WireError(f"broker {self.address} refused to create topic {name!r}: {detail}")
        return self.wait_for_leaders(name, partitions, timeout_s=timeout_s, auto_create=not self.supports(19))

    def wait_for_leaders(self, name: str, partitions: int, *, timeout_s: float = 10.0, auto_create: bool = False) -> dict[int, int]:
        deadline = time.monotonic() + timeout_s
        last = "no answer"
        while True:
            _, topics = self.metadata([name], auto_create=auto_create)
            for t in topics:
                if t.name == name:
                    leaders = {p.partition: p.leader for p in t.partitions if p.error_code == 0 and p.leader >= 0}
                    if t.error_code == 0 and len(leaders) >= partitions:
                        return leaders
                    last = f"topic error {t.error_code}, {len(leaders)} of {partitions} partitions with a leader"
            if time.monotonic() >= deadline:
                raise WireError(f"topic {name!r} on {self.address} has no leader after {timeout_s}s ({last})")
            time.sleep(0.01)

    def init_producer_id(self, transactional_id: str | None = None) -> tuple[int, int]:
        """A new (producer id, epoch) for an idempotent producer."""
        from kafka.protocol.producer import InitProducerIdRequest, InitProducerIdResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        version = self.version_for(22)
        req = InitProducerIdRequest(transactional_id=transactional_id, transaction_timeout_ms=60000)
        response = self.request(req, InitProducerIdResponse, version)
        if response.error_code != 0:
            raise WireError(f"broker {self.address} answered InitProducerId v{version} with error {response.error_code}")
        return response.producer_id, response.producer_epoch

    def produce(self, topic: str, partition: int, batch: ProducerBatch, *, acks: int = -1, timeout_ms: int = 10000) -> ProduceResult:
        """Send exactly ``batch`` (one v2 batch) and return the broker's answer for the partition."""
        from kafka.protocol.producer import ProduceRequest, ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        version = self.version_for(0)
        if version < 3:
            raise WireError(f"broker {self.address} has no Produce v3+ (needed for v2 batches)")
        part = ProduceRequest.TopicProduceData.PartitionProduceData(index=partition, records=encode_batch(batch))
        req = ProduceRequest(
            transactional_id=None, acks=acks, timeout_ms=timeout_ms,
            topic_data=[ProduceRequest.TopicProduceData(name=topic, partition_data=[part])],
        )
        # acks=-1: the broker may hold the answer for timeout_ms, waiting on the replicas
        response = self.request(req, ProduceResponse, version, timeout_s=timeout_ms / 1000 + 10.0)
        for t in response.responses:
            for p in t.partition_responses:
                if t.name == topic and p.index == partition:
                    lso = p.log_start_offset if version >= 5 else -1
                    return ProduceResult(p.error_code, p.base_offset, lso, getattr(p, "error_message", None))
        raise WireError(f"broker {self.address} answered Produce without partition {topic}-{partition}")

    def delete_records(self, topic: str, partition: int, before: int, *, timeout_ms: int = 10000) -> tuple[int, int]:
        """DeleteRecords (KIP-107): move the partition's log start offset up to ``before``;
        (error code, low watermark) as the broker answers them."""
        from kafka.protocol.admin import DeleteRecordsRequest, DeleteRecordsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        if not self.supports(21):
            raise WireError(f"broker {self.address} does not offer DeleteRecords (API key 21)")
        part = DeleteRecordsRequest.DeleteRecordsTopic.DeleteRecordsPartition(partition_index=partition, offset=before)
        req = DeleteRecordsRequest(topics=[DeleteRecordsRequest.DeleteRecordsTopic(name=topic, partitions=[part])],
                                   timeout_ms=timeout_ms)
        response = self.request(req, DeleteRecordsResponse, self.version_for(21), timeout_s=timeout_ms / 1000 + 10.0)
        for t in response.topics:
            for p in t.partitions:
                if t.name == topic and p.partition_index == partition:
                    return p.error_code, p.low_watermark
        raise WireError(f"broker {self.address} answered DeleteRecords without partition {topic}-{partition}")

    def list_offset(self, topic: str, partition: int, timestamp: int = -1, *, committed: bool = False) -> int:
        """ListOffsets: -1 latest (log end offset; read_committed: the last stable), -2 earliest (log start)."""
        from kafka.protocol.consumer import ListOffsetsRequest, ListOffsetsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        part = ListOffsetsRequest.ListOffsetsTopic.ListOffsetsPartition(partition_index=partition, timestamp=timestamp)
        req = ListOffsetsRequest(replica_id=-1, isolation_level=int(committed),
                                 topics=[ListOffsetsRequest.ListOffsetsTopic(name=topic, partitions=[part])])
        response = self.request(req, ListOffsetsResponse, self.version_for(2))
        for t in response.topics:
            for p in t.partitions:
                if t.name == topic and p.partition_index == partition:
                    if p.error_code != 0:
                        raise WireError(f"broker {self.address} answered ListOffsets for {topic}-{partition} with error {p.error_code}")
                    return int(p.offset)
        raise WireError(f"broker {self.address} answered ListOffsets without partition {topic}-{partition}")

    def fetch(
        self, topic: str, partition: int, offset: int = 0, *, max_bytes: int = 1 << 20, max_wait_ms: int = 100
    ) -> tuple[int, tuple[FetchedBatch, ...]]:
        """One Fetch from ``offset``: (high watermark, complete batches returned)."""
        from kafka.protocol.consumer import FetchRequest, FetchResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        version = self.version_for(1)
        part = FetchRequest.FetchTopic.FetchPartition(partition=partition, fetch_offset=offset, partition_max_bytes=max_bytes)
        req = FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=max_bytes, isolation_level=0,
                           topics=[FetchRequest.FetchTopic(topic=topic, partitions=[part])])
        response = self.request(req, FetchResponse, version)
        if version >= 7 and response.error_code != 0:
            raise WireError(f"broker {self.address} answered Fetch with error {response.error_code}")
        for t in response.responses:
            for p in t.partitions:
                if t.topic == topic and p.partition_index == partition:
                    if p.error_code != 0:
                        raise WireError(f"broker {self.address} answered Fetch for {topic}-{partition} with error {p.error_code}")
                    return int(p.high_watermark), decode_batches(p.records)
        raise WireError(f"broker {self.address} answered Fetch without partition {topic}-{partition}")

    def read_log(self, topic: str, partition: int, *, start: int = 0, timeout_s: float | None = None) -> tuple[LogRecord, ...]:
        """Every record from ``start`` up to the high watermark, fetched in as many rounds as needed."""
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        if self.list_offset(topic, partition) <= start:  # empty: no Fetch (it would wait for data)
            return ()
        records: list[LogRecord] = []
        offset = start
        while True:
            high, batches = self.fetch(topic, partition, offset)
            progressed = False
            for batch in batches:
                for record in batch.log_records():
                    if record.offset >= offset:
                        records.append(record)
                        offset = record.offset + 1
                        progressed = True
                if batch.next_offset > offset:
                    offset = batch.next_offset
                    progressed = True
            if offset >= high:
                return tuple(records)
            if not progressed:
                if time.monotonic() >= deadline:
                    raise WireError(f"broker {self.address}: reading {topic}-{partition} stalled at offset {offset} "
                                    f"below high watermark {high}")
                time.sleep(0.01)
