"""The broker release sweep, outside the gate (``tox -e kafka-brokers``): Apache Kafka's own
broker of every release the kit has pinned, from 1.0.1 (ZooKeeper mode) to the newest KRaft
release, each held to the reference broker of the same release by the probe table and 100
generated cases.  The gate runs 1.0.1 and 3.9.1 (``tests/wire_brokers/test_kafka_broker.py``);
``docs/broker-conformance.md`` shows the table this sweep produced."""

from __future__ import annotations

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason, pinned_broker_releases
from kafka_conformance.broker.check import check_broker
from kafka_conformance.broker.report import render_broker_text
from kafka_conformance.options import Options


@pytest.mark.parametrize("release", [str(v) for v in pinned_broker_releases()])
def test_real_kafka_of_every_pinned_release_agrees_with_the_reference_broker(release: str) -> None:
    reason = kafka_broker_reason(release)
    if reason is not None:
        pytest.skip(f"kafka:{release}: {reason}")
    report = check_broker(f"kafka:{release}", Options(kafka_version=release, seed=1, max_examples=100), table=True)
    assert report.exit_code == 0, render_broker_text(report)
