"""KIP-801 ACL records and the id-keyed ACL store they are applied to.

In KRaft, ACLs live in the metadata log as ``AccessControlEntryRecord`` (an id
and a binding) and ``RemoveAccessControlEntryRecord`` (an id).  Brokers apply
them strictly in log order; a snapshot replaces the whole set atomically.  The
store enforces the invariants of Kafka's ``AclCache``: an id is added once, two
ids never carry the same ACL, and only known ids can be removed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import attrs

from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.errors import AuthorizerError

__all__ = ["AclRecord", "AclStore", "AddAcl", "RemoveAcl", "replay"]

_ILLEGAL_STATE = "java.lang.RuntimeException"


@attrs.frozen
class AddAcl:
    """``AccessControlEntryRecord``: a new ACL with its id (a UUID string in Kafka)."""

    id: str
    binding: AclBinding

    def __str__(self) -> str:
        return f"add {self.id}: {self.binding}"


@attrs.frozen
class RemoveAcl:
    """``RemoveAccessControlEntryRecord``: remove the ACL with this id."""

    id: str

    def __str__(self) -> str:
        return f"remove {self.id}"


AclRecord = AddAcl | RemoveAcl


@attrs.define
class AclStore:
    """ACLs by id, in the order they were added (a dict keeps insertion order)."""

    by_id: dict[str, AclBinding] = attrs.field(factory=dict)

    def add(self, acl_id: str, binding: AclBinding) -> None:
        if acl_id in self.by_id:
            raise AuthorizerError(
                "illegal-state", f"an ACL with id {acl_id} already exists", _ILLEGAL_STATE
            )
        for other_id, other in self.by_id.items():
            if other == binding:
                raise AuthorizerError(
                    "illegal-state",
                    f"ACL {binding} (id {acl_id}) duplicates the ACL with id {other_id}",
                    _ILLEGAL_STATE,
                )
        self.by_id[acl_id] = binding

    def remove(self, acl_id: str) -> AclBinding:
        try:
            return self.by_id.pop(acl_id)
        except KeyError:
            raise AuthorizerError(
                "illegal-state", f"no ACL with id {acl_id} to remove", _ILLEGAL_STATE
            ) from None

    def apply(self, record: AclRecord) -> None:
        if isinstance(record, AddAcl):
            self.add(record.id, record.binding)
        else:
            self.remove(record.id)

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, AclBinding]) -> AclStore:
        store = cls()
        for acl_id, binding in snapshot.items():
            store.add(acl_id, binding)
        return store

    def bindings(self) -> list[AclBinding]:
        return list(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)

    def __iter__(self) -> Iterator[AclBinding]:
        return iter(self.by_id.values())


def replay(records: Iterable[AclRecord]) -> dict[str, AclBinding]:
    """The snapshot a record log ends in (raises on the first inconsistent record)."""
    store = AclStore()
    for record in records:
        store.apply(record)
    return dict(store.by_id)
