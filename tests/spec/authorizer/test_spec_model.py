"""The ACL data model: enumerations and wire codes, constructor checks, principals,
wildcards, ACL filters and create/delete validation.

Facts: ``docs/spec/authorization.md`` §1 (data model) and §5 (controller validation,
filter semantics).  Upstream counterparts are named per test where one exists.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    CLUSTER_NAME,
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    WILDCARD_RESOURCE,
    AccessControlEntry,
    AccessControlEntryFilter,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AclValueError,
    Action,
    AuthorizationResult,
    KafkaPrincipal,
    PatternType,
    ReferenceAuthorizer,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
    parse_principal,
    profile_for,
)

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED
LATEST = profile_for()


# -- §1.1 enumerations and wire codes ---------------------------------------------


@pytest.mark.parametrize(
    ("enum_cls", "codes"),
    [
        (
            ResourceType,
            {"UNKNOWN": 0, "ANY": 1, "TOPIC": 2, "GROUP": 3, "CLUSTER": 4,
             "TRANSACTIONAL_ID": 5, "DELEGATION_TOKEN": 6, "USER": 7},
        ),
        (PatternType, {"UNKNOWN": 0, "ANY": 1, "MATCH": 2, "LITERAL": 3, "PREFIXED": 4}),
        (
            AclOperation,
            {"UNKNOWN": 0, "ANY": 1, "ALL": 2, "READ": 3, "WRITE": 4, "CREATE": 5, "DELETE": 6,
             "ALTER": 7, "DESCRIBE": 8, "CLUSTER_ACTION": 9, "DESCRIBE_CONFIGS": 10,
             "ALTER_CONFIGS": 11, "IDEMPOTENT_WRITE": 12, "CREATE_TOKENS": 13,
             "DESCRIBE_TOKENS": 14},
        ),
        (AclPermissionType, {"UNKNOWN": 0, "ANY": 1, "DENY": 2, "ALLOW": 3}),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_wire_codes_match_kafka(enum_cls, codes):
    """Every member carries Kafka's wire code and nothing else exists."""
    assert {m.name: m.code for m in enum_cls} == codes
    for name, code in codes.items():
        assert enum_cls.from_code(code) is enum_cls[name]


@pytest.mark.parametrize("enum_cls", [ResourceType, PatternType, AclOperation, AclPermissionType])
@pytest.mark.parametrize("code", [-1, 15, 99, 127])
def test_unrecognised_codes_decode_to_unknown(enum_cls, code):
    """Record decoding maps codes it does not know to UNKNOWN (§1.1, §5)."""
    assert enum_cls.from_code(code) is enum_cls.UNKNOWN


@pytest.mark.parametrize(
    ("enum_cls", "text", "expected"),
    [
        (ResourceType, "topic", ResourceType.TOPIC),
        (ResourceType, "Transactional_Id", ResourceType.TRANSACTIONAL_ID),
        (AclOperation, "describe_configs", AclOperation.DESCRIBE_CONFIGS),
        (AclOperation, "DescribeConfigs", AclOperation.UNKNOWN),
        (AclOperation, "bogus", AclOperation.UNKNOWN),
        (AclPermissionType, "allow", AclPermissionType.ALLOW),
        (AclPermissionType, "permit", AclPermissionType.UNKNOWN),
    ],
)
def test_from_name_upper_cases_and_falls_back_to_unknown(enum_cls, text, expected):
    """``fromString`` of ResourceType/AclOperation/AclPermissionType upper-cases its
    input; text that is not then an enum name is UNKNOWN (§1.1)."""
    assert enum_cls.from_name(text) is expected


@pytest.mark.parametrize("enum_cls", [ResourceType, AclOperation, AclPermissionType])
def test_from_name_does_not_trim(enum_cls):
    member = next(m for m in enum_cls if m.name not in ("UNKNOWN", "ANY"))
    assert enum_cls.from_name(f" {member.name.lower()} ") is enum_cls.UNKNOWN


