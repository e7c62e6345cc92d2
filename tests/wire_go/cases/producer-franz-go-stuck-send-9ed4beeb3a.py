"""Regression test written by kafka-conformance: franz-go on test-broker, stuck-send.

stuck-send [client] p0 v0: 16015 ms > 12000 ms
stuck-send [client] p0 v1: 16014 ms > 12000 ms
stuck-send [client] p0 v2: 16014 ms > 12000 ms
stuck-send [client] p0 v3: 16014 ms > 12000 ms
stuck-send [client] p0 v4: 16014 ms > 12000 ms
"""

from kafka_conformance.producer.check import judge, run_wire_trace
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.program import (
    ClusterAction, ClusterSpec, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep,
)

TRACE = ProducerTrace(
    steps=[
        SendStep('v0'),
        SendStep('v1'),
        SendStep('v2'),
        SendStep('v3'),
        SendStep('v4'),
        FlushStep(),
    ],
    plan=FaultPlan([
        ProduceRule(1, Action.DROP_RESPONSE, partition=0),
        ProduceRule(2, Action.DROP_RESPONSE, partition=0),
        ProduceRule(3, Action.DROP_RESPONSE, partition=0),
        ProduceRule(4, Action.DROP_RESPONSE, partition=0),
        ProduceRule(5, Action.DROP_RESPONSE, partition=0),
    ]),
    name='row 2: five responses lost: five retries, five duplicates (the window holds five batches)',
)



def test_franz_go_stuck_send():
    run = run_wire_trace(TRACE, 'franz-go', broker='test-broker', kafka_version='4.3.0')
    result = judge(run)
    failures = [a.describe() for a in result.anomalies if a.attribution.is_failure]
    assert not failures, failures
