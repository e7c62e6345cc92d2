"""The broker suite: crafted produce sequences against a broker started once per
run (or per Spark partition), compared with the model; findings saved as broker
case files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import FuzzSpec
from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.suites.broker import BrokerSuite

SUITE = BrokerSuite()
SETTINGS = tuple(sorted(SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed").items()))


def test_cases_are_deterministic_and_round_trip() -> None:
    spec = CorpusSpec("broker", 4, 15, 15, SETTINGS)
    cases = generate_shard(SUITE, spec, 0)
    assert [SUITE.encode(c.payload) for c in cases] == [SUITE.encode(c.payload) for c in generate_shard(SUITE, spec, 0)]
    assert all(SUITE.decode(SUITE.encode(c.payload)) == c.payload for c in cases)
    with pytest.raises(ValueError, match="malformed broker case"):
        SUITE.decode('{"slots": []}')
    with pytest.raises(ValueError, match="no generation mode 'hostile'"):
        SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="hostile")


def test_the_test_broker_conforms(tmp_path: Path) -> None:
    summary = run_campaign(FuzzSpec(str(tmp_path), "test-broker", CorpusSpec("broker", 1, 60, 30, SETTINGS)), master=None)
    assert dict(summary.verdicts) == {"pass": 60}


def test_a_diverging_broker_gives_saved_findings(tmp_path: Path) -> None:
    from kafka_conformance.broker.targets import available

    if not available().get("noida", None) or not available()["noida"].ok:
        pytest.skip("noida-db is not installed")
    summary = run_campaign(FuzzSpec(str(tmp_path), "noida", CorpusSpec("broker", 1, 60, 30, SETTINGS)), master=None)
    assert summary.exit_code == 1 and summary.failures
    for group in summary.failures:
        assert group.saved_to is not None and group.size_after <= group.size_before
        body = json.loads(Path(group.saved_to).read_text())
        assert body["format"] == "kafka-conformance/broker-case" and body["anomaly"] == group.anomaly


def test_an_unknown_broker_target_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="nope"):
        SUITE.open("nope", dict(SETTINGS))
