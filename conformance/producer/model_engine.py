"""The in-process model engine: a :class:`ProducerTrace` run by the reference producer
against the reference cluster, in simulated time.

Why an engine of its own: the wire engines (Python test broker, real brokers)
run a trace in real time with a real client; this one runs the same trace with
the *reference* client (:mod:`~kafka_conformance.reference.producer.model`) and
the *reference* cluster (:mod:`~kafka_conformance.reference.cluster.model`), in
a few milliseconds, deterministically.  It is the oracle for the trace table
(what a conforming client and broker must show) and the target of the model
properties and the broker mutants.

Time is a plain integer.  A :class:`WaitStep` advances it, stopping at every
moment something happens on its own (a delayed answer arrives, a request or
delivery timeout fires, a retry backoff or ``linger.ms`` ends); a
:class:`FlushStep` advances it until every send so far has completed.  Requests
are handled when sent (network time is zero) and answered after the fault
plan's delay, in request order per broker connection (a delayed answer holds
back the ones behind it, as TCP and the test broker do).  A wait also lets followers fetch and the brokers flush
(:meth:`ClusterModel.replicate`): until then an acks=1 tail lives on the leader
only.  Every run ends with a flush, then :meth:`ClusterModel.heal`, then the
final read.

The producer configuration is resolved as the Java client of the cluster's
version would (:func:`~kafka_conformance.reference.producer.config.explain_config`);
a configuration that client refuses yields a run with ``config_error`` set and
no events (nothing could be sent).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

import attrs

from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.broker.partition_log import ProduceResponse
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.cluster.model import ClusterModel
from kafka_conformance.reference.delivery.checker import DeliveryConfig, check_delivery
from kafka_conformance.reference.delivery.verdicts import Anomaly, DeliveryReport
from kafka_conformance.reference.producer.config import explain_config
from kafka_conformance.reference.producer.config_values import EffectiveConfig, ProducerConfigError
from kafka_conformance.reference.producer.model import ModelProducer, ProduceCall
from kafka_conformance.reference.producer.model_state import ModelConfig
from kafka_conformance.reference.traces.events import Attempt, Event
from kafka_conformance.reference.traces.fault_plan import FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import (
    ClusterAction,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    Step,
    WaitStep,
)

__all__ = ["ModelRun", "ModelSession", "delivery_config_for", "effective_config_for", "model_failures", "run_model"]

FLUSH_SLACK_MS = 60_000
"""How long past the last delivery deadline a flush may wait before the run gives up on it."""


@attrs.frozen
class ModelRun:
    """Everything one model run produced, judged."""

    trace: ProducerTrace
    events: tuple[Event, ...]
    final_log: Mapping[int, tuple[LogRecord, ...]]
    log_start: Mapping[int, int]
    delivery_config: DeliveryConfig
    report: DeliveryReport
    end_ms: int = 0
    epoch_bumps: int = 0
    config_error: str | None = None
    """Set when the Java client would refuse the configuration (nothing was run)."""


def effective_config_for(trace: ProducerTrace) -> EffectiveConfig:
    """The Java client's resolution of the trace's producer configuration at the cluster's version."""
    return explain_config(trace.config, client="java", version=trace.cluster.kafka_version)


def delivery_config_for(trace: ProducerTrace, effective: EffectiveConfig | None = None) -> DeliveryConfig:
    """What the run's configuration promises: the producer settings plus the topic's."""
    cfg = effective if effective is not None else effective_config_for(trace)
    return DeliveryConfig.from_effective(
        cfg, replication_factor=trace.cluster.replication_factor, min_insync_replicas=trace.cluster.min_insync_replicas
    )


def run_model(trace: ProducerTrace) -> ModelRun:
    """Run ``trace`` with the reference producer against the reference cluster."""
    try:
        effective = effective_config_for(trace)
    except ProducerConfigError as exc:
        dc = DeliveryConfig()
        return ModelRun(trace, (), {}, {}, dc, check_delivery((), {}, dc), config_error=str(exc))
    session = ModelSession(trace, effective)
    for step in trace.steps:
        session.step(step)
    return attrs.evolve(session.finish(), trace=trace)


