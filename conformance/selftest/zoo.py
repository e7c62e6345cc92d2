"""The zoo: every mutant by a stable name, with the bug class it stands for.

``ZOO[name]`` is a factory for the kit's protocol, like a ``python:`` target's.
Names are stable (the scorecard and ``--mutant`` use them); a ``kafka-NNNNN``
prefix means the mutant reproduces that Kafka bug.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kafka_conformance.authorizer.domain.classes import DOMAIN
from kafka_conformance.selftest import zoo_lifecycle as life
from kafka_conformance.selftest import zoo_matching as match
from kafka_conformance.selftest.independent import ZooAdapter, ZooAuthorizer

__all__ = ["SHOWN_ONLY_BY", "ZOO", "Mutant", "correct", "factories"]


@attrs.frozen
class Mutant:
    name: str
    area: str
    """principal, host, name, operation, decision, config, readiness, records, by-type, listing."""
    what: str
    make: Callable[[], ZooAdapter]
    shown_only_by: str = ""
    """The input class whose cases alone show the defect, where that class is hostile input
    (:data:`SHOWN_ONLY_BY`): ``--mode well-formed`` never asks it, so cannot catch the mutant."""

    @property
    def hostile_only(self) -> bool:
        return any(c.name == self.shown_only_by and "hostile" in c.needs for c in DOMAIN)


def correct() -> ZooAdapter:
    """The zoo's unmutated authorizer: it must pass the whole suite."""
    return ZooAdapter(ZooAuthorizer())


def _impl(cls: type[ZooAuthorizer]) -> Callable[[], ZooAdapter]:
    return lambda: ZooAdapter(cls())


def _adapter(cls: type[ZooAdapter]) -> Callable[[], ZooAdapter]:
    return lambda: cls(ZooAuthorizer())


_ENTRIES: tuple[tuple[str, str, type], ...] = (
    ("user-star-only-users", "principal", match.UserStarOnlyUsers),
    ("principals-ignore-case", "principal", match.PrincipalsIgnoreCase),
    ("principals-trimmed", "principal", match.PrincipalsTrimmed),
    ("typed-wildcards", "principal", match.TypedWildcards),
    ("lowercase-user-star", "principal", match.LowercaseUserStar),
    ("principal-type-ignored", "principal", match.PrincipalTypeIgnored),
    ("empty-principal-name-is-wildcard", "principal", match.EmptyNameIsWildcard),
    ("host-ignored", "host", match.HostIgnored),
    ("host-prefix", "host", match.HostPrefix),
    ("ipv6-normalised", "host", match.Ipv6Normalised),
    ("wildcard-host-ignored", "host", match.WildcardHostIgnored),
    ("prefixed-star-is-wildcard", "name", match.PrefixedStarIsWildcard),
    ("prefix-not-equal", "name", match.PrefixNotEqual),
    ("names-ignore-case", "name", match.NamesIgnoreCase),
    ("kafka-14265-longest-prefix-only", "name", match.LongestPrefixOnly),
    ("kafka-7702-one-char-prefix", "name", match.OneCharPrefixMissed),
    ("prefix-reversed", "name", match.PrefixReversed),
    ("wildcard-resource-ignored", "name", match.WildcardResourceIgnored),
    ("star-names-see-wildcard", "name", match.StarNamesSeeWildcard),
    ("star-glob", "name", match.StarGlob),
    ("literal-as-prefix", "name", match.LiteralAsPrefix),
    ("empty-prefix-matches-nothing", "name", match.EmptyPrefixMatchesNothing),
    ("empty-literal-is-wildcard", "name", match.EmptyLiteralIsWildcard),
    ("wildcard-any-type", "name", match.WildcardAnyType),
    ("prefixed-any-type", "name", match.PrefixedAnyType),
    ("slash-truncates", "name", match.SlashTruncates),
    ("probe-name-ignored", "name", match.ProbeNameIgnored),
    ("deny-implies", "operation", match.DenyImplies),
    ("deny-all-ignored", "operation", match.DenyAllIgnored),
    ("allow-all-ignored", "operation", match.AllowAllIgnored),
    ("no-implication", "operation", match.NoImplication),
    ("implication-reversed", "operation", match.ImplicationReversed),
    ("partial-implication", "operation", match.PartialImplication),
    ("allow-beats-deny", "decision", match.AllowBeatsDeny),
    ("first-match-wins", "decision", match.FirstMatchWins),
    ("kafka-14435-default-when-none-applies", "decision", match.DefaultWhenNoneApplies),
    ("default-allow", "decision", match.DefaultAllow),
    ("wildcard-principal-deny-ignored", "decision", match.WildcardDenyIgnored),
    ("deny-beats-super-user", "config", life.DenyBeatsSuperUser),
    ("super-users-untrimmed", "config", life.SuperUsersUntrimmed),
    ("super-users-ignore-case", "config", life.SuperUsersIgnoreCase),
    ("super-users-empty-entry-refused", "config", life.SuperUsersEmptyEntryRefused),
    ("super-users-unchecked", "config", life.SuperUsersUnchecked),
    ("flag-case-sensitive", "config", life.FlagCaseSensitive),
    ("flag-untrimmed", "config", life.FlagUntrimmed),
    ("flag-strict", "config", life.FlagStrict),
    ("flag-defaults-true", "config", life.FlagDefaultsTrue),
    ("flag-overrides-acls", "config", life.FlagOverridesAcls),
    ("super-user-waits-for-load", "readiness", life.SuperUserWaitsForLoad),
    ("serves-before-ready", "readiness", life.ServesBeforeReady),
    ("kafka-14733-non-literal-answered", "readiness", life.NonLiteralAnswered),
    ("non-literal-denied", "readiness", life.NonLiteralDenied),
    ("kafka-17759-wildcard-session-answered", "readiness", life.WildcardSessionAnswered),
    ("id-reuse-overwrites", "records", life.IdReuseOverwrites),
    ("unknown-remove-ignored", "records", life.UnknownRemoveIgnored),
    ("duplicate-content-kept", "records", life.DuplicateContentKept),
    ("refused-add-kept", "records", life.RefusedAddKept),
    ("snapshot-merges", "records", life.SnapshotMerges),
    ("re-add-tombstoned", "records", life.ReaddTombstoned),
    ("removal-held-back", "records", life.RemovalHeldBack),
    ("by-type-deny-only-wildcard", "by-type", life.ByTypeDenyOnlyWildcard),
    ("by-type-no-probe", "by-type", life.ByTypeNoProbe),
    ("by-type-wildcard-deny-ignored", "by-type", life.ByTypeWildcardDenyIgnored),
    ("by-type-literal-deny-ignored", "by-type", life.ByTypeLiteralDenyIgnored),
    ("by-type-host-ignored", "by-type", life.ByTypeHostIgnored),
    ("count-by-content", "listing", life.CountByContent),
    ("listing-match-as-exact", "listing", life.ListingMatchAsExact),
)


