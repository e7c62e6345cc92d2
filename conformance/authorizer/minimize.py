"""Shrinking: every saved counterexample is 1-minimal.

Hypothesis shrinks the draws a case was made from (and the kit switches that
phase off: re-drawing a whole scenario per step cost nine tenths of the time to a
verdict), so mirrored pairs and prefix chains survived as units.  Instead,
:func:`one_minimal` works on the case itself: it removes runs of elements, then
single elements (an ACL, a record, an ACL of a snapshot step, a record of a
batch, a question, an action of a question, a by-type question, a configuration
property) and keeps each removal after which the property still fails with the
same anomaly, until no single removal does.  The result is what the README
promises: take any one thing away and the divergence is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from kafka_conformance.authorizer.cases import BatchStep, Query, Scenario, SnapshotStep

__all__ = ["one_minimal", "smaller_by_one"]


def _without(items: tuple, index: int) -> tuple:
    return items[:index] + items[index + 1:]


def smaller_by_one(s: Scenario) -> Iterator[Scenario]:
    """Every scenario with exactly one element of ``s`` taken away, the larger
    structures first (a whole question before one of its actions)."""
    for i in range(len(s.acls)):
        yield attrs.evolve(s, acls=_without(s.acls, i))
    for i, step in enumerate(s.records):
        yield attrs.evolve(s, records=_without(s.records, i))
        if isinstance(step, BatchStep):
            for j in range(len(step.records)):
                inner = _without(step.records, j)
                replacement = BatchStep(inner) if len(inner) > 1 else inner[0]
                yield attrs.evolve(s, records=(*s.records[:i], replacement, *s.records[i + 1:]))
        elif isinstance(step, SnapshotStep):
            for j in range(len(step.acls)):
                smaller = SnapshotStep(_without(step.acls, j))
                yield attrs.evolve(s, records=(*s.records[:i], smaller, *s.records[i + 1:]))
    for i in range(len(s.queries)):
        yield attrs.evolve(s, queries=_without(s.queries, i))
    for i, q in enumerate(s.queries):
        if len(q.actions) > 1:
            for j in range(len(q.actions)):
                smaller_query = Query(q.context, _without(q.actions, j))
                yield attrs.evolve(s, queries=(*s.queries[:i], smaller_query, *s.queries[i + 1:]))
    for i in range(len(s.by_type)):
        yield attrs.evolve(s, by_type=_without(s.by_type, i))
    for i in range(len(s.properties)):
        yield attrs.evolve(s, properties=_without(s.properties, i))


_FIELDS = ("acls", "records", "queries", "by_type", "properties")


def smaller_by_chunks(s: Scenario) -> Iterator[Scenario]:
    """Scenarios with a run of two or more elements of one field taken away, the
    longest runs first (halves, then quarters...): a large case loses what plays
    no part in a few steps instead of one element per step."""
    for name in _FIELDS:
        items = getattr(s, name)
        size = len(items) // 2
        while size >= 2:
            for start in range(0, len(items) - size + 1, size):
                yield attrs.evolve(s, **{name: items[:start] + items[start + size:]})
            size //= 2


def one_minimal(scenario: Scenario, still_fails: Callable[[Scenario], bool], *, budget: int = 3000) -> Scenario:
    """The scenario with elements removed while ``still_fails`` holds, to a fixed
    point where no single removal keeps it failing.  Runs of elements go first
    (cheap progress on large cases), single elements last, so the result is
    1-minimal.  ``budget`` bounds the calls (a slow target with a huge case must
    still end); when it runs out the scenario is as small as it got."""
    current = scenario
    calls = 0
    progress = True
    while progress and calls < budget:
        progress = False
        for candidate in (*smaller_by_chunks(current), *smaller_by_one(current)):
            calls += 1
            if still_fails(candidate):
                current = candidate
                progress = True
                break
            if calls >= budget:
                break
    return current
