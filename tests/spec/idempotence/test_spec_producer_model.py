"""Properties of the reference producer model, run through the in-process model engine.

The model is the oracle of the trace table and the wire runs, so it must keep
every promise it makes: on any generated trace, no anomaly is the broker's or
the client's (anomalies only ever appear outside the guarantee), and with a
configuration that promises everything and no fault that voids it, no anomaly
at all.  The stateful machine checks the same after every step.  The direct
tests pin the producer rules one at a time (in-flight cap, stamps kept on
retry, the wrap, definite vs indeterminate, completion order, acks=0).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_conformance.producer.machine import ProducerTraceMachine
from kafka_conformance.producer.model_engine import ModelSession, model_failures, run_model
from kafka_conformance.producer.strategies import producer_traces
from kafka_conformance.reference.broker.batches import INT32_MAX
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.producer.model import ModelProducer
from kafka_conformance.reference.producer.model_state import ModelConfig
from kafka_conformance.reference.traces.events import Acked, Attempt, Failed, Fault, Indeterminate
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep

FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@FAST
@given(producer_traces())
def test_the_model_never_breaks_a_promise(trace: ProducerTrace) -> None:
    run = run_model(trace)
    assert run.config_error is None
    assert not model_failures(run), run.report.describe()


@FAST
@given(producer_traces(wire=True, partitions=1, max_sends=6))
def test_wire_shaped_traces_too(trace: ProducerTrace) -> None:
    assert trace.initial_sequence == 0
    assert not model_failures(run_model(trace))


@settings(FAST, max_examples=80)
@given(producer_traces(outside=False))
def test_inside_the_guarantee_nothing_is_violated(trace: ProducerTrace) -> None:
    """An idempotent producer, RF >= 2, min.insync 2, no fault that voids the guarantee: every
    safety property holds outright (no anomaly, not even an outside-guarantee one)."""
    run = run_model(trace)
    voided = [e for e in run.events if isinstance(e, Fault) and e.kind.outside_guarantee]
    if voided:
        return
    assert not run.report.anomalies or all(a.name in ("late-completion", "stuck-send") for a in run.report.anomalies), run.report.describe()


@FAST
@given(producer_traces(max_sends=4))
def test_the_engine_is_deterministic(trace: ProducerTrace) -> None:
    assert run_model(trace).events == run_model(trace).events


TestMachine = ProducerTraceMachine.TestCase
TestMachine.settings = settings(
    max_examples=40, stateful_step_count=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


# --------------------------------------------------------------------------- producer rules, one at a time


def producer(**cfg: object) -> ModelProducer:
    p = ModelProducer(ModelConfig(**cfg), 1)  # type: ignore[arg-type]
    if p.needs_producer_id:
        p.set_producer_id(7, 0)
    return p


def test_at_most_max_in_flight_requests_per_connection() -> None:
    p = producer(max_in_flight=5)
    for i in range(7):
        p.send(f"v{i}", 0, 0)
    calls = p.poll(0, [0])
    assert [c.batch.base_sequence for c in calls] == [0, 1, 2, 3, 4]
    p.on_response(calls[0].request_id, ProduceError.NONE, 0, 0, 1)
    assert [c.batch.base_sequence for c in p.poll(1, [0])] == [5]


def test_a_retry_keeps_its_stamp_and_goes_first() -> None:
    p = producer(retry_backoff_ms=10)
    p.send("a", 0, 0)
    p.send("b", 0, 0)
    first, second = p.poll(0, [0])
    p.on_response(first.request_id, ProduceError.NOT_LEADER_OR_FOLLOWER, -1, 0, 1)
    assert p.poll(5, [0]) == []  # backoff
    p.on_response(second.request_id, ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, -1, 0, 6)
    (retry,) = p.poll(11, [0])
    assert (retry.batch.values, retry.batch.base_sequence, retry.batch.producer_epoch) == (("a",), 0, 0)
    assert p.poll(11, [0]) == []  # b waits until a is answered (in-order retry)
    p.on_response(retry.request_id, ProduceError.NONE, 0, 0, 12)
    (again,) = p.poll(20, [0])
    assert (again.batch.values, again.batch.base_sequence) == (("b",), 1)
    assert p.epoch_bumps == 0


def test_sequences_wrap_past_int_max() -> None:
    p = ModelProducer(ModelConfig(), 1, initial_sequence=INT32_MAX)
    p.set_producer_id(7, 0)
    for v in "abc":
        p.send(v, 0, 0)
    assert [c.batch.base_sequence for c in p.poll(0, [0])] == [INT32_MAX, 0, 1]


def test_definite_and_indeterminate_failures() -> None:
    p = producer(retries=0)
    p.send("a", 0, 0)
    p.send("b", 0, 0)
    a, b = p.poll(0, [0])
    p.on_response(a.request_id, ProduceError.INVALID_RECORD, -1, 0, 1)
    p.on_response(b.request_id, ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND, -1, 0, 1)
    done = {e.value: e for e in p.take_events() if isinstance(e, (Acked, Failed, Indeterminate))}
    assert isinstance(done["a"], Failed) and isinstance(done["b"], Indeterminate)


def test_completions_follow_send_order() -> None:
    p = producer()
    p.send("a", 0, 0)
    p.send("b", 0, 0)
    a, b = p.poll(0, [0])
    p.take_events()
    p.on_response(b.request_id, ProduceError.NONE, 1, 0, 1)
    assert p.take_events() == []  # b's ack waits for a
    p.on_response(a.request_id, ProduceError.NONE, 0, 0, 2)
    assert [(e.value, e.offset) for e in p.take_events() if isinstance(e, Acked)] == [("a", 0), ("b", 1)]


def test_an_unsent_batch_that_expires_is_a_definite_failure() -> None:
    p = producer(delivery_timeout_ms=100)
    p.send("a", 0, 0)
    assert p.poll(100, [None]) == []
    assert [type(e) for e in p.take_events()][-1] is Failed


def test_acks_zero_completes_on_send_without_offset() -> None:
    p = producer(idempotence=False, acks=0)
    p.send("a", 0, 0)
    (call,) = p.poll(0, [0])
    assert call.batch.producer_id == -1 and not p.accepts(call.request_id)
    assert [e for e in p.take_events() if isinstance(e, Acked)] == [Acked("a", -1, 0)]


def test_epoch_exhaustion_asks_for_a_new_producer_id() -> None:
    p = ModelProducer(ModelConfig(), 1)
    p.set_producer_id(7, 2**15 - 1)
    p.send("a", 0, 0)
    (call,) = p.poll(0, [0])
    p.on_response(call.request_id, ProduceError.UNKNOWN_PRODUCER_ID, -1, 0, 1)
    assert p.poll(200, [0]) == [] and p.needs_producer_id
    p.set_producer_id(8, 0)
    (again,) = p.poll(200, [0])
    assert (again.batch.producer_id, again.batch.producer_epoch, again.batch.base_sequence) == (8, 0, 0)


@pytest.mark.parametrize("action", [Action.DROP_REQUEST, Action.DROP_RESPONSE, Action.DISCONNECT_AFTER])
def test_unanswered_attempts_are_retried_with_the_same_stamp(action: Action) -> None:
    run = run_model(ProducerTrace([SendStep("a"), FlushStep()], FaultPlan([ProduceRule(1, action)])))
    attempts = [e for e in run.events if isinstance(e, Attempt)]
    assert len(attempts) == 2 and len({(a.producer_id, a.producer_epoch, a.base_sequence) for a in attempts}) == 1
    assert [r.value for r in run.final_log[0]] == ["a"]


def test_session_rejects_a_rule_for_a_request_already_sent() -> None:
    s = ModelSession(ProducerTrace(()))
    s.step(SendStep("a"))
    with pytest.raises(ValueError, match="already sent"):
        s.add_rule(ProduceRule(1, Action.DROP_RESPONSE))
    s.add_rule(ProduceRule(2, Action.DROP_RESPONSE))
    s.step(SendStep("b"))
    s.step(WaitStep(2000))
    s.step(ClusterStep(ClusterAction.DISCONNECT))
    run = s.finish()
    assert run.trace.plan.rules == (ProduceRule(2, Action.DROP_RESPONSE),)
    assert not model_failures(run)


@given(st.data())
@settings(max_examples=1, database=None)
def test_strategy_smoke(data: st.DataObject) -> None:
    data.draw(producer_traces())
