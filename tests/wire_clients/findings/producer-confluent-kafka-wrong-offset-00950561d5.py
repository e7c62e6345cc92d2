"""Regression test written by kafka-conformance: confluent-kafka on test-broker, wrong-offset.

wrong-offset [client] p0@0,1 b: the client reported offset 0, the broker answered [-1]
wrong-offset [client] p0@1,2 c: the client reported offset 1, the broker answered [-1]
"""

from kafka_conformance.producer_check import judge, run_wire_trace
from kafka_conformance.reference.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.produce_errors import ProduceError
from kafka_conformance.reference.producer_program import (
    ClusterAction, ClusterSpec, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep,
)

"""Replay of a producer failure trace: 46 answered for a written three-record batch (kafka-conformance)."""

from __future__ import annotations

from kafka_conformance.model_engine import model_failures, run_model
from kafka_conformance.reference.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.produce_errors import ProduceError
from kafka_conformance.reference.producer_program import (
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    WaitStep,
)

TRACE = ProducerTrace(
    steps=[
        SendStep('a'),
        SendStep('b'),
        SendStep('c'),
        FlushStep(),
        SendStep('d'),
        FlushStep(),
    ],
    plan=FaultPlan([
        ProduceRule(1, Action.ERROR_AFTER_APPEND, partition=0, error=ProduceError.DUPLICATE_SEQUENCE_NUMBER),
    ]),
    producer={
        'acks': 'all',
        'delivery.timeout.ms': '8000',
        'enable.idempotence': 'true',
        'linger.ms': '200',
        'max.in.flight.requests.per.connection': '5',
        'request.timeout.ms': '1500',
        'retry.backoff.ms': '50',
    },
    name='46 answered for a written three-record batch',
)


def test_46_answered_for_a_written_three_record_batch() -> None:
    run = run_model(TRACE)
    failures = [a.describe() for a in model_failures(run)]
    assert not failures, "\n".join([*failures, run.report.describe()])



def test_confluent_kafka_wrong_offset():
    run = run_wire_trace(TRACE, 'confluent-kafka', broker='test-broker', kafka_version='4.3.0')
    result = judge(run)
    failures = [a.describe() for a in result.anomalies if a.attribution.is_failure]
    assert not failures, failures