@pytest.mark.parametrize("text", ["literal", "Prefixed", "match"])
def test_pattern_type_from_name_is_case_sensitive(text):
    assert PatternType.from_name(text) is PatternType.UNKNOWN


@pytest.mark.parametrize("text", ["LITERAL", "PREFIXED", "ANY", "MATCH", "UNKNOWN"])
def test_pattern_type_from_name_accepts_exact_names(text):
    assert PatternType.from_name(text) is PatternType[text]


@pytest.mark.parametrize(
    "text", ["DescribeConfigs", "DESCRIBECONFIGS", "describeconfigs", "describe_configs"]
)
def test_parse_accepts_pascal_case_and_squashed_spellings(text):
    """The kit's strict parser accepts the spellings ``SecurityUtils.operation`` takes
    (Pascal case, or any case without underscores), plus the enum name."""
    assert AclOperation.parse(text, field="operation") is AclOperation.DESCRIBE_CONFIGS


def test_parse_rejects_unknown_text_naming_the_field():
    with pytest.raises(AclValueError) as info:
        AclOperation.parse("Reed", field="operation")
    assert info.value.field == "operation"
    assert info.value.value == "Reed"


# -- §1.2 constructor-level validation -----------------------------------------------


@pytest.mark.parametrize(
    ("rtype", "ptype"),
    [
        (ResourceType.ANY, PatternType.LITERAL),
        (ResourceType.TOPIC, PatternType.ANY),
        (ResourceType.TOPIC, PatternType.MATCH),
    ],
)
def test_resource_pattern_rejects_filter_only_values(rtype, ptype):
    with pytest.raises(AclValueError) as info:
        ResourcePattern(rtype, "foo", ptype)
    assert info.value.kafka_exception == "java.lang.IllegalArgumentException"


def test_resource_pattern_allows_unknown_and_empty_name():
    """UNKNOWN type and pattern are constructible; an empty name is allowed (§1.2)."""
    ResourcePattern(ResourceType.UNKNOWN, "x", PatternType.LITERAL)
    ResourcePattern(ResourceType.TOPIC, "x", PatternType.UNKNOWN)
    assert ResourcePattern(ResourceType.TOPIC, "").name == ""


@pytest.mark.parametrize(
    ("op", "perm"),
    [(AclOperation.ANY, AclPermissionType.ALLOW), (AclOperation.READ, AclPermissionType.ANY)],
)
def test_entry_rejects_filter_only_values(op, perm):
    with pytest.raises(AclValueError):
        AccessControlEntry("User:alice", "*", op, perm)


def test_entry_allows_unknown_operation_and_permission():
    AccessControlEntry("User:alice", "*", AclOperation.UNKNOWN, AclPermissionType.UNKNOWN)


@pytest.mark.parametrize("op", [AclOperation.ANY, AclOperation.UNKNOWN])
def test_action_does_not_reject_any_or_unknown_operation(op):
    """Action only null-checks; ANY/UNKNOWN operations are constructible (§1.2)."""
    assert Action(op, ResourcePattern(ResourceType.TOPIC, "t")).operation is op


def test_action_may_carry_a_prefixed_resource():
    """The non-literal check happens in authorize(), not in the constructor."""
    Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "t", PatternType.PREFIXED))


# -- §1.2 principals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ptype", "name"),
    [
        ("User:alice", "User", "alice"),
        ("User:a:b", "User", "a:b"),
        ("User:", "User", ""),
        (":alice", "", "alice"),
        ("Group:*", "Group", "*"),
    ],
)
def test_principal_splits_at_first_colon(text, ptype, name):
    assert parse_principal(text) == KafkaPrincipal(ptype, name)


