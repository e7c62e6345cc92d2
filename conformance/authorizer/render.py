"""Renderers over :class:`~kafka_conformance.authorizer.report.Report`: terminal text, JSON, JUnit XML.

Each is a pure function of the report value, so all three say the same thing.
"""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree as ET

import attrs

from kafka_conformance.authorizer.anomalies import CATALOGUE
from kafka_conformance.authorizer.cases import Scenario, scenario_to_json
from kafka_conformance.authorizer.domain.classes import DOMAIN
from kafka_conformance.authorizer.report import Counterexample, Report, Status
from kafka_conformance.authorizer.targets import replay_command
from kafka_conformance.terminal.verdict import seed_text, verdict_line

__all__ = ["describe_scenario", "to_json", "to_junit_xml", "to_text"]


def describe_scenario(s: Scenario) -> list[str]:
    lines = []
    if s.properties:
        lines.append("config: " + ", ".join(f"{k}={v!r}" for k, v in s.properties))
    if s.acls:
        lines.append("ACLs:")
        lines += [f"  #{n} [{i}] {b}" for n, (i, b) in enumerate(s.acls, start=1)]
    else:
        lines.append("ACLs: (none)")
    if s.records:
        lines.append("then, in order:")
        lines += [f"  step {n}: {r}" for n, r in enumerate(s.records, start=1)]
    return lines


def _counterexample_lines(cx: Counterexample, saved_to: str | None, target: str) -> list[str]:
    lines = describe_scenario(cx.scenario)
    if cx.divergence is not None:
        d = cx.divergence
        anomaly = CATALOGUE.get(d.anomaly)
        lines.append(f"observed: {cx.signature}")
        lines.append(f"likely: {d.anomaly}" + (f" — {anomaly.summary} ({anomaly.reference})" if anomaly else ""))
        if d.step:
            lines.append(f"when: {d.step}")
        lines.append(f"question: {d.question}")
        lines.append(f"expected: {d.expected}")
        lines.append(f"actual:   {d.actual}")
        lines.append(f"why: {d.explanation}")
        if cx.agreement is not None:
            lines.append(cx.agreement.describe())
        if cx.kafka_bug is not None:
            lines.append(cx.kafka_bug.describe())
    if cx.adapter_error is not None:
        lines.append(f"the target could not answer: {cx.adapter_error}")
    if saved_to:
        lines.append(f"saved: {saved_to}")
        lines.append(f"replay: {replay_command(saved_to, target)}")
    return lines


def _error_key(error: str) -> str:
    """An implementation's error without the question it was asked: the same bug met by two
    properties has the same key.  Where the implementation's own lines are known, the key is
    the exception's type and where it was raised (a ``KeyError`` for one host and for another
    is one bug); otherwise its whole message."""
    lines = [line for line in error.splitlines() if not line.startswith("  asked: ")]
    if "  raised at (innermost last):" in lines:
        at = lines.index("  raised at (innermost last):")
        raised = re.search(r" raised (\w+)", lines[0])
        return "\n".join([raised.group(1) if raised else lines[0], *lines[at:]])
    return "\n".join(lines)


def to_text(report: Report) -> str:
    out = [
        f"kafka-conformance authorizer suite: target {report.name}, Kafka {report.profile}, "
        f"{seed_text(report.seed)}"
    ]
    shown: dict[str, str] = {}  # an implementation's error (where it was raised): printed whole once
    for r in report.results:
        extra = f" ({r.examples} examples)" if r.examples else ""
        if r.status is Status.SKIPPED:
            extra = f" ({r.reason})"
        out.append(f"  {r.status.value.upper():7} {r.name}{extra}")
        if r.reason and r.status is not Status.SKIPPED:
            out.append(f"      {r.reason}")
        cx = r.counterexample
        if cx is not None:
            error = cx.adapter_error
            key = _error_key(error) if error is not None else None
            if key is not None and key in shown and error is not None:
                cx = attrs.evolve(cx, adapter_error=f"{error.splitlines()[0]} (raised where it was in {shown[key]}, above)")
            elif key is not None:
                shown[key] = r.name
            out += ["      " + line for line in _counterexample_lines(cx, r.saved_to, report.target)]
    notes = []
    if report.out_of_scope:
        notes.append("not checked (out of the target's declared scope): " + "; ".join(report.out_of_scope))
    if report.not_exercised:
        notes.append("never exercised, so not evidence either way: " + "; ".join(report.not_exercised))
    notes += domain_lines(report)
    if notes:
        out.append("coverage notes:")
        out += [f"  {line}" for line in notes]
    examples = sum(r.examples for r in report.results)
    out.append(verdict_line(report.verdict.value, target=f"{report.name}, Kafka {report.profile}", seed=report.seed,
                            examples=examples, seconds=report.duration_s))
    return "\n".join(out)


