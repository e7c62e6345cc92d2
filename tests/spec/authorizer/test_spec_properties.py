"""Properties: the four of ``StandardAuthorizerPropertyTest`` (``docs/spec/authorization.md`` §6.2), restated as
Hypothesis properties, and properties of the spec itself (monotonicity, super users,
replay versus snapshot, order independence, where the by-type variants may differ).

Where a property only holds with a condition, the condition is stated in the test
and a companion test pins down the counterexample that makes it necessary.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kafka_conformance.reference import (
    AclBinding,
    AclOperation,
    Action,
    AddAcl,
    AuthorizationResult,
    ByTypeVariant,
    RemoveAcl,
    RequestContext,
    ResourcePattern,
    ResourceType,
    Rule,
    parse_principal,
    profile_for,
    replay,
)

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED
LATEST = profile_for()
STD_34 = profile_for("3.4.0", "standard")
STD_331 = profile_for("3.3.1", "standard")  # KAFKA-14435 behaviour, lookup already fixed
STD_330 = profile_for("3.3.0", "standard")  # KAFKA-14435 and KAFKA-14265 behaviour
STD_32 = profile_for("3.2.0", "standard")
ACL_39 = profile_for("3.9.0", "acl")
ACL_20 = profile_for("2.0.0", "acl")  # KAFKA-7702 behaviour

SPEC = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PER_PROFILE = settings(SPEC, max_examples=100)
"""For properties parametrized over several profiles: 100 examples for each."""
FEW = settings(SPEC, max_examples=60)


def profiles(*items):
    return pytest.mark.parametrize("profile", items, ids=str)


# -- §6.2 StandardAuthorizerPropertyTest --------------------------------------------------
# Topic names over letters, digits and "._-", valid per Topic.isValid; up to ten random
# suffixes; every ACL is for User:* on any host with operation WRITE; the query is WRITE.

TOPIC_CHARS = string.ascii_letters + string.digits + "._-"
topics = st.text(TOPIC_CHARS, min_size=1, max_size=40).filter(lambda t: t not in (".", ".."))
suffix_sets = st.sets(st.text(TOPIC_CHARS, max_size=8), max_size=10)


def write_acl(perm, name, pattern):
    return AclBinding.of(perm, "User:*", "WRITE", "TOPIC", name, pattern)


def prefix_patterns(topic, suffixes, keep):
    """Every proper prefix of the topic (the empty one included) followed by every suffix."""
    return sorted({topic[:i] + s for i in range(len(topic)) for s in suffixes if keep(topic[:i] + s)})


def ask_write(build, check, profile, acls, topic):
    return check(build(profile, acls), "User:user", "WRITE", "TOPIC", topic)


@profiles(LATEST, STD_34, ACL_39)
@PER_PROFILE
@given(topic=topics, suffixes=suffix_sets, data=st.data())
def test_matching_prefix_deny_overrides_all_allow_rules(build, check, profile, topic, suffixes, data):
    """StandardAuthorizerPropertyTest.matchingPrefixDenyOverridesAllAllowRules: a PREFIXED
    DENY on a proper prefix of the topic (possibly empty) beats any number of PREFIXED
    ALLOWs.  On AclAuthorizer an empty prefix matches nothing, so it is skipped there."""
    prefix = topic[: data.draw(st.integers(0, len(topic) - 1), label="prefix length")]
    assume(prefix or profile.is_standard)
    allows = [write_acl("ALLOW", p, "PREFIXED") for p in prefix_patterns(topic, suffixes, bool)]
    acls = [write_acl("DENY", prefix, "PREFIXED"), *allows]
    assert ask_write(build, check, profile, acls, topic) is DENIED


@profiles(LATEST, STD_34, ACL_39)
@PER_PROFILE
@given(topic=topics, suffixes=suffix_sets)
def test_matching_literal_deny_overrides_all_allow_rules(build, check, profile, topic, suffixes):
    """StandardAuthorizerPropertyTest.matchingLiteralDenyOverridesAllAllowRules."""
    allows = [write_acl("ALLOW", p, "PREFIXED") for p in prefix_patterns(topic, suffixes, bool)]
    acls = [write_acl("DENY", topic, "LITERAL"), *allows]
    assert ask_write(build, check, profile, acls, topic) is DENIED


@profiles(LATEST, STD_34, ACL_39)
@PER_PROFILE
@given(topic=topics, suffixes=suffix_sets, data=st.data())
def test_matching_prefix_allow_with_no_matching_deny_rules(build, check, profile, topic, suffixes, data):
    """StandardAuthorizerPropertyTest.matchingPrefixAllowWithNoMatchingDenyRules: a PREFIXED
    ALLOW on a proper prefix (possibly empty) plus PREFIXED DENYs that are not prefixes
    of the topic -> ALLOWED."""
    prefix = topic[: data.draw(st.integers(0, len(topic) - 1), label="prefix length")]
    assume(prefix or profile.is_standard)
    denies = prefix_patterns(topic, suffixes, lambda p: p != "" and not topic.startswith(p))
    acls = [write_acl("ALLOW", prefix, "PREFIXED"), *(write_acl("DENY", p, "PREFIXED") for p in denies)]
    assert ask_write(build, check, profile, acls, topic) is ALLOWED


@profiles(LATEST, STD_34, ACL_39)
@PER_PROFILE
@given(topic=topics, suffixes=suffix_sets)
def test_matching_literal_allow_with_no_matching_deny_rules(build, check, profile, topic, suffixes):
    """StandardAuthorizerPropertyTest.matchingLiteralAllowWithNoMatchingDenyRules."""
    denies = prefix_patterns(topic, suffixes, lambda p: p != "" and not topic.startswith(p))
    acls = [write_acl("ALLOW", topic, "LITERAL"), *(write_acl("DENY", p, "PREFIXED") for p in denies)]
    assert ask_write(build, check, profile, acls, topic) is ALLOWED


# -- a small universe for the spec's own properties ------------------------------------------
# Few principals, hosts and names, so that generated ACLs and requests collide often.

ACL_PRINCIPALS = ["User:alice", "User:bob", "User:*", "Group:alice"]
SESSIONS = ["User:alice", "User:bob", "Group:alice"]
SUPER = "User:root"
ACL_HOSTS = ["*", "10.0.0.1", "10.0.0.2"]
CLIENTS = ["10.0.0.1", "10.0.0.2"]
ACL_OPS = ["ALL", "READ", "WRITE", "CREATE", "DELETE", "ALTER", "DESCRIBE", "DESCRIBE_CONFIGS",
           "ALTER_CONFIGS", "IDEMPOTENT_WRITE"]
ASK_OPS = [op for op in ACL_OPS if op != "ALL"]
IMPLIED_OPS = {"DESCRIBE", "DESCRIBE_CONFIGS"}
TYPES = ["TOPIC", "GROUP"]
names = st.text("abh", min_size=1, max_size=3) | st.sampled_from(["*", "hard", "hardcode"])
asked_names = st.text("abh", min_size=1, max_size=4) | st.sampled_from(["*", "hardcode", "hardcore"])

acls_st = st.builds(
    AclBinding.of,
    st.sampled_from(["ALLOW", "DENY"]),
    st.sampled_from(ACL_PRINCIPALS),
    st.sampled_from(ACL_OPS),
    st.sampled_from(TYPES),
    names,
    st.sampled_from(["LITERAL", "PREFIXED"]),
    host=st.sampled_from(ACL_HOSTS),
)
acl_lists = st.lists(acls_st, max_size=8, unique=True)
requests = st.tuples(
    st.sampled_from(SESSIONS), st.sampled_from(CLIENTS), st.sampled_from(ASK_OPS),
    st.sampled_from(TYPES), asked_names,
)


def ask(build, decide_one, profile, acls, request, *, flag=False, loaded=True, supers=(SUPER,)):
    principal, host, op, rtype, name = request
    authz = build(profile, acls, allow_everyone=flag, loaded=loaded, super_users=supers)
    return decide_one(authz, principal, op, rtype, name, host=host)


NO_SHADOWING = (LATEST, STD_331, ACL_39, ACL_20)


@profiles(*NO_SHADOWING)
@PER_PROFILE
@given(acls=acl_lists, extra=acls_st, request=requests, flag=st.booleans())
def test_adding_a_deny_never_turns_denied_into_allowed(build, decide_one, profile, acls, extra, request, flag):
    """Adding a DENY ACL can only take permissions away.  Holds on every release whose
    prefix lookup is complete (not StandardAuthorizer 3.2.0-3.3.0: see below)."""
    extra = AclBinding.of("DENY", extra.entry.principal, extra.entry.operation, extra.pattern.resource_type,
                          extra.pattern.name, extra.pattern.pattern_type, host=extra.entry.host)
    assume(extra not in acls)
    before = ask(build, decide_one, profile, acls, request, flag=flag)
    if before.result is DENIED:
        assert ask(build, decide_one, profile, [*acls, extra], request, flag=flag).result is DENIED


@profiles(*NO_SHADOWING)
@PER_PROFILE
@given(acls=acl_lists, extra=acls_st, request=requests, flag=st.booleans())
def test_adding_an_allow_never_turns_an_acl_decision_into_denied(
    build, decide_one, profile, acls, extra, request, flag
):
    """Adding an ALLOW ACL never takes a permission away - except one granted by the
    allow.everyone default because the resource had no ACL at all (see the
    counterexample below).  So: with the flag off, ALLOWED stays ALLOWED; with it on,
    ALLOWED stays ALLOWED unless it came from the NO_ACL_FOR_RESOURCE default."""
    extra = AclBinding.of("ALLOW", extra.entry.principal, extra.entry.operation, extra.pattern.resource_type,
                          extra.pattern.name, extra.pattern.pattern_type, host=extra.entry.host)
    assume(extra not in acls)
    before = ask(build, decide_one, profile, acls, request, flag=flag)
    if before.result is ALLOWED and (not flag or before.rule is not Rule.NO_ACL_FOR_RESOURCE):
        assert ask(build, decide_one, profile, [*acls, extra], request, flag=flag).result is ALLOWED


@profiles(LATEST, STD_331, STD_330, ACL_39)
def test_adding_an_allow_can_revoke_an_allow_everyone_default(build, check, profile):
    """The counterexample to unconditional ALLOW-monotonicity: with
    allow.everyone.if.no.acl.found=true and no ACL on ``foo``, alice may READ it; an
    ALLOW for *bob* gives ``foo`` an ACL, the default no longer applies, and alice is
    DENIED (on 3.2.0-3.3.1 the buggy default keeps her ALLOWED, KAFKA-14435)."""
    open_topic = build(profile, allow_everyone=True)
    assert check(open_topic, "User:alice", "READ", "TOPIC", "foo") is ALLOWED
    acl = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "foo")
    closed = build(profile, [acl], allow_everyone=True)
    expected = ALLOWED if profile.default_when_no_acl_applies else DENIED
    assert check(closed, "User:alice", "READ", "TOPIC", "foo") is expected


@profiles(STD_32, STD_330)
def test_prefix_shadowing_breaks_both_monotonicities(build, check, profile):
    """KAFKA-14265 counterexamples: on StandardAuthorizer 3.2.0-3.3.0 an ACL for
    *someone else* on ``fooa`` hides the PREFIXED ``f`` ACLs from a lookup of ``foob``.
    Adding a DENY can then turn DENIED into ALLOWED, and adding an ALLOW can turn
    ALLOWED into DENIED."""
    deny_f = AclBinding.of("DENY", "User:alice", "WRITE", "TOPIC", "f", "PREFIXED")
    allow_all = AclBinding.of("ALLOW", "User:alice", "WRITE", "TOPIC", "*")
    hider_deny = AclBinding.of("DENY", "User:bob", "WRITE", "TOPIC", "fooa", "PREFIXED")
    assert check(build(profile, [deny_f, allow_all]), "User:alice", "WRITE", "TOPIC", "foob") is DENIED
    assert check(build(profile, [deny_f, allow_all, hider_deny]), "User:alice", "WRITE", "TOPIC", "foob") is ALLOWED

    allow_f = AclBinding.of("ALLOW", "User:alice", "WRITE", "TOPIC", "f", "PREFIXED")
    hider_allow = AclBinding.of("ALLOW", "User:bob", "WRITE", "TOPIC", "fooa", "PREFIXED")
    assert check(build(profile, [allow_f]), "User:alice", "WRITE", "TOPIC", "foob") is ALLOWED
    assert check(build(profile, [allow_f, hider_allow]), "User:alice", "WRITE", "TOPIC", "foob") is DENIED


@profiles(LATEST, STD_330, STD_32, ACL_39, ACL_20)
@PER_PROFILE
@given(acls=acl_lists, request=requests, flag=st.booleans(), loaded=st.booleans())
def test_super_users_always_pass_literal_actions(build, decide_one, profile, acls, request, flag, loaded):
    """A super user is ALLOWED on every literal action whatever the ACLs (DENYs for
    ``User:*`` included), the flag, or whether the initial load has completed."""
    _, host, op, rtype, name = request
    acls = list(dict.fromkeys([*acls, AclBinding.of("DENY", "User:*", "ALL", rtype, "*")]))
    decision = ask(build, decide_one, profile, acls, (SUPER, host, op, rtype, name), flag=flag, loaded=loaded)
    assert decision.result is ALLOWED and decision.rule is Rule.SUPER_USER


# -- records, snapshots and order ----------------------------------------------------------------

steps = st.lists(
    st.one_of(st.tuples(st.just("add"), acls_st), st.tuples(st.just("remove"), st.integers(0, 30))),
    max_size=16,
)


def to_records(program):
    """Turn generated steps into a consistent record log (fresh ids, known removals)."""
    live: dict[str, AclBinding] = {}
    records = []
    for index, (kind, value) in enumerate(program):
        if kind == "add":
            if value in live.values():
                continue
            acl_id = f"id-{index}"
            live[acl_id] = value
            records.append(AddAcl(acl_id, value))
        elif live:
            acl_id = sorted(live)[value % len(live)]
            del live[acl_id]
            records.append(RemoveAcl(acl_id))
    return records, list(live.values())


@profiles(LATEST, STD_330, ACL_39)
@PER_PROFILE
@given(program=steps, asks=st.lists(requests, min_size=1, max_size=4), flag=st.booleans())
def test_replaying_records_equals_loading_the_final_snapshot(build, decide_one, profile, program, asks, flag):
    """Applying a record log one record at a time, loading the snapshot it ends in, and
    building from the surviving ACLs under other ids give the same authorizer."""
    records, survivors = to_records(program)
    replayed = build(profile, allow_everyone=flag, super_users=[SUPER])
    replayed.apply_all(records)
    loaded = build(profile, allow_everyone=flag, super_users=[SUPER])
    loaded.load_snapshot(replay(records))
    fresh = build(profile, survivors, allow_everyone=flag, super_users=[SUPER])
    assert replayed.snapshot() == loaded.snapshot()
    assert set(replayed.acls()) == set(fresh.acls()) == set(survivors)
    assert replayed.acl_count() == loaded.acl_count() == fresh.acl_count()
    for principal, host, op, rtype, name in asks:
        answers = {
            (d.result, d.rule, frozenset(d.acls))
            for d in (decide_one(a, principal, op, rtype, name, host=host) for a in (replayed, loaded, fresh))
        }
        assert len(answers) == 1


def by_type_results(authz, request):
    principal, host, op, rtype, _ = request
    context = RequestContext(parse_principal(principal), host)
    return tuple(
        authz.authorize_by_resource_type(context, AclOperation[op], ResourceType[rtype], v).result
        for v in ByTypeVariant
    )


@profiles(LATEST, STD_330, ACL_39, ACL_20)
@PER_PROFILE
@given(acls=acl_lists, data=st.data(), asks=st.lists(requests, min_size=1, max_size=4), flag=st.booleans())
def test_answers_do_not_depend_on_acl_insertion_order(build, decide_one, profile, acls, data, asks, flag):
    """The ACL set, not the order it was built in, decides every answer - including on
    the releases whose lookup walked a sorted structure."""
    shuffled = data.draw(st.permutations(acls), label="insertion order")
    first = build(profile, acls, allow_everyone=flag)
    second = build(profile, shuffled, allow_everyone=flag)
    for principal, host, op, rtype, name in asks:
        a = decide_one(first, principal, op, rtype, name, host=host)
        b = decide_one(second, principal, op, rtype, name, host=host)
        assert (a.result, a.rule, frozenset(a.acls)) == (b.result, b.rule, frozenset(b.acls))
    if profile.has_authorize_by_resource_type:
        assert by_type_results(first, asks[0]) == by_type_results(second, asks[0])


@profiles(LATEST, ACL_39)
@SPEC
@given(acls=acl_lists, extra=st.lists(acls_st, max_size=4), request=requests, flag=st.booleans())
def test_acls_of_another_resource_type_change_nothing(build, decide_one, profile, acls, extra, request, flag):
    """ACLs only ever answer for their own resource type."""
    rtype = request[3]
    other = "GROUP" if rtype == "TOPIC" else "TOPIC"
    foreign = [AclBinding.of(a.entry.permission_type, a.entry.principal, a.entry.operation, other,
                             a.pattern.name, a.pattern.pattern_type, host=a.entry.host) for a in extra]
    mine = [a for a in acls if a.pattern.resource_type.name == rtype]
    combined = list(dict.fromkeys([*mine, *foreign]))
    a = ask(build, decide_one, profile, mine, request, flag=flag)
    b = ask(build, decide_one, profile, combined, request, flag=flag)
    assert (a.result, a.rule) == (b.result, b.rule)


@SPEC
@given(acls=acl_lists, asks=st.lists(requests, min_size=1, max_size=6), flag=st.booleans())
def test_flavours_agree_on_api_creatable_acls(build, decide_one, acls, asks, flag):
    """On ACLs the API can create (non-empty names, ALLOW/DENY, parseable principals) the
    StandardAuthorizer and AclAuthorizer decide alike (``docs/spec/authorization.md`` §2.5: every listed difference
    needs a value the API refuses, a config quirk, or a fixed bug)."""
    standard = build(LATEST, acls, allow_everyone=flag)
    zookeeper = build(ACL_39, acls, allow_everyone=flag)
    for principal, host, op, rtype, name in asks:
        s = decide_one(standard, principal, op, rtype, name, host=host)
        z = decide_one(zookeeper, principal, op, rtype, name, host=host)
        assert s.result is z.result


@SPEC
@given(acls=acl_lists, asks=st.lists(requests, min_size=2, max_size=5))
def test_a_batch_answers_like_single_actions(build, acls, asks):
    """Once loaded, the answer to a batch is the list of single answers, in order."""
    authz = build(LATEST, acls)
    principal, host = asks[0][0], asks[0][1]
    context = RequestContext(parse_principal(principal), host)
    actions = [Action(AclOperation[op], ResourcePattern(ResourceType[t], n)) for _, _, op, t, n in asks]
    assert authz.authorize(context, actions) == [authz.authorize(context, [a])[0] for a in actions]


# -- authorizeByResourceType --------------------------------------------------------------------


@profiles(LATEST, ACL_39)
@SPEC
@given(acls=acl_lists, request=requests)
def test_by_type_variants_agree_outside_the_documented_divergences(build, profile, acls, request):
    """``docs/spec/authorization.md`` §3.3 lists where the interface default (D), the AclAuthorizer override (A) and
    the ground truth (T) part ways: allow.everyone=true, operations reached by
    implication (DESCRIBE, DESCRIBE_CONFIGS), and empty-name DENY prefixes.  Outside
    those, all three agree."""
    assume(request[2] not in IMPLIED_OPS)
    authz = build(profile, acls, super_users=[SUPER])
    assert len(set(by_type_results(authz, request))) == 1


@profiles(LATEST, STD_330, ACL_39)
@PER_PROFILE
@given(acls=acl_lists, request=requests, flag=st.booleans())
def test_ground_truth_is_exact(build, decide_one, profile, acls, request, flag):
    """T answers the contract: its witness is a real, non-empty name that authorize()
    allows, and whenever some name is allowed, T is ALLOWED."""
    principal, host, op, rtype, name = request
    authz = build(profile, acls, allow_everyone=flag)
    context = RequestContext(parse_principal(principal), host)
    truth = authz.authorize_by_resource_type(
        context, AclOperation[op], ResourceType[rtype], ByTypeVariant.GROUND_TRUTH
    )
    if truth.allowed:
        assert truth.witness
        assert decide_one(authz, principal, op, rtype, truth.witness, host=host).result is ALLOWED
    if decide_one(authz, principal, op, rtype, name, host=host).result is ALLOWED:
        assert truth.allowed, name


@profiles(LATEST, ACL_39)
@FEW
@given(acls=acl_lists, request=requests)
def test_by_type_approximations_are_sound_with_the_flag_off(build, profile, acls, request):
    """With allow.everyone off and no empty names, neither approximation allows what the
    contract forbids: D or A ALLOWED implies T ALLOWED (they may only be stricter, via
    implication)."""
    results = dict(zip(ByTypeVariant, by_type_results(build(profile, acls), request), strict=True))
    if ALLOWED in (results[ByTypeVariant.INTERFACE_DEFAULT], results[ByTypeVariant.ACL_AUTHORIZER]):
        assert results[ByTypeVariant.GROUND_TRUTH] is ALLOWED
