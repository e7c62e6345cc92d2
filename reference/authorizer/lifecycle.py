"""The reference authorizer: the decision procedure plus Kafka's ACL lifecycle.

``ReferenceAuthorizer`` holds what a real authorizer holds (configuration, ACLs
by id, readiness) and answers through the pure functions in
:mod:`~kafka_conformance.reference.authorizer.decide` and
:mod:`~kafka_conformance.reference.authorizer.by_resource_type`.

Lifecycle (KIP-801, StandardAuthorizer):

* records are applied strictly in order (``apply``), a snapshot replaces every
  ACL atomically (``load_snapshot``);
* until ``complete_initial_load()`` non-super-users get ``not-ready`` errors
  (3.3.0 onwards), super users are answered normally;
* AclAuthorizer is ready as soon as it is configured.

Admin path (CreateAcls / DeleteAcls through the controller or AclAuthorizer):
``create_acls`` validates and is idempotent for an ACL that already exists;
``delete_acls`` removes what the filters match and attributes each removed ACL
to every matching filter (StandardAuthorizer) or to the first (AclAuthorizer).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant, authorize_by_resource_type
from kafka_conformance.reference.authorizer.config import AuthorizerConfig, parse_config
from kafka_conformance.reference.authorizer.decide import decide
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
)
from kafka_conformance.reference.authorizer.profiles import Flavour, Profile, profile_for
from kafka_conformance.reference.authorizer.records import AclRecord, AclStore, AddAcl, RemoveAcl
from kafka_conformance.reference.authorizer.validation import validate_delete_filter, validate_new_acl
from kafka_conformance.reference.errors import AclValueError

__all__ = ["CreateResult", "DeleteResult", "ReferenceAuthorizer", "default_variant"]


def default_variant(profile: Profile) -> ByTypeVariant:
    """The by-type semantics the profile's authorizer really ships."""
    if profile.flavour is Flavour.ACL:
        return ByTypeVariant.ACL_AUTHORIZER
    return ByTypeVariant.INTERFACE_DEFAULT


@attrs.frozen
class CreateResult:
    binding: AclBinding
    error: str | None = None
    """None on success, else the reason Kafka gives."""


@attrs.frozen
class DeleteResult:
    filter: AclBindingFilter
    deleted: tuple[AclBinding, ...] = ()
    error: str | None = None


