"""The facts of ``StandardAuthorizerTest`` (``docs/spec/authorization.md`` §6.1), restated.

Each test names the upstream method it encodes.  They run on the StandardAuthorizer
at 3.9.0 (identical test file) and at the newest modelled release.  Not modelled
here: the audit-log *text and level* (only the deciding rule is checked),
listener futures (``start``/early-start listeners) and
``completeInitialLoad(exception)``; see the notes at the end of the file.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    Action,
    AuthorizationResult,
    KafkaPrincipal,
    PatternType,
    ReferenceAuthorizer,
    RemoveAcl,
    RequestContext,
    ResourcePattern,
    ResourcePatternFilter,
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


@pytest.fixture(
    scope="module", params=[profile_for("3.9.0", "standard"), profile_for()], ids=str
)
def profile(request):
    return request.param


def results(authz, principal, actions, host="127.0.0.1"):
    """Authorize a batch of (op, type, name) triples, as the upstream tests do."""
    context = RequestContext(parse_principal(principal), host)
    batch = [
        Action(AclOperation[op], ResourcePattern(ResourceType[rtype], name)) for op, rtype, name in actions
    ]
    return [d.result for d in authz.authorize(context, batch)]


def foo_acl(op, perm):
    """The recurring fixture ACL: PREFIXED ``foo_`` for ``User:bob`` on any host."""
    return AclBinding.of(perm, "User:bob", op, "TOPIC", "foo_", "PREFIXED")


def bar_acl(op, perm):
    """The other fixture ACL: LITERAL group ``bar`` for ``User:*``."""
    return AclBinding.of(perm, "User:*", op, "GROUP", "bar")


# -- configuration ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, set()),
        (" ", set()),
        ("User:bob;User:alice ", {"User:bob", "User:alice"}),
        (";  User:bob  ;  User:alice ", {"User:bob", "User:alice"}),
    ],
)
def test_get_configured_super_users(profile, raw, expected):
    """StandardAuthorizerTest.testGetConfiguredSuperUsers: blank or absent means none;
    entries are split on ';', trimmed, and empty ones skipped."""
    authz = ReferenceAuthorizer(profile)
    authz.configure({} if raw is None else {"super.users": raw})
    assert {str(p) for p in authz.config.super_users} == expected


def test_get_configured_super_users_rejects_entry_without_colon(profile):
    """StandardAuthorizerTest.testGetConfiguredSuperUsers: 'bob' is not Type:name."""
    authz = ReferenceAuthorizer(profile)
    with pytest.raises(ValueError, match="bob"):
        authz.configure({"super.users": "bob;:alice"})


@pytest.mark.parametrize(
    ("props", "expected"),
    [({}, DENIED), ({"allow.everyone.if.no.acl.found": "true"}, ALLOWED),
     ({"allow.everyone.if.no.acl.found": "false"}, DENIED)],
)
def test_get_default_result(profile, build, check, props, expected):
    """StandardAuthorizerTest.testGetDefaultResult: the flag sets the answer for a
    resource without ACLs."""
    authz = build(profile)
    authz.configure(props)
    assert check(authz, "User:anyone", "READ", "TOPIC", "t") is expected


def test_configure(profile):
    """StandardAuthorizerTest.testConfigure: configure() stores super users and the default."""
    authz = ReferenceAuthorizer(profile)
    authz.configure({"super.users": "User:alice;User:chris", "allow.everyone.if.no.acl.found": "true"})
    assert authz.config.super_users == {KafkaPrincipal("User", "alice"), KafkaPrincipal("User", "chris")}
    assert authz.config.allow_everyone_if_no_acl_found is True


@pytest.mark.parametrize(("flag", "topic2"), [(True, ALLOWED), (False, DENIED)])
def test_allow_everyone_if_no_acl_found_config(profile, build, check, flag, topic2):
    """StandardAuthorizerTest.testAllowEveryoneIfNoAclFoundConfigEnabled / ...Disabled:
    an ACL for ``User:Alice`` on topic1 makes topic1 have ACLs, so ``User:Bob`` is
    DENIED there whatever the flag; topic2 has no ACL, so the flag decides.  The
    super users are lower-case ``alice`` and ``chris``: principals are case-sensitive."""
    authz = build(
        profile,
        [AclBinding.of("ALLOW", "User:Alice", "READ", "TOPIC", "topic1")],
        super_users=["User:alice", "User:chris"],
        allow_everyone=flag,
    )
    assert check(authz, "User:Bob", "READ", "TOPIC", "topic1") is DENIED
    assert check(authz, "User:Bob", "READ", "TOPIC", "topic2") is topic2


# -- findResult: one ACL against one action ------------------------------------------------


def find_rule(profile, build, decide_one, acl, principal, op, name="foo_bar", rtype="TOPIC"):
    """What ``StandardAuthorizerData.findResult`` answers for a single ACL: ALLOWED,
    DENIED, or null (the ACL does not apply).  With the ACL alone in the store, the
    null case is the NO_ACL_APPLIED rule."""
    decision = decide_one(build(profile, [acl]), principal, op, rtype, name)
    return {Rule.ALLOW_ACL: ALLOWED, Rule.DENY_ACL: DENIED, Rule.NO_ACL_APPLIED: None}[decision.rule]


@pytest.mark.parametrize(
    ("acl_op", "perm", "asked", "expected"),
    [
        *[(op, "ALLOW", "DESCRIBE", ALLOWED) for op in ("DESCRIBE", "READ", "WRITE", "DELETE", "ALTER")],
        ("CREATE", "ALLOW", "DESCRIBE", None),
        *[(op, "DENY", "DESCRIBE", None) for op in ("READ", "WRITE", "DELETE", "ALTER")],
        ("DESCRIBE", "DENY", "DESCRIBE", DENIED),
        ("DESCRIBE_CONFIGS", "ALLOW", "DESCRIBE_CONFIGS", ALLOWED),
        ("ALTER_CONFIGS", "ALLOW", "DESCRIBE_CONFIGS", ALLOWED),
        ("ALTER_CONFIGS", "DENY", "DESCRIBE_CONFIGS", None),
        ("ALTER_CONFIGS", "DENY", "ALTER_CONFIGS", DENIED),
    ],
)
def test_find_result_implication(profile, build, decide_one, acl_op, perm, asked, expected):
    """StandardAuthorizerTest.testFindResultImplication: ALLOW of READ/WRITE/DELETE/
    ALTER implies DESCRIBE, ALLOW ALTER_CONFIGS implies DESCRIBE_CONFIGS; CREATE implies
    nothing; DENY never implies, it only matches its own operation."""
    acl = foo_acl(acl_op, perm)
    assert find_rule(profile, build, decide_one, acl, "User:bob", asked) == expected


def test_find_result_principal_matching(profile, build, decide_one):
    """StandardAuthorizerTest.testFindResultPrincipalMatching: bob's ACL applies to bob,
    not alice; a ``User:*`` DENY applies to alice."""
    assert find_rule(profile, build, decide_one, foo_acl("READ", "ALLOW"), "User:bob", "READ") is ALLOWED
    assert find_rule(profile, build, decide_one, foo_acl("READ", "ALLOW"), "User:alice", "READ") is None
    assert find_rule(
        profile, build, decide_one, bar_acl("READ", "DENY"), "User:alice", "READ", "bar", "GROUP"
    ) is DENIED


# -- listing -------------------------------------------------------------------------------


def test_list_acls(profile, build):
    """StandardAuthorizerTest.testListAcls: acls(ANY) lists everything; a removal is
    reflected; a TOPIC filter lists only topic ACLs.  Upstream also asserts the
    internal sort order; the reference leaves order unspecified, so sets are compared."""
    foo = [foo_acl("READ", "ALLOW"), foo_acl("WRITE", "ALLOW")]
    bar = [bar_acl("DESCRIBE_CONFIGS", "DENY"), bar_acl("ALTER_CONFIGS", "DENY")]
    authz = build(profile, foo + bar)
    assert set(authz.acls(AclBindingFilter())) == set(foo + bar)
    authz.apply(RemoveAcl("acl-1"))
    assert set(authz.acls(AclBindingFilter())) == {foo[0], *bar}
    topics = AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, None, PatternType.ANY))
    assert authz.acls(topics) == [foo[0]]


# -- authorize -----------------------------------------------------------------------------


def test_simple_authorizations(profile, build):
    """StandardAuthorizerTest.testSimpleAuthorizations: PREFIXED ``foo_`` matches the
    name ``foo_`` itself; a ``User:*`` ALTER_CONFIGS on group bar admits anyone."""
    authz = build(profile, [foo_acl("READ", "ALLOW"), foo_acl("WRITE", "ALLOW"),
                            bar_acl("DESCRIBE_CONFIGS", "ALLOW"), bar_acl("ALTER_CONFIGS", "ALLOW")])
    assert results(authz, "User:bob", [("READ", "TOPIC", "foo_")]) == [ALLOWED]
    assert results(authz, "User:fred", [("ALTER_CONFIGS", "GROUP", "bar")]) == [ALLOWED]


def test_deny_precedence_with_operation_all(profile, build):
    """StandardAuthorizerTest.testDenyPrecedenceWithOperationAll: literal DENY ALL on
    ``foo`` (for alice and for ``User:*``) beats PREFIXED ``foo`` ALLOWs on ``foo``;
    the ALLOWs still work on longer names."""
    authz = build(profile, [
        AclBinding.of("DENY", "User:alice", "ALL", "TOPIC", "foo"),
        AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo", "PREFIXED"),
        AclBinding.of("DENY", "User:*", "ALL", "TOPIC", "foo"),
        AclBinding.of("ALLOW", "User:*", "DESCRIBE", "TOPIC", "foo", "PREFIXED"),
    ])
    assert results(authz, "User:alice", [
        ("WRITE", "TOPIC", "foo"), ("READ", "TOPIC", "foo"),
        ("DESCRIBE", "TOPIC", "foo"), ("READ", "TOPIC", "foobar"),
    ]) == [DENIED, DENIED, DENIED, ALLOWED]
    assert results(authz, "User:bob", [
        ("DESCRIBE", "TOPIC", "foo"), ("READ", "TOPIC", "foo"), ("WRITE", "TOPIC", "foo"),
        ("DESCRIBE", "TOPIC", "foobaz"), ("READ", "TOPIC", "foobaz"),
    ]) == [DENIED, DENIED, DENIED, ALLOWED, DENIED]


def test_topic_acl_with_operation_all(profile, build):
    """StandardAuthorizerTest.testTopicAclWithOperationAll: ALLOW ALL grants every
    operation (incl. DESCRIBE_CONFIGS, DESCRIBE) to whom it names, and only to them."""
    authz = build(profile, [
        AclBinding.of("ALLOW", "User:*", "ALL", "TOPIC", "foo"),
        AclBinding.of("ALLOW", "User:alice", "ALL", "TOPIC", "bar", "PREFIXED"),
        AclBinding.of("ALLOW", "User:bob", "ALL", "TOPIC", "baz"),
    ])
    assert results(authz, "User:alice", [
        ("WRITE", "TOPIC", "foo"), ("DESCRIBE_CONFIGS", "TOPIC", "bar"), ("DESCRIBE", "TOPIC", "baz"),
    ]) == [ALLOWED, ALLOWED, DENIED]
    assert results(authz, "User:bob", [
        ("WRITE", "TOPIC", "foo"), ("READ", "TOPIC", "bar"), ("DESCRIBE", "TOPIC", "baz"),
    ]) == [ALLOWED, DENIED, ALLOWED]
    assert results(authz, "User:malory", [
        ("DESCRIBE", "TOPIC", "foo"), ("WRITE", "TOPIC", "bar"), ("READ", "TOPIC", "baz"),
    ]) == [ALLOWED, DENIED, DENIED]


HOST1, HOST2, LOCAL = "192.168.1.1", "192.168.1.2", "10.20.30.40"


@pytest.mark.parametrize(
    ("principal", "host", "expected"),
    [
        ("User:alice", LOCAL, [ALLOWED, DENIED, ALLOWED]),
        ("User:alice", HOST1, [DENIED, DENIED, DENIED]),
        ("User:alice", HOST2, [ALLOWED, DENIED, DENIED]),
        ("User:bob", LOCAL, [DENIED, DENIED, ALLOWED]),
        ("User:bob", HOST1, [DENIED, DENIED, DENIED]),
        ("User:bob", HOST2, [DENIED, ALLOWED, ALLOWED]),
    ],
)
def test_host_address_acl_validation(profile, build, principal, host, expected):
    """StandardAuthorizerTest.testHostAddressAclValidation: alice is denied READ foo
    from host1 only; bob may READ bar from host2 only; anyone may DESCRIBE bar from
    the local address (upstream: InetAddress.getLocalHost(); here a fixed address)."""
    authz = build(profile, [
        AclBinding.of("DENY", "User:alice", "READ", "TOPIC", "foo", host=HOST1),
        AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "foo"),
        AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "bar", host=HOST2),
        AclBinding.of("ALLOW", "User:*", "DESCRIBE", "TOPIC", "bar", host=LOCAL),
    ])
    actions = [("READ", "TOPIC", "foo"), ("READ", "TOPIC", "bar"), ("DESCRIBE", "TOPIC", "bar")]
    assert results(authz, principal, actions, host) == expected


MANY_ACLS = [
    AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "green2"),
    AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "green", "PREFIXED"),
    AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "betamax4"),
    AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "betamax"),
    AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "beta", "PREFIXED"),
    AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", "alpha", "PREFIXED"),
    AclBinding.of("DENY", "User:bob", "READ", "TOPIC", "alp", "PREFIXED"),
    AclBinding.of("ALLOW", "User:bob", "WRITE", "GROUP", "*"),
    AclBinding.of("DENY", "User:*", "WRITE", "GROUP", "wheel"),
]


def test_authorization_with_many_acls(profile, build):
    """StandardAuthorizerTest.testAuthorizationWithManyAcls: a prefixed ALLOW on
    ``green`` admits green1; a ``User:*`` DENY on group wheel beats bob's wildcard
    ALLOW; a shorter prefixed DENY (alp) beats a longer prefixed ALLOW (alpha); a
    name with no ACL at all (ala) gets the default, DENIED."""
    authz = build(profile, MANY_ACLS)
    assert results(authz, "User:bob", [("READ", "TOPIC", "green1"), ("WRITE", "GROUP", "wheel")]) == [
        ALLOWED, DENIED,
    ]
    assert results(authz, "User:bob", [
        ("READ", "TOPIC", "alpha"), ("WRITE", "GROUP", "arbitrary"), ("READ", "TOPIC", "ala"),
    ]) == [DENIED, ALLOWED, DENIED]


def test_deny_audit_logging_names_the_matching_rule(profile, build, decide_one):
    """StandardAuthorizerTest.testDenyAuditLogging (the rule part): bob's READ on alpha
    is DENIED *because of* the PREFIXED ``alp`` DENY, which the audit line names."""
    decision = decide_one(build(profile, MANY_ACLS), "User:bob", "READ", "TOPIC", "alpha")
    assert decision.result is DENIED and decision.rule is Rule.DENY_ACL
    assert decision.acls == (MANY_ACLS[6],)


def test_allow_audit_logging_names_the_matching_rule(profile, build, decide_one):
    """StandardAuthorizerTest.testAllowAuditLogging (the rule part): bob's READ on green1
    is ALLOWED because of the PREFIXED ``green`` ALLOW."""
    decision = decide_one(build(profile, MANY_ACLS), "User:bob", "READ", "TOPIC", "green1")
    assert decision.result is ALLOWED and decision.rule is Rule.ALLOW_ACL
    assert decision.acls == (MANY_ACLS[1],)


# -- lifecycle -------------------------------------------------------------------------------


def test_start_with_early_start_listeners_is_not_ready_until_loaded(profile):
    """StandardAuthorizerTest.testStartWithEarlyStartListeners (what is modelled): a new
    StandardAuthorizer is not ready; only the early-start listeners would serve."""
    assert ReferenceAuthorizer(profile).ready is False


def test_authorization_prior_to_complete_initial_load(profile, build):
    """StandardAuthorizerTest.testAuthorizationPriorToCompleteInitialLoad: before the
    initial load a non-super-user's whole batch fails with AuthorizerNotReadyException;
    a super user gets an answer for every action."""
    authz = build(profile, super_users=["User:superman"], loaded=False)
    batch = [("READ", "TOPIC", "green1"), ("READ", "TOPIC", "green2")]
    context = RequestContext(parse_principal("User:bob"))
    actions = [Action(AclOperation[o], ResourcePattern(ResourceType[t], n)) for o, t, n in batch]
    decisions = authz.authorize(context, actions)
    assert [d.result for d in decisions] == [ERROR, ERROR]
    assert {d.error for d in decisions} == {"not-ready"}
    assert results(authz, "User:superman", [("READ", "TOPIC", "green1"), ("WRITE", "GROUP", "wheel")]) == [
        ALLOWED, ALLOWED,
    ]


def test_complete_initial_load(profile, build, check):
    """StandardAuthorizerTest.testCompleteInitialLoad: completing the load makes the
    authorizer answer everyone."""
    authz = build(profile, super_users=["User:superman"], loaded=False)
    authz.complete_initial_load()
    assert authz.ready
    assert check(authz, "User:bob", "READ", "TOPIC", "t") is DENIED


def test_prefix_acls(profile, build):
    """StandardAuthorizerTest.testPrefixAcls (KAFKA-14265 regression): the PREFIXED ``f``
    ACL must be found for ``foobarr`` although ``fooa`` (prefixed) and ``foobar``
    (literal) sit between them in the descending name order."""
    authz = build(profile, [
        AclBinding.of("ALLOW", "User:alice", "ALL", "TOPIC", "fooa", "PREFIXED"),
        AclBinding.of("ALLOW", "User:bob", "ALL", "TOPIC", "foobar"),
        AclBinding.of("ALLOW", "User:bob", "ALL", "TOPIC", "f", "PREFIXED"),
    ], super_users=["User:superman"])
    assert results(authz, "User:bob", [
        ("WRITE", "TOPIC", "foobarr"), ("READ", "TOPIC", "goobar"), ("READ", "TOPIC", "fooa"),
    ]) == [ALLOWED, DENIED, ALLOWED]
    assert results(authz, "User:alice", [
        ("DESCRIBE", "TOPIC", "fooa"), ("WRITE", "TOPIC", "bar"), ("READ", "TOPIC", "baz"),
    ]) == [ALLOWED, DENIED, DENIED]


# Not encoded (nothing in the reference models them):
# - testDenyAuditLogging / testAllowAuditLogging: the log level (INFO/DEBUG/TRACE by
#   logIfDenied/logIfAllowed) and the exact message layout.
# - testStartWithEarlyStartListeners: the per-listener futures returned by start().
# - testCompleteInitialLoadWithException: completing the load exceptionally (futures
#   fail, the authorizer stays not-ready); complete_initial_load() takes no error.
# - testAuthorizerMetrics (HEAD only): plugin metrics.
