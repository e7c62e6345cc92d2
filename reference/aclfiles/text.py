"""Read and write the text ``kafka-acls.sh --list`` prints.

Users keep their ACLs as pasted CLI output far more often than in any structured
form, so the kit reads that text directly instead of asking them to retype it.
Every Kafka generation's layout is accepted (see ``docs/acl-files.md``):

* 2.1 onwards, via the Admin API (all of 2.5+; 4.0 moved the tool to Java)::

      Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=foo, patternType=LITERAL)`:
              (principal=User:alice, host=*, operation=READ, permissionType=ALLOW)

* 2.0 (and 2.1-2.4 with ``--authorizer-properties``): header ``Topic:LITERAL:foo``;
  1.x: header ``Topic:foo``; both with lines such as
  ``User:alice has Allow permission for operations: Read from hosts: *``.

Header and entry styles are parsed independently because Kafka 2.1-2.3 mixed
them: ``--add`` printed a ``ResourcePattern(...)`` header over old-style lines.
``ACLs for principal`` headers, ``Adding ACLs for resource`` blocks, 4.2+
``Acl (pattern=..., entry=...) already exists.`` lines, and the log4j/SLF4J
lines the JVM interleaves are accepted because users paste whole terminal
sessions.  Any other non-blank line is an error: silently dropping a line could
silently drop an ACL.

Parsing is anchored on the fixed text around each value rather than on commas,
so resource names may contain commas, spaces, ``=``, ``)`` and backticks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.errors import AclFileError, AclValueError

__all__ = ["format_kafka_acls_list", "parse_kafka_acls_list"]

_CURRENT = "Current ACLs for resource `"
_ADDING = "Adding ACLs for resource `"
_PRINCIPAL = "ACLs for principal `"
_EXISTS_PREFIX = "Acl (pattern="
_EXISTS_SUFFIX = ") already exists."
_ENTRY_SEPARATOR = ", entry="

# Greedy ``.*`` with a fixed, enum-valued suffix: the name is everything between
# ``name=`` and the *last* ``, patternType=``, whatever characters it contains.
_PATTERN_RE = re.compile(
    r"ResourcePattern\(resourceType=([A-Za-z_]+), name=(.*), patternType=([A-Za-z_]+)\)"
)
# The principal runs to the last ``, host=``; the host to the fixed enum suffix.
_ENTRY_RE = re.compile(
    r"\(principal=(.*), host=(.*), operation=([A-Za-z_]+), permissionType=([A-Za-z_]+)\)"
)
_LEGACY_ENTRY_RE = re.compile(
    r"(.*) has ([A-Za-z]+) permission for operations: ([A-Za-z_]+) from hosts: (.*)"
)
# Lines the JVM tools interleave with their output: log4j lines with a timestamp
# and level, and SLF4J binding warnings.  They can never describe an ACL.
_LOG_RE = re.compile(
    r"\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[,.]\d{3}\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) "
    r"|SLF4J: "
)
_EXPECTED_LINE = (
    "expected a 'Current ACLs for resource `...`:' header, an ACL entry such as "
    "'(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)', or a blank line"
)


class _BadLine(Exception):
    """A reason a line cannot be read; the caller adds the source and line number."""


def parse_kafka_acls_list(text: str, source: str = "<string>") -> tuple[AclBinding, ...]:
    """Parse ``kafka-acls.sh`` output into bindings, in first-seen order, duplicates removed.

    Duplicates are expected, not suspicious: pasting ``--add`` output followed by
    ``--list`` output shows each new ACL twice.  Raises :class:`AclFileError` with
    the 1-based line number for any line that is neither blank nor recognised.
    """
    found: dict[AclBinding, None] = {}
    pattern: ResourcePattern | None = None
    # Split on "\n" only: str.splitlines() would also split inside names that
    # contain "\x1c", "\x85" or "\u2028", which Kafka prints verbatim.
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            pattern, binding = _parse_line(line, pattern)
        except (_BadLine, AclValueError) as exc:
            raise AclFileError(source, number, str(exc)) from None
        if binding is not None:
            found.setdefault(binding, None)
    return tuple(found)


def _parse_line(
    line: str, pattern: ResourcePattern | None
) -> tuple[ResourcePattern | None, AclBinding | None]:
    """Return the resource block in force after ``line`` and the ACL it states, if any."""
    for prefix in (_CURRENT, _ADDING):
        if line.startswith(prefix):
            if not line.endswith("`:") or len(line) < len(prefix) + 2:
                raise _BadLine(f"resource header must end with '`:': {_clip(line)}")
            return _parse_resource(line[len(prefix) : -2]), None
    if line.startswith(_PRINCIPAL):
        if not line.endswith("`") or len(line) == len(_PRINCIPAL):
            raise _BadLine(f"principal header must end with '`': {_clip(line)}")
        return None, None
    if _LOG_RE.match(line):
        return pattern, None
    if line.startswith(_EXISTS_PREFIX) and line.endswith(_EXISTS_SUFFIX):
        return pattern, _parse_existing(line[len(_EXISTS_PREFIX) : -len(_EXISTS_SUFFIX)])
    if line.startswith("(principal="):
        entry = _parse_entry(line)
    elif " permission for operations: " in line:
        entry = _parse_legacy_entry(line)
    elif line.startswith("Error while executing ACL command"):
        raise _BadLine(f"the pasted output contains a kafka-acls error: {_clip(line, 300)}")
    elif line.startswith("Are you sure you want to"):
        raise _BadLine(
            "this is a 'kafka-acls.sh --remove' confirmation prompt; it lists ACLs to be "
            "removed, not existing ACLs"
        )
    else:
        raise _BadLine(f"unrecognised line {_clip(line)}: {_EXPECTED_LINE}")
    if pattern is None:
        raise _BadLine(
            "ACL entry outside a resource block: it must follow a "
            "'Current ACLs for resource `...`:' header"
        )
    return pattern, AclBinding(pattern, entry)


def _parse_resource(text: str) -> ResourcePattern:
    """A header's resource: ``ResourcePattern(...)``, ``Type:PATTERN:name`` or ``Type:name``."""
    if text.startswith("ResourcePattern("):
        match = _PATTERN_RE.fullmatch(text)
        if match is None:
            raise _BadLine(
                f"malformed resource {_clip(text)}: expected "
                "'ResourcePattern(resourceType=..., name=..., patternType=...)'"
            )
        rtype, name, ptype = match.groups()
        return ResourcePattern(
            ResourceType.parse(rtype, field="resource type"),
            name,
            PatternType.parse(ptype, field="pattern type"),
        )
    kind, sep, rest = text.partition(":")
    if not sep:
        raise _BadLine(
            f"malformed resource {_clip(text)}: expected 'ResourcePattern(...)', "
            "'Type:PATTERN:name' (Kafka 2.0) or 'Type:name' (Kafka 1.x)"
        )
    rtype = ResourceType.parse(kind, field="resource type")
    # Kafka 2.0's own Resource.fromString: a pattern-type name (case-sensitive)
    # followed by ':' is the pattern type; otherwise the rest is a 1.x literal name.
    ptype, sep, name = rest.partition(":")
    if sep and ptype in PatternType.__members__:
        return ResourcePattern(rtype, name, PatternType[ptype])
    return ResourcePattern(rtype, rest, PatternType.LITERAL)


