"""The three suites speak with one voice: the same option names, the same default folder for
saved cases, the old spellings still accepted with one deprecation line, the same verdict line
and the same way of naming a random seed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kafka_conformance.cli.args import DEFAULT_FAILURES
from kafka_conformance.cli.main import _parser, main
from kafka_conformance.terminal.verdict import seed_text, verdict_line

SUITES = {
    "authorizer": ("check", "authorizer", "--target", "reference"),
    "producer": ("check", "producer", "--client", "model"),
    "broker": ("check", "broker", "--target", "test-broker"),
    "matrix": ("check", "matrix"),
}


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_suite_accepts_the_same_option_names(suite: str, tmp_path: Path) -> None:
    argv = [*SUITES[suite], "--report-json", str(tmp_path / "r.json"), "--failures-dir", str(tmp_path / "cases"), "--quiet"]
    if suite != "matrix":  # the matrix has no JUnit writer
        argv += ["--junit-xml", str(tmp_path / "j.xml"), "--seed", "3"]
    args = _parser().parse_args(argv)
    assert args.report_json == tmp_path / "r.json" and args.failures_dir == tmp_path / "cases" and args.quiet
    if suite != "matrix":
        assert args.junit_xml == tmp_path / "j.xml" and args.seed == 3


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_suite_saves_cases_in_the_same_folder_by_default(suite: str) -> None:
    assert _parser().parse_args(list(SUITES[suite])).failures_dir == DEFAULT_FAILURES


@pytest.mark.parametrize("command", [["check", "producer", "--client", "model"], ["check", "matrix"],
                                     ["check", "broker", "--target", "test-broker"],
                                     ["check", "requests", "--target", "kfake"], ["selftest"],
                                     ["check", "authorizer", "--target", "reference"]])
@pytest.mark.parametrize("old", ["--json", "--junit"])
def test_one_spelling_each_the_old_ones_are_refused(command: list[str], old: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        _parser().parse_args([*command, old, str(tmp_path / "f")])
    assert exited.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


def test_a_producer_run_says_what_it_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             hypothesis_profile: Callable[[str], None]) -> None:
    hypothesis_profile("kc-tests-random")
    code = main(["check", "producer", "--client", "model", "--max-examples", "3", "--quiet",
                 "--failures-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "seed None" not in out
    assert "outside KIP-185's guarantee:" in out and "of 3 generated traces" in out
    assert "coverage notes:" in out and "guarantees checked:" in out
    assert re.match(r"verdict: conforms — model, Kafka 4.3.0, seed \d+, 3 examples", out.splitlines()[-1])


def test_a_passing_authorizer_run_ends_with_its_verdict_not_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hypothesis_profile: Callable[[str], None]) -> None:
    hypothesis_profile("kc-tests-random")
    code = main(["check", "authorizer", "--target", "reference", "--max-examples", "2", "--quiet",
                 "--failures-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "WARNING" not in out
    last = out.splitlines()[-1]
    assert last.startswith("verdict: conforms — reference, Kafka ") and re.search(r", seed \d+, ", last)  # the seed drawn


def test_the_verdict_line_reads_the_same_for_every_suite() -> None:
    assert seed_text(None) == "derandomized" and seed_text(0) == "seed 0"
    assert verdict_line("conforms", target="test-broker, Kafka 4.3.0", seed=None, examples=1, seconds=0.25) == (
        "verdict: conforms — test-broker, Kafka 4.3.0, derandomized, 1 example, 0.2s")
    assert verdict_line("diverges", target="tansu", seed=1, examples=40, seconds=2, detail="anomalies: a") == (
        "verdict: diverges (anomalies: a) — tansu, seed 1, 40 examples, 2.0s")


def test_check_authorizer_help_lists_the_target_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["check", "authorizer", "--help"])
    out = capsys.readouterr().out
    for kind in ("reference[:VERSION", "reference-indexed", "python:MODULE:FACTORY", "cmd:COMMAND", "jvm:CLASS",
                 "kafka:VERSION", "kafka-default-by-type", "PYTHONPATH"):
        assert kind in out, kind


def test_explain_names_every_step_including_implication(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    acls = tmp_path / "acls.json"
    acls.write_text(json.dumps({"acls": [{"principal": "User:alice", "host": "*", "operation": "READ", "permission": "ALLOW",
                                          "resource_type": "TOPIC", "name": "payments", "pattern_type": "LITERAL"}]}))
    assert main(["explain", str(acls), "--principal", "User:alice", "--operation", "DESCRIBE", "--resource-type", "TOPIC",
                 "--name", "payments"]) == 0
    out = capsys.readouterr().out
    steps = out.split("steps that decided:\n", 1)[1].splitlines()
    assert steps[0] == "  1. User:alice is not a super user (no super.users)"
    assert "operation READ, which implies DESCRIBE" in steps[1] and "a DENY never implies" in steps[1]
    assert steps[2].startswith("  3. no DENY ACL matches") and steps[3].startswith("  4. decided: ALLOWED")


def test_docs_cli_md_is_the_parser_as_it_is() -> None:
    """docs/cli.md is generated from the parser; regenerate with
    ``python3 -m kafka_conformance.cli.table > docs/cli.md``."""
    from kafka_conformance.cli.table import render

    assert (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8") == render()


# One concept, one spelling: an option that means one of these is spelt this way on every command.
CONCEPTS = {"seed": "--seed", "examples": "--max-examples", "release": "--kafka-version", "timeout": "--timeout",
            "json": "--report-json", "junit": "--junit-xml", "failures": "--failures-dir", "quiet": "--quiet"}


def test_no_concept_is_spelt_two_ways() -> None:
    import argparse

    from kafka_conformance.cli.main import _parser
    from kafka_conformance.cli.table import commands

    for path, parser in commands(_parser()):
        options = {o for a in parser._actions for o in a.option_strings if isinstance(a, argparse.Action)}
        for concept, spelling in CONCEPTS.items():
            near = {o for o in options if concept in o.lstrip("-").replace("-", "") and o != spelling}
            # other concepts whose names share a word: a broker run's rounds, the Markdown report, how many seeds
            assert not near - {"--max-rounds", "--report-md", "--seeds"}, (path, concept, near)


def test_every_option_says_what_it_does() -> None:
    """An option without help is a blank cell in docs/cli.md and a bare name in --help: every
    option and positional of every command has a line of its own."""
    import argparse

    from kafka_conformance.cli.main import _parser
    from kafka_conformance.cli.table import commands

    bare = [(" ".join(path), a.option_strings[0] if a.option_strings else a.dest)
            for path, parser in commands(_parser()) for a in parser._actions
            if a.dest != "help" and a.nargs != argparse.PARSER and not a.help]  # not --help, nor a subcommand list
    assert not bare, bare
