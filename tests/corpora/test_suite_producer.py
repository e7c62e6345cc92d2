"""The producer suite: traces from check producer's strategy, stored as the trace's
JSON, run on the in-process model; failures grouped, shrunk and saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import FuzzSpec
from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.suites.producer import ProducerChecker, ProducerSuite, parse_producer_target
from kafka_conformance.corpora.suites.registry import get_suite
from kafka_conformance.producer.report import RunResult, RunStatus
from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Property
from kafka_conformance.reference.traces.program import ProducerTrace

SUITE = ProducerSuite()
SETTINGS = tuple(sorted(SUITE.generation_settings(target="model", kafka_version=None, flavour=None, mode="well-formed").items()))


def test_the_producer_suite_is_registered_and_validates_its_settings() -> None:
    assert isinstance(get_suite("producer"), ProducerSuite)
    assert parse_producer_target("kafka-python") == ("kafka-python", "test-broker")
    assert parse_producer_target("model@tansu") == ("model", "tansu")
    with pytest.raises(ValueError, match="no generation mode 'hostile'"):
        SUITE.generation_settings(target="model", kafka_version=None, flavour=None, mode="hostile")
    with pytest.raises(ValueError, match="--flavour is an authorizer setting"):
        SUITE.generation_settings(target="model", kafka_version=None, flavour="acl", mode="well-formed")
    with pytest.raises(ValueError, match="producer target 'no-such-client'"):
        SUITE.open("no-such-client", {"kafka_version": "4.3.0", "wire": "true"})


def test_traces_are_deterministic_and_round_trip_through_json() -> None:
    spec = CorpusSpec("producer", 3, 20, 20, SETTINGS)
    first, again = generate_shard(SUITE, spec, 0), generate_shard(SUITE, spec, 0)
    assert [SUITE.encode(c.payload) for c in first] == [SUITE.encode(c.payload) for c in again]
    assert all(isinstance(c.payload, ProducerTrace) and c.property == "delivery" for c in first)
    assert all(SUITE.decode(SUITE.encode(c.payload)) == c.payload for c in first)
    with pytest.raises(ValueError, match="malformed producer trace"):
        SUITE.decode('{"format": 0}')


def test_the_model_passes_every_trace(tmp_path: Path) -> None:
    spec = FuzzSpec(str(tmp_path), "model", CorpusSpec("producer", 1, 60, 30, SETTINGS))
    summary = run_campaign(spec, master=None)
    assert summary.cases == 60 and summary.exit_code == 0
    assert set(dict(summary.verdicts)) <= {"pass", "skip"}


class _DuplicatesOnTwoSends(ProducerChecker):
    """Plumbing test double: the model's run, but a trace with two or more sends is
    reported as a client duplicate (as a faulty client would be)."""

    def run(self, trace: ProducerTrace) -> RunResult:
        real = super().run(trace)
        if len(trace.sends) < 2:
            return real
        dup = Anomaly("duplicate", Property.AT_MOST_ONCE, Attribution.CLIENT, "written twice", values=(trace.sends[0].value,))
        return RunResult("generated", self.client, self.broker, trace, RunStatus.CLIENT, anomalies=(dup,))


def test_a_client_violation_is_shrunk_and_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kafka_conformance.corpora.suites.producer.ProducerChecker", _DuplicatesOnTwoSends)
    spec = FuzzSpec(str(tmp_path), "model", CorpusSpec("producer", 2, 40, 40, SETTINGS))
    summary = run_campaign(spec, master=None)
    assert summary.exit_code == 1 and dict(summary.verdicts).get("fail", 0) > 0
    [group] = summary.failures
    assert group.anomaly == "duplicate" and group.signature == "delivery | duplicate | client-violation"
    assert group.saved_to is not None and Path(group.saved_to).exists()
    from kafka_conformance.producer.saved import load_producer_case

    saved = load_producer_case(group.saved_to)
    assert len(saved.trace.sends) == 2 and len(saved.trace.plan.rules) == 0  # shrunk to what the fault needs
