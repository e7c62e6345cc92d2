"""Progress on a terminal, drawn with ``rich``: one row per target, updated in place.

The only module of the kit that imports ``rich`` (inside :class:`LiveProgress`,
never at import time): ``import kafka_conformance`` stays light, and a run
whose output is piped never loads it.  Each row shows the target and its task,
a bar of examples done, the divergences so far and the time left where the
suite knows the total.
"""

from __future__ import annotations

from typing import Any, TextIO

from kafka_conformance.terminal.events import Kind, ProgressEvent
from kafka_conformance.terminal.text import shown

__all__ = ["LiveProgress"]


class LiveProgress:
    """A :data:`~.events.ProgressSink` drawing a live ``rich`` display on ``stream``; use as a context manager."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._console = Console(file=stream, stderr=False)
        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[divergences]} divergences"), TimeRemainingColumn(),
            console=self._console, transient=False,
        )
        self._rows: dict[str, Any] = {}
        self._progress.start()

    def __call__(self, event: ProgressEvent) -> None:
        if event.kind is Kind.NOTE:
            self._progress.console.print(shown(f"[{event.target}] {event.message}"), markup=False, highlight=False)
            return
        from rich.markup import escape

        row = self._rows.get(event.target)
        description = escape(shown(f"{event.target} {event.task}".strip()))  # a target's name is never markup
        if row is None:
            row = self._rows[event.target] = self._progress.add_task(description, total=event.total, divergences=0)
        self._progress.update(row, description=description, completed=event.done, total=event.total,
                              divergences=event.divergences)
        if event.kind is Kind.END and event.status:
            self._progress.update(row, description=f"{description}: {escape(shown(event.status))}")

    def close(self) -> None:
        self._progress.stop()

    def __enter__(self) -> LiveProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
