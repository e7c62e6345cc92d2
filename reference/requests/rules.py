"""Which ACLs each producer and transaction request needs (the table in
``docs/spec/authorization.md`` §4, read from ``KafkaApis.scala``).

:func:`required_checks` lists, in Kafka's order, the checks a request goes
through.  A :class:`Check` passes when *any* of its alternatives is ALLOWED;
most have exactly one, and an empty one never passes, which is how Kafka's
unconditional refusals are written down.  Running the checks against an
authorizer is :mod:`kafka_conformance.reference.requests.outcome`'s job.

Version switches, each checked against the release tag named:

* before 2.8.0 an InitProducerId without a transactional id needs
  IDEMPOTENT_WRITE on the cluster, and so does a Produce of idempotent
  (non-transactional) batches; from 2.8.0 (KIP-679, KAFKA-10619) InitProducerId
  accepts IDEMPOTENT_WRITE *or* ``authorizeByResourceType(WRITE, TOPIC)``, and
  Produce checks only topics;
* AddPartitionsToTxn v4+ (3.5.0, KIP-890, KAFKA-14402) comes from brokers and
  needs CLUSTER_ACTION instead of the transactional-id and topic checks;
* WriteTxnMarkers accepts ALTER on the cluster before trying CLUSTER_ACTION
  from 3.8.0 (KIP-1037, KAFKA-16513);
* ``__share_group_state`` is an internal topic from 3.9.0.

Topics are the unit: Kafka gives every partition of a topic the same
authorization answer.  Topic existence is outside the model: an unauthorized
topic gets TOPIC_AUTHORIZATION_FAILED whether or not it exists (since 1.0.0).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Literal, TypeAlias

import attrs

from kafka_conformance.reference.acl.values import (
    CLUSTER_NAME,
    AclOperation,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.errors import AclValueError

__all__ = [
    "AddOffsetsToTxn", "AddPartitionsToTxn", "ByResourceType", "Check", "DescribeProducers",
    "EndTxn", "ErrorCode", "Fetch", "FindCoordinator", "InitProducerId", "Produce", "Request",
    "Scope", "TxnOffsetCommit", "WriteTxnMarkers", "idempotent_write_deprecated",
    "idempotent_write_required", "internal_topics", "required_checks", "topics_of",
]


class ErrorCode(enum.Enum):
    """Kafka's ``Errors`` names with their wire codes (``Errors.java``)."""

    UNKNOWN_SERVER_ERROR = -1
    TOPIC_AUTHORIZATION_FAILED = 29
    GROUP_AUTHORIZATION_FAILED = 30
    CLUSTER_AUTHORIZATION_FAILED = 31
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53
    OPERATION_NOT_ATTEMPTED = 55

    @property
    def code(self) -> int:
        return int(self.value)


# -- the requests ----------------------------------------------------------------


def _names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):  # Produce("orders") would silently mean topics o, r, d, ...
        raise AclValueError("topics", value, "expected a sequence of topic names, not one string")
    return tuple(value)


def _has_transactional_id(request: Produce) -> bool:
    return request.transactional_id is not None


@attrs.frozen
class Produce:
    topics: tuple[str, ...] = attrs.field(converter=_names)
    transactional_id: str | None = None
    idempotent: bool = False
    transactional: bool = attrs.field(
        default=attrs.Factory(_has_transactional_id, takes_self=True)
    )
    """Whether the batches are transactional.  It follows ``transactional_id``
    unless given, so a client sending transactional batches without an id can be modelled."""


@attrs.frozen
class InitProducerId:
    transactional_id: str | None = None


@attrs.frozen
class AddPartitionsToTxn:
    transactional_id: str
    topics: tuple[str, ...] = attrs.field(converter=_names)
    version: int = 3
    """v0-3 come from clients; v4+ (3.5.0 onwards) only from brokers."""


@attrs.frozen
class AddOffsetsToTxn:
    transactional_id: str
    group_id: str


@attrs.frozen
class TxnOffsetCommit:
    transactional_id: str
    group_id: str
    topics: tuple[str, ...] = attrs.field(converter=_names)


@attrs.frozen
class EndTxn:
    transactional_id: str


