"""Configuration parsing: ``super.users`` and ``allow.everyone.if.no.acl.found``.

Facts: ``docs/spec/authorization.md`` §2.3 (StandardAuthorizer: lenient), §2.4
(AclAuthorizer: strict), §7 (KAFKA-14962, trimming of the flag from 3.6.0).  The StandardAuthorizerTest
configuration tests themselves live in ``test_spec_standard_authorizer.py``.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import ConfigError, KafkaPrincipal, parse_config, profile_for

STANDARD = profile_for("3.9.0", "standard")
ACL = profile_for("3.9.0", "acl")
BOTH = pytest.mark.parametrize("profile", [STANDARD, ACL, profile_for()], ids=str)


def users(*names: str) -> frozenset[KafkaPrincipal]:
    return frozenset(KafkaPrincipal(*n.split(":", 1)) for n in names)


def super_users(profile, raw):
    return parse_config({"super.users": raw}, profile).super_users


def allow_everyone(profile, raw):
    return parse_config({"allow.everyone.if.no.acl.found": raw}, profile).allow_everyone_if_no_acl_found


# -- super.users -------------------------------------------------------------------------


@BOTH
def test_absent_super_users_is_empty(profile):
    assert parse_config({}, profile).super_users == frozenset()


@BOTH
@pytest.mark.parametrize(
    "raw", ["User:a;User:b", " User:a ; User:b ", "User:a;  User:b  "]
)
def test_super_users_split_on_semicolon_and_trimmed(profile, raw):
    assert super_users(profile, raw) == users("User:a", "User:b")


@BOTH
def test_super_user_names_may_contain_colons(profile):
    assert super_users(profile, "User:CN=a:b") == users("User:CN=a:b")


@pytest.mark.parametrize(
    "raw", ["", " ", ";User:a", "User:a;;User:b", ";  User:a  ;  User:b "]
)
def test_standard_skips_empty_super_user_segments(raw):
    """StandardAuthorizer skips blank entries (§2.3; StandardAuthorizerTest.testGetConfiguredSuperUsers)."""
    expected = users(*(s.strip() for s in raw.split(";") if s.strip()))
    assert super_users(STANDARD, raw) == expected


@pytest.mark.parametrize("raw", ["  ", ";User:a", "User:a;;User:b", " ; "])
def test_acl_authorizer_rejects_empty_super_user_segments(raw):
    """AclAuthorizer parses every segment, so an empty one is an error (§2.4)."""
    with pytest.raises(ConfigError):
        super_users(ACL, raw)


def test_acl_authorizer_ignores_an_empty_super_users_string():
    """AclAuthorizer only reads a non-empty string (§2.4)."""
    assert super_users(ACL, "") == frozenset()


@pytest.mark.parametrize(("raw", "expected"), [("User:a;", ("User:a",)), (";", ()), ("User:a;;", ("User:a",))])
def test_acl_authorizer_tolerates_trailing_empty_segments(raw, expected):
    assert super_users(ACL, raw) == users(*expected)


@BOTH
@pytest.mark.parametrize("raw", ["bob", "User:a;bob", "bob;:alice"])
def test_super_user_without_colon_is_rejected(profile, raw):
    """An entry that is not ``Type:name`` fails configure() in both flavours."""
    with pytest.raises(ConfigError):
        super_users(profile, raw)


@pytest.mark.parametrize(
    ("profile", "props"),
    [
        (STANDARD, {"super.users": "bob;:alice"}),
        (ACL, {"super.users": "User:a;;User:b"}),
        (ACL, {"allow.everyone.if.no.acl.found": "yes"}),
    ],
    ids=["standard-no-colon", "acl-empty-segment", "acl-flag"],
)
def test_configure_errors_are_illegal_argument(profile, props):
    with pytest.raises(ConfigError) as info:
        parse_config(props, profile)
    assert info.value.kafka_exception == "java.lang.IllegalArgumentException"


# -- allow.everyone.if.no.acl.found -------------------------------------------------------


@BOTH
def test_flag_defaults_to_false(profile):
    assert parse_config({}, profile).allow_everyone_if_no_acl_found is False


@BOTH
@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("TRUE", True), ("True", True),
                                                ("false", False), ("FaLsE", False)])
def test_flag_booleans_any_case(profile, raw, expected):
    assert allow_everyone(profile, raw) is expected


@pytest.mark.parametrize("raw", ["yes", "1", "", "on", "truee"])
def test_standard_flag_is_lenient(raw):
    """StandardAuthorizer: ``Boolean.parseBoolean`` - anything else is false, no error (§2.3)."""
    assert allow_everyone(STANDARD, raw) is False


@pytest.mark.parametrize("raw", ["yes", "1", "", "on", "truee"])
def test_acl_authorizer_flag_is_strict(raw):
    """AclAuthorizer: Scala ``toBoolean`` - anything else throws at configure (§2.4)."""
    with pytest.raises(ConfigError):
        allow_everyone(ACL, raw)


@pytest.mark.parametrize(
    ("version", "expected"),
    [("3.2.0", False), ("3.5.2", False), ("3.6.0", True), ("3.9.0", True), (None, True)],
)
def test_standard_trims_the_flag_from_3_6(version, expected):
    """KAFKA-14962: before 3.6.0 StandardAuthorizer read ' true' as false (§2.3, §7)."""
    profile = profile_for() if version is None else profile_for(version, "standard")
    assert allow_everyone(profile, " true ") is expected


@pytest.mark.parametrize("version", ["3.6.0", "3.9.0"])
def test_acl_authorizer_trims_the_flag(version):
    assert allow_everyone(profile_for(version, "acl"), "  true ") is True


@pytest.mark.parametrize("version", ["2.8.0", "3.4.0", "3.5.2"])
def test_acl_authorizer_before_3_6_rejects_a_padded_flag(version):
    with pytest.raises(ConfigError):
        allow_everyone(profile_for(version, "acl"), " true")


@BOTH
def test_config_round_trips_through_properties(profile):
    config = parse_config({"super.users": "User:b;User:a", "allow.everyone.if.no.acl.found": "true"},
                          profile)
    assert parse_config(config.to_properties(), profile) == config
