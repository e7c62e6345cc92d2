"""Nothing outlives the kit when it starts a real broker: ``check broker`` against Tansu
stopped by SIGTERM or Ctrl-C at a random moment leaves no broker process behind."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.launchers import available

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_broker_run_stopped_at_a_random_moment_leaves_no_broker(tmp_path: Path, sig: int, code: int) -> None:
    if not available()["tansu"].ok:
        pytest.skip(available()["tansu"].reason)
    returncode, out, err, left = stop_at_random(
        ["check", "broker", "--target", "tansu", "--max-examples", "5000", "--seed", "1"],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, "tansu"), within_s=3.0)
    assert returncode == code, out + err
    assert "Traceback" not in err, err[-3000:]
    assert left == []
