"""Progress as values: what a suite tells the writer while it runs.

The suites never print progress themselves: they call a :data:`ProgressSink`
with frozen events, and the command decides how (or whether) they are shown.
A sink must be cheap (a suite calls it once per example) and must never raise
into the suite.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import attrs

__all__ = ["Kind", "ProgressEvent", "ProgressSink", "emit"]


class Kind(enum.Enum):
    START = "start"
    """A task (a property, a trace table, a round of generated cases) begins."""
    EXAMPLE = "example"
    """One more example of the task is done."""
    END = "end"
    """The task ended; ``status`` says how."""
    NOTE = "note"
    """Something worth a line of its own (a target not run here, a divergence found)."""


@attrs.frozen
class ProgressEvent:
    """One step of a run: which target, which task, how far.

    ``target`` names the column (``authorizer reference@4.3.0``); ``task`` the
    property or phase; ``done`` and ``total`` count the task's examples
    (``total`` is None where the suite cannot know it beforehand, e.g. a
    Hypothesis run that may stop early); ``divergences`` counts the target's
    divergences so far.
    """

    kind: Kind
    target: str
    task: str = ""
    done: int = 0
    total: int | None = None
    divergences: int = 0
    status: str = ""
    message: str = ""
    unit: str = "examples"
    """What ``done`` counts (``examples``; ``shards`` for a fuzz run; ``runs`` for the release campaign)."""


ProgressSink = Callable[[ProgressEvent], None]


def emit(sink: ProgressSink | None, event: ProgressEvent) -> None:
    """Hand ``event`` to ``sink`` if there is one (suites call this, so that no progress is the default)."""
    if sink is not None:
        sink(event)
