"""A tiny blocking client for crafted requests: kafka-python's message classes over one socket.

Kept separate from the kit's own wire client on purpose: these tests pin the
test broker's bytes against kafka-python's encoders and decoders directly.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import warnings
from collections.abc import Iterator
from typing import Any

from kafka_conformance.reference.broker.batches import ProducerBatch

TIMEOUT_S = 10.0


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def protocol() -> Any:
    """The kafka.protocol modules (imported quietly: kafka-python warns about its own importlib use)."""
    with quiet():
        import kafka.protocol.consumer as consumer
        import kafka.protocol.metadata as metadata
        import kafka.protocol.producer as producer
    return type("P", (), {"consumer": consumer, "metadata": metadata, "producer": producer})


def batch_bytes(batch: ProducerBatch) -> bytes:
    with quiet():
        from kafka.record.memory_records import MemoryRecordsBuilder
    builder = MemoryRecordsBuilder(
        2, 0, 1 << 20, producer_id=batch.producer_id, producer_epoch=batch.producer_epoch, base_sequence=batch.base_sequence
    )
    for value in batch.values:
        builder.append(batch.timestamp_ms, None, value.encode())
    builder.close()
    return bytes(builder.buffer())


class Raw:
    """One connection; :meth:`call` sends a request object and decodes the answer."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
        self.correlation = 0

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Raw:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, request: Any, version: int) -> int:
        self.correlation += 1
        request.API_VERSION = version
        request.with_header(correlation_id=self.correlation, client_id="tb-raw")
        self.sock.sendall(bytes(request.encode(header=True, framed=True)))
        return self.correlation

    def send_bytes(self, api_key: int, version: int, body: bytes = b"") -> int:
        """A request header (v1 layout) plus raw body: for APIs or versions kafka-python would refuse to build."""
        self.correlation += 1
        payload = struct.pack(">hhih", api_key, version, self.correlation, 6) + b"tb-raw" + body
        self.sock.sendall(struct.pack(">i", len(payload)) + payload)
        return self.correlation

    def receive_frame(self) -> bytes | None:
        """One response frame, or None when the broker closed (or reset) the connection."""
        head = self._exact(4)
        if head is None:
            return None
        (size,) = struct.unpack(">i", head)
        return self._exact(size)

    def receive(self, response_class: Any, version: int) -> Any:
        frame = self.receive_frame()
        assert frame is not None, "the broker closed the connection"
        return response_class.decode(frame, version=version, header=True)

    def call(self, request: Any, response_class: Any, version: int) -> Any:
        correlation = self.send(request, version)
        answer = self.receive(response_class, version)
        assert answer.header.correlation_id == correlation
        return answer

    def _exact(self, n: int) -> bytes | None:
        data = b""
        while len(data) < n:
            try:
                chunk = self.sock.recv(n - len(data))
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            data += chunk
        return data
