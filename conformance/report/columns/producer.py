"""A producer suite's :class:`~kafka_conformance.producer.report.ProducerReport` as one column.

The column is one client against one broker (``kafka-python@test-broker``; the
model engine is ``model``).  Rows are the generated failure traces and every
row of the trace table (``#5 ...``), whose names are those of ``docs/spec/idempotence.md`` §5.2.  The
producer suite judges the *client*: a violation attributed to the client
diverges; one attributed to the broker diverges only when the trace table does
not expect it of Kafka's own broker (row 6 pins KAFKA-15591, which the reference
broker shows on purpose); one KIP-185 allows is noted, not failed.
"""

from __future__ import annotations

from kafka_conformance.authorizer.targets import replay_command
from kafka_conformance.producer.render import describe_trace
from kafka_conformance.producer.report import ProducerReport, RunResult, RunStatus
from kafka_conformance.producer.trace_table import TRACE_TABLE
from kafka_conformance.reference.delivery.verdicts import DELIVERY_ANOMALIES, Anomaly, Attribution
from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Row

__all__ = ["GENERATED", "producer_column", "producer_rows"]

GENERATED = "generated-traces"


def _row_id(number: str) -> str:
    return f"table-{number}"


def producer_rows() -> tuple[Row, ...]:
    rows = [Row(GENERATED, "generated failure traces: every delivery guarantee promised under the trace holds")]
    rows += [Row(_row_id(e.number), f"#{e.number} {e.name} ({', '.join(e.properties)})") for e in TRACE_TABLE]
    return tuple(rows)


def column_target(client: str, broker: str) -> str:
    return client if client == broker or broker == "model" else f"{client}@{broker}"


def producer_column(report: ProducerReport, *, description: str = "", table_left_out: str = "") -> Column:
    """``table_left_out`` says why the trace table did not run (a profile that runs it on the model
    engine only): its rows are then not run, with that reason, rather than missing."""
    cells = [_generated(report)]
    cells += [_table_cell(r) for r in report.table]
    if table_left_out and not report.table:
        cells += [Cell(r.id, CellStatus.NOT_RUN, reason=table_left_out) for r in producer_rows() if r.id != GENERATED]
    return Column(
        suite="producer",
        target=column_target(report.client, report.broker),
        release=report.kafka_version,
        description=description,
        seed=report.seed,
        duration_s=report.duration_s,
        cells=tuple(cells),
    )


def _generated(report: ProducerReport) -> Cell:
    if report.counterexample is not None:
        found = _divergences(report.counterexample, report.counterexample.client_anomalies)
        return Cell(GENERATED, CellStatus.DIVERGES, report.examples, divergences=found)
    if report.examples > 0 and report.refused >= report.examples:
        return Cell(GENERATED, CellStatus.NOT_APPLICABLE, 0,
                    reason=f"every generated trace was refused: {report.refusal or 'the client cannot express it'}")
    if report.errors:
        return Cell(GENERATED, CellStatus.COULD_NOT_RUN, report.examples,
                    reason=f"{len(report.errors)} run(s) crashed, the first: {report.errors[0]}")
    notes = (f"{report.refused} trace(s) could not run: {report.refusal}",) if report.refused else ()
    return Cell(GENERATED, CellStatus.HOLDS, report.examples - report.refused, notes=notes)


def _expected_of_broker(number: str | None) -> set[str]:
    """The broker-attributed anomalies the trace table expects of Kafka's own broker on this row."""
    entry = next((e for e in TRACE_TABLE if e.number == number), None)
    return set() if entry is None else {name for name, who in entry.anomalies if who is Attribution.BROKER}


def _table_cell(result: RunResult) -> Cell:
    row = _row_id(result.number) if result.number is not None else result.name
    notes = [*result.notes]
    if result.status is RunStatus.CLIENT:
        return Cell(row, CellStatus.DIVERGES, 1, divergences=_divergences(result, result.client_anomalies), notes=tuple(notes))
    if result.status is RunStatus.BROKER:
        broker = tuple(a for a in result.anomalies if a.attribution is Attribution.BROKER)
        unexpected = tuple(a for a in broker if a.name not in _expected_of_broker(result.number))
        if unexpected:
            return Cell(row, CellStatus.DIVERGES, 1, divergences=_divergences(result, unexpected), notes=tuple(notes))
        names = ", ".join(sorted({a.name for a in broker}))
        notes.append(f"attributed to the broker, as the trace table expects of Kafka's own: {names}")
        return Cell(row, CellStatus.HOLDS, 1, notes=tuple(notes))
    if result.status is RunStatus.OUTSIDE:
        names = ", ".join(sorted({a.name for a in result.anomalies if a.attribution is Attribution.OUTSIDE_GUARANTEE}))
        notes.append(f"outside KIP-185's guarantee under this configuration or fault: {names}" if names else
                     "outside KIP-185's guarantee under this configuration")
        return Cell(row, CellStatus.HOLDS, 1, notes=tuple(notes))
    if result.status is RunStatus.HOLDS:
        return Cell(row, CellStatus.HOLDS, 1, notes=tuple(notes))
    if result.status is RunStatus.REFUSED:
        return Cell(row, CellStatus.NOT_APPLICABLE, 0, reason=result.error or "the client or broker cannot express the trace")
    if result.status is RunStatus.UNKNOWN:
        return Cell(row, CellStatus.COULD_NOT_RUN, 1, notes=tuple(notes),
                    reason="the run ended without a settled outcome (no final log, or sends still pending)")
    return Cell(row, CellStatus.COULD_NOT_RUN, 1, reason=result.error or "the run crashed", notes=tuple(notes))


def _divergences(result: RunResult, anomalies: tuple[Anomaly, ...]) -> tuple[Divergence, ...]:
    case = tuple(describe_trace(result))
    if result.counts:
        case = (*case, "completions: " + ", ".join(f"{k} {v}" for k, v in result.counts))
    out: dict[str, Divergence] = {}
    for a in anomalies:
        if a.name in out:
            continue
        what = DELIVERY_ANOMALIES.get(a.name, (a.prop, ""))[1]
        out[a.name] = Divergence(
            anomaly=a.name,
            summary=f"{what} ({a.prop.value}, attributed to the {a.attribution.value})",
            case=case,
            expected=f"no {a.name}: {a.prop.value} is promised under this trace's configuration",
            actual=a.describe(),
            explanation=a.explanation,
            saved_to=result.saved_to,
            replay=replay_command(result.saved_to),
        )
    return tuple(out.values())
