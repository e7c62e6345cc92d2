"""A :class:`~kafka_conformance.transactions.clients.TxnClientReport` as one column of the
transaction-clients suite.

Rows are the transaction client rows (``conformance/transactions/client_rows.py``).  A row holds
when the transaction checker finds no anomaly in what read_committed and read_uncommitted read
back; otherwise the cell diverges with the first anomaly as its name, the transactions' outcomes
and the held request's late answer as its case, and the command that runs the row again.
"""

from __future__ import annotations

import shlex

from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Row
from kafka_conformance.transactions.client_rows import CLIENT_TXN_ROWS
from kafka_conformance.transactions.clients import ClientRowResult, TxnClientReport

__all__ = ["transaction_client_column", "transaction_client_rows"]


def transaction_client_rows() -> tuple[Row, ...]:
    return tuple(Row(r.name, r.question) for r in CLIENT_TXN_ROWS)


def transaction_client_column(report: TxnClientReport, *, release: str) -> Column:
    """``release`` is the broker's Kafka release (or what it claims), for the column's identity."""
    cells = (*(_cell(report, r) for r in report.rows),
             *(Cell(name, CellStatus.NOT_APPLICABLE, 0, reason="the row kills a broker: it runs on kafka-cluster:VERSION")
               for name in report.left_out))
    return Column(suite="transaction-clients", target=f"{report.client} on {report.broker}", release=release,
                  description=f"the {report.client} client as a transactional producer, behind the fault proxy",
                  duration_s=report.duration_s, cells=cells)


def _cell(report: TxnClientReport, row: ClientRowResult) -> Cell:
    replay = (f"kafka-conformance check transactions --client {shlex.quote(report.client)} "
              f"--broker {shlex.quote(report.broker)} --row {shlex.quote(row.name)}")
    late = tuple(f"held request sent late: {late}" for late in row.late)
    notes = (*late, *row.notes)
    if row.error and not row.anomalies:
        return Cell(row.name, CellStatus.COULD_NOT_RUN, 1, reason=f"the row did not finish: {row.error}", notes=notes)
    if row.holds:
        return Cell(row.name, CellStatus.HOLDS, 1, notes=notes)
    divergence = Divergence(
        anomaly=row.anomalies[0],
        summary=row.question,
        case=(*row.outcomes, *late),
        expected="no anomaly: read_committed reads every committed write and nothing else, and the client "
                 "commits only transactions whose sends all succeeded",
        actual=", ".join(row.anomalies),
        explanation="; ".join(row.explanations),
        replay=replay,
    )
    return Cell(row.name, CellStatus.DIVERGES, 1, divergences=(divergence,), notes=row.notes)
