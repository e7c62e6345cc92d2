"""SIGTERM to a pytest session (what a CI system sends to cancel a job) that uses the kit stops
it as Ctrl-C does: the fixtures are torn down, so every process they started is stopped, and
nothing is left running.  pytest's own default would end the process on the spot.  A session
that uses the kit is one where a test requests ``kafka_conformance_scope``, as every generated
test class does; others keep pytest's default (``tests/plugin/test_plugin.py``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

FAKE = Path(__file__).resolve().parents[1] / "data" / "subprocess" / "fake_impl.py"


def _gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_sigterm_tears_the_session_down_and_leaves_nothing_running(tmp_path: Path) -> None:
    pidfile, marker = tmp_path / "pid", tmp_path / "torn-down"
    (tmp_path / "test_waiting.py").write_text(textwrap.dedent(f"""
        import sys, time
        import pytest
        from kafka_conformance.adapters.jsonlines.process import ImplementationProcess

        @pytest.fixture(scope="session")
        def implementation():
            proc = ImplementationProcess([sys.executable, {str(FAKE)!r}, "ok"], timeout=10)
            open({str(pidfile)!r}, "w").write(str(proc.pid))
            yield proc
            proc.stop()
            open({str(marker)!r}, "w").write("torn down")

        def test_waits(kafka_conformance_scope, implementation):  # the kit's scope, as its own tests use
            time.sleep(120)
    """), encoding="utf-8")
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_waiting.py"],
                           cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text()) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pidfile.exists(), run.communicate(timeout=30)[0].decode(errors="replace")
        child = int(pidfile.read_text())
        time.sleep(0.5)  # inside the test now
        run.send_signal(signal.SIGTERM)
        out = run.communicate(timeout=60)[0].decode(errors="replace")
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert marker.exists(), f"the session fixture was not torn down; pytest ended with {run.returncode}:\n{out}"
    assert run.returncode == 2, out  # pytest's "interrupted"
    assert _gone(child, 10), f"the implementation process {child} is still running"
