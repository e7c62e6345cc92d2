"""Apache Kafka's own broker as a target (issue 16): ``kafka:VERSION`` starts a one-node
broker from the release's jars (KRaft from 3.3, ZooKeeper mode with a ZooKeeper of its own
before), on 127.0.0.1 only, and the broker suite holds it to the reference broker of the
same release.  The gate runs one release of each kind (``tox -e wire`` fetches their jars
first): 1.0.1 is the oldest era the reference models (46 below the window, 59 for an
unknown producer, no log start offset on refused records); ``docs/broker-conformance.md``
has the sweep."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.adapters.brokers.launchers import start_broker
from kafka_conformance.adapters.brokers.wire_client import WireClient
from kafka_conformance.broker.check import check_broker
from kafka_conformance.broker.classes import DELETE_CLASSES, RESTART_CLASSES
from kafka_conformance.broker.report import render_broker_text
from kafka_conformance.cli.main import main
from kafka_conformance.options import Options

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import left_behind, start

pytest_plugins = ["pytester"]

RELEASE = "3.9.1"
ZOOKEEPER_RELEASE = "1.0.1"


def _need(version: str) -> None:
    reason = kafka_broker_reason(version)
    if reason is not None:
        pytest.skip(f"kafka:{version}: {reason}")


def test_the_broker_listens_on_loopback_only_and_serves_producer_ids() -> None:
    _need(RELEASE)
    with start_broker(f"kafka:{RELEASE}") as broker:
        assert broker.host == "127.0.0.1"
        assert {address for address, _ in broker.listening} <= {"127.0.0.1", "::ffff:127.0.0.1"}  # type: ignore[attr-defined]
        with WireClient(broker.host, broker.port) as client:
            producer_id, epoch = client.init_producer_id()
        assert producer_id >= 0 and epoch == 0


@pytest.mark.parametrize("release", [RELEASE, ZOOKEEPER_RELEASE])
def test_real_kafka_agrees_with_the_reference_broker_of_its_release(release: str) -> None:
    _need(release)
    report = check_broker(f"kafka:{release}", Options(kafka_version=release, seed=1, max_examples=20), max_rounds=1, table=True)
    assert report.exit_code == 0, render_broker_text(report)
    rows = {p.name: p.status for p in report.probes}
    actions = ("restart-clean-window", "restart-crash-window", "restart-after-expiry", "delete-records-keeps-state",
               "restart-after-delete")
    assert {rows[name] for name in actions} == {"conforms"}, render_broker_text(report)
    asked = (RESTART_CLASSES | DELETE_CLASSES) - {name for name, _ in report.excluded_classes}
    assert set(report.classes) >= asked, render_broker_text(report)  # restarted on its own data, records deleted


def test_a_zookeeper_mode_broker_and_its_zookeeper_listen_on_loopback_only() -> None:
    _need(ZOOKEEPER_RELEASE)
    from kafka_conformance.adapters.brokers.kafka_broker import start_kafka_broker
    from kafka_conformance.adapters.brokers.process import listening_addresses

    node = start_kafka_broker(ZOOKEEPER_RELEASE)
    try:
        assert node.zookeeper is not None and "ZooKeeper mode" in node.description
        for process in (node.process, node.zookeeper):
            found = listening_addresses(process.pid)
            assert found and {address for address, _ in found} <= {"127.0.0.1", "::ffff:127.0.0.1"}, found
    finally:
        node.stop()
    assert not node.process.running() and not node.zookeeper.running()
    assert node.root is not None and not node.root.exists()


@pytest.mark.parametrize("release", [RELEASE, ZOOKEEPER_RELEASE])
def test_nothing_outlives_a_broker_check(tmp_path: Path, release: str) -> None:
    _need(release)
    marker = "kafka-broker-" + tmp_path.name
    proc = start(["check", "broker", "--target", f"kafka:{release}", "--kafka-version", release, "--max-examples", "5",
                  "--max-rounds", "1", "--seed", "2"], tmp_path, marker)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert left_behind(marker) == []


@pytest.mark.parametrize(("target", "says"), [
    ("kafka:0.11.0", "before the oldest broker"), ("kafka:9.9.9", "not a release"), ("kafka:3.9.7", "not a release"),
])
def test_a_release_the_kit_does_not_start_is_a_usage_error(target: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "broker", "--target", target, "--max-examples", "1"]) == 2
    assert says in capsys.readouterr().err


def test_missing_jars_name_the_fetch_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAFKA_CONFORMANCE_JAR_CACHE", str(tmp_path / "empty"))
    assert main(["check", "broker", "--target", f"kafka:{RELEASE}", "--max-examples", "1"]) == 2
    assert f"kafka-conformance fetch kafka-broker:{RELEASE}" in capsys.readouterr().err


def test_a_producer_client_runs_against_real_kafka(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``check producer --broker kafka:VERSION``: generated traces through kafka-python against the
    real broker; traces with cluster steps are refused (one node cannot fail over) and counted."""
    _need(RELEASE)
    pytest.importorskip("kafka")
    code = main(["check", "producer", "--client", "kafka-python", "--broker", f"kafka:{RELEASE}", "--kafka-version", RELEASE,
                 "--max-examples", "3", "--seed", "1", "--failures-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    assert f"broker kafka:{RELEASE}" in out and "generated traces: 3 run" in out


def test_an_unknown_kafka_broker_release_is_a_usage_error_for_producers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "producer", "--client", "model", "--broker", "kafka:0.11.0"]) == 2
    assert "before the oldest broker" in capsys.readouterr().err


