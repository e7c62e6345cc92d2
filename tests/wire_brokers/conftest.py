"""Real brokers shared by the wire tests: each started once per session on 127.0.0.1, stopped at the end.

A broker whose wheel is missing skips the tests that need it (with the reason
from ``available()``), so the directory runs anywhere; in the ``wire`` tox env
all three are installed.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka_conformance.adapters.brokers.launchers import RunningBroker, available, start_broker

REAL_BROKERS = ("tansu", "noida", "rdkafka-mock")


def _start(name: str) -> Iterator[RunningBroker]:
    status = available()[name]
    if not status.ok:
        pytest.skip(f"{name} cannot run here: {status.reason}")
    with start_broker(name) as broker:
        yield broker


@pytest.fixture(scope="session")
def tansu() -> Iterator[RunningBroker]:
    yield from _start("tansu")


@pytest.fixture(scope="session")
def noida() -> Iterator[RunningBroker]:
    yield from _start("noida")


@pytest.fixture(scope="session")
def rdkafka_mock() -> Iterator[RunningBroker]:
    yield from _start("rdkafka-mock")


@pytest.fixture(scope="session", params=REAL_BROKERS)
def real_broker(request: pytest.FixtureRequest) -> RunningBroker:
    fixture = request.param.replace("-", "_")
    broker: RunningBroker = request.getfixturevalue(fixture)
    return broker
