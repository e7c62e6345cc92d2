"""The trace strategies draw valid, runnable, shrinkable traces; traces print as runnable programs."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from kafka_conformance.producer.model_engine import run_model
from kafka_conformance.producer.strategies import OUTSIDE_CONFIGS, PRODUCER_CONFIGS, producer_traces
from kafka_conformance.producer.trace_program import TRACE_IMPORTS, trace_literal, trace_program
from kafka_conformance.producer.trace_table import TRACE_TABLE
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.producer.config import explain_config
from kafka_conformance.reference.producer.config_values import ProducerConfigError
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import (
    DEFAULT_PRODUCER,
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    WaitStep,
)

QUICK = settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@QUICK
@given(producer_traces(max_sends=5, partitions=3))
def test_generated_traces_are_valid_and_round_trip(trace: ProducerTrace) -> None:
    sends = trace.sends
    assert 1 <= len(sends) <= 5
    assert [s.value for s in sends] == [f"v{i}" for i in range(len(sends))]
    assert trace.cluster.partitions <= 3
    assert ProducerTrace.from_json(trace.to_json()) == trace


@QUICK
@given(producer_traces(wire=True))
def test_wire_traces_are_runnable_in_real_time(trace: ProducerTrace) -> None:
    assert trace.initial_sequence == 0
    assert all(s.ms <= 3000 for s in trace.steps if isinstance(s, WaitStep))
    assert all(s.duration_ms <= 2500 for s in trace.steps if isinstance(s, ClusterStep))


@QUICK
@given(producer_traces(outside=False))
def test_inside_only_draws_idempotent_durable_setups(trace: ProducerTrace) -> None:
    assert dict(trace.producer) in [dict(c) for c in PRODUCER_CONFIGS]
    assert trace.cluster.replication_factor >= 2 and trace.cluster.min_insync_replicas >= 2


@pytest.mark.parametrize("config", PRODUCER_CONFIGS + OUTSIDE_CONFIGS, ids=str)
def test_every_drawn_configuration_is_accepted_by_the_java_client(config: dict[str, str]) -> None:
    effective = explain_config(config, client="java", version="4.3.0")
    assert effective.idempotent == (config in PRODUCER_CONFIGS)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="max_sends"):
        producer_traces(max_sends=0)


def test_failing_traces_shrink_to_the_fewest_steps() -> None:
    """The simplest trace with a crash: one send, the crash, no rules, default producer and cluster."""
    smallest = find(
        producer_traces(max_sends=3),
        lambda t: any(isinstance(s, ClusterStep) and s.action is ClusterAction.CRASH for s in t.steps),
        settings=settings(database=None, derandomize=True, phases=tuple(Phase)[:-1], suppress_health_check=list(HealthCheck)),
    )
    assert len(smallest.steps) == 2 and not smallest.plan.rules
    assert dict(smallest.producer) == dict(DEFAULT_PRODUCER) and smallest.cluster == ClusterSpec(partitions=1)
    assert smallest.initial_sequence == 0


def _exec(text: str) -> dict[str, object]:
    namespace: dict[str, object] = {}
    exec(compile(text, "<trace program>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("row", TRACE_TABLE, ids=lambda r: f"row{r.number}")
def test_table_traces_print_as_programs_that_rebuild_them(row: object) -> None:
    trace = row.trace  # type: ignore[attr-defined]
    namespace = _exec(trace_program(trace))
    assert namespace["TRACE"] == trace
    assert _exec(TRACE_IMPORTS + trace_literal(trace, "OTHER"))["OTHER"] == trace


@QUICK
@given(producer_traces(partitions=2))
def test_generated_traces_print_as_programs_that_rebuild_them(trace: ProducerTrace) -> None:
    assert _exec(trace_program(trace))["TRACE"] == trace


def test_the_printed_test_runs_and_can_fail() -> None:
    ok = ProducerTrace([SendStep("a"), FlushStep()], name="a lost response")
    namespace = _exec(trace_program(ok))
    tests = [v for k, v in namespace.items() if k.startswith("test_")]
    assert len(tests) == 1
    tests[0]()  # type: ignore[operator]
    # acks=1 with RF 1 and a crash loses the record, but that is outside the guarantee: passes too
    outside = ProducerTrace(
        [SendStep("a"), ClusterStep(ClusterAction.CRASH, broker=0), FlushStep()],
        producer={**DEFAULT_PRODUCER, "acks": "1", "enable.idempotence": "false"},
        cluster=ClusterSpec(replication_factor=1, min_insync_replicas=1),
    )
    assert run_model(outside).report.anomalies
    _exec(trace_program(outside, test_name="outside"))["test_outside"]()  # type: ignore[operator]


def test_config_errors_are_runs_not_exceptions() -> None:
    bad = ProducerTrace([SendStep("a")], producer={**DEFAULT_PRODUCER, "acks": "1"})
    with pytest.raises(ProducerConfigError):
        explain_config(bad.config, client="java", version="4.3.0")
    run = run_model(bad)
    assert run.config_error and not run.events


def test_rules_render_with_errors_and_delays() -> None:
    trace = ProducerTrace(
        [SendStep("a", 1)],
        plan=FaultPlan([ProduceRule(1, Action.DELAY, 1, delay_ms=5), ProduceRule(2, Action.ERROR, 1, ProduceError.NOT_ENOUGH_REPLICAS)]),
        cluster=ClusterSpec(partitions=2),
    )
    text = trace_literal(trace)
    assert "ProduceError.NOT_ENOUGH_REPLICAS" in text and "delay_ms=5" in text and "partitions=2" in text
    assert _exec(TRACE_IMPORTS + text)["TRACE"] == trace
