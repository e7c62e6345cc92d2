"""Fixtures for the JVM tests: the real Kafka 4.3.0 classes through py4j.

Every test here skips, with the reason, when java/javac, py4j or the cached
kafka-clients jar is missing (fetch it with
``kafka-conformance fetch kafka-clients``; ``tox -e jvm`` does).  The
JVM is started once per test session and stopped at its end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka_conformance.adapters.jvm.session import (
    JvmSession,
    close_shared_sessions,
    shared_session,
    unavailable_reason,
)


@pytest.fixture(scope="session")
def jvm() -> Iterator[JvmSession]:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"JVM adapter unavailable: {reason}")
    session = shared_session()
    yield session
    close_shared_sessions()
