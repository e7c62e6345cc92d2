"""``junit.xml``: the report for CI systems.

One ``<testsuite>`` per column (a target at a release), one ``<testcase>`` per
row.  A divergence is a ``<failure type=ANOMALY>`` carrying the minimal case and
the replay command; a cell that could not run, or does not apply, is
``<skipped>`` with why, so the CI's count of failures is the report's count of
divergences, as the exit code is.
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from kafka_conformance.report.model import Cell, CellStatus, Column, Report

__all__ = ["to_junit_xml"]


def _failure_text(cell: Cell) -> str:
    lines: list[str] = []
    for d in cell.divergences:
        lines.append(f"[{d.anomaly}] {d.summary}".rstrip())
        lines += [f"  {line}" for line in d.case]
        lines.append(f"  expected: {d.expected}")
        lines.append(f"  actual:   {d.actual}")
        if d.explanation:
            lines.append(f"  why: {d.explanation}")
        if d.replay:
            lines.append(f"  reproduce: {d.replay}")
    return "\n".join(lines)


def _suite(column: Column, parent: ET.Element) -> None:
    failures = 0 if column.demonstration else sum(c.status is CellStatus.DIVERGES for c in column.cells)
    suite = ET.SubElement(parent, "testsuite", name=column.id, tests=str(len(column.cells)),
                          failures=str(failures), errors="0", skipped=str(len(column.cells) - failures - sum(
                              c.status is CellStatus.HOLDS for c in column.cells)),
                          time=f"{column.duration_s:.3f}")
    props = ET.SubElement(suite, "properties")
    for name, value in (("suite", column.suite), ("target", column.target), ("release", column.release),
                        ("seed", "random" if column.seed is None else str(column.seed))):
        ET.SubElement(props, "property", name=name, value=value)
    for cell in column.cells:
        case = ET.SubElement(suite, "testcase", classname=f"kafka_conformance.report.{column.suite}", name=cell.row)
        if cell.status is CellStatus.DIVERGES and column.demonstration:
            names = ",".join(dict.fromkeys(d.anomaly for d in cell.divergences))
            ET.SubElement(case, "skipped", message=f"demonstration: the kit catching a planted bug ({names})")
        elif cell.status is CellStatus.DIVERGES:
            names = ",".join(dict.fromkeys(d.anomaly for d in cell.divergences))
            ET.SubElement(case, "failure", type=names, message=names).text = _failure_text(cell)
        elif cell.status is CellStatus.COULD_NOT_RUN:
            ET.SubElement(case, "skipped", message=f"could not run: {cell.reason}")
        elif cell.status is CellStatus.NOT_APPLICABLE:
            ET.SubElement(case, "skipped", message=f"not applicable: {cell.reason}")
        elif cell.status is CellStatus.NOT_RUN:
            ET.SubElement(case, "skipped", message=f"not run: {cell.reason}")


def to_junit_xml(report: Report) -> str:
    root = ET.Element("testsuites", name="kafka-conformance report", time=f"{report.duration_s:.3f}")
    for column in report.columns():
        _suite(column, root)
    root.set("tests", str(len(report.cells())))
    root.set("failures", str(sum(cell.status is CellStatus.DIVERGES for _, cell in report.judged())))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
