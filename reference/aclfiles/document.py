"""Our JSON and YAML ACL documents: parsing with located errors, and building.

The document is deliberately strict.  A typo in a key (``operaton``) or an enum
(``REED``) would otherwise silently change which ACLs a conformance run uses, so
both are errors that name the entry path (``acls[3].operation``) and, where the
parser knows it, the line.  Duplicate keys are errors too, since JSON and YAML
loaders keep only the last value.  The format is documented in ``docs/acl-files.md``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.aclfiles.syntax import DocPath, Locate, label, load_json, load_yaml, where
from kafka_conformance.reference.errors import AclFileError, AclValueError

__all__ = [
    "FORMAT_VERSION",
    "Parsed",
    "acl_document",
    "parse_json",
    "parse_yaml",
    "refused_at_creation",
]

FORMAT_VERSION = 1
"""The only ``version`` a document may declare."""

Parsed = tuple[tuple[AclBinding, ...], tuple[str | None, ...], dict[str, str]]
"""Bindings, their record ids (``None`` when absent) and the raw ``config`` strings."""

_T = TypeVar("_T")
# The model's constructor field names, mapped to this document's keys.
_CONSTRUCTOR_FIELDS = {
    "resource_type": "resource_type",
    "pattern_type": "pattern_type",
    "operation": "operation",
    "permission_type": "permission",
}
_TOP_KEYS = ("version", "acls", "config")
_REQUIRED = ("principal", "operation", "permission", "resource_type", "name")
_ACL_KEYS = (
    "id", "principal", "host", "operation", "permission", "resource_type", "name", "pattern_type",
)


def parse_json(text: str, source: str) -> Parsed:
    """Parse our JSON document; every error names the entry path and, where known, the line."""
    data, locate = load_json(text, source)
    return _parse_document(data, source, locate)


def parse_yaml(text: str, source: str) -> Parsed:
    """Parse our YAML document (``SafeLoader``); errors as for :func:`parse_json`."""
    data, locate = load_yaml(text, source)
    return _parse_document(data, source, locate)


def acl_document(
    bindings: Sequence[AclBinding], ids: Sequence[str | None], config: Mapping[str, str]
) -> dict[str, Any]:
    """The JSON/YAML document for these ACLs: every field written out, ``id`` only if set."""
    acls: list[dict[str, str]] = []
    for binding, acl_id in zip(bindings, ids, strict=True):
        pattern, entry = binding.pattern, binding.entry
        item = {} if acl_id is None else {"id": acl_id}
        item.update(
            principal=entry.principal,
            host=entry.host,
            operation=entry.operation.name,
            permission=entry.permission_type.name,
            resource_type=pattern.resource_type.name,
            name=pattern.name,
            pattern_type=pattern.pattern_type.name,
        )
        acls.append(item)
    document: dict[str, Any] = {"version": FORMAT_VERSION}
    if config:
        document["config"] = dict(config)
    document["acls"] = acls
    return document


def _parse_document(data: object, source: str, locate: Locate) -> Parsed:
    def fail(path: DocPath, reason: str) -> AclFileError:
        return AclFileError(source, locate(path), f"{where(path)}{reason}")

    config: dict[str, str] = {}
    if data is None:  # an empty YAML file: no ACLs, which is a legitimate state
        return (), (), config
    base: DocPath
    if isinstance(data, list):
        items, base = data, ()
    elif isinstance(data, dict):
        _check_keys(data, (), _TOP_KEYS, fail)
        version = data.get("version", FORMAT_VERSION)
        if type(version) is not int or version != FORMAT_VERSION:
            raise fail(("version",), f"unsupported version {version!r}: expected {FORMAT_VERSION}")
        if "acls" not in data:
            raise fail((), "missing required key 'acls' (a list of ACL objects)")
        items, base = data["acls"], ("acls",)
        if not isinstance(items, list):
            raise fail(base, f"'acls' must be a list, got {_kind(items)}")
        config = _parse_config(data.get("config", {}), fail)
    else:
        raise fail((), f"expected an object with 'acls' or a list of ACL objects, got {_kind(data)}")
    bindings: list[AclBinding] = []
    ids: list[str | None] = []
    acl_at: dict[AclBinding, int] = {}
    id_at: dict[str, int] = {}
    for index, item in enumerate(items):
        path = (*base, index)
        binding, acl_id = _parse_acl(item, path, fail)
        # Kafka's ACL store holds each ACL once, under one id; a repeat is a mistake.
        if binding in acl_at:
            raise fail(path, f"duplicate ACL: same as {label((*base, acl_at[binding]))}")
        if acl_id is not None and acl_id in id_at:
            other = label((*base, id_at[acl_id]))
            raise fail((*path, "id"), f"duplicate id {acl_id!r}: also used by {other}")
        acl_at[binding] = index
        if acl_id is not None:
            id_at[acl_id] = index
        bindings.append(binding)
        ids.append(acl_id)
    return tuple(bindings), tuple(ids), config


def _parse_acl(
    item: object, path: DocPath, fail: Callable[[DocPath, str], AclFileError]
) -> tuple[AclBinding, str | None]:
    if not isinstance(item, dict):
        raise fail(path, f"expected an ACL object, got {_kind(item)}")
    _check_keys(item, path, _ACL_KEYS, fail)
    for key in _REQUIRED:
        if key not in item:
            raise fail(path, f"missing required key {key!r}")

    def text(key: str, default: str | None = None) -> str:
        value = item.get(key, default)
        if not isinstance(value, str):
            hint = " (quote it in YAML)" if isinstance(value, (bool, int, float)) else ""
            raise fail((*path, key), f"must be a string, got {_kind(value)}{hint}")
        return value

    def choice(key: str, parse: Callable[..., _T], field: str, default: str | None = None) -> _T:
        try:
            return parse(text(key, default), field=field)
        except AclValueError as exc:
            raise fail((*path, key), str(exc)) from None

    acl_id = None if item.get("id") is None else text("id")
    try:
        binding = AclBinding(
            ResourcePattern(
                choice("resource_type", ResourceType.parse, "resource_type"),
                text("name"),
                choice("pattern_type", PatternType.parse, "pattern_type", "LITERAL"),
            ),
            AccessControlEntry(
                text("principal"),
                text("host", WILDCARD_HOST),
                choice("operation", AclOperation.parse, "operation"),
                choice("permission", AclPermissionType.parse, "permission"),
            ),
        )
    except AclValueError as exc:  # a filter-only value, such as pattern_type ANY
        doc_key = _CONSTRUCTOR_FIELDS.get(exc.field)
        if doc_key is None:
            raise fail(path, str(exc)) from None
        raise fail((*path, doc_key), f"invalid {doc_key} {exc.value!r}: {exc.reason}") from None
    return binding, acl_id


def refused_at_creation(binding: AclBinding) -> str | None:
    """Why Kafka's tools and CreateAcls would refuse to create ``binding``, or None.

    The loader keeps such ACLs (an ACL file states what an authorizer holds, and a
    colon-less principal is in the metadata of KRaft clusters before 3.9.1); ``explain``
    names them, so that an answer about them is never a surprise.  ``User:`` (an empty
    name) is not among them: every layer of Kafka accepts it.  See docs/errors.md."""
    if binding.pattern.name == "":
        return ("an empty resource name: CreateAcls refuses it in every release (INVALID_REQUEST "
                "'Invalid empty resource name')")
    if ":" not in binding.entry.principal:
        return (f"principal {binding.entry.principal[:80]!r} has no type: kafka-acls refuses it, CreateAcls does "
                "from 3.9.1 (KAFKA-18051), and StandardAuthorizer throws when a question reaches it")
    unknown = [f for f, v in (("operation", binding.entry.operation), ("permission", binding.entry.permission_type),
                              ("resource type", binding.pattern.resource_type)) if v.name == "UNKNOWN"]
    if unknown:
        return f"{' and '.join(unknown)} UNKNOWN: no Kafka API can create it"
    return None


def _parse_config(raw: object, fail: Callable[[DocPath, str], AclFileError]) -> dict[str, str]:
    """Raw authorizer properties; YAML's unquoted ``false`` and ``1`` are spelled as Kafka would."""
    if not isinstance(raw, dict):
        raise fail(("config",), f"'config' must be an object, got {_kind(raw)}")
    config: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            raise fail(("config",), f"config keys must be strings, got {_kind(key)}")
        if isinstance(value, bool):
            config[key] = "true" if value else "false"
        elif isinstance(value, (str, int)):
            config[key] = str(value)
        else:
            raise fail(("config", key), f"config value must be a string, got {_kind(value)}")
    return config


def _check_keys(
    item: dict[Any, Any], path: DocPath, allowed: Sequence[str], fail: Callable[[DocPath, str], AclFileError]
) -> None:
    for key in item:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise fail(
                (*path, key) if isinstance(key, str) else path,
                f"unknown key {key!r}{hint}; expected keys: {', '.join(allowed)}",
            )


def _kind(value: object) -> str:
    return "null" if value is None else f"{type(value).__name__} {value!r}"


