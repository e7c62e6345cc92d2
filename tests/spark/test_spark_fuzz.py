"""Fuzz runs on a local Spark session: the same verdicts as one process, every
case accounted for when a Python worker is killed mid-run, resume, failures
shrunk and saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import FuzzSpec, process_shards, reconcile, start_run, verdict_path
from kafka_conformance.corpora.generate import CorpusSpec
from kafka_conformance.corpora.parquet_io import read_columns
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite

SETTINGS = tuple(sorted(AuthorizerSuite().generation_settings(target=None, kafka_version=None, flavour=None,
                                                                mode="well-formed").items()))


def _spec(out: Path, target: str, cases: int, shard_size: int, seed: int = 1) -> FuzzSpec:
    return FuzzSpec(str(out), target, CorpusSpec("authorizer", seed, cases, shard_size, SETTINGS))


def _verdicts(spec: FuzzSpec) -> list[tuple[str, str, str]]:
    rows = []
    for k in range(spec.cases.plan.shards):
        cols = read_columns(verdict_path(Path(spec.out), k), ["case_id", "verdict", "anomaly"])
        rows += list(zip(cols["case_id"], cols["verdict"], cols["anomaly"], strict=True))
    return rows


def test_spark_gives_the_verdicts_of_one_process(spark: Any, tmp_path: Path) -> None:
    on_spark = _spec(tmp_path / "spark", "python:corpus_targets:groups_allowed", 300, 50)
    inline = _spec(tmp_path / "inline", "python:corpus_targets:groups_allowed", 300, 50)
    s = run_campaign(on_spark, master=None, spark=spark, partitions=3)
    i = run_campaign(inline, master=None)
    assert s.executor.startswith("Spark local[2") and i.executor == "one process"
    assert _verdicts(on_spark) == _verdicts(inline)
    assert s.verdicts == i.verdicts and s.exit_code == 1
    assert [(f.signature, f.count) for f in s.failures] == [(f.signature, f.count) for f in i.failures]
    assert all(f.saved_to is not None and Path(f.saved_to).exists() for f in s.failures)


def test_a_killed_python_worker_loses_and_doubles_nothing(spark: Any, tmp_path: Path) -> None:
    from corpus_targets import arm_die_once, disarm_die_once

    marker = tmp_path / "killed"
    spec = _spec(tmp_path / "run", "python:corpus_targets:dies_once", 400, 25)
    # The worker that reaches its 150th target creation (mid-partition, after some
    # shards are written) SIGKILLs itself; Spark retries the task.
    arm_die_once(marker, after=150)
    try:
        summary = run_campaign(spec, master=None, spark=spark, partitions=2)
    finally:
        disarm_die_once()
    assert marker.exists(), "no worker was killed: the test did not test anything"
    assert dict(summary.verdicts) == {"pass": 400}
    assert reconcile(spec) == 400
    ids = [cid for cid, _, _ in _verdicts(spec)]
    assert len(ids) == len(set(ids)) == 400


def test_an_interrupted_run_resumes_on_spark(spark: Any, tmp_path: Path) -> None:
    spec = _spec(tmp_path, "reference-indexed", 200, 40, seed=3)
    start_run(spec)
    list(process_shards(spec, [0, 4]))
    kept = verdict_path(tmp_path, 4).stat().st_mtime_ns
    summary = run_campaign(spec, master=None, spark=spark)
    assert summary.resumed_shards == 2 and dict(summary.verdicts) == {"pass": 200}
    assert verdict_path(tmp_path, 4).stat().st_mtime_ns == kept


@pytest.mark.parametrize(("master", "expected"), [("local[*]", "local[*,4]"), ("local[3]", "local[3,4]"),
                                                  ("local[2,1]", "local[2,1]"), ("spark://127.0.0.1:7077", "spark://127.0.0.1:7077")])
def test_local_masters_get_task_retries(master: str, expected: str) -> None:
    from kafka_conformance.corpora.spark_job import with_retries

    assert with_retries(master) == expected


def test_each_partition_starts_its_own_broker(spark: Any, tmp_path: Path) -> None:
    from kafka_conformance.broker.targets import available
    from kafka_conformance.corpora.suites.broker import BrokerSuite

    if not available()["noida"].ok:
        pytest.skip("noida-db is not installed")
    settings = tuple(sorted(BrokerSuite().generation_settings(target=None, kafka_version=None, flavour=None,
                                                              mode="well-formed").items()))
    on_spark = FuzzSpec(str(tmp_path / "spark"), "noida", CorpusSpec("broker", 2, 120, 30, settings))
    inline = FuzzSpec(str(tmp_path / "inline"), "noida", CorpusSpec("broker", 2, 120, 30, settings))
    s = run_campaign(on_spark, master=None, spark=spark, partitions=4)
    i = run_campaign(inline, master=None)
    assert _verdicts(on_spark) == _verdicts(inline) and s.verdicts == i.verdicts and s.exit_code == 1


def test_a_corpus_generated_on_spark_equals_one_generated_here(spark: Any, tmp_path: Path) -> None:
    from kafka_conformance.corpora.generate import generate_corpus, shard_path
    from kafka_conformance.corpora.spark_job import generate_on_spark

    spec = CorpusSpec("authorizer", 6, 90, 30, SETTINGS)
    generate_on_spark(str(tmp_path / "spark"), spec, master=None, spark=spark)
    generate_corpus(tmp_path / "here", spec)
    for k in range(3):
        cols = ["case_id", "property", "case"]
        assert read_columns(shard_path(tmp_path / "spark", k), cols) == read_columns(shard_path(tmp_path / "here", k), cols)