def test_the_test_broker_answers_as_real_kafka_on_the_same_requests() -> None:
    """The Python test broker stays only where it agrees with real Kafka: the same generated
    crafted cases go to both (same release), and every answer's error code, and whether it
    carried the offsets Kafka's rules give, must be the same on both."""
    from hypothesis import HealthCheck, Phase, given, settings

    from kafka_conformance.broker.cases import BrokerCase
    from kafka_conformance.broker.compare import run_case
    from kafka_conformance.broker.strategies import broker_cases
    from kafka_conformance.broker.targets import open_broker_target
    from kafka_conformance.reference.broker.profile import broker_profile

    _need(RELEASE)
    profile = broker_profile(RELEASE)
    cases: list[BrokerCase] = []

    @settings(max_examples=40, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(broker_cases(profile))
    def collect(case: BrokerCase) -> None:
        cases.append(case)

    collect()
    answers: dict[str, list[tuple[int, int, bool, bool]]] = {}
    for spec in (f"test-broker:{RELEASE}", f"kafka:{RELEASE}"):
        with open_broker_target(spec) as handle, WireClient(handle.host, handle.port) as client:
            answers[spec] = [
                (n, s.actual_error, s.actual_offset == s.expected_offset, s.actual_log_start == s.expected_log_start)
                for n, case in enumerate(cases)
                for s in run_case(client, case, profile, shared_topic=handle.shared_topic).steps
            ]
    test_broker, kafka = answers.values()
    assert len(kafka) == sum(len(c.batches) for c in cases)
    assert test_broker == kafka
    assert {code for _, code, _, _ in kafka} >= {0, 45}  # the cases reach more than the happy path


def test_one_broker_serves_the_traces_of_a_run_each_on_a_topic_of_its_own() -> None:
    # Rows 1 and 2 both send to the topic "conformance": on one shared broker, each must read
    # back only its own records (else the second would see the first's as phantom writes).
    _need(RELEASE)
    pytest.importorskip("kafka")
    from kafka_conformance.producer.engines import shared_brokers
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    with shared_brokers() as pool:
        rows = [*table_rows(["1"]), *table_rows(["2"]), *table_rows(["1"])]
        results = run_table("kafka-python", broker=f"kafka:{RELEASE}", kafka_version=RELEASE, rows=rows)
        assert [r.number for r in results] == ["1", "2", "1"]
        assert pool.started == 1 and list(pool.live) == [f"kafka:{RELEASE}"]
        (running,) = pool.live.values()
    for result in results:
        assert result.status is RunStatus.HOLDS, (result.number, result.error, result.anomalies, result.verdicts)
    assert running.pid is not None and not Path(f"/proc/{running.pid}").exists()  # stopped and reaped with the block


def test_the_plugin_s_producer_class_starts_apache_kafka_once_for_its_rows(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    _need(RELEASE)
    pytest.importorskip("kafka")
    from kafka_conformance.adapters.brokers import launchers
    from kafka_conformance.adapters.jvm.maven import JAR_CACHE_ENV, cache_dir

    monkeypatch.setenv(JAR_CACHE_ENV, str(cache_dir()))  # pytester moves HOME, where the jars are cached
    pytester: pytest.Pytester = request.getfixturevalue("pytester")

    starts: list[str] = []
    real_start = launchers.start_kafka

    def counted(version: str, timeout_s: float) -> object:
        starts.append(version)
        return real_start(version, timeout_s)

    monkeypatch.setattr(launchers, "start_kafka", counted)
    pytester.makepyfile(test_rows=f"""
from kafka_conformance.pytest_plugin import producer_tests
TestOnKafka = producer_tests("kafka-python", broker="kafka:{RELEASE}", kafka_version="{RELEASE}")
""")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "test_rows.py::TestOnKafka::test_row_1",
                                "test_rows.py::TestOnKafka::test_row_13")
    result.assert_outcomes(passed=2)
    assert starts == [RELEASE]


def test_after_a_clean_restart_real_kafka_answers_an_old_retry_out_of_order() -> None:
    """Row 25 on Apache Kafka 3.9.1: the broker stops (SIGTERM) and starts again on its own data between v0's
    late REQUEST_TIMED_OUT and v0's retry; its producer snapshot keeps only v4's batch, so the retry is answered
    OUT_OF_ORDER_SEQUENCE_NUMBER, as the reference answers it (docs/spec/idempotence.md §1.4). The client is
    @platformatic/kafka, which sends each record as a batch of its own (kafka-python would batch v0..v4 into one,
    and its retry would be the snapshot's own batch) and which then writes v0 twice (docs/findings.md, entry 12)."""
    pytest.importorskip("kafka", reason="the fault proxy needs kafka-python (the clients extra)")
    _need(RELEASE)
    from node_runners import need_node_runners

    need_node_runners()
    from kafka_conformance.producer.check import run_wire_trace
    from kafka_conformance.producer.table import table_rows
    from kafka_conformance.reference.broker.produce_errors import ProduceError
    from kafka_conformance.reference.traces.events import Attempt, Fault, FaultKind, Response

    (row,) = table_rows(["25"])
    run = run_wire_trace(row.trace, "platformatic", broker=f"kafka:{RELEASE}", kafka_version=RELEASE)
    events = list(run.events)
    stopped = next(i for i, e in enumerate(events) if isinstance(e, Fault) and e.kind is FaultKind.BROKER_STOP)
    first_retry = next(e for e in events[stopped:] if isinstance(e, Attempt) and e.values == ("v0",))
    answer = next(e for e in events if isinstance(e, Response) and e.attempt_id == first_retry.attempt_id)
    assert answer.error is ProduceError.OUT_OF_ORDER_SEQUENCE_NUMBER, events


def test_a_shared_broker_restarted_by_a_row_serves_the_next_row_and_is_stopped() -> None:
    """Row 25 restarts the one broker a pool keeps for a run; the next row runs on the same broker (its new
    process is the one the pool checks), and the block's end stops it: no broker is started twice or left."""
    _need(RELEASE)
    pytest.importorskip("kafka")
    from kafka_conformance.producer.engines import shared_brokers
    from kafka_conformance.producer.table import run_table, table_rows

    with shared_brokers() as pool:
        rows = [*table_rows(["25"]), *table_rows(["1"])]
        results = run_table("kafka-python", broker=f"kafka:{RELEASE}", kafka_version=RELEASE, rows=rows)
        assert [r.number for r in results] == ["25", "1"]
        assert pool.started == 1, pool.started
        (running,) = pool.live.values()
        assert Path(f"/proc/{running.pid}").exists()
    assert results[1].status.value == "holds", (results[1].error, results[1].anomalies)
    assert not Path(f"/proc/{running.pid}").exists()
