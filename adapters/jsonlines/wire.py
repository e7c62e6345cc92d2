"""JSON forms of the reference types for the subprocess protocol (``docs/subprocess-protocol.md``).

Why a module of its own: the wire format is the contract with implementations
written in any language, so it must be readable in one place and checked
strictly.  Encoding is total (every reference value has a JSON form); decoding
an implementation's answer never trusts it: every mistake raises
:class:`WireError` naming the JSON path and what was expected, which the adapter
reports as ``AdapterError("malformed", ...)`` ("could not answer"), never as a
Kafka-style error or a divergence.

Enumerations travel as Kafka's enum names (``READ``, ``PREFIXED``); a principal
in a request context travels as ``{"type", "name"}`` so that no implementation
has to re-split ``"User:a:b"``; a stored ACL's principal stays the raw string
Kafka stores, because Kafka parses it lazily (and may fail to).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import attrs

from kafka_conformance.adapters.protocol import Capabilities, ErrorComparison, cut
from kafka_conformance.reference.acl.filters import AccessControlEntryFilter, AclBindingFilter, ResourcePatternFilter
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.profiles import Flavour
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import KafkaVersion

__all__ = [
    "ERROR_COMPARISONS",
    "KAFKA_ERROR_KINDS",
    "PROTOCOL_ERROR_KINDS",
    "PROTOCOL_VERSION",
    "WireError",
    "WireErrorInfo",
    "decode_action",
    "decode_answer",
    "decode_binding",
    "decode_bindings",
    "decode_by_type_query",
    "decode_capabilities",
    "decode_context",
    "decode_count",
    "decode_error",
    "decode_filter",
    "decode_record",
    "decode_results",
    "decode_snapshot",
    "encode_action",
    "encode_binding",
    "encode_capabilities",
    "encode_context",
    "encode_error",
    "encode_filter",
    "encode_properties",
    "encode_record",
    "encode_results",
    "encode_snapshot",
]

PROTOCOL_VERSION = 1
KAFKA_ERROR_KINDS = ("not-ready", "invalid-argument", "illegal-state", "config-error")
"""Deliberate refusals Kafka makes too; compared with the reference's error kinds."""
PROTOCOL_ERROR_KINDS = ("bad-request", "unknown-op", "unsupported", "internal")
"""The implementation could not process the request at all: an adapter error."""
ERROR_COMPARISONS = tuple(c.value for c in ErrorComparison)
_RESULTS = {"ALLOWED": AuthorizationResult.ALLOWED, "DENIED": AuthorizationResult.DENIED}
_E = TypeVar("_E", ResourceType, PatternType, AclOperation, AclPermissionType)


