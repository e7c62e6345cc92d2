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


def test_a_spark_session_leaves_the_kits_sigint_handler_in_place() -> None:
    """SparkContext installs its own SIGINT handler; the kit's must stay (else a Ctrl-C while py4j
    waits prints py4j's tracebacks instead of "interrupted", as the random-moment test once saw)."""
    from kafka_conformance.corpora.spark_job import spark_session

    def ours(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, ours)
    try:
        session = spark_session("local[1]", app_name="kafka-conformance sigint test")
        try:
            assert signal.getsignal(signal.SIGINT) is ours
        finally:
            session.stop()
    finally:
        signal.signal(signal.SIGINT, before)


def test_pyspark_never_replaces_the_kits_sigint_handler_while_a_session_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Putting the kit's handler back afterwards left a window: a Ctrl-C between PySpark installing
    its own (the end of SparkContext's start) and the session being built ran PySpark's, which
    printed py4j's tracebacks (seen once in the random-moment test).  No SIGINT handler other than
    the kit's may be set at any point of the start."""
    from kafka_conformance.corpora.spark_job import spark_session

    def ours(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    real = signal.signal
    installed: list[object] = []

    def recording(signalnum: int, handler: object) -> object:
        if signalnum == signal.SIGINT:
            installed.append(handler)
        return real(signalnum, handler)  # type: ignore[arg-type]

    before = real(signal.SIGINT, ours)
    monkeypatch.setattr(signal, "signal", recording)
    try:
        session = spark_session("local[1]", app_name="kafka-conformance sigint window test")
        session.stop()
    finally:
        monkeypatch.undo()
        real(signal.SIGINT, before)
    assert all(handler is ours for handler in installed), installed


def test_spark_logging_settings_live_in_a_private_folder_that_goes_away(tmp_path: Path) -> None:
    """Issue 33: no fixed name in the shared temp folder (another local user could plant one);
    the run's own folder, mode 0700, removed once the driver JVM has read it."""
    import os
    import subprocess
    import sys

    code = ("from kafka_conformance.corpora.spark_job import spark_session\n"
            "s = spark_session('local[1]', app_name='kafka-conformance tmp test')\n"
            "s.range(3).count()\n"
            "s.stop()\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TMPDIR": str(tmp_path)},
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    left = [p.name for p in tmp_path.iterdir() if "kafka-conformance" in p.name]
    assert left == [], left
