"""Renderers over producer reports: terminal text, JSON and JUnit XML, and the matrix table.

Pure functions of the values in :mod:`producer_report`, so every output says the
same thing.
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree as ET

import attrs

from kafka_conformance.producer.report import MatrixReport, ProducerReport, RunResult, RunStatus
from kafka_conformance.terminal.verdict import seed_text, verdict_line

__all__ = ["describe_run", "matrix_to_json", "matrix_to_text", "to_json", "to_junit_xml", "to_text"]


def describe_trace(result: RunResult) -> list[str]:
    trace = result.trace
    lines = [f"producer: {', '.join(f'{k}={v}' for k, v in trace.producer)}"]
    c = trace.cluster
    lines.append(f"cluster: {c.brokers} brokers, {c.partitions} partition(s), RF {c.replication_factor}, "
                 f"min.insync {c.min_insync_replicas}, Kafka {c.kafka_version}")
    lines += [f"fault: {rule.describe()}" for rule in trace.plan.rules]
    lines += [f"step {n}: {_step(s)}" for n, s in enumerate(trace.steps, start=1)]
    return lines


def _step(step: Any) -> str:
    fields = attrs.asdict(step, recurse=False)
    name = type(step).__name__.removesuffix("Step").lower()
    parts = [f"{k}={getattr(v, 'value', v)}" for k, v in fields.items() if v not in (None, 0, "") or k == "partition"]
    return f"{name} {' '.join(parts)}".strip()


def describe_run(result: RunResult, *, with_trace: bool = True) -> list[str]:
    """The lines that explain one run: status, counts, anomalies, notes, the trace, where it was saved."""
    head = f"{result.status.value}"
    if result.number is not None:
        head = f"#{result.number} {result.name}: {head}"
    lines = [head + f" ({', '.join(f'{k} {v}' for k, v in result.counts)})" if result.counts else head]
    if result.error:
        lines.append(f"  {result.error}")
    lines += [f"  {text}" for text in dict.fromkeys(a.describe() for a in result.anomalies)]
    lines += [f"  note: {n}" for n in result.notes]
    if with_trace:
        lines += [f"  {line}" for line in describe_trace(result)]
    if result.saved_to:
        lines.append(f"  saved: {result.saved_to}")
        lines.append(f"  replay: kafka-conformance replay {result.saved_to}")
    return lines


def to_text(report: ProducerReport) -> str:
    out = [f"kafka-conformance producer check: client {report.client}, broker {report.broker}, Kafka {report.kafka_version}, "
           f"{seed_text(report.seed)}"]
    refused = f", {report.refused} could not run ({report.refusal})" if report.refused else ""
    out.append(f"  generated traces: {report.examples} run{refused}")
    if report.examples:
        out.append(f"  outside KIP-185's guarantee: {report.outside} of {report.examples} generated traces "
                   "(anomalies the trace's settings allow: no idempotence, acks below all, one replica, ...; "
                   "reported, never a violation)")
    if report.counterexample is not None:
        out.append("  VIOLATION (shrunk):")
        out += ["    " + line for line in describe_run(report.counterexample)]
    for error in report.errors:
        out.append(f"  ERROR while generating: {error}")
    if report.table:
        out.append("  trace table:")
        for row in report.table:
            label = f"#{row.number:<3}" if row.number is not None else "    "
            out.append(f"    {label} {row.name:42} {row.summary()}")
            if row.status in (RunStatus.CLIENT, RunStatus.BROKER, RunStatus.ERROR):
                out += ["          " + line for line in describe_run(row, with_trace=False)[1:]]
            elif row.status is RunStatus.REFUSED:
                out.append(f"          n/a: {row.error or 'the client or broker cannot express this trace'}")
    notes = []
    if report.guarantees:
        notes.append("guarantees checked: " + ", ".join(report.guarantees))
    if report.examples == 0 and not report.table:
        notes.append("no trace was run, so this is not evidence either way")
    if notes:
        out.append("coverage notes:")
        out += [f"  {line}" for line in notes]
    where = report.client if report.broker == "model" else f"{report.client} on {report.broker}"
    out.append(verdict_line(report.verdict, target=f"{where}, Kafka {report.kafka_version}",
                            seed=report.seed, examples=report.examples + len(report.table), seconds=report.duration_s))
    return "\n".join(out)


def _run_json(result: RunResult) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": result.name,
        "number": result.number,
        "client": result.client,
        "broker": result.broker,
        "status": result.status.value,
        "summary": result.summary(),
        "verdicts": [{"property": p, "outcome": o, "attribution": a or None} for p, o, a in result.verdicts],
        "anomalies": [
            {"name": a.name, "property": a.prop.value, "attribution": a.attribution.value, "explanation": a.explanation,
             "partition": a.partition, "values": list(a.values), "offsets": list(a.offsets)}
            for a in result.anomalies
        ],
        "counts": dict(result.counts),
        "notes": list(result.notes),
        "duration_s": round(result.duration_s, 3),
        "trace": result.trace.to_json(),
    }
    if result.error:
        body["error"] = result.error
    if result.saved_to:
        body["saved_to"] = result.saved_to
    return body


def to_json(report: ProducerReport) -> dict[str, Any]:
    return {
        "suite": "producer",
        "client": report.client,
        "broker": report.broker,
        "kafka_version": report.kafka_version,
        "seed": report.seed,
        "verdict": report.verdict,
        "exit_code": report.exit_code,
        "duration_s": round(report.duration_s, 3),
        "examples": report.examples,
        "counterexample": None if report.counterexample is None else _run_json(report.counterexample),
        "errors": list(report.errors),
        "refused": report.refused,
        "refusal": report.refusal,
        "table": [_run_json(r) for r in report.table],
    }


def dumps_json(report: ProducerReport) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)


def to_junit_xml(report: ProducerReport) -> str:
    cases: list[tuple[str, RunResult | None, str]] = [("generated", report.counterexample, "")]
    cases += [(f"{r.number} {r.name}" if r.number is not None else r.name, r, "") for r in report.table]
    suite = ET.Element("testsuite", name=f"kafka-conformance producer {report.client} on {report.broker}", tests=str(len(cases)),
                       time=f"{report.duration_s:.3f}")
    failures = errors = skipped = 0
    for name, result, _ in cases:
        case = ET.SubElement(suite, "testcase", classname=f"kafka_conformance.producer.{report.client}", name=name)
        if result is None:
            if name == "generated" and report.errors:
                errors += 1
                ET.SubElement(case, "error", type="error", message=report.errors[0]).text = "\n".join(report.errors)
            continue
        case.set("time", f"{result.duration_s:.3f}")
        if result.status is RunStatus.CLIENT:
            failures += 1
            anomaly = ",".join(sorted({a.name for a in result.client_anomalies}))
            ET.SubElement(case, "failure", type=anomaly, message=anomaly).text = "\n".join(describe_run(result))
        elif result.status is RunStatus.ERROR:
            errors += 1
            ET.SubElement(case, "error", type="error", message=result.error).text = "\n".join(describe_run(result))
        elif result.status is RunStatus.REFUSED:
            skipped += 1
            ET.SubElement(case, "skipped", message=result.error)
        else:
            case.set("status", result.summary())
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    return ET.tostring(suite, encoding="unicode")


def matrix_to_text(matrix: MatrixReport) -> str:
    width = max([len(label) for label, _ in matrix.rows] + [10])
    cells = [[r.summary() if r is not None else "-" for r in results] for _, results in matrix.rows]
    widths = [max([len(col)] + [len(row[i]) for row in cells]) for i, col in enumerate(matrix.columns)]
    out = ["  ".join([" " * width, *(c.ljust(w) for c, w in zip(matrix.columns, widths, strict=True))]).rstrip()]
    for (label, _), row in zip(matrix.rows, cells, strict=True):
        out.append("  ".join([label.ljust(width), *(c.ljust(w) for c, w in zip(row, widths, strict=True))]).rstrip())
    out.append("")
    out.append("holds: every guarantee promised under the trace held; CLIENT / BROKER: violated, attributed; "
               "outside: an anomaly KIP-185 allows here; unknown: not settled (no wire events, pending sends); "
               "n/a: the client or broker cannot express the trace")
    out += [f"skipped {s}" for s in matrix.skipped]
    saved = [r.saved_to for _, results in matrix.rows for r in results if r is not None and r.saved_to]
    out += [f"saved: {s}" for s in saved]
    out.append(f"matrix in {matrix.duration_s:.1f}s")
    return "\n".join(out)


def matrix_to_json(matrix: MatrixReport) -> dict[str, Any]:
    return {
        "columns": list(matrix.columns),
        "rows": [{"row": label, "results": [None if r is None else _run_json(r) for r in results]} for label, results in matrix.rows],
        "skipped": list(matrix.skipped),
        "exit_code": matrix.exit_code,
        "duration_s": round(matrix.duration_s, 3),
    }
