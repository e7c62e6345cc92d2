"""``authorizeByResourceType`` (KIP-679): the three variants of the reference.

Facts: ``docs/spec/authorization.md`` §3 - the interface default (§3.1, what StandardAuthorizer ships),
the AclAuthorizer override (§3.2), their differences from the contract (§3.3),
every row of the worked example table (§3.4), and the nine ``BaseAuthorizerTest``
methods (§6.3), run as upstream did: against AclAuthorizer's override (``zk``), the
interface default wrapped around an AclAuthorizer (``AuthorizerInterfaceDefaultTest``,
2.8-3.9) and the StandardAuthorizer (``AuthorizerTest`` at HEAD).
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    PROBE_NAME,
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AclValueError,
    Action,
    AddAcl,
    AuthorizationResult,
    AuthorizerConfig,
    ByTypeVariant,
    PatternType,
    ReferenceAuthorizer,
    RequestContext,
    ResourcePattern,
    ResourceType,
    Rule,
    parse_principal,
    profile_for,
)

ALLOWED, DENIED, ERROR = (
    AuthorizationResult.ALLOWED,
    AuthorizationResult.DENIED,
    AuthorizationResult.ERROR,
)
D, A, T = ByTypeVariant.INTERFACE_DEFAULT, ByTypeVariant.ACL_AUTHORIZER, ByTypeVariant.GROUND_TRUTH
STANDARD = profile_for()
ACL = profile_for("3.9.0", "acl")


# -- §3.4 worked examples ------------------------------------------------------------------
# Caller User:alice from 10.0.0.1, query (WRITE, TOPIC).  ACLs are for User:alice on any
# host with operation WRITE unless a row says otherwise.


def acl(perm, pattern, name, *, principal="User:alice", op="WRITE", host="*", rtype="TOPIC"):
    return AclBinding.of(perm, principal, op, rtype, name, "LITERAL" if pattern == "LIT" else "PREFIXED",
                         host=host)


# (row, acls, super users, allow.everyone, query op, D, A, T)
ROWS = [
    (1, [acl("ALLOW", "LIT", "foo"), acl("DENY", "PRE", "fo")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (2, [acl("ALLOW", "PRE", "foo"), acl("DENY", "LIT", "foo")], (), False, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (3, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "foo")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (4, [acl("ALLOW", "PRE", "foo"), acl("DENY", "PRE", "foo")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (5, [acl("ALLOW", "PRE", "foo"), acl("DENY", "PRE", "foobar")], (), False, "WRITE",
     ALLOWED, ALLOWED, ALLOWED),
    (6, [acl("ALLOW", "PRE", "fo"), acl("DENY", "PRE", "f")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (7, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "*")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (8, [acl("ALLOW", "LIT", "*"), acl("DENY", "PRE", "f")], (), False, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (9, [acl("ALLOW", "LIT", "*"), acl("DENY", "LIT", "*")], (), False, "WRITE", DENIED, DENIED, DENIED),
    (10, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "foo", host="10.9.9.9")], (), False, "WRITE",
     ALLOWED, ALLOWED, ALLOWED),
    (11, [acl("DENY", "LIT", "*", principal="User:*", op="ALL")], ("User:alice",), False, "WRITE",
     ALLOWED, ALLOWED, ALLOWED),
    (12, [], (), True, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (13, [acl("DENY", "LIT", "foo")], (), True, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (14, [acl("ALLOW", "LIT", "*", principal="User:bob", op="READ")], (), True, "WRITE",
     DENIED, ALLOWED, DENIED),
    (15, [acl("DENY", "PRE", "h")], (), True, "WRITE", DENIED, ALLOWED, ALLOWED),
    (16, [acl("ALLOW", "LIT", "*", op="READ")], (), False, "DESCRIBE", ALLOWED, DENIED, ALLOWED),
    (17, [acl("ALLOW", "LIT", "foo", op="ALL")], (), False, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (18, [acl("ALLOW", "LIT", "foo", principal="User:*")], (), False, "WRITE", ALLOWED, ALLOWED, ALLOWED),
    (19, [acl("ALLOW", "LIT", "foo"), acl("DENY", "PRE", "foo", op="READ")], (), False, "WRITE",
     ALLOWED, ALLOWED, ALLOWED),
    (20, [acl("ALLOW", "LIT", "foo", rtype="GROUP")], (), False, "WRITE", DENIED, DENIED, DENIED),
]
PROBE_ROWS = {8, 13, 16}
"""Rows whose D answer is marked "(probe)": the ``hardcode`` probe decides them."""


def _case_ids():
    for row, *_ in ROWS:
        yield f"row{row}"


@pytest.mark.parametrize(
    ("variant", "profile"),
    [(D, STANDARD), (D, ACL), (A, ACL), (T, STANDARD)],
    ids=["D-standard", "D-over-acl", "A", "T"],
)
@pytest.mark.parametrize(("row", "acls", "supers", "flag", "op", "d", "a", "t"), ROWS, ids=list(_case_ids()))
def test_worked_example(build, by_type, variant, profile, row, acls, supers, flag, op, d, a, t):
    """§3.4: each row's D (interface default), A (AclAuthorizer) and T (ground
    truth) column.  D is checked both on the StandardAuthorizer and wrapped around an
    AclAuthorizer (as AuthorizerInterfaceDefaultTest did): the rows do not depend on it."""
    authz = build(profile, acls, super_users=supers, allow_everyone=flag)
    expected = {D: d, A: a, T: t}[variant]
    assert by_type(authz, "User:alice", op, "TOPIC", host="10.0.0.1", variant=variant) is expected


@pytest.mark.parametrize("row", sorted(PROBE_ROWS))
def test_worked_example_probe_rows(build, row):
    """§3.4 rows 8, 13, 16: D's ALLOWED comes from the probe on ``hardcode``."""
    _, acls, supers, flag, op, *_ = next(r for r in ROWS if r[0] == row)
    authz = build(STANDARD, acls, super_users=supers, allow_everyone=flag)
    context = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    decision = authz.authorize_by_resource_type(context, AclOperation[op], ResourceType.TOPIC, D)
    assert decision.rule is Rule.BY_TYPE_PROBE