@pytest.mark.parametrize("text", ["", "alice", "bob"])
def test_principal_without_colon_is_rejected(text):
    with pytest.raises(AclValueError) as info:
        parse_principal(text)
    assert info.value.kind == "invalid-argument"
    assert info.value.kafka_exception == "java.lang.IllegalArgumentException"


def test_principal_equality_is_case_sensitive_in_type_and_name():
    assert parse_principal("User:alice") == KafkaPrincipal("User", "alice")
    assert parse_principal("User:alice") != parse_principal("User:Alice")
    assert parse_principal("User:alice") != parse_principal("user:alice")


# -- §1.3 wildcards and constants ------------------------------------------------------


def test_wildcard_constants():
    assert (WILDCARD_RESOURCE, WILDCARD_PRINCIPAL, WILDCARD_HOST, CLUSTER_NAME) == (
        "*", "User:*", "*", "kafka-cluster",
    )


def test_only_literal_star_is_the_wildcard_resource():
    assert ResourcePattern(ResourceType.TOPIC, "*").is_wildcard
    assert not ResourcePattern(ResourceType.TOPIC, "*", PatternType.PREFIXED).is_wildcard
    assert not ResourcePattern(ResourceType.TOPIC, "**").is_wildcard


def test_prefixed_star_is_an_ordinary_prefix(build, check):
    """A PREFIXED ``*`` matches names starting with an asterisk, nothing else (§1.3)."""
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "*", "PREFIXED")])
    assert check(authz, "User:alice", "READ", "TOPIC", "*foo") is ALLOWED
    assert check(authz, "User:alice", "READ", "TOPIC", "foo") is DENIED


@pytest.mark.parametrize("acl_principal", ["Group:*", "user:*", "User:**"])
def test_only_user_star_is_the_principal_wildcard(build, check, acl_principal):
    """``Group:*`` or ``user:*`` match only a session principal literally equal to them."""
    authz = build(LATEST, [AclBinding.of("ALLOW", acl_principal, "READ", "TOPIC", "t")])
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is DENIED
    assert check(authz, acl_principal, "READ", "TOPIC", "t") is ALLOWED


@pytest.mark.parametrize("session", ["User:alice", "Group:devs", "ServiceAccount:x"])
def test_user_star_matches_every_principal_type(build, check, session):
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "t")])
    assert check(authz, session, "READ", "TOPIC", "t") is ALLOWED


@pytest.mark.parametrize(
    ("acl_host", "client", "expected"),
    [
        ("*", "10.0.0.1", ALLOWED),
        ("10.0.0.1", "10.0.0.1", ALLOWED),
        ("10.0.0.2", "10.0.0.1", DENIED),
        # Hostnames never match: the client is identified by its numeric address.
        ("localhost", "127.0.0.1", DENIED),
        # Java renders IPv6 uncompressed, so a compressed ACL host never matches.
        ("::1", "0:0:0:0:0:0:0:1", DENIED),
        ("0:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1", ALLOWED),
    ],
)
def test_host_match_is_exact_string_or_star(build, check, acl_host, client, expected):
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t", host=acl_host)])
    assert check(authz, "User:alice", "READ", "TOPIC", "t", host=client) is expected


@pytest.mark.parametrize(
    ("acl_name", "asked", "expected"),
    [("Foo", "foo", DENIED), ("foo", "Foo", DENIED), ("foo", "foo", ALLOWED)],
)
def test_resource_names_are_case_sensitive(build, check, acl_name, asked, expected):
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", acl_name)])
    assert check(authz, "User:alice", "READ", "TOPIC", asked) is expected


def test_types_never_cross(build, check):
    """An ACL on a TOPIC never answers for a GROUP of the same name."""
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "x")])
    assert check(authz, "User:alice", "READ", "GROUP", "x") is DENIED


def test_operations_are_not_checked_against_the_supported_table(build, check):
    """§1.4: authorize() does not enforce the per-type operation table; READ on
    CLUSTER is evaluated like any other ACL."""
    authz = build(LATEST, [AclBinding.of("ALLOW", "User:alice", "READ", "CLUSTER", CLUSTER_NAME)])
    assert check(authz, "User:alice", "READ", "CLUSTER", CLUSTER_NAME) is ALLOWED


