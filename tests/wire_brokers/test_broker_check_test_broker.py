"""check_broker against the kit's Python test broker: it conforms to its own release and diverges from another.

The test broker answers from the reference model, so a clean run is the check's
false-positive guard; holding it to a different release must make the same
check fail with the anomaly that names the version difference.
"""

from __future__ import annotations

import importlib.util

import pytest

from kafka_conformance.broker.check import check_broker
from kafka_conformance.broker.coverage import coverage_cases
from kafka_conformance.options import Options

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("kafka_conformance.adapters.brokers.testbroker") is None, reason="the Python test broker is not in this build"
)


def test_test_broker_conforms_to_its_own_release() -> None:
    report = check_broker("test-broker:4.3.0", Options(kafka_version="4.3.0", seed=11, max_examples=40), max_rounds=1)
    assert report.verdict == "conforms", [f.divergence.describe() for f in report.findings]
    assert all(p.status == "conforms" for p in report.probes)
    assert report.examples == 40 + len(coverage_cases())  # the random cases, after the coverage phase's fixed ones


def test_release_difference_is_found_and_named() -> None:
    """A 4.3 broker accepts a non-zero first sequence from a producer with no state; 2.4 answered UNKNOWN_PRODUCER_ID."""
    report = check_broker("test-broker:4.3.0", Options(kafka_version="2.4.0", seed=11, max_examples=60), max_rounds=1)
    table = {p.name: p.anomalies for p in report.probes}
    assert table["fresh-producer-nonzero"] == ("unknown-producer-accepted",)
    assert [f.anomaly for f in report.findings] == ["unknown-producer-accepted"]
    assert len(report.findings[0].case.batches) == 1
    # which Kafka releases agree: the broker answers as 2.5.0 to 4.4.0 do, not as the claimed 2.4.0
    for agreement in (report.findings[0].agreement, next(p.agreement for p in report.probes if p.name == "fresh-producer-nonzero")):
        assert agreement is not None
        assert "4.3.0" in agreement.alike and "2.5.0" in agreement.alike and "2.4.0" in agreement.expected
        assert "2.4.0" not in agreement.alike
