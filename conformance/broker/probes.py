"""The named probe table: fixed crafted scenarios that give each broker its conformance table.

Hypothesis finds divergences; this table *names* the behaviours users ask
about ("does it deduplicate an older batch inside the window?", "does it fence
a stale epoch?") and answers each one for a broker in a line.  The expected
answers are not written here: each probe is run against the reference model of
the chosen Kafka release exactly as generated cases are, so the table stays
true for every version the model knows.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
from kafka_conformance.agreement import Agreement
from kafka_conformance.broker.agreement import agreement_of
from kafka_conformance.broker.cases import Action, ActionKind, BrokerCase, CraftedBatch, SlotKind
from kafka_conformance.broker.classes import NO_DELETE, NO_RESTART
from kafka_conformance.broker.compare import BrokerDivergence, CaseRun, run_case
from kafka_conformance.broker.coverage import aged_restart
from kafka_conformance.reference.broker.batches import INT32_MAX
from kafka_conformance.reference.broker.profile import BrokerProfile

__all__ = ["PROBES", "Probe", "ProbeResult", "run_probes"]

A, U, N = SlotKind.ALLOCATED, SlotKind.UNALLOCATED, SlotKind.NONE


@attrs.frozen
class Probe:
    name: str
    question: str
    case: BrokerCase


def _probe(name: str, question: str, *batches: tuple[int, int, int, int], slots: tuple[SlotKind, ...] = (A,),
           actions: tuple[Action, ...] = ()) -> Probe:
    return Probe(name, question, BrokerCase(slots, tuple(CraftedBatch(*b) for b in batches), name, actions))


def _restart_probe(kind: ActionKind) -> Probe:
    """Five batches, a restart, then a resend of the oldest and of the fourth (no longer
    duplicates: a producer snapshot keeps the last batch only, so Kafka answers 45), of the
    last (still a duplicate), and the next batch."""
    clean = kind is ActionKind.RESTART_CLEAN
    return _probe(f"{kind.value}-window", f"after a {'clean' if clean else 'crash'} restart ({'SIGTERM' if clean else 'SIGKILL'}), "
                  "is only the last batch still a duplicate, as Kafka's producer snapshot keeps (older resends: "
                  "OUT_OF_ORDER_SEQUENCE_NUMBER)?",
                  *((0, 0, seq, 1) for seq in range(5)), (0, 0, 0, 1), (0, 0, 3, 1), (0, 0, 4, 1), (0, 0, 5, 1),
                  actions=(Action(5, kind),))


PROBES: tuple[Probe, ...] = (
    _probe("in-sequence", "are consecutive batches written at consecutive offsets?", (0, 0, 0, 2), (0, 0, 2, 1), (0, 0, 3, 3)),
    _probe("duplicate-last", "is a resend of the last batch answered with its original offset, not written again?",
           (0, 0, 0, 2), (0, 0, 0, 2)),
    _probe("duplicate-older-in-window", "is a resend of an older batch inside the 5-batch window answered with its own offset?",
           (0, 0, 0, 1), (0, 0, 1, 2), (0, 0, 3, 1), (0, 0, 0, 1)),
    _probe("duplicate-outside-window", "is a resend older than the 5-batch window refused?",
           (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 2, 1), (0, 0, 3, 1), (0, 0, 4, 1), (0, 0, 5, 1), (0, 0, 0, 1)),
    _probe("resend-below-window", "is a resend of a batch that left the window (sequence 1 after 0-6) refused, "
           "with 46 on 1.0.0/1.0.1 and 45 from 1.0.2 (KAFKA-6683)?",
           *((0, 0, seq, 1) for seq in range(7)), (0, 0, 1, 1)),
    _probe("sequence-gap", "is a batch after a sequence gap refused?", (0, 0, 0, 1), (0, 0, 3, 1)),
    _probe("overlapping-range", "is a batch overlapping the last one (not an exact resend) refused?", (0, 0, 0, 3), (0, 0, 1, 3)),
    _probe("stale-epoch", "is a batch from an older epoch fenced?", (0, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)),
    _probe("new-epoch-at-zero", "is a new epoch starting at sequence 0 accepted?", (0, 0, 0, 2), (0, 1, 0, 1)),
    _probe("new-epoch-nonzero", "is a new epoch starting at a non-zero sequence refused?", (0, 0, 0, 2), (0, 1, 2, 1)),
    _probe("resend-after-epoch-bump", "is a resend of the previous epoch's batch fenced after a bump?",
           (0, 0, 0, 1), (0, 1, 0, 1), (0, 0, 0, 1)),
    _probe("fresh-producer-nonzero", "is a producer with no state accepted at a non-zero first sequence (as Kafka 2.5-4.4 does)?",
           (0, 0, 7, 1), (0, 0, 8, 1)),
    _probe("unallocated-producer", "is a producer id the broker never issued treated like any other?", (0, 0, 0, 1), (0, 0, 1, 1),
           slots=(U,)),
    _probe("no-producer-id", "are batches without a producer id (a producer without idempotence) written every time, a "
           "resend too, beside an idempotent producer's, whose sequence they leave alone?",
           (0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 1, 1), (1, 0, 0, 1), (0, 0, 1, 1), slots=(A, N)),
    _probe("sequence-wraparound", "does the sequence continue from Int.MAX to 0, with duplicates of the wrapping batch detected?",
           (0, 0, INT32_MAX - 1, 3), (0, 0, 1, 1), (0, 0, INT32_MAX - 1, 3)),
    _probe("two-producers", "are two producers' sequences kept apart on one partition?",
           (0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 1, 1), (1, 0, 1, 1), slots=(A, A)),
    _probe("negative-sequence", "is an idempotent batch with base sequence -1 refused as invalid?", (0, 0, -1, 1)),
    _restart_probe(ActionKind.RESTART_CLEAN),
    _restart_probe(ActionKind.RESTART_CRASH),
    Probe("restart-after-expiry", "after a clean restart, is a producer whose last batch is two days old forgotten (3.4 "
          "and later: a one-day expiry, KIP-854; its last batch is written again) or kept (1.0 to 3.3: seven days)?",
          attrs.evolve(aged_restart(), name="restart-after-expiry")),
    _probe("delete-records-keeps-state", "after DeleteRecords removes every record of a producer, is its last batch still a "
           "duplicate and its next sequence accepted (from 2.4, KAFKA-7190; before, its state went with its records)?",
           (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 1), (0, 0, 2, 1), actions=(Action(2, ActionKind.DELETE_RECORDS, 2),)),
    _probe("restart-after-delete", "after DeleteRecords removes every record and the broker restarts cleanly, is the "
           "producer forgotten as Kafka forgets it (the snapshot at the log start is deleted at load, so its last batch "
           "is written again)?",
           (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 1), (0, 0, 2, 1),
           actions=(Action(2, ActionKind.DELETE_RECORDS, 2), Action(2, ActionKind.RESTART_CLEAN))),
)
"""The restart rows run only on a target the kit can restart on its own data (``kafka:VERSION``,
``test-broker``), the DeleteRecords rows only on one that offers DeleteRecords; elsewhere they
are skipped, and the table says why."""


@attrs.frozen
class ProbeResult:
    name: str
    question: str
    status: str
    """``conforms``, ``diverges``, ``error`` or ``skipped`` (a restart row on a target the kit cannot restart)."""
    anomalies: tuple[str, ...] = ()
    divergences: tuple[BrokerDivergence, ...] = ()
    error: str = ""
    run: CaseRun | None = None
    agreement: Agreement | None = None
    """For a divergence: which Kafka releases answer the probe's case up to its first divergence as the broker did."""

    @property
    def summary(self) -> str:
        if self.status == "conforms":
            return "as Kafka"
        if self.status == "error":
            return f"error: {self.error}"
        if self.status == "skipped":
            return f"skipped: {self.error}"
        return ", ".join(self.anomalies)




