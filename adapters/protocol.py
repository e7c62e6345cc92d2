"""The contract between the kit and an authorizer under test.

An implementation is any object with the methods of :class:`AuthorizerUnderTest`
plus a :class:`Capabilities` declaration.  The kit honours the declaration: a
target is never failed for something it declared out of scope, and the report
lists what was not checked.

Answers and errors:

* ``authorize`` returns one :class:`AuthorizationResult` (ALLOWED or DENIED)
  per action;
* an implementation that *deliberately* refuses, as Kafka does, raises a
  :class:`~kafka_conformance.reference.errors.KafkaException` whose ``kind`` is
  the stable error name (``not-ready``, ``invalid-argument``, ...) — for
  example ``AuthorizerError("not-ready", ..., "AuthorizerNotReadyException")``;
* anything else it raises, or a malformed answer, is an *adapter error*: the
  kit reports "could not answer", never "disagreed", and never passes silently.

A case (a fresh implementation's set-up, records and questions) reaches the
implementation in one call: an implementation that declares
``run_case(request: CaseRequest) -> CaseAnswers`` (:mod:`~kafka_conformance.adapters.case`)
takes it whole, as the ``cmd:`` and JVM adapters do; any other gets the ten
methods below called one by one, in the same order.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.profiles import Flavour, KafkaBugs, Profile, profile_for
from kafka_conformance.reference.authorizer.records import AclRecord
from kafka_conformance.reference.releases import KafkaVersion

__all__ = [
    "MESSAGE_LIMIT",
    "REQUIRED_METHODS",
    "AdapterError",
    "AuthorizerUnderTest",
    "Capabilities",
    "ErrorComparison",
    "cut",
    "validate_adapter",
]


def _version(value: str | KafkaVersion) -> KafkaVersion:
    return KafkaVersion.parse(value)


class ErrorComparison(str, enum.Enum):
    """How a target's errors are compared with Kafka's (a ``str`` enum: it compares equal to its
    name and goes into JSON as it)."""

    KIND = "kind"
    """The stable error kind must match Kafka's."""
    ANY = "any"
    """Some error is enough where Kafka raises one."""
    IGNORE = "ignore"
    """The cases where Kafka raises are skipped."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


def _kafka_bugs(value: str | KafkaBugs) -> KafkaBugs:
    return KafkaBugs.parse(value)


@attrs.frozen
class Capabilities:
    """What an implementation claims; every check is gated on it."""

    flavour: Flavour = Flavour.STANDARD
    version: KafkaVersion = attrs.field(default=KafkaVersion(4, 3, 0), converter=_version)
    by_type_variant: ByTypeVariant | None = ByTypeVariant.INTERFACE_DEFAULT
    """Which authorizeByResourceType semantics it implements; None = not implemented."""
    prefixed: bool = True
    """Understands PREFIXED ACLs."""
    listing: bool = True
    """Implements ``acls(filter)``."""
    acl_count: bool = True
    """Implements ``acl_count()`` meaningfully (AclAuthorizer returns -1)."""
    incremental: bool = True
    """Accepts records one by one (``apply``) after the initial snapshot."""
    not_ready_state: bool = True
    """Has KIP-801's not-ready state before ``complete_initial_load``."""
    error_comparison: ErrorComparison = attrs.field(default=ErrorComparison.KIND, converter=ErrorComparison)
    """How errors are compared (a name is accepted too: ``"kind"``, ``"any"``, ``"ignore"``)."""
    kafka_bugs: KafkaBugs = attrs.field(default=KafkaBugs.AS_RELEASED, converter=_kafka_bugs)
    """Whether the release's own bugs set the expected answer (:data:`~kafka_conformance.reference.
    authorizer.profiles.KAFKA_BUGS`): the user's choice (``--kafka-bugs``), never declared over the
    wire, so it is not part of ``hello``."""

    def profile(self) -> Profile:
        return profile_for(self.version, self.flavour, kafka_bugs=self.kafka_bugs)

    def out_of_scope(self) -> list[str]:
        """Human-readable list of what the kit will not check for this target."""
        skipped = []
        if self.by_type_variant is None:
            skipped.append("authorize_by_resource_type (not implemented)")
        if not self.prefixed:
            skipped.append("PREFIXED ACLs")
        if not self.listing:
            skipped.append("acls(filter) listing")
        if not self.acl_count:
            skipped.append("acl_count")
        if not self.incremental:
            skipped.append("incremental record application")
        if not self.not_ready_state:
            skipped.append("not-ready state before the initial load")
        if self.error_comparison is ErrorComparison.IGNORE:
            skipped.append("error cases")
        return skipped


@runtime_checkable
class AuthorizerUnderTest(Protocol):
    """An authorizer driven by the kit.  A fresh instance is made for every case."""

    def capabilities(self) -> Capabilities: ...

    def configure(self, properties: Mapping[str, str]) -> None:
        """Raw Kafka properties (``super.users``, ``allow.everyone.if.no.acl.found``)."""

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        """Replace every ACL at once (ids are KIP-801 record ids)."""

    def apply(self, record: AclRecord) -> None:
        """Apply one AddAcl / RemoveAcl record, in order."""

    def complete_initial_load(self) -> None: ...

    def authorize(
        self, context: RequestContext, actions: Sequence[Action]
    ) -> Sequence[AuthorizationResult]: ...

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult: ...

    def acls(self, acl_filter: AclBindingFilter) -> Sequence[AclBinding]: ...

    def acl_count(self) -> int: ...

    def close(self) -> None: ...


REQUIRED_METHODS = tuple(name for name, value in vars(AuthorizerUnderTest).items()
                         if callable(value) and not name.startswith("_"))
"""The protocol's methods, in its order, read from :class:`AuthorizerUnderTest` itself (a second
list would drift from it)."""


class AdapterError(Exception):
    """The target could not answer (crash, timeout, malformed answer, bad declaration)."""

    def __init__(self, kind: str, message: str) -> None:
        message = cut(message)  # a target's 50 MB message must not travel into every report whole
        self.kind = kind
        self.received: list[dict[str, Any] | None] | None = None
        """For a pipelined write that failed part-way: the answers that had come, by the
        position of their request (None where none came), so that a caller can still meet
        an earlier answer (a refused ``configure``) before the failure behind it."""
        super().__init__(message)


def validate_adapter(obj: object, *, where: str) -> None:
    """Refuse an object that lacks required methods, listing every missing one."""
    missing = [m for m in REQUIRED_METHODS if not callable(getattr(obj, m, None))]
    if missing:
        raise AdapterError(
            "invalid-adapter",
            f"{where} does not implement the authorizer protocol; missing: {', '.join(missing)}",
        )


MESSAGE_LIMIT = 4000
"""The most of a target's message the kit keeps (errors, refusals): enough to read, never megabytes."""


def cut(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` cut to ``limit`` characters, saying how much was left out."""
    if len(message) <= limit:
        return message
    return f"{message[: limit - 60]}... ({len(message) - limit + 60:,} more characters left out)"
