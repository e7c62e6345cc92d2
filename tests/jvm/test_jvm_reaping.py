"""Nothing outlives the kit when it drives Apache Kafka's real authorizers: a run against
``kafka:VERSION`` (a JVM, and for AclAuthorizer the ZooKeeper inside it) stopped by
SIGTERM or Ctrl-C at a random moment leaves no JVM behind, and says how it ended."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.jvm.kafka_releases import parse_kafka_target
from kafka_conformance.adapters.jvm.kafka_target import not_runnable_reason

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random


@pytest.mark.parametrize(("spec", "sig", "code"), [
    ("3.9.1:acl", signal.SIGTERM, 143),
    ("3.9.1:acl", signal.SIGINT, 130),
    ("4.4.0", signal.SIGTERM, 143),
])
def test_a_run_against_real_kafka_stopped_at_a_random_moment_leaves_no_jvm(tmp_path: Path, spec: str, sig: int,
                                                                          code: int) -> None:
    reason = not_runnable_reason(parse_kafka_target(spec))
    if reason is not None:
        pytest.skip(f"kafka:{spec}: {reason}")
    returncode, out, err, left = stop_at_random(
        ["check", "authorizer", "--target", f"kafka:{spec}", "--max-examples", "3000", "--seed", "1"],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, "java"), within_s=4.0)
    assert returncode == code, out + err
    assert "Traceback" not in err
    assert left == []