class ReferenceAuthorizer:
    """A stateful reference authorizer for one profile (Kafka version + flavour)."""

    def __init__(
        self,
        profile: Profile | None = None,
        config: AuthorizerConfig | None = None,
        *,
        by_type_variant: ByTypeVariant | None = None,
    ) -> None:
        self.profile = profile or profile_for()
        self.config = config or AuthorizerConfig()
        self.by_type_variant = by_type_variant or default_variant(self.profile)
        self._store = AclStore()
        self._loaded = not self.profile.has_not_ready_state
        self._next_id = 0

    # -- configuration and lifecycle ------------------------------------------
    def configure(self, properties: Mapping[str, object]) -> None:
        """Parse raw properties as this flavour does (raises ConfigError)."""
        self.config = parse_config(properties, self.profile)

    @property
    def ready(self) -> bool:
        return self._loaded

    def complete_initial_load(self) -> None:
        self._loaded = True

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        """Replace every ACL at once; on an inconsistent snapshot nothing changes."""
        self._store = AclStore.from_snapshot(acls)

    def apply(self, record: AclRecord) -> None:
        """Apply one metadata record; raises AuthorizerError(illegal-state) if inconsistent."""
        self._store.apply(record)

    def apply_all(self, records: Iterable[AclRecord]) -> None:
        for record in records:
            self.apply(record)

    # -- questions ---------------------------------------------------------------
    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[Decision]:
        """Answer a batch.  Kafka throws for the whole batch at the first action that
        throws, so an error in any action is the answer to every action."""
        decide_one = self._decider()
        decisions = []
        for action in actions:
            decision = decide_one(context, action)
            if decision.result is AuthorizationResult.ERROR:
                return [decision] * len(actions)
            decisions.append(decision)
        return decisions

    def _decider(self) -> Callable[[RequestContext, Action], Decision]:
        """How one action is decided: the spec over every ACL (engines override this)."""
        acls = self._store.bindings()

        def decide_one(context: RequestContext, action: Action) -> Decision:
            return decide(acls, context, action, self.config, self.profile, ready=self._loaded)

        return decide_one

    def authorize_one(self, context: RequestContext, action: Action) -> Decision:
        return self.authorize(context, [action])[0]

    def authorize_by_resource_type(
        self,
        context: RequestContext,
        operation: AclOperation,
        resource_type: ResourceType,
        variant: ByTypeVariant | None = None,
    ) -> Decision:
        if not self.profile.has_authorize_by_resource_type:
            raise AclValueError(
                "kafka version", str(self.profile.version), "authorizeByResourceType arrived in 2.8.0"
            )
        return self._by_type(context, operation, resource_type, variant or self.by_type_variant)

    def _by_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType, variant: ByTypeVariant
    ) -> Decision:
        """The by-type answer itself: the spec (engines override this)."""
        return authorize_by_resource_type(
            self._store.bindings(), context, operation, resource_type, self.config, self.profile, variant,
            ready=self._loaded,
        )

    def acls(self, acl_filter: AclBindingFilter | None = None) -> list[AclBinding]:
        """Kafka's ``acls(filter)``; the order is unspecified, so this returns insertion order."""
        bindings = self._store.bindings()
        return bindings if acl_filter is None else [b for b in bindings if acl_filter.matches(b)]

    def acl_count(self) -> int:
        """StandardAuthorizer: the number of ids; AclAuthorizer does not override it (-1)."""
        return len(self._store) if self.profile.acl_count_supported else -1

    def snapshot(self) -> dict[str, AclBinding]:
        return dict(self._store.by_id)

    # -- the admin path ------------------------------------------------------------
    def create_acls(self, bindings: Iterable[AclBinding]) -> list[CreateResult]:
        results = []
        for binding in bindings:
            try:
                validate_new_acl(binding, self.profile)
            except AclValueError as exc:
                results.append(CreateResult(binding, str(exc)))
                continue
            if not self._holds(binding):
                self.apply(AddAcl(self._new_id(), binding))
            results.append(CreateResult(binding))
        return results

    def _holds(self, binding: AclBinding) -> bool:
        """Is this exact ACL already stored (CreateAcls is idempotent)?"""
        return binding in self._store.by_id.values()

    def delete_acls(self, filters: Sequence[AclBindingFilter]) -> list[DeleteResult]:
        """Delete in one step: matching is computed against the ACLs before any removal."""
        results: list[DeleteResult] = []
        claimed: set[str] = set()
        doomed: dict[str, None] = {}
        snapshot = list(self._store.by_id.items())
        for acl_filter in filters:
            try:
                validate_delete_filter(acl_filter)
            except AclValueError as exc:
                results.append(DeleteResult(acl_filter, error=str(exc)))
                continue
            hits = []
            for acl_id, binding in snapshot:
                if not acl_filter.matches(binding):
                    continue
                if not self.profile.delete_attributes_to_every_filter and acl_id in claimed:
                    continue
                claimed.add(acl_id)
                doomed[acl_id] = None
                hits.append(binding)
            results.append(DeleteResult(acl_filter, tuple(hits)))
        for acl_id in doomed:
            self.apply(RemoveAcl(acl_id))
        return results

    def _new_id(self) -> str:
        # Deterministic ids keep replays and reports reproducible.
        while True:
            self._next_id += 1
            candidate = str(uuid.UUID(int=self._next_id))
            if candidate not in self._store.by_id:
                return candidate
