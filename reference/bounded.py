"""Parsing untrusted documents within bounds: size, nesting, integers, YAML aliases.

Users hand the kit ACL files, saved cases and properties files; some of them
are generated, some hostile.  The stdlib and PyYAML parsers fail on the edges
in ways a user cannot read (``RecursionError`` on deep nesting, a ``ValueError``
about ``sys.set_int_max_str_digits`` for a 5,000-digit number, minutes of alias
expansion for a "billion laughs" YAML file).  Every document the kit reads goes
through here first, and every bound that is hit is a :class:`BoundsError`
naming the file and the bound.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_INT_DIGITS",
    "MAX_YAML_ALIASES",
    "BoundsError",
    "check_depth",
    "compose_yaml",
    "json_loads",
    "read_bytes",
]

MAX_DEPTH = 64
"""Nesting of lists and objects; an ACL document needs 4, a saved case about 10."""
MAX_INT_DIGITS = 20
"""Longer than any Java long (19 digits and a sign): nothing Kafka reads is larger."""
MAX_DOCUMENT_BYTES = 512 * 1024 * 1024
"""More than an ACL file of a million bindings."""
MAX_YAML_ALIASES = 1000
"""YAML aliases (``*name``) in one document; their expansion is bounded separately."""


class BoundsError(ValueError):
    """A document beyond what the kit reads: names the source and the bound."""

    def __init__(self, source: str, reason: str) -> None:
        self.source, self.reason = source, reason
        super().__init__(f"{source}: {reason}")


def read_bytes(path: str | Path, source: str | None = None, *, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The file's bytes, refusing one larger than ``limit`` before reading it.  OSError passes
    through (callers name it in their own words)."""
    p = Path(path)
    name = source or str(p)
    if p.is_dir():
        raise BoundsError(name, "is a directory, not a file")
    size = p.stat().st_size
    if size > limit:
        raise BoundsError(name, f"is {size} bytes, more than the {limit} bytes the kit reads")
    with p.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # a device or a file still growing
        raise BoundsError(name, f"is more than the {limit} bytes the kit reads")
    return data


def _bounded_int(source: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            raise BoundsError(source, f"an integer of {digits} digits ({text[:12]}...) is larger than any Kafka reads")
        return int(text)

    return parse


def _no_constant(source: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        raise BoundsError(source, f"{text} is not JSON (JSON has no NaN or Infinity)")

    return parse


def json_loads(text: str, source: str, **hooks: Any) -> Any:
    """``json.loads`` with integers, constants and nesting bounded.  JSON syntax errors pass
    through as ``json.JSONDecodeError`` (callers report their line)."""
    import json

    try:
        data = json.loads(text, parse_int=_bounded_int(source), parse_constant=_no_constant(source), **hooks)
    except RecursionError:
        raise BoundsError(source, f"nested deeper than the {MAX_DEPTH} levels the kit reads") from None
    check_depth(data, source)
    return data


def check_depth(data: object, source: str, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and objects nested deeper than ``limit`` (iteratively: no recursion to exhaust)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise BoundsError(source, f"nested deeper than the {limit} levels the kit reads")
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


class _CountingLoader(yaml.SafeLoader):
    """SafeLoader that counts aliases as it composes, and stops at the bound."""

    aliases = 0
    source = "<yaml>"

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_YAML_ALIASES:
                raise BoundsError(self.source, f"more than {MAX_YAML_ALIASES} YAML aliases")
        return super().compose_node(parent, index)


def compose_yaml(text: str, source: str) -> tuple[yaml.SafeLoader, yaml.Node | None]:
    """The loader and the composed node graph of one YAML document, with aliases bounded in
    number and in expansion (an alias may not make the document larger than ten times
    itself: a "billion laughs" file is refused before anything walks it).  YAML errors pass
    through; the caller disposes of the loader."""
    loader = _CountingLoader(text)
    loader.source = source
    try:
        node = loader.get_single_node()
    except RecursionError:
        loader.dispose()
        raise BoundsError(source, f"nested deeper than the {MAX_DEPTH} levels the kit reads") from None
    if node is not None:
        _check_expansion(node, source)
    return loader, node


def _check_expansion(root: yaml.Node, source: str) -> None:
    """Nesting depth, and the size of the document with every alias expanded, computed once
    per shared node (post-order, iteratively)."""
    unique = 0
    expanded: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if id(node) in expanded and not done:
            continue
        children = _children(node)
        if not done:
            if depth > MAX_DEPTH:
                raise BoundsError(source, f"nested deeper than the {MAX_DEPTH} levels the kit reads")
            unique += 1
            expanded[id(node)] = 0  # in progress (a recursive alias counts once)
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children if id(child) not in expanded)
            continue
        expanded[id(node)] = 1 + sum(expanded.get(id(child), 1) for child in children)
    total = expanded[id(root)]
    if total > max(10 * unique, 100_000):
        raise BoundsError(source, f"YAML aliases expand the document to {total} values from {unique}; "
                                  "the kit refuses alias expansion beyond ten times the document")


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []
