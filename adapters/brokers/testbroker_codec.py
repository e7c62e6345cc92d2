"""The test broker's wire codec: kafka-python 3.x's generated messages and v2 record batches.

kafka-python ships Apache Kafka's own message schemas with an encoder and a
decoder for requests *and* responses, so the test broker never hand-writes a
byte of the protocol: it parses a request header with :mod:`struct` only to
pick the message class, then lets that class decode the request and encode
the answer.  kafka-python is imported inside :func:`kp` (once, cached), so
importing the adapters package stays light.

Record batches: a Produce v3+ partition carries one magic-2 batch; its
producer id, epoch, base sequence and record values become a
:class:`~kafka_conformance.reference.broker.batches.ProducerBatch` (values decoded as
UTF-8, undecodable bytes kept with ``surrogateescape`` so they round-trip; a
null value reads as the empty string).  Fetch answers rebuild each stored batch
with the same stamps at its log offset.
"""

from __future__ import annotations

import functools
import struct
import warnings
from collections.abc import Iterable, Mapping
from types import SimpleNamespace
from typing import Any

from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.partition_log import LogEntry

__all__ = [
    "API_NAMES",
    "SERVED_VERSIONS",
    "BatchError",
    "RequestHeader",
    "decode_batches",
    "decode_request",
    "encode_entries",
    "encode_response",
    "kp",
    "parse_header",
]

API_NAMES: Mapping[int, str] = {
    0: "Produce", 1: "Fetch", 2: "ListOffsets", 3: "Metadata", 18: "ApiVersions", 21: "DeleteRecords", 22: "InitProducerId",
}

SERVED_VERSIONS: Mapping[int, tuple[int, int]] = {
    0: (3, 12),  # Produce: v3 is the first with v2 batches; v13 addresses topics by id
    1: (4, 12),  # Fetch: v13 addresses topics by id
    2: (1, 8),  # ListOffsets
    3: (0, 12),  # Metadata: v13 is not needed by any client here
    18: (0, 4),  # ApiVersions (v3+ flexible)
    21: (0, 1),  # DeleteRecords (v2 is flexible, the same fields)
    22: (0, 5),  # InitProducerId (aiokafka pins v0)
}
"""What ApiVersions advertises and what the broker decodes; anything else closes the connection."""

MAX_FRAME = 64 * 1024 * 1024


class BatchError(ValueError):
    """A Produce partition whose records are not exactly one well-formed v2 batch."""


@functools.cache
def kp() -> SimpleNamespace:
    """kafka-python's message classes and record helpers (imported once, on first use)."""
    # kafka-python reads its message schemas with a deprecated importlib call at import;
    # that warning is about kafka-python, not us, and must not fail runs with warnings as errors.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from kafka.protocol.admin import DeleteRecordsRequest, DeleteRecordsResponse  # type: ignore[import-untyped,unused-ignore]
        from kafka.protocol.consumer import FetchRequest, FetchResponse, ListOffsetsRequest, ListOffsetsResponse  # type: ignore[import-untyped,unused-ignore]
        from kafka.protocol.metadata import ApiVersionsRequest, ApiVersionsResponse, MetadataRequest, MetadataResponse  # type: ignore[import-untyped,unused-ignore]
        from kafka.protocol.producer import InitProducerIdRequest, InitProducerIdResponse, ProduceRequest, ProduceResponse  # type: ignore[import-untyped,unused-ignore]
        from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder  # type: ignore[import-untyped,unused-ignore]
        from kafka.record.memory_records import MemoryRecords  # type: ignore[import-untyped,unused-ignore]

    return SimpleNamespace(
        requests={
            0: ProduceRequest,
            1: FetchRequest,
            2: ListOffsetsRequest,
            3: MetadataRequest,
            18: ApiVersionsRequest,
            21: DeleteRecordsRequest,
            22: InitProducerIdRequest,
        },
        responses={
            0: ProduceResponse,
            1: FetchResponse,
            2: ListOffsetsResponse,
            3: MetadataResponse,
            18: ApiVersionsResponse,
            21: DeleteRecordsResponse,
            22: InitProducerIdResponse,
        },
        DefaultRecordBatch=DefaultRecordBatch,
        DefaultRecordBatchBuilder=DefaultRecordBatchBuilder,
        MemoryRecords=MemoryRecords,
    )


