"""The delivery checker: a pure function from (trace, final log, configuration) to verdicts.

:func:`check_delivery` judges every property of ``docs/spec/idempotence.md`` §3 (G-AMO,
G-ALO, G-EO, G-ORD, G-OFF, G-DEF, G-IMPLIED, L-SEQ, L-EPOCH, LIVE) and names
each anomaly it finds (:mod:`verdicts`).  Attribution follows KIP-185: an
anomaly is *outside the guarantee* when the configuration never promised the
property (acks other than all, replication factor 1, idempotence off, ...) or
the trace holds a fault that voids it; otherwise it is the broker's or the
client's, decided from the wire events when the trace has them:

* the same (pid, epoch, sequence) in the log twice is the broker's (dedup failed);
  the same value under two sequences is the client's (it re-stamped a possibly
  written batch, cf. KAFKA-14034);
* an ack for a value no attempt of which succeeded is the client's, and so is an acknowledged
  value missing from the log that the client stamped with a (pid, epoch, sequence) under which
  the log holds another value (the broker answered it as that one's duplicate);
* a definite failure of a value in the log is the client's, unless every attempt
  got an answer saying "not written" (then the broker lied);
* log-only properties (L-SEQ, L-EPOCH) and G-IMPLIED gaps are the broker's.

Sequence comparisons ignore the Int.MAX wrap in G-ORD (a run would need 2^31
records); G-IMPLIED orders a run from its first attempted sequence and L-SEQ
follows the wrap exactly, since the model producer can be seeded near Int.MAX.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.delivery.checks import (
    check_definite_failures,
    check_epochs,
    check_implied_acks,
    check_liveness,
    check_offsets,
    check_sequences,
)
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
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, DeliveryReport, Outcome, Property, Verdict
from kafka_conformance.reference.traces.events import Acked, Event, Send

__all__ = ["DeliveryConfig", "check_delivery"]


def _root(run: TraceIndex, value: str) -> str:
    seen = set()
    while (parent := run.sends[value].resend_of) is not None and parent in run.sends and value not in seen:
        seen.add(value)
        value = parent
    return value


def _at_most_once(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    groups: dict[str, list[tuple[int, LogRecord]]] = {}
    for value in run.sends:
        groups.setdefault(_root(run, value), []).extend(run.in_log(value))
    found = []
    for copies in groups.values():
        if len(copies) < 2:
            continue
        partition, values = copies[0][0], tuple(dict.fromkeys(r.value for _, r in copies))
        offsets = tuple(r.offset for _, r in copies)
        gap = cfg.duplication_gap() or run.fault(partition, STATE_FAULTS)
        if len(values) > 1:
            who, why = OUTSIDE, "the application re-sent the message (resend_of) after a producer restart"
        elif gap:
            who, why = OUTSIDE, gap
        else:
            who, why = _duplicate_blame([r for _, r in copies])
        found.append(Anomaly("duplicate", Property.AT_MOST_ONCE, who, why, partition, values, offsets))
    return verdict_of(Property.AT_MOST_ONCE, found)


def _duplicate_blame(copies: list[LogRecord]) -> tuple[Attribution, str]:
    stamps = [(r.producer_id, r.producer_epoch, r.sequence) for r in copies]
    if any(pid < 0 for pid, _, _ in stamps):
        return BROKER, "no producer metadata in the log to tell broker from client; attributed to the broker"
    if len(set(stamps)) < len(stamps):
        return BROKER, f"the same (pid, epoch, sequence) {stamps[0]} was appended twice: deduplication failed"
    return CLIENT, f"the client re-sent a possibly written record under new stamps {stamps} (cf. KAFKA-14034)"


def _at_least_once(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    found, unsure = [], 0
    for value, (_, done) in run.completions.items():
        if not isinstance(done, Acked) or run.in_log(value):
            continue
        partition = run.sends[value].partition
        start = run.log_start.get(partition, 0)
        if 0 <= done.offset < start or (done.offset < 0 and start > 0):
            unsure += done.offset < 0  # deleted by retention, or cannot tell
            continue
        gap = cfg.durability_gap() or run.fault(partition, LOSS_FAULTS)
        reported = run.success_offsets(value)
        taken = run.stamp_taken(value)
        if gap:
            who, why = OUTSIDE, gap
        elif reported == []:
            who, why = CLIENT, "acknowledged although no attempt got a successful response"
        elif taken is not None:
            other, stamp = taken
            who, why = CLIENT, (f"the client stamped it {stamp} (pid, epoch, sequence), under which {other} is in the log; "
                                f"the broker rightly answered it as {other}'s duplicate")
        else:
            who, why = BROKER, f"acknowledged at offset {done.offset} but absent from the log"
        found.append(Anomaly("lost-write", Property.AT_LEAST_ONCE, who, why, partition, (value,), (done.offset,)))
    return verdict_of(Property.AT_LEAST_ONCE, found, f"{unsure} acked values lie below the log start" if unsure else "")


def _order(run: TraceIndex, cfg: DeliveryConfig) -> Verdict:
    found = []
    streams: dict[tuple[int, int], list[Send]] = {}
    for send in run.sends.values():
        streams.setdefault((send.session, send.partition), []).append(send)
    for (_, partition), sends in streams.items():
        gap = cfg.order_gap() or run.fault(partition, STATE_FAULTS)
        best: LogRecord | None = None
        for send in sends:
            here = [r for p, r in run.in_log(send.value) if p == partition]
            if not here:
                continue
            record = here[0]
            if best is not None and record.offset < best.offset:
                who, why = (OUTSIDE, gap) if gap else _order_blame(best, record, cfg)
                pair, offsets = (best.value, record.value), (best.offset, record.offset)
                found.append(Anomaly("reordered", Property.ORDER, who, why, partition, pair, offsets))
            if best is None or record.offset > best.offset:
                best = record
        found += _completion_order(run, sends, partition, gap)
    return verdict_of(Property.ORDER, found)


def _order_blame(first: LogRecord, second: LogRecord, cfg: DeliveryConfig) -> tuple[Attribution, str]:
    """``first`` was sent earlier but sits after ``second``."""
    if first.producer_id < 0 or first.producer_id != second.producer_id:
        who = BROKER if cfg.idempotence and first.producer_id < 0 else CLIENT
        return who, "sent in one order, written in the other"
    if first.producer_epoch == second.producer_epoch and first.sequence < second.sequence:
        return BROKER, f"sequences {first.sequence} < {second.sequence} of one epoch appended out of order"
    if first.producer_epoch < second.producer_epoch:
        return BROKER, f"epoch {first.producer_epoch} written after epoch {second.producer_epoch}: fencing failed"
    return CLIENT, "the client stamped the later-sent record first (or re-sent the earlier one)"


def _completion_order(run: TraceIndex, sends: list[Send], partition: int, gap: str | None) -> list[Anomaly]:
    done = sorted((run.completions[s.value][0], i, s.value) for i, s in enumerate(sends) if s.value in run.completions)
    found, latest = [], (-1, "")
    for _, index, value in done:
        if index < latest[0]:
            who, why = (OUTSIDE, gap) if gap else (CLIENT, "completions of one partition must follow send order")
            found.append(Anomaly("completion-reordered", Property.ORDER, who, why, partition, (value, latest[1])))
        else:
            latest = (index, value)
    return found


def _exactly_once(amo: Verdict, alo: Verdict, cfg: DeliveryConfig) -> Verdict:
    """G-EO = G-AMO and G-ALO, promised only to an idempotent producer with durable settings."""
    anomalies = [attrs.evolve(a, prop=Property.EXACTLY_ONCE) for a in (*amo.anomalies, *alo.anomalies)]
    note = ""
    if not cfg.idempotence:
        note = "not promised: idempotence off"
    elif cfg.durability_gap():
        note = f"not promised: {cfg.durability_gap()}"
    if anomalies:
        return Verdict(Property.EXACTLY_ONCE, Outcome.VIOLATED, tuple(anomalies), note)
    if Outcome.UNKNOWN in (amo.outcome, alo.outcome):
        return Verdict(Property.EXACTLY_ONCE, Outcome.UNKNOWN, note=amo.note or alo.note)
    return Verdict(Property.EXACTLY_ONCE, Outcome.HOLDS, note=note)


_LOG_PROPERTIES = (
    Property.AT_MOST_ONCE,
    Property.AT_LEAST_ONCE,
    Property.EXACTLY_ONCE,
    Property.ORDER,
    Property.OFFSETS,
    Property.DEFINITE_FAILURES,
    Property.IMPLIED_ACK,
    Property.SEQUENCES,
    Property.EPOCHS,
)


def check_delivery(
    trace: Sequence[Event],
    final_log: Mapping[int, Sequence[LogRecord]] | None,
    config: DeliveryConfig | None = None,
    *,
    log_start_offsets: Mapping[int, int] | None = None,
    end_ms: int | None = None,
) -> DeliveryReport:
    """Judge one run.

    ``trace`` is the run's events in order; ``final_log`` maps each partition to the
    records a full read returned after healing (None when the log could not be read:
    every log property is then unknown); ``log_start_offsets`` says where retention or
    DeleteRecords cut each log; ``end_ms`` is when the run ended (default: the last
    event's time), for liveness.  Raises :class:`~trace.TraceError` for a malformed trace.
    """
    cfg = config or DeliveryConfig()
    run = TraceIndex(trace, final_log or {}, log_start_offsets or {})
    liveness = check_liveness(run, cfg, run.end_ms if end_ms is None else end_ms)
    if final_log is None:
        unknown = tuple(Verdict(p, Outcome.UNKNOWN, note="no final log") for p in _LOG_PROPERTIES)
        return DeliveryReport((*unknown, liveness))
    amo, alo = _at_most_once(run, cfg), _at_least_once(run, cfg)
    return DeliveryReport(
        (
            amo,
            alo,
            _exactly_once(amo, alo, cfg),
            _order(run, cfg),
            check_offsets(run, cfg),
            check_definite_failures(run, cfg),
            check_implied_acks(run, cfg),
            check_sequences(run, cfg),
            check_epochs(run, cfg),
            liveness,
        )
    )
