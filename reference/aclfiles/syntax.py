"""JSON and YAML syntax for ACL documents: loading with positions, and dumping.

Neither stdlib ``json`` nor PyYAML's ``safe_load`` reports where a value came
from, and both silently keep the last of two equal keys.  Users fixing a large
ACL file need the line of the bad entry, and a repeated key is usually a typo
that would otherwise hide an ACL field, so this module loads each syntax with a
locator from a document path (``("acls", 3, "operation")``) to a 1-based line,
and turns repeated keys into errors.  The meaning of the document lives in
:mod:`kafka_conformance.reference.aclfiles.document`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from kafka_conformance.reference.bounded import BoundsError, compose_yaml, json_loads
from kafka_conformance.reference.errors import AclFileError

__all__ = ["DocPath", "Locate", "label", "load_json", "load_yaml", "where", "yaml_text"]

DocPath = tuple[str | int, ...]
"""A path into a document: keys and list indexes, outermost first."""
Locate = Callable[[DocPath], int | None]
"""Maps a path to the 1-based line of its value (or of its nearest located ancestor)."""


def load_json(text: str, source: str) -> tuple[object, Locate]:
    """Decode JSON; syntax errors and repeated keys raise :class:`AclFileError` with a line."""
    try:
        data = json_loads(text, source, object_pairs_hook=_no_duplicate_pairs)
    except json.JSONDecodeError as exc:
        raise AclFileError(
            source, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})"
        ) from None
    except BoundsError as exc:
        raise AclFileError(source, None, exc.reason) from None
    except _DuplicateKey:
        path, offset = _json_offsets(text)[1][0]
        line = text.count("\n", 0, offset) + 1
        raise AclFileError(source, line, f"{where(path)}duplicate key {path[-1]!r}") from None
    cache: list[dict[DocPath, int]] = []

    def locate(path: DocPath) -> int | None:
        if not cache:  # positions are only needed for an error, so find them lazily
            cache.append(_json_offsets(text)[0])
        offset = _nearest(cache[0], path)
        return None if offset is None else text.count("\n", 0, offset) + 1

    return data, locate


def load_yaml(text: str, source: str) -> tuple[object, Locate]:
    """Load one YAML document with ``SafeLoader``; errors carry YAML's line marks."""
    lines: dict[DocPath, int] = {}
    loader: yaml.SafeLoader | None = None
    try:
        loader, node = compose_yaml(text, source)
        if node is not None:
            _yaml_lines(node, (), lines, source, frozenset())
        data = None if node is None else loader.construct_document(node)
    except BoundsError as exc:
        raise AclFileError(source, None, exc.reason) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = "; ".join(part for part in (exc.context, exc.problem) if part)
        if "alias" in reason:
            reason += " (a bare * starts a YAML alias: write '*' in quotes)"
        line = None if mark is None else mark.line + 1
        raise AclFileError(source, line, f"invalid YAML: {reason}") from None
    except yaml.YAMLError as exc:
        raise AclFileError(source, None, f"invalid YAML: {exc}") from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, lambda path: _nearest(lines, path)


class _Dumper(yaml.SafeDumper):
    """SafeDumper that double-quotes strings PyYAML would otherwise not read back.

    PyYAML may emit NEL, LINE SEPARATOR and friends inside plain or single-quoted
    scalars, where its reader folds them into spaces; in double quotes they are
    escaped (``\\N``, ``\\L``) and survive.  Control characters get the same
    treatment so that every dump loads back to the same ACLs.
    """


_NEEDS_DOUBLE_QUOTES = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = '"' if _NEEDS_DOUBLE_QUOTES.search(data) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _represent_str)


def yaml_text(document: Mapping[str, Any]) -> str:
    """The YAML text of a document, in key order, one ACL field per line."""
    # An unbounded width keeps long names on one line: folding is legal YAML but
    # makes diffs of ACL files harder to read.
    text: str = yaml.dump(
        dict(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
        default_flow_style=False, width=2**31 - 1,
    )
    return text


def label(path: DocPath) -> str:
    """``acls[3].operation`` for a path (``[3]`` when the document is a bare list)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def where(path: DocPath) -> str:
    """The error-message prefix for a path; empty for the document itself."""
    return f"{label(path)}: " if path else ""



def _nearest(positions: Mapping[DocPath, int], path: DocPath) -> int | None:
    """The position of ``path`` or of its closest recorded ancestor (a missing key's entry)."""
    while path not in positions and path:
        path = path[:-1]
    return positions.get(path)


class _DuplicateKey(Exception):
    pass


def _no_duplicate_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey
    return result


_WS = re.compile(r"[ \t\n\r]*")


def _json_offsets(text: str) -> tuple[dict[DocPath, int], list[tuple[DocPath, int]]]:
    """Offsets of every value in well-formed JSON, by path, and of any repeated keys.

    The stdlib decoder does not report positions, so this walks the (already
    validated) text, letting ``raw_decode`` consume strings and scalars.
    """
    decoder = json.JSONDecoder()
    offsets: dict[DocPath, int] = {}
    duplicates: list[tuple[DocPath, int]] = []

    def skip(i: int) -> int:
        match = _WS.match(text, i)
        return i if match is None else match.end()

    def value(i: int, path: DocPath) -> int:
        i = skip(i)
        offsets.setdefault(path, i)
        opener = text[i]
        if opener not in "{[":
            return int(decoder.raw_decode(text, i)[1])
        closer, index, seen = ("}" if opener == "{" else "]"), 0, set()
        i = skip(i + 1)
        while text[i] != closer:
            if opener == "{":
                key_at = i
                key, i = decoder.raw_decode(text, i)
                if key in seen:
                    duplicates.append(((*path, key), key_at))
                seen.add(key)
                i = value(skip(i) + 1, (*path, key))  # step over ':'
            else:
                i = value(i, (*path, index))
                index += 1
            i = skip(i)
            if text[i] == ",":
                i = skip(i + 1)
        return i + 1

    value(0, ())
    return offsets, duplicates


def _yaml_lines(
    node: yaml.Node, path: DocPath, lines: dict[DocPath, int], source: str, above: frozenset[int]
) -> None:
    """Record the 1-based line of every node by path; reject duplicate mapping keys.

    ``above`` holds the ids of the enclosing nodes: an alias may refer to its own
    ancestor, and such a cycle is walked once rather than forever.
    """
    if id(node) in above:
        return
    above |= {id(node)}
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            _yaml_lines(child, (*path, index), lines, source, above)
    elif isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, child in node.value:
            key = str(key_node.value)
            if key in seen and key != "<<":
                prefix = where((*path, key))
                raise AclFileError(
                    source, key_node.start_mark.line + 1, f"{prefix}duplicate key {key!r}"
                )
            seen.add(key)
            _yaml_lines(child, (*path, key), lines, source, above)
