"""``kafka-conformance report`` as a user runs it: the folder it writes, what it prints, its
exit codes with and without a baseline."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from kafka_conformance.cli.main import main
from kafka_conformance.report.files import FILES

MUTANT = "python:kafka_conformance.selftest.zoo:factories.allow-beats-deny"
FAST = ("--profile", "smoke", "--seed", "0")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_divergence_exits_1_and_the_folder_holds_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    code, stdout, stderr = _run(["report", "--out", str(out), "--target", MUTANT, *FAST], capsys)
    assert code == 1, stdout + stderr
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == sorted(FILES)
    assert f"report: {out / 'index.html'}" in stdout
    assert "verdict: diverges (1 column;" in stdout
    assert "[authorizer python:zoo:factories.allow-beats-deny, Kafka " in stderr and "running" in stderr  # plain lines when piped
    # The terminal summary: the page's data, its own writer (report/write_text.py), before the verdict.
    summary = stdout.split(f"report: {out / 'index.html'}")[0]
    assert "authorizer (" in summary and " diverges" in summary and "\nfindings (one per distinct divergence" in summary
    assert "kafka-conformance replay " in summary
    assert stdout.rstrip().splitlines()[-1].startswith("verdict: diverges")
    body = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [s["suite"] for s in body["suites"]] == ["authorizer"]  # --target narrowed the suites
    saved = [d["saved_to"] for s in body["suites"] for c in s["columns"] for cell in c["cells"] for d in cell["divergences"]]
    assert saved and all(Path(p).is_file() and Path(p).is_relative_to(out / "cases") for p in saved)
    # The replay command the report prints reproduces the case (and names the code it runs).
    replay = [d["replay"] for s in body["suites"] for c in s["columns"] for cell in c["cells"] for d in cell["divergences"]]
    assert replay[0] == f"kafka-conformance replay {saved[0]} --trust-saved-target"
    code, stdout, _ = _run(shlex.split(replay[0])[1:], capsys)
    assert code == 1 and stdout.startswith("FAILED")


def test_a_baseline_fails_a_run_only_for_new_divergences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first"
    assert _run(["report", "--quiet", "--out", str(first), "--target", MUTANT, *FAST], capsys)[0] == 1
    code, stdout, stderr = _run(["report", "--quiet", "--out", str(tmp_path / "again"), "--target", MUTANT, *FAST,
                                 "--baseline", str(first / "report.json")], capsys)
    assert code == 0, stdout + stderr
    assert stderr == ""  # --quiet
    assert "0 new divergence(s), 0 fixed" in stdout
    # A baseline from before the bug: every divergence of this run is new.
    body = json.loads((first / "report.json").read_text(encoding="utf-8"))
    for suite in body["suites"]:
        for column in suite["columns"]:
            for cell in column["cells"]:
                if cell["status"] == "diverges":
                    cell.update(status="holds", divergences=[])
    older = tmp_path / "older.json"
    older.write_text(json.dumps(body), encoding="utf-8")
    code, stdout, _ = _run(["report", "--quiet", "--out", str(tmp_path / "third"), "--target", MUTANT, *FAST,
                            "--baseline", str(older)], capsys)
    assert code == 1
    summary = (tmp_path / "third" / "summary.md").read_text(encoding="utf-8")
    assert "New divergences:" in summary and "deny-not-applied" in summary
    assert json.loads((tmp_path / "third" / "report.json").read_text(encoding="utf-8"))["baseline"]["new"]


def test_the_model_producer_holds_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = _run(["report", "--quiet", "--out", str(tmp_path / "r"), "--client", "model", *FAST], capsys)
    assert code == 0, stdout
    assert "verdict: holds (1 column;" in stdout
    assert "  model@4.3.0" in stdout and "holds" in stdout and "divergences" not in stdout
    assert "WARNING" not in stdout and stdout.rstrip().splitlines()[-1].startswith("verdict: holds")


def test_a_corrupt_baseline_is_refused_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "report.json"
    bad.write_text('{"format": "kafka-conformance/report", "version": 1, "suites": 3}', encoding="utf-8")
    code, _, stderr = _run(["report", "--out", str(tmp_path / "r"), "--target", MUTANT, "--baseline", str(bad)], capsys)
    assert code == 2
    assert f"--baseline: {bad}: not a readable report" in stderr and "suites" in stderr
    assert "running" not in stderr and not (tmp_path / "r" / "report.json").exists()


def test_help_says_which_targets_are_slow(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = _run(["report", "--help"], capsys)
    assert code == 0
    assert "--all-runnable" in stdout and "JVM" in stdout and "smoke" in stdout


@pytest.mark.parametrize(("broker", "says"), [("kafka:9.9.9", "not a release the kit models"),
                                               ("kafka:0.11.0", "before the oldest broker the reference models")])
def test_a_kafka_broker_of_a_release_the_kit_cannot_start_is_a_usage_error(
        broker: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = _run(["report", "--suite", "broker", "--broker", broker, "--out", str(tmp_path / "r"), *FAST], capsys)
    assert code == 2, stderr
    assert f"target {broker!r}" in stderr and says in stderr
    assert "running" not in stderr and not (tmp_path / "r" / "report.json").exists()


def test_the_librdkafka_mock_runs_only_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """confluent-kafka brings its mock cluster along: a user who installed the client to test it
    gets no verdict on the mock unless they name it (CI once failed on exactly that)."""
    from kafka_conformance.report import plan

    monkeypatch.setattr(plan, "broker_targets_table", lambda: [("rdkafka-mock", "the mock", True),
                                                                ("tansu", "Tansu", True)])
    default = plan.make_plan(suites=["broker"])
    assert [b for b, _ in default.brokers] == ["test-broker"]  # third parties run when named (issue 35)
    [left_out] = [n for n in default.not_run if n.target == "rdkafka-mock"]
    assert "runs when named" in left_out.reason
    [tansu] = [n for n in default.not_run if n.target == "tansu"]
    assert "a third party's: runs when named (--broker NAME) or with --all-runnable" in tansu.reason
    assert [b for b, _ in plan.make_plan(suites=["broker"], all_runnable=True).brokers][:3] == [
        "test-broker", "rdkafka-mock", "tansu"]
    assert plan.make_plan(targets=["rdkafka-mock"]).brokers == (("rdkafka-mock", True),)


def test_the_demonstration_is_shown_and_never_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--demo`` plants a bug beside the reference: the page, the terminal and summary.md show
    its finding, marked as the demonstration it is, and the run still exits 0."""
    out = tmp_path / "report"
    code, stdout, stderr = _run(["report", "--suite", "authorizer", "--demo", "--out", str(out), *FAST], capsys)
    assert code == 0, stdout + stderr
    assert "verdict: holds" in stdout and "the 1 demonstration column not counted" in stdout
    assert "[a demonstration: a planted bug, not counted]" in stdout
    page = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="findings"' in page and "A demonstration:" in page and "<mark>" in page
    body = json.loads((out / "report.json").read_text(encoding="utf-8"))
    flags = [c["demonstration"] for s in body["suites"] for c in s["columns"]]
    assert flags[0] is False and flags[-1] is True and flags.count(True) == 1  # (and the examples, from a checkout)
    listing = [d["listing"] for s in body["suites"] for c in s["columns"] for cell in c["cells"] for d in cell["divergences"]]
    assert listing and all("Current ACLs for resource `ResourcePattern(" in text for text in listing)
    assert 'failures="0"' in (out / "junit.xml").read_text(encoding="utf-8").split(">")[1]
    assert "(demonstration)" in (out / "summary.md").read_text(encoding="utf-8")


