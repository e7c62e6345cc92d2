"""The catalogue of authorizer anomalies: stable names, what they mean, where Kafka says so.

Names are part of the kit's interface: they appear in pytest ids, JUnit
``<failure type=...>``, JSON reports and saved cases, and users grep for them,
so they never change meaning.  ``classify`` maps one divergence to the most
specific name, using the reference's explanation of the expected answer.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from kafka_conformance.reference.acl.values import AclBinding, AclOperation, AclPermissionType, PatternType
from kafka_conformance.reference.authorizer.decide import IMPLIED_BY, acl_applies, matching_acls
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.authorizer.profiles import Profile

__all__ = ["CATALOGUE", "Anomaly", "classify"]


@attrs.frozen
class Anomaly:
    name: str
    summary: str
    reference: str


CATALOGUE: dict[str, Anomaly] = {
    a.name: a
    for a in [
        Anomaly("deny-not-applied", "an applying DENY ACL did not deny", "KIP-11: DENY takes precedence"),
        Anomaly(
            "implied-op-on-deny",
            "a DENY of an implying operation (e.g. DENY READ) denied the implied one (DESCRIBE)",
            "Kafka docs: implication widens ALLOW only",
        ),
        Anomaly("allow-not-applied", "an applying ALLOW ACL, with no applying DENY, did not allow", "KIP-11"),
        Anomaly("prefix-allow-missed", "a matching PREFIXED ALLOW was not found", "KIP-290; KAFKA-14265; KAFKA-7702"),
        Anomaly("wildcard-allow-missed", "an ALLOW on the wildcard resource '*' was not applied", "KIP-11"),
        Anomaly("implied-allow-missed", "an ALLOW of an implying operation did not grant the implied one", "Kafka docs, ACL operations"),
        Anomaly("allowed-without-acl", "allowed although ACLs exist for the resource and none allows the caller", "KIP-11"),
        Anomaly(
            "allow-everyone-misapplied",
            "allow.everyone.if.no.acl.found granted access although ACLs exist for the resource",
            "KAFKA-14435",
        ),
        Anomaly("allow-everyone-not-applied", "no ACL exists for the resource and allow.everyone is true, yet denied", "KIP-11"),
        Anomaly("default-deny-violated", "no ACL exists for the resource and allow.everyone is false, yet allowed", "KIP-11"),
        Anomaly("super-user-denied", "a super user was denied or refused", "KIP-11: super.users"),
        Anomaly("non-literal-action-accepted", "a non-LITERAL action was answered instead of rejected", "KAFKA-14733"),
        Anomaly("served-before-ready", "a non-super-user was answered before the initial ACL load completed", "KIP-801; KAFKA-13649"),
        Anomaly("unexpected-error", "the implementation raised an error where Kafka answers", "—"),
        Anomaly("missing-error", "the implementation answered where Kafka raises an error", "—"),
        Anomaly("wrong-error", "the implementation raised a different kind of error than Kafka", "—"),
        Anomaly("by-type-too-permissive", "authorizeByResourceType allowed where the declared semantics deny", "KIP-679"),
        Anomaly("by-type-too-restrictive", "authorizeByResourceType denied where the declared semantics allow", "KIP-679"),
        Anomaly("by-type-unwitnessed-allow", "authorizeByResourceType allowed but no resource of the type is allowed", "KIP-679 contract"),
        Anomaly("deny-added-granted", "adding a DENY ACL turned a DENIED answer into ALLOWED", "metamorphic"),
        Anomaly("allow-added-revoked", "adding an ALLOW ACL turned an ALLOWED answer into DENIED", "metamorphic"),
        Anomaly("order-dependent", "the answer depends on the order the ACLs were loaded in", "metamorphic"),
        Anomaly("replay-differs", "applying the records one by one differs from loading the final snapshot", "KIP-801"),
        Anomaly("inconsistent-record-accepted",
                "a record Kafka refuses (unknown id removed, id reused, ACL duplicated) was accepted",
                "KIP-801; StandardAuthorizerData.addAcl/removeAcl"),
        Anomaly("record-refused", "a consistent record was refused", "KIP-801"),
        Anomaly("record-wrong-error", "a refused record raised a different kind of error than Kafka", "KIP-801"),
        Anomaly("refused-record-changed-state", "a refused record changed what the authorizer answers or holds",
                "KIP-801: a refused record leaves the ACLs as they were"),
        Anomaly("acl-count-wrong", "acl_count() differs from the number of ACLs held", "KIP-801"),
        Anomaly("listing-wrong", "acls(filter) returned a different set of ACLs", "Kafka AclBindingFilter semantics"),
        Anomaly("config-parse-differs", "super.users or allow.everyone.if.no.acl.found parsed differently", "KAFKA-14962"),
    ]
}


def classify(
    expected: Decision,
    actual: AuthorizationResult,
    action: Action | None,
    *,
    context: RequestContext | None = None,
    acls: Sequence[AclBinding] = (),
    allow_everyone: bool = False,
    profile: Profile | None = None,
) -> str:
    """The most specific anomaly name for one authorize() divergence.

    ``context``, ``acls`` and ``allow_everyone`` let the classifier look for the
    classic causes (a DENY of an implying operation, the default misapplied).
    """
    if expected.result is AuthorizationResult.ERROR:
        if actual is AuthorizationResult.ERROR:
            return "wrong-error"
        if expected.error == "not-ready":
            return "served-before-ready"
        if action is not None and action.resource.pattern_type is not PatternType.LITERAL:
            return "non-literal-action-accepted"
        return "missing-error"
    if expected.rule is Rule.SUPER_USER:
        return "super-user-denied"
    if actual is AuthorizationResult.ERROR:
        return "unexpected-error"
    if expected.result is AuthorizationResult.DENIED:
        if expected.rule is Rule.DENY_ACL:
            return "deny-not-applied"
        if expected.rule is Rule.NO_ACL_FOR_RESOURCE:
            return "default-deny-violated"
        return "allow-everyone-misapplied" if allow_everyone else "allowed-without-acl"
    # Expected ALLOWED, got DENIED.
    if expected.rule in (Rule.NO_ACL_FOR_RESOURCE, Rule.NO_ACL_APPLIED_DEFAULT):
        return "allow-everyone-not-applied"
    if action is not None and context is not None and profile is not None:
        if _implying_deny_applies(action, context, acls, profile):
            return "implied-op-on-deny"
    allows = expected.acls
    if any(a.pattern.pattern_type is PatternType.PREFIXED for a in allows):
        return "prefix-allow-missed"
    if any(a.pattern.is_wildcard for a in allows):
        return "wildcard-allow-missed"
    if action is not None and all(
        a.entry.operation not in (action.operation, AclOperation.ALL) for a in allows
    ):
        return "implied-allow-missed"
    return "allow-not-applied"


def _implying_deny_applies(
    action: Action, context: RequestContext, acls: Sequence[AclBinding], profile: Profile
) -> bool:
    """Is there a DENY, on the resource and for this caller, of an operation that
    implies the requested one?  Kafka ignores it; a common bug honours it."""
    implying = IMPLIED_BY.get(action.operation, frozenset())
    for acl in matching_acls(acls, action.resource, profile):
        entry = acl.entry
        if entry.permission_type is not AclPermissionType.DENY or entry.operation not in implying:
            continue
        try:
            if acl_applies(acl, context, entry.operation, profile):
                return True
        except ValueError:
            continue
    return False
