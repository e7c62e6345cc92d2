"""StandardAuthorizer versus AclAuthorizer: the difference list of ``docs/spec/authorization.md`` §2.5.

Configuration parsing differences are in ``test_spec_config.py``, readiness in
``test_spec_lifecycle.py``, the version-bound bugs in ``test_spec_versions.py``.
Inputs outside the normal domain (§2.2) are here too.  Points that document marks
**[derived]** are checked against the reference as it stands.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    Action,
    AddAcl,
    AuthorizationResult,
    ByTypeVariant,
    PatternType,
    RemoveAcl,
    RequestContext,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
    default_variant,
    parse_principal,
    profile_for,
)

ALLOWED, DENIED, ERROR = (
    AuthorizationResult.ALLOWED,
    AuthorizationResult.DENIED,
    AuthorizationResult.ERROR,
)
STANDARD = profile_for("3.9.0", "standard")
LATEST = profile_for()
ACL = profile_for("3.9.0", "acl")
BOTH = pytest.mark.parametrize("profile", [STANDARD, ACL, LATEST], ids=str)


def stored(perm, principal, op, name, pattern=PatternType.LITERAL, rtype=ResourceType.TOPIC, host="*"):
    """A binding as it may sit in a record log, including values the API would refuse."""
    return AclBinding(
        ResourcePattern(rtype, name, pattern),
        AccessControlEntry(principal, host, AclOperation[op], AclPermissionType[perm]),
    )


# -- aclCount ----------------------------------------------------------------------------------


def test_acl_count_is_the_number_of_ids_on_standard(build):
    """§2.3/§5: StandardAuthorizer.aclCount() is the size of its id map."""
    authz = build(STANDARD, [AclBinding.of("ALLOW", "User:a", "READ", "TOPIC", n) for n in "xyz"])
    assert authz.acl_count() == 3
    authz.apply(RemoveAcl("acl-0"))
    assert authz.acl_count() == 2


@pytest.mark.parametrize("version", ["2.4.0", "3.9.0"])
def test_acl_count_is_minus_one_on_acl_authorizer(build, version):
    """§2.4: AclAuthorizer does not override aclCount(); the interface default is -1."""
    authz = build(profile_for(version, "acl"), [AclBinding.of("ALLOW", "User:a", "READ", "TOPIC", "x")])
    assert authz.acl_count() == -1


# -- PREFIXED "" ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "matches_all"), [(STANDARD, True), (LATEST, True), (ACL, False)], ids=str)
def test_empty_prefix(build, check, profile, matches_all):
    """§2.3/§2.4: a PREFIXED "" ACL (records only; the API refuses empty names) matches
    every name on the StandardAuthorizer, only the empty name on AclAuthorizer."""
    authz = build(profile, [stored("ALLOW", "User:alice", "READ", "", PatternType.PREFIXED)])
    assert check(authz, "User:alice", "READ", "TOPIC", "anything") is (ALLOWED if matches_all else DENIED)
    assert check(authz, "User:alice", "READ", "TOPIC", "") is ALLOWED


# -- permissions other than ALLOW/DENY --------------------------------------------------------------


def test_unknown_permission_denies_on_standard(build, check):
    """§2.3e [derived]: an applying ACL whose permission is UNKNOWN counts as a DENY."""
    authz = build(STANDARD, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t"),
                             stored("UNKNOWN", "User:alice", "READ", "t")])
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is DENIED


def test_unknown_permission_uses_the_strict_operation_rule_on_standard(build, check):
    """§2.3e [derived]: like a DENY, it does not imply - UNKNOWN READ does not hit DESCRIBE."""
    authz = build(STANDARD, [AclBinding.of("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "t"),
                             stored("UNKNOWN", "User:alice", "READ", "t")])
    assert check(authz, "User:alice", "DESCRIBE", "TOPIC", "t") is ALLOWED


def test_unknown_permission_is_ignored_on_acl_authorizer(build, check):
    """§2.4: AclAuthorizer never treats it as applying..."""
    authz = build(ACL, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t"),
                        stored("UNKNOWN", "User:alice", "READ", "t")])
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is ALLOWED


@BOTH
def test_unknown_permission_still_makes_the_resource_have_acls(build, check, profile):
    """...but it still makes R non-empty, so allow.everyone no longer applies."""
    authz = build(profile, [stored("UNKNOWN", "User:bob", "READ", "t")], allow_everyone=True)
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is DENIED
    assert check(authz, "User:alice", "READ", "TOPIC", "u") is ALLOWED


# -- malformed stored principals ----------------------------------------------------------------------


@pytest.mark.parametrize("profile", [STANDARD, LATEST], ids=str)
def test_malformed_stored_principal_throws_when_in_r(build, decide_one, profile):
    """§2.3: the StandardAuthorizer parses ACL principals lazily, so an ACL without a colon
    makes authorize() throw whenever it is among the ACLs matching the resource - even
    when its host would not match."""
    authz = build(profile, [stored("ALLOW", "alice", "READ", "t", host="10.9.9.9")])
    decision = decide_one(authz, "User:alice", "READ", "TOPIC", "t")
    assert decision.result is ERROR and decision.error == "illegal-state"
    assert decide_one(authz, "User:alice", "READ", "TOPIC", "other").result is DENIED


def test_malformed_principal_is_rejected_at_creation_on_acl_authorizer(build):
    """§2.4f: AclAuthorizer rejects such an ACL when it is created instead."""
    authz = build(ACL)
    [result] = authz.create_acls([AclBinding.of("ALLOW", "alice", "READ", "TOPIC", "t")])
    assert result.error is not None and authz.acls() == []


# -- stored pattern types that are not LITERAL/PREFIXED ---------------------------------------------


def test_unknown_stored_pattern_acts_as_prefix_on_standard(build, check):
    """§2.3g: the StandardAuthorizer's lookup treats any non-LITERAL pattern
    as a prefix."""
    authz = build(STANDARD, [stored("ALLOW", "User:alice", "READ", "fo", PatternType.UNKNOWN)])
    assert check(authz, "User:alice", "READ", "TOPIC", "foo") is ALLOWED
    assert check(authz, "User:alice", "READ", "TOPIC", "bar") is DENIED


# -- delete attribution ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "every_filter"), [(STANDARD, True), (LATEST, True), (ACL, False)], ids=str)
def test_delete_attribution(build, profile, every_filter):
    """§2.4, AuthorizerTest.testAclsFilter: with several delete filters matching one ACL,
    the StandardAuthorizer reports it under every matching filter, AclAuthorizer under
    the first only.  Either way it is removed once."""
    target = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t")
    authz = build(profile)
    authz.create_acls([target])
    by_name = AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, "t", PatternType.ANY))
    results = authz.delete_acls([AclBindingFilter(), by_name])
    assert results[0].deleted == (target,)
    assert results[1].deleted == ((target,) if every_filter else ())
    assert authz.acls() == []


# -- authorizeByResourceType implementation --------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "variant"),
    [(STANDARD, ByTypeVariant.INTERFACE_DEFAULT), (LATEST, ByTypeVariant.INTERFACE_DEFAULT),
     (ACL, ByTypeVariant.ACL_AUTHORIZER), (profile_for("2.8.0", "acl"), ByTypeVariant.ACL_AUTHORIZER)],
    ids=str,
)
def test_by_type_implementation_per_flavour(profile, variant):
    """§2.5: StandardAuthorizer has no override (interface default); AclAuthorizer ships its own."""
    assert default_variant(profile) is variant


# -- §2.2 inputs outside the normal domain ------------------------------------------------------------------


@BOTH
def test_unknown_resource_type_action_gets_the_default(build, check, profile):
    """§2.2 [derived]: no ACL can have type UNKNOWN, so R is empty and the flag decides."""
    acls = [AclBinding.of("DENY", "User:*", "ALL", "TOPIC", "*")]
    assert check(build(profile, acls), "User:alice", "READ", "UNKNOWN", "x") is DENIED
    assert check(build(profile, acls, allow_everyone=True), "User:alice", "READ", "UNKNOWN", "x") is ALLOWED


@BOTH
@pytest.mark.parametrize("op", ["ANY", "UNKNOWN"])
def test_any_or_unknown_operation_action(build, check, profile, op):
    """§2.2 [derived]: only an ALL ACL applies to an ANY/UNKNOWN action; ALLOW ALL
    grants it, ALLOW READ does not."""
    grant = build(profile, [AclBinding.of("ALLOW", "User:alice", "ALL", "TOPIC", "t")])
    assert check(grant, "User:alice", op, "TOPIC", "t") is ALLOWED
    no_grant = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t")])
    assert check(no_grant, "User:alice", op, "TOPIC", "t") is DENIED


@BOTH
def test_empty_resource_name_sees_only_wildcard_acls(build, check, profile):
    """§2.2, AuthorizerTest.testAuthorizeWithEmptyResourceName: for the name "" only the
    literal ``*`` ACLs are in R (non-empty prefixes and literals cannot match it)."""
    authz = build(profile, [AclBinding.of("DENY", "User:*", "READ", "GROUP", "a", "PREFIXED"),
                            AclBinding.of("ALLOW", "User:*", "READ", "GROUP", "*")])
    assert check(authz, "User:alice", "READ", "GROUP", "") is ALLOWED


@BOTH
def test_resource_literally_named_star(build, check, profile):
    """§2.2: for a resource named ``*``, R is the literal ``*`` ACLs plus the PREFIXED ACLs
    that are prefixes of ``*``; a PREFIXED ``*`` counts, a literal ``x`` does not."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "GROUP", "*", "PREFIXED"),
                            AclBinding.of("DENY", "User:alice", "READ", "GROUP", "x")])
    assert check(authz, "User:alice", "READ", "GROUP", "*") is ALLOWED
    deny = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "GROUP", "*"),
                           AclBinding.of("DENY", "User:alice", "READ", "GROUP", "*", "PREFIXED")])
    assert check(deny, "User:alice", "READ", "GROUP", "*") is DENIED