# -- §5 filter semantics ---------------------------------------------------------------


def _binding(name, pattern="LITERAL", rtype="TOPIC", principal="User:alice", host="*",
             op="READ", perm="ALLOW"):
    return AclBinding.of(perm, principal, op, rtype, name, pattern, host=host)


def _pfilter(rtype=ResourceType.ANY, name=None, pattern=PatternType.ANY):
    return AclBindingFilter(ResourcePatternFilter(rtype, name, pattern))


def test_filter_any_type_matches_every_type():
    f = _pfilter()
    assert all(f.matches(_binding("x", rtype=t)) for t in ("TOPIC", "GROUP", "CLUSTER"))
    assert not _pfilter(ResourceType.GROUP).matches(_binding("x", rtype="TOPIC"))


def test_filter_pattern_any_is_exact_name_in_any_pattern():
    f = _pfilter(name="foo")
    assert f.matches(_binding("foo"))
    assert f.matches(_binding("foo", "PREFIXED"))
    assert not f.matches(_binding("*"))
    assert not f.matches(_binding("fo", "PREFIXED"))


def test_filter_match_covers_literal_wildcard_and_prefixes():
    f = _pfilter(ResourceType.TOPIC, "foobar", PatternType.MATCH)
    assert f.matches(_binding("foobar"))
    assert f.matches(_binding("*"))
    assert f.matches(_binding("foo", "PREFIXED"))
    assert f.matches(_binding("foobar", "PREFIXED"))
    assert not f.matches(_binding("foo"))
    assert not f.matches(_binding("foobarbaz", "PREFIXED"))
    assert not f.matches(_binding("*", "PREFIXED"))


def test_filter_null_name_matches_every_name():
    for pattern in (PatternType.ANY, PatternType.MATCH):
        f = _pfilter(name=None, pattern=pattern)
        assert f.matches(_binding("x")) and f.matches(_binding("y", "PREFIXED"))


@pytest.mark.parametrize("pattern", [PatternType.LITERAL, PatternType.PREFIXED])
def test_filter_specific_pattern_needs_equal_pattern_and_name(pattern):
    f = _pfilter(ResourceType.TOPIC, "foo", pattern)
    assert f.matches(_binding("foo", pattern.name))
    other = "PREFIXED" if pattern is PatternType.LITERAL else "LITERAL"
    assert not f.matches(_binding("foo", other))
    assert not f.matches(_binding("foobar", pattern.name))


def test_entry_filter_principal_and_host_are_exact_strings():
    """A filter for ``User:*`` finds only ACLs written for ``User:*`` (§5,
    AuthorizerTest.testGetAclsPrincipal)."""
    star = AclBindingFilter(entry=AccessControlEntryFilter(principal="User:*"))
    assert star.matches(_binding("t", principal="User:*"))
    assert not star.matches(_binding("t", principal="User:alice"))
    host = AclBindingFilter(entry=AccessControlEntryFilter(host="10.0.0.1"))
    assert host.matches(_binding("t", host="10.0.0.1"))
    assert not host.matches(_binding("t", host="*"))


def test_entry_filter_any_matches_all_and_specific_is_exact():
    assert AclBindingFilter().matches(_binding("t", op="ALL", perm="DENY"))
    read = AclBindingFilter(entry=AccessControlEntryFilter(operation=AclOperation.READ))
    assert read.matches(_binding("t", op="READ"))
    assert not read.matches(_binding("t", op="ALL"))
    deny = AclBindingFilter(entry=AccessControlEntryFilter(permission_type=AclPermissionType.DENY))
    assert not deny.matches(_binding("t"))