@attrs.frozen
class FindCoordinator:
    key: str
    key_type: Literal["group", "transaction"] = "group"


@attrs.frozen
class WriteTxnMarkers:
    """Sent by a transaction coordinator to the partition leaders."""

    topics: tuple[str, ...] = attrs.field(default=(), converter=_names)


@attrs.frozen
class DescribeProducers:
    topics: tuple[str, ...] = attrs.field(converter=_names)


@attrs.frozen
class Fetch:
    topics: tuple[str, ...] = attrs.field(converter=_names)
    replica: bool = False
    """True for a follower replica fetching; False for a consumer."""


Request: TypeAlias = (
    Produce | InitProducerId | AddPartitionsToTxn | AddOffsetsToTxn | TxnOffsetCommit
    | EndTxn | FindCoordinator | WriteTxnMarkers | DescribeProducers | Fetch
)


def topics_of(request: Request) -> tuple[str, ...]:
    """The distinct topic names of a request, in request order."""
    return tuple(dict.fromkeys(getattr(request, "topics", ())))


# -- the checks -------------------------------------------------------------------


@attrs.frozen
class ByResourceType:
    """A KIP-679 ``authorizeByResourceType`` query (brokers 2.8.0 onwards)."""

    operation: AclOperation
    resource_type: ResourceType

    def __str__(self) -> str:
        return f"authorizeByResourceType({self.operation.name}, {self.resource_type.name})"


class Scope(enum.Enum):
    REQUEST = "request"
    """A failure ends the request with the check's error."""
    TOPIC = "topic"
    """A failure gives ``Check.topic`` the error; the other topics carry on."""
    EVERY_TOPIC = "every-topic"
    """A failure gives every topic of the request the error (follower Fetch)."""


@attrs.frozen
class Check:
    any_of: tuple[Action | ByResourceType, ...]
    """Asked in order until one is ALLOWED; empty means Kafka refuses without asking."""
    error: ErrorCode
    scope: Scope = Scope.REQUEST
    topic: str | None = None
    note: str = ""

    def __str__(self) -> str:
        asked = " OR ".join(str(a) for a in self.any_of) or "(refused without asking)"
        note = f" [{self.note}]" if self.note else ""
        return f"{asked} else {self.error.name}{note}"


def _action(operation: AclOperation, resource_type: ResourceType, name: str) -> Action:
    return Action(operation, ResourcePattern(resource_type, name))


def _txn(operation: AclOperation, transactional_id: str) -> Check:
    action = _action(operation, ResourceType.TRANSACTIONAL_ID, transactional_id)
    return Check((action,), ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)


def _group(operation: AclOperation, group_id: str) -> Check:
    action = _action(operation, ResourceType.GROUP, group_id)
    return Check((action,), ErrorCode.GROUP_AUTHORIZATION_FAILED)


def _cluster(*operations: AclOperation, note: str = "") -> Check:
    actions = tuple(_action(op, ResourceType.CLUSTER, CLUSTER_NAME) for op in operations)
    return Check(actions, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, note=note)


def _topics(
    operation: AclOperation, request: Request, never: frozenset[str] = frozenset()
) -> list[Check]:
    """One check per distinct topic (Kafka batches them in ``filterByAuthorized``);
    topics in ``never`` are refused without asking."""
    failed = ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return [
        Check((), failed, Scope.TOPIC, t, "internal topic")
        if t in never
        else Check((_action(operation, ResourceType.TOPIC, t),), failed, Scope.TOPIC, t)
        for t in topics_of(request)
    ]


def idempotent_write_required(profile: Profile) -> bool:
    """Before 2.8.0 an idempotent producer needs IDEMPOTENT_WRITE on the cluster."""
    return not profile.has_authorize_by_resource_type


def idempotent_write_deprecated(profile: Profile) -> bool:
    """KIP-679 deprecates granting IDEMPOTENT_WRITE from 3.0.0, WRITE on any topic being
    enough from 2.8.0.  The deprecation is only on paper: ``AclOperation.IDEMPOTENT_WRITE``
    carries no ``@Deprecated``, and ``kafka-acls --producer --idempotent`` (AclCommand at
    HEAD) still grants it without any warning."""
    return profile.version.at_least("3.0.0")


