"""Run a request's ACL checks against the reference authorizer: what the client sees, and why.

:func:`authorize_request` asks the checks of
:func:`~kafka_conformance.reference.requests.rules.required_checks` in order, as
``KafkaApis`` does, and keeps every decision it got, so a report can print
"CLUSTER_AUTHORIZATION_FAILED because IDEMPOTENT_WRITE was DENIED (no ACL ...)
and authorizeByResourceType(WRITE, TOPIC) was DENIED (...)".
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import AuthorizationResult, Decision, RequestContext
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.requests.rules import (
    AddPartitionsToTxn,
    ByResourceType,
    Check,
    ErrorCode,
    Request,
    Scope,
    required_checks,
    topics_of,
)

__all__ = ["CheckResult", "RequestOutcome", "authorize_request"]


@attrs.frozen
class CheckResult:
    check: Check
    decisions: tuple[Decision, ...]
    """One per alternative actually asked, in order; asking stops at the first
    answer that is not DENIED (Kafka's ``||`` short-circuits, and a throw ends it)."""

    @property
    def passed(self) -> bool:
        return any(d.allowed for d in self.decisions)

    @property
    def errored(self) -> bool:
        return any(d.result is AuthorizationResult.ERROR for d in self.decisions)

    def explain(self) -> str:
        verdict = "passed" if self.passed else f"failed: {self.check.error.name}"
        asked = zip(self.check.any_of, self.decisions, strict=False)
        return "\n".join([f"{self.check} -> {verdict}", *(f"  {a}: {d.explain()}" for a, d in asked)])


@attrs.frozen
class RequestOutcome:
    """What the client sees.

    ``error`` is a failure of the whole request.  Responses that have no
    top-level error code (Produce, TxnOffsetCommit, AddPartitionsToTxn v0-3,
    WriteTxnMarkers) carry it in every partition instead; :meth:`error_for`
    gives that per-topic view.  ``topic_errors`` lists the topics answered
    one by one with an error, in request order; topics not listed passed.
    (A Produce with acks=0 gets no error response at all: Kafka closes the connection.)
    """

    request: Request
    error: ErrorCode | None
    topic_errors: tuple[tuple[str, ErrorCode], ...]
    results: tuple[CheckResult, ...]

    @property
    def granted(self) -> bool:
        return self.error is None and not self.topic_errors

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(d for r in self.results for d in r.decisions)

    def error_for(self, topic: str) -> ErrorCode | None:
        if self.error is not None:
            return self.error
        return dict(self.topic_errors).get(topic)

    def explain(self) -> str:
        if self.granted:
            head = "granted"
        elif self.error is not None:
            head = self.error.name
        else:
            head = ", ".join(f"{t}: {e.name}" for t, e in self.topic_errors)
        lines = [f"{type(self.request).__name__} {head}", *(r.explain() for r in self.results)]
        return "\n".join(lines)


def _ask(
    authorizer: ReferenceAuthorizer,
    context: RequestContext,
    check: Check,
    variant: ByTypeVariant | None,
) -> CheckResult:
    decisions: list[Decision] = []
    for alternative in check.any_of:
        if isinstance(alternative, ByResourceType):
            decision = authorizer.authorize_by_resource_type(
                context, alternative.operation, alternative.resource_type, variant
            )
        else:
            decision = authorizer.authorize_one(context, alternative)
        decisions.append(decision)
        if decision.result is not AuthorizationResult.DENIED:
            break
    return CheckResult(check, tuple(decisions))


def authorize_request(
    authorizer: ReferenceAuthorizer,
    context: RequestContext,
    request: Request,
    *,
    variant: ByTypeVariant | None = None,
) -> RequestOutcome:
    """Ask the checks for the authorizer's profile, in order, and build the outcome.

    * A failed REQUEST-scope check ends the request with its error.
    * A failed TOPIC-scope check fails that topic; the others carry on.
      AddPartitionsToTxn v0-3 is all or nothing: once any topic fails, every
      other topic is answered OPERATION_NOT_ATTEMPTED.
    * A failed EVERY_TOPIC check fails every topic of the request.
    * An answer of ERROR (the authorizer threw: AuthorizerNotReadyException before
      the initial load, IllegalArgumentException on a bad stored principal) fails
      the whole request with UNKNOWN_SERVER_ERROR **[inferred]**: the exception
      leaves the handler, ``KafkaApis.handleError`` answers with
      ``Errors.forException``, and no ``Errors`` entry maps those exceptions or
      their superclasses.  No upstream test covers it.

    ``variant`` picks the ``authorizeByResourceType`` semantics; by default the
    authorizer's own.  Profiles before 2.8.0 never ask that query.
    """
    topics = topics_of(request)
    results: list[CheckResult] = []
    failed: dict[str, ErrorCode] = {}
    for check in required_checks(request, authorizer.profile):
        result = _ask(authorizer, context, check, variant)
        results.append(result)
        if result.errored:
            return RequestOutcome(request, ErrorCode.UNKNOWN_SERVER_ERROR, (), tuple(results))
        if result.passed:
            continue
        if check.scope is Scope.REQUEST:
            return RequestOutcome(request, check.error, (), tuple(results))
        if check.scope is Scope.EVERY_TOPIC:
            every = tuple((t, check.error) for t in topics)
            return RequestOutcome(request, None, every, tuple(results))
        if check.topic is not None:
            failed[check.topic] = check.error
    if failed and isinstance(request, AddPartitionsToTxn):
        failed = {t: failed.get(t, ErrorCode.OPERATION_NOT_ATTEMPTED) for t in topics}
    errors = tuple((t, failed[t]) for t in topics if t in failed)
    return RequestOutcome(request, None, errors, tuple(results))
