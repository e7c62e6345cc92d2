"""The result of a broker check as values, and its terminal, JSON and JUnit renderings.

One :class:`BrokerReport` per run: the broker, the Kafka release it was held
to, each distinct anomaly found with its minimal (shrunk) case, the probe table,
and anything that stopped the run.  The three renderers are separate functions
over the same values, so they never disagree.
"""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import attrs

from kafka_conformance.agreement import Agreement
from kafka_conformance.broker.cases import BrokerCase, case_to_json
from kafka_conformance.broker.classes import BROKER_CLASSES, missed_classes
from kafka_conformance.broker.compare import BROKER_ANOMALIES, BrokerDivergence, StepRecord
from kafka_conformance.broker.probes import ProbeResult
from kafka_conformance.terminal.verdict import seed_text, verdict_line

__all__ = ["BrokerFinding", "BrokerReport", "render_broker_json", "render_broker_junit", "render_broker_text"]


@attrs.frozen
class BrokerFinding:
    """One anomaly, shown by the smallest case Hypothesis could shrink it to."""

    anomaly: str
    case: BrokerCase
    divergence: BrokerDivergence
    steps: tuple[StepRecord, ...]
    examples: int
    """Cases run in the round that found it."""
    saved_to: str | None = None
    agreement: Agreement | None = None
    """Which Kafka releases answer the case as the broker did (None: the replay cannot tell)."""


@attrs.frozen
class BrokerReport:
    target: str
    broker: str
    """What ran, e.g. ``tansu 0.1.2 (Tansu 0.6.0) at 127.0.0.1:40123``."""
    kafka_version: str
    seed: int | None
    examples: int
    findings: tuple[BrokerFinding, ...] = ()
    probes: tuple[ProbeResult, ...] = ()
    errors: tuple[str, ...] = ()
    """Why (part of) the run could not be completed: the broker stopped answering, ..."""
    coverage: tuple[tuple[str, int], ...] = ()
    duration_s: float = 0.0
    classes: tuple[str, ...] = ()
    """The input classes (:data:`~kafka_conformance.broker.classes.BROKER_CLASSES`) the generated cases reached."""
    excluded_classes: tuple[tuple[str, str], ...] = ()
    """(class, why) for the classes this run could not reach (the target cannot be restarted,
    the release refuses the input); neither counted nor missed."""

    @property
    def missed_classes(self) -> tuple[str, ...]:
        """Classes no generated case reached (empty when no case was generated: nothing was claimed)."""
        return missed_classes(self.classes, excluded=(n for n, _ in self.excluded_classes)) if self.examples else ()

    @property
    def counted_classes(self) -> int:
        return len(BROKER_CLASSES) - len(self.excluded_classes)

    @property
    def anomalies(self) -> tuple[str, ...]:
        names = [f.anomaly for f in self.findings]
        names += [a for p in self.probes for a in p.anomalies]
        return tuple(dict.fromkeys(names))

    @property
    def verdict(self) -> str:
        if self.anomalies:
            return "diverges"
        if self.errors or any(p.status == "error" for p in self.probes):
            return "error"
        return "conforms"

    @property
    def exit_code(self) -> int:
        return 0 if self.verdict == "conforms" else 1


def render_broker_text(report: BrokerReport) -> str:
    lines = [
        f"broker check: {report.target} ({report.broker})",
        f"held to: Apache Kafka {report.kafka_version}; {seed_text(report.seed)}; {report.examples} generated cases; "
        f"{report.duration_s:.1f}s",
    ]
    if report.probes:
        lines.append("")
        lines.append("conformance table:")
        width = max(len(p.name) for p in report.probes)
        for p in report.probes:
            mark = {"conforms": "ok  ", "diverges": "DIFF", "error": "ERR ", "skipped": "skip"}[p.status]
            lines.append(f"  {mark} {p.name:<{width}}  {p.summary}")
            if p.agreement is not None:
                lines.append(f"  {'':4} {'':<{width}}  {p.agreement.describe()}")
    for f in report.findings:
        lines.append("")
        lines.append(f"FOUND {f.anomaly}: {BROKER_ANOMALIES.get(f.anomaly, '')}")
        lines.append("  minimal case:")
        lines += [f"    {line}" for line in f.case.describe().splitlines()]
        lines += [f"  {line}" for line in f.divergence.describe().splitlines()]
        if f.agreement is not None:
            lines.append(f"  {f.agreement.describe()}")
        if f.saved_to:
            lines.append(f"  saved: {f.saved_to}")
    for e in report.errors:
        lines.append("")
        lines.append(f"ERROR {e}")
    if report.coverage or report.examples:
        lines.append("")
        lines.append("coverage notes:")
    if report.coverage:
        lines.append("  exercised: " + ", ".join(f"{k} x{v}" for k, v in report.coverage))
    if report.examples:
        lines.append(f"  input classes: {report.counted_classes - len(report.missed_classes)}/{report.counted_classes} reached")
        if report.missed_classes:
            lines.append(f"  not reached (the run says nothing about them): {', '.join(report.missed_classes)}")
        reasons: dict[str, list[str]] = {}
        for name, why in report.excluded_classes:
            reasons.setdefault(why, []).append(name)
        for why, names in reasons.items():
            lines.append(f"  not asked ({why}): {', '.join(names)}")
    lines.append("")
    found = ", ".join(report.anomalies) or "none"
    lines.append(verdict_line(report.verdict, target=f"{report.target}, Kafka {report.kafka_version}", seed=report.seed,
                              examples=report.examples + len(report.probes), seconds=report.duration_s,
                              detail=f"anomalies: {found}"))
    return "\n".join(lines) + "\n"


