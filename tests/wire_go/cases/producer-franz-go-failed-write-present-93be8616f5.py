"""Regression test written by kafka-conformance: franz-go on test-broker, failed-write-present.

failed-write-present [client] p0@0 v0: reported a definite failure (kerr.INVALID_RECORD: INVALID_RECORD: This record has failed the validation on the broker and hence been rejected.) although an attempt may have been written
failed-write-present [client] p0@1 v1: reported a definite failure (kerr.INVALID_RECORD: INVALID_RECORD: This record has failed the validation on the broker and hence been rejected.) although an attempt may have been written
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
        WaitStep(3000),
        SendStep('v2'),
        FlushStep(),
    ],
    plan=FaultPlan([
        ProduceRule(1, Action.DROP_RESPONSE, partition=0),
        ProduceRule(2, Action.ERROR, partition=0, error=ProduceError.INVALID_RECORD),
    ]),
    name='row 14: v0 retried after a lost response while v1 fails definitively: the bump must not re-stamp v0',
)



def test_franz_go_failed_write_present():
    run = run_wire_trace(TRACE, 'franz-go', broker='test-broker', kafka_version='4.3.0')
    result = judge(run)
    failures = [a.describe() for a in result.anomalies if a.attribution.is_failure]
    assert not failures, failures
