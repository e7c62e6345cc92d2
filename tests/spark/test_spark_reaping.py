"""Nothing outlives a Spark fuzz run stopped by SIGTERM or Ctrl-C at a random moment: not
the driver's JVM, not the Python workers Spark forked, and the exit code says how it ended."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import children_started, stop_at_random

pytest.importorskip("pyspark")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_fuzz_run_stopped_at_a_random_moment_leaves_nothing(tmp_path: Path, sig: int, code: int) -> None:
    returncode, out, err, left = stop_at_random(
        ["fuzz", "--target", "reference", "--cases", "200000", "--shard-size", "2000", "--master", "local[2]",
         "--out", str(tmp_path / "run")],
        tmp_path, sig, seed=code, ready=lambda marker: children_started(marker, "java"), within_s=6.0)
    assert returncode == code, out + err
    assert "Traceback" not in err, err[-3000:]
    assert left == []
