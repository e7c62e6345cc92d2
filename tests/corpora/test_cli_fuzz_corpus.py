"""The ``fuzz`` and ``corpus generate`` subcommand modules, as the CLI wires them:
exit codes 0/1/2 and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.cli.main import main


def _fuzz(*argv: str) -> int:
    """``kafka-conformance fuzz ARGV`` through the CLI's one error path."""
    return main(["fuzz", *argv])


def _corpus(*argv: str) -> int:
    """``kafka-conformance corpus ARGV`` through the CLI's one error path."""
    return main(["corpus", *argv])


def test_fuzz_without_spark_conforms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _fuzz("--target", "reference", "--cases", "40", "--shard-size", "20", "--no-spark", "--out", str(tmp_path / "r"),
                 "--report-json", str(tmp_path / "s.json")) == 0
    out = capsys.readouterr().out
    assert "40 cases in 2 shards" in out and "CONFORMS" in out
    assert json.loads((tmp_path / "s.json").read_text())["verdicts"] == {"pass": 40}


def test_fuzz_finds_saves_and_replays_a_divergence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kafka_conformance.cli.main import main

    assert _fuzz("--target", "python:corpus_targets:groups_allowed", "--cases", "100", "--shard-size", "50", "--no-spark",
                 "--out", str(tmp_path / "r"), "--report-md", str(tmp_path / "s.md")) == 1
    assert "DIVERGES" in capsys.readouterr().out
    saved = sorted((tmp_path / "r" / "failures").glob("*.json"))
    assert saved and "| fail |" in (tmp_path / "s.md").read_text()
    assert main(["replay", *map(str, saved)]) == 2  # the files name a python: target: never run unasked
    assert main(["replay", "--trust-saved-target", *map(str, saved)]) == 1
    assert main(["replay", "--target", "reference", *map(str, saved)]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--suite", "nope", "--target", "reference", "--cases", "5"], "unknown suite 'nope'; available: authorizer, broker, producer"),
        (["--target", "python:nope:f", "--cases", "5"], "cannot import 'nope'"),
        (["--target", "reference"], "give --cases N"),
        (["--target", "reference", "--cases", "5", "--kafka-version", "banana"], "banana"),
    ],
)
def test_fuzz_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert _fuzz(*argv, "--no-spark", "--out", str(tmp_path / "r")) == 2
    assert message in capsys.readouterr().err


def test_fuzz_refuses_a_directory_of_another_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _fuzz("--target", "reference", "--cases", "10", "--no-spark", "--out", str(tmp_path)) == 0
    assert _fuzz("--target", "reference", "--cases", "11", "--no-spark", "--out", str(tmp_path)) == 2
    assert "already holds a different kafka-conformance/fuzz-run (cases: 10 there, 11 now" in capsys.readouterr().err


def test_corpus_generate_then_fuzz_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _corpus("generate", "--cases", "30", "--shards", "3", "--seed", "4", "--out", str(tmp_path / "c")) == 0
    assert "wrote" in capsys.readouterr().out
    assert len(list((tmp_path / "c" / "cases").glob("*.parquet"))) == 3
    assert _fuzz("--target", "reference-indexed", "--corpus", str(tmp_path / "c"), "--no-spark", "--out", str(tmp_path / "r")) == 0
    # A target that declares other capabilities than the corpus was generated for is refused.
    assert _fuzz("--target", "python:corpus_targets:without_listing", "--corpus", str(tmp_path / "c"), "--no-spark",
                 "--out", str(tmp_path / "r2")) == 2
    assert "was generated for other capabilities" in capsys.readouterr().err


def test_corpus_generate_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _corpus("generate", "--suite", "nope", "--cases", "3", "--out", str(tmp_path)) == 2
    assert "unknown suite 'nope'; available: authorizer, broker, producer" in capsys.readouterr().err


def test_the_other_suites_default_to_their_one_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--mode`` defaults by suite: before, every suite got "mixed", which only the authorizer
    suite has, so ``fuzz --suite producer`` failed unless the user named well-formed."""
    assert _fuzz("--suite", "producer", "--target", "model", "--cases", "6", "--no-spark", "--out", str(tmp_path / "r")) == 0
    assert _corpus("generate", "--suite", "producer", "--cases", "6", "--out", str(tmp_path / "c")) == 0
    assert _fuzz("--suite", "producer", "--target", "model", "--cases", "6", "--mode", "hostile", "--no-spark",
                 "--out", str(tmp_path / "r2")) == 2
    assert "the producer suite has no generation mode 'hostile'" in capsys.readouterr().err


def test_kafka_bugs_is_the_authorizer_suites_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _fuzz("--suite", "producer", "--target", "model", "--cases", "6", "--kafka-bugs", "documented", "--no-spark",
                 "--out", str(tmp_path / "r")) == 2
    assert "--kafka-bugs is an authorizer setting; the producer suite has none" in capsys.readouterr().err