def test_binding_filter_matches_exactly_its_binding():
    acl = _binding("foo", "PREFIXED", host="10.0.0.1")
    f = AclBindingFilter.for_binding(acl)
    assert f.matches(acl)
    assert not f.matches(_binding("foo", "PREFIXED"))
    assert not f.matches(_binding("foobar", "PREFIXED", host="10.0.0.1"))


@pytest.mark.parametrize(
    ("acl_filter", "unknown"),
    [
        (_pfilter(ResourceType.UNKNOWN), True),
        (_pfilter(pattern=PatternType.UNKNOWN), True),
        (AclBindingFilter(entry=AccessControlEntryFilter(operation=AclOperation.UNKNOWN)), True),
        (
            AclBindingFilter(entry=AccessControlEntryFilter(permission_type=AclPermissionType.UNKNOWN)),
            True,
        ),
        (AclBindingFilter(), False),
    ],
)
def test_filter_is_unknown(acl_filter, unknown):
    assert acl_filter.is_unknown is unknown


# -- §5 create validation (AclControlManager + broker AclApis) ---------------------------


def _create_error(profile, binding):
    authz = ReferenceAuthorizer(profile)
    authz.complete_initial_load()
    [result] = authz.create_acls([binding])
    return result.error


@pytest.mark.parametrize(
    ("binding", "message"),
    [
        (_binding("t", rtype="UNKNOWN"), "Invalid resourceType"),
        (_binding("t", pattern="UNKNOWN"), "Invalid patternType"),
        (_binding("t", op="UNKNOWN"), "Invalid operation"),
        (_binding("t", perm="UNKNOWN"), "Invalid permissionType"),
        (_binding(""), "Resource name should not be empty"),
        (_binding("*", rtype="CLUSTER"), "kafka-cluster"),
    ],
    ids=["type", "pattern", "operation", "permission", "empty-name", "cluster-name"],
)
@pytest.mark.parametrize("profile", [LATEST, profile_for("3.9.0", "acl")], ids=str)
def test_create_rejects_invalid_bindings(profile, binding, message):
    error = _create_error(profile, binding)
    assert error is not None and message in error


def test_create_accepts_the_cluster_resource_name():
    assert _create_error(LATEST, _binding(CLUSTER_NAME, rtype="CLUSTER")) is None


@pytest.mark.parametrize(
    ("profile", "rejected"),
    [
        (profile_for("3.2.0", "acl"), False),
        (profile_for("3.3.0", "acl"), True),
        (profile_for("3.9.0", "acl"), True),
        (profile_for("3.9.0", "standard"), False),
    ],
    ids=str,
)
def test_slash_in_names_rejected_by_acl_authorizer_from_3_3(profile, rejected):
    """KAFKA-13983; AuthorizerTest.testCreateAclWithInvalidResourceName (zk)."""
    assert (_create_error(profile, _binding("test/1")) is not None) is rejected


@pytest.mark.parametrize(
    ("profile", "rejected"),
    [
        (profile_for("3.9.0", "acl"), True),
        (profile_for("3.9.0", "standard"), False),
        (profile_for("4.0.0", "standard"), True),
    ],
    ids=str,
)
def test_unparseable_principal_on_create(profile, rejected):
    """AclAuthorizer parses principals at creation; the KRaft controller only from
    KAFKA-18051 (4.0 line) (§2.4f, §5, §7)."""
    assert (_create_error(profile, _binding("t", principal="alice")) is not None) is rejected


@pytest.mark.parametrize(
    ("version", "accepted"), [("3.2.0", False), ("3.3.0", True)]
)
def test_user_resource_type_arrives_in_3_3(version, accepted):
    """KIP-373: USER resources and CREATE_TOKENS/DESCRIBE_TOKENS from 3.3.0 (§1.1, §7)."""
    binding = _binding("User:bob", rtype="USER", op="CREATE_TOKENS")
    assert (_create_error(profile_for(version, "acl"), binding) is None) is accepted
