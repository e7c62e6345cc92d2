"""The data structures behind :mod:`~kafka_conformance.reference.indexed.acls`.

The spec (:mod:`~kafka_conformance.reference.authorizer.decide`) scans every ACL per
action.  Here the ACLs of one resource type are kept in a :class:`TypeIndex`
shaped after the questions the evaluator asks, so an action costs a few dict
lookups per *distinct prefix length*, not one test per ACL:

* ``literal`` / ``prefixed`` / ``unknown``: name -> :class:`Bucket`, one map per
  stored pattern type, so step 4 of ``decide`` (the set R) is ``literal[N]``,
  ``literal['*']`` and ``prefixed[N[:k]]`` for the prefix lengths ``k`` present.
* :class:`Bucket`: the ACLs of one (type, pattern, name), keyed by the caller
  they can apply to, principal then host, so step 6 is at most two principal
  and four host lookups per bucket.  A sub-bucket holds at most one ACL per
  (operation, permission), so filtering it is constant work.
* :class:`Scan`: ``authorizeByResourceType`` reads ACLs by (principal, host,
  operation) across all names; these keep the allows in order and the denied
  names as counted sets, so a query touches only the combinations it can match.

Every ACL carries a sequence number, increasing in the order ACLs were added.
Dicts keyed by it iterate in that order, which is the order the spec reports
ACLs in (its input list is the store's insertion order).  Removal is O(1) per
structure touched; nothing is ever rebuilt wholesale except lazily built sort
orders that are only needed by rare profiles.
"""

from __future__ import annotations

import bisect
from typing import TypeVar

from kafka_conformance.reference.acl.values import (
    WILDCARD_RESOURCE,
    AclBinding,
    AclPermissionType,
    PatternType,
)
from kafka_conformance.reference.authorizer.walk import java_order
from kafka_conformance.reference.indexed.merged import MergedAcls

__all__ = ["Bucket", "PrincipalKey", "Scan", "ScanKey", "TypeIndex", "has_surrogate"]

PrincipalKey = tuple[str | None, str | None]
"""A stored principal parsed to (type, name); ``(None, None)`` stands for ``User:*``."""
ScanKey = tuple[str | None, str | None, str, int]
"""(principal type, principal name, host, ``id`` of the operation member)."""

_K = TypeVar("_K", int, str)
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
LITERAL, PREFIXED = PatternType.LITERAL, PatternType.PREFIXED


def has_surrogate(text: str) -> bool:
    """Lone surrogates make distinct names sort equal in Java order (see TypeIndex)."""
    return not text.isascii() and any("\ud800" <= c <= "\udfff" for c in text)


def _inc(counts: dict[_K, int], key: _K) -> bool:
    """Count one more ``key``; True when it is new (so a derived order is stale)."""
    n = counts.get(key, 0)
    counts[key] = n + 1
    return n == 0


def _dec(counts: dict[_K, int], key: _K) -> bool:
    """Count one fewer ``key``; True when it is gone."""
    n = counts[key] - 1
    if n:
        counts[key] = n
        return False
    del counts[key]
    return True


class Bucket:
    """The ACLs of one (resource type, pattern type, name), in insertion order."""

    __slots__ = ("_snapshot", "bad", "entries", "who")

    def __init__(self) -> None:
        self.entries: dict[int, AclBinding] = {}
        self.who: dict[PrincipalKey, dict[str, dict[int, AclBinding]]] = {}
        """Parseable (or ``User:*``) principals -> host -> entries: the callers they can apply to."""
        self.bad: dict[int, AclBinding] = {}
        """Principals without a colon: evaluating them raises, whoever asks."""
        self._snapshot: tuple[tuple[int, ...], tuple[AclBinding, ...]] | None = None

    def snapshot(self) -> tuple[tuple[int, ...], tuple[AclBinding, ...]]:
        """(sequence numbers, entries) in order, as immutable tuples.

        Cached until the bucket changes: R is often one big bucket ('*') shared by
        every name, and a lazily merged R (:class:`~.merged.MergedAcls`) holds these
        tuples instead of copying them, so later changes never alter an answer given.
        """
        if self._snapshot is None:
            self._snapshot = (tuple(self.entries), tuple(self.entries.values()))
        return self._snapshot

    def as_tuple(self) -> tuple[AclBinding, ...]:
        """All entries in order (the cached snapshot's)."""
        return self.snapshot()[1]

    def first_seq(self) -> int:
        return next(iter(self.entries))

    def last_seq(self) -> int:
        return next(reversed(self.entries))

    def add(self, seq: int, acl: AclBinding, principal: PrincipalKey | None) -> None:
        self.entries[seq] = acl
        self._snapshot = None
        if principal is None:
            self.bad[seq] = acl
        else:
            hosts = self.who.setdefault(principal, {})
            hosts.setdefault(acl.entry.host, {})[seq] = acl

    def remove(self, seq: int, acl: AclBinding, principal: PrincipalKey | None) -> bool:
        """Remove one entry; True when the bucket is now empty."""
        del self.entries[seq]
        self._snapshot = None
        if principal is None:
            del self.bad[seq]
        else:
            hosts = self.who[principal]
            sub = hosts[acl.entry.host]
            del sub[seq]
            if not sub:
                del hosts[acl.entry.host]
                if not hosts:
                    del self.who[principal]
        return not self.entries


