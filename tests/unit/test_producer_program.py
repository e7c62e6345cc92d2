from __future__ import annotations

import json

import pytest

from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, PlanError, ProduceRule, RequestCounter
from kafka_conformance.reference.traces.program import (
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    WaitStep,
)


def _trace() -> ProducerTrace:
    return ProducerTrace(
        [SendStep("a"), SendStep("b", 1), WaitStep(200), ClusterStep(ClusterAction.FAILOVER, partition=1), FlushStep(),
         ClusterStep(ClusterAction.CRASH, broker=2), ClusterStep(ClusterAction.LEADERLESS, partition=0, duration_ms=900)],
        FaultPlan([ProduceRule(2, Action.DROP_RESPONSE), ProduceRule(1, Action.ERROR, 1, ProduceError.NOT_LEADER_OR_FOLLOWER),
                   ProduceRule(3, Action.DELAY, delay_ms=40)]),
        {"acks": "all", "enable.idempotence": "true"},
        ClusterSpec(partitions=2),
        name="demo",
    )


def test_json_round_trip_is_exact() -> None:
    trace = _trace()
    text = json.dumps(trace.to_json())
    assert ProducerTrace.from_json(json.loads(text)) == trace


def test_plan_decides_by_partition_and_ordinal() -> None:
    counter = RequestCounter(_trace().plan)
    assert counter.next(0).action is Action.DELIVER
    assert counter.next(1).error is ProduceError.NOT_LEADER_OR_FOLLOWER
    assert counter.next(0).action is Action.DROP_RESPONSE
    assert counter.next(0).delay_ms == 40
    assert counter.next(0).action is Action.DELIVER


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda: ProduceRule(0, Action.DELIVER), "counted from 1"),
        (lambda: ProduceRule(1, Action.ERROR), "needs an error code"),
        (lambda: ProduceRule(1, Action.DROP_RESPONSE, error=ProduceError.REQUEST_TIMED_OUT), "takes no error"),
        (lambda: ProduceRule(1, Action.DELAY), "needs a positive delay_ms"),
        (lambda: ProduceRule(1, Action.DROP_RESPONSE, delay_ms=5), "only for actions that answer"),
        (lambda: ProduceRule(1, Action.DELAY, delay_ms=-1), "negative"),
        (lambda: FaultPlan([ProduceRule(1, Action.DELAY, delay_ms=1), ProduceRule(1, Action.DROP_REQUEST)]), "two rules"),
        (lambda: ProducerTrace([SendStep("a"), SendStep("a")]), "sent twice"),
        (lambda: ProducerTrace([SendStep("a", 3)]), "partition 3"),
        (lambda: ClusterStep(ClusterAction.CRASH), "needs a broker"),
        (lambda: ClusterSpec(brokers=1, replication_factor=3), "replication factor"),
        (lambda: ProducerTrace([], initial_sequence=-1), "initial_sequence"),
    ],
)
def test_malformed_values_are_refused_with_a_reason(make, needle) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PlanError, match=needle):
        make()


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"format": 9}, "format"),
        ({"steps": [{"send": "a"}, {"bogus": 1}]}, r"trace.steps\[1\]"),
        ({"rules": [{"nth": 1, "action": "explode"}]}, r"trace.rules\[0\].action"),
        ({"rules": [{"nth": "1", "action": "deliver"}]}, r"rules\[0\].nth"),
        ({"cluster": {"brokers": 2, "replication_factor": 3}}, "replication factor"),
        ({"extra": 1}, "unknown field"),
    ],
)
def test_bad_json_names_the_place(patch, needle) -> None:  # type: ignore[no-untyped-def]
    data = _trace().to_json()
    data.update(patch)
    with pytest.raises(PlanError, match=needle):
        ProducerTrace.from_json(data)


def test_an_error_answer_can_be_delayed_and_round_trips() -> None:
    rule = ProduceRule(2, Action.ERROR_AFTER_APPEND, 0, ProduceError.REQUEST_TIMED_OUT, delay_ms=1000)
    assert ProduceRule.from_json(rule.to_json()) == rule
    assert "1000 ms" in rule.describe()
