"""Text from outside the kit, made fit for the user's terminal and files.

A target's name, an adapter's error or a broker's message can hold anything: a password in a
spec, ANSI escape sequences that move the cursor or retitle the window, a carriage return that
hides the line before it.  :func:`shown` is what every line the kit prints passes through:
passwords masked (:func:`~kafka_conformance.credentials.redact`), and every control character
but tab and newline written as a visible escape.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from kafka_conformance.credentials import redact

__all__ = ["ShownStream", "shown", "shown_stdout"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """``text`` with passwords masked and control characters (ESC, CR, BEL, C1, ...) escaped."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", redact(text))


class ShownStream:
    """A text stream whose every write passes through :func:`shown`; the rest is the stream's own.

    The CLI puts one over stdout for a command's run, so a verdict quoting an adapter's message
    (every suite's text report does) cannot carry a password or an escape sequence to the terminal."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(shown(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def shown_stdout() -> Iterator[None]:
    """While the block runs, ``sys.stdout`` is a :class:`ShownStream` over the one in place."""
    previous = sys.stdout
    sys.stdout = ShownStream(previous)
    try:
        yield
    finally:
        sys.stdout = previous
