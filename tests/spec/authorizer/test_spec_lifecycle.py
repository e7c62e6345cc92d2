"""The KIP-801 ACL lifecycle of the StandardAuthorizer, and the admin path.

Facts: ``docs/spec/authorization.md`` §5 (records, snapshots, AclCache invariants,
readiness, create/delete on the controller) and §6.6 (AclControlManagerTest, AclsDeltaTest).
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    AccessControlEntryFilter,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    Action,
    AddAcl,
    AuthorizationResult,
    AuthorizerConfig,
    AuthorizerError,
    PatternType,
    ReferenceAuthorizer,
    RemoveAcl,
    RequestContext,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
    parse_principal,
    profile_for,
    replay,
)

ALLOWED, DENIED, ERROR = (
    AuthorizationResult.ALLOWED,
    AuthorizationResult.DENIED,
    AuthorizationResult.ERROR,
)
LATEST = profile_for()
STANDARD_39 = profile_for("3.9.0", "standard")

READ_FOO = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo")
WRITE_FOO = AclBinding.of("ALLOW", "User:alice", "WRITE", "TOPIC", "foo")
DENY_BAR = AclBinding.of("DENY", "User:*", "ALL", "GROUP", "bar", "PREFIXED")


def batch(authz, principal, *names):
    context = RequestContext(parse_principal(principal))
    actions = [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, n)) for n in names]
    return authz.authorize(context, actions)


def new(profile=LATEST, supers=("User:root",)):
    return ReferenceAuthorizer(profile, AuthorizerConfig.of(supers))


# -- readiness -----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [profile_for("3.3.0", "standard"), STANDARD_39, LATEST], ids=str)
def test_not_ready_before_initial_load(profile):
    """§5: until completeInitialLoad, a non-super-user's whole batch throws
    AuthorizerNotReadyException (kind 'not-ready'); no per-action result."""
    authz = new(profile)
    authz.apply(AddAcl("a", READ_FOO))
    decisions = batch(authz, "User:alice", "foo", "other")
    assert [d.result for d in decisions] == [ERROR, ERROR]
    assert {d.error for d in decisions} == {"not-ready"}


@pytest.mark.parametrize("profile", [profile_for("3.3.0", "standard"), LATEST], ids=str)
def test_super_users_are_answered_before_initial_load(profile):
    authz = new(profile)
    assert [d.result for d in batch(authz, "User:root", "foo", "bar")] == [ALLOWED, ALLOWED]


def test_ready_after_initial_load():
    authz = new()
    authz.apply(AddAcl("a", READ_FOO))
    authz.complete_initial_load()
    assert [d.result for d in batch(authz, "User:alice", "foo", "other")] == [ALLOWED, DENIED]


@pytest.mark.parametrize(
    "profile",
    [profile_for("3.2.0", "standard"), profile_for("3.2.3", "standard"), profile_for("3.9.0", "acl"),
     profile_for("2.0.0", "acl")],
    ids=str,
)
def test_no_not_ready_state(profile):
    """StandardAuthorizer 3.2.x served immediately (the gate arrived in 3.3.0,
    KAFKA-13649); AclAuthorizer is ready once configured (§2.4i, §7)."""
    authz = new(profile)
    assert authz.ready
    assert batch(authz, "User:alice", "foo")[0].result is DENIED


def test_not_ready_error_covers_the_whole_batch_even_with_allowed_actions():
    """The exception replaces the whole answer, so even an action that would be
    ALLOWED gets no result."""
    authz = new(supers=())
    authz.apply(AddAcl("a", AclBinding.of("ALLOW", "User:*", "ALL", "TOPIC", "*")))
    assert {d.result for d in batch(authz, "User:alice", "foo", "bar", "baz")} == {ERROR}


# -- records and the AclCache invariants ------------------------------------------------------


def test_records_apply_in_order():
    authz = new()
    authz.apply_all([AddAcl("a", READ_FOO), AddAcl("b", WRITE_FOO), RemoveAcl("a")])
    assert authz.snapshot() == {"b": WRITE_FOO}


def test_remove_before_add_is_illegal_state():
    """Order matters: the remove of an id not yet added fails."""
    authz = new()
    with pytest.raises(AuthorizerError) as info:
        authz.apply_all([RemoveAcl("a"), AddAcl("a", READ_FOO)])
    assert info.value.kind == "illegal-state"


def test_duplicate_id_is_illegal_state():
    """AclCache: adding an id that already exists throws (the interface javadoc says
    "replaced"; the implementation throws)."""
    authz = new()
    authz.apply(AddAcl("a", READ_FOO))
    with pytest.raises(AuthorizerError) as info:
        authz.apply(AddAcl("a", WRITE_FOO))
    assert info.value.kind == "illegal-state"
    assert authz.snapshot() == {"a": READ_FOO}


def test_duplicate_content_under_a_new_id_is_illegal_state():
    authz = new()
    authz.apply(AddAcl("a", READ_FOO))
    with pytest.raises(AuthorizerError) as info:
        authz.apply(AddAcl("b", READ_FOO))
    assert info.value.kind == "illegal-state"
    assert authz.snapshot() == {"a": READ_FOO}


def test_removing_an_unknown_id_is_illegal_state():
    """AclCache / AclsDeltaTest: removing an id that is not there throws."""
    authz = new()
    authz.apply(AddAcl("a", READ_FOO))
    with pytest.raises(AuthorizerError) as info:
        authz.apply(RemoveAcl("zzz"))
    assert info.value.kind == "illegal-state"


def test_id_added_then_removed_disappears():
    """AclsDeltaTest: an add and a remove of the same id leave nothing behind."""
    authz = new()
    authz.apply_all([AddAcl("a", READ_FOO), RemoveAcl("a")])
    assert authz.snapshot() == {}
    assert authz.acl_count() == 0


def test_replay_returns_the_final_snapshot():
    records = [AddAcl("a", READ_FOO), AddAcl("b", WRITE_FOO), RemoveAcl("a"), AddAcl("c", DENY_BAR)]
    assert replay(records) == {"b": WRITE_FOO, "c": DENY_BAR}
    with pytest.raises(AuthorizerError):
        replay([*records, RemoveAcl("a")])


def test_a_removed_acl_may_be_added_again_under_a_new_id():
    authz = new()
    authz.apply_all([AddAcl("a", READ_FOO), RemoveAcl("a"), AddAcl("b", READ_FOO)])
    assert authz.snapshot() == {"b": READ_FOO}


# -- snapshots --------------------------------------------------------------------------------


def test_snapshot_replaces_every_acl():
    """§5: loadSnapshot swaps in a new cache: ACLs not in the snapshot are gone."""
    authz = new()
    authz.apply_all([AddAcl("a", READ_FOO), AddAcl("b", WRITE_FOO)])
    authz.load_snapshot({"c": DENY_BAR, "b": WRITE_FOO})
    assert authz.snapshot() == {"c": DENY_BAR, "b": WRITE_FOO}
    authz.complete_initial_load()
    assert batch(authz, "User:alice", "foo")[0].result is DENIED


def test_inconsistent_snapshot_changes_nothing():
    """A snapshot is all or nothing: one that breaks the cache invariants leaves the
    previous ACLs in place."""
    authz = new()
    authz.apply(AddAcl("a", READ_FOO))
    with pytest.raises(AuthorizerError) as info:
        authz.load_snapshot({"x": WRITE_FOO, "y": WRITE_FOO})
    assert info.value.kind == "illegal-state"
    assert authz.snapshot() == {"a": READ_FOO}


def test_records_continue_after_a_snapshot():
    authz = new()
    authz.load_snapshot({"a": READ_FOO})
    authz.complete_initial_load()
    authz.apply_all([AddAcl("b", WRITE_FOO), RemoveAcl("a")])
    assert authz.snapshot() == {"b": WRITE_FOO}


def test_loading_a_snapshot_does_not_complete_the_initial_load():
    """The publisher loads the snapshot, *then* calls completeInitialLoad()."""
    authz = new()
    authz.load_snapshot({"a": READ_FOO})
    assert not authz.ready
    assert batch(authz, "User:alice", "foo")[0].error == "not-ready"


# -- the admin path (AclControlManager) ----------------------------------------------------------


def test_create_is_idempotent_for_an_existing_acl():
    """§5: an ACL identical to an existing one returns SUCCESS and writes nothing."""
    authz = new()
    first = authz.create_acls([READ_FOO])
    second = authz.create_acls([READ_FOO, READ_FOO])
    assert [r.error for r in first + second] == [None, None, None]
    assert authz.acl_count() == 1


def test_create_gives_each_new_acl_a_fresh_id():
    authz = new()
    authz.create_acls([READ_FOO, WRITE_FOO, DENY_BAR])
    snapshot = authz.snapshot()
    assert len(snapshot) == 3 and set(snapshot.values()) == {READ_FOO, WRITE_FOO, DENY_BAR}


def test_create_reports_per_binding():
    """Invalid bindings fail individually; the valid ones in the same call are created."""
    authz = new()
    bad = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "")
    results = authz.create_acls([READ_FOO, bad, WRITE_FOO])
    assert [r.error is None for r in results] == [True, False, True]
    assert set(authz.acls()) == {READ_FOO, WRITE_FOO}


def test_delete_filter_with_unknown_parts_is_rejected():
    """§5: a delete filter with an UNKNOWN pattern or entry part is an
    InvalidRequestException; the other filters still run."""
    authz = new()
    authz.create_acls([READ_FOO])
    unknown = AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, None, PatternType.UNKNOWN))
    results = authz.delete_acls([unknown, AclBindingFilter()])
    assert results[0].error is not None and results[0].deleted == ()
    assert results[1].deleted == (READ_FOO,)
    assert authz.acls() == []


def test_delete_removes_each_acl_once():
    """AclControlManagerTest: two filters matching the same ACL produce one removal."""
    authz = new()
    authz.create_acls([READ_FOO, WRITE_FOO])
    alice = AclBindingFilter(entry=AccessControlEntryFilter(principal="User:alice"))
    authz.delete_acls([alice, AclBindingFilter()])
    assert authz.acls() == [] and authz.acl_count() == 0


def test_delete_with_no_match_is_empty():
    authz = new()
    authz.create_acls([READ_FOO])
    [result] = authz.delete_acls([AclBindingFilter(ResourcePatternFilter(ResourceType.GROUP))])
    assert result.deleted == () and result.error is None
    assert authz.acls() == [READ_FOO]
