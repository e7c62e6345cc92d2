"""``fuzz`` as the CLI runs it: its own Spark session on a local master (in a
subprocess: one SparkContext per process), started and stopped by the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

_CLI = """
import argparse, sys
from kafka_conformance.cli import fuzz as cli_fuzz
parser = argparse.ArgumentParser(prog="kafka-conformance fuzz")
cli_fuzz.add_arguments(parser)
sys.exit(cli_fuzz.run(parser.parse_args(sys.argv[1:])))
"""


def test_fuzz_starts_and_stops_its_own_local_session(tmp_path: Path) -> None:
    pytest.importorskip("pyspark")
    done = subprocess.run(
        [sys.executable, "-c", _CLI, "--target", "reference", "--cases", "300", "--shard-size", "100", "--master", "local[2]",
         "--out", "run", "--report-json", "summary.json"],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["executor"] == "Spark local[2,4]" and summary["verdicts"] == {"pass": 300}
    assert summary["startup_s"] > 0 and "CONFORMS" in done.stdout
    assert len(list((tmp_path / "run" / "verdicts").glob("shard-*.parquet"))) == 3


@pytest.mark.parametrize(("command", "master"), [("fuzz", "spark://127.0.0.1:1"), ("corpus", "spark://127.0.0.1:1,127.0.0.1:2")])
def test_a_master_nothing_answers_at_is_a_usage_error_at_once(tmp_path: Path, command: str, master: str) -> None:
    pytest.importorskip("pyspark")
    from kafka_conformance.cli.main import main

    argv = (["fuzz", "--target", "reference", "--cases", "10"] if command == "fuzz" else ["corpus", "generate", "--cases", "10"])
    assert main([*argv, "--out", str(tmp_path / "out"), "--master", master]) == 2
