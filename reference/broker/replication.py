"""A replicated partition: leader, followers, ISR, acks, crashes and elections.

Small on purpose: enough to decide which acknowledged writes a partition must
keep (KIP-185: acks=all, replication factor >= 2, min.insync.replicas >= 2, no
unclean election, no hard or concurrent failure) and to show that a new leader
deduplicates retries because followers rebuild producer state from the batches
they replicate (``docs/spec/idempotence.md`` §1.3 step 6).

Modelling choices, each the net effect of Kafka's mechanism rather than the
mechanism itself [inferred]:

* a fetch copies the whole leader tail; a follower whose log end equals the
  leader's rejoins the ISR; the high watermark is the smallest log end in the ISR;
* a follower that meets a new leader truncates to their longest common prefix
  (what KIP-101/KIP-279 leader-epoch truncation achieves);
* a crashed replica leaves the ISR at once (``replica.lag.time.max.ms`` elapsed),
  except the last member, which stays (the "last replica standing", KIP-966);
* ``crash(lose_unflushed=True)`` is a power loss: the log falls back to what was
  flushed; either way the replica comes back with what crash recovery rebuilds
  (:meth:`PartitionLog.restart`: each producer's last batch only);
* an acks=all request is answered once the high watermark passes it:
  NONE, or NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR is then below
  min.insync.replicas; NOT_LEADER_OR_FOLLOWER if leadership moved first; nothing
  at all if its leader crashed (the client sees a disconnect).
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.partition_log import PartitionLog, ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = ["Partition", "Pending", "Replica"]


@attrs.define
class Replica:
    broker_id: int
    log: PartitionLog
    alive: bool = True
    flushed_offset: int = 0
    """Log end offset at the last fsync; a power loss keeps only what lies below it."""


@attrs.frozen
class Pending:
    """An acks=all request waiting for the high watermark to reach ``required_offset``."""

    request_id: int
    leader: int
    required_offset: int
    response: ProduceResponse


class Partition:
    """One partition replicated on brokers ``0 .. replication_factor - 1``; broker 0 leads first."""

    def __init__(
        self,
        profile: BrokerProfile,
        *,
        replication_factor: int = 3,
        min_insync_replicas: int = 2,
        unclean_leader_election: bool = False,
        message_format: int = 2,
    ) -> None:
        if replication_factor < 1 or min_insync_replicas < 1:
            raise ValueError("replication factor and min.insync.replicas must be at least 1")
        self.profile = profile
        self.min_insync_replicas = min_insync_replicas
        self.unclean_leader_election = unclean_leader_election
        self.replicas = {b: Replica(b, PartitionLog(profile, message_format=message_format)) for b in range(replication_factor)}
        self.leader: int | None = 0
        self.leader_epoch = 0
        self.isr: set[int] = set(self.replicas)
        self.high_watermark = 0
        self.pending: list[Pending] = []
        self.unclean_elections = 0

    # -- produce ---------------------------------------------------------------------
    def produce(self, batch: ProducerBatch, *, acks: int = -1, request_id: int = 0, broker: int | None = None) -> ProduceResponse | None:
        """Send one batch to ``broker`` (default: the leader).  Returns the response, or None
        while an acks=all request waits for replication (see :meth:`completed`).  With acks=0
        the client never sees the response; it is returned all the same."""
        target = self.leader if broker is None else broker
        if target is None or target != self.leader or not self.replicas[target].alive:
            return ProduceResponse(ProduceError.NOT_LEADER_OR_FOLLOWER, rule="not the leader")
        log = self.replicas[target].log
        if acks == -1 and len(self.isr) < self.min_insync_replicas:
            return ProduceResponse(ProduceError.NOT_ENOUGH_REPLICAS, -1, log.log_start_offset, "ISR below min.insync.replicas")
        response = log.append_client(batch, leader_epoch=self.leader_epoch)
        self._advance_high_watermark()
        if acks != -1 or response.error is not ProduceError.NONE:
            # A refusal, DUPLICATE_SEQUENCE_NUMBER (1.0.0/1.0.1) included, is the append's exception:
            # answered at once, never parked to wait for replication (ReplicaManager.scala@1.0.1:
            # 756-766 keeps any Throwable as the partition's result, 688-694 waits only without one).
            return response
        self.pending.append(Pending(request_id, target, response.base_offset + batch.record_count, response))
        return None

    def completed(self) -> list[tuple[int, ProduceResponse]]:
        """Answers to waiting acks=all requests that can now be given, in request order."""
        done, waiting = [], []
        for p in self.pending:
            if p.leader != self.leader:
                done.append((p.request_id, ProduceResponse(ProduceError.NOT_LEADER_OR_FOLLOWER, rule="leadership moved")))
            elif self.high_watermark >= p.required_offset:
                short = len(self.isr) < self.min_insync_replicas
                error = ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND if short else ProduceError.NONE
                done.append((p.request_id, attrs.evolve(p.response, error=error, base_offset=-1 if short else p.response.base_offset)))
            else:
                waiting.append(p)
        self.pending = waiting
        return done

    # -- replication -------------------------------------------------------------------
    def replicate(self, follower: int) -> None:
        """One fetch by ``follower``: truncate to the common prefix, copy the leader's tail."""
        if self.leader is None or follower == self.leader or not self.replicas[follower].alive:
            return
        leader_log = self.replicas[self.leader].log
        log = self.replicas[follower].log
        log.truncate_to(_common_prefix_end(leader_log, log))
        replica = self.replicas[follower]
        replica.flushed_offset = min(replica.flushed_offset, log.log_end_offset)
        for entry in leader_log.entries_from(log.log_end_offset):
            log.append_replicated(entry)
        if log.log_end_offset == leader_log.log_end_offset:
            self.isr.add(follower)
        self._advance_high_watermark()

    def replicate_all(self) -> None:
        for broker in sorted(self.replicas):
            self.replicate(broker)

    def _advance_high_watermark(self) -> None:
        if self.leader is None:
            return
        live_isr = [b for b in self.isr if self.replicas[b].alive]
        if live_isr:
            self.high_watermark = max(self.high_watermark, min(self.replicas[b].log.log_end_offset for b in live_isr))

    # -- faults ---------------------------------------------------------------------------
    def flush(self, broker: int) -> None:
        replica = self.replicas[broker]
        replica.flushed_offset = replica.log.log_end_offset

    def crash(self, broker: int, *, lose_unflushed: bool = True, clean: bool = False) -> list[int]:
        """Stop ``broker`` (``clean``: a shutdown that flushes and snapshots, ``Log.close``); returns the
        ids of the requests that will never be answered."""
        replica = self.replicas[broker]
        replica.alive = False
        if clean:  # the shutdown flushes the log
            replica.flushed_offset = replica.log.log_end_offset
        elif lose_unflushed:
            replica.log.lose_tail(replica.flushed_offset)
        replica.log.restart(clean=clean)  # recovered now: nothing happens to a stopped broker's files
        if len(self.isr) > 1:
            self.isr.discard(broker)
        lost = [p.request_id for p in self.pending if p.leader == broker]
        self.pending = [p for p in self.pending if p.leader != broker]
        if self.leader == broker:
            self.leader = None
        self._advance_high_watermark()
        return lost

    def restart(self, broker: int) -> None:
        """Bring ``broker`` back as a follower (it rejoins the ISR once caught up)."""
        self.replicas[broker].alive = True

    def shrink_isr(self, broker: int) -> None:
        """The leader drops a lagging follower from the ISR."""
        if broker != self.leader and len(self.isr) > 1:
            self.isr.discard(broker)
            self._advance_high_watermark()

    def elect(self, broker: int | None = None, *, unclean: bool = False) -> int | None:
        """Elect a leader: a live ISR member, or with unclean election any live replica."""
        alive = sorted(b for b, r in self.replicas.items() if r.alive)
        clean = [b for b in alive if b in self.isr]
        allow_unclean = unclean or self.unclean_leader_election
        candidates = clean or (alive if allow_unclean else [])
        if broker is not None:
            candidates = [broker] if broker in clean or (allow_unclean and broker in alive) else []
        if not candidates:
            self.leader = None
            return None
        new = candidates[0]
        if new not in self.isr:
            self.unclean_elections += 1
            self.isr = {new}
        self.leader = new
        self.leader_epoch += 1
        self.isr = {b for b in self.isr if self.replicas[b].alive} or {new}
        self.high_watermark = min(self.high_watermark, self.replicas[new].log.log_end_offset)
        self._advance_high_watermark()
        return new

    def expire_producers(self, now_ms: int, expiration_ms: int | None = None) -> None:
        for replica in self.replicas.values():
            replica.log.expire_producers(now_ms, expiration_ms)

    # -- reading --------------------------------------------------------------------------
    def leader_log(self) -> PartitionLog | None:
        return None if self.leader is None else self.replicas[self.leader].log

    def records(self) -> tuple[LogRecord, ...]:
        """What a consumer reads after healing: the leader's log up to its log end
        (read_uncommitted; call :meth:`replicate_all` first so the ISR agrees)."""
        log = self.leader_log()
        return () if log is None else log.records()


def _common_prefix_end(leader: PartitionLog, follower: PartitionLog) -> int:
    """The offset up to which ``follower`` holds exactly the leader's batches."""
    leader_entries = {e.base_offset: e for e in leader.entries}
    end = follower.log_start_offset
    for entry in follower.entries:
        if leader_entries.get(entry.base_offset) != entry:
            break
        end = entry.last_offset + 1
    return end

