"""Which Apache Kafka releases the kit runs for real, and from which Maven artifacts.

``kafka:VERSION[:standard|acl]`` names Kafka's own authorizer of that release:

* ``standard``: ``org.apache.kafka.metadata.authorizer.StandardAuthorizer``
  (KIP-801) from ``org.apache.kafka:kafka-metadata``, 3.2.0 onwards;
* ``acl``: ``kafka.security.authorizer.AclAuthorizer`` (KIP-504) from
  ``org.apache.kafka:kafka_2.13``, 2.4.0 to 3.9.x, backed by a ZooKeeper the
  kit starts inside the same JVM.

The releases listed here are those pinned in ``maven/jars.lock.json``: a release
is added by listing it and running ``kafka-conformance fetch --update-lock``.
``SimpleAclAuthorizer`` (before 2.4) has a Scala-only API and is not driven.
"""

from __future__ import annotations

import attrs

from kafka_conformance.adapters.jvm.maven import Artifact
from kafka_conformance.reference.authorizer.profiles import Flavour
from kafka_conformance.reference.releases import KafkaVersion

__all__ = [
    "ACL_CLASS",
    "ACL_RELEASES",
    "CLIENTS_4_3_0",
    "STANDARD_CLASS",
    "STANDARD_RELEASES",
    "KafkaRelease",
    "all_releases",
    "parse_kafka_target",
]

STANDARD_CLASS = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
ACL_CLASS = "kafka.security.authorizer.AclAuthorizer"

STANDARD_RELEASES = (
    "3.2.0", "3.2.3", "3.3.0", "3.3.1", "3.3.2", "3.4.0", "3.4.1", "3.5.0", "3.5.2", "3.6.0", "3.6.2",
    "3.7.2", "3.8.1", "3.9.1", "4.0.0", "4.0.1", "4.1.1", "4.2.0", "4.3.0", "4.3.1", "4.4.0",
)
"""Every minor line's last patch, plus each release where a profile flag changes
(KAFKA-14265 at 3.3.1, KAFKA-14435 at 3.3.2/3.4.0, KAFKA-14733 at 3.4.1/3.5.0,
KAFKA-14962 at 3.6.0, KAFKA-17759 at 4.0.0)."""

ACL_RELEASES = (
    "2.4.1", "2.5.1", "2.6.3", "2.7.2", "2.8.2", "3.0.2", "3.1.2", "3.2.3", "3.3.0", "3.3.2",
    "3.4.1", "3.5.2", "3.6.0", "3.6.2", "3.7.2", "3.8.1", "3.9.1",
)
"""AclAuthorizer from its first release (2.4) to its last line (3.9), with the
releases where its flags change (KIP-679 at 2.8, KAFKA-13983 at 3.3.0, KAFKA-14962 at 3.6.0)."""

CLIENTS_4_3_0 = Artifact("org.apache.kafka", "kafka-clients", "4.3.0")
"""The kafka-clients jar the JVM adapter's built-in targets and the Java producer run on."""


@attrs.frozen
class KafkaRelease:
    """One real authorizer: a release and a flavour, and where its classes come from."""

    version: KafkaVersion
    flavour: Flavour

    @property
    def artifact(self) -> Artifact:
        if self.flavour is Flavour.STANDARD:
            return Artifact("org.apache.kafka", "kafka-metadata", str(self.version))
        return Artifact("org.apache.kafka", "kafka_2.13", str(self.version))

    @property
    def class_name(self) -> str:
        return STANDARD_CLASS if self.flavour is Flavour.STANDARD else ACL_CLASS

    @property
    def spec(self) -> str:
        return f"kafka:{self.version}:{self.flavour.value}"

    def __str__(self) -> str:
        return self.spec


def _releases(flavour: Flavour) -> tuple[str, ...]:
    return STANDARD_RELEASES if flavour is Flavour.STANDARD else ACL_RELEASES


def all_releases() -> list[KafkaRelease]:
    return [KafkaRelease(KafkaVersion.parse(v), f) for f in Flavour for v in _releases(f)]


def parse_kafka_target(rest: str) -> KafkaRelease:
    """``VERSION[:standard|acl]`` (the part after ``kafka:``); ValueError names the problem.

    Without a flavour: ``standard`` where the release has StandardAuthorizer, else ``acl``."""
    version_text, _, flavour_text = rest.strip().partition(":")
    try:
        version = KafkaVersion.parse(version_text)
    except ValueError:
        raise ValueError(f"expected kafka:VERSION[:standard|acl], e.g. kafka:{STANDARD_RELEASES[-1]}") from None
    if flavour_text:
        try:
            flavour = Flavour.parse(flavour_text)
        except ValueError:
            raise ValueError(f"unknown flavour {flavour_text!r}: expected kafka:VERSION:standard or kafka:VERSION:acl") from None
    else:
        flavour = Flavour.STANDARD if version >= KafkaVersion(3, 2, 0) else Flavour.ACL
    known = _releases(flavour)
    if str(version) not in known:
        near = _nearest(version, known)
        raise ValueError(f"the kit does not run Kafka {version} with the {flavour.value} authorizer; "
                         f"releases it runs: {', '.join(known)} (nearest: {near})")
    return KafkaRelease(version, flavour)


def _nearest(version: KafkaVersion, known: tuple[str, ...]) -> str:
    parsed = [KafkaVersion.parse(v) for v in known]
    same_line = [v for v in parsed if (v.major, v.minor) == (version.major, version.minor)]
    pool = same_line or parsed

    def distance(v: KafkaVersion) -> tuple[int, int, int]:
        return (abs(v.major - version.major), abs(v.minor - version.minor), abs(v.patch - version.patch))

    return " or ".join(sorted({str(v) for v in pool if distance(v) == min(map(distance, pool))}))
