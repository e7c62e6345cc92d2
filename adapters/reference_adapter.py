"""The reference authorizer as a target: the kit checked against itself.

Useful as a sanity check of a set-up, and as the template for wrapping a
Python authorizer (see ``examples/``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    RequestContext,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer, default_variant
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.authorizer.records import AclRecord
from kafka_conformance.reference.errors import AuthorizerError
from kafka_conformance.reference.indexed.authorizer import IndexedAuthorizer

__all__ = ["ReferenceTarget"]

_EXCEPTIONS = {
    "not-ready": "org.apache.kafka.common.errors.AuthorizerNotReadyException",
    "invalid-argument": "java.lang.IllegalArgumentException",
    "illegal-state": "java.lang.IllegalStateException",
}


class ReferenceTarget:
    """Drives a :class:`ReferenceAuthorizer` through the adapter protocol."""

    def __init__(self, profile: Profile, *, indexed: bool = False, by_type_variant: ByTypeVariant | None = None) -> None:
        self._profile = profile
        # The indexed engine answers identically and fast; as a target it puts the
        # whole suite behind its differential tests.
        engine = IndexedAuthorizer if indexed else ReferenceAuthorizer
        self._authorizer = engine(profile, by_type_variant=by_type_variant)
        self._variant = by_type_variant

    def capabilities(self) -> Capabilities:
        p = self._profile
        return Capabilities(
            flavour=p.flavour,
            version=p.version,
            by_type_variant=(self._variant or default_variant(p)) if p.has_authorize_by_resource_type else None,
            acl_count=p.acl_count_supported,
            not_ready_state=p.has_not_ready_state,
        )

    def configure(self, properties: Mapping[str, str]) -> None:
        self._authorizer.configure(properties)

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self._authorizer.load_snapshot(acls)

    def apply(self, record: AclRecord) -> None:
        self._authorizer.apply(record)

    def complete_initial_load(self) -> None:
        self._authorizer.complete_initial_load()

    def authorize(
        self, context: RequestContext, actions: Sequence[Action]
    ) -> list[AuthorizationResult]:
        decisions = self._authorizer.authorize(context, actions)
        for decision in decisions:
            if decision.result is AuthorizationResult.ERROR:
                kind = decision.error or "error"
                raise AuthorizerError(kind, decision.detail, _EXCEPTIONS.get(kind, kind))
        return [d.result for d in decisions]

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        decision = self._authorizer.authorize_by_resource_type(context, operation, resource_type)
        if decision.result is AuthorizationResult.ERROR:
            kind = decision.error or "error"
            raise AuthorizerError(kind, decision.detail, _EXCEPTIONS.get(kind, kind))
        return decision.result

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        return self._authorizer.acls(acl_filter)

    def acl_count(self) -> int:
        return self._authorizer.acl_count()

    def close(self) -> None:
        """Nothing to release."""
