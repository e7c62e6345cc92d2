"""``reference/acl/filters.py`` against Kafka 4.3.0's real ``AclBindingFilter`` (kafka-clients).

Hypothesis draws bindings and filters over every enum value (UNKNOWN, ANY and
MATCH included), names sharing prefixes, ``*``, the empty name and non-ASCII
text; the whole matrix goes to the JVM in one call and every disagreement is
reported.  One disagreement is known and pinned below (a finding about the
reference, not about Kafka).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance.adapters.jvm.filters import (
    constructor_divergences,
    filter_divergences,
)
from kafka_conformance.adapters.jvm.session import JvmSession
from kafka_conformance.reference.acl.filters import (
    AccessControlEntryFilter,
    AclBindingFilter,
    ResourcePatternFilter,
)
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)

NAMES = st.sampled_from(["", "*", "a", "ab", "abc", "b", "a*", "é", "😀", "😀x", "A"])
PRINCIPALS = st.sampled_from(["User:a", "User:*", "user:a", "Group:a", "User:", "a"])
HOSTS = st.sampled_from(["*", "10.0.0.1", "::1", "", "10.0.0.10"])
BINDING_TYPES = [t for t in ResourceType if t is not ResourceType.ANY]
BINDING_PATTERNS = [PatternType.LITERAL, PatternType.PREFIXED, PatternType.UNKNOWN]
BINDING_OPS = [o for o in AclOperation if o is not AclOperation.ANY]
BINDING_PERMS = [p for p in AclPermissionType if p is not AclPermissionType.ANY]

bindings = st.builds(
    AclBinding,
    st.builds(ResourcePattern, st.sampled_from(BINDING_TYPES), NAMES, st.sampled_from(BINDING_PATTERNS)),
    st.builds(AccessControlEntry, PRINCIPALS, HOSTS, st.sampled_from(BINDING_OPS), st.sampled_from(BINDING_PERMS)),
)
filters = st.builds(
    AclBindingFilter,
    st.builds(ResourcePatternFilter, st.sampled_from(list(ResourceType)), st.none() | NAMES,
              st.sampled_from(list(PatternType))),
    st.builds(AccessControlEntryFilter, st.none() | PRINCIPALS, st.none() | HOSTS,
              st.sampled_from(list(AclOperation)), st.sampled_from(list(AclPermissionType))),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(bindings, max_size=10), st.lists(filters, min_size=1, max_size=10))
def test_filters_agree_with_kafka(jvm: JvmSession, bs: list[AclBinding], fs: list[AclBindingFilter]) -> None:
    """Every matches() and isUnknown answer of the reference equals Kafka's."""
    found = filter_divergences(jvm, bs, fs)
    assert not found, "\n".join(map(str, found))


def test_exhaustive_small_domain(jvm: JvmSession) -> None:
    """Every filter over a small domain against every binding over it, in one call each."""
    types = [ResourceType.TOPIC, ResourceType.GROUP]
    names = ["", "*", "a", "ab"]
    bs = [
        AclBinding(ResourcePattern(t, n, p), AccessControlEntry(pr, "*", AclOperation.READ, AclPermissionType.ALLOW))
        for t in types for n in names for p in BINDING_PATTERNS for pr in ("User:a", "User:*")
    ]
    fs = [
        AclBindingFilter(ResourcePatternFilter(t, n, p), AccessControlEntryFilter(pr))
        for t in [*types, ResourceType.ANY, ResourceType.UNKNOWN] for n in [None, *names]
        for p in PatternType for pr in (None, "User:a", "User:*")
    ]
    found = filter_divergences(jvm, bs, fs)
    assert not found, "\n".join(map(str, found[:20]))


def test_binding_constructors_agree_with_kafka(jvm: JvmSession) -> None:
    """Which enum combinations may form an ACL binding: ANY/MATCH are filter-only on both
    sides, UNKNOWN is allowed on both (all 8 x 5 x 15 x 4 combinations)."""
    assert constructor_divergences(jvm) == []


def test_match_filter_on_unknown_pattern_binding(jvm: JvmSession) -> None:
    """FINDING 1 (now modelled): a MATCH filter with a name, against a stored binding
    whose pattern is UNKNOWN, throws IllegalArgumentException in Kafka; the reference
    was changed to throw too (it used to answer False).

    Reachable in KRaft: a stored ACL with pattern UNKNOWN (a record from a newer
    version) and DescribeAcls/DeleteAcls with a MATCH filter."""
    binding = AclBinding(
        ResourcePattern(ResourceType.TOPIC, "foo", PatternType.UNKNOWN),
        AccessControlEntry("User:a", "*", AclOperation.READ, AclPermissionType.ALLOW),
    )
    match = AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, "foo", PatternType.MATCH))
    assert filter_divergences(jvm, [binding], [match]) == []
    # Without a name, or with another resource type, Kafka returns before the switch: no throw.
    assert filter_divergences(jvm, [binding], [AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, None,
                                                                                      PatternType.MATCH))]) == []
    assert filter_divergences(jvm, [binding], [AclBindingFilter(ResourcePatternFilter(ResourceType.GROUP, "foo",
                                                                                      PatternType.MATCH))]) == []