@pytest.mark.parametrize("row", [2, 5, 8, 12, 13, 16, 17, 18, 19])
def test_ground_truth_witness_is_really_allowed(build, check, row):
    """§3.4 rows with T = ALLOWED (e.g. "foo1" for row 2, "foox" for row 5): the
    witness T reports is a real, non-empty name that authorize() allows."""
    _, acls, supers, flag, op, *_ = next(r for r in ROWS if r[0] == row)
    authz = build(STANDARD, acls, super_users=supers, allow_everyone=flag)
    context = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    decision = authz.authorize_by_resource_type(context, AclOperation[op], ResourceType.TOPIC, T)
    assert decision.rule is Rule.BY_TYPE_WITNESS and decision.witness
    assert check(authz, "User:alice", op, "TOPIC", decision.witness, host="10.0.0.1") is ALLOWED


# -- §6.3 BaseAuthorizerTest ---------------------------------------------------------------

U1, U2 = "User:user1", "User:user2"
H1, H2 = "192.168.1.1", "192.168.1.2"
BASE_MODES = pytest.mark.parametrize(
    ("profile", "variant"),
    [(ACL, A), (ACL, D), (STANDARD, D)],
    ids=["zk-acl-authorizer", "zk-interface-default", "kraft-latest"],
)


class Base:
    """One BaseAuthorizerTest fixture: an authorizer plus upstream's add/remove helpers."""

    def __init__(self, profile, variant):
        self.authz = ReferenceAuthorizer(profile, by_type_variant=variant)
        self.authz.configure({"super.users": "User:superuser1; User:superuser2"})
        self.authz.complete_initial_load()

    def add(self, entries, rtype, name, pattern="LITERAL"):
        resource = ResourcePattern(ResourceType[rtype], name, PatternType[pattern])
        for result in self.authz.create_acls([AclBinding(resource, e) for e in entries]):
            assert result.error is None, result.error

    def remove(self, entries, rtype, name, pattern="LITERAL"):
        resource = ResourcePattern(ResourceType[rtype], name, PatternType[pattern])
        self.authz.delete_acls([AclBindingFilter.for_binding(AclBinding(resource, e)) for e in entries])

    def allowed(self, principal, host, op, rtype):
        context = RequestContext(parse_principal(principal), host)
        result = self.authz.authorize_by_resource_type(context, AclOperation[op], ResourceType[rtype])
        assert result.result is not ERROR, result
        return result.result is ALLOWED


def ace(principal, host, op, perm):
    return AccessControlEntry(principal, host, AclOperation[op], AclPermissionType[perm])


