"""The semantic facts of ``AuthorizerTest`` (``docs/spec/authorization.md`` §6.5), restated.

At 3.9.0 most of these ran in both ``kraft`` (StandardAuthorizer) and ``zk``
(AclAuthorizer) mode; at HEAD in kraft mode only.  The ``upstream_mode``
fixture runs each test in all three.  ZooKeeper plumbing (change events, ZK TLS
config, cache loading, listener timing, distributed propagation) is out of scope.

Fixture facts shared by the upstream tests: super users ``User:superuser1`` and
``User:superuser2`` (configured as "User:superuser1; User:superuser2"); the
caller is ``User:alice`` from 192.168.0.1; the resource is a literal topic
``foo-<uuid>``.  ACLs are created through the admin path (``create_acls`` /
``delete_acls``) as upstream did, except where upstream bypassed broker checks.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    AccessControlEntry,
    AccessControlEntryFilter,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    Action,
    AddAcl,
    AuthorizationResult,
    ByTypeVariant,
    KafkaPrincipal,
    PatternType,
    ReferenceAuthorizer,
    RequestContext,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
    default_variant,
)

ALLOWED, DENIED, ERROR = (
    AuthorizationResult.ALLOWED,
    AuthorizationResult.DENIED,
    AuthorizationResult.ERROR,
)
SUPER_USERS = "User:superuser1; User:superuser2"
ALICE, ALICE_HOST = "User:alice", "192.168.0.1"
RESOURCE = ResourcePattern(ResourceType.TOPIC, "foo-2f6a4c1e-5d7b-4e0a-9b1c-3a8e7f6d5c4b")
WILDCARD_TOPIC = ResourcePattern(ResourceType.TOPIC, "*")
PREFIXED_FOO = ResourcePattern(ResourceType.TOPIC, "foo", PatternType.PREFIXED)
CLUSTER = ResourcePattern(ResourceType.CLUSTER, "kafka-cluster")


def ace(principal, host, op, perm):
    return AccessControlEntry(principal, host, AclOperation[op], AclPermissionType[perm])


ALLOW_READ = ace("User:*", "*", "READ", "ALLOW")
ALLOW_WRITE = ace("User:*", "*", "WRITE", "ALLOW")
DENY_READ = ace("User:*", "*", "READ", "DENY")


def new_authorizer(profile, **props):
    """Configure like AuthorizerTest.setUp (KafkaConfig originals) and complete the load."""
    authz = ReferenceAuthorizer(profile)
    authz.configure({"super.users": SUPER_USERS, **props})
    authz.complete_initial_load()
    return authz


def add(authz, entries, resource=RESOURCE):
    """Upstream ``addAcls``: create, and fail on any per-binding error."""
    for result in authz.create_acls([AclBinding(resource, e) for e in entries]):
        assert result.error is None, result.error


def remove(authz, entries, resource=RESOURCE):
    """Upstream ``removeAcls``: with no entries, delete everything on the resource."""
    if not entries:
        pattern = ResourcePatternFilter(resource.resource_type, resource.name, resource.pattern_type)
        return authz.delete_acls([AclBindingFilter(pattern)])
    return authz.delete_acls([AclBindingFilter.for_binding(AclBinding(resource, e)) for e in entries])


def entries_on(authz, resource):
    """Upstream ``getAcls(authorizer, resourcePattern)``: the entries stored on exactly that pattern."""
    pattern_filter = ResourcePatternFilter(resource.resource_type, resource.name, resource.pattern_type)
    return {b.entry for b in authz.acls(AclBindingFilter(pattern_filter))}


def principal_acls(authz, principal):
    return set(authz.acls(AclBindingFilter(entry=AccessControlEntryFilter(principal=principal))))


def authorize(authz, op, resource=RESOURCE, principal=ALICE, host=ALICE_HOST, *, session=None):
    session = session or RequestContext(KafkaPrincipal(*principal.split(":", 1)), host)
    return authz.authorize(session, [Action(AclOperation[op], resource)])[0].result


@pytest.fixture
def authz(upstream_mode):
    return new_authorizer(upstream_mode)


def test_authorize_throws_on_non_literal_resource(authz):
    """AuthorizerTest.testAuthorizeThrowsOnNonLiteralResource."""
    prefixed = ResourcePattern(ResourceType.TOPIC, "something", PatternType.PREFIXED)
    decision = authz.authorize(RequestContext(KafkaPrincipal("User", "alice")),
                               [Action(AclOperation.READ, prefixed)])[0]
    assert decision.result is ERROR and decision.error == "invalid-argument"


def test_authorize_with_empty_resource_name(authz):
    """AuthorizerTest.testAuthorizeWithEmptyResourceName: group "" is DENIED with no
    ACLs, and ALLOWED once ``User:*`` may READ the wildcard group."""
    empty_group = ResourcePattern(ResourceType.GROUP, "")
    assert authorize(authz, "READ", empty_group) is DENIED
    add(authz, [ALLOW_READ], ResourcePattern(ResourceType.GROUP, "*"))
    assert authorize(authz, "READ", empty_group) is ALLOWED


def test_empty_acl_throws_exception(authz):
    """AuthorizerTest.testEmptyAclThrowsException: an ACL with an empty name is refused."""
    [result] = authz.create_acls([AclBinding(ResourcePattern(ResourceType.GROUP, ""), ALLOW_READ)])
    assert result.error is not None
    assert authz.acl_count() in (0, -1)
    assert authz.acls() == []


def test_topic_acl(authz):
    """AuthorizerTest.testTopicAcl: host-specific ALLOW/DENY; DENY READ from host1 blocks
    READ but not DESCRIBE; READ and WRITE imply DESCRIBE; nothing grants ALTER."""
    h1, h2 = "192.168.1.1", "192.168.1.2"
    add(authz, [
        ace(ALICE, h1, "READ", "ALLOW"), ace(ALICE, h2, "READ", "ALLOW"),
        ace(ALICE, h1, "READ", "DENY"), ace(ALICE, h1, "WRITE", "ALLOW"),
        ace(ALICE, "*", "DESCRIBE", "ALLOW"), ace("User:rob", "*", "READ", "ALLOW"),
        ace("User:batman", "*", "WRITE", "ALLOW"),
    ])
    assert authorize(authz, "READ", host=h2) is ALLOWED
    assert authorize(authz, "READ", host=h1) is DENIED
    assert authorize(authz, "WRITE", host=h1) is ALLOWED
    assert authorize(authz, "WRITE", host=h2) is DENIED
    assert authorize(authz, "DESCRIBE", host=h1) is ALLOWED
    assert authorize(authz, "DESCRIBE", host=h2) is ALLOWED
    assert authorize(authz, "ALTER", host=h1) is DENIED
    assert authorize(authz, "ALTER", host=h2) is DENIED
    assert authorize(authz, "DESCRIBE", principal="User:rob", host=h1) is ALLOWED
    assert authorize(authz, "DESCRIBE", principal="User:batman", host=h1) is ALLOWED
    assert authorize(authz, "READ", principal="User:rob", host=h1) is ALLOWED
    assert authorize(authz, "WRITE", principal="User:batman", host=h1) is ALLOWED


class PlainSubclassPrincipal(KafkaPrincipal):
    """A session principal of a subclass (e.g. one carrying extra token data)."""


class BrokenEqualsPrincipal(KafkaPrincipal):
    """Like upstream's CustomPrincipal: a subclass whose equals() is always false."""

    def __eq__(self, other):
        return False

    def __ne__(self, other):
        return True

    __hash__ = KafkaPrincipal.__hash__


