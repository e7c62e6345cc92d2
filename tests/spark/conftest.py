"""One local Spark session for the whole test session (start-up costs ~8 s).

``local[2]`` (run with task retries, see ``spark_job.with_retries``), bound to
127.0.0.1, no UI.  The test targets of ``tests/corpora/corpus_targets.py`` are
shipped to the Python workers with ``addPyFile``.  Tests marked
``spark_cluster`` start a real standalone cluster and run only when
``KAFKA_CONFORMANCE_SPARK_CLUSTER=1`` (their own tox environment).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TARGETS = Path(__file__).resolve().parents[1] / "corpora" / "corpus_targets.py"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "spark_cluster: starts a standalone Spark cluster (tox -e spark-cluster)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("KAFKA_CONFORMANCE_SPARK_CLUSTER") == "1":
        return
    skip = pytest.mark.skip(reason="needs KAFKA_CONFORMANCE_SPARK_CLUSTER=1 (tox -e spark-cluster)")
    for item in items:
        if "spark_cluster" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _corpus_targets_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TARGETS.parent))


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark")
    from kafka_conformance.corpora.spark_job import spark_session

    session = spark_session("local[2]", app_name="kafka-conformance tests")
    session.sparkContext.addPyFile(str(TARGETS))
    try:
        yield session
    finally:
        session.stop()
        if "kafka_conformance.authorizer.targets" in sys.modules:
            sys.modules["kafka_conformance.authorizer.targets"].close_targets()