class WireError(ValueError):
    """An implementation's message does not follow the protocol; says where and why."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@attrs.frozen
class WireErrorInfo:
    """An ``{"error": {...}}`` object as the implementation sent it."""

    kind: str
    message: str
    exception: str | None = None
    """The Java exception class the implementation says Kafka would throw (optional)."""
    key: str | None = None
    """For ``config-error``: the configuration key that was refused (optional)."""


# -- encoding (kit -> implementation) ------------------------------------------------------


def encode_binding(b: AclBinding) -> dict[str, str]:
    p, e = b.pattern, b.entry
    return {
        "permission": e.permission_type.name,
        "principal": e.principal,
        "host": e.host,
        "operation": e.operation.name,
        "resource_type": p.resource_type.name,
        "name": p.name,
        "pattern_type": p.pattern_type.name,
    }


def encode_snapshot(acls: Mapping[str, AclBinding]) -> list[dict[str, Any]]:
    """A list, not an object: the snapshot's order is kept, as Kafka's image keeps it."""
    return [{"id": acl_id, "acl": encode_binding(b)} for acl_id, b in acls.items()]


def encode_record(record: AclRecord) -> dict[str, Any]:
    if isinstance(record, AddAcl):
        return {"type": "add", "id": record.id, "acl": encode_binding(record.binding)}
    return {"type": "remove", "id": record.id}


def encode_context(c: RequestContext) -> dict[str, Any]:
    return {"principal": {"type": c.principal.principal_type, "name": c.principal.name}, "host": c.host}


def encode_action(a: Action) -> dict[str, str]:
    r = a.resource
    return {
        "operation": a.operation.name,
        "resource_type": r.resource_type.name,
        "name": r.name,
        "pattern_type": r.pattern_type.name,
    }


def encode_filter(f: AclBindingFilter) -> dict[str, Any]:
    p, e = f.pattern, f.entry
    return {
        "pattern": {"resource_type": p.resource_type.name, "name": p.name, "pattern_type": p.pattern_type.name},
        "entry": {
            "principal": e.principal,
            "host": e.host,
            "operation": e.operation.name,
            "permission": e.permission_type.name,
        },
    }


def encode_properties(properties: Mapping[str, object]) -> dict[str, str]:
    """Kafka properties are strings; a non-string value is sent as its text."""
    return {str(k): v if isinstance(v, str) else str(v) for k, v in properties.items()}


# -- decoding (implementation -> kit) --------------------------------------------------------


def _obj(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise WireError(path, f"expected a JSON object, got {_kind(value)}")
    return value


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise WireError(path, f"expected a JSON array, got {_kind(value)}")
    return value


def _field(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise WireError(path, f"missing field {key!r} (fields present: {', '.join(sorted(obj)) or 'none'})")
    return obj[key]


def _str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise WireError(path, f"expected a string, got {_kind(value)}")
    return value


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(path, f"expected true or false, got {_kind(value)}")
    return value


def _enum(cls: type[_E], value: object, path: str) -> _E:
    # ``_member_map_`` is what ``cls[text]`` reads; ``__members__`` builds a new proxy per call,
    # and this runs for every field of every ACL a corpus or an adapter hands over.
    member = cls._member_map_.get(value) if isinstance(value, str) else None
    if member is None:
        text = _str(value, path)
        raise WireError(path, f"expected one of {', '.join(cls.__members__)}, got {text!r}")
    return member  # type: ignore[return-value]


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value[:60]!r}"
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    return "an object"


def decode_binding(value: object, path: str) -> AclBinding:
    obj = _obj(value, path)
    try:
        return AclBinding(
            ResourcePattern(
                _enum(ResourceType, _field(obj, "resource_type", path), f"{path}.resource_type"),
                _str(_field(obj, "name", path), f"{path}.name"),
                _enum(PatternType, _field(obj, "pattern_type", path), f"{path}.pattern_type"),
            ),
            AccessControlEntry(
                _str(_field(obj, "principal", path), f"{path}.principal"),
                _str(_field(obj, "host", path), f"{path}.host"),
                _enum(AclOperation, _field(obj, "operation", path), f"{path}.operation"),
                _enum(AclPermissionType, _field(obj, "permission", path), f"{path}.permission"),
            ),
        )
    except AclValueError as exc:  # e.g. a filter-only value (ANY, MATCH) in an ACL
        raise WireError(path, f"not a valid ACL: {exc}") from None


def decode_bindings(value: object, path: str = "result") -> list[AclBinding]:
    return [decode_binding(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path))]


def decode_count(value: object, path: str = "result") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(path, f"expected an integer, got {_kind(value)}")
    return value


def decode_error(value: object, path: str) -> WireErrorInfo:
    obj = _obj(value, path)
    kind = _str(_field(obj, "kind", path), f"{path}.kind")
    message = cut(_str(obj.get("message", ""), f"{path}.message"))
    exception = obj.get("exception")
    key = obj.get("key")
    return WireErrorInfo(
        kind,
        message,
        None if exception is None else _str(exception, f"{path}.exception"),
        None if key is None else _str(key, f"{path}.key"),
    )


def decode_answer(value: object, path: str) -> AuthorizationResult | WireErrorInfo:
    """One by-type answer: ``"ALLOWED"``, ``"DENIED"`` or ``{"error": {...}}``."""
    if isinstance(value, dict):
        return decode_error(_field(value, "error", path), f"{path}.error")
    if isinstance(value, str) and value in _RESULTS:
        return _RESULTS[value]
    raise WireError(path, f'expected "ALLOWED", "DENIED" or {{"error": ...}}, got {_kind(value)}')


def decode_results(value: object, sizes: Sequence[int], path: str = "result") -> list[list[AuthorizationResult] | WireErrorInfo]:
    """The answer to an ``authorize`` request: per batch, one result per action or an error."""
    batches = _list(value, path)
    if len(batches) != len(sizes):
        raise WireError(path, f"expected {len(sizes)} batch results (one per batch sent), got {len(batches)}")
    out: list[list[AuthorizationResult] | WireErrorInfo] = []
    for i, (batch, size) in enumerate(zip(batches, sizes, strict=True)):
        where = f"{path}[{i}]"
        if isinstance(batch, dict):
            out.append(decode_error(_field(batch, "error", where), f"{where}.error"))
            continue
        items = _list(batch, where)
        if len(items) != size:
            raise WireError(where, f"expected {size} results (one per action), got {len(items)}")
        results = []
        for j, item in enumerate(items):
            if not isinstance(item, str) or item not in _RESULTS:
                raise WireError(f"{where}[{j}]", f'expected "ALLOWED" or "DENIED", got {_kind(item)}')
            results.append(_RESULTS[item])
        out.append(results)
    return out


def decode_capabilities(value: object, path: str = "result.capabilities") -> Capabilities:
    """The declaration from ``hello``: every field is required, so nothing is claimed by default."""
    obj = _obj(value, path)
    flavour_text = _str(_field(obj, "flavour", path), f"{path}.flavour")
    version_text = _str(_field(obj, "kafka_version", path), f"{path}.kafka_version")
    variant = _field(obj, "by_type_variant", path)
    comparison = _str(_field(obj, "error_comparison", path), f"{path}.error_comparison")
    if comparison not in ERROR_COMPARISONS:
        raise WireError(f"{path}.error_comparison", f"expected one of {', '.join(ERROR_COMPARISONS)}, got {comparison!r}")
    try:
        flavour = Flavour.parse(flavour_text)
        version = KafkaVersion.parse(version_text)
        by_type = None if variant is None else ByTypeVariant.parse(_str(variant, f"{path}.by_type_variant"))
    except AclValueError as exc:
        raise WireError(path, str(exc)) from None
    def flag(name: str) -> bool:
        return _bool(_field(obj, name, path), f"{path}.{name}")

    return Capabilities(flavour=flavour, version=version, by_type_variant=by_type, error_comparison=comparison,
                        prefixed=flag("prefixed"), listing=flag("listing"), acl_count=flag("acl_count"),
                        incremental=flag("incremental"), not_ready_state=flag("not_ready_state"))


# -- the server's side (implementation <- kit), for ``serve.py`` -------------------------------
#
# The same JSON forms read the other way, so that a Python authorizer can sit behind the
# protocol (``python -m kafka_conformance.adapters.jsonlines.serve``).  What a request holds
# is the kit's own encoding, so these decoders are as strict as the ones above and name the
# path of anything they cannot read.


def _optional_str(value: object, path: str) -> str | None:
    return None if value is None else _str(value, path)


def decode_context(value: object, path: str) -> RequestContext:
    obj = _obj(value, path)
    who = _obj(_field(obj, "principal", path), f"{path}.principal")
    return RequestContext(
        KafkaPrincipal(_str(_field(who, "type", f"{path}.principal"), f"{path}.principal.type"),
                       _str(_field(who, "name", f"{path}.principal"), f"{path}.principal.name")),
        _str(_field(obj, "host", path), f"{path}.host"),
    )


def decode_action(value: object, path: str) -> Action:
    obj = _obj(value, path)
    try:
        pattern = ResourcePattern(
            _enum(ResourceType, _field(obj, "resource_type", path), f"{path}.resource_type"),
            _str(_field(obj, "name", path), f"{path}.name"),
            _enum(PatternType, _field(obj, "pattern_type", path), f"{path}.pattern_type"),
        )
    except AclValueError as exc:
        raise WireError(path, f"not a valid resource: {exc}") from None
    return Action(_enum(AclOperation, _field(obj, "operation", path), f"{path}.operation"), pattern)


def decode_by_type_query(value: object, path: str) -> tuple[RequestContext, AclOperation, ResourceType]:
    obj = _obj(value, path)
    return (decode_context(_field(obj, "context", path), f"{path}.context"),
            _enum(AclOperation, _field(obj, "operation", path), f"{path}.operation"),
            _enum(ResourceType, _field(obj, "resource_type", path), f"{path}.resource_type"))


def decode_filter(value: object, path: str) -> AclBindingFilter:
    obj = _obj(value, path)
    p = _obj(_field(obj, "pattern", path), f"{path}.pattern")
    e = _obj(_field(obj, "entry", path), f"{path}.entry")
    return AclBindingFilter(
        ResourcePatternFilter(
            _enum(ResourceType, _field(p, "resource_type", f"{path}.pattern"), f"{path}.pattern.resource_type"),
            _optional_str(_field(p, "name", f"{path}.pattern"), f"{path}.pattern.name"),
            _enum(PatternType, _field(p, "pattern_type", f"{path}.pattern"), f"{path}.pattern.pattern_type"),
        ),
        AccessControlEntryFilter(
            _optional_str(_field(e, "principal", f"{path}.entry"), f"{path}.entry.principal"),
            _optional_str(_field(e, "host", f"{path}.entry"), f"{path}.entry.host"),
            _enum(AclOperation, _field(e, "operation", f"{path}.entry"), f"{path}.entry.operation"),
            _enum(AclPermissionType, _field(e, "permission", f"{path}.entry"), f"{path}.entry.permission"),
        ),
    )


def decode_snapshot(value: object, path: str) -> dict[str, AclBinding]:
    out: dict[str, AclBinding] = {}
    for i, item in enumerate(_list(value, path)):
        where = f"{path}[{i}]"
        obj = _obj(item, where)
        out[_str(_field(obj, "id", where), f"{where}.id")] = decode_binding(_field(obj, "acl", where), f"{where}.acl")
    return out


def decode_record(value: object, path: str) -> AclRecord:
    obj = _obj(value, path)
    kind = _str(_field(obj, "type", path), f"{path}.type")
    record_id = _str(_field(obj, "id", path), f"{path}.id")
    if kind == "add":
        return AddAcl(record_id, decode_binding(_field(obj, "acl", path), f"{path}.acl"))
    if kind == "remove":
        return RemoveAcl(record_id)
    raise WireError(f"{path}.type", f"expected 'add' or 'remove', got {kind!r}")


def encode_capabilities(caps: Capabilities) -> dict[str, Any]:
    """What ``hello`` declares: every field :func:`decode_capabilities` requires."""
    return {
        "flavour": caps.flavour.value,
        "kafka_version": str(caps.version),
        "by_type_variant": None if caps.by_type_variant is None else caps.by_type_variant.value,
        "prefixed": caps.prefixed,
        "listing": caps.listing,
        "acl_count": caps.acl_count,
        "incremental": caps.incremental,
        "not_ready_state": caps.not_ready_state,
        "error_comparison": caps.error_comparison.value,
    }


def encode_error(kind: str, message: str, *, exception: str | None = None, key: str | None = None) -> dict[str, str]:
    error = {"kind": kind, "message": message}
    if exception is not None:
        error["exception"] = exception
    if key is not None:
        error["key"] = key
    return error


def encode_results(results: Sequence[AuthorizationResult]) -> list[str]:
    return [r.name for r in results]