@pytest.mark.parametrize("principal_cls", [PlainSubclassPrincipal, BrokenEqualsPrincipal])
def test_allow_access_with_custom_principal(authz, principal_cls):
    """AuthorizerTest.testAllowAccessWithCustomPrincipal: ACLs match a custom principal by
    type and name only."""
    h1, h2 = "192.168.1.1", "192.168.1.2"
    add(authz, [ace(ALICE, h1, "READ", "DENY"), ace(ALICE, h2, "READ", "ALLOW")])
    custom = principal_cls("User", "alice")
    assert authorize(authz, "READ", session=RequestContext(custom, h2)) is ALLOWED
    assert authorize(authz, "READ", session=RequestContext(custom, h1)) is DENIED


def test_deny_takes_precedence(authz):
    """AuthorizerTest.testDenyTakesPrecedence: the user's DENY ALL from their host beats
    ``User:*`` ALLOW ALL from everywhere."""
    host = "192.168.2.1"
    add(authz, [ace("User:*", "*", "ALL", "ALLOW"), ace(ALICE, host, "ALL", "DENY")])
    assert authorize(authz, "READ", host=host) is DENIED


def test_allow_all_access(authz):
    """AuthorizerTest.testAllowAllAccess: ``User:*`` ALLOW ALL admits an arbitrary user."""
    add(authz, [ace("User:*", "*", "ALL", "ALLOW")])
    assert authorize(authz, "READ", principal="User:random", host="192.0.4.4") is ALLOWED


