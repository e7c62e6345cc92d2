"""Step 4 of ``decide`` over a TypeIndex: which buckets hold R, and R itself.

The spec's :func:`~kafka_conformance.reference.authorizer.decide.matching_acls` tests
every ACL's name; here R is found by lookups (literal ``N``, literal ``*``,
PREFIXED/UNKNOWN ``N[:k]`` for the prefix lengths present) or, for the
KAFKA-14265 profiles, by the same descending walk over a sorted list of the
type's distinct names.  R comes back as *groups* of buckets: the spec orders
the ACLs within a group by insertion and puts the groups one after another, so
``(group, seq)`` is an ACL's position in the spec's list.

The full list of R is needed only when no ACL applies (the spec's answer then
lists it); :func:`r_tuple` hands it out as a lazily merged view of the buckets
(:mod:`.merged`), so that answer costs the number of buckets, not of ACLs.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from collections.abc import Iterator
from typing import cast

from kafka_conformance.reference.acl.values import WILDCARD_RESOURCE, AclBinding, PatternType
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.authorizer.walk import java_order
from kafka_conformance.reference.indexed.index import Bucket, TypeIndex
from kafka_conformance.reference.indexed.merged import MergedAcls

__all__ = ["Flags", "flags_for", "matching_buckets", "merge_buckets", "r_tuple", "shadowed_groups"]

_R_CACHE_LIMIT = 4096
_R_CACHE_WEIGHT = 1_000_000
"""Bound on the ACL references the memoised R lists of one type hold (8 MB)."""


class Flags:
    """The profile flags ``decide`` reads, computed once: Profile properties
    re-parse version strings on every access, too slow for a hot path."""

    __slots__ = (
        "default_when_none_applies",
        "empty_prefix_all",
        "mode",
        "rejects_non_literal",
        "session_throws",
        "shadowing",
        "single_char",
        "star_skip",
        "text_principals",
        "unknown_pattern_prefix",
        "unknown_permission_denies",
    )

    def __init__(self, profile: Profile) -> None:
        self.rejects_non_literal = profile.rejects_non_literal_actions
        self.session_throws = profile.wildcard_principal_session_throws
        self.text_principals = profile.compares_stored_principal_text
        self.shadowing = profile.prefix_shadowing_bug
        self.single_char = profile.single_char_prefix_bug
        self.empty_prefix_all = profile.empty_prefix_matches_all
        self.unknown_pattern_prefix = profile.is_standard
        self.unknown_permission_denies = profile.non_allow_deny_permission_denies
        self.default_when_none_applies = profile.default_when_no_acl_applies
        self.star_skip = profile.star_names_skip_wildcard_literal
        # Which R a name gets depends only on these five flags.
        self.mode = (
            16 * self.star_skip
            + 8 * self.shadowing
            + 4 * self.single_char
            + 2 * self.empty_prefix_all
            + self.unknown_pattern_prefix
        )


_CACHE: dict[int, tuple[Profile, Flags]] = {}


def flags_for(profile: Profile) -> Flags:
    """The profile's Flags, cached by identity (profiles are frozen)."""
    cached = _CACHE.get(id(profile))
    if cached is not None and cached[0] is profile:
        return cached[1]
    if len(_CACHE) > 256:
        _CACHE.clear()
    flags = Flags(profile)
    _CACHE[id(profile)] = (profile, flags)
    return flags


def matching_buckets(index: TypeIndex, name: str, flags: Flags) -> list[Bucket]:
    """Step 4 as lookups: literal N, literal '*', and PREFIXED/UNKNOWN N[:k]."""
    found = []
    bucket = index.literal.get(name)
    if bucket is not None:
        found.append(bucket)
    if name != WILDCARD_RESOURCE and not (flags.star_skip and name.startswith(WILDCARD_RESOURCE)):
        bucket = index.literal.get(WILDCARD_RESOURCE)
        if bucket is not None:
            found.append(bucket)
    size = len(name)
    if index.prefixed:
        for k in index.prefix_lengths(PatternType.PREFIXED):
            if k > size:
                break
            if k == 0 and not (flags.empty_prefix_all or size == 0):
                continue  # AclAuthorizer's range lookup only finds "" for the empty name
            if k == 1 and flags.single_char:
                continue  # KAFKA-7702: one-character prefixes never matched
            bucket = index.prefixed.get(name[:k])
            if bucket is not None:
                found.append(bucket)
    if index.unknown and flags.unknown_pattern_prefix:
        for k in index.prefix_lengths(PatternType.UNKNOWN):
            if k > size:
                break
            bucket = index.unknown.get(name[:k])
            if bucket is not None:
                found.append(bucket)
    return found


