"""Run a transaction script on a real broker over the wire, as a transactional producer would.

The kit acts as the producer (InitProducerId, AddPartitionsToTxn, transactional Produce,
EndTxn) and then as a read_committed and a read_uncommitted consumer, and fills the same
:class:`~kafka_conformance.reference.transactions.run.ScriptRun` the model does.

What it does that a client also does, so the answers compare with the model's:

* FindCoordinator first, and the coordinator's retriable answers (COORDINATOR_LOAD_IN_PROGRESS,
  COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS) are retried until
  another answer comes or the deadline passes; the retries are noted in the answer's detail;
* after an EndTxn is answered, it waits (DescribeTransactions, KIP-664) until the coordinator
  has written every marker, since Kafka answers EndTxn before the markers are in the logs and
  the model writes them at once;
* an ``expire`` step waits out the transaction timeout, then until the coordinator has aborted the
  open transaction (DescribeTransactions; without it, a marker on each added partition and its last
  stable offset at its end),
  and a step that would reach the broker too close to its transaction's timeout stops the run
  (it could be aborted under the step, which the model would not know);
* the read_committed read drops aborted records as the Java consumer does: from the
  aborted transactions a Fetch returns, each producer's transactional batches from the
  transaction's first offset up to its ABORT marker.

Each request goes where a client sends it (``wire_routes.py``): the transactional requests to the
coordinator FindCoordinator names (found again after NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE),
Produce, ListOffsets and Fetch to the partition's leader, at the addresses the broker advertises
(as a client connects; a ``bootstrap:`` broker whose advertised listener is not reachable from
here fails as a client would); on one broker that is one connection, on ``kafka-cluster`` one per
broker.  One request at a time; every wait has a deadline and a
WireError naming it.  A broker without DescribeTransactions is waited for by its last stable
offsets instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError, encode_batch
from kafka_conformance.adapters.brokers.wire_routes import COORDINATOR_RETRIED, Routes
from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.transactions.run import NOT_TIMED_OUT, PartitionRead, Reply, ScriptRun, drive
from kafka_conformance.reference.transactions.script import TxnScript

__all__ = ["RETRIED_CODES", "TooLate", "await_timeout_abort", "read_back", "run_script_on_broker", "settle_offsets"]

RETRIED_CODES = {**COORDINATOR_RETRIED, 51: "CONCURRENT_TRANSACTIONS"}
_COORDINATOR_GONE = (15, 16)
"""COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR: the coordinator moved or is down; a client finds it again."""
_SETTLED = ("Empty", "CompleteCommit", "CompleteAbort")
SETTLE_WITHOUT_DESCRIBE_S = 3.0
"""How long an EndTxn is waited for, at most, on a broker without DescribeTransactions."""
TIMEOUT_MARGIN_S = 0.5
"""A step is not sent within this much of its open transaction's timeout (see :meth:`_Txn.in_time`)."""
_NOT_FOUND = 105
"""TRANSACTIONAL_ID_NOT_FOUND: DescribeTransactions of an id with no transaction ever begun."""


class TooLate(WireError):
    """A step would have reached the broker too close to its transaction's timeout (a loaded machine):
    the run says nothing about the broker, and is run again once (``conformance/transactions/check.py``)."""


def _kafka() -> SimpleNamespace:
    """kafka-python's request and response classes, imported when a script runs (never at import)."""
    import kafka.protocol.admin as admin  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import kafka.protocol.consumer as consumer  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import kafka.protocol.metadata as metadata  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import kafka.protocol.producer as producer  # type: ignore[import-untyped,import-not-found,unused-ignore]

    return SimpleNamespace(**{name: getattr(module, name) for module in (admin, consumer, metadata, producer)
                              for name in dir(module) if name.endswith(("Request", "Response"))})


