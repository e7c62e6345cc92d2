"""Where Kafka's authorizer semantics changed between releases (``docs/spec/authorization.md`` §7).

Each ticket is checked on both sides of its fix, on the flavour it concerns and,
where it matters, on the other flavour as a control.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    AclBinding,
    AclValueError,
    AuthorizationResult,
    KafkaVersion,
    PatternType,
    Rule,
    profile_for,
)

ALLOWED, DENIED, ERROR = (
    AuthorizationResult.ALLOWED,
    AuthorizationResult.DENIED,
    AuthorizationResult.ERROR,
)


def std(version):
    return profile_for(version, "standard")


def zk(version):
    return profile_for(version, "acl")


# -- KAFKA-14435: allow.everyone applied when no ACL *applied* (StandardAuthorizer 3.2.0-3.3.1) ---


@pytest.mark.parametrize(
    ("profile", "buggy"),
    [
        (std("3.2.0"), True), (std("3.2.3"), True), (std("3.3.0"), True), (std("3.3.1"), True),
        (std("3.3.2"), False), (std("3.4.0"), False), (std("3.9.0"), False), (profile_for(), False),
        (zk("3.2.0"), False), (zk("3.3.1"), False),
    ],
    ids=str,
)
def test_kafka_14435_default_when_no_acl_applied(build, decide_one, profile, buggy):
    """StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigEnabled across versions:
    with the flag on and an ACL for someone else on topic1, the fixed authorizers DENY
    Bob (topic1 has ACLs); 3.2.0-3.3.1 let the default decide and ALLOW him."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:Alice", "READ", "TOPIC", "topic1")],
                  allow_everyone=True)
    decision = decide_one(authz, "User:Bob", "READ", "TOPIC", "topic1")
    if buggy:
        assert decision.result is ALLOWED and decision.rule is Rule.NO_ACL_APPLIED_DEFAULT
    else:
        assert decision.result is DENIED and decision.rule is Rule.NO_ACL_APPLIED
    assert decide_one(authz, "User:Bob", "READ", "TOPIC", "topic2").result is ALLOWED