@pytest.mark.parametrize("user", ["User:superuser1", "User:superuser2"])
def test_super_user_has_access(authz, user):
    """AuthorizerTest.testSuperUserHasAccess: super users bypass a ``User:*`` DENY ALL."""
    add(authz, [ace("User:*", "*", "ALL", "DENY")])
    assert authorize(authz, "READ", principal=user, host="192.0.4.4") is ALLOWED


@pytest.mark.parametrize("principal_cls", [PlainSubclassPrincipal, BrokenEqualsPrincipal])
def test_super_user_with_custom_principal_has_access(authz, principal_cls):
    """AuthorizerTest.testSuperUserWithCustomPrincipalHasAccess."""
    add(authz, [ace("User:*", "*", "ALL", "DENY")])
    session = RequestContext(principal_cls("User", "superuser1"), "192.0.4.4")
    assert authorize(authz, "READ", session=session) is ALLOWED


def test_wildcard_acls(authz):
    """AuthorizerTest.testWildCardAcls: no ACLs fails closed; a wildcard ALLOW READ
    grants the topic; a wildcard DENY WRITE beats a literal ALLOW WRITE."""
    assert authorize(authz, "READ") is DENIED
    host = "192.168.3.1"
    add(authz, [ace(ALICE, host, "READ", "ALLOW")], WILDCARD_TOPIC)
    assert authorize(authz, "READ", host=host) is ALLOWED
    add(authz, [ace(ALICE, host, "WRITE", "ALLOW")])
    add(authz, [ace(ALICE, host, "WRITE", "DENY")], WILDCARD_TOPIC)
    assert authorize(authz, "WRITE", host=host) is DENIED


def test_no_acl_found(authz):
    """AuthorizerTest.testNoAclFound: no ACLs and the flag off -> DENIED."""
    assert authorize(authz, "READ") is DENIED


def test_no_acl_found_override(upstream_mode):
    """AuthorizerTest.testNoAclFoundOverride: no ACLs and the flag on -> ALLOWED."""
    authz = new_authorizer(upstream_mode, **{"allow.everyone.if.no.acl.found": "true"})
    assert authorize(authz, "READ") is ALLOWED


def test_acl_config_with_whitespace(upstream_mode):
    """AuthorizerTest.testAclConfigWithWhitespace (3.6.0+): every property value padded
    with spaces, the flag included, is still understood."""
    authz = ReferenceAuthorizer(upstream_mode)
    authz.configure({"super.users": f" {SUPER_USERS} ", "allow.everyone.if.no.acl.found": "  true "})
    authz.complete_initial_load()
    assert authorize(authz, "READ") is ALLOWED
    assert authorize(authz, "READ", principal="User:superuser2") is ALLOWED


