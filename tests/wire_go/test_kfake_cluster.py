"""``kfake-cluster[:N]``: the trace table's failover rows on a kfake cluster, the steps kfake cannot
take refused by name, bad specs refused before anything starts, and nothing left behind."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.producer.engines import parse_broker
from kafka_conformance.producer.kfake_engine import kfake_refusal
from kafka_conformance.producer.table import table_rows
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, FlushStep, ProducerTrace, SendStep

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random

RUNS = ("7", "8", "24")
"""The rows with a crash, a restart-free crash with RF 3, and a failover: all run on kfake."""
REFUSED = {
    "8b": "partition 0 (replication factor 1) would have no live replica",
    "9": "partition 0 (replication factor 1) would have no live replica",
    "17": "kfake cannot take expire-producers",
    "21": "kfake cannot take leaderless",
}


@pytest.mark.parametrize("spec", ["kfake-cluster:0", "kfake-cluster:10", "kfake-cluster:x", "kfake-cluster:3:1"])
def test_a_bad_broker_count_is_refused_by_name(spec: str) -> None:
    with pytest.raises(TargetError, match=r"N is (the|a) number of brokers"):
        parse_broker(spec)


def test_a_bad_broker_count_on_the_command_line_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "matrix", "--client", "kafka-python",
                           "--broker", "kfake-cluster:12", "--row", "7"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "kfake-cluster:12: N is the number of brokers, 1 to 9" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("row", "reason"), sorted(REFUSED.items()))
def test_the_steps_kfake_cannot_take_refuse_the_row_with_the_reason(row: str, reason: str) -> None:
    (entry,) = table_rows([row])
    refusal = kfake_refusal(entry.trace, 3)
    assert refusal is not None and reason in refusal, refusal


def test_a_crash_is_refused_only_when_a_partition_loses_every_replica() -> None:
    rf1 = ProducerTrace([SendStep("v0"), ClusterStep(ClusterAction.CRASH, broker=2), FlushStep()])
    rf1 = ProducerTrace(rf1.steps, rf1.plan, rf1.producer, type(rf1.cluster)(replication_factor=1, min_insync_replicas=1))
    assert kfake_refusal(rf1, 3) is None  # broker 2 holds no replica of the one partition
    assert "this cluster has 2" in (kfake_refusal(rf1, 2) or "")


@pytest.mark.parametrize("client", ["kafka-python", "franz-go", "sarama"])
def test_the_failover_rows_hold_on_a_kfake_cluster(client: str, go_programs: dict[str, Path]) -> None:
    pytest.importorskip("kafka", reason="the fault proxy needs kafka-python (the clients extra)")
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import run_table

    results = run_table(client, broker="kfake-cluster", rows=table_rows([*RUNS, *REFUSED]))
    seen = {r.number: r for r in results}
    for number in RUNS:
        assert seen[number].status is RunStatus.HOLDS, (number, seen[number].error, seen[number].anomalies)
    for number, reason in REFUSED.items():
        assert seen[number].status is RunStatus.REFUSED and reason in seen[number].error, (number, seen[number].error)


def test_a_crashed_kfake_broker_drops_its_connections_and_a_restart_brings_it_back(go_programs: dict[str, Path]) -> None:
    pytest.importorskip("kafka", reason="the wire client needs kafka-python (the clients extra)")
    from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
    from kafka_conformance.adapters.go.kfake import kfake_cluster

    with kfake_cluster(3) as cluster:
        ports = [int(a.rpartition(":")[2]) for a in cluster.addresses]
        with WireClient("127.0.0.1", ports[0]) as on_zero:
            assert set(on_zero.metadata([])[0]) == {0, 1, 2}
            cluster.crash(0)
            with pytest.raises(WireError):
                on_zero.metadata([])  # the connection it had died with it
        with WireClient("127.0.0.1", ports[1]) as wire:
            assert set(wire.metadata([])[0]) == {1, 2}
        with pytest.raises(WireError, match="cannot connect"):
            WireClient("127.0.0.1", ports[0], timeout_s=2.0)
        cluster.restart(0)
        with WireClient("127.0.0.1", ports[0]) as wire:
            assert set(wire.metadata([])[0]) == {0, 1, 2}


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_kfake_cluster_run_stopped_at_a_random_moment_leaves_nothing(tmp_path: Path, sig: int, code: int,
                                                                       go_programs: dict[str, Path]) -> None:
    pytest.importorskip("kafka", reason="the fault proxy needs kafka-python (the clients extra)")
    returncode, out, err, left = stop_at_random(
        ["check", "matrix", "--client", "sarama", "--broker", "kfake-cluster", "--row", "7", "--row", "8", "--row", "24",
         "--failures-dir", str(tmp_path / "failures")],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, "kfake-broker"), within_s=1.0)
    assert returncode == code, out + err
    assert "Traceback" not in err, err[-3000:]
    assert left == []
