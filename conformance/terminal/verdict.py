"""The verdict line and the seed every suite names.

Tried side by side, the suites used to end in three different ways (``seed
None`` in one, ``seed random`` in another, a verdict with or without the
time), and only one of them could be repeated from what it printed.  Every
suite now picks its seed with :func:`run_seed`, so a run always names a seed
that repeats it, ends its text report with :func:`verdict_line` and names the
seed with :func:`seed_text`.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import settings as Settings

__all__ = ["SEED_RANGE", "run_seed", "seed_text", "verdict_line"]

SEED_RANGE = 2**32
"""A run without a seed draws one below this (short enough to type back)."""


def run_seed(seed: int | None, settings: Settings | None = None) -> int | None:
    """The seed a run uses: ``seed`` when given; ``None`` when the settings derandomize; else one drawn here.

    Drawn here rather than by Hypothesis so that the run can say which it was: the verdict,
    the JSON report and every saved case name it, and passing it back runs the same cases
    again.  A derandomized run (the user's profile, or the ``ci`` profile Hypothesis loads
    itself when the ``CI`` variable is set) already runs the same cases every time, derived
    from the property, so no seed is drawn and the reports say ``derandomized``.
    """
    if seed is not None:
        return seed
    from hypothesis import settings as Settings

    if (settings if settings is not None else Settings()).derandomize:
        return None
    return secrets.randbelow(SEED_RANGE)


def seed_text(seed: int | None) -> str:
    """``seed 7``; ``derandomized`` for a run whose cases Hypothesis derived from each property."""
    return f"seed {seed}" if seed is not None else "derandomized"


def verdict_line(verdict: str, *, target: str, seed: int | None, examples: int, seconds: float,
                 detail: str = "") -> str:
    """``verdict: conforms — test-broker, seed 0, 40 examples, 1.2s`` (plus ``detail`` in parentheses)."""
    extra = f" ({detail})" if detail else ""
    return (f"verdict: {verdict}{extra} — {target}, {seed_text(seed)}, {examples} example{'s' if examples != 1 else ''}, "
            f"{seconds:.1f}s")
