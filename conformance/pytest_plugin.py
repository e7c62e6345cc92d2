"""pytest plugin: run the authorizer suite as ordinary pytest tests.

A thin wrapper over :func:`kafka_conformance.check_authorizer`.  In a test
module or ``conftest.py``::

    from kafka_conformance.pytest_plugin import authorizer_tests

    TestMyAuthorizer = authorizer_tests("python:my_authorizer:factory")

makes one test per property.  With no argument the target comes from
``--kafka-conformance-target`` (or the ``kafka_conformance_target`` ini key).
``producer_tests("kafka-python")`` and ``broker_tests("tansu")`` do the same for
the producer and broker suites (:mod:`kafka_conformance.pytest_wire`).

The plugin is a guest in the user's session.  Installed, it registers options,
a marker and three Hypothesis profiles (``kafka-conformance-smoke``, ``-ci``,
``-nightly``, for users to choose with ``--hypothesis-profile``; it never loads
one), and nothing else: a session without the kit's tests runs exactly as
without the plugin.  Only the kit's generated test classes use its fixtures
(:func:`kafka_conformance_scope`): while one of their tests runs, the processes
it starts carry the session's tag and SIGTERM stops the run as Ctrl-C does;
when the session ends, the targets are closed and whatever still carries the
tag is stopped.  Saved cases go to the folder named by
``--kafka-conformance-failures-dir`` (or the ini key), else to pytest's cache
directory (``.pytest_cache/d/kafka-conformance-failures``), where later runs ask
them again first.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka_conformance.pytest_wire import broker_tests, failures_folder, producer_tests

__all__ = ["authorizer_tests", "broker_tests", "failures_folder", "kafka_conformance_scope", "producer_tests"]


AST_THREAD_BUG = (3, 11) <= sys.version_info[:3] < (3, 11, 8) or (3, 12) <= sys.version_info[:3] < (3, 12, 2)
"""Whether this interpreter converts AST objects with one recursion counter for all threads
(CPython gh-106905)."""


def _leave_the_kit_unrewritten() -> None:
    """Keep pytest's assertion rewriting off the kit's own modules.

    pytest rewrites every module of a plugin's distribution, so each kit module imported
    lazily (a broker adapter, the JVM bridge) is turned into Python AST objects at its first
    use, often while the kit's own threads run (the test broker's event loop, py4j's threads).
    On CPython 3.11 that conversion keeps its recursion depth per interpreter, not per thread,
    and two threads converting at once fail with "AST constructor recursion depth mismatch"
    (CPython gh-106905, pytest #10763): a user's test run dies on a SystemError that has
    nothing to do with their implementation. The kit's few asserts are internal checks with
    messages of their own, so rewriting them gains nothing, and a plain import compiles
    without building AST objects.

    pytest has no public switch for this, so on the interpreters that carry the bug (3.11.0 to
    3.11.7, 3.12.0 and 3.12.1; the fix, python/cpython#113476 and #113472, is in 3.11.8 and
    3.12.2, and 3.10 has no such check) the kit's name is taken out of the import hook's marked
    set: the one place the plugin touches an attribute of pytest's that is not public.  On a
    fixed interpreter it touches nothing; on a pytest whose hook looks different it does nothing
    (the tests in ``tests/plugin`` notice).
    """
    if not AST_THREAD_BUG:
        return
    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if not isinstance(marked, set) or "kafka_conformance" not in marked:
            continue
        marked.discard("kafka_conformance")
        cache = getattr(finder, "_marked_for_rewrite_cache", None)
        if isinstance(cache, dict):
            for name in [n for n in cache if n.split(".")[0] == "kafka_conformance"]:
                del cache[name]


_leave_the_kit_unrewritten()

_OPTIONS = (
    ("target", "target spec, e.g. reference or python:pkg.mod:factory", None),
    ("kafka-version", "Kafka release whose semantics to check against", None),
    ("flavour", "standard (KRaft StandardAuthorizer) or acl (ZooKeeper AclAuthorizer)", None),
    ("mode", "generation mode: mixed (default), well-formed or hostile", "mixed"),
    ("kafka-bugs", "where the release has a known bug of its own, expect its answer (as-released, the default) "
                   "or the documented one (documented)", None),
    ("properties", "comma-separated properties to run (default: all)", None),
    ("timeout", "seconds one call into the target may take before the run ends with an adapter error (default: 10)", None),
    ("failures-dir", "where minimal failing cases are saved and asked again first (default: pytest's cache directory)", None),
)
_WARNINGS_KEY = pytest.StashKey[list[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kafka-conformance", "Kafka authorizer conformance")
    for name, help_text, default in _OPTIONS:
        ini = "kafka_conformance_" + name.replace("-", "_")
        group.addoption(f"--kafka-conformance-{name}", dest=ini, default=None, help=help_text)
        parser.addini(ini, help=help_text, default=default)


def pytest_configure(config: pytest.Config) -> None:
    _leave_the_kit_unrewritten()  # each Config (pytester's in-process runs too) installs a hook of its own
    config.addinivalue_line("markers", "kafka_conformance(property): a kafka-conformance property test")
    config.stash[_WARNINGS_KEY] = []
    from hypothesis import HealthCheck, settings

    # Registering is not loading: the user chooses with --hypothesis-profile.
    settings.register_profile("kafka-conformance-smoke", max_examples=25, deadline=None)
    settings.register_profile("kafka-conformance-ci", max_examples=200, deadline=None, derandomize=True,
                              database=None, suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("kafka-conformance-nightly", max_examples=5000, deadline=None)


def _stop_on_sigterm() -> Callable[[], None]:
    """During the session, SIGTERM stops the run as Ctrl-C does; returns what undoes that.

    pytest leaves SIGTERM at its default action, which ends the process at once: no fixture
    is torn down and the session's clean-up never runs, so every broker, JVM and process a
    fixture started is left running.  A CI system cancelling a job sends SIGTERM.  So, when
    nobody else handles it (an outer session, a pytester run, the user's own handler), it
    raises KeyboardInterrupt: pytest stops, tears the fixtures down and ends with "interrupted"
    (exit code 2), and the session's scope stops whatever still carries its tag."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return lambda: None
    from kafka_conformance.adapters.reaper import request_stop

    def terminated(signum: int, frame: object) -> None:
        request_stop(KeyboardInterrupt)  # re-raised at the kit's next check, should this one be lost
        raise KeyboardInterrupt(f"signal {signum} (SIGTERM): the run was stopped")

    signal.signal(signal.SIGTERM, terminated)

    def restore() -> None:
        if signal.getsignal(signal.SIGTERM) is terminated:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return restore


def _option(config: pytest.Config, name: str) -> str | None:
    key = "kafka_conformance_" + name.replace("-", "_")
    value = config.getoption(key, default=None)
    if value is None:
        value = config.getini(key) or None
    return value


@pytest.fixture(scope="session")
def _kafka_conformance_session() -> Iterator[str]:
    """The kit's share of the session, from its first test on: the tag its processes carry and
    SIGTERM as Ctrl-C; at the end, every target closed and every tagged process stopped."""
    from kafka_conformance.adapters import reaper

    token = uuid.uuid4().hex
    restore = _stop_on_sigterm()
    try:
        yield token
    finally:
        try:
            targets = sys.modules.get("kafka_conformance.authorizer.targets")
            if targets is not None:
                targets.close_targets()
        finally:
            try:
                reaper.stop_tagged(reaper.RUN_VAR, token)
            finally:
                restore()


@pytest.fixture
def kafka_conformance_scope(_kafka_conformance_session: str) -> Iterator[None]:
    """While one of the kit's tests runs, every process started carries the session's tag (so it
    is stopped when the session ends, if nothing stopped it before); the user's own tests never do."""
    from kafka_conformance.adapters.reaper import RUN_VAR

    outer = os.environ.get(RUN_VAR)
    os.environ[RUN_VAR] = _kafka_conformance_session
    try:
        yield
    finally:
        if outer is None:
            os.environ.pop(RUN_VAR, None)
        else:
            os.environ[RUN_VAR] = outer


def pytest_report_header(config: pytest.Config) -> str | None:
    target = _option(config, "target")
    if target is None:
        return None
    from hypothesis import settings

    seed = config.getoption("hypothesis_seed", default=None)
    return (
        f"kafka-conformance: target={target} kafka-version={_option(config, 'kafka-version') or 'declared'} "
        f"flavour={_option(config, 'flavour') or 'declared'} seed={seed if seed is not None else 'random'} "
        f"hypothesis-profile={settings.get_current_profile_name()}"
    )


_TARGETS_KEY = pytest.StashKey[dict[str, Any]]()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Resolve every target before running anything: a bad target is a usage error
    (exit code 4), not ten failing tests."""
    from kafka_conformance.authorizer.targets import TargetError, resolve_target

    resolved = config.stash.setdefault(_TARGETS_KEY, {})
    for item in items:
        if item.get_closest_marker("kafka_conformance") is None:
            continue
        spec = getattr(getattr(item, "cls", None), "kafka_conformance_target", None) or _option(config, "target")
        if spec is None:
            raise pytest.UsageError("no target: pass --kafka-conformance-target or authorizer_tests('SPEC')")
        if spec not in resolved:
            try:
                resolved[spec] = resolve_target(
                    spec, kafka_version=_option(config, "kafka-version"), flavour=_option(config, "flavour"),
                    timeout=_option(config, "timeout"),
                )
            except TargetError as exc:
                raise pytest.UsageError(str(exc)) from exc


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    notes = config.stash.get(_WARNINGS_KEY, [])
    if notes:
        terminalreporter.section("kafka-conformance")
        for note in notes:
            terminalreporter.write_line(note)


def authorizer_tests(target: str | None = None, **options: Any) -> type:
    """A test class with one test per authorizer property, run against ``target``."""
    from kafka_conformance.authorizer.properties import PROPERTIES

    def make(prop_name: str) -> Any:
        @pytest.mark.kafka_conformance(prop_name)
        def test(self: Any, request: pytest.FixtureRequest) -> None:
            _run(request.config, target, prop_name, options)

        test.__name__ = "test_" + prop_name.replace("-", "_")
        test.__doc__ = next(p.summary for p in PROPERTIES if p.name == prop_name)
        return test

    namespace: dict[str, Any] = {"test_" + p.name.replace("-", "_"): make(p.name) for p in PROPERTIES}
    namespace["kafka_conformance_target"] = target
    namespace["pytestmark"] = [pytest.mark.usefixtures("kafka_conformance_scope")]
    return type("KafkaAuthorizerConformance", (), namespace)


def _run(config: pytest.Config, target: str | None, prop_name: str, options: dict[str, Any]) -> None:
    from kafka_conformance.authorizer.check import check_authorizer
    from kafka_conformance.authorizer.render import to_text
    from kafka_conformance.authorizer.report import Status
    from kafka_conformance.authorizer.targets import TargetError
    from kafka_conformance.options import Options, seconds

    spec = target or _option(config, "target")
    if spec is None:
        raise pytest.UsageError("no target: pass --kafka-conformance-target or authorizer_tests('SPEC')")
    wanted = _option(config, "properties")
    if wanted and prop_name not in [w.strip() for w in wanted.split(",")]:
        pytest.skip(f"not selected by --kafka-conformance-properties={wanted}")
    seed = config.getoption("hypothesis_seed", default=None)
    resolved = config.stash.get(_TARGETS_KEY, {}).get(spec)
    try:
        timeout = options.get("timeout") or _option(config, "timeout")
        shared = Options(kafka_version=options.get("kafka_version") or _option(config, "kafka-version"),
                         seed=int(seed) if seed is not None else None,
                         timeout=None if timeout is None else seconds(timeout, "--kafka-conformance-timeout"),
                         failures_dir=failures_folder(config, options.get("failures_dir")))
        report = check_authorizer(
            resolved if resolved is not None else spec,
            shared,
            flavour=options.get("flavour") or _option(config, "flavour"),
            mode=options.get("mode") or _option(config, "mode") or "mixed",
            properties=[prop_name],
            kafka_bugs=options.get("kafka_bugs") or _option(config, "kafka-bugs"),
        )
    except TargetError as exc:
        raise pytest.UsageError(str(exc)) from exc
    result = report.results[0]
    if result.status is Status.SKIPPED:
        pytest.skip(result.reason)
    if result.status is not Status.PASSED:
        pytest.fail(to_text(report), pytrace=False)
    if report.not_exercised:
        config.stash[_WARNINGS_KEY].append(
            f"{prop_name}: never exercised: " + "; ".join(report.not_exercised)
        )
    if report.domain_missing:
        config.stash[_WARNINGS_KEY].append(
            f"{prop_name}: input classes never reached: " + "; ".join(report.domain_missing)
        )
