"""ACL sets in files: one loader for our JSON/YAML documents and ``kafka-acls`` text.

Users bring ACLs in whatever form they have: a document they wrote for the kit,
or the output of ``kafka-acls.sh --list`` pasted from a terminal.  ``load_acls``
takes either, picks the reader from the file extension or the content, and
returns one value type, so nothing downstream cares where the ACLs came from.
Every reader reports problems as :class:`AclFileError` with the source, the line
when it is known, and a reason that names the offending field or line.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import attrs

from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.aclfiles.document import Parsed, acl_document, parse_json, parse_yaml
from kafka_conformance.reference.aclfiles.syntax import yaml_text
from kafka_conformance.reference.aclfiles.text import format_kafka_acls_list, parse_kafka_acls_list
from kafka_conformance.reference.bounded import BoundsError, read_bytes
from kafka_conformance.reference.errors import AclFileError, AclValueError

__all__ = [
    "AclFile",
    "AclFormat",
    "dump_json",
    "dump_yaml",
    "format_kafka_acls_list",
    "load_acls",
    "load_acls_text",
    "parse_kafka_acls_list",
    "sniff_format",
]

AclFormat = Literal["json", "yaml", "text"]
"""``json``/``yaml``: our document (``docs/acl-files.md``); ``text``: kafka-acls output."""

_FORMATS: tuple[str, ...] = get_args(AclFormat)
_SUFFIXES: dict[str, AclFormat] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}
_TEXT_HEADERS = (
    "Current ACLs for resource `",
    "Adding ACLs for resource `",
    "ACLs for principal `",
    "Acl (pattern=ResourcePattern(",
)
_TEXT_MARKERS = re.compile("^(?:" + "|".join(re.escape(h) for h in _TEXT_HEADERS) + ")", re.M)


def _as_bindings(value: Iterable[AclBinding]) -> tuple[AclBinding, ...]:
    return tuple(value)


def _as_ids(value: Iterable[str | None]) -> tuple[str | None, ...]:
    return tuple(value)


def _as_config(value: Mapping[str, str]) -> dict[str, str]:
    return dict(value)


def _check_ids(instance: AclFile, attribute: attrs.Attribute[Any], ids: tuple[Any, ...]) -> None:
    if len(ids) != len(instance.bindings):
        raise AclValueError("ids", ids, f"expected {len(instance.bindings)} ids, one per binding")
    for acl_id in ids:
        if acl_id is not None and not isinstance(acl_id, str):
            raise AclValueError("id", acl_id, "must be a string or None")


@attrs.frozen
class AclFile:
    """A loaded ACL set: the bindings in file order, their record ids, and raw config.

    ``ids[i]`` is the KIP-801 record id of ``bindings[i]``, or ``None``; ids matter
    to tests that replay a record log, where removal is by id.  ``config`` holds
    the document's authorizer properties as raw strings, unparsed, because the two
    authorizer flavours parse them differently (see :func:`parse_config`).
    """

    bindings: tuple[AclBinding, ...] = attrs.field(converter=_as_bindings)
    ids: tuple[str | None, ...] = attrs.field(converter=_as_ids, validator=_check_ids)
    config: dict[str, str] = attrs.field(factory=dict, converter=_as_config, hash=False)
    source: str = "<string>"
    format: AclFormat = attrs.field(default="yaml", validator=attrs.validators.in_(_FORMATS))

    @ids.default
    def _no_ids(self) -> tuple[str | None, ...]:
        return (None,) * len(self.bindings)

    @property
    def entries(self) -> tuple[tuple[str | None, AclBinding], ...]:
        """``(id, binding)`` pairs, the shape a record log is built from."""
        return tuple(zip(self.ids, self.bindings, strict=True))


def load_acls(
    path_or_text: str | os.PathLike[str],
    *,
    format: AclFormat | None = None,
    source: str | None = None,
) -> AclFile:
    """Load ACLs from a file path, or from text.

    A ``str`` is text when it is blank, spans several lines or starts with ``{`` or
    ``[``; any other ``str`` (and every ``PathLike``) is a path, so a mistyped path
    fails as a missing file instead of as a baffling parse error.  Without
    ``format``, ``.json``, ``.yaml`` and ``.yml`` decide; any other extension
    (``.txt``, ``.acls``, ``.list``, none) is sniffed with :func:`sniff_format`.
    """
    if isinstance(path_or_text, str) and _is_text(path_or_text):
        return load_acls_text(path_or_text, format, source or "<string>")
    path = Path(path_or_text)
    name = source or str(path)
    text = _read(path, name)
    return load_acls_text(text, format or _SUFFIXES.get(path.suffix.lower()), name)


def load_acls_text(
    text: str, format: AclFormat | None = None, source: str = "<string>"
) -> AclFile:
    """Parse ACL text in the given format (sniffed when ``None``)."""
    text = text.removeprefix("\ufeff")
    fmt = format or sniff_format(text)
    parsed: Parsed
    if fmt == "json":
        parsed = parse_json(text, source)
    elif fmt == "yaml":
        parsed = parse_yaml(text, source)
    elif fmt == "text":
        bindings = parse_kafka_acls_list(text, source)
        parsed = bindings, (None,) * len(bindings), {}
    else:
        raise ValueError(f"unknown ACL format {fmt!r}: expected one of {', '.join(_FORMATS)}")
    bindings, ids, config = parsed
    return AclFile(bindings, ids, config, source, fmt)


def sniff_format(text: str) -> AclFormat:
    """Guess the format from the first non-blank line, then from unindented header lines.

    ``{`` or ``[`` first means JSON; a kafka-acls header first, or a header line
    anywhere at column 0, means text (YAML never puts a plain ``Current ACLs ...``
    line at column 0: continuation lines are indented).  Anything else is YAML,
    which is also what an empty input parses as (no ACLs).
    """
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    first = first.removeprefix("\ufeff")
    if first[:1] in ("{", "[") and first:
        return "json"
    if first.startswith(_TEXT_HEADERS) or _TEXT_MARKERS.search(text):
        return "text"
    return "yaml"


def dump_json(
    acls: AclFile | Iterable[AclBinding],
    *,
    ids: Sequence[str | None] | None = None,
    config: Mapping[str, str] | None = None,
) -> str:
    """Our JSON document for these ACLs; ``ids``/``config`` override an AclFile's own."""
    document = _document(acls, ids, config)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def dump_yaml(
    acls: AclFile | Iterable[AclBinding],
    *,
    ids: Sequence[str | None] | None = None,
    config: Mapping[str, str] | None = None,
) -> str:
    """Our YAML document for these ACLs; strings YAML would misread are quoted."""
    return yaml_text(_document(acls, ids, config))


def _document(
    acls: AclFile | Iterable[AclBinding],
    ids: Sequence[str | None] | None,
    config: Mapping[str, str] | None,
) -> dict[str, Any]:
    """Build the document, refusing what the loader would refuse (so dumps always load)."""
    if isinstance(acls, AclFile):
        bindings = acls.bindings
        ids = acls.ids if ids is None else ids
        config = acls.config if config is None else config
    else:
        bindings = tuple(acls)
    checked = AclFile(bindings, (None,) * len(bindings) if ids is None else ids, config or {})
    seen_acls: set[AclBinding] = set()
    seen_ids: set[str] = set()
    for acl_id, binding in checked.entries:
        if binding in seen_acls:
            raise AclValueError("binding", binding, "duplicate ACL")
        if acl_id is not None and acl_id in seen_ids:
            raise AclValueError("id", acl_id, "duplicate id")
        seen_acls.add(binding)
        if acl_id is not None:
            seen_ids.add(acl_id)
    return acl_document(checked.bindings, checked.ids, checked.config)


def _is_text(value: str) -> bool:
    return not value.strip() or "\n" in value or value.lstrip()[:1] in ("{", "[")


def _read(path: Path, source: str) -> str:
    """Read UTF-8 (a BOM is dropped) without newline translation.

    Universal-newline mode would turn a lone ``\\r`` inside a resource name into a
    line break; kafka-acls text is split on ``\\n`` only.
    """
    try:
        raw = read_bytes(path, source)
    except OSError as exc:
        raise AclFileError(source, None, f"cannot read the file: {exc.strerror or exc}") from None
    except BoundsError as exc:
        raise AclFileError(source, None, exc.reason) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise AclFileError(
            source, line, f"not valid UTF-8 (byte {exc.start}); save the file as UTF-8"
        ) from None