class Scan:
    """ACLs of one type for one (principal, host, operation), as the by-type scans read them.

    Only ALLOW and DENY ACLs are kept: both by-type algorithms ignore other
    permissions, and DENYs with an UNKNOWN pattern.
    """

    __slots__ = (
        "allow_literal",
        "allow_other",
        "allow_prefixed",
        "allow_wild",
        "deny_literal",
        "deny_prefix",
        "deny_prefix_lens",
        "deny_wild",
        "keys_literal",
        "keys_prefixed",
        "size",
    )

    def __init__(self) -> None:
        self.allow_literal: dict[int, AclBinding] = {}
        """LITERAL allows, the wildcard ``*`` included (AclAuthorizer meets it in order)."""
        self.allow_wild: dict[int, AclBinding] = {}
        self.allow_prefixed: dict[int, AclBinding] = {}
        self.allow_other: dict[int, AclBinding] = {}
        """Allows with an UNKNOWN pattern: only AclAuthorizer's "any allow" step sees them."""
        self.deny_wild: dict[int, AclBinding] = {}
        self.deny_literal: dict[str, int] = {}
        """Denied literal names (``*`` excluded, it is in deny_wild) -> ACL count."""
        self.deny_prefix: dict[str, int] = {}
        self.deny_prefix_lens: dict[int, int] = {}
        self.keys_literal: list[tuple[str, int]] | None = None
        """``(name, seq)`` of ``allow_literal`` sorted by name: built by the first
        by-type query that needs it (:mod:`.dominance`), then kept up to date."""
        self.keys_prefixed: list[tuple[str, int]] | None = None
        """The same for ``allow_prefixed``."""
        self.size = 0

    def update(self, seq: int, acl: AclBinding, adding: bool) -> bool:
        """Add or remove ``acl``; True when the scan is now empty."""
        pattern = acl.pattern
        name, ptype = pattern.name, pattern.pattern_type
        if acl.entry.permission_type is ALLOW:
            if ptype is LITERAL:
                target = self.allow_literal
                keys = self.keys_literal
                if name == WILDCARD_RESOURCE:
                    _put(self.allow_wild, seq, acl, adding)
            else:
                target = self.allow_prefixed if ptype is PREFIXED else self.allow_other
                keys = self.keys_prefixed if ptype is PREFIXED else None
            _put(target, seq, acl, adding)
            if keys is not None:
                # A memmove of the list: linear, but in C, and only for scans a by-type
                # query has read by name.
                if adding:
                    bisect.insort(keys, (name, seq))
                else:
                    del keys[bisect.bisect_left(keys, (name, seq))]
        elif ptype is LITERAL and name == WILDCARD_RESOURCE:
            _put(self.deny_wild, seq, acl, adding)
        elif ptype is LITERAL:
            (_inc if adding else _dec)(self.deny_literal, name)
        else:  # PREFIXED (callers never pass a DENY with an UNKNOWN pattern)
            (_inc if adding else _dec)(self.deny_prefix, name)
            (_inc if adding else _dec)(self.deny_prefix_lens, len(name))
        self.size += 1 if adding else -1
        return self.size == 0


def _put(target: dict[int, AclBinding], seq: int, acl: AclBinding, adding: bool) -> None:
    if adding:
        target[seq] = acl
    else:
        del target[seq]