@BASE_MODES
def test_multiple_add_and_remove(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeMultipleAddAndRemove: repeatedly
    adding and removing an ALLOW and a DENY READ on one topic flips the answer every
    time (no stale index)."""
    base = Base(profile, variant)
    deny, allow = ace(U1, H1, "READ", "DENY"), ace(U1, H1, "READ", "ALLOW")
    topic = "sb1-0c9e7f2a"
    for _ in range(10):
        assert not base.allowed(U1, H1, "READ", "TOPIC")
        base.add([allow], "TOPIC", topic)
        assert base.allowed(U1, H1, "READ", "TOPIC")
        for _ in range(10):
            base.add([deny], "TOPIC", topic)
            assert not base.allowed(U1, H1, "READ", "TOPIC")
            base.remove([deny], "TOPIC", topic)
            base.add([allow], "TOPIC", topic)
            assert base.allowed(U1, H1, "READ", "TOPIC")
        base.remove([allow], "TOPIC", topic)
        assert not base.allowed(U1, H1, "READ", "TOPIC")


@BASE_MODES
def test_isolation_unrelated_deny_wont_dominate_allow(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeIsolationUnrelatedDenyWontDominateAllow:
    denies for other users, hosts, operations or resources do not block user1's ALLOW
    READ from host2; the other resource types stay DENIED."""
    base = Base(profile, variant)
    base.add([ace(U1, H1, "READ", "DENY"), ace(U2, H1, "READ", "DENY"), ace(U1, H2, "WRITE", "DENY"),
              ace(U2, H2, "READ", "DENY"), ace(U1, H2, "READ", "ALLOW")], "TOPIC", "sb1-5d1e")
    base.add([ace(U1, H2, "READ", "DENY")], "TOPIC", "sb2-6e2f")
    base.add([ace(U1, H2, "READ", "DENY")], "GROUP", "s", "PREFIXED")
    for rtype in ("TOPIC", "GROUP", "TRANSACTIONAL_ID", "CLUSTER"):
        assert not base.allowed(U1, H1, "READ", rtype)
    assert base.allowed(U1, H2, "READ", "TOPIC")


@BASE_MODES
def test_deny_takes_precedence(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeDenyTakesPrecedence: a same-name
    literal DENY cancels the only literal ALLOW."""
    base = Base(profile, variant)
    base.add([ace(U1, H1, "WRITE", "ALLOW")], "TOPIC", "sb1-7f3a")
    assert base.allowed(U1, H1, "WRITE", "TOPIC")
    base.add([ace(U1, H1, "WRITE", "DENY")], "TOPIC", "sb1-7f3a")
    assert not base.allowed(U1, H1, "WRITE", "TOPIC")


@BASE_MODES
def test_prefixed_resource_deny_dominate(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypePrefixedResourceDenyDominate, which
    is also §3.4 row 21 (GROUP, READ): allow abcde -> ALLOWED; + deny abcd ->
    DENIED; + allow abc -> ALLOWED; + deny a -> DENIED; + allow ab -> still DENIED."""
    base = Base(profile, variant)
    allow, deny = ace(U1, H1, "READ", "ALLOW"), ace(U1, H1, "READ", "DENY")
    steps = [(allow, "abcde", True), (deny, "abcd", False), (allow, "abc", True),
             (deny, "a", False), (allow, "ab", False)]
    for entry, prefix, expected in steps:
        base.add([entry], "GROUP", prefix, "PREFIXED")
        assert base.allowed(U1, H1, "READ", "GROUP") is expected, prefix


@BASE_MODES
def test_wildcard_resource_deny_dominate(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeWildcardResourceDenyDominate: once a
    literal ``*`` DENY applies, no prefixed, wildcard or literal ALLOW helps."""
    base = Base(profile, variant)
    allow, deny = ace(U1, H1, "WRITE", "ALLOW"), ace(U1, H1, "WRITE", "DENY")
    base.add([allow], "GROUP", "hello", "PREFIXED")
    assert base.allowed(U1, H1, "WRITE", "GROUP")
    base.add([deny], "GROUP", "*")
    assert not base.allowed(U1, H1, "WRITE", "GROUP")
    base.add([allow], "GROUP", "*")
    assert not base.allowed(U1, H1, "WRITE", "GROUP")
    base.add([allow], "GROUP", "aloha")
    assert not base.allowed(U1, H1, "WRITE", "GROUP")


@BASE_MODES
def test_with_all_operation_ace(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeWithAllOperationAce: ALLOW ALL grants
    a READ query despite a DENY WRITE; adding DENY ALL takes it away."""
    base = Base(profile, variant)
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "WRITE", "DENY"), ace(U1, H1, "ALL", "ALLOW")], "TOPIC", "sb1-8a4b")
    assert base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "ALL", "DENY")], "TOPIC", "sb1-8a4b")
    assert not base.allowed(U1, H1, "READ", "TOPIC")