class ModelSession:
    """A model run driven one step at a time (the state machine drives it; :func:`run_model`
    feeds it a whole trace).  ``trace`` gives the configuration, the cluster, the initial
    fault plan and the seeded sequence; its steps are *not* run - call :meth:`step`."""

    def __init__(self, trace: ProducerTrace, effective: EffectiveConfig | None = None) -> None:
        effective = effective if effective is not None else effective_config_for(trace)
        self.header = attrs.evolve(trace, steps=())
        self.steps: list[Step] = []
        self.now = 0
        self.delivery = delivery_config_for(trace, effective)
        self.config = ModelConfig.from_effective(effective, trace.config)
        self.cluster = ClusterModel(trace.cluster, trace.plan, clock=lambda: self.now)
        self.producer = ModelProducer(self.config, trace.cluster.partitions, initial_sequence=trace.initial_sequence)
        self.events: list[Event] = []
        self._cluster_seen = 0
        self._queue: list[tuple[int, int, str, int, ProduceResponse | None]] = []
        """(time, order, kind, request id or broker, response): answers and connection closes due."""
        self._order = 0
        self._last_answer_at: dict[int, int] = {}
        """broker -> when its latest scheduled answer leaves: answers keep request order (TCP)."""
        self._attempt_of: dict[int, int] = {}
        self._finished: ModelRun | None = None

    @property
    def trace(self) -> ProducerTrace:
        """The trace run so far: the steps taken and the fault plan as it now stands."""
        return attrs.evolve(self.header, steps=tuple(self.steps), plan=self.cluster.counter.plan)

    def requests(self, partition: int) -> int:
        """Produce requests that reached the cluster for ``partition`` so far (what a plan rule counts)."""
        return sum(1 for e in self.events if isinstance(e, Attempt) and e.partition == partition)

    def add_rule(self, rule: ProduceRule) -> None:
        """Extend the fault plan (a rule for a request not yet sent)."""
        if rule.nth <= self.requests(rule.partition):
            raise ValueError(f"{rule.describe()}: that request was already sent")
        plan = FaultPlan((*self.cluster.counter.plan.rules, rule))
        self.cluster.counter.plan = plan
        self.cluster.plan = plan

    def step(self, step: Step) -> None:
        if self._finished is not None:
            raise RuntimeError("the run is finished")
        self.steps.append(step)
        if isinstance(step, SendStep):
            self.producer.send(step.value, step.partition, self.now)
            self._sync()
            self._settle()
        elif isinstance(step, WaitStep):
            self._advance_to(self.now + step.ms)
            self.cluster.replicate()
            self._settle()
        elif isinstance(step, FlushStep):
            self._flush()
        else:
            self._cluster_step(step)

    def snapshot(self) -> DeliveryReport:
        """The delivery checker on the events so far and what a consumer reads now: for invariants
        that must hold at every moment (duplicates, order, sequences, epochs, definite failures)."""
        return check_delivery(tuple(self.events), self.cluster.final_log(), self.delivery, end_ms=self.now)

    def finish(self) -> ModelRun:
        """The implicit final flush, heal, and the final read, judged."""
        if self._finished is not None:
            return self._finished
        self._flush()
        self.cluster.heal()
        self._sync()
        self._settle()
        final_log = self.cluster.final_log()
        log_start = self.cluster.log_start()
        events = tuple(self.events)
        report = check_delivery(events, final_log, self.delivery, log_start_offsets=log_start, end_ms=self.now)
        self._finished = ModelRun(self.trace, events, final_log, log_start, self.delivery, report, self.now, self.producer.epoch_bumps)
        return self._finished

    def _cluster_step(self, step: ClusterStep) -> None:
        self.cluster.apply(step)
        self._sync()
        if step.action is ClusterAction.DISCONNECT:
            for broker in range(self.trace.cluster.brokers):
                self.producer.on_disconnect(broker, self.now)
        elif step.action in (ClusterAction.CRASH, ClusterAction.STOP) and step.broker is not None:
            self.producer.on_disconnect(step.broker, self.now)
        self._sync()
        self._settle()

    def _flush(self) -> None:
        """Advance until every send so far completed (bounded: completions are due by the delivery timeout)."""
        if not self.producer.pending:
            return
        self.producer.flushing = True
        cap = self.now + self.config.delivery_timeout_ms + self.config.request_timeout_ms + FLUSH_SLACK_MS
        self._settle()
        while self.producer.pending and self.now < cap:
            wake = self._next_time()
            if wake is None:
                break
            self._advance_to(min(wake, cap))
        self.producer.flushing = False
        self.cluster.replicate()
        self._settle()

    # ------------------------------------------------------------------ time
    def _next_time(self) -> int | None:
        times = [t for t, *_ in self._queue[:1]]
        wake = self.producer.next_wakeup(self.now)
        if wake is not None:
            times.append(wake)
        return min(times) if times else None

    def _advance_to(self, until: int) -> None:
        while True:
            wake = self._next_time()
            if wake is None or wake > until:
                break
            self.now = max(self.now, wake)
            self._settle()
        self.now = max(self.now, until)
        self._settle()

    def _settle(self) -> None:
        """Deliver what is due now and let the producer send, until nothing changes."""
        while True:
            self._deliver_due()
            calls = self._poll()
            if not calls and not (self._queue and self._queue[0][0] <= self.now):
                return
            for call in calls:
                self._produce(call)

    def _poll(self) -> list[ProduceCall]:
        while True:
            leaders = [p.leader for p in self.cluster.metadata().partitions]
            calls = self.producer.poll(self.now, leaders)
            self._sync()
            if not self.producer.needs_producer_id or calls:
                return calls
            answer = self.cluster.init_producer_id()
            self.producer.set_producer_id(answer.producer_id, answer.producer_epoch)

    def _produce(self, call: ProduceCall) -> None:
        outcome = self.cluster.produce(call.broker, call.partition, call.batch, call.acks)
        self._attempt_of[call.request_id] = outcome.attempt_id
        self._sync()
        if outcome.close_connection:
            self._schedule(self.now, "close", call.broker, None)
            self._last_answer_at[call.broker] = self.now  # the next connection starts empty
        elif outcome.response is not None:
            # A delayed answer holds back the answers behind it on the connection, as TCP does
            # (and the test broker): later requests cannot be answered before it.
            at = max(self.now + outcome.delay_ms, self._last_answer_at.get(call.broker, 0))
            self._last_answer_at[call.broker] = at
            self._schedule(at, "answer", call.request_id, outcome.response)

    def _schedule(self, at: int, kind: str, key: int, response: ProduceResponse | None) -> None:
        self._order += 1
        heapq.heappush(self._queue, (at, self._order, kind, key, response))

    def _deliver_due(self) -> None:
        while self._queue and self._queue[0][0] <= self.now:
            _, _, kind, key, response = heapq.heappop(self._queue)
            if kind == "close":
                self.producer.on_disconnect(key, self.now)
            elif response is not None and self.producer.accepts(key):
                attempt = self._attempt_of[key]
                self.cluster.responded(attempt, response)
                self._sync()
                self.producer.on_response(key, response.error, response.base_offset, response.log_start_offset, self.now)
            self._sync()

    def _sync(self) -> None:
        """Append the events both sides logged since the last call, in the order they happened."""
        cluster_events = self.cluster.events()
        self.events.extend(cluster_events[self._cluster_seen :])
        self._cluster_seen = len(cluster_events)
        self.events.extend(self.producer.take_events())


def model_failures(run: ModelRun) -> tuple[Anomaly, ...]:
    """The broker and client anomalies of a model run that a correct reference must never show.

    Left out, each for a stated reason:

    * the modelled broker's own documented behaviour: brokers 2.5-4.4 accept any first sequence
      from a producer with no state (KAFKA-15591), so a lost first request lets a later batch
      in and the checker rightly blames the broker (``implied-write-lost``, trace table row 6);
      that is the reference being faithful, not wrong, so it is not counted for those versions."""
    found = run.report.failures()
    if not broker_profile(run.trace.cluster.kafka_version).fresh_partition_requires_sequence_zero:
        found = tuple(a for a in found if not (a.name == "implied-write-lost" and "KAFKA-15591" in a.explanation))
    return found