def test_acl_management_apis(authz):
    """AuthorizerTest.testAclManagementAPIs: creation is additive; listing by principal
    is exact; wildcard resources of several types coexist; entries can be removed one
    by one or all at once."""
    acl1, acl2 = ace(ALICE, "host1", "READ", "ALLOW"), ace(ALICE, "host1", "WRITE", "ALLOW")
    acl3, acl4 = ace("User:bob", "host2", "READ", "ALLOW"), ace("User:bob", "host2", "WRITE", "ALLOW")
    add(authz, [acl1, acl2, acl3, acl4])
    acl5 = ace("User:bob", "*", "READ", "ALLOW")
    add(authz, [acl5])
    acls = {acl1, acl2, acl3, acl4, acl5}
    assert entries_on(authz, RESOURCE) == acls
    assert principal_acls(authz, ALICE) == {AclBinding(RESOURCE, a) for a in (acl1, acl2)}
    assert principal_acls(authz, "User:bob") == {AclBinding(RESOURCE, a) for a in (acl3, acl4, acl5)}

    per_resource = {
        ResourcePattern(ResourceType.TOPIC, "*"): {ace("User:bob", "*", "READ", "ALLOW")},
        ResourcePattern(ResourceType.CLUSTER, "*"): {ace("User:bob", "host1", "READ", "ALLOW")},
        ResourcePattern(ResourceType.GROUP, "*"): acls,
        ResourcePattern(ResourceType.GROUP, "test-ConsumerGroup"): acls,
    }
    for resource, entries in per_resource.items():
        if resource.resource_type is ResourceType.CLUSTER:
            # Upstream calls Authorizer.createAcls directly; the broker-level check that
            # CLUSTER ACLs name kafka-cluster is not on that path, so use a record.
            for index, entry in enumerate(entries):
                authz.apply(AddAcl(f"cluster-{index}", AclBinding(resource, entry)))
        else:
            add(authz, entries, resource)
    expected = {AclBinding(r, e) for r, es in {**per_resource, RESOURCE: acls}.items() for e in es}
    assert set(authz.acls()) == expected

    remove(authz, [acl1, acl5])
    assert entries_on(authz, RESOURCE) == {acl2, acl3, acl4}
    remove(authz, [])
    assert entries_on(authz, RESOURCE) == set()
    add(authz, [acl1])
    remove(authz, [acl1])
    assert entries_on(authz, RESOURCE) == set()


def test_local_concurrent_modification_of_resource_acls(authz):
    """AuthorizerTest.testLocalConcurrentModificationOfResourceAcls: two separate adds on
    one resource are both kept."""
    common = ResourcePattern(ResourceType.TOPIC, "test")
    acl1, acl2 = ace(ALICE, "*", "READ", "ALLOW"), ace("User:bob", "*", "READ", "DENY")
    add(authz, [acl1], common)
    add(authz, [acl2], common)
    assert entries_on(authz, common) == {acl1, acl2}


REAL_OPS = [op for op in AclOperation if op not in (AclOperation.ANY, AclOperation.UNKNOWN)]
EVERY_OP_BUT_ALL = {op.name for op in REAL_OPS} - {"ALL"}


@pytest.mark.parametrize(
    ("parent", "perm", "implied"),
    [
        ("ALL", "ALLOW", EVERY_OP_BUT_ALL),
        ("ALL", "DENY", EVERY_OP_BUT_ALL),
        ("READ", "ALLOW", {"DESCRIBE"}),
        ("WRITE", "ALLOW", {"DESCRIBE"}),
        ("DELETE", "ALLOW", {"DESCRIBE"}),
        ("ALTER", "ALLOW", {"DESCRIBE"}),
        ("DESCRIBE", "DENY", set()),
        ("ALTER_CONFIGS", "ALLOW", {"DESCRIBE_CONFIGS"}),
        ("DESCRIBE_CONFIGS", "DENY", set()),
    ],
)
def test_acl_inheritance(authz, parent, perm, implied):
    """AuthorizerTest.testAclInheritance: over every real operation on the CLUSTER
    resource, ALLOW X grants exactly X plus what X implies; DENY X (next to an
    ALLOW ALL) denies exactly X plus what X covers (only ALL covers others)."""
    host = "192.168.3.1"
    entries = [ace(ALICE, "*", parent, perm)]
    if perm == "DENY":
        entries.append(ace(ALICE, "*", "ALL", "ALLOW"))
    add(authz, entries, CLUSTER)
    affected = implied | {parent}
    for op in REAL_OPS:
        granted = authorize(authz, op.name, CLUSTER, host=host) is ALLOWED
        assert granted is ((op.name in affected) == (perm == "ALLOW")), op
    remove(authz, entries, CLUSTER)
    assert authz.acls() == []


def test_access_allowed_if_allow_acl_exists_on_wildcard_resource(authz):
    """AuthorizerTest.testAccessAllowedIfAllowAclExistsOnWildcardResource."""
    add(authz, [ALLOW_READ], WILDCARD_TOPIC)
    assert authorize(authz, "READ") is ALLOWED


def test_access_allowed_if_allow_acl_exists_on_prefixed_resource(authz):
    """AuthorizerTest.testAccessAllowedIfAllowAclExistsOnPrefixedResource: PREFIXED foo
    covers ``foo-<uuid>``."""
    add(authz, [ALLOW_READ], PREFIXED_FOO)
    assert authorize(authz, "READ") is ALLOWED


