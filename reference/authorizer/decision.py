"""Requests to an authorizer and its explained answers.

Every decision carries the rule that produced it and the ACLs involved, so a
report can say *why* ("DENIED because ACL DENY User:* READ on PREFIXED 'fo'
matches") rather than only *what*.
"""

from __future__ import annotations

import enum

import attrs

from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, PatternType, ResourcePattern

__all__ = [
    "Action",
    "AuthorizationResult",
    "Decision",
    "RequestContext",
    "Rule",
]


class AuthorizationResult(enum.Enum):
    ALLOWED = "ALLOWED"
    DENIED = "DENIED"
    ERROR = "ERROR"
    """The authorizer threw instead of answering; ``Decision.error`` names the kind."""

    def __repr__(self) -> str:
        return f"AuthorizationResult.{self.name}"

    __hash__ = object.__hash__  # identity, as equality is (see reference.acl.values._Coded)


class Rule(enum.Enum):
    """Why a decision came out the way it did (stable names, used in reports)."""

    __hash__ = object.__hash__  # identity, as equality is (see reference.acl.values._Coded)

    SUPER_USER = "super-user"
    DENY_ACL = "deny-acl"
    ALLOW_ACL = "allow-acl"
    NO_ACL_FOR_RESOURCE = "no-acl-for-resource"
    """No ACL of any principal, host, operation or permission matches the resource:
    the ``allow.everyone.if.no.acl.found`` default decides."""
    NO_ACL_APPLIED = "no-acl-applied"
    """ACLs match the resource but none applies to this caller and operation."""
    NO_ACL_APPLIED_DEFAULT = "no-acl-applied-default"
    """KAFKA-14435 behaviour: the default decided although ACLs matched the resource."""
    BY_TYPE_PROBE = "by-type-probe"
    """KIP-679 default: the probe on a resource literally named ``hardcode`` was allowed."""
    BY_TYPE_WILDCARD_DENY = "by-type-wildcard-deny"
    BY_TYPE_WILDCARD_ALLOW = "by-type-wildcard-allow"
    BY_TYPE_UNDOMINATED_ALLOW = "by-type-undominated-allow"
    BY_TYPE_ALLOW_EVERYONE = "by-type-allow-everyone"
    BY_TYPE_NO_UNDOMINATED_ALLOW = "by-type-no-undominated-allow"
    BY_TYPE_WITNESS = "by-type-witness"
    """Ground truth: some resource name of the type is allowed (the witness)."""
    BY_TYPE_NO_WITNESS = "by-type-no-witness"
    ERROR = "error"


def _plain_principal(principal: KafkaPrincipal) -> KafkaPrincipal:
    if type(principal) is KafkaPrincipal:
        return principal
    return KafkaPrincipal(principal.principal_type, principal.name)


@attrs.frozen
class RequestContext:
    """The caller: principal and client address as Java's ``getHostAddress`` renders it."""

    principal: KafkaPrincipal = attrs.field(converter=_plain_principal)
    """Re-wrapped as a plain KafkaPrincipal: both Kafka authorizers compare only the
    type and name of the session principal, whatever its class."""
    host: str = "127.0.0.1"

    def __str__(self) -> str:
        return f"{self.principal} from {self.host or repr(self.host)}"  # the empty host, visible


@attrs.frozen
class Action:
    """One operation on one resource; the pattern type must be LITERAL to be valid."""

    operation: AclOperation
    resource: ResourcePattern

    def __str__(self) -> str:
        pattern = "" if self.resource.pattern_type is PatternType.LITERAL else (
            f" ({self.resource.pattern_type.name})"
        )
        return (
            f"{self.operation.name} {self.resource.resource_type.name} "
            f"{self.resource.name!r}{pattern}"
        )


@attrs.frozen
class Decision:
    """An explained answer to one action."""

    result: AuthorizationResult
    rule: Rule
    acls: tuple[AclBinding, ...] = ()
    """The ACLs that decided it (the matching DENYs, the matching ALLOWs, or, for
    NO_ACL_APPLIED, the ACLs on the resource that did not apply)."""
    error: str | None = None
    """For ERROR results: the stable error kind (``invalid-argument``, ``not-ready``, ...)."""
    detail: str = ""
    witness: str | None = None
    """For ground-truth by-type answers: a resource name that is allowed."""

    @property
    def allowed(self) -> bool:
        return self.result is AuthorizationResult.ALLOWED

    def explain(self) -> str:
        """One readable sentence: the result, then the reason."""
        head = self.result.name if self.error is None else f"ERROR ({self.error})"
        reason = _REASONS[self.rule]
        if self.acls:
            listed = "; ".join(f"ACL {acl}" for acl in self.acls[:5])
            more = f" (and {len(self.acls) - 5} more)" if len(self.acls) > 5 else ""
            reason = f"{reason}: {listed}{more}"
        if self.witness is not None:
            reason = f"{reason}: e.g. resource {self.witness!r}"
        if self.detail:
            reason = f"{reason} ({self.detail})"
        return f"{head} because {reason}"


_REASONS = {
    Rule.SUPER_USER: "the principal is a super user",
    Rule.DENY_ACL: "a DENY ACL matches",
    Rule.ALLOW_ACL: "an ALLOW ACL matches and no DENY does",
    Rule.NO_ACL_FOR_RESOURCE: "no ACL matches the resource, so allow.everyone.if.no.acl.found decides",
    Rule.NO_ACL_APPLIED: "ACLs exist for the resource but none applies to this principal, host and operation",
    Rule.NO_ACL_APPLIED_DEFAULT: (
        "no ACL applies to the caller, so allow.everyone.if.no.acl.found decides "
        "(KAFKA-14435 behaviour of StandardAuthorizer 3.2.0-3.3.1)"
    ),
    Rule.BY_TYPE_PROBE: "the KIP-679 default's probe on a resource named 'hardcode' was allowed",
    Rule.BY_TYPE_WILDCARD_DENY: "a DENY ACL on the wildcard resource '*' applies",
    Rule.BY_TYPE_WILDCARD_ALLOW: "an ALLOW ACL on the wildcard resource '*' applies",
    Rule.BY_TYPE_UNDOMINATED_ALLOW: "an ALLOW ACL applies that no DENY dominates",
    Rule.BY_TYPE_ALLOW_EVERYONE: "allow.everyone.if.no.acl.found is true (AclAuthorizer override)",
    Rule.BY_TYPE_NO_UNDOMINATED_ALLOW: "every applicable ALLOW ACL is dominated by a DENY, or there is none",
    Rule.BY_TYPE_WITNESS: "some resource of the type would be allowed",
    Rule.BY_TYPE_NO_WITNESS: "no resource of the type would be allowed",
    Rule.ERROR: "the authorizer raised an error",
}
