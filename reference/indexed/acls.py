"""An indexed evaluator that answers exactly as the spec does, for large ACL sets.

:func:`~kafka_conformance.reference.authorizer.decide.decide` scans every ACL for every
action, which is the point of a spec and useless at the sizes of Kafka's
``AuthorizerBenchmark`` (hundreds of thousands of ACLs).  :class:`IndexedAcls`
keeps the same ACLs in per-type indexes (:mod:`.index`) and walks the
same seven steps (:mod:`.decide`, :mod:`.lookup`; the by-type
variants in :mod:`.by_type`), so every :class:`Decision` is *equal* to the spec's: same
result, rule, detail, error kind, and the same ACLs in the same order (the
order they were added, or for KAFKA-14265 profiles the spec's walk order).
The differential tests in ``tests/spec/authorizer/test_indexed_differential.py`` hold it
to that for every profile flag.

Costs: an action does one dict lookup per distinct PREFIXED name length that
fits the name, plus at most two principal and four host lookups per matching
bucket; adding or removing an
ACL (a KIP-801 record) touches a constant number of dicts.  When ACLs match
the resource but none applies, the spec's answer lists *all* of R: that list is
handed out as a :class:`~.merged.MergedAcls`, a view over the buckets' cached
snapshots that compares, hashes, prints and pickles as the spec's tuple and is
merged (O(|R|), once) only when read, so a cold answer costs the number of
buckets, not of ACLs.  ``authorizeByResourceType``'s search for an undominated
ALLOW skips every name a DENY prefix dominates at once (:mod:`.dominance`).

Fallbacks to the spec, by design: none for the supported inputs.  For the
KAFKA-14265 walk (3.2.0-3.3.0) when a name of the type contains lone UTF-16
surrogates (distinct names can then tie in Java order and the spec's tie order
is the ACLs' insertion order), the type's ACLs are handed to the spec.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    WILDCARD_PRINCIPAL,
    AclBinding,
    AclOperation,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant, as_release_sees
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decide import decide
from kafka_conformance.reference.authorizer.decision import Action, Decision, RequestContext
from kafka_conformance.reference.authorizer.profiles import Profile
from kafka_conformance.reference.authorizer.records import _ILLEGAL_STATE, AclStore
from kafka_conformance.reference.errors import AclValueError, AuthorizerError
from kafka_conformance.reference.indexed.by_type import by_resource_type
from kafka_conformance.reference.indexed.decide import decide_indexed
from kafka_conformance.reference.indexed.dominance import sorted_keys
from kafka_conformance.reference.indexed.index import PrincipalKey, TypeIndex
from kafka_conformance.reference.indexed.lookup import merge_buckets

__all__ = ["EAGER_KEYS", "IndexedAcls"]

EAGER_KEYS = 1024
"""From this many ACLs a bulk load (the constructor, ``load_snapshot``) sorts the
by-type keys of :mod:`.dominance` at once; smaller sets sort them on first use."""


class IndexedAcls(AclStore):
    """An :class:`AclStore` (same invariants and errors) that also answers queries fast.

    Build it from ``(id, binding)`` pairs, a mapping id -> binding, or bare
    bindings (ids ``acl-1``, ``acl-2``, ... are made up for those).  Like the
    store, it refuses a duplicate id, a second id for an equal binding, and
    removing an unknown id, with the store's ``AuthorizerError`` messages; the
    duplicate check is a dict lookup instead of the store's scan.  ``by_id``
    must not be mutated directly: the indexes would go stale.
    """

    def __init__(
        self, acls: Mapping[str, AclBinding] | Iterable[tuple[str, AclBinding] | AclBinding] = ()
    ) -> None:
        super().__init__()
        self._types: dict[ResourceType, TypeIndex] = {}
        self._records: dict[str, tuple[int, PrincipalKey | None]] = {}
        self._by_key: dict[tuple[object, ...], str] = {}
        self._principals: dict[str, PrincipalKey | None] = {}
        """Stored principal text -> parsed key; ACL sets repeat a few principals."""
        self._seq = 0
        self._auto = 0
        items = acls.items() if isinstance(acls, Mapping) else acls
        for item in items:
            if isinstance(item, AclBinding):
                self.add(self._auto_id(), item)
            else:
                self.add(item[0], item[1])
        if len(self.by_id) >= EAGER_KEYS:
            # A bulk load sorts every scan's by-type keys once, here, instead of
            # charging the first by-type query with it; later records keep them.
            for index in self._types.values():
                for scan in index.scan.values():
                    sorted_keys((scan, True))
                    sorted_keys((scan, False))

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, AclBinding]) -> IndexedAcls:
        return cls(snapshot)

    # -- the store ---------------------------------------------------------------
    def add(self, acl_id: str, binding: AclBinding) -> None:
        if acl_id in self.by_id:
            raise AuthorizerError(
                "illegal-state", f"an ACL with id {acl_id} already exists", _ILLEGAL_STATE
            )
        key = _key(binding)
        other_id = self._by_key.get(key)
        if other_id is not None:
            raise AuthorizerError(
                "illegal-state",
                f"ACL {binding} (id {acl_id}) duplicates the ACL with id {other_id}",
                _ILLEGAL_STATE,
            )
        text = binding.entry.principal
        if text in self._principals:
            principal = self._principals[text]
        else:
            principal = self._principals[text] = _parse_stored(text)
        seq = self._seq = self._seq + 1
        self.by_id[acl_id] = binding
        self._by_key[key] = acl_id
        self._records[acl_id] = (seq, principal)
        rtype = binding.pattern.resource_type
        index = self._types.get(rtype)
        if index is None:
            index = self._types[rtype] = TypeIndex()
        index.add(seq, binding, principal)

    def remove(self, acl_id: str) -> AclBinding:
        binding = super().remove(acl_id)
        seq, principal = self._records.pop(acl_id)
        del self._by_key[_key(binding)]
        rtype = binding.pattern.resource_type
        index = self._types[rtype]
        index.remove(seq, binding, principal)
        if not index.size:
            del self._types[rtype]
        return binding

    def id_of(self, binding: AclBinding) -> str | None:
        """The id holding an equal binding, if any (O(1); the store scans)."""
        return self._by_key.get(_key(binding))

    def bindings_of_type(self, resource_type: ResourceType) -> list[AclBinding]:
        """The ACLs of one type in insertion order (what the spec filters to)."""
        index = self._types.get(resource_type)
        if index is None:
            return []
        maps = (index.literal, index.prefixed, index.unknown)
        return list(merge_buckets([b for m in maps for b in m.values()]))

    def _auto_id(self) -> str:
        while True:
            self._auto += 1
            candidate = f"acl-{self._auto}"
            if candidate not in self.by_id:
                return candidate

    # -- questions ---------------------------------------------------------------
    def decide(
        self,
        context: RequestContext,
        action: Action,
        config: AuthorizerConfig,
        profile: Profile,
        *,
        ready: bool = True,
    ) -> Decision:
        """Equal to ``authorize.decide(self.bindings(), context, action, config, profile, ready=ready)``."""
        return self._decide(context, action, config, profile, ready, True)

    def authorize_by_resource_type(
        self,
        context: RequestContext,
        operation: AclOperation,
        resource_type: ResourceType,
        config: AuthorizerConfig,
        profile: Profile,
        variant: ByTypeVariant,
        *,
        ready: bool = True,
    ) -> Decision:
        """Equal to ``by_resource_type.authorize_by_resource_type`` over ``self.bindings()``."""

        def authorize(ctx: RequestContext, act: Action, keep: bool) -> Decision:
            return self._decide(ctx, act, config, profile, ready, keep)

        operation, resource_type = as_release_sees(profile, operation, resource_type)
        return by_resource_type(
            self._types.get(resource_type),
            authorize,
            context,
            operation,
            resource_type,
            config,
            variant,
        )

    def _decide(
        self,
        context: RequestContext,
        action: Action,
        config: AuthorizerConfig,
        profile: Profile,
        ready: bool,
        keep: bool,
    ) -> Decision:
        rtype = action.resource.resource_type

        def spec() -> Decision:
            acls = self.bindings_of_type(rtype)
            return decide(acls, context, action, config, profile, ready=ready)

        index = self._types.get(rtype)
        return decide_indexed(index, context, action, config, profile, ready, keep, spec)


def _key(binding: AclBinding) -> tuple[object, ...]:
    """Equality key of a binding: attrs equality is field-wise and enum members are
    singletons, so their ids stand in for them (hashing an Enum runs Python code)."""
    p, e = binding.pattern, binding.entry
    return (
        id(p.resource_type),
        p.name,
        id(p.pattern_type),
        e.principal,
        e.host,
        id(e.operation),
        id(e.permission_type),
    )


def _parse_stored(text: str) -> PrincipalKey | None:
    """``(None, None)`` for ``User:*`` (never parsed by Kafka), None if unparseable."""
    if text == WILDCARD_PRINCIPAL:
        return (None, None)
    try:
        parsed = parse_principal(text)
    except AclValueError:
        return None
    return (parsed.principal_type, parsed.name)
