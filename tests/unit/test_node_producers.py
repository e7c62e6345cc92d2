"""The Node.js producers' plumbing, without Node.js: the mapping of a trace's Java properties to
KafkaJS's and @platformatic/kafka's options, what an error line claims, and the installer's
messages when node or npm is missing or fails.  The runs themselves are in tests/wire_node and,
light, in tests/wire_brokers/test_node_light.py."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from kafka_conformance.adapters.clients.protocol import ClientConfigError
from kafka_conformance.adapters.node import install
from kafka_conformance.adapters.node.producers import UNLIMITED, classify_node_error, node_settings
from kafka_conformance.producer.clients import delivery_config_for
from kafka_conformance.reference.broker.produce_errors import Appended
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

ROW_PROPS = {"enable.idempotence": "true", "acks": "all", "max.in.flight.requests.per.connection": "5",
             "request.timeout.ms": "1500", "delivery.timeout.ms": "8000", "retry.backoff.ms": "50", "linger.ms": "0"}


def test_the_retry_budget_stands_in_for_the_delivery_timeout() -> None:
    for client in ("kafkajs", "platformatic"):
        mapped = node_settings(client, ROW_PROPS)
        settings = mapped.as_dict()
        assert settings["retries"] == 8000 // (1500 + 50) == 5
        assert settings["request_timeout_ms"] == 1500 and settings["retry_backoff_ms"] == 50
        assert any("no delivery timeout" in note for note in mapped.notes), mapped.notes


def test_kafkajs_refuses_by_name_what_kafkajs_refuses() -> None:
    with pytest.raises(ClientConfigError, match=r"acks=1 with enable\.idempotence=true.*messageProducer\.js:59-63"):
        node_settings("kafkajs", {**ROW_PROPS, "acks": "1"})
    with pytest.raises(ClientConfigError, match=r"retries=0 with enable\.idempotence=true.*producer/index\.js:45-49"):
        node_settings("kafkajs", {**ROW_PROPS, "retries": "0"})
    plain = node_settings("kafkajs", {**ROW_PROPS, "enable.idempotence": "false", "acks": "1", "retries": "0"}).as_dict()
    assert (plain["idempotent"], plain["acks"], plain["retries"], plain["max_in_flight"]) == (False, 1, 0, 5)
    notes = node_settings("kafkajs", ROW_PROPS).notes
    assert any("one idempotent Produce in flight per broker" in note for note in notes)


def test_platformatic_overrides_are_noted_and_promised() -> None:
    """@platformatic/kafka rewrites an idempotent producer's acks, in-flight and small retry counts silently;
    the mapping says so, and the delivery configuration the checker holds it to is what it really does."""
    mapped = node_settings("platformatic", {**ROW_PROPS, "acks": "1", "retries": "1"})
    settings = mapped.as_dict()
    assert (settings["acks"], settings["max_in_flight"], settings["retries"]) == (-1, 1, UNLIMITED)
    assert sum("producer.js:36-42" in note for note in mapped.notes) == 3, mapped.notes
    trace = ProducerTrace([SendStep("v0"), FlushStep()]).with_config(**{**ROW_PROPS, "acks": "1", "retries": "1"})
    cfg = delivery_config_for("platformatic", trace)
    assert (cfg.acks, cfg.max_in_flight, cfg.retries) == (-1, 1, UNLIMITED)


@pytest.mark.parametrize("client", ["kafkajs", "platformatic"])
def test_what_neither_client_can_express_is_refused_by_name(client: str) -> None:
    with pytest.raises(ClientConfigError, match="transactional producers are outside"):
        node_settings(client, {"transactional.id": "t"})
    with pytest.raises(ClientConfigError, match=r"compression\.type='gzip' has no equivalent"):
        node_settings(client, {"compression.type": "gzip"})
    with pytest.raises(ClientConfigError, match=r"request\.timeout\.ms='soon' is not an integer"):
        node_settings(client, {"request.timeout.ms": "soon"})
    assert any("no linger" in note for note in node_settings(client, {**ROW_PROPS, "linger.ms": "5"}).notes)


@pytest.mark.parametrize(("line", "outcome"), [
    ({"class": "KafkaJSProtocolError", "code": 19}, Appended.NO),
    ({"class": "KafkaJSNumberOfRetriesExceeded", "cause": "KafkaJSProtocolError", "code": 20}, Appended.YES),
    ({"class": "KafkaJSNumberOfRetriesExceeded", "cause": "KafkaJSRequestTimeoutError", "code": 0}, Appended.MAYBE),
    ({"class": "KafkaJSProtocolError", "code": 46}, Appended.YES),
    ({"class": "KafkaJSConnectionError", "code": 0}, Appended.MAYBE),
    ({"class": "PLT_KFK_MULTIPLE", "cause": "PLT_KFK_PROTOCOL", "code": 87}, Appended.NO),
    ({"class": "PLT_KFK_MULTIPLE", "cause": "PLT_KFK_NETWORK", "code": 0}, Appended.MAYBE),
    ({"class": "PLT_KFK_USER", "code": 0}, Appended.NO),
    ({"class": "TypeError", "sync": True, "code": 0}, Appended.NO),
    ({"class": "Error", "code": True}, Appended.MAYBE),
])
def test_what_an_error_line_claims(line: dict[str, object], outcome: Appended) -> None:
    assert classify_node_error(line)[0] is outcome


def _program(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_no_node_is_a_message_naming_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv(install.CACHE_ENV, str(tmp_path / "cache"))
    with pytest.raises(install.NodeUnavailable, match=r"npm is not on PATH: install Node\.js 20 or newer"):
        install.install()
    from kafka_conformance.adapters.node.producers import KafkaJSClient

    assert "kafka-conformance fetch kafkajs" in (KafkaJSClient().available() or "")


def test_a_failing_npm_is_quoted_and_leaves_no_half_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _program(bin_dir, "node", "echo v20.20.2\n")
    _program(bin_dir, "npm", 'echo "npm error code EINTEGRITY: sha512 mismatch" >&2\nexit 1\n')
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv(install.CACHE_ENV, str(tmp_path / "cache"))
    with pytest.raises(install.NodeInstallError, match=r"npm ci failed \(exit 1\):\nnpm error code EINTEGRITY"):
        install.install()
    assert install.installed_runner("kafkajs") is None
    leftovers = [p.name for p in (tmp_path / "cache").iterdir() if p.name != ".lock"]
    assert leftovers == [], leftovers


def test_a_node_too_old_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _program(tmp_path, "node", "echo v18.19.0\n")
    _program(tmp_path, "npm", "exit 0\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv(install.CACHE_ENV, str(tmp_path / "cache"))
    from kafka_conformance.adapters.node.producers import PlatformaticClient

    assert "is Node.js v18.19.0; the runners need 20 or newer" in (PlatformaticClient().available() or "")
    with pytest.raises(install.NodeUnavailable, match="need 20 or newer"):
        install.install()


def test_fetch_without_npm_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from kafka_conformance.cli.main import main

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv(install.CACHE_ENV, str(tmp_path / "cache"))
    assert main(["fetch", "kafkajs", "platformatic"]) == 2
    assert "fetch kafkajs platformatic: npm is not on PATH" in capsys.readouterr().err


def test_the_cache_key_follows_the_runners_and_the_lock(tmp_path: Path) -> None:
    source = install.sources_dir()
    copy = tmp_path / "node"
    copy.mkdir()
    for path in [source / "package.json", source / "package-lock.json", *source.glob("*.mjs")]:
        (copy / path.name).write_bytes(path.read_bytes())
    before = install._install_dir(copy)
    assert before == install._install_dir(source)
    (copy / "runner.mjs").write_text((copy / "runner.mjs").read_text() + "\n// changed\n")
    assert install._install_dir(copy) != before


def test_the_node_clients_are_named_everywhere_a_client_is() -> None:
    """check producer, check matrix and the report resolve clients from one list; the pytest plugin builds
    a class for each (its rows run in tests/wire_node)."""
    from kafka_conformance.producer.clients import REAL_CLIENTS
    from kafka_conformance.pytest_plugin import producer_tests

    assert {"kafkajs", "platformatic"} <= set(REAL_CLIENTS)
    cls = producer_tests("kafkajs")
    assert hasattr(cls, "test_row_19") and hasattr(cls, "test_generated_traces")
