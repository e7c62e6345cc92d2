"""Progress as a person sees it: live on a terminal, plain lines at a bounded interval when piped,
nothing with --quiet, no escape codes with NO_COLOR.  Time is a fake clock moved by hand: no test
sleeps or measures."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from kafka_conformance.cli.main import main
from kafka_conformance.options import Options
from kafka_conformance.terminal.choose import SilentProgress, progress_writer
from kafka_conformance.terminal.events import Kind, ProgressEvent
from kafka_conformance.terminal.plain import PlainProgress


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _plain(clock: Clock, interval: float = 5.0) -> tuple[PlainProgress, io.StringIO]:
    out = io.StringIO()
    return PlainProgress(out, clock=clock, interval=interval, heartbeat=False), out


def _example(done: int, total: int | None = 100, found: int = 0) -> ProgressEvent:
    return ProgressEvent(Kind.EXAMPLE, "broker tansu@4.3.0", "generated cases", done, total, found)


def test_piped_progress_writes_a_line_once_per_interval_not_per_example() -> None:
    clock = Clock()
    writer, out = _plain(clock)
    writer(ProgressEvent(Kind.START, "broker tansu@4.3.0", "generated cases", 0, 100))
    for done in range(1, 50):  # fifty examples within one second: no line for them
        clock.now += 0.02
        writer(_example(done))
    assert out.getvalue().splitlines() == ["[broker tansu@4.3.0] running"]
    clock.now += 5.0
    writer(_example(50, found=2))
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("[broker tansu@4.3.0] generated cases: 50/100 examples, 2 divergences")
    assert "left" in last  # the total is known: time left is shown


def test_a_silent_stretch_still_gets_a_line_every_interval() -> None:
    """A slow example (a broker starting, a client timing out) sends no event: the heartbeat's tick writes."""
    clock = Clock()
    writer, out = _plain(clock)
    writer(ProgressEvent(Kind.START, "producer kafka-python on tansu@4.3.0", "trace table", 0, 27))
    writer.tick()
    assert len(out.getvalue().splitlines()) == 1  # nothing new before the interval
    for minute in range(1, 13):  # a minute without events: a line at least every 5 s
        clock.now += 5.0
        writer.tick()
        assert len(out.getvalue().splitlines()) == 1 + minute
    assert out.getvalue().splitlines()[-1].endswith("(still running)")


def test_ends_and_notes_are_always_written() -> None:
    clock = Clock()
    writer, out = _plain(clock)
    writer(ProgressEvent(Kind.START, "authorizer reference@4.3.0", "authorize", 0, 10))
    writer(ProgressEvent(Kind.END, "authorizer reference@4.3.0", "authorize", 10, 10, 0, "passed"))
    writer(ProgressEvent(Kind.NOTE, "producer aiokafka on tansu", message="not run here: aiokafka is not installed"))
    lines = out.getvalue().splitlines()
    assert lines[1] == "[authorizer reference@4.3.0] authorize: 10/10 examples, 0 divergences, 0s — passed"
    assert lines[2] == "[producer aiokafka on tansu] not run here: aiokafka is not installed"


def test_unknown_total_shows_the_count_and_no_time_left() -> None:
    clock = Clock()
    writer, out = _plain(clock)
    writer(ProgressEvent(Kind.START, "fuzz reference", "shards", 0, None))
    clock.now += 6
    writer(ProgressEvent(Kind.EXAMPLE, "fuzz reference", "shards", 7, None))
    assert "7 examples" in out.getvalue() and "left" not in out.getvalue()


def test_the_writer_follows_the_stream_the_environment_and_quiet() -> None:
    assert isinstance(progress_writer(io.StringIO(), env={}, heartbeat=False), PlainProgress)  # piped
    assert isinstance(progress_writer(Tty(), env={"NO_COLOR": "1"}, heartbeat=False), PlainProgress)
    assert isinstance(progress_writer(Tty(), env={"TERM": "dumb"}, heartbeat=False), PlainProgress)
    assert isinstance(progress_writer(Tty(), env={}, quiet=True), SilentProgress)
    assert isinstance(progress_writer(io.StringIO(), env={}, quiet=True), SilentProgress)