@BASE_MODES
def test_with_all_host_ace(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeWithAllHostAce: a DENY for every
    host beats a host-specific ALLOW on the same topic; an ALLOW for every host admits
    host2 until an every-host DENY arrives on that topic too."""
    base = Base(profile, variant)
    t1, t2 = "sb1-9b5c", "sb2-0c6d"
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "READ", "ALLOW")], "TOPIC", t1)
    assert base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, "*", "READ", "DENY")], "TOPIC", t1)
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "READ", "DENY")], "TOPIC", t2)
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    assert not base.allowed(U1, H2, "READ", "TOPIC")
    base.add([ace(U1, "*", "READ", "ALLOW")], "TOPIC", t2)
    assert base.allowed(U1, H2, "READ", "TOPIC")
    base.add([ace(U1, "*", "READ", "DENY")], "TOPIC", t2)
    assert not base.allowed(U1, H2, "READ", "TOPIC")


@BASE_MODES
def test_with_all_principal_ace(profile, variant):
    """BaseAuthorizerTest.testAuthorizeByResourceTypeWithAllPrincipalAce: the same
    interplay with ``User:*`` instead of the every-host entry."""
    base = Base(profile, variant)
    t1, t2 = "sb1-1d7e", "sb2-2e8f"
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "READ", "ALLOW")], "TOPIC", t1)
    assert base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace("User:*", H1, "READ", "DENY")], "TOPIC", t1)
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    base.add([ace(U1, H1, "READ", "DENY")], "TOPIC", t2)
    assert not base.allowed(U1, H1, "READ", "TOPIC")
    assert not base.allowed(U2, H1, "READ", "TOPIC")
    base.add([ace("User:*", H1, "READ", "ALLOW")], "TOPIC", t2)
    assert base.allowed(U2, H1, "READ", "TOPIC")
    base.add([ace("User:*", H1, "READ", "DENY")], "TOPIC", t2)
    assert not base.allowed(U2, H1, "READ", "TOPIC")


@BASE_MODES
def test_super_user_has_access(profile, variant):
    """BaseAuthorizerTest.testAuthorzeByResourceTypeSuperUserHasAccess (sic): a super
    user is ALLOWED on TOPIC, CLUSTER, GROUP and TRANSACTIONAL_ID despite ``User:*``
    DENY ALL on each wildcard.  Upstream creates the CLUSTER ``*`` ACL through
    Authorizer.createAcls, which lacks the broker's kafka-cluster check: a record here."""
    base = Base(profile, variant)
    deny_all = ace("User:*", "*", "ALL", "DENY")
    for index, rtype in enumerate(("TOPIC", "CLUSTER", "GROUP", "TRANSACTIONAL_ID")):
        base.authz.apply(AddAcl(f"wild-{index}", AclBinding(ResourcePattern(ResourceType[rtype], "*"), deny_all)))
    for rtype in ("TOPIC", "CLUSTER", "GROUP", "TRANSACTIONAL_ID"):
        assert base.allowed("User:superuser1", "192.0.4.4", "READ", rtype)


# -- argument checks, readiness, versions --------------------------------------------------


@pytest.mark.parametrize("variant", [D, A, T])
@pytest.mark.parametrize(
    ("op", "rtype"),
    [("READ", "ANY"), ("READ", "UNKNOWN"), ("ANY", "TOPIC"), ("UNKNOWN", "TOPIC")],
)
def test_filter_only_and_unknown_arguments_are_rejected(build, by_type, variant, op, rtype):
    """``authorizeByResourceTypeCheckArgs``: ANY/UNKNOWN type or operation ->
    IllegalArgumentException (§3)."""
    authz = build(STANDARD, super_users=["User:alice"])
    context = RequestContext(parse_principal("User:alice"))
    decision = authz.authorize_by_resource_type(
        context, AclOperation[op], ResourceType[rtype], variant
    )
    assert decision.result is ERROR and decision.error == "invalid-argument"


@pytest.mark.parametrize("variant", [D, A, T])
def test_operation_all_is_accepted(build, by_type, variant):
    """Op ALL is a valid query meaning "has an ALL ACL somewhere" (§3)."""
    authz = build(STANDARD, [acl("ALLOW", "LIT", "foo", op="ALL")])
    assert by_type(authz, "User:alice", "ALL", "TOPIC", variant=variant) is ALLOWED
    authz = build(STANDARD, [acl("ALLOW", "LIT", "foo", op="WRITE")])
    assert by_type(authz, "User:alice", "ALL", "TOPIC", variant=variant) is DENIED


def test_default_before_initial_load(build, by_type):
    """§3.1 step 2: before the initial load the probe throws AuthorizerNotReadyException
    for non-super-users; super users pass through the probe."""
    authz = build(STANDARD, [acl("ALLOW", "LIT", "foo")], super_users=["User:root"], loaded=False)
    context = RequestContext(parse_principal("User:alice"))
    decision = authz.authorize_by_resource_type(context, AclOperation.WRITE, ResourceType.TOPIC, D)
    assert decision.result is ERROR and decision.error == "not-ready"
    assert by_type(authz, "User:root", "WRITE", "TOPIC", variant=D) is ALLOWED


def test_probe_name_is_hardcode():
    assert PROBE_NAME == "hardcode"


@pytest.mark.parametrize(
    ("acls", "expected"),
    [
        ([acl("DENY", "LIT", "other", principal="User:bob")], ALLOWED),
        ([acl("DENY", "LIT", "hardcode", principal="User:bob")], DENIED),
        ([acl("DENY", "PRE", "hard", principal="User:bob", op="READ")], DENIED),
    ],
    ids=["unrelated", "literal-hardcode", "prefix-of-hardcode"],
)
def test_default_probe_depends_on_the_name_hardcode(build, by_type, acls, expected):
    """§3.3: with allow.everyone on, ACLs of anyone on a topic literally
    named ``hardcode`` (or a prefix of it) change the interface default's answer."""
    authz = build(STANDARD, acls, allow_everyone=True)
    assert by_type(authz, "User:alice", "WRITE", "TOPIC", variant=D) is expected


def test_default_probe_uses_implication_but_scan_does_not(build, by_type):
    """§3.3: the probe honours implication (ALLOW READ on a prefix of ``hardcode``
    grants a DESCRIBE query); a READ ACL elsewhere does not."""
    probe = build(STANDARD, [acl("ALLOW", "PRE", "hard", op="READ")])
    assert by_type(probe, "User:alice", "DESCRIBE", "TOPIC", variant=D) is ALLOWED
    scan = build(STANDARD, [acl("ALLOW", "PRE", "soft", op="READ")])
    assert by_type(scan, "User:alice", "DESCRIBE", "TOPIC", variant=D) is DENIED
    assert by_type(scan, "User:alice", "DESCRIBE", "TOPIC", variant=T) is ALLOWED


def test_empty_name_deny_prefix_never_dominates(build, by_type):
    """§3.3: neither approximation checks domination by an empty-name DENY prefix
    (unreachable through the API); on the StandardAuthorizer PREFIXED "" matches every
    name, so the truth is DENIED while both approximations say ALLOWED."""
    authz = build(STANDARD, [acl("ALLOW", "LIT", "foo"), acl("DENY", "PRE", "")])
    assert by_type(authz, "User:alice", "WRITE", "TOPIC", variant=D) is ALLOWED
    assert by_type(authz, "User:alice", "WRITE", "TOPIC", variant=A) is ALLOWED
    assert by_type(authz, "User:alice", "WRITE", "TOPIC", variant=T) is DENIED


@pytest.mark.parametrize(("version", "present"), [("2.7.0", False), ("2.8.0", True)])
def test_by_type_arrives_in_2_8(version, present):
    """KIP-679 (§3, §7): ``authorizeByResourceType`` exists from 2.8.0."""
    authz = ReferenceAuthorizer(profile_for(version, "acl"), AuthorizerConfig.of(["User:alice"]))
    context = RequestContext(parse_principal("User:alice"))
    if present:
        assert authz.authorize_by_resource_type(context, AclOperation.WRITE, ResourceType.TOPIC).allowed
    else:
        with pytest.raises(AclValueError):
            authz.authorize_by_resource_type(context, AclOperation.WRITE, ResourceType.TOPIC)


def test_variant_names_parse():
    assert [ByTypeVariant.parse(s) for s in ("default", " ACL ", "truth")] == [D, A, T]
    with pytest.raises(AclValueError):
        ByTypeVariant.parse("standard")


def test_ground_truth_ignores_the_probe_name(build, check):
    """T is the contract: "some resource of the type is allowed", nothing about
    ``hardcode``.  With the flag on and only the name ``hardcode`` covered by a foreign
    ACL, every other name is still open."""
    authz = build(STANDARD, [acl("DENY", "LIT", "hardcode", principal="User:bob")], allow_everyone=True)
    context = RequestContext(parse_principal("User:alice"))
    decision = authz.authorize_by_resource_type(context, AclOperation.WRITE, ResourceType.TOPIC, T)
    assert decision.allowed and decision.witness != "hardcode"
    assert authz.authorize(context, [Action(AclOperation.WRITE, ResourcePattern(
        ResourceType.TOPIC, decision.witness))])[0].allowed