def shadowed_groups(index: TypeIndex, name: str) -> list[list[Bucket]]:
    """KAFKA-14265's walk (see ``walk.shadowed_lookup``) over distinct names.

    Each group is one name's buckets, merged by insertion order as the spec's
    stable sort leaves them; groups follow the walk, then the wildcard.  The
    walk steps over a name '*' that holds only LITERAL ACLs (the wildcard entry)
    and stops at any other name that is not a prefix of the action's.
    """
    keys, names = index.sorted_names()
    groups = []
    visited: set[str] = set()
    at = bisect.bisect_right(keys, java_order(name)) - 1
    while at >= 0:
        candidate = names[at]
        if not name.startswith(candidate):
            if candidate == WILDCARD_RESOURCE and not (
                WILDCARD_RESOURCE in index.prefixed or WILDCARD_RESOURCE in index.unknown
            ):
                at -= 1  # the LITERAL '*' entries are stepped over, not a stop
                continue
            break
        visited.add(candidate)
        group = _group(index, candidate, name)
        if group:
            groups.append(group)
        at -= 1
    starred = name.startswith(WILDCARD_RESOURCE)
    if starred or WILDCARD_RESOURCE not in index.prefixed:
        # The second pass (the wildcard lookup) starts at ('*', LITERAL) and walks on below '*':
        # it adds the prefixes of the name the first pass was stopped before, beginning with
        # the PREFIXED '*' ACLs themselves when the name starts with '*' (its LITERAL '*'
        # entries are only the name's own when the name is '*', which the first pass visits).
        star = index.prefixed.get(WILDCARD_RESOURCE)
        if starred and star is not None and WILDCARD_RESOURCE not in visited:
            groups.append([star])
        at = bisect.bisect_left(keys, java_order(WILDCARD_RESOURCE)) - 1
        while at >= 0:
            candidate = names[at]
            if not name.startswith(candidate):
                break
            if candidate not in visited:
                group = _group(index, candidate, name)
                if group:
                    groups.append(group)
            at -= 1
    if not starred:
        wildcard = index.literal.get(WILDCARD_RESOURCE)
        if wildcard is not None:
            groups.append([wildcard])
    return groups


def _group(index: TypeIndex, candidate: str, name: str) -> list[Bucket]:
    """One name's buckets on the walk: its LITERAL ACLs only when it is the name itself."""
    return [
        b
        for b in (
            index.literal.get(candidate) if candidate == name else None,
            index.prefixed.get(candidate),
            index.unknown.get(candidate),
        )
        if b is not None
    ]


def r_tuple(index: TypeIndex, groups: list[list[Bucket]], name: str, flags: Flags) -> tuple[AclBinding, ...]:
    """All of R in the spec's order, as a :class:`~.merged.MergedAcls` over the buckets'
    snapshots: O(buckets), never O(|R|), until someone reads it.

    Typed as the tuple it stands for (it compares, hashes, prints and pickles as
    that tuple; see :mod:`.merged`).  Memoised per (name, mode) until the type
    changes, so a repeated question that is also read materialises R once; the
    memo is bounded by entries and by the ACL references its views stand for,
    and evicts oldest first.
    """
    key = (name, flags.mode)
    cached = index.r_cache.get(key)
    if cached is None:
        cached = MergedAcls([[bucket.snapshot() for bucket in group] for group in groups])
        if key not in index.r_seen:
            # Memoise on the second request only: a name asked once (a scan over
            # many resources) would otherwise evict the hot ones.
            if len(index.r_seen) >= _R_CACHE_LIMIT:
                index.r_seen.clear()
            index.r_seen.add(key)
            return cast("tuple[AclBinding, ...]", cached)
        memo = index.r_cache
        while memo and (len(memo) >= _R_CACHE_LIMIT or index.r_cache_weight >= _R_CACHE_WEIGHT):
            # Evict the oldest entry: dropping all at once would stall one call.
            index.r_cache_weight -= len(memo.pop(next(iter(memo))))
        memo[key] = cached
        index.r_cache_weight += len(cached)
    return cast("tuple[AclBinding, ...]", cached)


def merge_buckets(group: list[Bucket]) -> tuple[AclBinding, ...]:
    """Buckets merged by insertion order; concatenation when their ranges don't overlap."""
    if len(group) == 1:
        return group[0].as_tuple()
    ordered = sorted(group, key=Bucket.first_seq)
    if all(a.last_seq() < b.first_seq() for a, b in itertools.pairwise(ordered)):
        # tuple + tuple copies in C; tuple(chain(...)) iterates in Python, 8x slower
        return functools.reduce(operator.add, [b.as_tuple() for b in ordered])
    pairs: Iterator[tuple[int, AclBinding]] = itertools.chain.from_iterable(
        b.entries.items() for b in group
    )
    return tuple(acl for _, acl in sorted(pairs))