def internal_topics(profile: Profile) -> frozenset[str]:
    """``Topic.isInternal``; ``__share_group_state`` joined in 3.9.0 (KIP-932)."""
    if profile.version.at_least("3.9.0"):
        return frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})
    return frozenset({"__consumer_offsets", "__transaction_state"})


WRITE, READ, DESCRIBE = AclOperation.WRITE, AclOperation.READ, AclOperation.DESCRIBE
IDEMPOTENT_WRITE, CLUSTER_ACTION = AclOperation.IDEMPOTENT_WRITE, AclOperation.CLUSTER_ACTION


def required_checks(request: Request, profile: Profile) -> tuple[Check, ...]:
    """The checks ``KafkaApis`` makes for ``request`` on ``profile``, in order.

    Raises AclValueError for a request the profile's release cannot receive.
    """
    match request:
        case Produce(transactional=True, transactional_id=None):
            refused = Check((), ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                            note="transactional batches without a transactional id")
            return (refused, *_topics(WRITE, request))
        case Produce(transactional=True, transactional_id=str(transactional_id)):
            return (_txn(WRITE, transactional_id), *_topics(WRITE, request))
        case Produce(idempotent=True) if idempotent_write_required(profile):
            return (_cluster(IDEMPOTENT_WRITE, note="before 2.8.0"), *_topics(WRITE, request))
        case Produce():
            return tuple(_topics(WRITE, request))
        case InitProducerId(transactional_id=str(transactional_id)):
            return (_txn(WRITE, transactional_id),)
        case InitProducerId() if idempotent_write_required(profile):
            return (_cluster(IDEMPOTENT_WRITE, note="before 2.8.0"),)
        case InitProducerId():
            idempotent = _action(IDEMPOTENT_WRITE, ResourceType.CLUSTER, CLUSTER_NAME)
            any_topic = ByResourceType(WRITE, ResourceType.TOPIC)
            return (Check((idempotent, any_topic), ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                          note="KIP-679; a DENIED IDEMPOTENT_WRITE is not audit-logged"),)
        case AddPartitionsToTxn(version=version) if version >= 4:
            if not profile.version.at_least("3.5.0"):
                raise AclValueError("AddPartitionsToTxn version", version,
                                    f"v4 arrived in 3.5.0, not in {profile.version}")
            return (_cluster(CLUSTER_ACTION, note="v4+, broker to broker"),)
        case AddPartitionsToTxn():
            internal = internal_topics(profile)  # left out of the topic batch: never authorized
            return (_txn(WRITE, request.transactional_id), *_topics(WRITE, request, internal))
        case AddOffsetsToTxn():
            return (_txn(WRITE, request.transactional_id), _group(READ, request.group_id))
        case TxnOffsetCommit():
            return (_txn(WRITE, request.transactional_id), _group(READ, request.group_id),
                    *_topics(READ, request))
        case EndTxn():
            return (_txn(WRITE, request.transactional_id),)
        case FindCoordinator(key_type="transaction"):
            return (_txn(DESCRIBE, request.key),)
        case FindCoordinator():
            return (_group(DESCRIBE, request.key),)
        case WriteTxnMarkers() if profile.version.at_least("3.8.0"):
            return (_cluster(AclOperation.ALTER, CLUSTER_ACTION, note="KIP-1037"),)
        case WriteTxnMarkers():
            return (_cluster(CLUSTER_ACTION),)
        case DescribeProducers():
            if not profile.version.at_least("2.8.0"):
                raise AclValueError("request", "DescribeProducers",
                                    f"arrived in 2.8.0 (KIP-664), not in {profile.version}")
            return tuple(_topics(READ, request))
        case Fetch(replica=True):
            action = _action(CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME)
            return (Check((action,), ErrorCode.TOPIC_AUTHORIZATION_FAILED, Scope.EVERY_TOPIC,
                          note="follower fetch"),)
        case Fetch():
            return tuple(_topics(READ, request))
    raise AclValueError("request", request, "not a request this model knows")
