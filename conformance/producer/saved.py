"""Saved producer traces: one JSON file per violation, a runnable program beside it, and replay.

A case file holds what is needed to run the trace again without the original
run: the client, the broker spec, the Kafka version, the trace (its own JSON
form) and what was observed (status and anomaly names).  Beside it a ``.py``
file is the same case as a pytest test that fails while the violation remains.

``kafka-conformance replay FILE`` routes files of this format to
:func:`replay_producer`, which re-runs the trace and says FIXED (the client no
longer violates anything), FAILED (it still does) or ERROR (it could not run).
"""

from __future__ import annotations

import enum
import hashlib
import json
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.casefiles import known_fields, read_json_file
from kafka_conformance.outputs import write_output
from kafka_conformance.producer.report import RunResult, RunStatus
from kafka_conformance.reference.traces.fault_plan import PlanError
from kafka_conformance.reference.traces.program import ProducerTrace

__all__ = ["CASE_FORMAT", "ReplayResult", "SavedProducerCase", "load_producer_case", "replay_producer", "save_run"]

CASE_FORMAT = "kafka-conformance/producer-case"
CASE_VERSION = 1


@attrs.frozen
class SavedProducerCase:
    path: str
    client: str
    broker: str
    kafka_version: str
    trace: ProducerTrace
    status: str
    anomalies: tuple[str, ...]


@attrs.frozen
class ReplayResult:
    case: SavedProducerCase
    label: str
    """FIXED, FAILED or ERROR."""
    result: RunResult | None
    error: str = ""

    @property
    def exit_code(self) -> int:
        return {"FIXED": 0, "FAILED": 1}.get(self.label, 2)


def save_run(result: RunResult, directory: Path, *, kafka_version: str, seed: int | None = None) -> Path:
    """Write ``result``'s trace as a case file (and its pytest twin); returns the JSON path."""
    names = sorted({a.name for a in result.anomalies if a.attribution.is_failure}) or [result.status.value]
    body: dict[str, Any] = {
        "format": CASE_FORMAT,
        "version": CASE_VERSION,
        "client": result.client,
        "broker": result.broker,
        "kafka_version": kafka_version,
        "seed": seed,
        "row": result.name,
        "status": result.status.value,
        "anomalies": names,
        "explanations": [a.describe() for a in result.anomalies],
        "trace": result.trace.to_json(),
    }
    digest = hashlib.sha256(json.dumps(body["trace"], sort_keys=True).encode()).hexdigest()[:10]
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"producer-{result.client}-{names[0]}-{digest}"
    path = directory / f"{stem}.json"
    write_output(path, json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    write_output(path.with_suffix(".py"), pytest_program(result, kafka_version))
    return path


def pytest_program(result: RunResult, kafka_version: str) -> str:
    """The case as a self-contained pytest test: the trace as Python values, then the run."""
    program = _trace_as_python(result.trace)
    anomalies = ", ".join(sorted({a.name for a in result.anomalies if a.attribution.is_failure})) or result.status.value
    found = tuple(a.describe() for a in result.anomalies)
    # Nothing from the run is pasted into code: every value below is a Python literal (repr), so the
    # file is valid Python whatever a client's or broker's message held (quotes, newlines, paths).
    return f'''"""Regression test written by kafka-conformance: a producer trace that failed (see FOUND)."""

from kafka_conformance.producer.check import judge, run_wire_trace
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.program import (
    ClusterAction, ClusterSpec, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep,
)

{program}

CLIENT, BROKER, KAFKA_VERSION = {result.client!r}, {result.broker!r}, {kafka_version!r}
FOUND = {found!r}


def test_{_identifier(result.client)}_{_identifier(anomalies)}():
    run = run_wire_trace(TRACE, CLIENT, broker=BROKER, kafka_version=KAFKA_VERSION)
    result = judge(run)
    failures = [a.describe() for a in result.anomalies if a.attribution.is_failure]
    assert not failures, failures
'''


def _identifier(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)[:60]


def _trace_as_python(trace: ProducerTrace) -> str:
    """``TRACE = ProducerTrace(...)``: every value's repr is valid Python in this namespace."""
    try:
        from kafka_conformance.producer.trace_program import trace_literal  # the shared renderer, when present

        return str(trace_literal(trace))
    except ImportError:
        pass
    lines = ["TRACE = ProducerTrace(", "    steps=["]
    lines += [f"        {_py(step)}," for step in trace.steps]
    lines.append("    ],")
    if trace.plan.rules:
        lines.append("    plan=FaultPlan([")
        lines += [f"        {_py(rule)}," for rule in trace.plan.rules]
        lines.append("    ]),")
    lines.append(f"    producer={dict(trace.producer)!r},")
    lines.append(f"    cluster={_py(trace.cluster)},")
    lines.append(f"    name={trace.name!r},")
    lines.append(")")
    return "\n".join(lines)


def _py(value: Any) -> str:
    """Python source for a trace value: attrs classes by keyword (defaults left out), enums by name."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if attrs.has(type(value)):
        args = []
        for field in attrs.fields(type(value)):
            current = getattr(value, field.name)
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if current != default:
                args.append(f"{field.name}={_py(current)}")
        return f"{type(value).__name__}({', '.join(args)})"
    return repr(value)


_CASE_FIELDS = frozenset({"format", "version", "client", "broker", "kafka_version", "seed", "row", "status", "anomalies",
                          "explanations", "trace"})


def load_producer_case(path: str | Path) -> SavedProducerCase:
    """Read a case; raises ValueError naming the file and the problem."""
    p = Path(path)
    body = read_json_file(p, CASE_FORMAT, "kafka-conformance producer case file")
    if body.get("version") != CASE_VERSION:
        raise ValueError(f"{p}: producer case version {body.get('version')!r} is not supported (this kit reads {CASE_VERSION})")
    known_fields(body, _CASE_FIELDS, str(p))
    try:
        trace = ProducerTrace.from_json(body["trace"], where=f"{p}: trace")
        return SavedProducerCase(
            str(p), str(body["client"]), str(body["broker"]), str(body["kafka_version"]), trace,
            str(body.get("status", "")), tuple(body.get("anomalies", ())),
        )
    except KeyError as exc:
        raise ValueError(f"{p}: missing field {exc.args[0]!r}") from exc
    except PlanError as exc:
        raise ValueError(str(exc)) from exc


def replay_producer(path: str | Path, *, client: str | None = None, broker: str | None = None) -> ReplayResult:
    """Re-run a saved case (optionally on another client or broker): FIXED, FAILED or ERROR."""
    from kafka_conformance.producer.check import run_and_judge

    case = load_producer_case(path)
    result = run_and_judge(
        case.trace, client or case.client, broker=broker or case.broker, kafka_version=case.kafka_version, name=f"replay {Path(path).name}"
    )
    if result.status in (RunStatus.ERROR, RunStatus.REFUSED):
        return ReplayResult(case, "ERROR", result, result.error)
    failing = any(a.attribution.is_failure for a in result.anomalies)
    return ReplayResult(case, "FAILED" if failing else "FIXED", result)
