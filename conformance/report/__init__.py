"""The conformance report: every suite over every target that can run, one table people read.

The suites return their own report values; this package turns them into one
:class:`~kafka_conformance.report.model.Report` (rows are Kafka's promises,
columns are implementations at a release, cells say holds / diverges / could not
run / not applicable) without re-running any logic, and writes it in four
formats, one writer each: ``report.json``, ``index.html``, ``summary.md`` and
``junit.xml``.  A report can be compared with an earlier one (``baseline``).
``run_report`` is the callable; ``kafka-conformance report`` only wraps it.
"""

from __future__ import annotations