@pytest.mark.parametrize("resource", [WILDCARD_TOPIC, PREFIXED_FOO], ids=["wildcard", "prefixed"])
def test_delete_acl_on_resource(authz, resource):
    """AuthorizerTest.testDeleteAclOnWildcardResource / testDeleteAclOnPrefixedResource:
    deleting one of two ACLs keeps the other."""
    add(authz, [ALLOW_READ, ALLOW_WRITE], resource)
    remove(authz, [ALLOW_READ], resource)
    assert entries_on(authz, resource) == {ALLOW_WRITE}


@pytest.mark.parametrize("resource", [WILDCARD_TOPIC, PREFIXED_FOO], ids=["wildcard", "prefixed"])
def test_delete_all_acl_on_resource(authz, resource):
    """AuthorizerTest.testDeleteAllAclOnWildcardResource / testDeleteAllAclOnPrefixedResource."""
    add(authz, [ALLOW_READ, ALLOW_WRITE], resource)
    remove(authz, [], resource)
    assert authz.acls() == []


@pytest.mark.parametrize(
    "resource", [RESOURCE, WILDCARD_TOPIC, PREFIXED_FOO], ids=["literal", "wildcard", "prefixed"]
)
def test_add_acls_on_resource(authz, resource):
    """AuthorizerTest.testAddAclsOnLiteralResource / ...WildcardResource /
    ...PrefixedResource: adds are a set union on their own pattern and never leak to
    the other two patterns."""
    add(authz, [ALLOW_READ, ALLOW_WRITE], resource)
    add(authz, [ALLOW_WRITE, DENY_READ], resource)
    assert entries_on(authz, resource) == {ALLOW_READ, ALLOW_WRITE, DENY_READ}
    for other in {RESOURCE, WILDCARD_TOPIC, PREFIXED_FOO} - {resource}:
        assert entries_on(authz, other) == set()


def test_authorize_with_prefixed_resource(authz):
    """AuthorizerTest.testAuthorizeWithPrefixedResource: many DENYs on literal and
    prefixed names that do not cover the resource, plus an ALLOW on PREFIXED foo."""
    topic = ResourceType.TOPIC
    literal, prefixed = PatternType.LITERAL, PatternType.PREFIXED
    for name, pattern in [
        ("a_other", literal), ("a_other", prefixed),
        ("foo-0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", prefixed),
        ("foo-1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", prefixed),
        ("foo-2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a-zzz", prefixed),
        ("fooo-3e4f5a6b-7c8d-4e9f-0a1b-2c3d4e5f6a7b", prefixed),
        ("fo-4f5a6b7c-8d9e-4f0a-1b2c-3d4e5f6a7b8c", prefixed),
        ("fop-5a6b7c8d-9e0f-4a1b-2c3d-4e5f6a7b8c9d", prefixed),
        ("fon-6b7c8d9e-0f1a-4b2c-3d4e-5f6a7b8c9d0e", prefixed),
        ("fon-", prefixed), ("z_other", prefixed), ("z_other", literal),
    ]:
        add(authz, [DENY_READ], ResourcePattern(topic, name, pattern))
    add(authz, [ALLOW_READ], PREFIXED_FOO)
    assert authorize(authz, "READ") is ALLOWED


def test_single_character_resource_acls(authz):
    """AuthorizerTest.testSingleCharacterResourceAcls (KAFKA-7702 regression): literal
    ``f`` matches only ``f``; PREFIXED ``_`` matches ``_foo`` and ``_`` but not ``foo_``."""
    topic = ResourceType.TOPIC
    add(authz, [ALLOW_READ], ResourcePattern(topic, "f"))
    assert authorize(authz, "READ", ResourcePattern(topic, "f")) is ALLOWED
    assert authorize(authz, "READ", ResourcePattern(topic, "foo")) is DENIED
    add(authz, [ALLOW_READ], ResourcePattern(topic, "_", PatternType.PREFIXED))
    assert authorize(authz, "READ", ResourcePattern(topic, "_foo")) is ALLOWED
    assert authorize(authz, "READ", ResourcePattern(topic, "_")) is ALLOWED
    assert authorize(authz, "READ", ResourcePattern(topic, "foo_")) is DENIED


