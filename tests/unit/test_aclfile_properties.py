"""Round-trip properties of the ACL file writers and readers.

Hostile values are the point: resource names and principals with commas,
spaces, ``=``, ``)``, backticks, colons (``User:a:b``) and arbitrary Unicode,
because that is where a parser anchored on the wrong delimiter goes wrong.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.aclfiles.load import (
    AclFile,
    dump_json,
    dump_yaml,
    format_kafka_acls_list,
    load_acls_text,
    parse_kafka_acls_list,
    sniff_format,
)
from kafka_conformance.reference.errors import AclFileError

TRICKY = [
    "", "*", "orders", "a, b", "x=y", "p)", "name=q, patternType=PREFIXED)", "`:", "with space ",
    " lead", "tab\there", "caf\u00e9", "\u65e5\u672c", "emoji \U0001f600", "a:b:c", "yes", "null",
    "line\u2028sep", "nel\x85", "\ufeffbom", "cr\rhere", "(principal=x, host=y)",
]


def texts(allow_newline: bool) -> st.SearchStrategy[str]:
    excluded = "" if allow_newline else "\n"
    return st.one_of(
        st.sampled_from(TRICKY),
        st.text(st.characters(exclude_characters=excluded), max_size=12),
    )


def bindings(allow_newline: bool = False) -> st.SearchStrategy[AclBinding]:
    free = texts(allow_newline)
    principal = st.one_of(
        st.sampled_from(["User:alice", "User:*", "User:a:b", "Group:x, host=y", "User:"]),
        st.builds("{}:{}".format, st.sampled_from(["User", "Group", "U s"]), free),
    )
    host = st.one_of(st.sampled_from(["*", "10.0.0.1", "0:0:0:0:0:0:0:1"]), free)
    if not allow_newline:  # the one thing kafka-acls text cannot carry in a host
        host = host.filter(lambda h: ", host=" not in h)
    return st.builds(
        AclBinding,
        st.builds(
            ResourcePattern,
            st.sampled_from([t for t in ResourceType if t is not ResourceType.ANY]),
            free,
            st.sampled_from([PatternType.LITERAL, PatternType.PREFIXED, PatternType.UNKNOWN]),
        ),
        st.builds(
            AccessControlEntry,
            principal,
            host,
            st.sampled_from([o for o in AclOperation if o is not AclOperation.ANY]),
            st.sampled_from([p for p in AclPermissionType if p is not AclPermissionType.ANY]),
        ),
    )


def grouped(items: list[AclBinding]) -> tuple[AclBinding, ...]:
    """The order the text writer promises: by pattern in first-seen order, no duplicates."""
    groups: dict[ResourcePattern, dict[AclBinding, None]] = {}
    for binding in items:
        groups.setdefault(binding.pattern, {})[binding] = None
    return tuple(b for group in groups.values() for b in group)


@given(st.lists(bindings(), max_size=8), st.booleans())
def test_kafka_text_round_trip(items: list[AclBinding], scala_layout: bool) -> None:
    text = format_kafka_acls_list(items, scala_layout=scala_layout)
    assert parse_kafka_acls_list(text) == grouped(items)
    if items:
        assert sniff_format(text) == "text"
        assert load_acls_text(text).bindings == grouped(items)


@given(st.lists(bindings(), min_size=1, max_size=5), st.integers(0, 30), texts(False))
def test_an_unrecognised_line_is_never_skipped(
    items: list[AclBinding], position: int, junk: str
) -> None:
    lines = format_kafka_acls_list(items).split("\n")
    junk = junk.strip()
    assume(junk and not junk.startswith(("Current ACLs", "Adding ACLs", "ACLs for", "Acl (")))
    assume(not junk.startswith(("(principal=", "[", "SLF4J: ")))  # entries and JVM log lines
    assume(" permission for operations: " not in junk)
    position %= len(lines)
    lines.insert(position, junk)
    try:
        parse_kafka_acls_list("\n".join(lines))
    except AclFileError as exc:
        assert exc.line == position + 1
    else:
        raise AssertionError(f"junk line {junk!r} was accepted")


@st.composite
def acl_files(draw: st.DrawFn) -> AclFile:
    items = draw(st.lists(bindings(allow_newline=True), max_size=6, unique=True))
    ids = draw(
        st.lists(st.one_of(st.none(), texts(True)), min_size=len(items), max_size=len(items))
        .filter(lambda xs: len([x for x in xs if x is not None]) == len({x for x in xs if x is not None}))
    )
    config = draw(st.dictionaries(texts(True), texts(True), max_size=3))
    return AclFile(items, ids, config)


@given(acl_files())
def test_json_round_trip(original: AclFile) -> None:
    text = dump_json(original)
    assert sniff_format(text) == "json"
    loaded = load_acls_text(text)
    assert (loaded.bindings, loaded.ids, loaded.config) == (
        original.bindings, original.ids, original.config,
    )


@given(acl_files())
def test_yaml_round_trip(original: AclFile) -> None:
    text = dump_yaml(original)
    assert sniff_format(text) == "yaml"
    loaded = load_acls_text(text)
    assert (loaded.bindings, loaded.ids, loaded.config) == (
        original.bindings, original.ids, original.config,
    )
