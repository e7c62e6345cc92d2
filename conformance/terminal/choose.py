"""Which progress writer a command gets: live on a terminal, plain lines when piped, none when quiet.

``NO_COLOR`` (https://no-color.org) and ``TERM=dumb`` on a terminal give the
plain writer (no colour and no cursor movement at all); ``--quiet`` gives no
progress.  Commands call :func:`progress_writer` once and hand the writer to the
suite as its progress sink.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import Protocol, TextIO

from kafka_conformance.terminal.events import ProgressEvent
from kafka_conformance.terminal.plain import DEFAULT_INTERVAL, PlainProgress

__all__ = ["ProgressWriter", "SilentProgress", "progress_writer"]


class ProgressWriter(Protocol):
    def __call__(self, event: ProgressEvent) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> ProgressWriter: ...
    def __exit__(self, *exc: object) -> None: ...


class SilentProgress:
    """``--quiet``: events are dropped."""

    def __call__(self, event: ProgressEvent) -> None:
        return None

    def close(self) -> None:
        return None

    def __enter__(self) -> SilentProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def progress_writer(stream: TextIO | None = None, *, quiet: bool = False, env: Mapping[str, str] | None = None,
                    clock: Callable[[], float] = time.monotonic, interval: float = DEFAULT_INTERVAL,
                    heartbeat: bool = True) -> ProgressWriter:
    """The writer for ``stream`` (default stderr) under ``env`` (default the process environment)."""
    out = stream if stream is not None else sys.stderr
    environ = os.environ if env is None else env
    if quiet:
        return SilentProgress()
    plain_terminal = "NO_COLOR" in environ or environ.get("TERM") == "dumb"
    if _is_tty(out) and not plain_terminal:
        try:
            from kafka_conformance.terminal.live import LiveProgress

            return LiveProgress(out)
        except ImportError:  # rich missing from a broken install: plain lines still say where the run is
            pass
    return PlainProgress(out, clock=clock, interval=interval, heartbeat=heartbeat)
