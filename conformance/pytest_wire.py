"""pytest entry points for the producer and broker suites (re-exported by the plugin).

In a test module or ``conftest.py``::

    from kafka_conformance.pytest_plugin import broker_tests, producer_tests

    TestKafkaPython = producer_tests("kafka-python")             # against the test broker
    TestOurBroker = broker_tests("bootstrap:127.0.0.1:9092")     # a broker you run

``producer_tests`` makes one test per row of the trace table (so a CI report
names the failure trace that broke, e.g. ``test_row_19``) plus one over
Hypothesis-generated traces, all on one Apache Kafka broker or cluster when the
broker is one (started once for the class); ``broker_tests`` one test over the
probe table and generated crafted requests.  Both are thin wrappers over
:func:`~kafka_conformance.producer.check.check_producer`,
:func:`~kafka_conformance.producer.table.run_table` and
:func:`~kafka_conformance.broker.check.check_broker`: the same checks, reports
and saved cases as the CLI.  Nothing heavy is imported until a test runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["broker_tests", "failures_folder", "producer_tests"]



def _seed(request: pytest.FixtureRequest) -> int | None:
    seed = request.config.getoption("hypothesis_seed", default=None)
    return int(seed) if seed is not None else None


def producer_tests(
    client: str,
    *,
    broker: str = "test-broker",
    kafka_version: str | None = None,
    max_examples: int = 10,
    failures_dir: str | None = None,
) -> type:
    """A test class running ``client`` through every trace-table row and generated traces.

    An unknown client name is refused here, at collection, not once per test."""
    from kafka_conformance.adapters.targets import Role, TargetError, parse_target
    from kafka_conformance.producer.trace_table import TRACE_TABLE

    try:
        parse_target(client, Role.CLIENT)  # the one grammar: what check producer --client takes
    except TargetError as exc:
        raise pytest.UsageError(f"producer_tests: {exc}") from None

    def row_test(number: str, name: str) -> Any:
        def test(self: Any, request: pytest.FixtureRequest) -> None:
            _run_row(client, broker, _release(kafka_version), number, _failures(request, failures_dir))

        test.__name__ = "test_row_" + number
        test.__doc__ = f"trace table row {number}: {name}"
        return test

    namespace: dict[str, Any] = {"test_row_" + r.number: row_test(r.number, r.name) for r in TRACE_TABLE}

    def test_generated_traces(self: Any, request: pytest.FixtureRequest) -> None:
        """Hypothesis-generated failure traces, shrunk and saved when a guarantee breaks."""
        from kafka_conformance.adapters.targets import TargetError
        from kafka_conformance.options import Options
        from kafka_conformance.producer.check import check_producer
        from kafka_conformance.producer.render import to_text

        try:
            options = Options(kafka_version=_release(kafka_version), seed=_seed(request), max_examples=max_examples,
                              failures_dir=_failures(request, failures_dir))
            report = check_producer(client, options, broker=broker)
        except TargetError as exc:
            raise pytest.UsageError(str(exc)) from exc
        if report.exit_code != 0:
            pytest.fail(to_text(report), pytrace=False)

    @pytest.fixture(scope="class", autouse=True)
    def kafka_conformance_shared_brokers(self: Any) -> Iterator[None]:
        """Apache Kafka (``kafka:``, ``kafka-cluster:``) starts once for the class's tests, not per row."""
        from kafka_conformance.producer.engines import shared_brokers

        with shared_brokers():
            yield

    namespace["pytestmark"] = [pytest.mark.usefixtures("kafka_conformance_scope")]
    namespace["test_generated_traces"] = test_generated_traces
    namespace["kafka_conformance_shared_brokers"] = kafka_conformance_shared_brokers
    namespace["kafka_conformance_client"] = client
    return type("KafkaProducerConformance", (), namespace)


def failures_folder(config: pytest.Config, chosen: str | Path | None = None) -> Path:
    """Where the kit's tests save minimal cases: ``chosen``, else ``--kafka-conformance-failures-dir``
    (or its ini key), else a folder in pytest's cache directory (never a new folder in the user's
    working directory)."""
    named = chosen or config.getoption("kafka_conformance_failures_dir", default=None) or \
        config.getini("kafka_conformance_failures_dir")
    if named:
        return Path(named)
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("kafka-conformance-failures"))
    return Path(config.rootpath) / ".pytest_cache" / "d" / "kafka-conformance-failures"


def _release(chosen: str | None) -> str:
    """The release to hold a target to: the one chosen, else the kit's default (imported here: the
    plugin loads in every pytest session and must stay light)."""
    from kafka_conformance.reference.releases import DEFAULT_RELEASE

    return chosen or DEFAULT_RELEASE


def _failures(request: pytest.FixtureRequest, chosen: str | None) -> Path:
    return failures_folder(request.config, chosen)


def _run_row(client: str, broker: str, kafka_version: str, number: str, failures_dir: Path) -> None:
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.producer.render import describe_run
    from kafka_conformance.producer.report import RunStatus
    from kafka_conformance.producer.table import ColumnUnusable, run_table, table_rows

    try:
        (result,) = run_table(client, broker=broker, kafka_version=kafka_version, rows=table_rows([number]),
                              failures_dir=failures_dir)
    except TargetError as exc:
        raise pytest.UsageError(str(exc)) from exc
    except ColumnUnusable as exc:
        pytest.skip(f"{client} cannot run against {broker} here: {exc}")
    if result.status is RunStatus.REFUSED:
        pytest.skip(f"n/a: {result.error or 'the client or broker cannot express this trace'}")
    if result.status is RunStatus.UNKNOWN:
        pytest.skip("the run could not settle every guarantee (see the notes): " + "; ".join(result.notes))
    if result.status in (RunStatus.CLIENT, RunStatus.BROKER, RunStatus.ERROR):
        pytest.fail("\n".join(describe_run(result)), pytrace=False)


def broker_tests(target: str, *, kafka_version: str | None = None, max_examples: int = 100,
                 failures_dir: str | None = None) -> type:
    """A test class holding the broker ``target`` to the reference broker of ``kafka_version``
    (default: :data:`~kafka_conformance.reference.releases.DEFAULT_RELEASE`)."""

    def test_crafted_requests(self: Any, request: pytest.FixtureRequest) -> None:
        """The probe table and generated crafted Produce sequences, answer by answer and log against log."""
        from kafka_conformance.adapters.targets import TargetError
        from kafka_conformance.broker.check import check_broker
        from kafka_conformance.broker.report import render_broker_text
        from kafka_conformance.options import Options

        try:
            options = Options(kafka_version=_release(kafka_version), seed=_seed(request), max_examples=max_examples,
                              failures_dir=_failures(request, failures_dir))
            report = check_broker(target, options, table=True)
        except TargetError as exc:
            raise pytest.UsageError(str(exc)) from exc
        if report.verdict != "conforms":
            pytest.fail(render_broker_text(report), pytrace=False)

    return type("KafkaBrokerConformance", (), {"test_crafted_requests": test_crafted_requests, "kafka_conformance_target": target,
                                               "pytestmark": [pytest.mark.usefixtures("kafka_conformance_scope")]})