def _agreement_json(agreement: Agreement | None) -> dict[str, list[str]] | None:
    return None if agreement is None else {"alike": list(agreement.alike), "expected": list(agreement.expected)}


def _divergence_json(d: BrokerDivergence) -> dict[str, Any]:
    return attrs.asdict(d)


def report_to_json(report: BrokerReport) -> dict[str, Any]:
    return {
        "format": "kafka-conformance/broker-report",
        "target": report.target,
        "broker": report.broker,
        "kafka_version": report.kafka_version,
        "seed": report.seed,
        "examples": report.examples,
        "verdict": report.verdict,
        "anomalies": list(report.anomalies),
        "findings": [
            {
                "anomaly": f.anomaly,
                "case": case_to_json(f.case),
                "divergence": _divergence_json(f.divergence),
                "steps": [attrs.asdict(s) for s in f.steps],
                "examples": f.examples,
                "saved_to": f.saved_to,
                "agreement": _agreement_json(f.agreement),
            }
            for f in report.findings
        ],
        "probes": [
            {
                "name": p.name,
                "question": p.question,
                "status": p.status,
                "anomalies": list(p.anomalies),
                "divergences": [_divergence_json(d) for d in p.divergences],
                "agreement": _agreement_json(p.agreement),
                "error": p.error or None,
            }
            for p in report.probes
        ],
        "errors": list(report.errors),
        "coverage": dict(report.coverage),
        "classes": {"reached": list(report.classes), "missed": list(report.missed_classes),
                    "excluded": dict(report.excluded_classes)},
        "duration_s": round(report.duration_s, 3),
    }


def render_broker_json(report: BrokerReport) -> str:
    return json.dumps(report_to_json(report), indent=2, ensure_ascii=False) + "\n"


def render_broker_junit(report: BrokerReport) -> str:
    """One testcase per probe plus one per finding (``<failure type=ANOMALY>``) and per error."""
    cases = []
    for p in report.probes:
        body = ""
        if p.status == "diverges":
            text = "\n".join(d.describe() for d in p.divergences)
            body = f"<failure type={quoteattr(p.anomalies[0])} message={quoteattr(p.summary)}>{escape(text)}</failure>"
        elif p.status == "error":
            body = f"<error type=\"broker-error\" message={quoteattr(p.error)}/>"
        elif p.status == "skipped":
            body = f"<skipped message={quoteattr(p.error)}/>"
        cases.append(f'  <testcase classname="broker.probes" name={quoteattr(p.name)}>{body}</testcase>')
    for f in report.findings:
        text = f.case.describe() + "\n" + f.divergence.describe()
        cases.append(
            f'  <testcase classname="broker.generated" name={quoteattr(f.anomaly)}>'
            f"<failure type={quoteattr(f.anomaly)} message={quoteattr(BROKER_ANOMALIES.get(f.anomaly, f.anomaly))}>"
            f"{escape(text)}</failure></testcase>"
        )
    if not report.findings and not report.errors:
        cases.append(f'  <testcase classname="broker.generated" name="generated-cases ({report.examples})"></testcase>')
    for e in report.errors:
        cases.append(f'  <testcase classname="broker.generated" name="run"><error type="broker-error" message={quoteattr(e)}/></testcase>')
    failures = sum(1 for p in report.probes if p.status == "diverges") + len(report.findings)
    errors = sum(1 for p in report.probes if p.status == "error") + len(report.errors)
    skipped = sum(1 for p in report.probes if p.status == "skipped")
    head = (f'<testsuite name={quoteattr("kafka-conformance broker " + report.target)} tests="{len(cases)}" '
            f'failures="{failures}" errors="{errors}" skipped="{skipped}" time="{report.duration_s:.3f}">')
    return '<?xml version="1.0" encoding="utf-8"?>\n' + head + "\n" + "\n".join(cases) + "\n</testsuite>\n"
