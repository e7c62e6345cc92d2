"""Exact accounting without Spark: every planned case has one verdict row, runs
resume from the shards written, and a lost or doubled case is refused loudly."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import AccountingError, FuzzSpec, process_shards, reconcile, start_run, verdict_path
from kafka_conformance.corpora.generate import CorpusSpec, generate_corpus
from kafka_conformance.corpora.manifest import IncompatibleDirectory
from kafka_conformance.corpora.parquet_io import VERDICT_COLUMNS, manifest_digest, read_columns, write_atomically
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite

SETTINGS = tuple(sorted(AuthorizerSuite().generation_settings(target=None, kafka_version=None, flavour=None,
                                                                mode="well-formed").items()))


def _spec(out: Path, target: str = "reference", cases: int = 45, seed: int = 1, shard_size: int = 10) -> FuzzSpec:
    return FuzzSpec(str(out), target, CorpusSpec("authorizer", seed, cases, shard_size, SETTINGS))


def test_a_run_accounts_for_every_case(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    summary = run_campaign(spec, master=None)
    assert summary.cases == 45 and dict(summary.verdicts) == {"pass": 45} and summary.exit_code == 0
    assert reconcile(spec) == 45
    assert [p.name for p in sorted((tmp_path / "verdicts").iterdir())] == [f"shard-00000{k}.parquet" for k in range(5)]
    assert (tmp_path / "summary.json").exists() and (tmp_path / "summary.md").exists()


def test_an_interrupted_run_resumes_from_the_shards_written(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    assert start_run(spec) == [0, 1, 2, 3, 4]
    assert [k for k, _ in process_shards(spec, [1, 3])] == [1, 3]
    written = {k: verdict_path(tmp_path, k).stat().st_mtime_ns for k in (1, 3)}
    (tmp_path / "verdicts" / ".shard-000002.parquet.99.dead.tmp").write_bytes(b"half a file")
    with pytest.raises(AccountingError, match=r"shard 0: no verdict file; shard 2: no verdict file"):
        reconcile(spec)
    summary = run_campaign(spec, master=None)
    assert summary.resumed_shards == 2 and summary.cases == 45
    assert {k: verdict_path(tmp_path, k).stat().st_mtime_ns for k in (1, 3)} == written
    assert not list((tmp_path / "verdicts").glob(".*"))


def test_a_retried_task_does_not_write_a_shard_twice(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    start_run(spec)
    first = list(process_shards(spec, [0, 1]))
    before = verdict_path(tmp_path, 0).stat().st_mtime_ns
    assert list(process_shards(spec, [0, 1])) == first  # the retry finds both shards whole
    assert verdict_path(tmp_path, 0).stat().st_mtime_ns == before


def test_lost_and_doubled_rows_are_refused(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    run_campaign(spec, master=None)
    digest = manifest_digest(spec.manifest())
    path = verdict_path(tmp_path, 2)
    cols = read_columns(path, list(VERDICT_COLUMNS))
    doubled = {name: values + values[:1] for name, values in cols.items()}
    write_atomically(path, VERDICT_COLUMNS, doubled, belongs_to=digest, shard=2)
    with pytest.raises(AccountingError, match=r"shard-000002\.parquet: holds 11 rows \(it says 11\), the plan has 10"):
        reconcile(spec)
    lost = {name: values[1:] for name, values in cols.items()}
    write_atomically(path, VERDICT_COLUMNS, lost, belongs_to=digest, shard=2)
    with pytest.raises(AccountingError, match=r"45 cases planned, 35 verdict rows found: .*holds 9 rows"):
        reconcile(spec)
    swapped = {name: values[:1] + values[:-1] for name, values in cols.items()}  # as many rows, one case twice
    write_atomically(path, VERDICT_COLUMNS, swapped, belongs_to=digest, shard=2)
    with pytest.raises(AccountingError, match=r"shard 2: 10 rows for 10 cases \(1 missing, 0 unknown, 1 doubled\)"):
        reconcile(spec)
    write_atomically(path, VERDICT_COLUMNS, cols, belongs_to=digest, shard=2)
    write_atomically(verdict_path(tmp_path, 7), VERDICT_COLUMNS, cols, belongs_to=digest, shard=7)
    with pytest.raises(AccountingError, match=r"outside the plan: shard-000007\.parquet"):
        reconcile(spec)


def test_a_directory_holding_another_run_is_refused(tmp_path: Path) -> None:
    run_campaign(_spec(tmp_path), master=None)
    with pytest.raises(IncompatibleDirectory, match=r"seed: 1 there, 2 now"):
        run_campaign(_spec(tmp_path, seed=2), master=None)
    with pytest.raises(IncompatibleDirectory, match=r"target: 'reference' there, 'reference-indexed' now"):
        run_campaign(_spec(tmp_path, target="reference-indexed"), master=None)


def test_failures_are_grouped_shrunk_and_saved_replayable(tmp_path: Path) -> None:
    from kafka_conformance.authorizer.check import run_property_once
    from kafka_conformance.authorizer.saved import load_case
    from kafka_conformance.authorizer.targets import resolve_target

    summary = run_campaign(_spec(tmp_path, target="python:corpus_targets:groups_allowed", cases=150, shard_size=50), master=None)
    assert summary.exit_code == 1
    counts = dict(summary.verdicts)
    assert counts["fail"] == sum(f.count for f in summary.failures) == sum(n for _, n in summary.anomalies)
    assert len({f.signature for f in summary.failures}) == len(summary.failures)
    for group in summary.failures:
        assert group.saved_to is not None and group.size_after <= group.size_before
        case = load_case(group.saved_to)
        assert case.anomaly == group.anomaly and case.property == group.property
        again = run_property_once(case.property, resolve_target(case.target), case.scenario)
        assert again.status.value == "failed"
        # the group's identity is the saved (shrunk) case's signature, as check and report name it
        assert again.counterexample is not None and group.signature == str(again.counterexample.signature)
        assert run_property_once(case.property, resolve_target("reference"), case.scenario).status.value == "passed"


def test_a_stored_corpus_runs_case_for_case(tmp_path: Path) -> None:
    cases = CorpusSpec("authorizer", 9, 30, 10, SETTINGS)
    generate_corpus(tmp_path / "corpus", cases)
    spec = FuzzSpec(str(tmp_path / "run"), "reference-indexed", cases, str(tmp_path / "corpus"))
    summary = run_campaign(spec, master=None)
    assert dict(summary.verdicts) == {"pass": 30}
    ids = read_columns(verdict_path(tmp_path / "run", 1), ["case_id"])["case_id"]
    assert ids == read_columns(tmp_path / "corpus" / "cases" / "shard-000001.parquet", ["case_id"])["case_id"]