class _Txn:
    """One transactional id on a broker or a cluster, as the
    :class:`~kafka_conformance.reference.transactions.run.ScriptDriver` the script runs on."""

    def __init__(self, routes: Routes, transactional_id: str, topic: str, transaction_version: int,
                 deadline_s: float) -> None:
        self.routes = routes
        self._coordinator: WireClient | None = None
        self.txn_id = transactional_id
        self.topic = topic
        self.tv2 = transaction_version == 2
        self.deadline_s = deadline_s
        self.k = _kafka()
        self.touched: dict[int, set[int]] = {}
        """Per producer id, the partitions it added or wrote to since its last EndTxn: where its markers go."""
        self.timeout_s = 60.0
        self.opened_at: float | None = None
        """When (monotonic) the coordinator's open transaction began, as far as its answers said: its timeout runs from there."""
        self.added: set[int] = set()
        """The partitions added to that transaction: where a timeout writes its markers."""

    @property
    def bumps_epoch_per_transaction(self) -> bool:
        return self.tv2

    def now_ms(self) -> int:
        return int(time.time() * 1000)

    def find_coordinator(self) -> WireClient:
        """The transactional id's coordinator, found when first needed and after it said it no longer is."""
        if self._coordinator is None:
            self._coordinator = self.routes.coordinator(self.txn_id)
        return self._coordinator

    def leader(self, partition: int) -> WireClient:
        return self.routes.leader(self.topic, partition)

    @staticmethod
    def _version(client: WireClient, api_key: int, wanted: int) -> int:
        low, high = client.versions.get(api_key, (0, -1))
        if high < wanted and (api_key, wanted) in ((26, 5), (0, 12)):
            raise WireError(f"broker {client.address} has no {'EndTxn v5' if api_key == 26 else 'Produce v12'}: "
                            "no transaction.version 2 (KIP-890 part 2, Kafka 4.0+)")
        chosen = min(high, wanted)
        if chosen < low:
            raise WireError(f"broker {client.address} offers api {api_key} v{low}-v{high}, not v{wanted}")
        return chosen

    def _retry(self, what: str, call: Any) -> tuple[Any, int, str]:
        """Call until the code is not a retried one; (response, code, note of the retries)."""
        deadline = time.monotonic() + self.deadline_s
        seen: list[str] = []
        while True:
            response, code = call()
            if code in _COORDINATOR_GONE:
                self._coordinator = None
            if code not in RETRIED_CODES:
                return response, code, (f"after {len(seen)} retries ({', '.join(sorted(set(seen)))})" if seen else "")
            seen.append(RETRIED_CODES[code])
            if time.monotonic() >= deadline:
                raise WireError(f"the coordinator of {self.txn_id!r} answered {what} with {RETRIED_CODES[code]} for "
                                f"{self.deadline_s:g}s ({len(seen)} tries)")
            time.sleep(0.05)

    def init(self, timeout_ms: int) -> Reply:
        request = self.k.InitProducerIdRequest(transactional_id=self.txn_id, transaction_timeout_ms=timeout_ms)

        def call() -> tuple[Any, int]:
            to = self.find_coordinator()
            response = to.request(request, self.k.InitProducerIdResponse, self._version(to, 22, 4))
            return response, int(response.error_code)

        response, code, note = self._retry("InitProducerId", call)
        self.timeout_s = timeout_ms / 1000
        if code == 0:
            self._closed()
        return Reply(code, int(response.producer_id), int(response.producer_epoch), detail=note)

    def _opened(self, partitions: Iterable[int], sent_at: float) -> None:
        """The coordinator answered a request sent at ``sent_at`` that began a transaction or added to it:
        its timeout runs from no earlier than then."""
        if self.opened_at is None:
            self.opened_at = sent_at
        self.added.update(partitions)

    def _closed(self) -> None:
        self.opened_at = None
        self.added = set()

    def in_time(self, what: str) -> None:
        """Refuse to send ``what`` within :data:`TIMEOUT_MARGIN_S` of the open transaction's timeout
        (or after it): the coordinator may abort the transaction under it, which the model, whose
        transactions time out only at an ``expire`` step, would not do.  :class:`TooLate`: the run
        could not be judged."""
        if self.opened_at is not None and time.monotonic() - self.opened_at > self.timeout_s - TIMEOUT_MARGIN_S:
            raise TooLate(f"{what}: the script's steps took {time.monotonic() - self.opened_at:.1f}s of the "
                          f"transaction's {self.timeout_s:g}s timeout before it (a loaded machine); run it again")

    def add(self, pid: int, epoch: int, partitions: Iterable[int]) -> Reply:
        self.in_time("AddPartitionsToTxn")
        partitions = sorted(partitions)
        self.touched.setdefault(pid, set()).update(partitions)
        topic_class = self.k.AddPartitionsToTxnRequest.fields["v3_and_below_topics"].array_of
        request = self.k.AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=self.txn_id, v3_and_below_producer_id=pid, v3_and_below_producer_epoch=epoch,
            v3_and_below_topics=[topic_class(name=self.topic, partitions=sorted(partitions))])

        def call() -> tuple[Any, int]:
            to = self.find_coordinator()
            response = to.request(request, self.k.AddPartitionsToTxnResponse, self._version(to, 24, 3))
            codes = {int(r.partition_error_code) for t in response.results_by_topic_v3_and_below for r in t.results_by_partition}
            codes.discard(0)
            return response, max(codes, key=lambda c: (c != 55, c)) if codes else 0  # OPERATION_NOT_ATTEMPTED last

        sent_at = time.monotonic()
        _, code, note = self._retry("AddPartitionsToTxn", call)
        if code == 0:
            self._opened(partitions, sent_at)
        return Reply(code, detail=note)

    @property
    def _describes(self) -> bool:
        return self.find_coordinator().versions.get(65, (0, -1))[1] >= 0

    def end(self, pid: int, epoch: int, commit: bool) -> Reply:
        self.in_time("EndTxn")
        # without DescribeTransactions, a marker is seen by the log end it moves: note the ends before
        ends = {} if self._describes else {p: self.leader(p).list_offset(self.topic, p) for p in self.touched.get(pid, ())}
        request = self.k.EndTxnRequest(transactional_id=self.txn_id, producer_id=pid, producer_epoch=epoch, committed=commit)
        version = 0

        def call() -> tuple[Any, int]:
            nonlocal version
            to = self.find_coordinator()
            version = self._version(to, 26, 5 if self.tv2 else 3)
            response = to.request(request, self.k.EndTxnResponse, version)
            return response, int(response.error_code)

        response, code, note = self._retry("EndTxn", call)
        new_pid, new_epoch = (int(response.producer_id), int(response.producer_epoch)) if version >= 5 else (pid, epoch)
        if code == 0:
            self._closed()
            note = "; ".join(n for n in (note, self.settle(self.touched.pop(pid, set()), ends)) if n)
        return Reply(code, new_pid, new_epoch, detail=note)

    def expire(self, timeout_ms: int) -> Reply:
        """Wait out the open transaction's timeout, then until the coordinator has aborted it and
        written its markers: by DescribeTransactions, or without it by a marker past each added
        partition's end when the wait began, and its last stable offset at its end.
        :data:`NOT_TIMED_OUT` if still open ``deadline_s`` after."""
        started = time.monotonic()
        describes = self._describes
        ends = {} if describes else {p: self.leader(p).list_offset(self.topic, p) for p in sorted(self.added)}
        due = started if self.opened_at is None else self.opened_at + timeout_ms / 1000
        time.sleep(max(0.0, due - started))
        deadline = max(due, started) + self.deadline_s
        while True:
            if describes:
                _, state = self._describe()
                done = state.error_code == _NOT_FOUND or (state.error_code == 0 and state.transaction_state in _SETTLED)
                seen = f"{state.transaction_state} at epoch {state.producer_epoch}" if state.error_code == 0 else \
                    "no transaction ever begun" if done else f"DescribeTransactions error {state.error_code}"
            else:
                done = all(_marked(self.leader(p), self.topic, p, end) for p, end in ends.items())
                seen = f"a marker on partitions {sorted(ends)} and their last stable offsets at their ends" if done else \
                    f"no abort marker seen on partitions {sorted(ends)}"
            waited = time.monotonic() - started
            if done or time.monotonic() >= deadline:
                self._closed()  # either way the timeout is spent: later steps are judged as they come
                if not done:
                    return Reply(NOT_TIMED_OUT, detail=f"not aborted {waited:.1f}s after its {timeout_ms} ms timeout: {seen}")
                self.touched.clear()
                return Reply(0, detail=f"{seen} after {waited:.1f}s")
            time.sleep(0.05)

    def _describe(self) -> tuple[WireClient, Any]:
        """DescribeTransactions of the transactional id at its coordinator (found again when it moved):
        the coordinator asked, and the id's state."""
        to = self.find_coordinator()
        request = self.k.DescribeTransactionsRequest(transactional_ids=[self.txn_id])
        state = to.request(request, self.k.DescribeTransactionsResponse, self._version(to, 65, 0)).transaction_states[0]
        if state.error_code in _COORDINATOR_GONE:
            self._coordinator = None
        return to, state

    def settle(self, partitions: set[int], ends: dict[int, int]) -> str:
        """Wait until the coordinator has written every marker of the transaction it ended; what the
        answer's detail should say about how (empty when DescribeTransactions said so)."""
        if not self._describes:
            return self._settle_by_offsets(partitions, ends)
        deadline = time.monotonic() + self.deadline_s
        while True:
            to, state = self._describe()
            if state.error_code == 0 and state.transaction_state in _SETTLED:
                return ""
            if time.monotonic() >= deadline:
                raise WireError(f"the coordinator {to.address}: transaction {self.txn_id!r} still "
                                f"{state.transaction_state} (error {state.error_code}) after {self.deadline_s:g}s")
            time.sleep(0.02)

    def _settle_by_offsets(self, partitions: set[int], ends: dict[int, int]) -> str:
        """Without DescribeTransactions (a broker that does not offer KIP-664's API): wait until every
        partition the transaction touched has a marker past its end before EndTxn, and its last stable
        offset has reached its end, for at most :data:`SETTLE_WITHOUT_DESCRIBE_S`.  A broker that writes
        no marker somewhere, or an open transaction of another producer there, ends the wait at the
        bound, and the reads say the rest."""
        deadline = time.monotonic() + SETTLE_WITHOUT_DESCRIBE_S

        def settled(p: int) -> bool:
            return _marked(self.leader(p), self.topic, p, ends.get(p, -1))

        waiting = sorted(partitions)
        while waiting and time.monotonic() < deadline:
            waiting = [p for p in waiting if not settled(p)]
            if waiting:
                time.sleep(0.02)
        return ("no DescribeTransactions: waited for the markers by the log ends" + (
            f", none seen on partitions {waiting} within {SETTLE_WITHOUT_DESCRIBE_S:g}s" if waiting else ""))

    def produce(self, partition: int, batch: ProducerBatch) -> Reply:
        if batch.transactional:
            self.in_time("Produce")
            self.touched.setdefault(batch.producer_id, set()).add(partition)
        to = self.leader(partition)
        sent_at = time.monotonic()
        version = self._version(to, 0, 12 if self.tv2 else 9)  # TxnProfile.produce_version: the model answers for these
        part = self.k.ProduceRequest.TopicProduceData.PartitionProduceData(index=partition, records=encode_batch(batch))
        request = self.k.ProduceRequest(
            transactional_id=self.txn_id if batch.transactional else None, acks=-1, timeout_ms=10_000,
            topic_data=[self.k.ProduceRequest.TopicProduceData(name=self.topic, partition_data=[part])])
        response = to.request(request, self.k.ProduceResponse, version, timeout_s=30.0)
        for t in response.responses:
            for p in t.partition_responses:
                if p.index == partition:
                    if p.error_code == 0 and batch.transactional and self.tv2:
                        self._opened((partition,), sent_at)  # Produce v12 added the partition
                    return Reply(int(p.error_code), base_offset=int(p.base_offset) if p.error_code == 0 else -1)
        raise WireError(f"broker {to.address} answered Produce without partition {self.topic}-{partition}")

    # -- reading back ------------------------------------------------------------
    def ready(self, partitions: int) -> None:
        """Wait until a leader of every partition of the new topic answers ListOffsets, so the first
        Produce is not answered NOT_LEADER_OR_FOLLOWER while leadership is still being applied."""
        deadline = time.monotonic() + self.deadline_s
        for p in range(partitions):
            while True:
                try:
                    self.leader(p).list_offset(self.topic, p)
                    break
                except WireError:
                    self.routes.moved(self.topic, p)
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.02)

    def read(self, partition: int) -> PartitionRead:
        leader = self.leader(partition)
        end = leader.list_offset(self.topic, partition)
        stable = leader.list_offset(self.topic, partition, committed=True)
        uncommitted = tuple(r.value for r in leader.read_log(self.topic, partition))
        return PartitionRead(partition, self._read_committed(partition, stable), uncommitted, stable, end)

    def _read_committed(self, partition: int, upto: int) -> tuple[str, ...]:
        """The values a read_committed consumer reads from offset 0 up to ``upto``, the last stable offset."""
        from kafka.record.memory_records import MemoryRecords  # type: ignore[import-untyped,import-not-found,unused-ignore]

        leader = self.leader(partition)
        version = self._version(leader, 1, 11)
        values: list[str] = []
        aborted: list[tuple[int, int]] = []  # (first offset, producer id) not yet reached
        known: set[tuple[int, int]] = set()  # every one a Fetch returned: a later Fetch returns them again
        active: set[int] = set()
        offset = 0
        deadline = time.monotonic() + self.deadline_s
        while offset < upto:
            fetch_part = self.k.FetchRequest.FetchTopic.FetchPartition(partition=partition, fetch_offset=offset,
                                                                      partition_max_bytes=1 << 20)
            request = self.k.FetchRequest(replica_id=-1, max_wait_ms=100, min_bytes=1, max_bytes=1 << 20,
                                          isolation_level=1,
                                          topics=[self.k.FetchRequest.FetchTopic(topic=self.topic, partitions=[fetch_part])])
            response = leader.request(request, self.k.FetchResponse, version)
            data = next((p for t in response.responses for p in t.partitions if p.partition_index == partition), None)
            if data is None or data.error_code != 0:
                raise WireError(f"broker {leader.address} answered Fetch for {self.topic}-{partition} with "
                                f"{'no data' if data is None else f'error {data.error_code}'}")
            for a in data.aborted_transactions or ():
                entry = (int(a.first_offset), int(a.producer_id))
                if entry not in known:
                    known.add(entry)
                    aborted.append(entry)
            records = MemoryRecords(bytes(data.records or b""))
            progressed = False
            while records.has_next():
                batch = records.next_batch()
                if batch is None or batch.next_offset <= offset:
                    continue
                for first, pid in sorted(aborted):
                    if first <= batch.last_offset:
                        active.add(pid)
                aborted = [(f, p) for f, p in aborted if f > batch.last_offset]
                if batch.is_control_batch:
                    if batch.is_transactional and _is_abort(batch):
                        active.discard(batch.producer_id)
                elif not (batch.is_transactional and batch.producer_id in active):
                    values.extend(_value(r.value) for r in batch if r.offset >= offset and r.offset < upto)
                offset = batch.next_offset
                progressed = True
            if not progressed:
                if time.monotonic() >= deadline:
                    raise WireError(f"broker {leader.address}: reading {self.topic}-{partition} stalled at offset "
                                    f"{offset} below {upto}")
                time.sleep(0.01)
        return tuple(values)


