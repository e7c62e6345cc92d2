"""check_broker against the real brokers: the known divergences are found, named and replayable.

These are findings about real software, so each assertion names the anomaly the
kit must report; the report (docs/broker-conformance.md) says which of the
divergences expected before the runs were confirmed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.launchers import RunningBroker
from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.broker.check import check_broker, replay_broker_case
from kafka_conformance.broker.probes import run_probes
from kafka_conformance.broker.report import render_broker_json, render_broker_junit, render_broker_text
from kafka_conformance.options import Options
from kafka_conformance.reference.broker.profile import broker_profile

KAFKA = broker_profile("4.3.0")


def _table(broker: RunningBroker) -> dict[str, tuple[str, ...]]:
    return {p.name: p.anomalies for p in run_probes(None, broker.host, broker.port, KAFKA) if p.status != "error"}


def test_tansu_answers_a_duplicate_with_46(tansu: RunningBroker) -> None:
    table = _table(tansu)
    assert table["duplicate-last"] == ("duplicate-rejected",)
    assert table["duplicate-older-in-window"] == ("duplicate-rejected",)
    assert table["in-sequence"] == () and table["sequence-gap"] == ()
    assert table["two-producers"] == ()


def test_tansu_fences_an_epoch_it_did_not_issue(tansu: RunningBroker) -> None:
    """Found by the kit: a higher epoch at sequence 0 (the Java client's local bump, KIP-360) gets PRODUCER_FENCED (90)."""
    table = _table(tansu)
    assert table["new-epoch-at-zero"] == ("valid-batch-rejected",)


def test_noida_reports_the_wrong_offset_for_an_older_duplicate(noida: RunningBroker) -> None:
    table = _table(noida)
    assert "wrong-duplicate-offset" in table["duplicate-older-in-window"]
    assert "wrong-duplicate-offset" not in table["duplicate-last"]  # the newest duplicate gets the right offset
    assert table["in-sequence"] == ()


def test_noida_does_not_fence_a_stale_epoch(noida: RunningBroker) -> None:
    """Found by the kit: after a bump to epoch 1, a batch of epoch 0 is written (Kafka: INVALID_PRODUCER_EPOCH)."""
    table = _table(noida)
    assert table["stale-epoch"] == ("stale-epoch-accepted",)
    assert table["overlapping-range"] == ("false-duplicate",)


def test_rdkafka_mock_does_not_deduplicate_idempotent_only_producers(rdkafka_mock: RunningBroker) -> None:
    table = _table(rdkafka_mock)
    assert table["duplicate-last"] == ("duplicate-appended",)
    assert table["sequence-gap"] == ("gap-accepted",)
    assert table["stale-epoch"] == ("stale-epoch-accepted",)


def test_generated_cases_find_and_shrink_the_divergence(tmp_path: Path, rdkafka_mock: RunningBroker) -> None:
    report = check_broker(f"bootstrap:{rdkafka_mock.bootstrap}", Options(seed=7, max_examples=40, failures_dir=tmp_path),
                          table=False, max_rounds=2)
    assert report.exit_code == 1
    assert len(report.findings) == 2
    first = report.findings[0]
    assert len(first.case.batches) <= 3  # shrunk: every anomaly of the mock shows in at most three batches
    saved = json.loads(Path(first.saved_to or "").read_text())
    assert saved["anomaly"] == first.anomaly and saved["format"] == "kafka-conformance/broker-case"
    replayed = replay_broker_case(first.saved_to or "", target=f"bootstrap:{rdkafka_mock.bootstrap}")
    assert replayed.status == "FAILED" and first.anomaly in replayed.anomalies


def test_same_seed_same_findings(rdkafka_mock: RunningBroker) -> None:
    runs = [check_broker(f"bootstrap:{rdkafka_mock.bootstrap}", Options(seed=3, max_examples=20), table=False, max_rounds=1)
            for _ in range(2)]
    assert [f.case for f in runs[0].findings] == [f.case for f in runs[1].findings]


def test_a_newer_duplicate_replayed_on_a_fresh_topic_is_fixed_when_the_broker_agrees(tansu: RunningBroker, tmp_path: Path) -> None:
    """Replay says FIXED when the saved anomaly no longer shows (here: a case saved from the mock, replayed on Tansu)."""
    case = tmp_path / "gap.json"
    case.write_text(json.dumps({
        "format": "kafka-conformance/broker-case", "version": 1, "target": "rdkafka-mock", "kafka_version": "4.3.0",
        "anomaly": "gap-accepted", "case": {"slots": ["allocated"], "batches": [[0, 0, 0, 1], [0, 0, 3, 1]]},
    }))
    result = replay_broker_case(case, target=f"bootstrap:{tansu.bootstrap}")
    assert result.status == "FIXED"


def test_reports_render_the_same_findings(noida: RunningBroker) -> None:
    report = check_broker(f"bootstrap:{noida.bootstrap}", Options(seed=1, max_examples=10), max_rounds=1)
    text = render_broker_text(report)
    data = json.loads(render_broker_json(report))
    junit = render_broker_junit(report)
    assert "conformance table:" in text and "duplicate-older-in-window" in text
    assert data["verdict"] == "diverges" and "wrong-duplicate-offset" in data["anomalies"]
    assert 'type="wrong-duplicate-offset"' in junit


def test_unknown_target_is_a_target_error() -> None:
    with pytest.raises(TargetError, match="unknown target 'redpanda'"):
        check_broker("redpanda")
    with pytest.raises(TargetError, match="kafka needs an argument: kafka:VERSION"):
        check_broker("kafka")


def test_unknown_kafka_version_is_a_target_error() -> None:
    with pytest.raises(TargetError, match=r"0\.10\.0"):
        check_broker("rdkafka-mock", Options(kafka_version="0.10.0"))

