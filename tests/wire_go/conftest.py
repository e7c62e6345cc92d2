"""The Go ecosystem under the kit (``adapters/go``): kfake, franz-go and sarama.

The tests that need the Go programs build them on first use (the ``go`` tox
environment builds them first, with ``kafka-conformance fetch kfake franz-go
sarama``) and skip, with the reason, on a machine without a Go toolchain; the
bad-input tests simulate that machine themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.go.build import GoUnavailable, build_programs


@pytest.fixture(scope="session")
def go_programs() -> dict[str, Path]:
    try:
        return build_programs()
    except GoUnavailable as exc:
        pytest.skip(str(exc))
