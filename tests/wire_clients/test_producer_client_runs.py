"""Each real client against the Python test broker, under traces with known verdicts.

These are real runs (a few seconds each): the clients, the sockets and the
broker are real; only the faults are scripted.  Each asserts the checker's
verdicts on what the client and the broker actually did.
"""

from __future__ import annotations

import pytest

from kafka_conformance.producer.check import judge, run_wire_trace
from kafka_conformance.producer.report import RunStatus
from kafka_conformance.reference.delivery.verdicts import Outcome, Property
from kafka_conformance.reference.traces.events import Acked, Attempt
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep

CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka")

LOST_RESPONSE = ProducerTrace(
    [SendStep("a"), SendStep("b"), FlushStep(), SendStep("c")],
    FaultPlan([ProduceRule(1, Action.DROP_RESPONSE)]),
    name="lost response",
)
FAILOVER = ProducerTrace(
    [SendStep("a"), SendStep("b"), ClusterStep(ClusterAction.FAILOVER, 0), SendStep("c"), WaitStep(100), SendStep("d")],
    name="failover mid-run",
)


def _verdict(run, prop: Property) -> Outcome:
    return next(v.outcome for v in run.report.verdicts if v.prop is prop)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_dropped_response_is_deduplicated(client: str) -> None:
    run = run_wire_trace(LOST_RESPONSE, client)
    attempts = [e for e in run.events if isinstance(e, Attempt)]
    first = attempts[0]
    retries = [a for a in attempts[1:] if a.values[0] == first.values[0]]
    assert retries, "the client must retry the batch whose answer was lost"
    assert (retries[0].producer_id, retries[0].base_sequence) == (first.producer_id, first.base_sequence)
    log = dict(run.final_log or ())[0]
    assert [r.value for r in log] == ["a", "b", "c"]  # once each, in order: the retry was deduplicated
    assert _verdict(run, Property.AT_MOST_ONCE) is Outcome.HOLDS
    assert _verdict(run, Property.EXACTLY_ONCE) is Outcome.HOLDS
    acked = {e.value: e.offset for e in run.events if isinstance(e, Acked)}
    assert acked == {"a": 0, "b": 1, "c": 2}  # the duplicate's answer carried the original offsets
    assert judge(run).status is RunStatus.HOLDS


@pytest.mark.parametrize("client", CLIENTS)
def test_a_failover_mid_run_loses_nothing(client: str) -> None:
    run = run_wire_trace(FAILOVER, client)
    log = dict(run.final_log or ())[0]
    assert sorted(r.value for r in log) == ["a", "b", "c", "d"]
    assert _verdict(run, Property.AT_LEAST_ONCE) is Outcome.HOLDS
    assert _verdict(run, Property.ORDER) is Outcome.HOLDS
    assert not judge(run).client_anomalies
