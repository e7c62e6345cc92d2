"""The set R of a "no ACL applied" answer as a lazily merged, immutable sequence.

When ACLs match a resource by name but none applies to the caller, the spec's
answer lists all of R.  On Kafka's benchmark data R holds the
``resourceCount/10`` ACLs on LITERAL ``*``, so copying R into a fresh tuple made
every cold ``authorize()`` linear in the ACL count (and freeing the tuple again
cost as much).  :class:`MergedAcls` keeps the buckets' cached snapshots (immutable
tuples, see :meth:`~.index.Bucket.snapshot`) and merges them only when it is
read, so building an answer costs the number of buckets, not of ACLs.

It stands in for the tuple in :attr:`Decision.acls`: equal to it (either way
round), hashed and printed as it, concatenable with tuples, and pickled *as*
the tuple.  It is not a ``tuple`` instance (``isinstance`` says so); reading it
element-wise the first time costs O(|R|), once.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import overload

from kafka_conformance.reference.acl.values import AclBinding

__all__ = ["MergedAcls", "Part"]

Part = tuple[tuple[int, ...], tuple[AclBinding, ...]]
"""One bucket's snapshot: its sequence numbers and its ACLs, in insertion order."""


class MergedAcls(Sequence[AclBinding]):
    """Groups of bucket snapshots, read as the spec's list: group after group,
    each group's buckets merged by sequence number (insertion order).

    Immutable: the snapshots are tuples, and the only state written later is
    the cache of the merged tuple.
    """

    __slots__ = ("_groups", "_len", "_merged")

    def __init__(self, groups: Sequence[Sequence[Part]]) -> None:
        # Plain loops: this runs on every cold answer, where generator frames show.
        frozen = []
        size = 0
        for group in groups:
            parts = tuple(group)
            for part in parts:
                size += len(part[1])
            frozen.append(parts)
        self._groups = tuple(frozen)
        self._len = size
        self._merged: tuple[AclBinding, ...] | None = None

    def as_tuple(self) -> tuple[AclBinding, ...]:
        """The spec's tuple, built on first use and kept."""
        if self._merged is None:
            parts = [_merge(group) for group in self._groups]
            self._merged = functools.reduce(operator.add, parts, ())
        return self._merged

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    @overload
    def __getitem__(self, index: int) -> AclBinding: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[AclBinding, ...]: ...

    def __getitem__(self, index: int | slice) -> AclBinding | tuple[AclBinding, ...]:
        return self.as_tuple()[index]

    def __iter__(self) -> Iterator[AclBinding]:
        return iter(self.as_tuple())

    def __contains__(self, item: object) -> bool:
        return item in self.as_tuple()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MergedAcls):
            return other is self or (other._len == self._len and other.as_tuple() == self.as_tuple())
        if isinstance(other, tuple):
            return len(other) == self._len and other == self.as_tuple()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return repr(self.as_tuple())

    def __add__(self, other: object) -> tuple[AclBinding, ...]:
        if isinstance(other, (tuple, MergedAcls)):
            return self.as_tuple() + tuple(other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[AclBinding, ...]:
        if isinstance(other, tuple):
            return other + self.as_tuple()
        return NotImplemented

    def __reduce__(self) -> tuple[type[tuple[AclBinding, ...]], tuple[tuple[AclBinding, ...]]]:
        """Pickled (and copied) as the plain tuple: a value, not a view, on the other side."""
        return (tuple, (self.as_tuple(),))


def _merge(group: tuple[Part, ...]) -> tuple[AclBinding, ...]:
    """One group's buckets in insertion order; concatenation when their ranges don't overlap."""
    if len(group) == 1:
        return group[0][1]
    ordered = sorted(group, key=lambda part: part[0][0])
    if all(a[0][-1] < b[0][0] for a, b in itertools.pairwise(ordered)):
        # tuple + tuple copies in C; tuple(chain(...)) iterates in Python, 8x slower
        return functools.reduce(operator.add, [part[1] for part in ordered])
    streams = [zip(seqs, acls, strict=True) for seqs, acls in group]
    return tuple(acl for _, acl in heapq.merge(*streams, key=operator.itemgetter(0)))
