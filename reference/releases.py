"""Kafka releases: parsing, ordering, and the range of releases the reference models.

Both specs (authorization and idempotence) are version-aware; this module is
the one place a release string becomes a value, so that every part of the kit
compares releases the same way.
"""

from __future__ import annotations

import functools
import re

import attrs

from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "APACHE_KAFKA_RELEASES",
    "DEFAULT_RELEASE",
    "DEFAULT_VERSION",
    "IDEMPOTENCE_RELEASES",
    "LATEST_VERSION",
    "OLDEST_VERSION",
    "KafkaVersion",
    "fixed_in",
    "known_release",
    "release",
]

_VERSION_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")


@functools.total_ordering
@attrs.frozen(order=False)
class KafkaVersion:
    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str | KafkaVersion) -> KafkaVersion:
        if isinstance(text, KafkaVersion):
            return text
        match = _VERSION_RE.match(str(text).strip())
        if not match:
            raise AclValueError(
                "kafka version", text, "expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. 3.9.0"
            )
        major, minor, patch = match.groups()
        return cls(int(major), int(minor), int(patch or 0))

    def _key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, KafkaVersion):
            return NotImplemented
        return self._key() < other._key()

    def at_least(self, text: str) -> bool:
        return self >= release(text)

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


@functools.cache
def release(text: str) -> KafkaVersion:
    """A release boundary named in the code, parsed once: the profile flags
    compare against them for every action the authorizer decides."""
    return KafkaVersion.parse(text)


LATEST_VERSION = KafkaVersion(4, 3, 0)
"""The newest release whose semantics this reference encodes."""
DEFAULT_VERSION = LATEST_VERSION
DEFAULT_RELEASE = str(DEFAULT_VERSION)
"""The release every suite holds a target to when none is named, as text (``--kafka-version``'s
default everywhere): the newest release whose semantics both specs encode.  Releases after it
(4.3.1, 4.4.0) are modelled as it and were checked against real Kafka."""
OLDEST_VERSION = KafkaVersion(2, 0, 0)
"""PREFIXED ACLs (KIP-290) arrived in 2.0.0; older releases are out of scope."""


def fixed_in(version: KafkaVersion, backport: str, first: str) -> bool:
    """True when ``version`` contains a fix released as ``backport`` on its own
    minor line and in ``first`` and every release after it."""
    bp = release(backport)
    if (version.major, version.minor) == (bp.major, bp.minor):
        return version >= bp
    return version >= release(first)


APACHE_KAFKA_RELEASES = tuple(KafkaVersion.parse(v) for v in (
    "2.0.0", "2.0.1", "2.1.0", "2.1.1", "2.2.0", "2.2.1", "2.2.2", "2.3.0", "2.3.1", "2.4.0", "2.4.1",
    "2.5.0", "2.5.1", "2.6.0", "2.6.1", "2.6.2", "2.6.3", "2.7.0", "2.7.1", "2.7.2", "2.8.0", "2.8.1",
    "2.8.2", "3.0.0", "3.0.1", "3.0.2", "3.1.0", "3.1.1", "3.1.2", "3.2.0", "3.2.1", "3.2.2", "3.2.3",
    "3.3.0", "3.3.1", "3.3.2", "3.4.0", "3.4.1", "3.5.0", "3.5.1", "3.5.2", "3.6.0", "3.6.1", "3.6.2",
    "3.7.0", "3.7.1", "3.7.2", "3.8.0", "3.8.1", "3.9.0", "3.9.1", "3.9.2", "4.0.0", "4.0.1", "4.0.2",
    "4.1.0", "4.1.1", "4.1.2", "4.2.0", "4.2.1", "4.2.2", "4.3.0", "4.3.1", "4.4.0",
))
"""Every Apache Kafka release from 2.0.0 (PREFIXED ACLs, where the model starts) to the newest
Maven serves; 4.3.1 and 4.4.0 are past LATEST_VERSION but were checked against the real
StandardAuthorizer (docs/kafka-versions.md).  A release outside this list has no semantics
the kit can vouch for."""


IDEMPOTENCE_RELEASES = tuple(KafkaVersion.parse(v) for v in (
    "0.11.0", "1.0.0", "1.0.1", "1.0.2", "1.1.0", "1.1.1",
)) + APACHE_KAFKA_RELEASES
"""The releases the idempotence half models: from 0.11.0 (KIP-98) for the producer and 1.0.0
for the broker, which is older than the authorization half's range."""


def known_release(text: str | KafkaVersion,
                  releases: tuple[KafkaVersion, ...] = APACHE_KAFKA_RELEASES) -> KafkaVersion:
    """``text`` as a release of Apache Kafka the reference models (one of ``releases``);
    AclValueError names the nearest, so a typo never silently gets another release's semantics."""
    version = KafkaVersion.parse(text)
    if version in releases:
        return version
    same_line = [v for v in releases if (v.major, v.minor) == (version.major, version.minor)]
    if same_line:
        near = ", ".join(map(str, same_line))
    elif version > releases[-1]:
        near = f"the newest modelled is {releases[-1]}"
    elif version < releases[0]:
        near = f"the oldest modelled is {releases[0]}"
    else:
        lower = max(v for v in releases if v < version)
        upper = min(v for v in releases if v > version)
        near = f"{lower} or {upper}"
    raise AclValueError("kafka version", str(version), f"not an Apache Kafka release the kit models (nearest: {near})")
