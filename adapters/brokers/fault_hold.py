"""Held produce requests: the fault proxy's ``Action.HOLD``, a request delayed in the network
until a point of its transaction's life, then sent to the broker late.

Why a module of its own: the proxy's request and answer paths stay as they are.  The proxy asks
:class:`Holds` three things: hold this request, is the path to these partitions down, and (with
every EndTxn, AddPartitionsToTxn and Produce answer, before the client sees it) which held
requests are due now; :class:`Holds` sends those itself and keeps the broker's answers.
Kafka's wire framing (:func:`read_frame`) is here too, shared with the proxy.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable

import attrs

from kafka_conformance.reference.traces.fault_plan import ProduceRule, Release

__all__ = ["ADD_PARTITIONS", "END_TXN", "HOLD_SEND_TIMEOUT_S", "MAX_FRAME", "PATH_HEALS_AFTER_S", "PRODUCE", "Holds",
           "LateDelivery", "read_frame", "txn_answer_ok"]

PRODUCE, ADD_PARTITIONS, END_TXN = 0, 24, 26
MAX_FRAME = 64 * 1024 * 1024
HOLD_SEND_TIMEOUT_S = 10.0
"""How long a held request's late answer is waited for."""
PATH_HEALS_AFTER_S = 10.0
"""The path to a held request's partitions comes back this long after the hold even if no EndTxn
was answered: a client that never gives an in-flight batch up (franz-go, aiokafka) then gets its
retry through and commits, instead of the row waiting for an end that cannot come.  Clients with
a delivery timeout (the rows set 3 s) give the batch up well before."""


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        try:
            chunk = sock.recv(n - len(buf))
        except OSError:
            return None
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def read_frame(sock: socket.socket) -> bytes | None:
    """One size-prefixed Kafka frame, or None when the connection ended (or sent nonsense)."""
    head = _recv_exact(sock, 4)
    if head is None:
        return None
    (size,) = struct.unpack(">i", head)
    if not 0 < size <= MAX_FRAME:
        return None
    return _recv_exact(sock, size)


@attrs.frozen
class LateDelivery:
    """One partition's batch of a held produce request, sent to the broker at its release point, and
    what the broker answered for it."""

    values: tuple[str, ...]
    partition: int
    error: int | None
    """The broker's error code for the partition (0: answered without an error), None when it gave none."""
    base_offset: int = -1
    detail: str = ""


@attrs.define
class _Held:
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
        if not self.rule.cut or self.ended or time.monotonic() - self.held_at >= PATH_HEALS_AFTER_S:
            return None
        return next((p for p, _ in self.values if p in partitions), None)


class Holds:
    """The requests a proxy holds, and what the broker answered those it sent late (:attr:`late`).

    ``settle`` is called before a request held until ``after-end`` is sent: it waits until the
    ended transaction's markers are in the logs (Kafka answers EndTxn before it writes them) and
    says whether they are."""

    def __init__(self, connect_timeout_s: float, settle: Callable[[], bool] | None = None) -> None:
        self.connect_timeout_s = connect_timeout_s
        self.settle = settle
        self.late: list[LateDelivery] = []
        self.made = 0
        """How many requests were held: a row whose hold never fired is not evidence."""
        self._held: list[_Held] = []
        self._lock = threading.Lock()

    def hold(self, frame: bytes, api_version: int, upstream: tuple[str, int], rule: ProduceRule,
             values: dict[int, list[str]]) -> None:
        with self._lock:
            self._held.append(_Held(frame, api_version, upstream, rule, tuple((p, tuple(v)) for p, v in sorted(values.items()))))
            self.made += 1

    def cut(self, partitions: set[int]) -> int | None:
        """A partition among ``partitions`` whose path a hold keeps down now (its requests are dropped)."""
        with self._lock:
            return next((p for h in self._held if (p := h.cuts(partitions)) is not None), None)

    def pending(self) -> int:
        """Held requests with a release point still waiting for it."""
        with self._lock:
            return sum(h.rule.release is not Release.NEVER for h in self._held)

    def on_answer(self, api_key: int, frame: bytes, version: int) -> None:
        """Called with each EndTxn, AddPartitionsToTxn and Produce answer, before the client sees it:
        the held requests whose release point the answer reaches are sent now and answered, so the
        order is the same on every run.  Nothing here raises: what went wrong is the delivery's detail."""
        if not self._held or not txn_answer_ok(api_key, frame, version):
            return
        with self._lock:
            due = []
            for held in self._held:
                if api_key == END_TXN and not held.ended:
                    held.ended = True
                    if held.rule.release is Release.AFTER_END:
                        due.append(held)
                elif api_key != END_TXN and held.ended and held.rule.release is Release.INTO_NEXT:
                    due.append(held)
            self._held = [h for h in self._held if h not in due and not (h.ended and h.rule.release is Release.NEVER)]
        for held in due:
            note = ""
            if held.rule.release is Release.AFTER_END and self.settle is not None:
                try:
                    settled = self.settle()
                except Exception as exc:  # a broker that stopped answering: the late send says what happens
                    settled, note = False, f"the markers could not be awaited: {exc}"
                note = note or ("" if settled else "sent before the ended transaction's markers were in the log")
            self.late.extend(self._send(held, note))

    def _send(self, held: _Held, note: str) -> list[LateDelivery]:
        """Send a held request on a connection of its own; what the broker answered for each partition."""
        from kafka.protocol.producer import ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        def unanswered(detail: str) -> list[LateDelivery]:
            return [LateDelivery(values, partition, None, detail="; ".join(d for d in (note, detail) if d))
                    for partition, values in held.values]

        try:
            with socket.create_connection(held.upstream, timeout=self.connect_timeout_s) as sock:
                sock.settimeout(HOLD_SEND_TIMEOUT_S)
                sock.sendall(struct.pack(">i", len(held.frame)) + held.frame)
                answer = read_frame(sock)
            if answer is None:
                return unanswered("the broker gave no answer")
            response = ProduceResponse[held.api_version].decode(answer, header=True)
        except Exception as exc:  # OSError, or an answer kafka-python cannot read
            return unanswered(f"could not be sent or read: {exc}")
        codes = {int(part.index): (int(part.error_code), int(part.base_offset))
                 for topic in response.responses for part in topic.partition_responses}
        return [LateDelivery(values, partition, *codes[partition], detail=note) if partition in codes
                else LateDelivery(values, partition, None, detail="the answer names no such partition")
                for partition, values in held.values]


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