class RequestHeader:
    """The three leading header fields every request version shares."""

    __slots__ = ("api_key", "api_version", "correlation_id")

    def __init__(self, api_key: int, api_version: int, correlation_id: int) -> None:
        self.api_key = api_key
        self.api_version = api_version
        self.correlation_id = correlation_id

    @property
    def api_name(self) -> str:
        return API_NAMES.get(self.api_key, f"api key {self.api_key}")

    @property
    def served(self) -> bool:
        bounds = SERVED_VERSIONS.get(self.api_key)
        return bounds is not None and bounds[0] <= self.api_version <= bounds[1]


def parse_header(frame: bytes) -> RequestHeader:
    if len(frame) < 8:
        raise ValueError(f"request of {len(frame)} bytes is shorter than a request header")
    api_key, api_version, correlation_id = struct.unpack_from(">hhi", frame, 0)
    return RequestHeader(api_key, api_version, correlation_id)


def decode_request(header: RequestHeader, frame: bytes) -> Any:
    """The request body as kafka-python's message object (header included)."""
    return kp().requests[header.api_key].decode(frame, version=header.api_version, header=True)


def encode_response(api_key: int, version: int, correlation_id: int, **fields: Any) -> bytes:
    """One framed response of ``api_key`` at ``version`` with the given top-level fields."""
    message = kp().responses[api_key][version](**fields)
    message.with_header(correlation_id=correlation_id)
    return bytes(message.encode(header=True, framed=True))


def decode_batches(records: bytes | None) -> list[ProducerBatch]:
    """Every batch of one Produce partition as the model's :class:`ProducerBatch`."""
    if not records:
        return []
    k = kp()
    memory = k.MemoryRecords(bytes(records))
    out = []
    while memory.has_next():
        batch = memory.next_batch()
        if batch is None:
            break
        if not isinstance(batch, k.DefaultRecordBatch):
            raise BatchError("a magic v0/v1 message set: Produce v3+ carries only magic v2 batches")
        values = [_text(r.value) for r in batch]
        if not values:
            raise BatchError("an empty record batch")
        out.append(
            ProducerBatch(
                batch.producer_id,
                batch.producer_epoch,
                batch.base_sequence,
                tuple(values),
                timestamp_ms=max(batch.max_timestamp, 0),
                transactional=batch.is_transactional,
                magic=batch.magic,
            )
        )
    return out


def _text(value: bytes | None) -> str:
    return "" if value is None else bytes(value).decode("utf-8", "surrogateescape")


_BATCH_OFFSET = struct.Struct(">q")
_LEADER_EPOCH = struct.Struct(">i")


@functools.lru_cache(maxsize=65536)
def _encode_entry(entry: LogEntry) -> bytes:
    batch = entry.batch
    builder = kp().DefaultRecordBatchBuilder(
        magic=2,
        compression_type=0,
        is_transactional=batch.transactional,
        producer_id=batch.producer_id,
        producer_epoch=batch.producer_epoch,
        base_sequence=batch.base_sequence,
        batch_size=1 << 30,
    )
    for delta, value in enumerate(batch.values):
        builder.append(delta, max(batch.timestamp_ms, 0), None, value.encode("utf-8", "surrogateescape"), [])
    data = builder.build()
    # base offset and partition leader epoch lie outside the CRC (it starts at the attributes)
    _BATCH_OFFSET.pack_into(data, 0, entry.base_offset)
    _LEADER_EPOCH.pack_into(data, 12, entry.leader_epoch)
    return bytes(data)


def encode_entries(entries: Iterable[LogEntry], max_bytes: int) -> bytes:
    """Stored batches as the records of a Fetch partition: at least one batch, then up to ``max_bytes``."""
    out = bytearray()
    for entry in entries:
        data = _encode_entry(entry)
        if out and len(out) + len(data) > max_bytes:
            break
        out += data
    return bytes(out)
