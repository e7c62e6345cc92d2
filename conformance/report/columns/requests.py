"""A request-rules run (:class:`~kafka_conformance.requests.check.RequestsReport`) as one column.

Rows are the named ACL scenarios (each: the admin creates its ACLs, then the user sends every
producer and transaction request) and the generated scenarios.  A named scenario holds when no
request of it was answered otherwise than the reference of the release; the generated scenarios
hold when none of them found a new divergence.  The report page does not run this suite (it
needs a broker with SASL logins); the column is what ``check requests --junit-xml`` writes, through
the report's one JUnit writer.
"""

from __future__ import annotations

from kafka_conformance.report.model import Cell, CellStatus, Column, Divergence, Row
from kafka_conformance.requests.check import Divergence as RequestDivergence
from kafka_conformance.requests.check import RequestsReport
from kafka_conformance.requests.scenarios import NAMED

__all__ = ["GENERATED_SCENARIOS", "requests_column", "requests_rows"]

GENERATED_SCENARIOS = "generated"
"""The name :class:`~kafka_conformance.requests.scenarios.Scenario` gives a drawn scenario."""


def requests_rows() -> tuple[Row, ...]:
    rows = [Row(s.name, s.describe()) for s in NAMED]
    rows.append(Row(GENERATED_SCENARIOS, "generated ACL scenarios: every request answered as the release's rules say"))
    return tuple(rows)


def requests_column(report: RequestsReport) -> Column:
    cells = []
    for row in requests_rows():
        found = tuple(_divergence(d) for d in report.divergences if d.scenario == row.id)
        generated = row.id == GENERATED_SCENARIOS
        tried = max(0, report.scenarios - len(NAMED)) if generated else 1
        if found:
            cells.append(Cell(row.id, CellStatus.DIVERGES, tried, divergences=found))
        elif generated and tried == 0:
            cells.append(Cell(row.id, CellStatus.NOT_RUN, 0, reason="no generated scenarios were asked for "
                                                                    "(--max-examples N asks for them)"))
        else:
            cells.append(Cell(row.id, CellStatus.HOLDS, tried))
    return Column(suite="requests", target=report.target, release=report.kafka_version,
                  description=f"{report.broker}, {report.flavour} authorizer", seed=report.seed,
                  duration_s=report.duration_s, cells=tuple(cells))


def _divergence(d: RequestDivergence) -> Divergence:
    topic = f" on topic {d.topic!r}" if d.topic else ""
    return Divergence(anomaly=d.anomaly, summary=f"{d.request}{topic}", case=(*d.acls, f"request: {d.request}{topic}"),
                      expected=d.expected, actual=d.actual, explanation=d.why)
