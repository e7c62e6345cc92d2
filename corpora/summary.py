"""The summary of a fuzz run as a value, and its three renderings (terminal,
Markdown, JSON): counts per verdict and per anomaly, and each distinct failure
with its count, its shrunk size and the file that replays it."""

from __future__ import annotations

import json
from typing import Any

import attrs

from kafka_conformance.authorizer.targets import replay_command

__all__ = ["FailureGroup", "FuzzSummary", "to_json", "to_markdown", "to_text"]


@attrs.frozen
class FailureGroup:
    signature: str
    property: str
    verdict: str
    anomaly: str
    count: int
    first_case: str
    detail: str
    size_before: int
    size_after: int
    saved_to: str | None
    """The replayable case file; None when the failure did not show again on the driver."""


@attrs.frozen
class FuzzSummary:
    suite: str
    target: str
    seed: int
    cases: int
    shards: int
    executor: str
    verdicts: tuple[tuple[str, int], ...]
    anomalies: tuple[tuple[str, int], ...]
    failures: tuple[FailureGroup, ...]
    resumed_shards: int
    startup_s: float
    run_s: float
    total_s: float
    kafka_bugs: str | None = None
    """The authorizer suite's judging choice for Kafka's own bugs; None: as released."""

    @property
    def cases_per_s(self) -> float:
        return self.cases / self.run_s if self.run_s > 0 else 0.0

    @property
    def exit_code(self) -> int:
        bad = dict(self.verdicts)
        return 1 if bad.get("fail", 0) or bad.get("error", 0) else 0


def to_json(s: FuzzSummary) -> str:
    body: dict[str, Any] = attrs.asdict(s)
    body["verdicts"] = dict(s.verdicts)
    body["anomalies"] = dict(s.anomalies)
    body["cases_per_s"] = round(s.cases_per_s, 1)
    body["conforms"] = s.exit_code == 0
    return json.dumps(body, indent=2, ensure_ascii=False)


def _head(s: FuzzSummary) -> list[str]:
    counts = ", ".join(f"{n} {v}" for v, n in s.verdicts)
    resumed = f" ({s.resumed_shards} shards from an earlier run)" if s.resumed_shards else ""
    bugs = ", held to the documentation where Kafka has a bug of its own" if s.kafka_bugs == "documented" else ""
    return [
        f"{s.suite} suite against {s.target}{bugs}: {s.cases} cases in {s.shards} shards, seed {s.seed}, {s.executor}{resumed}",
        f"verdicts: {counts}; every case accounted for",
        f"time: start-up {s.startup_s:.1f} s, cases {s.run_s:.1f} s ({s.cases_per_s:.0f} cases/s), total {s.total_s:.1f} s",
    ]


def to_text(s: FuzzSummary) -> str:
    lines = _head(s)
    if s.anomalies:
        lines.append("anomalies: " + ", ".join(f"{a} x{n}" for a, n in s.anomalies))
    for f in s.failures:
        lines.append(f"{f.verdict.upper():5} {f.property} / {f.anomaly}: {f.count} cases, e.g. {f.first_case}")
        lines.append(f"      {f.detail}")
        where = replay_command(f.saved_to, s.target) or "not reproduced on the driver (flaky target?)"
        lines.append(f"      shrunk from {f.size_before} to {f.size_after} parts; replay: {where}")
    lines.append("CONFORMS" if s.exit_code == 0 else f"DIVERGES: {len(s.failures)} distinct failures")
    return "\n".join(lines)


def to_markdown(s: FuzzSummary) -> str:
    lines = [f"# Fuzz run: {s.suite} against `{s.target}`", "", *(f"- {x}" for x in _head(s)), ""]
    if s.anomalies:
        lines += ["| anomaly | cases |", "|---|---|", *(f"| {a} | {n} |" for a, n in s.anomalies), ""]
    if s.failures:
        lines += ["| verdict | property | anomaly | cases | shrunk | replay |", "|---|---|---|---|---|---|"]
        for f in s.failures:
            lines.append(f"| {f.verdict} | {f.property} | {f.anomaly} | {f.count} | {f.size_before} → {f.size_after} "
                         f"| `{f.saved_to or 'not reproduced'}` |")
        lines.append("")
        lines += [f"- `{f.signature}`: {f.detail}".replace("|", "\\|") for f in s.failures]
    else:
        lines.append("No failure: the target conforms on every case.")
    return "\n".join(lines) + "\n"
