"""The executable spec: Kafka's ACL model, authorizers and request ACL rules.

Nothing in here imports anything else of ours.  Everything is small and
unoptimised on purpose; see ``ARCHITECTURE.md``.
"""

from __future__ import annotations

from kafka_conformance.reference.acl.filters import (
    ANY_ACL,
    AccessControlEntryFilter,
    AclBindingFilter,
    ResourcePatternFilter,
)
from kafka_conformance.reference.acl.principal import KafkaPrincipal, parse_principal
from kafka_conformance.reference.acl.values import (
    CLUSTER_NAME,
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    WILDCARD_RESOURCE,
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.aclfiles.load import (
    AclFile,
    AclFormat,
    dump_json,
    dump_yaml,
    format_kafka_acls_list,
    load_acls,
    load_acls_text,
    parse_kafka_acls_list,
    sniff_format,
)
from kafka_conformance.reference.authorizer.by_resource_type import (
    PROBE_NAME,
    ByTypeVariant,
    authorize_by_resource_type,
)
from kafka_conformance.reference.authorizer.config import AuthorizerConfig, parse_config
from kafka_conformance.reference.authorizer.decide import decide
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.authorizer.lifecycle import (
    CreateResult,
    DeleteResult,
    ReferenceAuthorizer,
    default_variant,
)
from kafka_conformance.reference.authorizer.profiles import Flavour, Profile, profile_for
from kafka_conformance.reference.authorizer.records import AclRecord, AclStore, AddAcl, RemoveAcl, replay
from kafka_conformance.reference.broker.batches import LogRecord, ProducerBatch
from kafka_conformance.reference.broker.partition_log import PartitionLog, ProduceResponse
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.errors import (
    AclFileError,
    AclValueError,
    AuthorizerError,
    ConfigError,
    KafkaException,
)
from kafka_conformance.reference.producer.config import IdempotenceProfile, explain_config
from kafka_conformance.reference.producer.config_values import EffectiveConfig, ProducerConfigError, render_effective_config
from kafka_conformance.reference.releases import DEFAULT_VERSION, LATEST_VERSION, KafkaVersion
from kafka_conformance.reference.requests.outcome import CheckResult, RequestOutcome, authorize_request
from kafka_conformance.reference.requests.rules import (
    AddOffsetsToTxn,
    AddPartitionsToTxn,
    ByResourceType,
    Check,
    DescribeProducers,
    EndTxn,
    ErrorCode,
    Fetch,
    FindCoordinator,
    InitProducerId,
    Produce,
    Request,
    Scope,
    TxnOffsetCommit,
    WriteTxnMarkers,
    idempotent_write_deprecated,
    idempotent_write_required,
    required_checks,
)

__all__ = [
    # model
    "ANY_ACL",
    "CLUSTER_NAME",
    "DEFAULT_VERSION",
    "LATEST_VERSION",
    "PROBE_NAME",
    "WILDCARD_HOST",
    "WILDCARD_PRINCIPAL",
    "WILDCARD_RESOURCE",
    "AccessControlEntry",
    "AccessControlEntryFilter",
    "AclBinding",
    "AclBindingFilter",
    "AclFile",
    "AclFileError",
    "AclFormat",
    "AclOperation",
    "AclPermissionType",
    "AclRecord",
    "AclStore",
    "AclValueError",
    "Action",
    "AddAcl",
    # request-level rules
    "AddOffsetsToTxn",
    "AddPartitionsToTxn",
    "AuthorizationResult",
    "AuthorizerConfig",
    "AuthorizerError",
    "ByResourceType",
    "ByTypeVariant",
    "Check",
    "CheckResult",
    "ConfigError",
    "CreateResult",
    "Decision",
    "DeleteResult",
    "DescribeProducers",
    # idempotence
    "EffectiveConfig",
    "EndTxn",
    "ErrorCode",
    "Fetch",
    "FindCoordinator",
    "Flavour",
    "IdempotenceProfile",
    "InitProducerId",
    "KafkaException",
    "KafkaPrincipal",
    "KafkaVersion",
    "LogRecord",
    "PartitionLog",
    "PatternType",
    "Produce",
    "ProduceError",
    "ProduceResponse",
    "ProducerBatch",
    "ProducerConfigError",
    "Profile",
    "ReferenceAuthorizer",
    "RemoveAcl",
    "Request",
    "RequestContext",
    "RequestOutcome",
    "ResourcePattern",
    "ResourcePatternFilter",
    "ResourceType",
    "Rule",
    "Scope",
    "TxnOffsetCommit",
    "WriteTxnMarkers",
    "authorize_by_resource_type",
    "authorize_request",
    "decide",
    "default_variant",
    "dump_json",
    "dump_yaml",
    "explain_config",
    "format_kafka_acls_list",
    "idempotent_write_deprecated",
    "idempotent_write_required",
    "load_acls",
    "load_acls_text",
    "parse_config",
    "parse_kafka_acls_list",
    "parse_principal",
    "profile_for",
    "render_effective_config",
    "replay",
    "required_checks",
    "sniff_format",
]