def _parse_entry(text: str) -> AccessControlEntry:
    match = _ENTRY_RE.fullmatch(text)
    if match is None:
        raise _BadLine(
            f"malformed ACL entry {_clip(text)}: expected "
            "'(principal=..., host=..., operation=..., permissionType=...)'"
        )
    principal, host, operation, permission = match.groups()
    return _entry(principal, host, operation, permission)


def _entry(principal: str, host: str, operation: str, permission: str) -> AccessControlEntry:
    return AccessControlEntry(
        principal,
        host,
        AclOperation.parse(operation, field="operation"),
        AclPermissionType.parse(permission, field="permission type"),
    )


def _parse_legacy_entry(text: str) -> AccessControlEntry:
    match = _LEGACY_ENTRY_RE.fullmatch(text)
    if match is None:
        raise _BadLine(
            f"malformed ACL entry {_clip(text)}: expected "
            "'User:name has Allow permission for operations: Read from hosts: *'"
        )
    principal, permission, operation, host = match.groups()
    return _entry(principal, host, operation, permission)


def _parse_existing(body: str) -> AclBinding:
    """``ResourcePattern(...), entry=(...)`` from a 4.x ``Acl ... already exists.`` line.

    The separator could in principle occur inside a name or principal, so every
    split point is tried and exactly one must give a well-formed pair.
    """
    splits = [
        (body[: m.start()], body[m.end() :])
        for m in re.finditer(re.escape(_ENTRY_SEPARATOR), body)
        if _PATTERN_RE.fullmatch(body[: m.start()]) and _ENTRY_RE.fullmatch(body[m.end() :])
    ]
    if len(splits) != 1:
        problem = "ambiguous" if splits else "malformed"
        raise _BadLine(
            f"{problem} 'Acl (pattern=ResourcePattern(...), entry=(...)) already exists.' line"
        )
    left, right = splits[0]
    return AclBinding(_parse_resource(left), _parse_entry(right))