def run_probes(client_factory: type[WireClient] | None, host: str, port: int, profile: BrokerProfile,
               *, probes: tuple[Probe, ...] = PROBES, shared_topic: str | None = None,
               restart: Callable[[bool], None] | None = None,
               checkpoint: Callable[[], int] | None = None) -> tuple[ProbeResult, ...]:
    """Each probe on a fresh topic of the broker at ``host:port``, over one connection (reopened
    after an error or a restart); ``restart`` restarts the broker for the restart rows."""
    factory = client_factory or WireClient
    out = []
    client: WireClient | None = None
    try:
        for probe in probes:
            try:
                if client is None:
                    client = factory(host, port)
                if probe.case.restarts and restart is None:
                    out.append(ProbeResult(probe.name, probe.question, "skipped", error=NO_RESTART))
                    continue
                if probe.case.deletes_records and not client.supports(21):
                    out.append(ProbeResult(probe.name, probe.question, "skipped", error=NO_DELETE))
                    continue
                run = run_case(client, probe.case, profile, shared_topic=shared_topic, restart=restart, checkpoint=checkpoint)
            except WireError as exc:
                out.append(ProbeResult(probe.name, probe.question, "error", error=str(exc)))
                if client is not None:
                    client.close()
                client = None
                continue
            if probe.case.actions:  # a restart closed it; a refused DeleteRecords may have
                client.close()
                client = None
            status = "diverges" if run.divergences else "conforms"
            names = tuple(dict.fromkeys(d.anomaly for d in run.divergences))
            agreement = agreement_of(probe.case, run.steps, run.divergences[0], profile, run.start) if run.divergences else None
            out.append(ProbeResult(probe.name, probe.question, status, names, run.divergences, run=run, agreement=agreement))
    finally:
        if client is not None:
            client.close()
    return tuple(out)