def test_something_asked_for_that_could_not_run_is_exit_4(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CI job must not read "could not run" as a pass."""
    code, stdout, stderr = _run(["report", "--suite", "broker", "--target", "bootstrap:127.0.0.1:9", "--out",
                                 str(tmp_path / "r"), *FAST], capsys)
    assert code == 4, stdout + stderr
    assert "verdict: incomplete" in stdout


def test_a_target_means_what_it_means_in_check_and_brokers_are_named_with_broker() -> None:
    from kafka_conformance.report import plan

    assert plan.target_suites("kafka:4.3.1") == ("authorizer",)  # Apache Kafka's authorizer, as in check authorizer
    assert plan.target_suites("tansu") == ("broker",) and plan.target_suites("nonsense") == ()
    both = plan.make_plan(brokers=["test-broker"])
    assert both.suites == ("producer", "broker") and both.brokers == (("test-broker", True),)
    with pytest.raises(plan.ReportError, match=r"is for the authorizer suite, .* --broker kafka:VERSION"):
        plan.make_plan(suites=["broker"], targets=["kafka:4.3.1"])


def test_the_demo_from_a_checkout_runs_the_example_authorizers_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """From the repository root, --demo shows real implementations holding beside the planted bug:
    the Python example, and the Node.js one where node is installed (else it says why not)."""
    import shutil

    from kafka_conformance.report import plan

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    made = plan.make_plan(suites=["authorizer"], demo=True)
    specs = [t.spec for t in made.authorizers]
    assert specs[0] == "reference" and specs[-1] == plan.DEMONSTRATION and made.demonstrations == (plan.DEMONSTRATION,)
    assert "python:examples.python_authorizer.my_authorizer:factory" in specs
    node = "cmd:node examples/node_authorizer/authorizer.js"
    assert (node in specs) == (shutil.which("node") is not None)
    assert (node in specs) != any(n.target == node for n in made.not_run)


def test_the_defaults_are_the_kits_own_targets_whatever_is_installed() -> None:
    """A run that names nothing checks the reference, the model and the test broker: what it says does
    not depend on which clients or wheel brokers happen to be installed (issue 35); each of those is
    listed as left out, with how to run it."""
    import importlib.util

    from kafka_conformance.producer.clients import REAL_CLIENTS
    from kafka_conformance.report import plan

    made = plan.make_plan(suites=["producer", "broker"])
    assert made.producers == (("model", "model", False),) and made.brokers == (("test-broker", False),)
    python_clients = [c for c in REAL_CLIENTS if c not in (*plan.JVM_CLIENTS, *plan.BUILT_CLIENTS)]
    assert {n.target for n in made.not_run if n.suite == "producer"} >= set(python_clients)
    if importlib.util.find_spec("kafka") is not None:  # the test broker's clients can run here
        assert any(c == "kafka-python" for c, _, _ in plan.make_plan(suites=["producer"], all_runnable=True).producers)
        [line] = [n for n in made.not_run if n.target == "kafka-python"]
        assert "a third party's: runs when named (--client NAME) or with --all-runnable" in line.reason