@pytest.mark.parametrize("profile", [std("3.2.0"), std("3.3.1")], ids=str)
def test_kafka_14435_bug_needs_the_flag(build, check, profile):
    """With the flag off the buggy default is DENIED, so nothing changes."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:Alice", "READ", "TOPIC", "topic1")])
    assert check(authz, "User:Bob", "READ", "TOPIC", "topic1") is DENIED


@pytest.mark.parametrize("profile", [std("3.2.0"), std("3.3.1")], ids=str)
def test_kafka_14435_applying_deny_still_wins(build, check, profile):
    """The bug only concerned the case where no ACL applies; a DENY that applies wins."""
    authz = build(profile, [AclBinding.of("DENY", "User:Bob", "READ", "TOPIC", "topic1")],
                  allow_everyone=True)
    assert check(authz, "User:Bob", "READ", "TOPIC", "topic1") is DENIED


# -- KAFKA-14265: prefix shadowing (StandardAuthorizer 3.2.0-3.3.0) --------------------------------

PREFIX_ACLS = [
    AclBinding.of("ALLOW", "User:alice", "ALL", "TOPIC", "fooa", "PREFIXED"),
    AclBinding.of("ALLOW", "User:bob", "ALL", "TOPIC", "foobar"),
    AclBinding.of("ALLOW", "User:bob", "ALL", "TOPIC", "f", "PREFIXED"),
]


@pytest.mark.parametrize(
    ("profile", "buggy"),
    [
        (std("3.2.0"), True), (std("3.2.3"), True), (std("3.3.0"), True),
        (std("3.3.1"), False), (std("3.3.2"), False), (std("3.4.0"), False), (profile_for(), False),
        (zk("3.3.0"), False),
    ],
    ids=str,
)
def test_kafka_14265_prefix_acls(build, check, profile, buggy):
    """StandardAuthorizerTest.testPrefixAcls across versions: walking down from
    ``foobarr``, the buggy lookup stops at ``fooa`` (not a prefix) and never sees the
    PREFIXED ``f`` ACL, so bob is DENIED WRITE on foobarr."""
    authz = build(profile, PREFIX_ACLS)
    assert check(authz, "User:bob", "WRITE", "TOPIC", "foobarr") is (DENIED if buggy else ALLOWED)
    # The assertions of testPrefixAcls that do not reach past a non-prefix entry hold everywhere.
    assert check(authz, "User:bob", "READ", "TOPIC", "goobar") is DENIED
    assert check(authz, "User:bob", "READ", "TOPIC", "fooa") is ALLOWED
    assert check(authz, "User:alice", "DESCRIBE", "TOPIC", "fooa") is ALLOWED


@pytest.mark.parametrize("profile", [std("3.2.0"), std("3.3.0")], ids=str)
def test_kafka_14265_literal_wildcard_is_still_consulted(build, check, profile):
    """The literal ``*`` entries were looked up separately, so the bug never hid them."""
    authz = build(profile, [*PREFIX_ACLS, AclBinding.of("DENY", "User:bob", "WRITE", "TOPIC", "*")])
    assert check(authz, "User:bob", "WRITE", "TOPIC", "foobarr") is DENIED


# -- KAFKA-14733: non-literal actions ---------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "rejects"),
    [
        (std("3.2.0"), False), (std("3.4.0"), False),
        (std("3.4.1"), True), (std("3.5.0"), True), (profile_for(), True),
        (zk("2.0.0"), True), (zk("3.4.0"), True),
    ],
    ids=str,
)
@pytest.mark.parametrize("principal", ["User:alice", "User:root"], ids=["user", "super-user"])
def test_kafka_14733_non_literal_actions(build, decide_one, profile, rejects, principal):
    """A PREFIXED action raises IllegalArgumentException - even for super users - in
    AclAuthorizer and in StandardAuthorizer from 3.4.1/3.5.0; before that the
    StandardAuthorizer matched the name as if it were literal (§2.1 step 1, §2.2)."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")],
                  super_users=["User:root"])
    decision = decide_one(authz, principal, "READ", "TOPIC", "foo", pattern=PatternType.PREFIXED)
    if rejects:
        assert decision.result is ERROR and decision.error == "invalid-argument"
    else:
        assert decision.result is ALLOWED


