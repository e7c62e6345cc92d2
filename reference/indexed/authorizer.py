"""``IndexedAuthorizer``: the reference authorizer's lifecycle over :class:`IndexedAcls`.

It *is* a :class:`~kafka_conformance.reference.authorizer.lifecycle.ReferenceAuthorizer`
(configuration, readiness, records, snapshots, the admin path and ids are all
inherited), whose store is an :class:`~.acls.IndexedAcls`.  Only the parts
that would scan every ACL per call are overridden: ``authorize``,
``authorize_by_resource_type``, ``load_snapshot`` (the plain store's
duplicate check is quadratic) and ``create_acls`` (its "already exists" test).
``delete_acls`` and ``acls(filter)`` keep the inherited scan, as Kafka's do.
The same scenario run against both classes must produce equal results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decision import (
    Action,
    Decision,
    RequestContext,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.indexed.acls import IndexedAcls

__all__ = ["IndexedAuthorizer"]


class IndexedAuthorizer(ReferenceAuthorizer):
    """A :class:`ReferenceAuthorizer` that answers through indexes (same answers)."""

    _store: IndexedAcls

    def __init__(
        self,
        profile: Profile | None = None,
        config: AuthorizerConfig | None = None,
        *,
        by_type_variant: ByTypeVariant | None = None,
    ) -> None:
        super().__init__(profile, config, by_type_variant=by_type_variant)
        self._store = IndexedAcls()

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        """Replace every ACL at once; on an inconsistent snapshot nothing changes."""
        self._store = IndexedAcls.from_snapshot(acls)

    def _decider(self) -> Callable[[RequestContext, Action], Decision]:
        store, config, profile, ready = self._store, self.config, self.profile, self._loaded

        def decide_one(context: RequestContext, action: Action) -> Decision:
            return store.decide(context, action, config, profile, ready=ready)

        return decide_one

    def _by_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType, variant: ByTypeVariant
    ) -> Decision:
        return self._store.authorize_by_resource_type(
            context, operation, resource_type, self.config, self.profile, variant, ready=self._loaded
        )

    def _holds(self, binding: AclBinding) -> bool:
        return self._store.id_of(binding) is not None
