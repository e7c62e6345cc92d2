"""Shared fixtures of the corpora tests: the test targets importable as
``python:corpus_targets:...``, and small corpus specs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _needs_pyarrow(request: pytest.FixtureRequest) -> None:
    """Corpora are Parquet: without pyarrow (the ``spark`` extra) only the regressions replay."""
    if importlib.util.find_spec("pyarrow") is None and request.node.path.name != "test_regressions.py":
        pytest.skip("needs pyarrow: pip install 'kafka-conformance[spark]'")


@pytest.fixture(autouse=True)
def _corpus_targets_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))


@pytest.fixture(autouse=True)
def _close_targets() -> object:
    yield
    if "kafka_conformance.authorizer.targets" in sys.modules:
        sys.modules["kafka_conformance.authorizer.targets"].close_targets()