SHOWN_ONLY_BY = {
    "empty-principal-name-is-wildcard": "principal:empty-name-not-wildcard",
    "ipv6-normalised": "host:ipv6-rendering",
    "star-names-see-wildcard": "name:star-name-and-wildcard",
    "star-glob": "name:star-not-a-glob",
    "empty-prefix-matches-nothing": "name:empty-prefix-decides",
    "empty-literal-is-wildcard": "name:empty-literal-not-wildcard",
    "slash-truncates": "name:slash-not-a-separator",
    "probe-name-ignored": "name:probe-decides",
    "super-users-empty-entry-refused": "config:super-users-empty-entry",
    "super-users-unchecked": "config:super-users-malformed",
    "flag-strict": "config:allow-everyone-invalid",
    "kafka-14733-non-literal-answered": "action:non-literal",
    "non-literal-denied": "action:non-literal",
    "kafka-17759-wildcard-session-answered": "principal:wildcard-session",
}
"""Mutants whose defect only input of one hostile class shows (Kafka refuses it, or no client
sends it): a well-formed run is not expected to catch them, and the scorecard says so rather
than count them.  ``tests/quality/test_zoo.py`` holds each to being caught in hostile mode."""


def _mutant(name: str, area: str, cls: type[ZooAuthorizer] | type[ZooAdapter]) -> Mutant:
    make = _adapter(cls) if issubclass(cls, ZooAdapter) else _impl(cls)
    return Mutant(name, area, (cls.__doc__ or "").strip().splitlines()[0], make, SHOWN_ONLY_BY.get(name, ""))


ZOO: dict[str, Mutant] = {name: _mutant(name, area, cls) for name, area, cls in _ENTRIES}


class _Factories:
    """Every mutant's factory as an attribute, so that a mutant is a ``python:`` target like any
    other (``python:kafka_conformance.selftest.zoo:factories.allow-beats-deny``): its saved cases
    then replay by their own target spec, and a report can hold mutants as columns."""

    def __getattr__(self, name: str) -> Callable[[], ZooAdapter]:
        if name == "correct":
            return correct
        mutant = ZOO.get(name)
        if mutant is None:
            raise AttributeError(f"no zoo mutant named {name!r} (kafka-conformance selftest --list names them)")
        return mutant.make

    def __dir__(self) -> list[str]:
        return ["correct", *ZOO]


factories = _Factories()
