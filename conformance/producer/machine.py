"""A Hypothesis ``RuleBasedStateMachine`` over the producer trace alphabet.

Where :func:`~kafka_conformance.producer.strategies.producer_traces` draws a whole
trace up front, the machine grows one step by step against a running engine and
checks invariants after *every* step, so a failure is caught at the step that
caused it and shrinks to the shortest prefix.  Rules are the alphabet of
``docs/spec/idempotence.md`` §5.1: send to a partition, let time pass, flush, a fault for the next
produce request of a partition (drop it, drop its answer, delay it, disconnect,
inject an error code), leader failover, broker crash and restart, disconnect
everyone, a leaderless period, producer-id expiry.

The engine is the in-process model (:class:`~kafka_conformance.producer.model_engine.ModelSession`).
To point the machine at another engine, subclass it and override
:meth:`ProducerTraceMachine.open_session` to return any object with the same
methods (``step``, ``add_rule``, ``requests``, ``snapshot``, ``finish``, ``trace``).

Invariants after each step: the properties that must hold at every moment on
what a consumer reads now (no broker or client duplicate, reordering, sequence
or epoch anomaly, no definitely failed value in the log).  At teardown the run
is finished (flush, heal, final read) and every property is judged; on a failure
the trace so far is printed as a runnable program (:mod:`trace_program`).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from kafka_conformance.producer.model_engine import ModelSession, model_failures
from kafka_conformance.producer.strategies import ERRORS_AFTER_APPEND, ERRORS_BEFORE_APPEND, producer_configs
from kafka_conformance.producer.trace_program import trace_program
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.delivery.verdicts import Property
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.reference.traces.fault_plan import Action, ProduceRule
from kafka_conformance.reference.traces.program import (
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    WaitStep,
)

__all__ = ["ALWAYS", "ProducerTraceMachine"]

ALWAYS = (Property.AT_MOST_ONCE, Property.ORDER, Property.DEFINITE_FAILURES, Property.SEQUENCES, Property.EPOCHS)
"""Properties that hold at every moment of a run, not only once it has healed."""

PARTITIONS = 2
BROKERS = 3
MAX_SENDS = 12
_ACTIONS_PLAIN = (Action.DROP_RESPONSE, Action.DROP_REQUEST, Action.DISCONNECT_BEFORE, Action.DISCONNECT_AFTER)


class ProducerTraceMachine(RuleBasedStateMachine):
    """Steps of one producer session against an engine; subclass to change the engine or the alphabet."""

    kafka_version = DEFAULT_RELEASE
    """The broker release the cluster models."""

    def __init__(self) -> None:
        super().__init__()
        self.session: Any = None
        self.sends = 0

    def open_session(self, trace: ProducerTrace) -> Any:
        """The engine for one run; ``trace`` carries the configuration, cluster and sequence seed."""
        return ModelSession(trace)

    @initialize(config=producer_configs(), initial=st.sampled_from([0, 2**31 - 2]))
    def start(self, config: dict[str, str], initial: int) -> None:
        spec = ClusterSpec(self.kafka_version, BROKERS, PARTITIONS)
        self.session = self.open_session(ProducerTrace((), producer=config, cluster=spec, initial_sequence=initial))

    # ------------------------------------------------------------------ the application
    @precondition(lambda self: self.sends < MAX_SENDS)
    @rule(partition=st.integers(0, PARTITIONS - 1))
    def send(self, partition: int) -> None:
        self.session.step(SendStep(f"v{self.sends}", partition))
        self.sends += 1

    @rule(ms=st.sampled_from([10, 200, 1600, 9000]))
    def wait(self, ms: int) -> None:
        self.session.step(WaitStep(ms))

    @rule()
    def flush(self) -> None:
        self.session.step(FlushStep())

    # ------------------------------------------------------------------ one request
    def _next_request(self, partition: int, action: Action, error: ProduceError | None = None, delay_ms: int = 0) -> None:
        nth = self.session.requests(partition) + 1
        if any(r.partition == partition and r.nth == nth for r in self.session.trace.plan.rules):
            return
        self.session.add_rule(ProduceRule(nth, action, partition, error, delay_ms))

    @rule(partition=st.integers(0, PARTITIONS - 1), action=st.sampled_from(_ACTIONS_PLAIN))
    def fault_next_request(self, partition: int, action: Action) -> None:
        self._next_request(partition, action)

    @rule(partition=st.integers(0, PARTITIONS - 1), error=st.sampled_from(ERRORS_BEFORE_APPEND))
    def error_next_request(self, partition: int, error: ProduceError) -> None:
        self._next_request(partition, Action.ERROR, error)

    @rule(partition=st.integers(0, PARTITIONS - 1), error=st.sampled_from(ERRORS_AFTER_APPEND))
    def error_after_append(self, partition: int, error: ProduceError) -> None:
        self._next_request(partition, Action.ERROR_AFTER_APPEND, error)

    @rule(partition=st.integers(0, PARTITIONS - 1), ms=st.sampled_from([100, 1000, 2500]))
    def delay_next_answer(self, partition: int, ms: int) -> None:
        self._next_request(partition, Action.DELAY, delay_ms=ms)

    # ------------------------------------------------------------------ the cluster
    @rule(partition=st.integers(0, PARTITIONS - 1))
    def failover(self, partition: int) -> None:
        self.session.step(ClusterStep(ClusterAction.FAILOVER, partition=partition))

    @rule(broker=st.integers(0, BROKERS - 1))
    def crash(self, broker: int) -> None:
        self.session.step(ClusterStep(ClusterAction.CRASH, broker=broker))

    @rule(broker=st.integers(0, BROKERS - 1))
    def restart(self, broker: int) -> None:
        self.session.step(ClusterStep(ClusterAction.RESTART, broker=broker))

    @rule()
    def disconnect(self) -> None:
        self.session.step(ClusterStep(ClusterAction.DISCONNECT))

    @rule(partition=st.integers(0, PARTITIONS - 1), ms=st.sampled_from([500, 2500, 9000]))
    def leaderless(self, partition: int, ms: int) -> None:
        self.session.step(ClusterStep(ClusterAction.LEADERLESS, partition=partition, duration_ms=ms))

    @rule(partition=st.none() | st.integers(0, PARTITIONS - 1))
    def expire_producers(self, partition: int | None) -> None:
        self.session.step(ClusterStep(ClusterAction.EXPIRE_PRODUCERS, partition=partition))

    # ------------------------------------------------------------------ checks
    @invariant()
    def always(self) -> None:
        if self.session is None:
            return
        report = self.session.snapshot()
        bad = [a for p in ALWAYS for a in report[p].anomalies if a.attribution.is_failure]
        assert not bad, self._explain([a.describe() for a in bad])

    def teardown(self) -> None:
        if self.session is None:
            return
        run = self.session.finish()
        failures = [a.describe() for a in model_failures(run)]
        assert not failures, self._explain(failures)

    def _explain(self, failures: list[str]) -> str:
        return "\n".join([*failures, "", "as a program:", trace_program(self.session.trace)])