def test_get_acls_principal(authz):
    """AuthorizerTest.testGetAclsPrincipal: listing by principal is exact - an ACL for
    alice is not listed for ``User:*`` and vice versa."""
    add(authz, [ace(ALICE, "*", "WRITE", "ALLOW")])
    assert len(principal_acls(authz, "User:*")) == 0
    assert len(principal_acls(authz, ALICE)) == 1
    remove(authz, [])
    add(authz, [ace("User:*", "*", "WRITE", "ALLOW")])
    assert len(principal_acls(authz, "User:*")) == 1
    assert len(principal_acls(authz, ALICE)) == 0


def test_acls_filter(authz, upstream_mode):
    """AuthorizerTest.testAclsFilter: ANY, exact-pattern and MATCH filters; then a
    four-filter delete.  An ACL matched by two filters is reported under the first one
    only by AclAuthorizer (zk), under each matching filter by StandardAuthorizer."""
    resource1 = ResourcePattern(ResourceType.TOPIC, "foo-7a1b2c3d")
    resource2 = ResourcePattern(ResourceType.TOPIC, "bar-8b2c3d4e")
    prefixed = ResourcePattern(ResourceType.TOPIC, "bar-", PatternType.PREFIXED)
    acl1 = AclBinding(resource1, ace(ALICE, "*", "READ", "ALLOW"))
    acl2 = AclBinding(resource1, ace(ALICE, "192.168.0.1", "WRITE", "ALLOW"))
    acl3 = AclBinding(resource2, ace(ALICE, "*", "DESCRIBE", "ALLOW"))
    acl4 = AclBinding(prefixed, ace("User:*", "*", "READ", "ALLOW"))
    assert all(r.error is None for r in authz.create_acls([acl1, acl2, acl3, acl4]))

    def on(resource):
        return AclBindingFilter(ResourcePatternFilter(
            resource.resource_type, resource.name, resource.pattern_type))

    assert set(authz.acls(AclBindingFilter())) == {acl1, acl2, acl3, acl4}
    assert set(authz.acls(on(resource1))) == {acl1, acl2}
    assert set(authz.acls(on(prefixed))) == {acl4}
    matching = AclBindingFilter(ResourcePatternFilter(ResourceType.ANY, resource2.name, PatternType.MATCH))
    assert set(authz.acls(matching)) == {acl3, acl4}

    filters = [
        matching,
        AclBindingFilter.for_binding(acl1),
        on(resource2),
        AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, "baz", PatternType.ANY)),
    ]
    outcome = authz.delete_acls(filters)
    assert [r.error for r in outcome] == [None] * len(filters)
    deleted = [set(r.deleted) for r in outcome]
    standard = default_variant(upstream_mode) is ByTypeVariant.INTERFACE_DEFAULT
    assert deleted == [{acl3, acl4}, {acl1}, {acl3} if standard else set(), set()]
    assert set(authz.acls()) == {acl2}


@pytest.mark.parametrize("pattern", [None, PatternType.ANY, PatternType.MATCH])
@pytest.mark.parametrize("resource", [RESOURCE, ResourcePattern(ResourceType.TOPIC, "bar-", PatternType.PREFIXED),
                                      WILDCARD_TOPIC], ids=["literal", "prefixed", "wildcard"])
def test_create_delete_timing_filters(authz, resource, pattern):
    """AuthorizerTest.testCreateDeleteTiming (the filter part; propagation timing is ZK
    plumbing): a delete filter naming the resource with its own pattern type, ANY, or
    MATCH removes the just-created ACL."""
    entry = ace(ALICE, "*", "READ", "ALLOW")
    add(authz, [entry], resource)
    delete_filter = AclBindingFilter(ResourcePatternFilter(
        resource.resource_type, resource.name, pattern or resource.pattern_type))
    [result] = authz.delete_acls([delete_filter])
    assert result.deleted == (AclBinding(resource, entry),)
    assert authz.acls() == []


@pytest.mark.parametrize("op", ["READ", "WRITE"])
def test_authorize_by_resource_type_no_acl_found_override(upstream_mode, op):
    """AuthorizerTest.testAuthorizeByResourceTypeNoAclFoundOverride: flag on, no ACLs:
    READ and WRITE on some topic are ALLOWED (each flavour with its own by-type code)."""
    authz = new_authorizer(upstream_mode, **{"allow.everyone.if.no.acl.found": "true"})
    context = RequestContext(KafkaPrincipal("User", "alice"), ALICE_HOST)
    assert authz.authorize_by_resource_type(context, AclOperation[op], ResourceType.TOPIC).result is ALLOWED
