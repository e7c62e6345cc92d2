"""A transactions suite's :class:`~kafka_conformance.transactions.check.TxnReport` as one column.

Rows are the transaction table (``commit``, ``abort``, ``late-produce-into-next``, ...: each a script the
kit runs on the broker and on the model of the release the broker claims) and the generated
scripts.  A row holds when every answer and every read is the release's; an anomaly the release
itself shows on that row (the transaction checker's, found in the model's run too) is a note,
not a divergence, as in ``check transactions``.  The suite saves no case file: a table row is
replayed by naming it (``check transactions --row NAME``), and a generated script's steps are
the case shown.
"""

from __future__ import annotations

import shlex

from kafka_conformance.reference.transactions.script import TxnScript
from kafka_conformance.reference.transactions.table import TXN_ROWS
from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Row
from kafka_conformance.transactions.check import RowResult, TxnReport, step_text

__all__ = ["GENERATED_SCRIPTS", "transactions_column", "transactions_rows"]

GENERATED_SCRIPTS = "generated-scripts"
DIFFERS = "answers-differ"
"""The anomaly of a row whose answers or reads are not the release's (the suite compares runs;
what the difference means is said by the differences themselves)."""


def transactions_rows() -> tuple[Row, ...]:
    rows = [Row(r.name, r.question) for r in TXN_ROWS]
    rows.append(Row(GENERATED_SCRIPTS, "generated transaction scripts answer and read as the release does"))
    return tuple(rows)


def transactions_column(report: TxnReport, *, release: str, replay_options: str = "",
                        description: str = "") -> Column:
    """``release`` is the Kafka release the broker was held to; ``replay_options`` what a
    ``check transactions`` command needs beside ``--broker`` to run a row again (``--kafka-version``)."""
    scripts = {r.name: r.script for r in TXN_ROWS}
    cells = [_cell(r.name, r, scripts.get(r.name), _replay(report.target, r.name, replay_options)) for r in report.rows]
    generated = report.generated
    if generated is None:
        cells.append(Cell(GENERATED_SCRIPTS, CellStatus.NOT_RUN, 0,
                          reason="no generated scripts were asked for (check transactions --max-examples N runs them)"))
    elif generated.failure is None:
        cells.append(Cell(GENERATED_SCRIPTS, CellStatus.HOLDS, generated.examples))
    else:
        cell = _cell(GENERATED_SCRIPTS, generated.failure, generated.script, None)
        notes = ("the broker answered the failing script differently when it was run again",) if generated.flaky else ()
        cells.append(Cell(GENERATED_SCRIPTS, cell.status, generated.examples, cell.reason, cell.divergences,
                          cell.notes + notes))
    return Column(suite="transactions", target=report.target, release=release,
                  description=description or report.profile, seed=generated.seed if generated is not None else None,
                  duration_s=report.duration_s, cells=tuple(cells))


def _cell(row: str, result: RowResult, script: TxnScript | None, replay: str | None) -> Cell:
    shared = tuple(f"{a}: Kafka's release shows it too on this row" for a in result.kafka_anomalies)
    if result.error:
        return Cell(row, CellStatus.COULD_NOT_RUN, 1, reason=f"the run did not finish: {result.error}", notes=shared)
    if result.agrees:
        return Cell(row, CellStatus.HOLDS, 1, notes=shared)
    steps = tuple(f"{n}. {type(s).__name__.lower()} {step_text(s)}" for n, s in enumerate(script.steps)) if script else ()
    extra = [a for a in result.anomalies if a not in result.kafka_anomalies]
    divergence = Divergence(
        anomaly=extra[0] if extra else DIFFERS,
        summary=result.question,
        case=(*steps, *(f"differs: {d}" for d in result.differences)),
        expected=_side(result.differences[0], "Kafka answers ", "Kafka "),
        actual=_side(result.differences[0], "broker answered ", "broker "),
        explanation="; ".join(result.explanations) or "the release's model answers the same script otherwise",
        replay=replay,
    )
    return Cell(row, CellStatus.DIVERGES, 1, divergences=(divergence,), notes=shared)


def _side(difference: str, *markers: str) -> str:
    """One side of a difference as ``compare_runs`` words it ("...: broker answered X, Kafka
    answers Y (why)", or "partition P FIELD: broker X, Kafka Y")."""
    for marker in markers:
        at = difference.find(marker)
        if at >= 0:
            text = difference[at + len(marker):]
            return text.split(", Kafka ", 1)[0] if marker.startswith("broker") else text
    return difference


def _replay(broker: str, row: str, options: str) -> str:
    command = f"kafka-conformance check transactions --broker {shlex.quote(broker)} --row {shlex.quote(row)}"
    return f"{command} {options}".rstrip()
