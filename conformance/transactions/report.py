"""The transactions suite's report: one line per row as text, and the same values as JSON."""

from __future__ import annotations

import json

import attrs

from kafka_conformance.transactions.check import RowResult, TxnReport

__all__ = ["render_txn_json", "render_txn_text", "row_line"]


def row_line(row: RowResult) -> str:
    mark = "agrees " if row.agrees else "DIFFERS"
    seen = ", ".join(row.anomalies) or "no anomaly"
    shared = " (as Kafka does)" if row.anomalies and row.anomalies == row.kafka_anomalies else ""
    return f"  {mark} {row.name:<26} {seen}{shared}"


def render_txn_text(report: TxnReport) -> str:
    lines = [f"transactions: {report.target} held to {report.profile}", ""]
    for row in report.rows:
        lines.append(row_line(row))
        for difference in row.differences:
            lines.append(f"      {difference}")
        if row.error:
            lines.append(f"      the run did not finish: {row.error}")
        for explanation in row.explanations:
            lines.append(f"      {explanation}")
    agree = sum(r.agrees for r in report.rows)
    lines += ["", f"{agree} of {len(report.rows)} rows answer exactly as {report.profile.split(' ')[0]} does; "
              + ("the broker conforms." if report.conforms else "the broker DIVERGES."), ""]
    return "\n".join(lines)


def render_txn_json(report: TxnReport) -> str:
    body = {"suite": "transactions", "target": report.target, "profile": report.profile, "conforms": report.conforms,
            "rows": [{**attrs.asdict(r), "agrees": r.agrees} for r in report.rows]}
    return json.dumps(body, indent=2, sort_keys=True) + "\n"
