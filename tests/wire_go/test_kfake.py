"""kfake under the kit: 127.0.0.1 only, nothing outlives a run, and the recorded findings still stand."""

from __future__ import annotations

import json
import re
import signal
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.go.kfake import kfake_cluster, start_kfake
from kafka_conformance.adapters.reaper import OWNER_VAR, tagged

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random

CASES = Path(__file__).resolve().parent / "cases"
DOC = Path(__file__).resolve().parents[2] / "docs" / "broker-conformance.md"


def _gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


def test_kfake_listens_on_127_0_0_1_only_and_stops_with_its_block(go_programs: dict[str, Path]) -> None:
    with kfake_cluster(2) as cluster:
        pid, token = cluster.pid, cluster.process._token
        assert len(cluster.addresses) == 2
        assert {a for a, _ in cluster.listening} == {"127.0.0.1"}, cluster.listening
        assert {p for _, p in cluster.listening} == {int(a.rpartition(":")[2]) for a in cluster.addresses}
    assert _gone(pid)
    assert tagged(OWNER_VAR, token) == []


def test_kfake_moves_a_leader_on_command(go_programs: dict[str, Path]) -> None:
    from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

    with kfake_cluster(2) as cluster:
        for address in cluster.addresses:  # CreateTopics goes to kfake's controller, one of the two
            host, _, port = address.rpartition(":")
            try:
                with WireClient(host, int(port)) as wire:
                    wire.create_topic("moved", partitions=1, replication_factor=1)
                break
            except WireError:
                continue
        first = cluster.leader("moved", 0)
        other = 1 - first if first in (0, 1) else 0
        cluster.move("moved", 0, other)
        assert cluster.leader("moved", 0) == other


def test_kfake_stops_when_its_stdin_closes(go_programs: dict[str, Path]) -> None:
    cluster = start_kfake(1)
    try:
        stdin = cluster.process.proc.stdin
        assert stdin is not None
        stdin.close()
        assert cluster.process.proc.wait(30) == 0
    finally:
        cluster.stop()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_kfake_run_stopped_at_a_random_moment_leaves_nothing(tmp_path: Path, sig: int, code: int,
                                                               go_programs: dict[str, Path]) -> None:
    returncode, out, err, left = stop_at_random(
        ["check", "broker", "--target", "kfake", "--max-examples", "5000", "--seed", "1"],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, "kfake-broker"), within_s=1.0)
    assert returncode == code, out + err
    assert "Traceback" not in err, err[-3000:]
    assert left == []


def _recorded_kfake_column() -> dict[str, str]:
    """The kfake column of the conformance table in docs/broker-conformance.md: probe -> anomaly or "as Kafka"."""
    section = DOC.read_text(encoding="utf-8").split("### kfake", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    column = next(i for i, name in enumerate(rows[0]) if name.startswith("kfake"))
    out = {}
    for row in rows[1:]:
        cell = row[column]
        out[row[0]] = "as Kafka" if cell == "as Kafka" else "not reached" if cell.startswith("not reached") else cell.split(" ")[0]
    return out


def test_check_broker_on_kfake_matches_the_recorded_findings(tmp_path: Path, go_programs: dict[str, Path]) -> None:
    import subprocess

    report = tmp_path / "kfake.json"
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "broker", "--target", "kfake",
                           "--table", "--max-examples", "100", "--seed", "1", "--report-json", str(report)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr  # diverges
    data = json.loads(report.read_text())
    recorded = _recorded_kfake_column()
    seen = {}
    for probe in data["probes"]:
        if probe["status"] == "conforms":
            seen[probe["name"]] = "as Kafka"
        else:
            seen[probe["name"]] = probe["anomalies"][0]
    # sequence-wraparound is "not reached": refused at its non-zero start, which the check names
    if recorded.get("sequence-wraparound") == "not reached":
        assert seen["sequence-wraparound"] == "nonzero-first-sequence-rejected"
        seen["sequence-wraparound"] = "not reached"
    assert seen == recorded
    saved = {re.match(r"broker-(.+)-[0-9a-f]{10}\.json", p.name).group(1) for p in CASES.glob("broker-*.json")}  # type: ignore[union-attr]
    # every anomaly the run shows is recorded (a saved case each); which of them one seed's six
    # rounds reach depends on the generator, and each saved case is replayed on its own below
    assert set(data["anomalies"]) <= saved, (data["anomalies"], saved)


@pytest.mark.parametrize("case", sorted(CASES.glob("broker-*.json")), ids=lambda p: p.stem)
def test_each_saved_kfake_case_still_diverges(case: Path, go_programs: dict[str, Path]) -> None:
    from kafka_conformance.broker.check import replay_broker_case

    result = replay_broker_case(case)
    anomaly = re.match(r"broker-(.+)-[0-9a-f]{10}$", case.stem).group(1)  # type: ignore[union-attr]
    assert result.status == "FAILED", result
    assert anomaly in result.anomalies, result
