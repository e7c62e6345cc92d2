"""Render a :class:`ProducerTrace` as a runnable Python program (a pytest module).

A failing trace is worth most as something a developer can paste, run and
edit: :func:`trace_program` prints the imports, the trace as a literal
(``TRACE = ProducerTrace(...)``, every value spelled as constructor calls, enums
by name) and a test that runs it on the in-process model engine and asserts that
no anomaly is the broker's or the client's.  :func:`trace_literal` is the
literal alone, for reports that wrap the trace in a test of their own (a wire
client instead of the model, say).
"""

from __future__ import annotations

import keyword
import re

import attrs

from kafka_conformance.reference.traces.fault_plan import ProduceRule
from kafka_conformance.reference.traces.program import (
    DEFAULT_PRODUCER,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    Step,
    WaitStep,
)

__all__ = ["TRACE_IMPORTS", "trace_literal", "trace_program"]

TRACE_IMPORTS = """\
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.program import (
    ClusterAction,
    ClusterSpec,
    ClusterStep,
    FlushStep,
    ProducerTrace,
    SendStep,
    WaitStep,
)
"""
"""The imports :func:`trace_literal`'s text needs."""


def _step(step: Step) -> str:
    if isinstance(step, SendStep):
        return f"SendStep({step.value!r}, {step.partition})" if step.partition else f"SendStep({step.value!r})"
    if isinstance(step, WaitStep):
        return f"WaitStep({step.ms})"
    if isinstance(step, FlushStep):
        return "FlushStep()"
    assert isinstance(step, ClusterStep)
    args = [f"ClusterAction.{step.action.name}"]
    if step.partition is not None:
        args.append(f"partition={step.partition}")
    if step.broker is not None:
        args.append(f"broker={step.broker}")
    if step.duration_ms:
        args.append(f"duration_ms={step.duration_ms}")
    return f"ClusterStep({', '.join(args)})"


def _rule(rule: ProduceRule) -> str:
    args = [str(rule.nth), f"Action.{rule.action.name}", f"partition={rule.partition}"]
    if rule.error is not None:
        args.append(f"error=ProduceError.{rule.error.name}")
    if rule.delay_ms:
        args.append(f"delay_ms={rule.delay_ms}")
    return f"ProduceRule({', '.join(args)})"


def _cluster(spec: ClusterSpec) -> str:
    default = ClusterSpec()
    names = [f.name for f in attrs.fields(ClusterSpec)]
    changed = [f"{n}={getattr(spec, n)!r}" for n in names if getattr(spec, n) != getattr(default, n)]
    return f"ClusterSpec({', '.join(changed)})"


def trace_literal(trace: ProducerTrace, variable: str = "TRACE") -> str:
    """``TRACE = ProducerTrace(...)`` as Python source (needs :data:`TRACE_IMPORTS`)."""
    lines = [f"{variable} = ProducerTrace(", "    steps=["]
    lines += [f"        {_step(s)}," for s in trace.steps]
    lines.append("    ],")
    if trace.plan.rules:
        lines.append("    plan=FaultPlan([")
        lines += [f"        {_rule(r)}," for r in trace.plan.rules]
        lines.append("    ]),")
    if dict(trace.producer) != dict(DEFAULT_PRODUCER):
        lines.append("    producer={")
        lines += [f"        {k!r}: {v!r}," for k, v in trace.producer]
        lines.append("    },")
    if trace.cluster != ClusterSpec():
        lines.append(f"    cluster={_cluster(trace.cluster)},")
    if trace.initial_sequence:
        lines.append(f"    initial_sequence={trace.initial_sequence},")
    if trace.name:
        lines.append(f"    name={trace.name!r},")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _test_name(trace: ProducerTrace, given: str | None) -> str:
    base = given or trace.name or "trace"
    name = re.sub(r"\W+", "_", base.lower()).strip("_")[:60] or "trace"
    name = name if name.startswith("test_") else f"test_{name}"
    return name if not keyword.iskeyword(name) else f"{name}_"


def trace_program(trace: ProducerTrace, *, test_name: str | None = None) -> str:
    """A pytest module that runs ``trace`` on the model engine and fails on any broker or client anomaly."""
    return (
        f'"""Replay of a producer failure trace: {trace.name or "generated"} (kafka-conformance)."""\n\n'
        "from __future__ import annotations\n\n"
        "from kafka_conformance.producer.model_engine import model_failures, run_model\n"
        f"{TRACE_IMPORTS}\n"
        f"{trace_literal(trace)}\n\n"
        f"def {_test_name(trace, test_name)}() -> None:\n"
        "    run = run_model(TRACE)\n"
        "    failures = [a.describe() for a in model_failures(run)]\n"
        '    assert not failures, "\\n".join([*failures, run.report.describe()])\n'
    )
