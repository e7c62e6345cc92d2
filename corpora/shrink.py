"""A greedy delta-debugging shrink of an authorizer :class:`Scenario`.

Hypothesis shrinks inside ``@given``; a distributed run finds its failures as
plain rows, so the driver shrinks them itself: drop chunks of ACLs, records,
questions, actions and configuration entries (halves first, then smaller
chunks down to single items) while the same anomaly persists, until nothing
more can go.  Every kept step is a failing case, so the result is always a
real counterexample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs

from kafka_conformance.authorizer.cases import Query, Scenario

__all__ = ["chunk_removals", "shrink_scenario"]

_FIELDS = ("queries", "by_type", "records", "acls", "properties")


def shrink_scenario(scenario: Scenario, still_fails: Callable[[Scenario], bool], *, max_checks: int = 5000) -> Scenario:
    """The smallest scenario reached by removals that keep ``still_fails`` true.

    ``max_checks`` bounds the work for pathological cases (the result is then
    smaller, just perhaps not minimal)."""
    checks = 0
    current = scenario
    progress = True
    while progress and checks < max_checks:
        progress = False
        for candidate in _candidates(current):
            checks += 1
            if still_fails(candidate):
                current = candidate
                progress = True
                break
            if checks >= max_checks:
                break
    return current


def _candidates(s: Scenario) -> Iterator[Scenario]:
    for name in _FIELDS:
        items: tuple[object, ...] = getattr(s, name)
        for kept in chunk_removals(items):
            yield attrs.evolve(s, **{name: kept})
    for i, query in enumerate(s.queries):
        for actions in chunk_removals(query.actions, keep_one=True):
            yield attrs.evolve(s, queries=(*s.queries[:i], Query(query.context, actions), *s.queries[i + 1:]))


def chunk_removals(items: tuple[Any, ...], *, keep_one: bool = False) -> Iterator[tuple[Any, ...]]:
    """``items`` without a chunk: halves first, then quarters, ... then single items."""
    n = len(items)
    chunk = max(1, n // 2)
    while chunk >= 1:
        for start in range(0, n, chunk):
            kept = items[:start] + items[start + chunk:]
            if keep_one and not kept:
                continue
            yield kept
        if chunk == 1:
            break
        chunk //= 2
