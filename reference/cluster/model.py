"""A socket-free Kafka cluster: brokers, replicated partitions, a fault plan, and the trace it logs.

Both the Python test broker (real clients over real sockets) and the in-process
model engine (a model producer in simulated time) drive this one class, so a
:class:`~producer_program.ProducerTrace` means the same thing in both and the
events they log are judged by the same :func:`~delivery.check_delivery`.

What it models, and the choices made:

* ``spec.brokers`` brokers; partition ``p`` lives on brokers ``p, p+1, ...``
  (mod ``brokers``), ``replication_factor`` of them, the first leading.  Each
  partition is a :class:`~replication.Partition` governed by the
  :func:`~kafka_conformance.reference.broker.profile.broker_profile` of ``spec.kafka_version``.
* **Produce**: every request is counted through the plan
  (:class:`~fault_plan.RequestCounter`, retries and misdirected requests
  included) and logged as an :class:`~trace.Attempt`.  acks=all requests are
  replicated to the live in-sync followers at once and answered (the high
  watermark then covers them); acks=0/1 leave the followers behind until
  :meth:`ClusterModel.replicate`, so a leader crash can lose that tail.
* **Flushing**: a replica's log is flushed only by :meth:`ClusterModel.replicate`
  (which stands for "time passed: followers fetched and the flusher ran") or
  :meth:`ClusterModel.flush`; a crash is a power loss and drops everything after
  the last flush.  The brokers are not restarted on their own.
* **InitProducerId** with a null transactional id: always a fresh producer id at
  epoch 0, whatever id and epoch the request carries (``TransactionCoordinator.
  handleInitProducerId``: "blindly accept ... return a new producerId"); a
  request carrying only one of the two is INVALID_REQUEST (``KafkaApis``, v3+).
  So a KIP-360 "bump" by librdkafka or kafka-python yields a new id, as on Kafka.
* Thread-unsafe by design (the socket layer holds a lock) and deterministic:
  the same calls with the same clock give the same events.
"""

from __future__ import annotations

from collections.abc import Callable

from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.partition_log import LogEntry, PartitionLog, ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.profile import BrokerProfile, broker_profile
from kafka_conformance.reference.broker.replication import Partition, Replica
from kafka_conformance.reference.cluster.values import (
    ClusterMetadata,
    InitProducerIdError,
    InitProducerIdResult,
    PartitionMetadata,
    ProduceOutcome,
)
from kafka_conformance.reference.traces.events import Attempt, Event, Fault, FaultKind, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule, RequestCounter
from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep

__all__ = [
    "FIRST_PRODUCER_ID",
    "ClusterMetadata",
    "ClusterModel",
    "InitProducerIdError",
    "InitProducerIdResult",
    "PartitionMetadata",
    "ProduceOutcome",
]

FIRST_PRODUCER_ID = 1000
"""Arbitrary but fixed, so that runs are reproducible and ids are easy to spot in a trace."""


