"""The corpus format: manifest, Parquet columns, stable ids, resume and refusal."""

from __future__ import annotations

import json
from pathlib import Path

import hypothesis
import pytest

from kafka_conformance import __version__
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.corpora.generate import SCHEMA_VERSION, CorpusSpec, generate_corpus, load_corpus, read_corpus_shard
from kafka_conformance.corpora.manifest import IncompatibleDirectory
from kafka_conformance.corpora.parquet_io import CASE_COLUMNS
from kafka_conformance.corpora.shards import GENERATION
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite
from kafka_conformance.corpora.suites.registry import UnknownSuite, available_suites, get_suite


def _spec(cases: int = 25, shard_size: int = 10, seed: int = 3, mode: str = "well-formed") -> CorpusSpec:
    settings = AuthorizerSuite().generation_settings(target=None, kafka_version="3.9.0", flavour="acl", mode=mode)
    return CorpusSpec("authorizer", seed, cases, shard_size, tuple(sorted(settings.items())))


def test_corpus_files_hold_every_documented_column(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    spec = _spec()
    generate_corpus(tmp_path, spec)
    files = sorted((tmp_path / "cases").glob("*.parquet"))
    assert [f.name for f in files] == ["shard-000000.parquet", "shard-000001.parquet", "shard-000002.parquet"]
    table = pq.read_table(files[2])
    assert table.column_names == list(CASE_COLUMNS)
    rows = table.to_pylist()
    assert [r["case_id"] for r in rows] == [f"authorizer/3/2/{i}" for i in range(5)]
    row = rows[0]
    assert (row["suite"], row["kafka_version"], row["flavour"], row["mode"]) == ("authorizer", "3.9.0", "acl", "well-formed")
    assert row["schema_version"] == SCHEMA_VERSION and row["seed"] == 3 and row["shard"] == 2
    assert row["generator_version"] == (f"kafka-conformance {__version__}; generation {GENERATION}; "
                                        f"hypothesis {hypothesis.__version__}")
    assert "scenario" not in json.loads(row["case"]) and "acls" in json.loads(row["case"])
    manifest = json.loads((tmp_path / "corpus.json").read_text())
    assert manifest["shards"] == 3 and manifest["cases"] == 25 and manifest["settings"]["flavour"] == "acl"


def test_cases_read_back_as_scenarios_of_the_properties_in_scope(tmp_path: Path) -> None:
    spec = _spec()
    generate_corpus(tmp_path, spec)
    assert load_corpus(tmp_path) == spec
    cases = [c for k in range(3) for c in read_corpus_shard(tmp_path, spec, k, AuthorizerSuite())]
    assert len(cases) == 25 and all(isinstance(c.payload, Scenario) for c in cases)
    props = list(AuthorizerSuite().properties(spec.settings_map))
    assert [c.property for c in cases[:10]] == [props[i % len(props)] for i in range(10)]
    # AclAuthorizer 3.9.0 has no not-ready state: no case is generated for that property.
    assert "not-ready" not in props and "authorize" in props


def test_an_existing_corpus_is_resumed_and_a_different_one_refused(tmp_path: Path) -> None:
    spec = _spec()
    generate_corpus(tmp_path, spec, shards=[1])
    assert [p.name for p in (tmp_path / "cases").iterdir()] == ["shard-000001.parquet"]
    before = (tmp_path / "cases" / "shard-000001.parquet").stat().st_mtime_ns
    assert generate_corpus(tmp_path, spec) is True
    assert (tmp_path / "cases" / "shard-000001.parquet").stat().st_mtime_ns == before
    assert len(list((tmp_path / "cases").glob("*.parquet"))) == 3
    with pytest.raises(IncompatibleDirectory, match="seed: 3 there, 4 now"):
        generate_corpus(tmp_path, _spec(seed=4))


def test_bad_corpus_directories_are_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"corpus\.json: cannot read"):
        load_corpus(tmp_path)
    (tmp_path / "corpus.json").write_text('{"format": "kafka-conformance/corpus", "schema_version": 99}')
    with pytest.raises(ValueError, match="schema version 99 is not supported"):
        load_corpus(tmp_path)
    spec = _spec()
    (tmp_path / "corpus.json").unlink()
    generate_corpus(tmp_path, spec, shards=[0])
    with pytest.raises(ValueError, match="shard 1 of the corpus is missing"):
        read_corpus_shard(tmp_path, spec, 1, AuthorizerSuite())


def test_unknown_suites_are_refused_naming_those_available() -> None:
    assert "authorizer" in available_suites()
    with pytest.raises(UnknownSuite, match=r"unknown suite 'nope'; available: .*authorizer"):
        get_suite("nope")
