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
    "DEFAULT_VERSION",
    "LATEST_VERSION",
    "OLDEST_VERSION",
    "KafkaVersion",
    "fixed_in",
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
OLDEST_VERSION = KafkaVersion(2, 0, 0)
"""PREFIXED ACLs (KIP-290) arrived in 2.0.0; older releases are out of scope."""


def fixed_in(version: KafkaVersion, backport: str, first: str) -> bool:
    """True when ``version`` contains a fix released as ``backport`` on its own
    minor line and in ``first`` and every release after it."""
    bp = release(backport)
    if (version.major, version.minor) == (bp.major, bp.minor):
        return version >= bp
    return version >= release(first)
