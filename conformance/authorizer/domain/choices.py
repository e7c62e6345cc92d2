"""Every choice of one scenario from one Hypothesis draw.

A scenario used to be about a hundred Hypothesis draws (each pick of a principal,
a host, an operation, each list length and coin flip), and about 95% of
generation time was Hypothesis's engine bookkeeping those draws (spans, the
choice tree, mutation), not the kit's code.  The kit never uses what that
bookkeeping buys: Hypothesis's shrinking is off on every path (the kit's own
1-minimal pass, :mod:`~kafka_conformance.authorizer.minimize`, removes ACLs,
records and questions instead), and the distribution is the kit's own (uniform
picks from a small pool, conflicts built on purpose by mirrors, probes and
aimed questions), not Hypothesis's.

So a scenario is now one draw: eight bytes from Hypothesis (seeded, replayable,
stored in the example database like any choice) seed a :class:`Choices`, and
every pick, length and coin flip of the scenario comes from it.  The picks are
uniform as Hypothesis's ``sampled_from``, ``integers`` and ``booleans`` were, and
counts (list lengths, loop counts) are shaped as Hypothesis's engine shaped
them for these strategies (:meth:`Choices.count`).

Only :meth:`random.Random.random` is used: Python guarantees its sequence for a
seed across versions, so a corpus seed yields the same cases on every Python the
kit supports (``randrange`` and ``choice`` carry no such promise).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

__all__ = ["Choices", "seeded"]

T = TypeVar("T")

SEED_BYTES = 8
_AT_LEAST = 0.35
_AT_MOST = 0.10


class Choices:
    """Uniform choices from one seed; the only source of randomness of a scenario."""

    __slots__ = ("_random",)

    def __init__(self, seed: bytes | int) -> None:
        self._random = random.Random(seed).random

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``."""
        return int(self._random() * n)

    def between(self, lo: int, hi: int) -> int:
        """An integer in ``[lo, hi]`` (``integers(lo, hi)``)."""
        return lo + int(self._random() * (hi - lo + 1))

    def count(self, lo: int, hi: int) -> int:
        """How many of something, in ``[lo, hi]``: shaped like the counts Hypothesis's
        engine produced for these strategies (measured over 400 scenarios: about a
        third at the least, a spike at the most, the rest spread evenly), so that
        scenarios keep the size, and a check the cost, they had."""
        u = self._random()
        if u < _AT_LEAST or hi <= lo:
            return lo
        if u < _AT_LEAST + _AT_MOST:
            return hi
        return lo + int(self._random() * (hi - lo + 1))

    def coin(self) -> bool:
        return self._random() < 0.5

    def pick(self, choices: Sequence[T]) -> T:
        """One of ``choices`` (``sampled_from``)."""
        return choices[int(self._random() * len(choices))]

    def subset(self, choices: Sequence[T], lo: int, hi: int | None = None) -> list[T]:
        """Distinct elements of ``choices`` in random order, between ``lo`` and ``hi``
        of them (``lists(sampled_from(choices), unique=True)``)."""
        top = len(choices) if hi is None else min(hi, len(choices))
        k = self.count(min(lo, top), top)
        pool = list(choices)
        out = []
        for i in range(k):
            j = i + int(self._random() * (len(pool) - i))
            pool[i], pool[j] = pool[j], pool[i]
            out.append(pool[i])
        return out

    def text(self, alphabet: str, lo: int, hi: int) -> str:
        """A string of ``alphabet`` with a uniform length in ``[lo, hi]``: names stay
        long enough to have prefixes as often as they had under ``text()``."""
        return "".join(alphabet[int(self._random() * len(alphabet))] for _ in range(self.between(lo, hi)))

    def unique(self, make: Callable[[Choices], T], lo: int, hi: int) -> list[T]:
        """Between ``lo`` and ``hi`` distinct values of ``make`` (``lists(..., unique=True)``):
        a duplicate is drawn again, a few times at most, as Hypothesis does."""
        want = self.count(lo, hi)
        out: list[T] = []
        for _ in range(2 * want + 2):
            if len(out) >= want:
                break
            value = make(self)
            if value not in out:
                out.append(value)
        return out


@functools.lru_cache(maxsize=1)
def _seeds() -> st.SearchStrategy[bytes]:
    return st.binary(min_size=SEED_BYTES, max_size=SEED_BYTES)


@functools.lru_cache(maxsize=1024)
def seeded(make: Callable[..., T], *args: Any) -> st.SearchStrategy[T]:
    """The strategy of ``make(Choices(seed), *args)``: one Hypothesis draw per value,
    built once per distinct ``(make, args)``, so Hypothesis validates it once."""
    return _seeds().map(lambda seed: make(Choices(seed), *args))
