"""Progress as plain lines, for output that is not a terminal (CI logs, pipes, files).

A CI log must never go minutes without a line, and must not get one per
example either: a line is written when a target starts, when a task ends or a
note arrives, and otherwise at most every ``interval`` seconds.  A heartbeat
thread calls :meth:`PlainProgress.tick` so that a line comes even while the
suite is stuck in one slow example (a broker starting, a client timing out).
The clock is injected: tests drive it by hand, never by sleeping.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TextIO

import attrs

from kafka_conformance.terminal.events import Kind, ProgressEvent
from kafka_conformance.terminal.text import shown

__all__ = ["DEFAULT_INTERVAL", "PlainProgress", "describe"]

DEFAULT_INTERVAL = 5.0
"""Seconds between plain progress lines at most (while anything runs)."""


@attrs.define
class _Task:
    target: str
    task: str = ""
    done: int = 0
    total: int | None = None
    divergences: int = 0
    started: float = 0.0
    unit: str = "examples"


def describe(task: _Task, now: float) -> str:
    """``[broker test-broker@4.3.0] generated cases: 40/100 examples, 1 divergence, about 3s left``."""
    parts = []
    if task.total is not None:
        parts.append(f"{task.done}/{task.total} {task.unit}")
    elif task.done:
        parts.append(f"{task.done} {task.unit}")
    parts.append(f"{task.divergences} divergence{'s' if task.divergences != 1 else ''}")
    elapsed = max(0.0, now - task.started)
    if task.total is not None and 0 < task.done < task.total:
        parts.append(f"about {elapsed / task.done * (task.total - task.done):.0f}s left")
    else:
        parts.append(f"{elapsed:.0f}s")
    where = f" {task.task}:" if task.task else ""
    return f"[{task.target}]{where} {', '.join(parts)}"


class PlainProgress:
    """A :data:`~.events.ProgressSink` writing plain lines to ``stream``; use as a context manager."""

    def __init__(self, stream: TextIO, *, clock: Callable[[], float], interval: float = DEFAULT_INTERVAL,
                 heartbeat: bool = True) -> None:
        self._stream, self._clock, self._interval = stream, clock, interval
        self._current: _Task | None = None
        self._last_line = clock()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if heartbeat:
            self._thread = threading.Thread(target=self._beat, name="kafka-conformance-progress", daemon=True)
            self._thread.start()

    def __call__(self, event: ProgressEvent) -> None:
        with self._lock:
            now = self._clock()
            if event.kind is Kind.NOTE:
                self._write(f"[{event.target}] {event.message}", now)
                return
            new_target = self._current is None or self._current.target != event.target
            if new_target:
                self._current = _Task(event.target, started=now)
                self._write(f"[{event.target}] running", now)
            task = self._current
            assert task is not None
            if event.kind is Kind.START:
                task.task, task.started = event.task, now
            task.done, task.total, task.divergences, task.unit = event.done, event.total, event.divergences, event.unit
            if event.kind is Kind.END:
                status = f" {event.status}" if event.status else ""
                self._write(describe(task, now) + (f" —{status}" if status else ""), now)
            elif now - self._last_line >= self._interval:
                self._write(describe(task, now), now)

    def tick(self) -> None:
        """Write the current state if nothing was written for ``interval`` seconds (the heartbeat's call)."""
        with self._lock:
            now = self._clock()
            if self._current is not None and now - self._last_line >= self._interval:
                self._write(describe(self._current, now) + " (still running)", now)

    def _write(self, line: str, now: float) -> None:
        self._last_line = now
        with contextlib.suppress(OSError, ValueError):  # a closed pipe must not end the run
            print(shown(line), file=self._stream, flush=True)

    def _beat(self) -> None:
        while not self._stop.wait(min(1.0, self._interval / 5)):
            self.tick()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
