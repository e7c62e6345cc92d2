"""The pytest plugin, driven through pytester: options, header, generated tests,
failure output, usage errors, and the state machine helper."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance import pytest_plugin

pytest_plugins = ["pytester"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python_authorizer"


@pytest.fixture
def tester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.setenv("PYTHONPATH", str(EXAMPLES))
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    return pytester


def test_generated_class_passes_for_a_correct_authorizer(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_mine="""
from hypothesis import settings
from kafka_conformance.pytest_plugin import authorizer_tests
settings.register_profile("quick", max_examples=15)
settings.load_profile("quick")
TestMine = authorizer_tests("python:my_authorizer:factory")
"""
    )
    result = tester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=10, skipped=1)


def test_failure_is_reported_with_anomaly_and_replay(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        broken="""
from my_authorizer import MyAuthorizer, MyAuthorizerAdapter
class Broken(MyAuthorizer):
    def check(self, principal, host, op, rtype, name, literal=True):
        return True  # allows everything
def factory():
    return MyAuthorizerAdapter(Broken())
""",
        test_broken="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestBroken = authorizer_tests("python:broken:factory")
""",
    )
    result = tester.runpytest_subprocess("-q", "-k", "test_authorize")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*observed: *", "*likely: *", "*replay: kafka-conformance replay *"])


def test_the_choice_of_kafka_bugs_is_an_option_and_a_verdict_names_the_bug(tester: pytest.Pytester) -> None:
    """Held to the documentation, the reference of a release with a bug of Kafka's diverges, and
    the failure says which bug and how to hold it to the release instead."""
    tester.makepyfile(
        test_bugs="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestByOption = authorizer_tests("reference:4.3.0")
TestByArgument = authorizer_tests("reference:4.3.0", kafka_bugs="documented")
"""
    )
    result = tester.runpytest_subprocess("-q", "-k", "TestByArgument and test_authorize", "--hypothesis-seed=1")
    result.assert_outcomes(failed=1, deselected=21)
    result.stdout.fnmatch_lines(["*Kafka's own bug: this implementation answers as Kafka 4.3.0 (standard) does*"])
    result = tester.runpytest_subprocess("-q", "-k", "TestByOption and test_authorize", "--hypothesis-seed=1",
                                         "--kafka-conformance-kafka-bugs=documented")
    result.assert_outcomes(failed=1, deselected=21)
    result = tester.runpytest_subprocess("-q", "-k", "TestByOption and test_authorize", "--hypothesis-seed=1")
    result.assert_outcomes(passed=1, deselected=21)


def test_target_from_option_and_header(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_opt="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestFromOption = authorizer_tests()
"""
    )
    result = tester.runpytest_subprocess(
        "--kafka-conformance-target=reference:3.9.0:acl", "--kafka-conformance-properties=authorize",
        "--hypothesis-seed=3",
    )
    result.stdout.fnmatch_lines(["*kafka-conformance: target=reference:3.9.0:acl*seed=3*"])
    result.assert_outcomes(passed=1, skipped=10)


def test_missing_target_is_a_usage_error(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_none="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestNone = authorizer_tests()
"""
    )
    result = tester.runpytest_subprocess("-q")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*no target*"])


def test_bad_target_is_a_usage_error(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_bad="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestBad = authorizer_tests("python:no_such_module:factory")
"""
    )
    result = tester.runpytest_subprocess("-q")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*cannot import 'no_such_module'*"])


def test_plugin_load_has_no_hypothesis_side_effects(tester: pytest.Pytester) -> None:
    tester.makepyfile(test_x="def test_x():\n    pass\n")
    result = tester.runpytest_subprocess("-q", "-W", "error")
    result.assert_outcomes(passed=1)


def test_profiles_are_registered_not_loaded(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_p="""
from hypothesis import settings
def test_profile():
    # "default", or Hypothesis's own "ci" when CI is set: never one of ours.
    assert not settings._current_profile.startswith("kafka-conformance")
    settings.get_profile("kafka-conformance-ci")
"""
    )
    tester.runpytest_subprocess("-q").assert_outcomes(passed=1)


