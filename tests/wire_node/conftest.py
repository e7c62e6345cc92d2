"""The Node.js producers under the kit (``adapters/node``): KafkaJS and @platformatic/kafka.

The tests install the runners on first use (the ``node`` tox environment installs them first,
with ``kafka-conformance fetch kafkajs platformatic``) and skip, with the reason, on a machine
without Node.js and npm; the bad-input tests (tests/unit/test_node_producers.py) simulate that
machine themselves.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from node_runners import need_node_runners


@pytest.fixture(scope="session")
def node_runners() -> Path:
    return need_node_runners()
