"""Authorizer test cases as plain values, with a stable JSON form.

A :class:`Scenario` is everything one generated case needs: the raw
configuration, the ACLs (as a snapshot or as a record log) and the questions to
ask.  It is what Hypothesis generates and shrinks, what a report shows, and what
a saved counterexample file replays, so its JSON form is versioned.
"""

from __future__ import annotations

from typing import Any

import attrs

from kafka_conformance.adapters.jsonlines.wire import decode_binding, encode_action, encode_binding
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    AclBinding,
    AclOperation,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = [
    "CASE_FORMAT_VERSION",
    "BatchStep",
    "ByTypeQuery",
    "LogStep",
    "Query",
    "Scenario",
    "SnapshotStep",
    "binding_from_json",
    "binding_to_json",
    "scenario_from_json",
    "scenario_to_json",
]

CASE_FORMAT_VERSION = 1


@attrs.frozen
class Query:
    """One ``authorize(context, actions)`` call."""

    context: RequestContext
    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return f"{self.context}: " + ", ".join(str(a) for a in self.actions)


@attrs.frozen
class ByTypeQuery:
    """One ``authorize_by_resource_type(context, operation, resource_type)`` call."""

    context: RequestContext
    operation: AclOperation
    resource_type: ResourceType

    def __str__(self) -> str:
        return f"{self.context}: {self.operation.name} on any {self.resource_type.name}"


@attrs.frozen
class SnapshotStep:
    """A snapshot load in the middle of a record log: every ACL replaced at once
    (a broker that fell behind catches up from a metadata snapshot)."""

    acls: tuple[tuple[str, AclBinding], ...]

    def __str__(self) -> str:
        return f"load snapshot of {len(self.acls)} ACLs"


@attrs.frozen
class BatchStep:
    """Several records applied back to back, with no question between them (one
    metadata delta reaching a broker).  Each is still applied on its own and in
    order, so an inconsistent record is refused alone."""

    records: tuple[AddAcl | RemoveAcl, ...]

    def __str__(self) -> str:
        return "batch [" + "; ".join(str(r) for r in self.records) + "]"


LogStep = AddAcl | RemoveAcl | SnapshotStep | BatchStep


@attrs.frozen
class Scenario:
    """A configuration, ACLs, and questions.

    ``acls`` is the snapshot loaded before the initial load completes; ``records``
    are applied one at a time afterwards, and ``queries`` are asked after all of
    them (properties that interleave questions and records say so).
    """

    properties: tuple[tuple[str, str], ...] = ()
    acls: tuple[tuple[str, AclBinding], ...] = ()
    records: tuple[LogStep, ...] = ()
    queries: tuple[Query, ...] = ()
    by_type: tuple[ByTypeQuery, ...] = ()

    @property
    def config(self) -> dict[str, str]:
        return dict(self.properties)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """What Hypothesis writes for a case: a one-line summary.  The kit reports a case
        itself (minimized, rendered); Hypothesis pretty-prints every explicit example it runs,
        field by field, and that cost a fifth of the coverage phase's time."""
        printer.text(f"Scenario({len(self.properties)} settings, {len(self.acls)} ACLs, "
                     f"{len(self.records)} records, {len(self.queries) + len(self.by_type)} questions)")

    @property
    def snapshot(self) -> dict[str, AclBinding]:
        return dict(self.acls)

    @property
    def bindings(self) -> tuple[AclBinding, ...]:
        """Every ACL the case holds at some point (its snapshot, the ACLs its records add and
        its snapshot steps load), each once, in the order they first appear."""
        seen = dict.fromkeys(b for _, b in self.acls)
        for step in self.records:
            for record in step.records if isinstance(step, BatchStep) else (step,):
                if isinstance(record, AddAcl):
                    seen[record.binding] = None
                elif isinstance(record, SnapshotStep):
                    seen.update(dict.fromkeys(b for _, b in record.acls))
        return tuple(seen)


# -- JSON ---------------------------------------------------------------------


def binding_to_json(b: AclBinding) -> dict[str, str]:
    """One ACL as JSON: the same object the subprocess protocol uses."""
    return encode_binding(b)


_BINDING_FIELDS = ("resource_type", "name", "pattern_type", "principal", "host", "operation", "permission")
_INTERN_LIMIT = 50_000


class _Interned(dict[tuple[Any, ...], Any]):
    """Decoded values by their JSON fields.  A corpus repeats the same ACLs, contexts and
    actions across its steps and cases; the values are frozen, so one decoded object can
    stand for every copy (decoding and validating them was the largest cost of a stored
    case).  Only what decoded successfully is kept, so an invalid input is refused every
    time; the table is emptied when it grows past its limit."""

    def keep(self, key: tuple[Any, ...], value: Any) -> Any:
        if len(self) >= _INTERN_LIMIT:
            self.clear()
        self[key] = value
        return value


