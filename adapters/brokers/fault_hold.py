"""Held produce requests: the fault proxy's ``Action.HOLD``, a request delayed in the network
until a point of its transaction's life, then sent to the broker late.

Why a module of its own: the proxy's request and answer paths stay as they are; a hold only
needs to know which answers are points of a transaction's life (:func:`txn_answer_ok`) and how
to send a request the client has long given up on (:func:`send_late`).
"""

from __future__ import annotations

import socket
import struct
import time

import attrs

from kafka_conformance.reference.traces.fault_plan import ProduceRule

__all__ = ["ADD_PARTITIONS", "END_TXN", "HOLD_SEND_TIMEOUT_S", "PATH_HEALS_AFTER_S", "PRODUCE", "Held", "LateDelivery", "send_late",
           "txn_answer_ok"]

PRODUCE, ADD_PARTITIONS, END_TXN = 0, 24, 26
HOLD_SEND_TIMEOUT_S = 10.0
"""How long a held request's late answer is waited for."""
PATH_HEALS_AFTER_S = 10.0
"""The path to a held request's partitions comes back this long after the hold even if no EndTxn
was answered: a client that never gives an in-flight batch up (franz-go, aiokafka) then gets its
retry through and commits, instead of the row waiting for an end that cannot come.  Clients with
a delivery timeout (the rows set 3 s) give the batch up well before."""
_MAX_FRAME = 64 * 1024 * 1024


@attrs.frozen
class LateDelivery:
    """One partition's batch of a held produce request, sent to the broker at its release point, and
    what the broker answered for it."""

    values: tuple[str, ...]
    partition: int
    error: int | None
    """The broker's error code for the partition (0: written), None when it gave no answer."""
    base_offset: int = -1
    detail: str = ""


@attrs.define
class Held:
    frame: bytes
    api_version: int
    upstream: tuple[str, int]
    rule: ProduceRule
    values: tuple[tuple[int, tuple[str, ...]], ...]
    """(partition, the values its batch carries) for each partition of the request."""
    ended: bool = False
    """An EndTxn answer has passed since the request was held."""
    held_at: float = attrs.field(factory=time.monotonic)

    def cuts(self, partitions: set[int]) -> int | None:
        """The first of ``partitions`` whose path this hold keeps down now, if any."""
        if self.ended or time.monotonic() - self.held_at >= PATH_HEALS_AFTER_S:
            return None
        return next((p for p, _ in self.values if p in partitions), None)


def txn_answer_ok(api_key: int, frame: bytes, version: int) -> bool:
    """Whether an EndTxn, AddPartitionsToTxn or Produce answer carries no error: a refused one is no
    point of a transaction's life (CONCURRENT_TRANSACTIONS is answered while markers are still written)."""
    from kafka.protocol import producer  # type: ignore[import-untyped,import-not-found,unused-ignore]

    cls = {END_TXN: producer.EndTxnResponse, ADD_PARTITIONS: producer.AddPartitionsToTxnResponse,
           PRODUCE: producer.ProduceResponse}[api_key]
    try:
        response = cls[version].decode(frame, header=True)
    except Exception:  # an answer kafka-python cannot read is passed on untouched, and is no release point
        return False
    codes = [getattr(response, "error_code", 0)]
    for topic in getattr(response, "results_by_topic_v3_and_below", None) or ():
        codes.extend(r.partition_error_code for r in topic.results_by_partition)
    for txn in getattr(response, "results_by_transaction", None) or ():
        codes.extend(r.partition_error_code for t in txn.topic_results for r in t.results_by_partition)
    for topic in getattr(response, "responses", None) or ():
        codes.extend(p.error_code for p in topic.partition_responses)
    return not any(codes)


def read_frame(sock: socket.socket) -> bytes | None:
    head = sock.recv(4, socket.MSG_WAITALL)
    if len(head) < 4:
        return None
    (size,) = struct.unpack(">i", head)
    if not 0 < size <= _MAX_FRAME:
        return None
    body = sock.recv(size, socket.MSG_WAITALL)
    return body if len(body) == size else None


def send_late(held: Held, connect_timeout_s: float) -> list[LateDelivery]:
    """Send a held request on a connection of its own; what the broker answered for each partition."""
    from kafka.protocol.producer import ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    def unanswered(detail: str) -> list[LateDelivery]:
        return [LateDelivery(values, partition, None, detail=detail) for partition, values in held.values]

    try:
        with socket.create_connection(held.upstream, timeout=connect_timeout_s) as sock:
            sock.settimeout(HOLD_SEND_TIMEOUT_S)
            sock.sendall(struct.pack(">i", len(held.frame)) + held.frame)
            answer = read_frame(sock)
    except OSError as exc:
        return unanswered(f"could not be sent: {exc}")
    if answer is None:
        return unanswered("the broker gave no answer")
    response = ProduceResponse[held.api_version].decode(answer, header=True)
    codes = {int(part.index): (int(part.error_code), int(part.base_offset))
             for topic in response.responses for part in topic.partition_responses}
    return [LateDelivery(values, partition, *codes[partition]) if partition in codes
            else LateDelivery(values, partition, None, detail="the answer names no such partition")
            for partition, values in held.values]