def _marked(leader: WireClient, topic: str, partition: int, end_before: int) -> bool:
    """Whether a marker was written past ``end_before`` and the last stable offset has reached the end."""
    end = leader.list_offset(topic, partition)
    return end > end_before and leader.list_offset(topic, partition, committed=True) >= end


def _is_abort(batch: Any) -> bool:
    """The control record's key is (version int16, type int16): type 0 is ABORT, 1 COMMIT."""
    for record in batch:
        key = bytes(record.key or b"")
        return len(key) >= 4 and int.from_bytes(key[2:4], "big", signed=True) == 0
    return False


def _value(raw: bytes | None) -> str:
    return "<null>" if raw is None else raw.decode("utf-8", "replace")


def read_back(routes: Routes, topic: str, partitions: int, *, settle_s: float = 5.0,
              deadline_s: float = 30.0) -> tuple[PartitionRead, ...]:
    """Each partition of ``topic`` read back by a read_committed and a read_uncommitted consumer, once
    its last stable offset has reached its end or ``settle_s`` has passed (a transaction left
    hanging never lets it: the checker names that)."""
    reader = _Txn(routes, "", topic, 1, deadline_s)
    settle_offsets(routes, topic, partitions, settle_s)
    return tuple(reader.read(p) for p in range(partitions))


def await_timeout_abort(routes: Routes, transactional_id: str, topic: str, partitions: Iterable[int], timeout_ms: int,
                        since: float, deadline_s: float = 30.0) -> Reply:
    """For a transaction another producer (a real client) began at ``since`` (monotonic) and left open,
    on ``partitions`` of ``topic``: wait its ``timeout_ms`` out and then until its coordinator has
    aborted it, as a script's ``expire`` step does; code 0 once it has, :data:`NOT_TIMED_OUT` if it was
    still open ``deadline_s`` after."""
    txn = _Txn(routes, transactional_id, topic, 1, deadline_s)
    txn.opened_at = since
    txn.added = set(partitions)
    return txn.expire(timeout_ms)


def settle_offsets(routes: Routes, topic: str, partitions: int, settle_s: float) -> bool:
    """Wait until every partition's last stable offset is its end (its transactions' markers are
    written), for at most ``settle_s``; whether it got there."""
    deadline = time.monotonic() + settle_s
    while True:
        leaders = [(p, routes.leader(topic, p)) for p in range(partitions)]
        if all(leader.list_offset(topic, p, committed=True) == leader.list_offset(topic, p) for p, leader in leaders):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def run_script_on_broker(script: TxnScript, host: str, port: int, *, topic: str, transactional_id: str,
                         transaction_version: int = 1, deadline_s: float = 30.0, replication_factor: int = 1,
                         create_topic: Callable[[str, int], None] | None = None) -> ScriptRun:
    """Run ``script`` on the broker (or the cluster) at host:port, on a fresh ``topic`` of
    ``replication_factor`` replicas with a fresh ``transactional_id``; ``create_topic(topic,
    partitions)``, when given, creates the topic instead (a cluster placing its replicas itself)."""
    with Routes(host, port, timeout_s=deadline_s) as routes:
        if create_topic is not None:
            create_topic(topic, script.partitions)
        else:
            routes.admin().create_topic(topic, partitions=script.partitions, replication_factor=replication_factor,
                                        timeout_s=deadline_s)
        txn = _Txn(routes, transactional_id, topic, transaction_version, deadline_s)
        txn.ready(script.partitions)
        txn.find_coordinator()  # before the first step, as a client does
        return drive(script, txn, f"broker at {host}:{port}")