@BOTH
def test_empty_batch_gives_empty_answer(build, profile):
    """§2.2: an empty action list is answered with an empty list."""
    assert build(profile).authorize(RequestContext(parse_principal("User:alice")), []) == []


@BOTH
def test_batch_answers_each_action_in_order(build, profile):
    authz = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "a")])
    context = RequestContext(parse_principal("User:alice"))
    actions = [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, n)) for n in "aba"]
    assert [d.result for d in authz.authorize(context, actions)] == [ALLOWED, DENIED, ALLOWED]


@BOTH
def test_prefix_equal_to_the_name_matches(build, check, profile):
    """§2.1 step 4, §2.2: PREFIXED matching includes equality and is case-sensitive."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "Foo", "PREFIXED")])
    assert check(authz, "User:alice", "READ", "TOPIC", "Foo") is ALLOWED
    assert check(authz, "User:alice", "READ", "TOPIC", "Foobar") is ALLOWED
    assert check(authz, "User:alice", "READ", "TOPIC", "foobar") is DENIED


@BOTH
def test_deny_wins_regardless_of_specificity(build, check, profile):
    """§2.1 step 7: a wildcard DENY beats a literal ALLOW; a ``User:*`` DENY beats a
    principal-specific ALLOW; there is no "most specific rule"."""
    wildcard = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t"),
                               AclBinding.of("DENY", "User:alice", "READ", "TOPIC", "*")])
    assert check(wildcard, "User:alice", "READ", "TOPIC", "t") is DENIED
    everyone = build(profile, [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t"),
                               AclBinding.of("DENY", "User:*", "READ", "TOPIC", "t")])
    assert check(everyone, "User:alice", "READ", "TOPIC", "t") is DENIED


@BOTH
def test_r_nonempty_but_nothing_applies_is_denied_even_with_the_flag(build, check, profile):
    """§2.1 step 5: the flag applies only when no ACL of any principal, host,
    operation or permission matches the resource by name."""
    authz = build(profile, [AclBinding.of("ALLOW", "User:bob", "WRITE", "TOPIC", "t", host="10.9.9.9")],
                  allow_everyone=True)
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is DENIED


@BOTH
def test_super_users_bypass_even_deny(build, check, profile):
    """§2.1 step 2: no ACL, not even a DENY, is consulted for a super user."""
    authz = build(profile, [AclBinding.of("DENY", "User:root", "ALL", "TOPIC", "t")], super_users=["User:root"])
    assert check(authz, "User:root", "WRITE", "TOPIC", "t") is ALLOWED


@BOTH
def test_acls_added_after_creation_via_records_are_visible(build, check, profile):
    authz = build(profile)
    authz.apply(AddAcl("late", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t")))
    assert check(authz, "User:alice", "READ", "TOPIC", "t") is ALLOWED
