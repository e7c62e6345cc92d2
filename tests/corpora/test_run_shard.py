"""run_shard without Spark: one row per case, in order, whatever the target does."""

from __future__ import annotations

import pytest

from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite
from kafka_conformance.corpora.verdicts import Case, run_shard

SUITE = AuthorizerSuite()


def _cases(n: int = 60, seed: int = 5) -> list[Case]:
    settings = SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed")
    return generate_shard(SUITE, CorpusSpec("authorizer", seed, n, n, tuple(sorted(settings.items()))), 0)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return _cases()


def test_the_reference_passes_every_case_with_one_row_each(cases: list[Case]) -> None:
    checker = SUITE.open("reference", SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed"))
    rows = run_shard(cases, checker, SUITE.encode)
    checker.close()
    assert [r.case_id for r in rows] == [c.case_id for c in cases]
    assert {r.verdict for r in rows} == {"pass"}
    assert all(r.case is None and r.anomaly == "" and r.duration_us >= 0 for r in rows)


def test_divergences_become_fail_rows_carrying_the_case(cases: list[Case]) -> None:
    checker = SUITE.open("python:corpus_targets:groups_allowed",
                         SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed"))
    rows = run_shard(cases, checker, SUITE.encode)
    checker.close()
    assert len(rows) == len(cases)
    failed = [r for r in rows if r.verdict == "fail"]
    assert failed, "a target allowing every GROUP action must fail some case"
    for row in failed:
        assert row.anomaly and row.case is not None and "GROUP" in row.detail and "got ALLOWED" in row.detail
        assert row.signature.startswith(f"{row.property} | {row.anomaly} | expected ")
        assert SUITE.decode(row.case) == next(c.payload for c in cases if c.case_id == row.case_id)
    assert {r.verdict for r in rows} <= {"pass", "fail"}


def test_crashes_become_error_rows_and_the_shard_goes_on(cases: list[Case]) -> None:
    checker = SUITE.open("python:corpus_targets:crashes_on_cluster",
                         SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="well-formed"))
    rows = run_shard(cases, checker, SUITE.encode)
    checker.close()
    errors = [r for r in rows if r.verdict == "error"]
    assert errors and len(rows) == len(cases)
    assert all(r.anomaly == "adapter-error" and "cluster actions are not supported" in r.adapter_error for r in errors)
    assert any(r.verdict == "pass" for r in rows)


def test_properties_outside_the_targets_scope_are_skip_rows(cases: list[Case]) -> None:
    # An AclAuthorizer 2.0 target has no not-ready state and no by-type; those cases are skipped, not failed.
    settings = SUITE.generation_settings(target="reference:2.0.0:acl", kafka_version=None, flavour=None, mode="well-formed")
    checker = SUITE.open("reference:2.0.0:acl", settings)
    rows = run_shard([c for c in cases if c.property in ("not-ready", "by-type")], checker, SUITE.encode)
    checker.close()
    assert rows and {r.verdict for r in rows} == {"skip"}


def test_an_unusable_target_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="cannot import 'no_such_module'"):
        SUITE.open("python:no_such_module:factory", {"kafka_version": "4.3.0", "flavour": "standard"})
