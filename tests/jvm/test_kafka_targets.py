"""``kafka:VERSION[:standard|acl]`` end to end: the suite against Apache Kafka's real authorizers.

The light version of the release campaign (``tox -e kafka-versions`` runs every
release): the newest StandardAuthorizer, one 3.x StandardAuthorizer and one
AclAuthorizer with its ZooKeeper, each against the reference of its own release;
and one release held to another's semantics, which must show the documented
difference (KAFKA-14435) as a minimal case.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from listeners import listeners

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.jvm.kafka_releases import STANDARD_RELEASES, parse_kafka_target
from kafka_conformance.adapters.jvm.kafka_target import kafka_factory, not_runnable_reason
from kafka_conformance.authorizer.render import to_text
from kafka_conformance.authorizer.targets import close_targets
from kafka_conformance.options import Options

NEWEST = f"kafka:{STANDARD_RELEASES[-1]}"


def _need(spec: str) -> None:
    reason = not_runnable_reason(parse_kafka_target(spec.removeprefix("kafka:")))
    if reason is not None:
        pytest.skip(f"{spec}: {reason}")


@pytest.fixture(autouse=True)
def _stop_jvms() -> object:
    yield
    close_targets()


@pytest.mark.parametrize("spec", [NEWEST, "kafka:3.3.1", "kafka:3.9.1:acl"])
def test_real_kafka_agrees_with_the_reference_of_its_release(spec: str, tmp_path: Path) -> None:
    _need(spec)
    report = check_authorizer(spec, Options(seed=0, max_examples=20, failures_dir=tmp_path))
    assert report.exit_code == 0, to_text(report)


def test_a_release_held_to_a_later_release_shows_kafka_14435(tmp_path: Path) -> None:
    _need("kafka:3.3.1")
    report = check_authorizer("kafka:3.3.1", Options(kafka_version="3.4.0", seed=0, max_examples=150, failures_dir=tmp_path),
                              properties=["authorize"])
    assert report.exit_code == 1, to_text(report)
    (result,) = report.results
    assert result.counterexample is not None and result.counterexample.anomaly == "allow-everyone-misapplied"
    assert result.saved_to is not None and Path(result.saved_to).is_file()


def test_missing_jars_are_a_usage_error_naming_the_fetch_command(tmp_path: Path) -> None:
    from kafka_conformance.adapters.jvm.session import unavailable_reason

    if unavailable_reason(need_jars=False) is not None:
        pytest.skip(f"JVM adapter unavailable: {unavailable_reason(need_jars=False)}")
    env = {**os.environ, "KAFKA_CONFORMANCE_JAR_CACHE": str(tmp_path / "empty-cache")}
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "authorizer",
                           "--target", "kafka:3.3.1"], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "kafka-conformance fetch kafka:3.3.1:standard" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("spec", ["kafka:9.9.9", "kafka:3.1.0", "kafka:3.3.1:zk", "kafka:banana"])
def test_a_release_the_kit_does_not_run_is_a_usage_error(spec: str) -> None:
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "authorizer", "--target", spec],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "kafka-conformance: error:" in done.stderr and "Traceback" not in done.stderr


def test_the_acl_authorizer_zookeeper_listens_on_loopback_and_stops_with_the_jvm() -> None:
    _need("kafka:3.9.1:acl")
    factory, _, _ = kafka_factory("3.9.1:acl")
    adapter = factory()
    session = adapter.session
    try:
        connect = adapter._extra_config["zookeeper.connect"]
        port = int(connect.split(":")[1].split("/")[0])
        assert connect.startswith("127.0.0.1:")
        listening = listeners(port)
        if listening is None:
            pytest.skip("no /proc/net/tcp on this system")
        assert listening and all(a in ("0100007F", "0000000000000000FFFF00000100007F") for a in listening), listening
    finally:
        adapter.close()
        close_targets()
    assert not session.alive
    assert listeners(port) == []
