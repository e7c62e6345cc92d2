"""The kit's Node.js runners for a test: installed on first use, or the test skipped saying why and how to fix
it (no Node.js or npm here, or npm could not install the locked packages, e.g. no registry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.node.install import NodeInstallError, NodeUnavailable, install


def need_node_runners() -> Path:
    try:
        return install()
    except (NodeUnavailable, NodeInstallError) as exc:
        pytest.skip(f"{exc} (then: kafka-conformance fetch kafkajs platformatic)")
