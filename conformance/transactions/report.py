"""The transactions suite's report: one line per row as text, and the same values as JSON, for the
broker rows and for the client rows."""

from __future__ import annotations

import json

import attrs

from kafka_conformance.reference.transactions.script import script_to_json
from kafka_conformance.terminal.verdict import seed_text, verdict_line
from kafka_conformance.transactions.check import RowResult, TxnReport, step_text
from kafka_conformance.transactions.clients import TxnClientReport

__all__ = ["render_client_json", "render_client_text", "render_txn_json", "render_txn_text", "row_line"]


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
    lines += ["", f"{agree} of {len(report.rows)} rows answer exactly as {report.profile.split(' ')[0]} does"]
    generated = report.generated
    if generated is not None:
        if generated.failure is None:
            found = "agree"
        elif generated.failure.error:
            found = "stopped: the broker could not finish the script below"
        else:
            found = f"found a difference, shrunk in {generated.shrink_runs} more runs to the script below"
        lines[-1] += f"; {generated.examples} generated scripts ({seed_text(generated.seed)}) {found}"
        if generated.failure is not None and generated.script is not None:
            lines.append("")
            lines.append("  generated script" + (" (the broker answered it differently when run again)" if generated.flaky else "")
                         + ":")
            lines += [f"    {n}. {type(step).__name__.lower()} {step_text(step)}".rstrip()
                      for n, step in enumerate(generated.script.steps)]
            lines += [f"      {d}" for d in generated.failure.differences]
            if generated.failure.error:
                lines.append(f"      the run did not finish: {generated.failure.error}")
    rows, drawn = len(report.rows), generated.examples if generated is not None else 0
    detail = f"{rows} row{'s' if rows != 1 else ''} and {drawn} generated script{'s' if drawn != 1 else ''}"
    lines += ["", verdict_line(report.verdict, target=f"{report.target}, {report.profile}",
                               seed=generated.seed if generated is not None else None, examples=rows + drawn,
                               seconds=report.duration_s, detail=detail), ""]
    return "\n".join(lines)



def render_txn_json(report: TxnReport) -> str:
    body = {"suite": "transactions", "target": report.target, "profile": report.profile, "conforms": report.conforms,
            "verdict": report.verdict, "duration_s": round(report.duration_s, 3),
            "rows": [{**attrs.asdict(r), "agrees": r.agrees} for r in report.rows]}
    g = report.generated
    if g is not None:
        body["generated"] = {"examples": g.examples, "seed": g.seed, "flaky": g.flaky, "shrink_runs": g.shrink_runs,
                             "failure": None if g.failure is None else {**attrs.asdict(g.failure), "agrees": False},
                             "script": None if g.script is None else script_to_json(g.script)}
    return json.dumps(body, indent=2, sort_keys=True) + "\n"


def render_client_text(report: TxnClientReport) -> str:
    """Each client row: whether it holds, how each transaction ended, what a held request met when it
    arrived late, and the anomalies the read-back shows."""
    lines = [f"transactions: the {report.client} client on {report.broker}", ""]
    for row in report.rows:
        mark = "holds  " if row.holds else ("ERROR  " if row.error and not row.anomalies else "ANOMALY")
        lines.append(f"  {mark} {row.name:<26} {', '.join(row.anomalies) or 'no anomaly'}")
        if row.outcomes:
            lines.append(f"      {'; '.join(row.outcomes)}")
        lines += [f"      held request sent late: {late}" for late in row.late]
        lines += [f"      {e}" for e in row.explanations]
        lines += [f"      note: {n}" for n in row.notes]
        if row.error:
            lines.append(f"      the row did not finish: {row.error}")
    holding = sum(r.holds for r in report.rows)
    if report.left_out:
        lines += ["", f"  left out: {', '.join(report.left_out)} (kill{'s' if len(report.left_out) == 1 else ''} a broker: "
                      "run on kafka-cluster:VERSION)"]
    lines += ["", f"{holding} of {len(report.rows)} rows hold",
              verdict_line(report.verdict, target=f"{report.client} client on {report.broker}", seed=None,
                           examples=len(report.rows), seconds=report.duration_s,
                           detail=f"{len(report.rows)} client row{'s' if len(report.rows) != 1 else ''}"), ""]
    return "\n".join(lines)


def render_client_json(report: TxnClientReport) -> str:
    body = {"suite": "transactions", "client": report.client, "target": report.broker, "conforms": report.conforms,
            "verdict": report.verdict, "duration_s": round(report.duration_s, 3),
            "rows": [{**attrs.asdict(r), "holds": r.holds} for r in report.rows], "left_out": list(report.left_out)}
    return json.dumps(body, indent=2, sort_keys=True) + "\n"