def domain_lines(report: Report) -> list[str]:
    """The input-domain coverage: how many classes the run reached, and which it missed."""
    if not report.domain:
        return []
    reached = sum(1 for _, n in report.domain if n)
    if not report.domain_missing:
        return [f"input domain: {reached} classes reached"]
    what = {c.name: c.what for c in DOMAIN}
    missing = "; ".join(f"{name} ({what.get(name, '?')})" for name in report.domain_missing)
    return [f"{len(report.domain_missing)} input classes never reached, so the run is no evidence "
            f"about them (raise --max-examples): {missing}"]


def to_json(report: Report) -> dict[str, Any]:
    def result(r: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"property": r.name, "status": r.status.value, "examples": r.examples}
        if r.reason:
            body["reason"] = r.reason
        if r.saved_to:
            body["saved_to"] = r.saved_to
        if r.counterexample is not None:
            cx = r.counterexample
            body["anomaly"] = cx.anomaly
            body["signature"] = str(cx.signature)
            body["signature_id"] = cx.signature.id
            body["scenario"] = scenario_to_json(cx.scenario)
            if cx.divergence is not None:
                body["divergence"] = attrs.asdict(cx.divergence)
            if cx.agreement is not None:
                body["agreement"] = {"alike": list(cx.agreement.alike), "expected": list(cx.agreement.expected)}
            if cx.kafka_bug is not None:
                body["kafka_bug"] = {"release": cx.kafka_bug.release, "bug": cx.kafka_bug.bug, "what": cx.kafka_bug.what,
                                     "implementation_follows": cx.kafka_bug.follows.value,
                                     "explanation": cx.kafka_bug.describe()}
            if cx.adapter_error is not None:
                body["adapter_error"] = cx.adapter_error
        return body

    return {
        "target": report.target,
        "profile": report.profile,
        "seed": report.seed,
        "verdict": report.verdict.value,
        "exit_code": report.exit_code,
        "duration_s": round(report.duration_s, 3),
        "results": [result(r) for r in report.results],
        "coverage": dict(report.coverage),
        "not_exercised": list(report.not_exercised),
        "domain": dict(report.domain),
        "domain_missing": list(report.domain_missing),
        "out_of_scope": list(report.out_of_scope),
    }


def to_junit_xml(report: Report) -> str:
    suite = ET.Element(
        "testsuite",
        name=f"kafka-conformance authorizer {report.name}",
        tests=str(len(report.results)),
        failures=str(sum(r.status is Status.FAILED for r in report.results)),
        errors=str(sum(r.status is Status.ERROR for r in report.results)),
        skipped=str(sum(r.status is Status.SKIPPED for r in report.results)),
        time=f"{report.duration_s:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (("target", report.target), ("profile", report.profile), ("seed", str(report.seed))):
        ET.SubElement(props, "property", name=name, value=value)
    for r in report.results:
        case = ET.SubElement(suite, "testcase", classname=f"kafka_conformance.authorizer.{report.profile.replace(' ', '_')}", name=r.name)
        if r.status is Status.SKIPPED:
            ET.SubElement(case, "skipped", message=r.reason)
        elif r.status in (Status.FAILED, Status.ERROR):
            tag = "failure" if r.status is Status.FAILED else "error"
            cx = r.counterexample
            anomaly = cx.anomaly if cx is not None else "error"
            el = ET.SubElement(case, tag, type=anomaly, message=anomaly)
            el.text = "\n".join(_counterexample_lines(cx, r.saved_to, report.target)) if cx is not None else r.reason
    return ET.tostring(suite, encoding="unicode")


def dumps_json(report: Report) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)
