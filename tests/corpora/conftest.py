"""Shared fixtures of the corpora tests: the test targets importable as
``python:corpus_targets:...``, and small corpus specs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _corpus_targets_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE))


@pytest.fixture(autouse=True)
def _close_targets() -> object:
    yield
    if "kafka_conformance.targets" in sys.modules:
        sys.modules["kafka_conformance.targets"].close_targets()