@pytest.mark.parametrize("profile", [std("3.2.0"), std("3.4.0")], ids=str)
def test_kafka_14733_before_the_fix_the_name_is_literal(build, check, profile):
    """Before the fix a PREFIXED action ``fo`` did not match the literal ``foo`` ACL."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")])
    assert check(authz, "User:alice", "READ", "TOPIC", "fo", pattern=PatternType.PREFIXED) is DENIED


@pytest.mark.parametrize("profile", [std("3.5.0"), zk("3.9.0")], ids=str)
def test_unknown_pattern_action_is_rejected(build, decide_one, profile):
    authz = build(profile)
    decision = decide_one(authz, "User:alice", "READ", "TOPIC", "foo", pattern=PatternType.UNKNOWN)
    assert decision.result is ERROR and decision.error == "invalid-argument"


# -- KAFKA-14962: trimming of allow.everyone (3.6.0) -------------------------------------------------


@pytest.mark.parametrize(("version", "expected"), [("3.5.2", DENIED), ("3.6.0", ALLOWED)])
def test_kafka_14962_padded_flag(build, check, version, expected):
    """AuthorizerTest.testAclConfigWithWhitespace appeared with the fix: before 3.6.0 the
    StandardAuthorizer read " true" as false, so a resource without ACLs was DENIED."""
    authz = build(std(version))
    authz.configure({"allow.everyone.if.no.acl.found": " true "})
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is expected


# -- KAFKA-7702: single-character prefixes (2.0.x-2.1.0) ----------------------------------------------


@pytest.mark.parametrize(
    ("version", "buggy"),
    [("2.0.0", True), ("2.0.1", True), ("2.1.0", True), ("2.1.1", False), ("2.2.0", False),
     ("3.9.0", False)],
)
def test_kafka_7702_single_character_prefix(build, check, version, buggy):
    """AuthorizerTest.testSingleCharacterResourceAcls across versions.  Before the fix
    the prefixed lookup ranged from the name down to, but excluding, its first
    character (``aclCache.range``; PR #5994 switched to an inclusive ``to``), so a
    one-character PREFIXED ACL was never found - not for ``_foo``, not even for ``_``."""
    authz = build(zk(version), [
        AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "f"),
        AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "_", "PREFIXED"),
    ])
    assert check(authz, "User:alice", "READ", "TOPIC", "f") is ALLOWED
    assert check(authz, "User:alice", "READ", "TOPIC", "foo") is DENIED
    assert check(authz, "User:alice", "READ", "TOPIC", "_foo") is (DENIED if buggy else ALLOWED)
    assert check(authz, "User:alice", "READ", "TOPIC", "_") is (DENIED if buggy else ALLOWED)
    assert check(authz, "User:alice", "READ", "TOPIC", "foo_") is DENIED


def test_kafka_7702_longer_prefixes_were_fine(build, check):
    authz = build(zk("2.0.0"), [AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "fo", "PREFIXED")])
    assert check(authz, "User:alice", "READ", "TOPIC", "foo") is ALLOWED


# -- KAFKA-17759: Set.of principal set (4.0 line) [not checked at a tag] ---------------------------


@pytest.mark.parametrize(("version", "throws"), [("3.9.0", False), ("4.0.0", True), (None, True)])
def test_kafka_17759_session_principal_user_star(build, decide_one, version, throws):
    """§2.3i [not checked at a tag]: from the 4.0 line a session principal that *is* ``User:*``
    makes authorize() throw for non-super-users (duplicate element in Set.of)."""
    profile = profile_for() if version is None else std(version)
    authz = build(profile, [AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "t")])
    decision = decide_one(authz, "User:*", "READ", "TOPIC", "t")
    if throws:
        assert decision.result is ERROR and decision.error == "invalid-argument"
    else:
        assert decision.result is ALLOWED
    supers = build(profile, super_users=["User:*"])
    assert decide_one(supers, "User:*", "READ", "TOPIC", "t").result is ALLOWED


# -- which releases exist -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "flavour"),
    [("3.1.2", "standard"), ("4.0.0", "acl"), ("1.1.0", "acl"), ("3.9", "bogus")],
)
def test_profiles_only_for_shipped_flavours(version, flavour):
    """StandardAuthorizer first shipped in 3.2.0; AclAuthorizer was removed in 4.0
    (KAFKA-17614); PREFIXED ACLs (2.0.0) bound the modelled range."""
    with pytest.raises(AclValueError):
        profile_for(version, flavour)


@pytest.mark.parametrize(
    ("text", "parsed"), [("3.9", KafkaVersion(3, 9, 0)), (" 3.3.2 ", KafkaVersion(3, 3, 2))]
)
def test_version_parsing(text, parsed):
    assert KafkaVersion.parse(text) == parsed
    assert KafkaVersion(3, 3, 2) < KafkaVersion(3, 4, 0) < KafkaVersion(3, 10, 0)


@pytest.mark.parametrize("text", ["3", "3.x", "v3.9.0", "3.9.0.1"])
def test_version_parsing_rejects_garbage(text):
    with pytest.raises(AclValueError):
        KafkaVersion.parse(text)


# -- values a release has no constant for: found by the release campaign on AclAuthorizer 3.2.3 ---


@pytest.mark.parametrize("flavour", ["standard", "acl"])
def test_by_type_with_an_operation_the_release_does_not_know_is_refused(flavour):
    """CREATE_TOKENS arrived in 3.3.0 (KIP-373).  On 3.2.3 its code decodes to UNKNOWN
    (``AclOperation.fromCode``), which ``authorizeByResourceTypeCheckArgs`` refuses;
    from 3.3.0 it is a real operation and gets an answer."""
    from kafka_conformance.reference import AclOperation, RequestContext, ResourceType, parse_principal
    from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer

    ctx = RequestContext(parse_principal("User:alice"), "10.0.0.1")
    answers = {}
    for version in ("3.2.3", "3.3.0"):
        authorizer = ReferenceAuthorizer(profile_for(version, flavour))
        authorizer.configure({})
        authorizer.complete_initial_load()
        answers[version] = authorizer.authorize_by_resource_type(ctx, AclOperation.CREATE_TOKENS, ResourceType.TOPIC)
    assert answers["3.2.3"].result is ERROR and answers["3.2.3"].error == "invalid-argument"
    assert answers["3.3.0"].result is DENIED


# -- StandardAuthorizer skips LITERAL '*' for names that begin with '*' (no ticket; found by the campaign) ---


@pytest.mark.parametrize("version", ["3.2.0", "3.3.0", "3.3.1", "3.9.1", "4.3.0"])
def test_standard_authorizer_skips_the_wildcard_literal_for_names_starting_with_a_star(version):
    """StandardAuthorizerData's walk skips LITERAL ACLs that are only a prefix of the name; '*' is a
    prefix of '*o', so neither the DENY nor the ALLOW on LITERAL '*' is consulted for '*o'.  Real
    3.2.0 to 4.4.0 answer so (tests/jvm/test_kafka_releases.py); AclAuthorizer does not."""
    from kafka_conformance.reference import AclOperation, Action, RequestContext, ResourcePattern, ResourceType, parse_principal
    from kafka_conformance.reference.acl.values import AccessControlEntry, AclPermissionType
    from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer

    def binding(permission, name):
        return AclBinding(ResourcePattern(ResourceType.GROUP, name, PatternType.LITERAL),
                          AccessControlEntry("User:alice", "*", AclOperation.READ, permission))

    def answer(flavour, acls, name):
        authorizer = ReferenceAuthorizer(profile_for(version, flavour))
        authorizer.configure({})
        authorizer.load_snapshot({f"a{i}": b for i, b in enumerate(acls)})
        authorizer.complete_initial_load()
        ctx = RequestContext(parse_principal("User:alice"), "10.0.0.1")
        return authorizer.authorize_one(ctx, Action(AclOperation.READ, ResourcePattern(ResourceType.GROUP, name))).result

    deny_star = [binding(AclPermissionType.DENY, "*"), binding(AclPermissionType.ALLOW, "*o")]
    allow_star = [binding(AclPermissionType.ALLOW, "*")]
    assert answer("standard", deny_star, "*o") is ALLOWED
    assert answer("standard", allow_star, "*o") is DENIED
    assert answer("standard", allow_star, "*") is ALLOWED
    assert answer("standard", allow_star, "o*") is ALLOWED
    if profile_for(version, "standard").version < KafkaVersion(4, 0, 0):
        assert answer("acl", deny_star, "*o") is DENIED
        assert answer("acl", allow_star, "*o") is ALLOWED


@pytest.mark.parametrize(("version", "nearest"), [
    ("9.9.9", "the newest modelled is 4.4.0"), ("3.3.3", "3.3.0, 3.3.1, 3.3.2"), ("3.10.0", "3.9.2 or 4.0.0"),
    ("4.5", "the newest modelled is 4.4.0"),
])
def test_only_real_releases_have_profiles(version, nearest):
    """A release that never shipped has no semantics to hold anyone to: refused, naming the nearest."""
    with pytest.raises(AclValueError, match=nearest):
        profile_for(version, "standard")


def test_every_release_the_kit_runs_for_real_is_modelled():
    from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES

    assert KafkaVersion(4, 4, 0) in APACHE_KAFKA_RELEASES and KafkaVersion(2, 0, 0) == APACHE_KAFKA_RELEASES[0]
    assert list(APACHE_KAFKA_RELEASES) == sorted(APACHE_KAFKA_RELEASES)