def _clip(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def format_kafka_acls_list(bindings: Iterable[AclBinding], *, scala_layout: bool = False) -> str:
    """The text ``kafka-acls.sh --list`` prints for these ACLs.

    Blocks are grouped by resource pattern in first-seen order (Kafka's own order
    is hash order, so no order is "the" order); duplicates are dropped, as Kafka's
    sets do.  The default is the 4.x layout; ``scala_layout=True`` reproduces the
    2.1-3.9 bytes, which carry a space after the header colon, before the first
    tab and after the last entry.  An ACL whose text would read back differently
    (a line break anywhere, or ``, host=`` inside the host) raises
    :class:`AclValueError` rather than producing text that lies.
    """
    groups: dict[ResourcePattern, dict[AccessControlEntry, None]] = {}
    for binding in bindings:
        _check_writable(binding)
        groups.setdefault(binding.pattern, {})[binding.entry] = None
    blocks = []
    for pattern, entries in groups.items():
        header = f"{_CURRENT}{_pattern_text(pattern)}`:"
        lines = "\n".join("\t" + _entry_text(entry) for entry in entries)
        if scala_layout:
            blocks.append(f"{header} \n {lines} \n\n")
        else:
            blocks.append(f"{header}\n{lines}\n\n")
    return "".join(blocks)


def _pattern_text(pattern: ResourcePattern) -> str:
    """Kafka's ``ResourcePattern.toString``."""
    return (
        f"ResourcePattern(resourceType={pattern.resource_type.name}, name={pattern.name}, "
        f"patternType={pattern.pattern_type.name})"
    )


def _entry_text(entry: AccessControlEntry) -> str:
    """Kafka's ``AccessControlEntryData.toString``."""
    return (
        f"(principal={entry.principal}, host={entry.host}, "
        f"operation={entry.operation.name}, permissionType={entry.permission_type.name})"
    )


def _check_writable(binding: AclBinding) -> None:
    values = {
        "resource name": binding.pattern.name,
        "principal": binding.entry.principal,
        "host": binding.entry.host,
    }
    for field, value in values.items():
        if "\n" in value:
            raise AclValueError(field, value, "kafka-acls text cannot carry a line break")
    if ", host=" in binding.entry.host:
        raise AclValueError(
            "host", binding.entry.host, "contains ', host=', which kafka-acls text cannot carry"
        )