class ClusterModel:
    """The cluster of one run: call :meth:`produce` per partition of each produce request."""

    def __init__(self, spec: ClusterSpec, plan: FaultPlan | None = None, *, clock: Callable[[], int],
                 log_class: type[PartitionLog] = PartitionLog) -> None:
        """``log_class`` makes each replica's log: the reference's own, or (in the kit's
        quality tests) a faulty producer-state model put on the broker side only."""
        self.spec = spec
        self.log_class = log_class
        self.plan = plan if plan is not None else FaultPlan()
        self.profile: BrokerProfile = broker_profile(spec.kafka_version)
        self.clock = clock
        self.counter = RequestCounter(self.plan)
        self.alive: dict[int, bool] = {b: True for b in range(spec.brokers)}
        self.partitions: list[Partition] = [self._new_partition(p) for p in range(spec.partitions)]
        self.disconnect_generation = 0
        """Bumped by a DISCONNECT step: the socket layer closes every client connection."""
        self.crash_generation: dict[int, int] = {b: 0 for b in range(spec.brokers)}
        """Bumped when a broker crashes: the socket layer closes that broker's connections."""
        self._events: list[Event] = []
        self._next_attempt = 1
        self._next_producer_id = FIRST_PRODUCER_ID
        self._leaderless: dict[int, tuple[int, int | None]] = {}
        """partition -> (until_ms, leader to restore)."""

    def _new_partition(self, p: int) -> Partition:
        spec = self.spec
        part = Partition(self.profile, replication_factor=spec.replication_factor, min_insync_replicas=spec.min_insync_replicas)
        placement = self.placement(p)
        # Partition numbers its replicas 0..rf-1; re-key them by broker id so that the
        # broker names in steps and metadata are the partition's own.
        part.replicas = {b: Replica(b, self.log_class(self.profile)) for b in placement}
        part.leader = placement[0]
        part.isr = set(placement)
        return part

    def placement(self, partition: int) -> tuple[int, ...]:
        """The brokers holding ``partition``, preferred leader first."""
        return tuple((partition + i) % self.spec.brokers for i in range(self.spec.replication_factor))

    # ------------------------------------------------------------------ reading
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def leader(self, partition: int) -> int | None:
        self._tick()
        return self.partitions[partition].leader

    def live_brokers(self) -> tuple[int, ...]:
        return tuple(b for b, up in sorted(self.alive.items()) if up)

    def metadata(self) -> ClusterMetadata:
        self._tick()
        parts = tuple(
            PartitionMetadata(
                p,
                part.leader,
                part.leader_epoch,
                self.placement(p),
                tuple(b for b in self.placement(p) if b in part.isr),
            )
            for p, part in enumerate(self.partitions)
        )
        live = self.live_brokers()
        return ClusterMetadata(self.spec.topic, live, live[0] if live else -1, parts)

    def committed_log(self, partition: int) -> tuple[LogRecord, ...]:
        """Records of ``partition`` below the high watermark of its current leader."""
        self._tick()
        part = self.partitions[partition]
        log = part.leader_log()
        if log is None:
            return ()
        return tuple(r for r in log.records() if r.offset < part.high_watermark)

    def final_log(self) -> dict[int, tuple[LogRecord, ...]]:
        """What a consumer reads now: each leader's records below its high watermark
        (empty for a partition without a leader).  Call :meth:`heal` first for the
        read at the end of a run."""
        return {p: self.committed_log(p) for p in range(len(self.partitions))}

    def log_start(self) -> dict[int, int]:
        out = {}
        for p, part in enumerate(self.partitions):
            log = part.leader_log()
            out[p] = 0 if log is None else log.log_start_offset
        return out

    def delete_records(self, broker: int, partition: int, before: int) -> tuple[bool, int]:
        """DeleteRecords at ``broker`` (KIP-107): (accepted, the new log start offset).  Refused
        when ``broker`` does not lead the partition or ``before`` lies beyond the high
        watermark; -1 means the high watermark.  Every live replica's log start follows at once
        (Kafka's answer waits until the followers' do)."""
        self._tick()
        part = self.partitions[partition]
        if part.leader != broker:
            return False, -1
        offset = part.high_watermark if before == -1 else before
        if not 0 <= offset <= part.high_watermark:
            return False, -1
        for replica in part.replicas.values():
            if replica.alive:
                replica.log.delete_records(offset)
        log = part.leader_log()
        return True, (log.log_start_offset if log is not None else offset)

    def high_watermark(self, partition: int) -> int:
        self._tick()
        return self.partitions[partition].high_watermark

    def leader_log(self, partition: int) -> PartitionLog | None:
        self._tick()
        return self.partitions[partition].leader_log()

    # ---------------------------------------------------------------- producer ids
    def init_producer_id(self, *, producer_id: int = -1, producer_epoch: int = -1) -> InitProducerIdResult:
        """InitProducerId with a null transactional id (idempotent producers)."""
        if (producer_id == -1) != (producer_epoch == -1):
            return InitProducerIdResult(
                InitProducerIdError.INVALID_REQUEST, rule=f"producer id {producer_id} and epoch {producer_epoch}: both or neither"
            )
        pid = self._next_producer_id
        self._next_producer_id += 1
        rule = "new producer id" if producer_id == -1 else f"null transactional id: a new producer id replaces {producer_id}"
        return InitProducerIdResult(InitProducerIdError.NONE, pid, 0, rule)

    # --------------------------------------------------------------------- produce
    def produce(self, broker: int, partition: int, batch: ProducerBatch, acks: int) -> ProduceOutcome:
        """One produce request's batch for ``partition`` arriving at ``broker``."""
        self._tick()
        if not 0 <= partition < len(self.partitions):
            raise ValueError(f"partition {partition} does not exist (the topic has {len(self.partitions)})")
        if acks not in (-1, 0, 1):
            raise ValueError(f"acks={acks}: only -1 (all), 0 and 1 exist")
        now = self.clock()
        rule = self.counter.next(partition)
        attempt_id = self._next_attempt
        self._next_attempt += 1
        self._events.append(
            Attempt(attempt_id, batch.values, partition, batch.producer_id, batch.producer_epoch, batch.base_sequence, now)
        )
        action = rule.action
        part = self.partitions[partition]
        if action is Action.DROP_REQUEST:
            self._events.append(Fault(FaultKind.REQUEST_DROPPED, partition, now))
            return ProduceOutcome(attempt_id, rule, None, None)
        if action is Action.DISCONNECT_BEFORE:
            self._events.append(Fault(FaultKind.DISCONNECT, partition, now))
            return ProduceOutcome(attempt_id, rule, None, None, close_connection=True)
        if action is Action.ERROR:
            assert rule.error is not None
            injected = ProduceResponse(rule.error, -1, self._log_start(part), f"injected {rule.error.name}")
            return ProduceOutcome(attempt_id, rule, None, None if acks == 0 else injected, rule.delay_ms)
        result = self._handle(part, broker, batch, acks, attempt_id)
        return self._answer(attempt_id, rule, partition, result, acks, now)

    def _handle(self, part: Partition, broker: int, batch: ProducerBatch, acks: int, attempt_id: int) -> ProduceResponse:
        answer = part.produce(batch, acks=acks, request_id=attempt_id, broker=broker)
        if answer is not None:
            return answer
        # acks=all: the live in-sync followers fetch now, then the waiting request completes.
        for follower in sorted(part.isr):
            _fetch(part, follower)
        for request_id, done in part.completed():
            if request_id == attempt_id:
                return done
        part.pending = [p for p in part.pending if p.request_id != attempt_id]
        return ProduceResponse(ProduceError.REQUEST_TIMED_OUT, -1, self._log_start(part), "acks=all: high watermark did not advance")

    def _answer(self, attempt_id: int, rule: ProduceRule, partition: int, result: ProduceResponse, acks: int, now: int) -> ProduceOutcome:
        action = rule.action
        if action is Action.DROP_RESPONSE:
            self._events.append(Fault(FaultKind.RESPONSE_DROPPED, partition, now))
            return ProduceOutcome(attempt_id, rule, result, None)
        if action is Action.DISCONNECT_AFTER:
            self._events.append(Fault(FaultKind.DISCONNECT, partition, now))
            return ProduceOutcome(attempt_id, rule, result, None, close_connection=True)
        response = result
        if action is Action.ERROR_AFTER_APPEND:
            assert rule.error is not None
            response = ProduceResponse(rule.error, -1, result.log_start_offset, f"injected {rule.error.name} after: {result.rule}")
        return ProduceOutcome(attempt_id, rule, result, None if acks == 0 else response, rule.delay_ms)

    def responded(self, attempt_id: int, response: ProduceResponse) -> None:
        """Log the answer to ``attempt_id`` at the moment it is sent."""
        self._events.append(Response(attempt_id, response.error, response.base_offset, self.clock()))

    @staticmethod
    def _log_start(part: Partition) -> int:
        log = part.leader_log()
        return -1 if log is None else log.log_start_offset

    # --------------------------------------------------------------------- cluster steps
    def apply(self, step: ClusterStep) -> None:
        """One cluster fault of the program, logged as the matching :class:`~trace.Fault`."""
        self._tick()
        now = self.clock()
        action = step.action
        if action is ClusterAction.FAILOVER:
            assert step.partition is not None
            self._failover(self._partition_index(step.partition), now)
        elif action is ClusterAction.CRASH:
            assert step.broker is not None
            self._crash(self._broker_index(step.broker), now)
        elif action is ClusterAction.STOP:
            assert step.broker is not None
            self._crash(self._broker_index(step.broker), now, clean=True)
        elif action is ClusterAction.RESTART:
            assert step.broker is not None
            self._restart(self._broker_index(step.broker))
        elif action is ClusterAction.EXPIRE_PRODUCERS:
            targets = range(len(self.partitions)) if step.partition is None else [self._partition_index(step.partition)]
            for p in targets:
                for replica in self.partitions[p].replicas.values():
                    replica.log.producers.clear()  # forced expiry, whatever the idle time
            self._events.append(Fault(FaultKind.PRODUCER_ID_EXPIRED, step.partition, now))
        elif action is ClusterAction.DISCONNECT:
            self.disconnect_generation += 1
            self._events.append(Fault(FaultKind.DISCONNECT, step.partition, now))
        elif action is ClusterAction.LEADERLESS:
            assert step.partition is not None
            p = self._partition_index(step.partition)
            part = self.partitions[p]
            previous = self._leaderless[p][1] if p in self._leaderless else part.leader
            self._leaderless[p] = (now + step.duration_ms, previous)
            part.leader = None
            self._events.append(Fault(FaultKind.NETWORK_PARTITION, p, now))
        else:  # pragma: no cover - every ClusterAction is handled above
            raise ValueError(f"unknown cluster action {action}")

    def _partition_index(self, partition: int) -> int:
        if not 0 <= partition < len(self.partitions):
            raise ValueError(f"cluster step names partition {partition}; the topic has {len(self.partitions)}")
        return partition

    def _broker_index(self, broker: int) -> int:
        if broker not in self.alive:
            raise ValueError(f"cluster step names broker {broker}; the cluster has {self.spec.brokers}")
        return broker

    def _failover(self, p: int, now: int) -> None:
        """Clean leadership move to the next live in-sync replica in placement order."""
        part = self.partitions[p]
        self._leaderless.pop(p, None)
        order = self.placement(p)
        current = part.leader
        start = order.index(current) + 1 if current in order else 0
        candidates = [b for b in order[start:] + order[:start] if b != current and b in part.isr and self.alive[b]]
        if candidates:
            part.elect(candidates[0])
        elif current is None:
            part.elect()
        else:  # no other in-sync replica: the same leader is re-elected under a new epoch
            part.elect(current)
        part.replicate_all()  # the old leader follows at once, truncating any unreplicated tail
        self._events.append(Fault(FaultKind.LEADER_FAILOVER, p, now))

    def _crash(self, broker: int, now: int, *, clean: bool = False) -> None:
        """A crash (power loss: the unflushed tail is lost) or, ``clean``, a shutdown that loses nothing.
        A crash leaving a committed record on no live replica is a concurrent failure (KIP-185); a clean
        stop never is: the records are on its disk, and its producer state in a snapshot."""
        if not self.alive[broker]:
            return
        self.alive[broker] = False
        self.crash_generation[broker] += 1
        self._events.append(Fault(FaultKind.BROKER_STOP if clean else FaultKind.BROKER_CRASH, None, now))
        for p, part in enumerate(self.partitions):
            if broker not in part.replicas:
                continue
            committed = self._committed_entries(part)
            part.crash(broker, lose_unflushed=True, clean=clean)
            held = {e for r in part.replicas.values() if r.alive for e in r.log.entries}
            if committed - held and not clean:
                self._events.append(Fault(FaultKind.CONCURRENT_FAILURE, p, now))
            if part.leader is None:
                self._elect_if_possible(p)

    @staticmethod
    def _committed_entries(part: Partition) -> set[LogEntry]:
        return {e for r in part.replicas.values() if r.alive for e in r.log.entries if e.last_offset < part.high_watermark}

    def _restart(self, broker: int) -> None:
        if self.alive[broker]:
            return
        self.alive[broker] = True
        for p, part in enumerate(self.partitions):
            if broker not in part.replicas:
                continue
            part.restart(broker)
            if part.leader is None:
                self._elect_if_possible(p)
            part.replicate(broker)

    def _elect_if_possible(self, p: int) -> None:
        if p not in self._leaderless:
            self.partitions[p].elect()

    def _tick(self) -> None:
        """End the leaderless periods that are over: the previous leader returns if it can."""
        if not self._leaderless:
            return
        now = self.clock()
        for p, (until, previous) in sorted(self._leaderless.items()):
            if now < until:
                continue
            del self._leaderless[p]
            part = self.partitions[p]
            if previous is not None and self.alive[previous] and previous in part.isr:
                part.elect(previous)
            else:
                part.elect()
            if not self._leaderless and all(self.alive.values()):
                # The last fault just ended: from here on the producer must make progress (LIVE).
                self._events.append(Fault(FaultKind.HEALED, None, now))

    # --------------------------------------------------------------------- maintenance
    def replicate(self) -> None:
        """One fetch round: every live follower catches up with its leader; then every live
        replica flushes (the background flusher ran)."""
        self._tick()
        for part in self.partitions:
            for follower in sorted(part.replicas):
                _fetch(part, follower)
        self.flush()

    def flush(self, broker: int | None = None) -> None:
        for part in self.partitions:
            for b, replica in part.replicas.items():
                if replica.alive and broker in (None, b):
                    part.flush(b)

    def heal(self) -> None:
        """End every fault: leaderless periods end, crashed brokers restart, leaders are
        elected where possible and followers catch up.  Logs HEALED."""
        now = self.clock()
        for p, (_, previous) in sorted(self._leaderless.items()):
            del self._leaderless[p]
            part = self.partitions[p]
            if previous is not None and self.alive[previous] and previous in part.isr:
                part.elect(previous)
            else:
                part.elect()
        for broker in sorted(b for b, up in self.alive.items() if not up):
            self._restart(broker)
        for p, part in enumerate(self.partitions):
            if part.leader is None:
                self._elect_if_possible(p)
        self.replicate()
        self._events.append(Fault(FaultKind.HEALED, None, now))


def _fetch(part: Partition, follower: int) -> None:
    """One fetch by ``follower``, as :meth:`Partition.replicate` does, in time proportional to
    what is new when the follower's log is a prefix of the leader's (the usual case).

    The prefix test is by identity: replicated entries are the leader's own objects, so a
    follower whose last entry *is* the leader's entry at the same position holds exactly the
    leader's prefix (``Partition.replicate`` compares the whole log instead).  Anything
    else - a diverged or truncated follower - takes the full path."""
    if part.leader is None or follower == part.leader or not part.replicas[follower].alive:
        return
    leader_log = part.replicas[part.leader].log
    log = part.replicas[follower].log
    held = len(log.entries)
    if (
        log.log_start_offset != leader_log.log_start_offset
        or held > len(leader_log.entries)
        or (held and leader_log.entries[held - 1] is not log.entries[-1])
    ):
        part.replicate(follower)
        return
    for entry in leader_log.entries[held:]:
        log.append_replicated(entry)
    if log.log_end_offset == leader_log.log_end_offset:
        part.isr.add(follower)
    live_isr = [b for b in part.isr if part.replicas[b].alive]
    if live_isr:
        part.high_watermark = max(part.high_watermark, min(part.replicas[b].log.log_end_offset for b in live_isr))
