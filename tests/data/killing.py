"""Running the kit as a user does, stopping it at a random moment, and looking for anything
it left behind: shared by the reaping tests of every kind of target (in-process and
subprocess adapters, JVMs, brokers, Spark).

Every process started under a test carries ``KC_TEST_MARKER=<uuid>`` in its environment
(inherited through ``setsid`` and double forks); after the kit exits, ``/proc`` must hold
no process with it.  The timeouts only stop a hung test; nothing here asserts speed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from kafka_conformance.adapters.reaper import stop_tagged, tagged

ROOT = Path(__file__).resolve().parents[2]
MARKER = "KC_TEST_MARKER"


def start(argv: list[str], cwd: Path, marker: str, extra_env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """The CLI in a process of its own, with Ctrl-C delivered as from a terminal (a shell
    starts background jobs with SIGINT ignored, and Python keeps it so)."""
    env = {**os.environ, MARKER: marker, "NO_COLOR": "1",
           "PYTHONPATH": f"{ROOT / 'tests' / 'data'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", **(extra_env or {})}
    env.pop("KAFKA_CONFORMANCE_CMD_TIMEOUT", None)
    return subprocess.Popen([sys.executable, "-m", "kafka_conformance.cli.main", *argv], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def left_behind(marker: str) -> list[str]:
    """What still runs with the marker, after a moment for killed processes to be reaped."""
    deadline = time.monotonic() + 5
    while True:
        left = tagged(MARKER, marker)
        if not left or time.monotonic() > deadline:
            return [_describe(pid) for pid in left]
        time.sleep(0.1)


def _describe(pid: int) -> str:
    try:
        return f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    except OSError:
        return str(pid)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children_started(marker: str, what: str) -> Callable[[], bool]:
    """True once a process whose whole command line contains ``what`` runs with the marker
    (a JVM's main class comes after a classpath of thousands of characters)."""
    return lambda: any(what in _cmdline(pid) for pid in tagged(MARKER, marker))


def stop_at_random(argv: list[str], cwd: Path, sig: int, seed: int, ready: Callable[[str], Callable[[], bool]],
                   *, within_s: float = 2.0, ready_timeout_s: float = 240,
                   extra_env: dict[str, str] | None = None) -> tuple[int, str, str, list[str]]:
    """Start the kit, wait until ``ready(marker)()``, wait a random moment, send ``sig``;
    returns (exit code, stdout, stderr, what was left behind)."""
    marker = uuid.uuid4().hex
    proc = start(argv, cwd, marker, extra_env)
    try:
        is_ready = ready(marker)
        deadline = time.monotonic() + ready_timeout_s
        while not is_ready():
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"the kit ended before the moment to stop it came:\n{out}\n{err}")
            if time.monotonic() > deadline:
                raise AssertionError("the kit never reached the state to be stopped in")
            time.sleep(0.05)
        time.sleep(random.Random(seed).uniform(0.0, within_s))
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
            stop_tagged(MARKER, marker)  # the kit was killed: clean up after it; the assertions fail
    left = left_behind(marker)
    stop_tagged(MARKER, marker)
    return proc.returncode, out, err, left
