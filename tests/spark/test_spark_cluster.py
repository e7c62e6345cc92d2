"""The fuzz job submitted with spark-submit to a real standalone cluster (a master
and a worker on 127.0.0.1), with a Python worker killed mid-run: every case
accounted for.  Runs only with KAFKA_CONFORMANCE_SPARK_CLUSTER=1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from spark_cluster import cluster_env, spark_home, standalone_cluster

from kafka_conformance.corpora import spark_job

TARGETS = Path(__file__).resolve().parents[1] / "corpora" / "corpus_targets.py"


@pytest.mark.spark_cluster
def test_fuzz_on_a_standalone_cluster_accounts_for_every_case(tmp_path: Path) -> None:
    sys.path.insert(0, str(TARGETS.parent))
    from corpus_targets import arm_die_once, disarm_die_once

    home = spark_home()
    marker = tmp_path / "killed"
    with standalone_cluster(tmp_path) as url:
        env = {**cluster_env(home), "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
        arm_die_once(marker, after=120)
        try:
            done = subprocess.run(
                [str(home / "bin" / "spark-submit"), "--master", url, "--conf", "spark.driver.host=127.0.0.1",
                 "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf", "spark.executor.memory=1g",
                 "--py-files", str(TARGETS), spark_job.__file__,
                 "--target", "python:corpus_targets:dies_once", "--cases", "2000", "--shard-size", "100",
                 "--partitions", "4", "--out", str(tmp_path / "run"), "--report-json", str(tmp_path / "summary.json")],
                capture_output=True, text=True, env=env, timeout=600, check=False, cwd=tmp_path)
        finally:
            disarm_die_once()
    assert done.returncode == 0, done.stdout + done.stderr[-5000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["executor"] == f"Spark {url}"
    assert summary["verdicts"] == {"pass": 2000} and summary["cases"] == 2000
    assert marker.exists(), "no Python worker was killed"
    assert "every case accounted for" in done.stdout


@pytest.mark.spark_cluster
def test_packed_environment_recipe_runs_on_a_standalone_cluster(tmp_path: Path) -> None:
    """docs/corpora.md's recommended way to ship the kit: this very environment
    (tox installs the kit into it as a wheel) packed with venv-pack, shipped with
    ``--archives env.tar.gz#env`` and run by executors as ``./env/bin/python``.
    That relative path exists only where the archive was unpacked, so a run that
    passes proves the executors used the shipped environment."""
    venv_pack = Path(sys.executable).parent / "venv-pack"
    assert venv_pack.exists(), "the spark-cluster environment installs venv-pack"
    archive = tmp_path / "env.tar.gz"
    packed = subprocess.run([str(venv_pack), "--prefix", sys.prefix, "--output", str(archive)],
                            capture_output=True, text=True, timeout=600, check=False)
    assert packed.returncode == 0, packed.stdout + packed.stderr

    home = spark_home()
    with standalone_cluster(tmp_path) as url:
        env = {**cluster_env(home), "PYSPARK_PYTHON": "./env/bin/python", "PYSPARK_DRIVER_PYTHON": sys.executable}
        done = subprocess.run(
            [str(home / "bin" / "spark-submit"), "--master", url, "--conf", "spark.driver.host=127.0.0.1",
             "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf", "spark.executor.memory=1g",
             "--archives", f"{archive}#env", spark_job.__file__,
             "--target", "reference", "--cases", "1000", "--shard-size", "250", "--partitions", "4",
             "--out", str(tmp_path / "run"), "--report-json", str(tmp_path / "summary.json")],
            capture_output=True, text=True, env=env, timeout=600, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr[-5000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["executor"] == f"Spark {url}" and summary["cases"] == 1000
    assert sum(summary["verdicts"].values()) == 1000 and summary["verdicts"].get("error", 0) == 0
    unpacked = list((tmp_path / "work").glob("app-*/*/env/bin/python"))
    assert unpacked, "the worker never unpacked the archive"
