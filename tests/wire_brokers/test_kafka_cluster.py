"""A real Apache Kafka cluster the kit starts (``kafka-cluster:VERSION[:N]``): a KRaft controller
and N brokers on 127.0.0.1, whose brokers the kit crashes, restarts and re-leads on a trace's
cue.  The gate runs one short cluster run of one release; the rows that need a leader change
(7, 8, 9, 24 of the trace table) run on it, where a single broker shows n/a."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.cli.main import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import left_behind, start

RELEASE = "3.9.1"


@pytest.fixture(scope="module")
def need_release() -> None:
    reason = kafka_broker_reason(RELEASE)
    if reason is not None:
        pytest.skip(f"kafka:{RELEASE}: {reason}")


def test_crash_restart_and_failover_are_real_leader_changes(need_release: None) -> None:
    from kafka_conformance.adapters.brokers.kafka_cluster import start_kafka_cluster
    from kafka_conformance.adapters.brokers.process import listening_addresses

    cluster = start_kafka_cluster(RELEASE, 3)
    try:
        cluster.wait_ready()
        for process in cluster.processes():
            found = listening_addresses(process.pid)
            assert found and {a for a, _ in found} <= {"127.0.0.1", "::ffff:127.0.0.1"}, found
        cluster.create_topic("t", 1, 3, 2)
        assert cluster.partitions("t")[0].leader == 0
        assert cluster.failover("t", 0) == 1
        assert cluster.partitions("t")[0].leader == 1
        cluster.crash_and_settle(1, "t")
        after = cluster.partitions("t")[0]
        assert after.leader in (0, 2) and 1 not in after.isr
        cluster.restart_and_settle(1, "t")
        assert 1 in cluster.partitions("t")[0].isr
    finally:
        cluster.stop()
    assert all(not p.running() for p in cluster.processes())
    assert not cluster.root.exists()


def test_one_cluster_serves_a_run_of_traces_and_is_whole_again_after_a_crash(need_release: None) -> None:
    # A trace of no-op steps leaves broker 1 down; row 7 crashes broker 0, row 24 moves a leader,
    # row 1 loses a response: one cluster for all four (a cluster takes ~15 s to start), the
    # crashed broker back before the next trace, each trace on a topic of its own.
    pytest.importorskip("kafka")
    from kafka_conformance.producer.check import run_and_judge
    from kafka_conformance.producer.engines import shared_brokers
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows
    from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep, ProducerTrace, SendStep

    # Steps the model takes as no-ops (a generated trace can hold them) are no-ops here too:
    # restarting a running broker, crashing one that is down, failing over a partition whose
    # only in-sync replica leads.
    noops = ProducerTrace([ClusterStep(ClusterAction.RESTART, broker=2), SendStep("a"), ClusterStep(ClusterAction.CRASH, broker=1),
                           ClusterStep(ClusterAction.CRASH, broker=1), ClusterStep(ClusterAction.FAILOVER, partition=0),
                           SendStep("b")], cluster=ClusterSpec(replication_factor=1, min_insync_replicas=1), name="no-ops")
    with shared_brokers() as pool:
        quiet = run_and_judge(noops, "kafka-python", broker=f"kafka-cluster:{RELEASE}", kafka_version=RELEASE)
        assert quiet.status is RunStatus.HOLDS, (quiet.error, quiet.verdicts)
        assert dict(quiet.counts)["acked"] == 2, quiet
        # broker 1 is down now: row 7 finds the cluster whole again
        rows = [*table_rows(["7"]), *table_rows(["24"]), *table_rows(["1"])]
        results = run_table("kafka-python", broker=f"kafka-cluster:{RELEASE}", kafka_version=RELEASE, rows=rows)
        assert [r.number for r in results] == ["7", "24", "1"]
        assert pool.started == 1
        (cluster,) = pool.live.values()
        processes = cluster.processes()
        assert len(processes) == 4 and all(p.running() for p in processes)
    for result in results:
        assert result.status is RunStatus.HOLDS, (result.number, result.error, result.anomalies, result.verdicts)
    assert [dict(r.counts)["acked"] for r in results] == [2, 2, 2]
    assert all(not p.running() for p in processes)
    assert not cluster.root.exists()


ZOOKEEPER_RELEASE = "2.7.2"


def test_a_zookeeper_mode_cluster_takes_a_crash_and_a_leader_move(need_release: None) -> None:
    # 2.4 to 3.2: the brokers share a ZooKeeper the kit starts; the same rows as on KRaft.
    pytest.importorskip("kafka")
    reason = kafka_broker_reason(ZOOKEEPER_RELEASE)
    if reason is not None:
        pytest.skip(f"kafka:{ZOOKEEPER_RELEASE}: {reason}")
    from kafka_conformance.adapters.brokers.process import listening_addresses
    from kafka_conformance.producer.engines import shared_brokers
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table, table_rows

    with shared_brokers() as pool:
        rows = [*table_rows(["7"]), *table_rows(["24"])]
        results = run_table("kafka-python", broker=f"kafka-cluster:{ZOOKEEPER_RELEASE}", kafka_version=ZOOKEEPER_RELEASE,
                            rows=rows)
        (cluster,) = pool.live.values()
        assert "ZooKeeper mode" in cluster.describe()
        processes = cluster.processes()
        assert len(processes) == 4
        for process in processes:
            found = listening_addresses(process.pid)
            assert found and {a for a, _ in found} <= {"127.0.0.1", "::ffff:127.0.0.1"}, found
    for result in results:
        assert result.status is RunStatus.HOLDS, (result.number, result.error, result.anomalies, result.verdicts)
    assert all(not p.running() for p in processes)


def test_steps_a_real_cluster_cannot_take_on_cue_refuse_the_trace_by_name(need_release: None) -> None:
    from kafka_conformance.producer.check import run_and_judge
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.trace_table import TRACE_TABLE

    (entry,) = [e for e in TRACE_TABLE if e.number == "21"]
    result = run_and_judge(entry.trace, "kafka-python", broker=f"kafka-cluster:{RELEASE}", kafka_version=RELEASE)
    assert result.status is RunStatus.REFUSED and "leaderless" in (result.error or "")


def test_nothing_outlives_a_cluster_run(need_release: None, tmp_path: Path) -> None:
    pytest.importorskip("kafka")
    marker = "kafka-cluster-" + tmp_path.name
    proc = start(["check", "producer", "--client", "kafka-python", "--broker", f"kafka-cluster:{RELEASE}",
                  "--kafka-version", RELEASE, "--max-examples", "1", "--seed", "3", "--failures-dir", str(tmp_path / "f")],
                 tmp_path, marker)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode in (0, 1), out + err
    assert "Traceback" not in err
    assert left_behind(marker) == []


@pytest.mark.parametrize(("broker", "says"), [
    ("kafka-cluster:2.3.1", "KIP-455"), ("kafka-cluster:3.9.1:9", "1 to 5"), ("kafka-cluster:", "needs an argument: kafka-cluster:VERSION"),
    ("kafka-cluster:9.9.9", "not a release"),
])
def test_a_cluster_the_kit_cannot_start_is_a_usage_error(broker: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "producer", "--client", "model", "--broker", broker]) == 2
    assert says in capsys.readouterr().err
