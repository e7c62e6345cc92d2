"""A fault-injecting Kafka proxy on 127.0.0.1, so a real client and a real broker run under a fault plan.

The test broker decides faults inside the broker; against a real broker the
same :class:`~kafka_conformance.reference.traces.fault_plan.FaultPlan` is applied on
the wire instead.  The proxy sits between the client and the broker and:

* **rewrites broker addresses** in Metadata and FindCoordinator answers, and the
  new leaders' endpoints in Produce answers (KIP-951, v10 and later), to its
  own listeners (one per upstream broker, created as brokers are learnt), so the
  client never leaves the proxy;
* **counts produce requests per partition** as they arrive (retries included),
  asks the plan what to do with each, and does it: deliver, drop the request,
  drop the answer, answer an error without forwarding, forward and answer an
  error instead of the real answer, delay the answer, or close the connection
  before or after forwarding;
* **logs what happened** as reference trace events on the clock it is given:
  an :class:`Attempt` per produce request (the batch's values, producer id,
  epoch, base sequence), a :class:`Response` per answer the client received,
  and a :class:`Fault` per injected fault;
* **holds a produce request back** (``Action.HOLD``) until a point of the
  transaction's life it sees on the wire (the EndTxn answered, the next
  transaction begun), then sends it to the broker itself and keeps the answer
  in :attr:`FaultProxy.late` (the client gave up on it long before).

Kafka answers requests on a connection strictly in order, and clients check
that.  So answers are released in request order from a per-connection outbox;
a dropped request or answer therefore stalls the rest of that connection, as a
hung broker would, until the client gives up and reconnects.  A produce request
carrying batches for several partitions is treated as a whole: the first rule
that is not DELIVER among its partitions decides for the request.

Everything listens on 127.0.0.1 and is closed by :meth:`FaultProxy.close` (a
context manager).  kafka-python is imported only inside functions.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.fault_hold import ADD_PARTITIONS, END_TXN, PRODUCE, Holds, LateDelivery, read_frame
from kafka_conformance.adapters.brokers.wire_client import _load_kafka, decode_batches
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.events import Attempt, Event, Fault, FaultKind, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule, RequestCounter

__all__ = ["FaultProxy", "LateDelivery", "ProxyError"]

_METADATA, _FIND_COORDINATOR = 3, 10

_TOPIC_IDS = 13
"""The first Produce version that names topics by id (KIP-516)."""


class ProxyError(Exception):
    """The proxy could not reach the upstream broker or could not start listening."""


@attrs.define
class _Pending:
    """One request awaiting its answer to the client, in request order."""

    correlation_id: int
    api_key: int
    api_version: int
    rule: ProduceRule | None = None
    attempts: tuple[tuple[int, Any, int], ...] = ()
    """(attempt id, topic name or id (Produce v13+), partition) per batch of a produce request."""
    ready: bytes | None = None
    close_after: bool = False
    release_at: float = 0.0
    """Monotonic time before which the answer is held; infinity for a lost request or answer."""


def _listen(port: int, upstream: tuple[str, int]) -> socket.socket:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind(("127.0.0.1", port))
    except OSError as exc:  # the port of a broker that was down, taken meanwhile
        server.close()
        raise ProxyError(f"fault proxy: cannot listen on port {port} for {upstream[0]}:{upstream[1]}: {exc}") from exc
    server.listen(16)
    server.settimeout(0.2)
    return server


class _Connection:
    """One client connection and its own upstream connection."""

    def __init__(self, proxy: FaultProxy, client: socket.socket, upstream: tuple[str, int]) -> None:
        self.proxy = proxy
        self.client = client
        self.upstream_addr = upstream
        self.upstream = socket.create_connection(upstream, timeout=proxy.connect_timeout_s)
        self.upstream.settimeout(None)
        self.client.settimeout(None)
        self.lock = threading.Condition()
        self.outbox: list[_Pending] = []
        self.closed = False
        self.threads = [
            threading.Thread(target=self._from_client, name="kc-proxy-req", daemon=True),
            threading.Thread(target=self._from_upstream, name="kc-proxy-resp", daemon=True),
            threading.Thread(target=self._writer, name="kc-proxy-out", daemon=True),
        ]
        for t in self.threads:
            t.start()

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.lock.notify_all()
        for s in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()

    def join(self, timeout_s: float) -> None:
        for t in self.threads:
            if t is not threading.current_thread():
                t.join(timeout_s)

    # -- requests ---------------------------------------------------------------
    def _from_client(self) -> None:
        try:
            while not self.closed:
                frame = read_frame(self.client)
                if frame is None:
                    break
                self._on_request(frame)
        finally:
            self.close()

    def _on_request(self, frame: bytes) -> None:
        api_key, api_version, correlation_id = struct.unpack(">hhi", frame[:8])
        pending = _Pending(correlation_id, api_key, api_version)
        forward = True
        expects_answer = True
        if api_key == PRODUCE:
            forward, expects_answer = self.proxy._on_produce(frame, pending, self.upstream_addr)
        if pending.rule is not None and pending.rule.action is Action.DISCONNECT_BEFORE:
            self.close()
            return
        with self.lock:
            if expects_answer:
                self.outbox.append(pending)
            self.lock.notify_all()
        if forward:
            try:
                self.upstream.sendall(struct.pack(">i", len(frame)) + frame)
            except OSError:
                self.close()

    # -- answers ----------------------------------------------------------------
    def _from_upstream(self) -> None:
        try:
            while not self.closed:
                frame = read_frame(self.upstream)
                if frame is None:
                    break
                (correlation_id,) = struct.unpack(">i", frame[:4])
                with self.lock:
                    pending = next((p for p in self.outbox if p.correlation_id == correlation_id and p.ready is None), None)
                if pending is None:
                    continue  # an answer to nothing we wait for (e.g. after the client gave up)
                try:
                    answer = self.proxy._on_answer(frame, pending)
                except OSError:  # the proxy closed its listeners under us: the run is over
                    break
                with self.lock:
                    pending.ready = answer
                    self.lock.notify_all()
        finally:
            self.close()

    def _writer(self) -> None:
        """Release answers in request order, honouring delays, drops and disconnects."""
        while True:
            with self.lock:
                while not self.closed and not (self.outbox and self.outbox[0].ready is not None):
                    self.lock.wait(0.05)
                if self.closed:
                    return
                head = self.outbox[0]
                wait = head.release_at - time.monotonic()
                if wait > 0:
                    self.lock.wait(min(wait, 0.05))
                    continue
                self.outbox.pop(0)
            if head.close_after:
                self.close()
                return
            try:
                self.client.sendall(struct.pack(">i", len(head.ready or b"")) + (head.ready or b""))
            except OSError:
                self.close()
                return


class FaultProxy:
    """Listens on 127.0.0.1 for one upstream bootstrap broker (and every broker it advertises)."""

    def __init__(
        self, upstream_host: str, upstream_port: int, plan: FaultPlan | None = None, *,
        clock: Callable[[], int] | None = None, connect_timeout_s: float = 5.0,
        settle: Callable[[], bool] | None = None,
    ) -> None:
        """``settle`` is :class:`~fault_hold.Holds`'s: it waits before a request held until ``after-end``
        is sent, until the ended transaction's markers are in the logs."""
        self.plan = plan or FaultPlan()
        self.counter = RequestCounter(self.plan)
        self.connect_timeout_s = connect_timeout_s
        started = time.monotonic()
        self.clock = clock or (lambda: int((time.monotonic() - started) * 1000))
        self.events: list[Event] = []
        self.holds = Holds(connect_timeout_s, settle)
        self._lock = threading.Lock()
        self._attempt_ids = itertools.count(1)
        self._listeners: dict[tuple[str, int], tuple[socket.socket, threading.Thread]] = {}
        self._ports: dict[tuple[str, int], int] = {}  # kept while a broker is down (not listened for)
        self._connections: list[_Connection] = []
        self._closed = False
        _load_kafka()
        try:
            probe = socket.create_connection((upstream_host, upstream_port), timeout=connect_timeout_s)
            probe.close()
        except OSError as exc:
            raise ProxyError(f"fault proxy: cannot reach upstream broker {upstream_host}:{upstream_port}: {exc}") from exc
        self.port = self._listener_for((upstream_host, upstream_port))

    @property
    def late(self) -> list[LateDelivery]:
        """Held requests as they reached the broker, in order."""
        return self.holds.late

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> FaultProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            listeners = list(self._listeners.values())
            connections = list(self._connections)
        for conn in connections:
            conn.close()
        for server, thread in listeners:
            with contextlib.suppress(OSError):
                server.close()
            thread.join(2)
        for conn in connections:
            conn.join(2)

    def disconnect_clients(self) -> int:
        """Close every client connection and its upstream one, keep listening (the step DISCONNECT); how many."""
        with self._lock:
            live = [c for c in self._connections if not c.closed]
            self._connections = live
        for conn in live:
            conn.close()
        return len(live)

    def address_for(self, host: str, port: int) -> str:
        """The proxy's address for another upstream broker (a bootstrap list names every broker of a cluster)."""
        return f"127.0.0.1:{self._listener_for((host, port))}"

    def upstream_down(self, host: str, port: int) -> None:
        """Stop listening for a broker the harness took down: a client's connection is refused, as by its port."""
        with self._lock:
            server, thread = self._listeners.pop((host, port), (None, None))
        if server is not None and thread is not None:
            with contextlib.suppress(OSError):
                server.close()
            thread.join(2)

    def upstream_up(self, host: str, port: int) -> None:
        """Listen again, on the same port, for a broker that is back (a ProxyError if the port was taken)."""
        self._listener_for((host, port), again=True)

    # -- listeners ----------------------------------------------------------------
    def _listener_for(self, upstream: tuple[str, int], *, again: bool = False) -> int:
        """The proxy's port for ``upstream``; a new listener only for a broker never seen, or one back."""
        with self._lock:
            if upstream in self._listeners or (upstream in self._ports and (self._closed or not again)):
                return self._ports[upstream]
            server = _listen(self._ports.get(upstream, 0), upstream)
            thread = threading.Thread(target=self._accept, args=(server, upstream), name="kc-proxy-accept", daemon=True)
            self._listeners[upstream] = (server, thread)
            self._ports[upstream] = port = int(server.getsockname()[1])
            thread.start()
            return port

    def _accept(self, server: socket.socket, upstream: tuple[str, int]) -> None:
        while not self._closed:
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                conn = _Connection(self, client, upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._connections.append(conn)
                if self._closed:
                    conn.close()

    def record_fault(self, kind: FaultKind, partition: int | None = None) -> None:
        """Log a fault the harness caused beside the proxy (a broker stopped or killed), stamped now,
        among the attempts and answers the delivery checker reads."""
        self._record(Fault(kind, partition, self.clock()))

    # -- produce requests -------------------------------------------------------------
    def _record(self, event: Event) -> None:
        with self._lock:
            self.events.append(event)

    def _on_produce(self, frame: bytes, pending: _Pending, upstream: tuple[str, int]) -> tuple[bool, bool]:
        """Log the attempt(s), decide the rule; (forward upstream?, will the client get an answer?)."""
        from kafka.protocol.producer import ProduceRequest  # type: ignore[import-untyped,import-not-found,unused-ignore]

        request = ProduceRequest[pending.api_version].decode(frame, header=True)
        now = self.clock()
        attempts = []
        values: dict[int, list[str]] = {}
        chosen: ProduceRule | None = None
        with self._lock:
            for topic in request.topic_data:
                key = _topic_key(topic, pending.api_version)
                for part in topic.partition_data:
                    rule = self.counter.next(part.index)
                    if chosen is None and rule.action is not Action.DELIVER:
                        chosen = rule
                    for batch in decode_batches(part.records):
                        attempt_id = next(self._attempt_ids)
                        attempts.append((attempt_id, key, part.index))
                        values.setdefault(part.index, []).extend(v for _, v in batch.records)
                        self.events.append(Attempt(attempt_id, tuple(v for _, v in batch.records), part.index,
                                                   batch.producer_id, batch.producer_epoch, batch.base_sequence, now))
        pending.attempts = tuple(attempts)
        if chosen is None:
            asked = {a[2] for a in attempts}
            cut = self.holds.cut(asked)
            if cut is not None:  # the path to a held request's partitions is down until its transaction ends
                chosen = ProduceRule(1, Action.DROP_REQUEST, cut)
        pending.rule = chosen
        expects_answer = request.acks != 0
        if chosen is None:
            return True, expects_answer
        action = chosen.action
        kind = {Action.DROP_REQUEST: FaultKind.REQUEST_DROPPED, Action.DISCONNECT_BEFORE: FaultKind.DISCONNECT}.get(action)
        if kind is not None:  # faults on the answer are logged when the answer comes
            self._record(Fault(kind, chosen.partition, now))
        if chosen.delay_ms:  # DELAY, and an ERROR or ERROR_AFTER_APPEND that arrives late (row 14b)
            pending.release_at = time.monotonic() + chosen.delay_ms / 1000
        if action is Action.HOLD:
            self.holds.hold(frame, pending.api_version, upstream, chosen, values)
            self._record(Fault(FaultKind.REQUEST_DROPPED, chosen.partition, now))  # to the client it is lost
        if action in (Action.DROP_REQUEST, Action.HOLD):
            pending.ready = b""
            _stall(pending)
            return False, expects_answer
        if action is Action.ERROR:
            pending.ready = self._error_answer(request, pending, chosen.error or ProduceError.UNKNOWN_SERVER_ERROR)
            return False, expects_answer
        if action is Action.DISCONNECT_BEFORE:
            return False, False
        return True, expects_answer

    def _on_answer(self, frame: bytes, pending: _Pending) -> bytes:
        """The bytes the client gets for an upstream answer (possibly rewritten), logging produce answers;
        before a transaction's answer passes, the held requests it releases are sent (:class:`Holds`)."""
        if pending.api_key in (_METADATA, _FIND_COORDINATOR):
            return self._rewrite_addresses(frame, pending)
        if pending.api_key in (END_TXN, ADD_PARTITIONS, PRODUCE):  # a held request may be due: sent first
            self.holds.on_answer(pending.api_key, frame, pending.api_version)
        if pending.api_key != PRODUCE:
            return frame
        from kafka.protocol.producer import ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        rule = pending.rule
        now = self.clock()
        if rule is not None and rule.action is Action.DROP_RESPONSE:
            self._record(Fault(FaultKind.RESPONSE_DROPPED, rule.partition, now))
            _stall(pending)
            return b""
        if rule is not None and rule.action is Action.DISCONNECT_AFTER:
            self._record(Fault(FaultKind.DISCONNECT, rule.partition, now))
            pending.close_after = True
            return b""
        if rule is not None and rule.action is Action.ERROR_AFTER_APPEND:
            return self._error_answer(None, pending, rule.error or ProduceError.UNKNOWN_SERVER_ERROR)
        response = ProduceResponse[pending.api_version].decode(frame, header=True)
        for topic in response.responses:
            key = _topic_key(topic, pending.api_version)
            for part in topic.partition_responses:
                for attempt_id, name, index in pending.attempts:
                    if (name, index) == (key, part.index):
                        self._record(Response(attempt_id, _produce_error(part.error_code), part.base_offset, now))
        endpoints = getattr(response, "node_endpoints", None) or []
        if not endpoints:
            return frame
        # KIP-951 (Produce v10+): a NOT_LEADER_OR_FOLLOWER answer names the new leader's address;
        # left as it is, the client would go round the proxy to the broker itself.
        for endpoint in endpoints:
            endpoint.host, endpoint.port = "127.0.0.1", self._listener_for((endpoint.host, endpoint.port))
        encoded: bytes = response.encode(header=True, framed=False)
        return encoded

    def _error_answer(self, request: Any, pending: _Pending, error: ProduceError) -> bytes:
        from kafka.protocol.producer import ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

        now = self.clock()
        by_topic: dict[str, list[int]] = {}
        for attempt_id, name, index in pending.attempts:
            by_topic.setdefault(name, [])
            if index not in by_topic[name]:
                by_topic[name].append(index)
            self._record(Response(attempt_id, error, -1, now))
        if request is not None:
            for topic in request.topic_data:
                key = _topic_key(topic, pending.api_version)
                for part in topic.partition_data:
                    by_topic.setdefault(key, [])
                    if part.index not in by_topic[key]:
                        by_topic[key].append(part.index)
        topic_cls = ProduceResponse.TopicProduceResponse
        part_cls = topic_cls.PartitionProduceResponse
        # From v13 a topic is named by its id (KIP-516): an answer naming none would leave the
        # client without an answer for its partition, and it would retry instead of failing.
        by_id = pending.api_version >= _TOPIC_IDS
        response = ProduceResponse(
            responses=[topic_cls(**({"topic_id": key} if by_id else {"name": key}), partition_responses=[
                part_cls(index=i, error_code=error.code, base_offset=-1, log_append_time_ms=-1, log_start_offset=-1,
                         record_errors=[], error_message=None)
                for i in parts]) for key, parts in by_topic.items()],
            throttle_time_ms=0,
            version=pending.api_version,
        )
        response.with_header(correlation_id=pending.correlation_id)
        encoded: bytes = response.encode(header=True, framed=False)
        return encoded

    def _rewrite_addresses(self, frame: bytes, pending: _Pending) -> bytes:
        from kafka.protocol.metadata import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            FindCoordinatorResponse,
            MetadataResponse,
        )

        cls = MetadataResponse if pending.api_key == _METADATA else FindCoordinatorResponse
        response = cls[pending.api_version].decode(frame, header=True)
        if pending.api_key == _METADATA:
            for broker in response.brokers:
                broker.host, broker.port = "127.0.0.1", self._listener_for((broker.host, broker.port))
        elif pending.api_version >= 4:
            for coordinator in response.coordinators:
                if coordinator.error_code == 0:
                    coordinator.host, coordinator.port = "127.0.0.1", self._listener_for((coordinator.host, coordinator.port))
        elif response.error_code == 0:
            response.host, response.port = "127.0.0.1", self._listener_for((response.host, response.port))
        encoded: bytes = response.encode(header=True, framed=False)
        return encoded


def _topic_key(topic: Any, version: int) -> Any:
    """What names a topic in a Produce request or answer: its name, or its id from v13 on."""
    return topic.topic_id if version >= _TOPIC_IDS else topic.name


def _stall(pending: _Pending) -> None:
    """A lost request or answer: nothing more is answered on this connection (a hung broker),
    until the client gives up and closes it."""
    pending.release_at = float("inf")


def _produce_error(code: int) -> ProduceError:
    try:
        return ProduceError.from_code(code)
    except ValueError:
        return ProduceError.UNKNOWN_SERVER_ERROR
