"""Kafka's jars: the lock pins every release the kit runs, and nothing unverified is ever used.

No network, no JVM: the cache is laid out by hand, as Maven's repository layout would."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.jvm import maven
from kafka_conformance.adapters.jvm.kafka_releases import CLIENTS_4_3_0, all_releases, parse_kafka_target
from kafka_conformance.adapters.jvm.maven import Artifact, JarError, cached_jars, fetch_artifact, load_lock
from kafka_conformance.cli.main import main

METADATA = Artifact("org.apache.kafka", "kafka-metadata", "3.3.1")


def test_the_lock_pins_every_release_the_kit_runs() -> None:
    lock = load_lock()
    wanted = {CLIENTS_4_3_0.coordinate} | {r.artifact.coordinate for r in all_releases()}
    assert wanted <= set(lock), sorted(wanted - set(lock))
    for coordinate, jars in lock.items():
        assert coordinate in jars, f"{coordinate}: the root artifact itself is not pinned"
        assert all(len(s) == 64 and int(s, 16) >= 0 for s in jars.values())


def _fake_set(cache: Path, artifact: Artifact, jars: dict[str, bytes]) -> Path:
    root = cache / "maven" / artifact.directory_name
    for coordinate, body in jars.items():
        group, name, version = coordinate.split(":")
        path = root.joinpath(*group.split("."), name, version, f"{name}-{version}.jar")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    (root / ".verified").write_text(artifact.coordinate, encoding="utf-8")
    return root


def test_a_cached_jar_whose_bytes_differ_from_the_lock_is_refused(tmp_path: Path) -> None:
    _fake_set(tmp_path, METADATA, {"org.apache.kafka:kafka-metadata:3.3.1": b"not the real jar"})
    with pytest.raises(JarError) as caught:
        cached_jars(METADATA, cache=tmp_path)
    message = str(caught.value)
    assert "SHA-256 differs: org.apache.kafka:kafka-metadata:3.3.1" in message
    assert "missing: org.apache.kafka:kafka-clients:3.3.1" in message
    assert "refusing to run unknown bytes" in message


def test_a_cached_jar_the_lock_does_not_know_is_refused(tmp_path: Path) -> None:
    _fake_set(tmp_path, METADATA, {"com.example:sneaky:1.0": b"x"})
    with pytest.raises(JarError, match=r"not in the lock: com\.example:sneaky:1\.0"):
        cached_jars(METADATA, cache=tmp_path)


def test_nothing_cached_is_none_and_never_a_download(tmp_path: Path) -> None:
    assert cached_jars(METADATA, cache=tmp_path) is None


def test_an_unpinned_release_is_refused_before_maven_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maven, "mvn_tool", lambda: pytest.fail("Maven must not run for an unpinned artifact"))
    with pytest.raises(JarError, match=r"not in the kit.s lock.*--update-lock"):
        fetch_artifact(Artifact("org.apache.kafka", "kafka-metadata", "3.1.0"), cache=tmp_path)


def test_no_maven_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maven, "mvn_tool", lambda: None)
    with pytest.raises(JarError, match=r"Maven \(mvn\) not found"):
        fetch_artifact(METADATA, cache=tmp_path)


@pytest.mark.parametrize(("text", "spec"), [
    ("3.3.1", "kafka:3.3.1:standard"), ("3.9.1:acl", "kafka:3.9.1:acl"), ("2.8.2", "kafka:2.8.2:acl"),
    ("4.4.0:STANDARD", "kafka:4.4.0:standard"),
])
def test_kafka_target_specs(text: str, spec: str) -> None:
    assert parse_kafka_target(text).spec == spec


@pytest.mark.parametrize(("text", "says"), [
    ("3.3.3", "nearest: 3.3.2"), ("9.9.9", "nearest"), ("4.0.0:acl", "acl authorizer"),
    ("3.3.1:zk", "unknown flavour 'zk'"), ("banana", "expected kafka:VERSION"), ("", "expected kafka:VERSION"),
])
def test_releases_the_kit_does_not_run_are_refused_with_the_nearest(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_kafka_target(text)


@pytest.mark.parametrize("argv", [["fetch"], ["fetch", "kafka:9.9.9"], ["fetch", "tansu"], ["fetch", "kafka:3.3.1:zk"]])
def test_fetch_bad_input_is_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("kafka-conformance: error: fetch")


def test_fetch_reports_a_lock_mismatch_as_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAFKA_CONFORMANCE_JAR_CACHE", str(tmp_path))
    _fake_set(tmp_path, METADATA, {"org.apache.kafka:kafka-metadata:3.3.1": b"tampered"})
    assert main(["fetch", "kafka:3.3.1"]) == 2
    assert "SHA-256 differs" in capsys.readouterr().err


def test_every_release_run_for_real_is_a_modelled_release() -> None:
    from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES

    assert {r.version for r in all_releases()} <= set(APACHE_KAFKA_RELEASES)