_BINDINGS, _CONTEXTS, _ACTIONS = _Interned(), _Interned(), _Interned()


def _key(d: Any, fields: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The fields as a table key, or None where the input is not a plain object of strings
    (then the full decoder runs and says what is wrong)."""
    if type(d) is not dict:
        return None
    key = tuple(map(d.get, fields))
    for v in key:
        if type(v) is not str:
            return None
    return key


def binding_from_json(d: dict[str, Any]) -> AclBinding:
    key = _key(d, _BINDING_FIELDS)
    if key is not None and (hit := _BINDINGS.get(key)) is not None:
        return hit
    binding = decode_binding(d, "acl")
    return _BINDINGS.keep(key, binding) if key is not None else binding


def _context_to_json(c: RequestContext) -> dict[str, str]:
    return {"principal": str(c.principal), "host": c.host}


def _context_from_json(d: dict[str, Any]) -> RequestContext:
    key = _key(d, ("principal", "host"))
    if key is not None and (hit := _CONTEXTS.get(key)) is not None:
        return hit
    context = RequestContext(parse_principal(d["principal"]), d["host"])
    return _CONTEXTS.keep(key, context) if key is not None else context


def _action_to_json(a: Action) -> dict[str, str]:
    return encode_action(a)


def _action_from_json(d: dict[str, Any]) -> Action:
    key = _key(d, ("operation", "resource_type", "name", "pattern_type"))
    if key is not None and (hit := _ACTIONS.get(key)) is not None:
        return hit
    action = Action(
        AclOperation[d["operation"]],
        ResourcePattern(ResourceType[d["resource_type"]], d["name"], PatternType[d["pattern_type"]]),
    )
    return _ACTIONS.keep(key, action) if key is not None else action


def _record_to_json(r: LogStep) -> dict[str, Any]:
    if isinstance(r, SnapshotStep):
        return {"snapshot": [{"id": i, **binding_to_json(b)} for i, b in r.acls]}
    if isinstance(r, BatchStep):
        return {"batch": [_record_to_json(inner) for inner in r.records]}
    if isinstance(r, AddAcl):
        return {"add": r.id, "acl": binding_to_json(r.binding)}
    return {"remove": r.id}


def _record_from_json(d: dict[str, Any]) -> LogStep:
    if "snapshot" in d:
        return SnapshotStep(tuple((a["id"], binding_from_json(a)) for a in d["snapshot"]))
    if "batch" in d:
        inner = tuple(_record_from_json(r) for r in d["batch"])
        if not all(isinstance(r, AddAcl | RemoveAcl) for r in inner):
            raise ValueError("a batch holds add and remove records only")
        return BatchStep(inner)  # type: ignore[arg-type]
    if "add" in d:
        return AddAcl(d["add"], binding_from_json(d["acl"]))
    return RemoveAcl(d["remove"])


def scenario_to_json(s: Scenario) -> dict[str, Any]:
    return {
        "config": dict(s.properties),
        "acls": [{"id": i, **binding_to_json(b)} for i, b in s.acls],
        "records": [_record_to_json(r) for r in s.records],
        "queries": [
            {"context": _context_to_json(q.context), "actions": [_action_to_json(a) for a in q.actions]}
            for q in s.queries
        ],
        "by_type": [
            {
                "context": _context_to_json(q.context),
                "operation": q.operation.name,
                "resource_type": q.resource_type.name,
            }
            for q in s.by_type
        ],
    }


SCENARIO_FIELDS = frozenset({"config", "acls", "records", "queries", "by_type"})


def scenario_from_json(d: dict[str, Any]) -> Scenario:
    """Inverse of :func:`scenario_to_json`; raises KeyError/ValueError on malformed input (a
    field it does not know included: a misspelt one must not leave the scenario emptier)."""
    if not SCENARIO_FIELDS.issuperset(d):
        raise ValueError(f"unknown scenario field(s) {sorted(str(k) for k in set(d) - SCENARIO_FIELDS)[:5]}")
    return Scenario(
        properties=tuple((str(k), str(v)) for k, v in d.get("config", {}).items()),
        acls=tuple((a["id"], binding_from_json(a)) for a in d.get("acls", [])),
        records=tuple(_record_from_json(r) for r in d.get("records", [])),
        queries=tuple(
            Query(_context_from_json(q["context"]), tuple(_action_from_json(a) for a in q["actions"]))
            for q in d.get("queries", [])
        ),
        by_type=tuple(
            ByTypeQuery(
                _context_from_json(q["context"]),
                AclOperation[q["operation"]],
                ResourceType[q["resource_type"]],
            )
            for q in d.get("by_type", [])
        ),
    )