def test_state_machine_helper_runs(tester: pytest.Pytester) -> None:
    tester.makepyfile(
        test_sm="""
from hypothesis import settings
from kafka_conformance.authorizer.stateful import authorizer_state_machine
Machine = authorizer_state_machine("python:my_authorizer:factory")
Machine.TestCase.settings = settings(max_examples=20, stateful_step_count=10, deadline=None)
TestStateful = Machine.TestCase
"""
    )
    tester.runpytest_subprocess("-q").assert_outcomes(passed=1)


def test_runs_under_xdist(tester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    tester.makepyfile(
        test_mine="""
from hypothesis import settings
from kafka_conformance.pytest_plugin import authorizer_tests
settings.register_profile("quick", max_examples=10)
settings.load_profile("quick")
TestMine = authorizer_tests("python:my_authorizer:factory")
"""
    )
    result = tester.runpytest_subprocess("-q", "-n", "2")
    result.assert_outcomes(passed=10, skipped=1)


LAZY_IMPORT_TEST = """
import importlib, sys
from _pytest.assertion.rewrite import AssertionRewritingHook

def test_lazy_import_is_plain():
    name = "kafka_conformance.reference.message_format"
    sys.modules.pop(name, None)
    module = importlib.import_module(name)
    loader = module.__spec__.loader
    assert not isinstance(loader, AssertionRewritingHook), loader

def test_the_user_s_own_test_modules_still_are():
    assert isinstance(sys.modules[__name__].__spec__.loader, AssertionRewritingHook)
"""


def _kit_marked_for_rewriting() -> bool:
    """Whether pytest marks the kit's package at all: it does for an installed wheel (the tox
    environments), not for an editable install, whose file list names only its finder."""
    from importlib.metadata import distribution

    from _pytest.config import _iter_rewritable_modules

    files = [str(f) for f in distribution("kafka-conformance").files or ()]
    return "kafka_conformance" in set(_iter_rewritable_modules(files))


@pytest.mark.parametrize("where", ["subprocess", "in-process"])
def test_the_kit_s_modules_are_not_rewritten_by_pytest(tester: pytest.Pytester, where: str) -> None:
    # A kit module imported lazily during a test must load through the plain source loader:
    # rewriting it would parse it into AST objects while the kit's threads run, which CPython
    # 3.11 can fail on (see pytest_plugin._leave_the_kit_unrewritten).  In process, pytester's
    # run has a Config and an import hook of its own.
    if not _kit_marked_for_rewriting():
        pytest.skip("this installation of the kit is not marked for rewriting (an editable install)")
    if not pytest_plugin.AST_THREAD_BUG:
        pytest.skip("this interpreter converts AST objects safely across threads: the kit is rewritten as pytest chooses")
    tester.makepyfile(test_lazy=LAZY_IMPORT_TEST)
    result = tester.runpytest_subprocess("-q") if where == "subprocess" else tester.runpytest("-q")
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize("bug", [True, False])
def test_the_kit_is_taken_out_of_a_rewriting_hook_s_marks_only_where_cpython_needs_it(
        monkeypatch: pytest.MonkeyPatch, bug: bool) -> None:
    class Hook:
        def __init__(self) -> None:
            self._must_rewrite = {"kafka_conformance", "hypothesis"}
            self._marked_for_rewrite_cache = {"kafka_conformance.cli": True, "hypothesis.core": True}

    hook = Hook()
    monkeypatch.setattr(sys, "meta_path", [hook, *sys.meta_path])
    monkeypatch.setattr(pytest_plugin, "AST_THREAD_BUG", bug)
    pytest_plugin._leave_the_kit_unrewritten()
    if bug:
        assert hook._must_rewrite == {"hypothesis"}
        assert hook._marked_for_rewrite_cache == {"hypothesis.core": True}
    else:  # a fixed interpreter: pytest's hook is not touched
        assert hook._must_rewrite == {"kafka_conformance", "hypothesis"}
        assert hook._marked_for_rewrite_cache == {"kafka_conformance.cli": True, "hypothesis.core": True}


def test_a_session_that_never_uses_the_kit_runs_as_without_it(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """Installed, the plugin is a guest: an unrelated suite keeps its long-lived process, its
    SIGTERM default and its environment, and finds no file of the kit's anywhere."""
    import os
    import signal
    import time

    pidfile = tmp_path / "pid"
    pytester.makepyfile(test_unrelated=f"""
import os, signal, subprocess, sys
def test_starts_a_server_meant_to_outlive_the_session():
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert "KAFKA_CONFORMANCE_RUN" not in os.environ
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    open({str(pidfile)!r}, "w").write(str(server.pid))
""")
    before = {p.name for p in pytester.path.iterdir()}
    result = pytester.runpytest_subprocess("-q", "-p", "kafka_conformance")  # loaded, as when installed
    result.assert_outcomes(passed=1)
    pid = int(pidfile.read_text())
    try:
        time.sleep(0.2)
        os.kill(pid, 0)  # still running: the kit stopped nothing of the user's
    finally:
        os.kill(pid, signal.SIGKILL)
    created = {p.name for p in pytester.path.iterdir()} - before
    assert not any("kafka-conformance" in name for name in created), created
    cache = pytester.path / ".pytest_cache" / "d"
    assert not (cache.exists() and any("kafka-conformance" in p.name for p in cache.iterdir()))


RARE_AUTHORIZER = '''
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.reference.authorizer.decision import AuthorizationResult
from kafka_conformance.reference.authorizer.profiles import profile_for

RARE = "zz-sticky"  # no generated or coverage case holds this name: only a saved case asks it


class AllowsTheRareName(ReferenceTarget):
    def __init__(self):
        super().__init__(profile_for("4.3.0"))

    def authorize(self, context, actions):
        answers = super().authorize(context, actions)
        return [AuthorizationResult.ALLOWED if a.resource.name == RARE else r for a, r in zip(actions, answers)]


def factory():
    return AllowsTheRareName()
'''


def test_a_case_saved_in_pytests_cache_fails_every_later_session_whatever_the_seed(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36's sticky failures under pytest: a bug found once (here: its saved case, in the
    plugin's default folder in pytest's cache) fails every later session, as ``--lf`` would, though
    the search alone never meets it."""
    from kafka_conformance.authorizer.cases import Query, Scenario
    from kafka_conformance.authorizer.check import run_property_once
    from kafka_conformance.authorizer.saved import save_counterexample
    from kafka_conformance.authorizer.targets import resolve_target
    from kafka_conformance.reference.acl.principal import KafkaPrincipal
    from kafka_conformance.reference.acl.values import AclOperation, ResourcePattern, ResourceType
    from kafka_conformance.reference.authorizer.decision import Action, RequestContext

    pytester.makepyfile(rare=RARE_AUTHORIZER, test_rare="""
from kafka_conformance.pytest_plugin import authorizer_tests
TestRare = authorizer_tests("python:rare:factory")
""")
    monkeypatch.syspath_prepend(str(pytester.path))
    monkeypatch.setenv("PYTHONPATH", str(pytester.path))
    args = ("-q", "-k", "test_authorize", "-p", "kafka_conformance", "--hypothesis-profile=default")
    pytester.runpytest_subprocess(*args, "--hypothesis-seed=1").assert_outcomes(passed=1, deselected=10)

    target = resolve_target("python:rare:factory")
    alice = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
    scenario = Scenario(queries=(Query(alice, (Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "zz-sticky")),)),))
    found = run_property_once("authorize", target, scenario)
    assert found.counterexample is not None
    save_counterexample(found.counterexample, pytester.path / ".pytest_cache" / "d" / "kafka-conformance-failures",
                        target, None)
    for seed in range(2, 12):  # ten later sessions, each with another seed
        result = pytester.runpytest_subprocess(*args, f"--hypothesis-seed={seed}")
        result.assert_outcomes(failed=1, deselected=10)
        result.stdout.fnmatch_lines(["*found again: a case saved by an earlier run still fails*"])
