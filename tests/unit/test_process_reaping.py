"""Nothing outlives the kit: a run stopped by SIGTERM, SIGHUP or Ctrl-C at a random moment, or one
that ends normally, leaves no process behind, not even a helper the adapter started in a
session of its own; and the exit code says how the run ended.

Every process started under a test carries a marker in its environment (inherited through
``setsid`` and double forks), and the test looks for it in ``/proc`` afterwards.  The
subprocess timeouts below only stop a hung test; they assert nothing about speed.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import ROOT, left_behind, start, stop_at_random

FAULTY = ROOT / "tests" / "data" / "subprocess" / "faulty_server.py"

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc (Linux)")


def _start(argv: list[str], tmp_path: Path, marker: str) -> subprocess.Popen[str]:
    return start(argv, tmp_path, marker, {"FAULTY_HELPER_PIDS": str(tmp_path / "helpers")})


def _helper_started(tmp_path: Path) -> bool:
    helpers = tmp_path / "helpers"
    return helpers.exists() and bool(helpers.read_text().strip())


HELPER_TARGET = f"cmd:{sys.executable} {FAULTY} helper"


@pytest.mark.parametrize(("sig", "code", "says"), [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"),
                                                  (signal.SIGHUP, 129, "hung up")])
@pytest.mark.parametrize("attempt", range(4))
def test_a_run_stopped_at_a_random_moment_leaves_nothing(tmp_path: Path, sig: int, code: int, says: str, attempt: int) -> None:
    returncode, out, err, left = stop_at_random(
        ["check", "authorizer", "--target", HELPER_TARGET, "--max-examples", "2000", "--seed", str(attempt)],
        tmp_path, sig, seed=attempt, ready=lambda marker: lambda: _helper_started(tmp_path),
        extra_env={"FAULTY_HELPER_PIDS": str(tmp_path / "helpers")})
    assert returncode == code, out + err
    assert says in err and "Traceback" not in err, err
    assert left == []


def test_a_run_that_ends_normally_stops_the_helper_its_adapter_started(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    proc = _start(["check", "authorizer", "--target", HELPER_TARGET, "--max-examples", "5", "--property", "authorize",
                   "--seed", "1"], tmp_path, marker)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert _helper_started(tmp_path)
    assert left_behind(marker) == []


def test_a_hung_in_process_target_is_interrupted_and_the_run_ends(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    proc = _start(["check", "authorizer", "--target", "python:faulty_python:busy", "--timeout", "1", "--seed", "1"],
                  tmp_path, marker)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, out + err
    assert "timeout" in out and "stopped answering" in out
    assert "differently on replay" not in out + err and "Traceback" not in err


@pytest.mark.parametrize("mode", ["hang-after 30", "half-line"])
def test_a_silent_subprocess_adapter_ends_the_run_with_an_adapter_error(tmp_path: Path, mode: str) -> None:
    marker = uuid.uuid4().hex
    proc = _start(["check", "authorizer", "--target", f"cmd:{sys.executable} {FAULTY} {mode}", "--timeout", "1",
                   "--seed", "1"], tmp_path, marker)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, out + err
    assert "no response within 1 s" in out and "SKIPPED" in out
    assert "verdict: error" in out
    assert left_behind(marker) == []


def test_a_crashing_subprocess_adapter_is_reported_with_its_exit_code_and_stderr(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    proc = _start(["check", "authorizer", "--target", f"cmd:{sys.executable} {FAULTY} crash-every 4", "--timeout", "5",
                   "--seed", "2", "--property", "authorize"], tmp_path, marker)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, out + err
    assert "exited with code 3" in out and "crashing on purpose" in out
    assert "differently on replay" not in out + err
    assert left_behind(marker) == []


def test_a_library_that_breaks_while_a_signal_unwinds_it_is_the_stop_not_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    """py4j answered a SIGTERM mid-command with AttributeError('... shutdown_socket') raised while
    handling it (seen once in the gate): the run was stopped, exit 143, no traceback."""
    from kafka_conformance.cli.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, guarded

    def broken_by(signal_exc: KeyboardInterrupt) -> int:
        try:
            raise signal_exc
        except KeyboardInterrupt:
            raise AttributeError("'GatewayConnection' object has no attribute 'shutdown_socket'") from None

    assert guarded(lambda: broken_by(Terminated())) == EXIT_TERMINATED
    assert guarded(lambda: broken_by(KeyboardInterrupt())) == EXIT_INTERRUPTED
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err


def test_an_ordinary_bug_is_still_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    from kafka_conformance.cli.errors import EXIT_BUG, guarded

    def bug() -> int:
        raise AttributeError("no")

    assert guarded(bug) == EXIT_BUG
    assert "internal error" in capsys.readouterr().err
