"""The Node.js producers under the kit (``adapters/node``): KafkaJS and @platformatic/kafka.

The tests install the runners on first use (the ``node`` tox environment installs them first,
with ``kafka-conformance fetch kafkajs platformatic``) and skip, with the reason, on a machine
without Node.js and npm; the bad-input tests (tests/unit/test_node_producers.py) simulate that
machine themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.node.install import NodeUnavailable, install


@pytest.fixture(scope="session")
def node_runners() -> Path:
    try:
        return install()
    except NodeUnavailable as exc:
        pytest.skip(f"{exc} (then: kafka-conformance fetch kafkajs platformatic)")
