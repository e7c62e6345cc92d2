"""The verdict line and seed wording the three suites share.

Tried side by side, the suites used to end in three different ways (``seed
None`` in one, ``seed random`` in another, a verdict with or without the
time).  Every suite's text report now ends with :func:`verdict_line`, and
names its seed with :func:`seed_text`.
"""

from __future__ import annotations

__all__ = ["seed_text", "verdict_line"]


def seed_text(seed: int | None) -> str:
    """``seed 7``, or ``seed random`` for a run that drew its own (say so, never ``None``)."""
    return f"seed {seed if seed is not None else 'random'}"


def verdict_line(verdict: str, *, target: str, seed: int | None, examples: int, seconds: float,
                 detail: str = "") -> str:
    """``verdict: conforms — test-broker, seed 0, 40 examples, 1.2s`` (plus ``detail`` in parentheses)."""
    extra = f" ({detail})" if detail else ""
    return (f"verdict: {verdict}{extra} — {target}, {seed_text(seed)}, {examples} example{'s' if examples != 1 else ''}, "
            f"{seconds:.1f}s")