class TypeIndex:
    """Every ACL of one resource type, indexed for ``decide`` and the by-type queries."""

    def __init__(self) -> None:
        self.literal: dict[str, Bucket] = {}
        self.prefixed: dict[str, Bucket] = {}
        self.unknown: dict[str, Bucket] = {}
        """Stored pattern UNKNOWN: StandardAuthorizer's lookup treats it as a prefix."""
        self.scan: dict[ScanKey, Scan] = {}
        self.bad_by_host: dict[str, dict[int, AclBinding]] = {}
        self.size = 0
        self.surrogate_names = 0
        self.r_cache: dict[tuple[str, int], MergedAcls] = {}
        """Memoised set R per (name, matching mode); cleared on every change."""
        self.r_cache_weight = 0
        self.r_seen: set[tuple[str, int]] = set()
        """Keys asked for once: R is memoised on a key's second request."""
        self.candidates: list[str] | None = None
        """Memoised ground-truth candidate names; cleared on every change."""
        self._len_counts: dict[PatternType, dict[int, int]] = {PREFIXED: {}, PatternType.UNKNOWN: {}}
        self._lens: dict[PatternType, list[int]] = {}
        self._name_counts: dict[str, int] = {}
        self._sorted: tuple[list[bytes], list[str]] | None = None

    def buckets(self, ptype: PatternType) -> dict[str, Bucket]:
        if ptype is LITERAL:
            return self.literal
        return self.prefixed if ptype is PREFIXED else self.unknown

    def prefix_lengths(self, ptype: PatternType) -> list[int]:
        """The distinct name lengths of PREFIXED (or UNKNOWN) buckets, ascending."""
        lens = self._lens.get(ptype)
        if lens is None:
            lens = self._lens[ptype] = sorted(self._len_counts[ptype])
        return lens

    def sorted_names(self) -> tuple[list[bytes], list[str]]:
        """All distinct names in Java ``String`` order, for the KAFKA-14265 walk.

        Built on first use and then kept up to date by add/remove (an O(n)
        ``list.insert``, a memmove) so profiles without the bug never pay for it.
        """
        if self._sorted is None:
            names = sorted(self._name_counts, key=java_order)
            self._sorted = ([java_order(n) for n in names], names)
        return self._sorted

    def add(self, seq: int, acl: AclBinding, principal: PrincipalKey | None) -> None:
        self._update(seq, acl, principal, adding=True)

    def remove(self, seq: int, acl: AclBinding, principal: PrincipalKey | None) -> None:
        self._update(seq, acl, principal, adding=False)

    def _update(
        self, seq: int, acl: AclBinding, principal: PrincipalKey | None, *, adding: bool
    ) -> None:
        name, ptype = acl.pattern.name, acl.pattern.pattern_type
        buckets = self.buckets(ptype)
        if adding:
            bucket = buckets.get(name)
            if bucket is None:
                bucket = buckets[name] = Bucket()
                if ptype is not LITERAL and _inc(self._len_counts[ptype], len(name)):
                    self._lens.pop(ptype, None)
            bucket.add(seq, acl, principal)
        elif buckets[name].remove(seq, acl, principal):
            del buckets[name]
            if ptype is not LITERAL and _dec(self._len_counts[ptype], len(name)):
                self._lens.pop(ptype, None)
        self._update_scans(seq, acl, principal, adding)
        self._update_names(name, adding)
        self.size += 1 if adding else -1
        if self.r_cache:
            self.r_cache.clear()
            self.r_cache_weight = 0
        self.candidates = None

    def _update_scans(self, seq: int, acl: AclBinding, principal: PrincipalKey | None, adding: bool) -> None:
        entry = acl.entry
        if principal is None:
            by_host = self.bad_by_host.setdefault(entry.host, {})
            _put(by_host, seq, acl, adding)
            if not by_host:
                del self.bad_by_host[entry.host]
            return
        permission = entry.permission_type
        if permission is not ALLOW and permission is not DENY:
            return
        if permission is DENY and acl.pattern.pattern_type is PatternType.UNKNOWN:
            return
        key = (principal[0], principal[1], entry.host, id(entry.operation))
        scan = self.scan.get(key)
        if scan is None:
            scan = self.scan[key] = Scan()
        if scan.update(seq, acl, adding):
            del self.scan[key]

    def _update_names(self, name: str, adding: bool) -> None:
        changed = (_inc if adding else _dec)(self._name_counts, name)
        if has_surrogate(name):
            # Java order can tie distinct names here; decide() then falls back to
            # the spec, and the sorted list is rebuilt from scratch when needed.
            self.surrogate_names += 1 if adding else -1
            self._sorted = None
        if changed and self._sorted is not None:
            keys, names = self._sorted
            key = java_order(name)
            at = bisect.bisect_left(keys, key)
            if adding:
                keys.insert(at, key)
                names.insert(at, name)
            else:
                del keys[at]
                del names[at]
