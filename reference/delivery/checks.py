"""The delivery checks of offsets, definite failures, implied acks, log sequences, epochs and liveness.

Each function takes the :class:`TraceIndex` of one run and the
:class:`DeliveryConfig`, and returns one :class:`Verdict`; see
:mod:`delivery` for the attribution rules and :mod:`verdicts` for the names.
"""

from __future__ import annotations

from kafka_conformance.reference.broker.batches import INT32_MAX, LogRecord, increment_sequence
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.delivery.run import (
    BROKER,
    CLIENT,
    LOSS_FAULTS,
    OUTSIDE,
    STATE_FAULTS,
    DeliveryConfig,
    TraceIndex,
    verdict_of,
)
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Property, Verdict
from kafka_conformance.reference.traces.events import Acked, Failed, FaultKind

SEQUENCE_SPACE = INT32_MAX + 1
"""Sequences run 0..Int.MAX and then wrap to 0 (KAFKA-7692)."""

__all__ = [
    "check_definite_failures",
    "check_epochs",
    "check_implied_acks",
    "check_liveness",
    "check_offsets",
    "check_sequences",
]


def check_offsets(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    """G-OFF: an acknowledged offset o >= 0 holds the acknowledged value."""
    found = []
    for value, (_, done) in run.completions.items():
        if not isinstance(done, Acked) or done.offset < 0:
            continue
        partition = run.sends[value].partition
        copies = [r for p, r in run.in_log(value) if p == partition]
        if not copies or any(r.offset == done.offset for r in copies):
            continue  # a missing value is G-ALO's business
        reported = run.success_offsets(value) or []
        gap = cfg.durability_gap() or run.fault(partition, LOSS_FAULTS)
        if gap:
            who, why = OUTSIDE, gap
        elif done.offset in reported or not reported:
            who, why = BROKER, f"the broker answered offset {done.offset}, the record is at {copies[0].offset}"
        else:
            who, why = CLIENT, f"the client reported offset {done.offset}, the broker answered {sorted(set(reported))}"
        found.append(Anomaly("wrong-offset", Property.OFFSETS, who, why, partition, (value,), (done.offset, copies[0].offset)))
    return verdict_of(Property.OFFSETS, found)


def check_definite_failures(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    """G-DEF: a value the client definitely failed is not in the log."""
    found = []
    for value, (_, done) in run.completions.items():
        copies = run.in_log(value)
        if not isinstance(done, Failed) or not copies:
            continue
        attempts = run.attempts.get(value, [])
        answers = [run.responses.get(a.attempt_id, []) for a, _ in attempts]
        if attempts and all(answers) and all(r.error.appended is Appended.NO for rs in answers for r in rs):
            who, why = BROKER, "every attempt was answered 'not written', yet the record is in the log"
        else:
            who, why = CLIENT, f"reported a definite failure ({done.error or 'error'}) although an attempt may have been written"
        found.append(Anomaly("failed-write-present", Property.DEFINITE_FAILURES, who, why, copies[0][0], (value,), (copies[0][1].offset,)))
    return verdict_of(Property.DEFINITE_FAILURES, found)


def check_implied_acks(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    """G-IMPLIED: an acked sequence of a (pid, epoch) run implies every lower one is in the log."""
    acked = [v for v, (_, d) in run.completions.items() if isinstance(d, Acked)]
    if acked and not run.attempts:
        return verdict_of(Property.IMPLIED_ACK, [], "the trace has no Attempt events")
    runs: dict[tuple[int, int, int], dict[str, int]] = {}  # (partition, pid, epoch) -> value -> sequence
    for value, attempts in run.attempts.items():
        for attempt, index in attempts:
            if attempt.producer_id >= 0:
                key = (attempt.partition, attempt.producer_id, attempt.producer_epoch)
                runs.setdefault(key, {}).setdefault(value, increment_sequence(attempt.base_sequence, index))
    # A sequence in the log is there whichever record the client stamped with it: when a client gave a
    # sequence to two records (KafkaJS, docs/spec/idempotence.md §3), the one not written is not a gap.
    filled = run.logged_stamps()
    found = []
    for (partition, pid, epoch), members in runs.items():
        present = {v for v in members if any(p == partition for p, _ in run.in_log(v)) or (partition, pid, epoch, members[v]) in filled}
        # Positions along the run, from its first attempted sequence: a run seeded near
        # Int.MAX wraps to 0, and 0 then comes *after* Int.MAX.
        origin = next(iter(members.values()))
        position = {v: (s - origin) % SEQUENCE_SPACE for v, s in members.items()}
        proofs = sorted((position[v], v) for v in members if v in acked and _acked_in_run(run, v, partition, pid, epoch))
        for value in sorted(members, key=position.__getitem__):
            later = next(((pos, v) for pos, v in proofs if pos > position[value]), None)
            if value in present or later is None:
                continue
            gap = cfg.durability_gap() or run.fault(partition, STATE_FAULTS)
            who, why = (OUTSIDE, gap) if gap else _implied_blame(run, later[1], partition, pid)
            why = f"sequence {members[later[1]]} of (pid {pid}, epoch {epoch}) acknowledged without sequence {members[value]}: {why}"
            found.append(Anomaly("implied-write-lost", Property.IMPLIED_ACK, who, why, partition, (value, later[1])))
    return verdict_of(Property.IMPLIED_ACK, found)


def _acked_in_run(run: TraceIndex, value: str, partition: int, pid: int, epoch: int) -> bool:
    """The ack of ``value`` vouches for this run: its log copy (or, absent one, an attempt) is of it."""
    copies = [r for p, r in run.in_log(value) if p == partition]
    if copies:
        return any((r.producer_id, r.producer_epoch) == (pid, epoch) for r in copies)
    return any((a.producer_id, a.producer_epoch) == (pid, epoch) for a, _ in run.attempts.get(value, []))


def _implied_blame(run: TraceIndex, proof: str, partition: int, pid: int) -> tuple[Attribution, str]:
    if run.success_offsets(proof) == []:
        return CLIENT, f"{proof} was acknowledged without a successful response"
    first = next((r for r in run.log.get(partition, []) if r.producer_id == pid), None)
    if first is not None and first.value == proof:
        return BROKER, "the broker accepted a non-zero first sequence on empty state (KAFKA-15591; AK 2.5-4.4 do)"
    return BROKER, "the broker appended past a gap in the sequence"


def check_sequences(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    """L-SEQ: per (pid, epoch), sequences in the log are contiguous; a new epoch starts at 0.
    A producer id's first record may carry any sequence (the broker had no state)."""
    found = []
    for partition, records in run.log.items():
        last: dict[int, LogRecord] = {}
        gap = run.fault(partition, STATE_FAULTS)
        for record in records:
            pid = record.producer_id
            previous = last.get(pid)
            if pid < 0 or record.sequence < 0:
                continue
            last[pid] = record
            if previous is None or record.producer_epoch < previous.producer_epoch:
                continue  # first record of the producer, or L-EPOCH's business
            name, why = _sequence_step(previous, record)
            if name:
                who = OUTSIDE if gap else BROKER
                pair, offsets = (previous.value, record.value), (previous.offset, record.offset)
                found.append(Anomaly(name, Property.SEQUENCES, who, gap or why, partition, pair, offsets))
    return verdict_of(Property.SEQUENCES, found)


def _sequence_step(previous: LogRecord, record: LogRecord) -> tuple[str, str]:
    if record.producer_epoch > previous.producer_epoch:
        if record.sequence == 0:
            return "", ""
        return "bad-epoch-start", f"epoch {record.producer_epoch} starts at sequence {record.sequence}, not 0"
    expected = increment_sequence(previous.sequence, 1)
    if record.sequence == expected:
        return "", ""
    ahead = (record.sequence - expected) % (INT32_MAX + 1)
    if ahead < (INT32_MAX + 1) // 2:
        return "sequence-gap", f"sequence {previous.sequence} followed by {record.sequence}"
    return "sequence-overlap", f"sequence {previous.sequence} followed by {record.sequence}"


def check_epochs(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    """L-EPOCH: per producer id, epochs never decrease along the log."""
    found = []
    for partition, records in run.log.items():
        highest: dict[int, LogRecord] = {}
        gap = run.fault(partition, (FaultKind.HARD_FAILURE,))
        for record in records:
            top = highest.get(record.producer_id)
            if record.producer_id < 0:
                continue
            if top is not None and record.producer_epoch < top.producer_epoch:
                why = f"epoch {record.producer_epoch} after epoch {top.producer_epoch}: a fenced producer was written"
                who = OUTSIDE if gap else BROKER
                pair, offsets = (top.value, record.value), (top.offset, record.offset)
                found.append(Anomaly("epoch-regression", Property.EPOCHS, who, gap or why, partition, pair, offsets))
            elif top is None or record.producer_epoch > top.producer_epoch:
                highest[record.producer_id] = record
    return verdict_of(Property.EPOCHS, found)


def check_liveness(run: TraceIndex, cfg: DeliveryConfig, end_ms: int) -> Verdict:
    """LIVE: each send completes within delivery.timeout.ms + slack; after HEALED, sends succeed."""
    limit = cfg.delivery_timeout_ms + cfg.liveness_slack_ms
    healed = [f.time_ms for f in run.faults if f.kind is FaultKind.HEALED]
    found, pending = [], 0
    for value, send in run.sends.items():
        done = run.outcome(value)
        took = (done.time_ms if done is not None else end_ms) - send.time_ms
        if took > limit:
            name = "late-completion" if done is not None else "stuck-send"
            found.append(Anomaly(name, Property.LIVENESS, CLIENT, f"{took} ms > {limit} ms", send.partition, (value,)))
        elif done is None:
            pending += 1
        if healed and send.time_ms >= healed[-1] + cfg.delivery_timeout_ms and done is not None and not isinstance(done, Acked):
            why = f"failed {healed[-1]} ms + delivery.timeout.ms after every fault healed"
            found.append(Anomaly("wedged-producer", Property.LIVENESS, CLIENT, why, send.partition, (value,)))
    return verdict_of(Property.LIVENESS, found, f"{pending} sends still pending within their deadline" if pending else "")
