"""Authorizer configuration: ``super.users`` and ``allow.everyone.if.no.acl.found``.

The two flavours parse the same keys differently, and users hit those
differences when they move from ZooKeeper to KRaft, so both rules are kept:

* StandardAuthorizer: ``super.users`` split on ``;``, entries trimmed, empty
  entries skipped, each must parse as a principal; the flag is
  ``Boolean.parseBoolean`` of the value (trimmed from 3.6.0): anything but
  case-insensitive ``true`` is false, never an error.
* AclAuthorizer: an empty segment in ``super.users`` is an error; the flag must
  be ``true`` or ``false`` in any case after trimming, anything else is an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from kafka_conformance.reference.acl.principal import KafkaPrincipal, parse_principal
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.errors import AclValueError, AuthorizerConfigError

__all__ = ["ALLOW_EVERYONE_KEY", "SUPER_USERS_KEY", "AuthorizerConfig", "parse_config"]

SUPER_USERS_KEY = "super.users"
ALLOW_EVERYONE_KEY = "allow.everyone.if.no.acl.found"


def _principal_set(values: Iterable[KafkaPrincipal]) -> frozenset[KafkaPrincipal]:
    return frozenset(values)


@attrs.frozen
class AuthorizerConfig:
    """The parsed configuration the decision procedure needs."""

    super_users: frozenset[KafkaPrincipal] = attrs.field(default=frozenset(), converter=_principal_set)
    allow_everyone_if_no_acl_found: bool = False

    @classmethod
    def of(cls, super_users: Iterable[str] = (), allow_everyone: bool = False) -> AuthorizerConfig:
        return cls(frozenset(parse_principal(p) for p in super_users), allow_everyone)

    def to_properties(self) -> dict[str, str]:
        """The raw properties a real authorizer would be configured with."""
        props = {ALLOW_EVERYONE_KEY: "true" if self.allow_everyone_if_no_acl_found else "false"}
        if self.super_users:
            props[SUPER_USERS_KEY] = ";".join(sorted(str(p) for p in self.super_users))
        return props


def parse_config(properties: Mapping[str, object], profile: Profile) -> AuthorizerConfig:
    """Parse raw properties exactly as the profile's authorizer does at configure()."""
    return AuthorizerConfig(
        _parse_super_users(properties.get(SUPER_USERS_KEY), profile),
        _parse_allow_everyone(properties.get(ALLOW_EVERYONE_KEY), profile),
    )


def _parse_super_users(raw: object, profile: Profile) -> frozenset[KafkaPrincipal]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, str):
        raise AuthorizerConfigError(SUPER_USERS_KEY, raw, "must be a string of ';'-separated principals")
    if profile.strict_config:
        # AclAuthorizer only reads a non-empty string, splits it with Java's
        # String.split (which drops *trailing* empty pieces), then every remaining
        # piece, trimmed, must parse: ";User:a" and "User:a;;User:b" fail, "User:a;" does not.
        if raw == "":
            return frozenset()
        pieces = raw.split(";")
        while pieces and pieces[-1] == "":
            pieces.pop()
        segments = [s.strip() for s in pieces]
    else:
        if raw.strip() == "":
            return frozenset()
        segments = [s.strip() for s in raw.split(";") if s.strip()]
    users = set()
    for position, segment in enumerate(segments, start=1):
        try:
            users.add(parse_principal(segment))
        except AclValueError as exc:
            raise AuthorizerConfigError(
                SUPER_USERS_KEY, raw, f"entry {position} ({segment!r}) is not 'Type:name'"
            ) from exc
    return frozenset(users)


def _parse_allow_everyone(raw: object, profile: Profile) -> bool:
    if raw is None:
        return False
    if isinstance(raw, bool):
        return raw
    if not isinstance(raw, str):
        raise AuthorizerConfigError(ALLOW_EVERYONE_KEY, raw, "must be 'true' or 'false'")
    value = raw.strip() if profile.trims_allow_everyone else raw
    if profile.strict_config and value.lower() not in ("true", "false"):
        raise AuthorizerConfigError(ALLOW_EVERYONE_KEY, raw, "must be 'true' or 'false'")
    return value.lower() == "true"
