"""The Python Kafka test broker: a fault-injecting cluster on 127.0.0.1 that real clients talk to.

:class:`TestCluster` opens one listening socket per broker of a
:class:`~kafka_conformance.reference.traces.program.ClusterSpec` (127.0.0.1,
ephemeral ports) and serves the Kafka protocol from one background thread
running an asyncio loop.  Every decision is the reference
:class:`~kafka_conformance.reference.cluster.model.ClusterModel`'s: leaders,
replication, deduplication, the fault plan; this module only moves bytes.

On the wire, per connection:

* requests are handled in arrival order as they arrive (the model logs each
  produce attempt then), and answers leave **in request order** - a delayed
  answer holds back the answers behind it on the same connection, as TCP would;
  the ``Response`` event is logged when an answer is written;
* a dropped request or answer is never delivered, and neither is anything after it on
  that connection in the same direction (TCP delivers in order or not at all): the
  client times out on the connection and reconnects;
  a disconnect closes the connection, discarding answers not yet written;
* a DISCONNECT step closes every connection, a crash closes the crashed
  broker's connections and refuses new ones until it restarts;
* an unknown API or version closes the connection with a note in
  :attr:`TestCluster.notes` (ApiVersions itself answers error 35 in the v0
  layout, as Kafka does), so a client never waits on a request nobody answers.

The model is guarded by one lock; :meth:`TestCluster.locked` hands it out to
callers that drive it directly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.testbroker_codec import MAX_FRAME
from kafka_conformance.adapters.brokers.testbroker_dispatch import Dispatcher, Reply
from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.cluster.model import ClusterModel
from kafka_conformance.reference.traces.events import Event
from kafka_conformance.reference.traces.fault_plan import FaultPlan
from kafka_conformance.reference.traces.program import ClusterSpec, ClusterStep

__all__ = ["TestBrokerError", "TestCluster", "serve"]

HOST = "127.0.0.1"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0


class TestBrokerError(RuntimeError):
    """The test broker could not start or stop in time."""

    __test__ = False


class _Connection:
    __slots__ = ("broker", "crash_generation", "disconnect_generation", "muted_in", "muted_out", "task", "writer")

    def __init__(self, broker: int, writer: asyncio.StreamWriter, model: ClusterModel, task: asyncio.Task[Any] | None) -> None:
        self.broker = broker
        self.writer = writer
        self.task = task
        self.disconnect_generation = model.disconnect_generation
        self.crash_generation = model.crash_generation[broker]
        self.muted_in = False
        """A request of this connection was lost: nothing after it reaches the broker."""
        self.muted_out = False
        """An answer on this connection was lost: no later answer reaches the client."""

    def stale(self, model: ClusterModel) -> bool:
        return (
            self.disconnect_generation != model.disconnect_generation
            or self.crash_generation != model.crash_generation[self.broker]
            or not model.alive[self.broker]
        )


class TestCluster:
    """A running test cluster; use as a context manager (or call :meth:`close`)."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        spec: ClusterSpec | None = None,
        plan: FaultPlan | None = None,
        *,
        clock: Callable[[], int] | None = None,
        kafka_version: str | None = None,
        log_class: type[PartitionLog] = PartitionLog,
    ) -> None:
        """``spec`` defaults to :class:`ClusterSpec` (3 brokers); ``kafka_version``, when given,
        replaces the spec's version (the broker-target shorthand ``test-broker:VERSION``);
        ``log_class`` is the partition log behind the wire (a faulty one in the broker zoo)."""
        spec = spec if spec is not None else ClusterSpec()
        if kafka_version is not None:
            spec = attrs.evolve(spec, kafka_version=kafka_version)
        self._started = time.monotonic()
        self.clock: Callable[[], int] = clock if clock is not None else self._elapsed_ms
        """The run's clock (ms); events carry it, so client-side events should use it too."""
        self.model = ClusterModel(spec, plan if plan is not None else FaultPlan(), clock=self.clock, log_class=log_class)
        self.lock = threading.RLock()
        self.notes: list[str] = []
        """Requests refused or connections closed for protocol reasons, in order."""
        self.requests_served = 0
        self.ports: tuple[int, ...] = ()
        self._dispatcher = Dispatcher(self.model, self.address)
        self._connections: set[_Connection] = set()
        self._servers: list[asyncio.Server] = []
        self._closed = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run_loop, name="kafka-conformance-test-broker", daemon=True)
        self._thread.start()
        try:
            future = asyncio.run_coroutine_threadsafe(self._start(spec.brokers), self._loop)
            self.ports = tuple(future.result(timeout=START_TIMEOUT_S))
        except BaseException as exc:
            self.close()
            raise TestBrokerError(f"the test broker did not start within {START_TIMEOUT_S} s: {exc!r}") from exc

    def _elapsed_ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000)

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

    # ----------------------------------------------------------------- public surface
    @property
    def bootstrap(self) -> str:
        return ",".join(f"{HOST}:{port}" for port in self.ports)

    def address(self, broker: int) -> tuple[str, int]:
        return HOST, self.ports[broker]

    def __enter__(self) -> TestCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def locked(self) -> Iterator[ClusterModel]:
        """The model, with the broker's lock held (no other request is handled in the meantime)."""
        with self.lock:
            yield self.model

    def apply(self, step: ClusterStep) -> None:
        """Apply a cluster step; connections it cuts are closed at once."""
        with self.lock:
            self.model.apply(step)
        self._enforce_soon()

    def restart_in_place(self, *, clean: bool) -> None:
        """Every broker stops and starts again on its own data at once, as the broker suite's
        restart step asks: each replica's log keeps its batches and recovers producer state as
        Kafka does (:meth:`PartitionLog.restart`: a clean stop, or a kill that loses nothing);
        every connection is closed.  Producers idle past the expiry by the wall clock (their
        last batch's timestamp) are not loaded, as a real broker's are not."""
        now_ms = int(time.time() * 1000)
        with self.lock:
            for part in self.model.partitions:
                for replica in part.replicas.values():
                    replica.log.restart(clean=clean, now_ms=now_ms)
            self.model.disconnect_generation += 1
        self._enforce_soon()

    def log_start_checkpoint(self, partition: int = 0) -> int:
        """The log start offset the leader's ``log-start-offset-checkpoint`` holds (what a crash
        falls back to), for the broker suite's cases on the shared topic."""
        with self.lock:
            log = self.model.leader_log(partition)
            return 0 if log is None else log.checkpointed_log_start

    def replicate(self) -> None:
        with self.lock:
            self.model.replicate()

    def heal(self) -> None:
        with self.lock:
            self.model.heal()

    def events(self) -> tuple[Event, ...]:
        with self.lock:
            return self.model.events()

    def final_log(self) -> dict[int, tuple[LogRecord, ...]]:
        with self.lock:
            return self.model.final_log()

    def log_start(self) -> dict[int, int]:
        with self.lock:
            return self.model.log_start()

    def close(self) -> None:
        """Stop serving, close every socket and the loop; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self._stop(), self._loop)
            try:
                future.result(timeout=STOP_TIMEOUT_S)
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=STOP_TIMEOUT_S)
        if self._thread.is_alive():
            raise TestBrokerError(f"the test broker thread did not stop within {STOP_TIMEOUT_S} s")
        self._loop.close()

    # ----------------------------------------------------------------- the loop
    async def _start(self, brokers: int) -> list[int]:
        ports = []
        for broker in range(brokers):
            server = await asyncio.start_server(self._client_handler(broker), HOST, 0)
            self._servers.append(server)
            ports.append(server.sockets[0].getsockname()[1])
        return ports

    async def _stop(self) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), STOP_TIMEOUT_S)
        tasks = [c.task for c in list(self._connections) if c.task is not None]
        for conn in list(self._connections):
            conn.writer.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0)

    def _enforce_soon(self) -> None:
        if not self._closed and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._enforce)

    def _enforce(self) -> None:
        with self.lock:
            stale = [c for c in self._connections if c.stale(self.model)]
        for conn in stale:
            conn.writer.close()

    def _client_handler(self, broker: int) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Any]:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self._serve(broker, reader, writer)

        return handle

    async def _serve(self, broker: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with self.lock:
            conn = _Connection(broker, writer, self.model, asyncio.current_task())
            refused = conn.stale(self.model)
        if refused or self._closed:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            return
        self._connections.add(conn)
        queue: asyncio.Queue[tuple[float, Reply]] = asyncio.Queue()
        sender = asyncio.create_task(self._send_loop(conn, queue))
        try:
            await self._read_loop(conn, reader, queue)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            self._connections.discard(conn)
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    async def _read_loop(self, conn: _Connection, reader: asyncio.StreamReader, queue: asyncio.Queue[tuple[float, Reply]]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            size = int.from_bytes(await reader.readexactly(4), "big", signed=True)
            if not 0 < size <= MAX_FRAME:
                self.notes.append(f"broker {conn.broker}: request frame of {size} bytes; connection closed")
                return
            frame = await reader.readexactly(size)
            if conn.muted_in:
                continue  # lost on the way, like the request before it
            with self.lock:
                if conn.stale(self.model):
                    return
                reply = self._dispatcher.handle(conn.broker, frame)
                self.requests_served += 1
                if reply.note:
                    self.notes.append(reply.note)
            if reply.close:
                return
            conn.muted_in = conn.muted_in or reply.lost == "request"
            conn.muted_out = conn.muted_out or reply.lost == "response"
            if reply.data is not None and not conn.muted_out:
                queue.put_nowait((loop.time() + reply.delay_ms / 1000, reply))

    async def _send_loop(self, conn: _Connection, queue: asyncio.Queue[tuple[float, Reply]]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            ready, reply = await queue.get()
            wait = ready - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            assert reply.data is not None
            if conn.writer.is_closing():
                return
            conn.writer.write(reply.data)
            if reply.answered:
                with self.lock:
                    for attempt_id, response in reply.answered:
                        self.model.responded(attempt_id, response)
            if queue.empty():
                await conn.writer.drain()


def serve(argv: list[str] | None = None) -> int:
    """Run one test broker in a process of its own, driven over standard input and output.

    The kit's mutation run needs the broker suite's judge (the unmutated reference) and a
    test broker built on a mutated reference at once; two versions of one package cannot
    share an interpreter, so the broker is served from the mutated copy in its own process.
    One JSON line out says where it listens; then each line in asks for what the broker
    suite's handle offers (``{"restart": "clean"}`` or ``"crash"``; ``{"checkpoint": 0}``)
    and gets one line back.  End of input stops the broker."""
    parser = argparse.ArgumentParser(prog="python -m kafka_conformance.adapters.brokers.testbroker")
    parser.add_argument("--kafka-version", default=None, help="the release the model follows")
    args = parser.parse_args(argv)
    with TestCluster(kafka_version=args.kafka_version) as cluster:
        print(json.dumps({"bootstrap": cluster.bootstrap, "topic": str(cluster.model.spec.topic),
                          "kafka_version": str(cluster.model.spec.kafka_version)}), flush=True)
        for line in sys.stdin:
            try:
                ask = json.loads(line)
                if "restart" in ask:
                    cluster.restart_in_place(clean=ask["restart"] == "clean")
                    answer: dict[str, object] = {"ok": True}
                elif "checkpoint" in ask:
                    answer = {"log_start": cluster.log_start_checkpoint(int(ask["checkpoint"]))}
                else:
                    answer = {"error": f"unknown request {line.strip()!r}"}
            except Exception as exc:  # said to the caller, which ends its run with it
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(serve())
