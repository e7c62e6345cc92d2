"""Nothing outlives the kit when it starts a real broker: ``check broker`` against Tansu or
Apache Kafka's own broker, stopped by SIGTERM or Ctrl-C at a random moment, leaves no broker
process behind.  (Against Tansu six rounds find six divergences within seconds, so the run
is given a hundred rounds, the last of which has nothing new to find and runs its 5,000 cases;
the moment is drawn from the first second.)"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.adapters.brokers.launchers import available

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)])
@pytest.mark.parametrize("target", ["tansu", "kafka:3.9.1", "kafka:1.0.1"])
def test_a_broker_run_stopped_at_a_random_moment_leaves_no_broker(tmp_path: Path, sig: int, code: int, target: str) -> None:
    if target == "tansu" and not available()["tansu"].ok:
        pytest.skip(available()["tansu"].reason)
    if target.startswith("kafka:") and (reason := kafka_broker_reason(target[len("kafka:"):])) is not None:
        pytest.skip(f"{target}: {reason}")
    process = "tansu" if target == "tansu" else "kafka.Kafka"
    returncode, out, err, left = stop_at_random(
        ["check", "broker", "--target", target, "--max-examples", "5000", "--max-rounds", "100", "--seed", "1"],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, process),
        within_s=1.0 if target == "tansu" else 4.0)
    assert returncode == code, out + err
    assert "Traceback" not in err, err[-3000:]
    assert left == []