def test_a_terminal_gets_the_live_display() -> None:
    pytest.importorskip("rich")
    from kafka_conformance.terminal.live import LiveProgress

    out = Tty()
    with progress_writer(out, env={}) as writer:
        assert isinstance(writer, LiveProgress)
        writer(ProgressEvent(Kind.START, "broker tansu@4.3.0", "generated cases", 0, 100))
        writer(_example(40, found=3))
        writer(ProgressEvent(Kind.NOTE, "broker tansu@4.3.0", message="round 1: found duplicate-rejected"))
    text = out.getvalue()
    assert "broker tansu@4.3.0 generated cases" in text and "3 divergences" in text and "40/100" in text
    assert "round 1: found duplicate-rejected" in text


def test_no_color_on_a_terminal_writes_no_escape_codes() -> None:
    out = Tty()
    with progress_writer(out, env={"NO_COLOR": "1"}, heartbeat=False) as writer:
        writer(ProgressEvent(Kind.START, "authorizer reference@4.3.0", "authorize", 0, 10))
        writer(ProgressEvent(Kind.END, "authorizer reference@4.3.0", "authorize", 10, 10, 0, "passed"))
    assert out.getvalue() and "\x1b[" not in out.getvalue()


def test_rich_is_not_imported_by_a_piped_run(capsys: pytest.CaptureFixture[str]) -> None:
    """``rich`` is loaded only by the live writer: never by the package, never for piped output."""
    import subprocess

    code = ("import sys, kafka_conformance, kafka_conformance.cli.main as m, io\n"
            "from kafka_conformance.terminal.choose import progress_writer\n"
            "progress_writer(io.StringIO(), env={}, heartbeat=False)\n"
            "assert 'rich' not in sys.modules, 'rich imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("quiet", [False, True])
def test_a_piped_check_shows_progress_unless_quiet(quiet: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "authorizer", "--target", "reference", "--max-examples", "3", "--seed", "1", "--property", "authorize",
            "--failures-dir", str(tmp_path)]
    assert main([*argv, "--quiet"] if quiet else argv) == 0
    out, err = capsys.readouterr()
    assert "verdict: conforms" in out
    if quiet:
        assert err == ""
    else:
        # The coverage phase's fixed cases, then the three random ones.
        assert "[authorizer reference, Kafka standard@" in err
        assert re.search(r"authorize: (\d+)/\1 examples, 0 divergences", err), err


def test_the_suites_report_events_as_they_run() -> None:
    """Each suite tells the writer when a task starts, after every example, and when it ends."""
    from kafka_conformance.authorizer.check import check_authorizer
    from kafka_conformance.producer.check import check_producer

    events: list[ProgressEvent] = []
    check_producer("model", Options(seed=1, max_examples=2, progress=events.append), table=True)
    tasks = [(e.kind, e.task) for e in events if e.kind is not Kind.EXAMPLE]
    assert tasks == [(Kind.START, "generated traces"), (Kind.END, "generated traces"),
                     (Kind.START, "trace table"), (Kind.END, "trace table")]
    table = [e for e in events if e.task == "trace table" and e.kind is Kind.EXAMPLE]
    assert [e.done for e in table] == list(range(1, len(table) + 1)) and table[-1].total == len(table)
    assert {e.target for e in events} == {"producer model on model@4.3.0"}

    from kafka_conformance.authorizer.domain.coverage import coverage_cases
    from kafka_conformance.authorizer.targets import resolve_target

    events.clear()
    check_authorizer("reference", Options(seed=1, max_examples=3, progress=events.append), properties=["authorize", "super-users"])
    assert [(e.kind, e.task) for e in events if e.kind is not Kind.EXAMPLE] == [
        (Kind.START, "authorize"), (Kind.END, "authorize"), (Kind.START, "super-users"), (Kind.END, "super-users")]
    examples = [e for e in events if e.kind is Kind.EXAMPLE and e.task == "super-users"]
    planned = 3 + len(coverage_cases("super-users", resolve_target("reference").capabilities, "mixed"))
    assert [e.done for e in examples] == list(range(1, planned + 1))
    assert all(e.total == planned and e.divergences == 0 for e in examples)
