"""The first ALLOW no DENY dominates, without testing every dominated ALLOW.

Both by-type algorithms (:mod:`~kafka_conformance.reference.authorizer.by_resource_type`)
end in the same search: among the caller's ALLOW ACLs, in insertion order, the
first one whose name no applicable DENY dominates (a DENY PREFIXED ``d`` dominates
every name that starts with ``d``; a LITERAL DENY only its own name).  Walking
the ALLOWs in insertion order finds it at once when ALLOWs are rarely dominated,
but when a DENY prefix covers them all (Kafka's benchmark data on about one
seed in five) that walk tests every ALLOW: linear, like Kafka's own default.

So the same answer is also searched *by name*: each scan keeps its ALLOWs'
``(name, seq)`` sorted by name (:attr:`~.index.Scan.keys_prefixed`,
``keys_literal``), where the names a DENY prefix ``d`` dominates are one
contiguous run, ``[d, after(d))``.  The walk by name tests one name, and when
it is dominated jumps over the whole run with a bisection; it keeps the
smallest sequence number it accepts.  Its cost is the number of undominated
ALLOWs plus the number of dominated runs, so a single DENY prefix over
everything costs a handful of steps.

Neither walk is always the cheap one, so they race (:func:`first_accepted`):
the insertion-order walk runs alone for a few steps (so that the common case
never builds the sorted keys), then the two alternate in small chunks and the
first to finish answers.  Both return the same ACL (the accepted one with the
smallest sequence number), so which one finishes does not change the answer,
and the cost is at most about twice the cheaper walk's.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Generator

from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.authorizer.decision import AuthorizationResult, Decision, Rule
from kafka_conformance.reference.indexed.index import Scan

__all__ = ["Accept", "Stream", "after", "first_accepted", "sorted_keys"]

Accept = Callable[[AclBinding], "Rule | None"]
"""The rule an ALLOW wins with, or None when it is denied or dominated."""
Stream = tuple[Scan, bool]
"""A scan's ALLOWs of one pattern kind: ``(scan, True)`` LITERAL, ``(scan, False)`` PREFIXED."""
Best = tuple[int, AclBinding, Rule]
_Walk = Generator[None, None, "Best | None"]

_ALONE = 32
"""Steps the insertion-order walk takes alone before the walk by name joins in."""
_CHUNK = 8
"""Steps each walk takes in turn afterwards."""
_LAST = chr(0x10FFFF)
_NAME = operator.attrgetter("pattern.name")


def after(stem: str) -> str | None:
    """The least string above every string that starts with ``stem`` (None: there is none).

    Python orders strings by code point, so the strings starting with ``stem``
    are exactly those in ``[stem, after(stem))``."""
    for at in range(len(stem) - 1, -1, -1):
        if stem[at] != _LAST:
            return stem[:at] + chr(ord(stem[at]) + 1)
    return None


def sorted_keys(stream: Stream) -> list[tuple[str, int]]:
    """The stream's ``(name, seq)`` sorted by name, built on first use (then kept by the scan)."""
    scan, literal = stream
    keys = scan.keys_literal if literal else scan.keys_prefixed
    if keys is None:
        source = scan.allow_literal if literal else scan.allow_prefixed
        keys = sorted(zip(map(_NAME, source.values()), source, strict=True))  # in C: no Python frame per ACL
        if literal:
            scan.keys_literal = keys
        else:
            scan.keys_prefixed = keys
    return keys


def first_accepted(
    streams: list[Stream], accept: Accept, dominating: Callable[[str], str | None]
) -> Decision | None:
    """ALLOWED for the accepted ACL with the smallest sequence number across the
    streams, None if none is accepted.  ``dominating(name)`` is the shortest
    denied prefix of ``name`` (None if undominated)."""
    in_order = _in_order(streams, accept)
    best: Best | None
    try:
        for _ in range(_ALONE):
            next(in_order)
        by_name = _by_name(streams, accept, dominating)
        while True:
            for _ in range(_CHUNK):
                next(in_order)
            try:
                for _ in range(_CHUNK):
                    next(by_name)
            except StopIteration as done:
                best = done.value
                break
    except StopIteration as done:
        best = done.value
    return None if best is None else Decision(AuthorizationResult.ALLOWED, best[2], (best[1],))


def _in_order(streams: list[Stream], accept: Accept) -> _Walk:
    """Each stream in insertion order, left once past the best found so far: no
    more ACLs are tested than a merged walk would test, without merging."""
    best: Best | None = None
    for scan, literal in streams:
        source = scan.allow_literal if literal else scan.allow_prefixed
        for seq, acl in source.items():
            if best is not None and seq > best[0]:
                break
            yield
            rule = accept(acl)
            if rule is not None:
                best = (seq, acl, rule)
                break
    return best


def _by_name(streams: list[Stream], accept: Accept, dominating: Callable[[str], str | None]) -> _Walk:
    """Each stream by name, jumping over the run of names a DENY prefix dominates."""
    best: Best | None = None
    for stream in streams:
        yield  # building the keys is one (possibly long) step
        keys = sorted_keys(stream)
        source = stream[0].allow_literal if stream[1] else stream[0].allow_prefixed
        at, end = 0, len(keys)
        while at < end:
            yield
            name, seq = keys[at]
            if best is not None and seq > best[0]:
                at += 1
                continue
            acl = source[seq]
            rule = accept(acl)
            if rule is not None:
                best = (seq, acl, rule)
                at += 1
                continue
            stem = dominating(name)
            if stem is None:
                at += 1  # denied literally: only this name
                continue
            bound = after(stem)
            at = end if bound is None else bisect.bisect_left(keys, (bound,), at + 1, end)
    return best
