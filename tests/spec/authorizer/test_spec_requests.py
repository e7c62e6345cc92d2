"""Request-level ACL rules: one test per row of the table of ``docs/spec/authorization.md`` §4,
one per version boundary, the two AuthorizerIntegrationTest facts, and properties of
InitProducerId under the three authorizeByResourceType variants."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kafka_conformance.reference import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclValueError,
    Action,
    AuthorizerConfig,
    ByTypeVariant,
    ReferenceAuthorizer,
    RequestContext,
    ResourcePattern,
    ResourceType,
    parse_principal,
    profile_for,
)
from kafka_conformance.reference.acl.filters import AccessControlEntryFilter
from kafka_conformance.reference.requests.outcome import RequestOutcome, authorize_request
from kafka_conformance.reference.requests.rules import (
    AddOffsetsToTxn,
    AddPartitionsToTxn,
    ByResourceType,
    DescribeProducers,
    EndTxn,
    ErrorCode,
    Fetch,
    FindCoordinator,
    InitProducerId,
    Produce,
    Request,
    TxnOffsetCommit,
    WriteTxnMarkers,
    idempotent_write_deprecated,
    idempotent_write_required,
    internal_topics,
    required_checks,
)

ALICE = "User:alice"
CTX = RequestContext(parse_principal(ALICE))
E = ErrorCode


def allow(op: str, rtype: str, name: str, pattern: str = "LITERAL", who: str = ALICE) -> AclBinding:
    return AclBinding.of("ALLOW", who, op, rtype, name, pattern)


def deny(op: str, rtype: str, name: str, pattern: str = "LITERAL", who: str = ALICE) -> AclBinding:
    return AclBinding.of("DENY", who, op, rtype, name, pattern)


def make(*acls: AclBinding, version: str = "3.9.0", flavour: str = "acl",
         config: AuthorizerConfig | None = None) -> ReferenceAuthorizer:
    authorizer = ReferenceAuthorizer(profile_for(version, flavour), config)
    authorizer.complete_initial_load()
    assert [r.error for r in authorizer.create_acls(acls)] == [None] * len(acls)
    return authorizer


def run(authorizer: ReferenceAuthorizer, request: Request,
        variant: ByTypeVariant | None = None) -> RequestOutcome:
    return authorize_request(authorizer, CTX, request, variant=variant)


def write_topic(name: str) -> Action:
    return Action(AclOperation.WRITE, ResourcePattern(ResourceType.TOPIC, name))


# -- Errors.java ----------------------------------------------------------------------


def test_error_codes_are_kafkas() -> None:
    assert {e.name: e.code for e in ErrorCode} == {
        "UNKNOWN_SERVER_ERROR": -1,
        "TOPIC_AUTHORIZATION_FAILED": 29,
        "GROUP_AUTHORIZATION_FAILED": 30,
        "CLUSTER_AUTHORIZATION_FAILED": 31,
        "TRANSACTIONAL_ID_AUTHORIZATION_FAILED": 53,
        "OPERATION_NOT_ATTEMPTED": 55,
    }


# -- one test per row of §4 --------------------------------------------------------------


@pytest.mark.parametrize("idempotent", [False, True])
def test_produce_non_transactional_needs_write_per_topic(idempotent: bool) -> None:
    out = run(make(allow("WRITE", "TOPIC", "t1")), Produce(["t1", "t2", "t1"], idempotent=idempotent))
    assert out.error is None
    assert out.topic_errors == (("t2", E.TOPIC_AUTHORIZATION_FAILED),)
    assert out.error_for("t1") is None


def test_produce_transactional_needs_write_on_id_before_topics() -> None:
    request = Produce(["t"], transactional_id="tx")
    denied = run(make(allow("WRITE", "TOPIC", "t")), request)
    assert denied.error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert len(denied.results) == 1  # topics never asked
    assert denied.error_for("t") is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED  # wire: every partition
    assert run(make(allow("WRITE", "TOPIC", "t"), allow("WRITE", "TRANSACTIONAL_ID", "tx")), request).granted


def test_produce_transactional_without_id_is_refused_even_for_super_users() -> None:
    config = AuthorizerConfig.of([ALICE])
    out = run(make(config=config), Produce(["t"], transactional=True))
    assert out.error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert out.decisions == ()


def test_init_producer_id_with_transactional_id_needs_only_write_on_it() -> None:
    request = InitProducerId("tx")
    assert [str(c) for c in required_checks(request, profile_for())] == [
        "WRITE TRANSACTIONAL_ID 'tx' else TRANSACTIONAL_ID_AUTHORIZATION_FAILED"
    ]
    assert run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx")), request).granted
    everything_else = make(allow("IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
                           allow("WRITE", "TOPIC", "*"), allow("DESCRIBE", "TRANSACTIONAL_ID", "tx"))
    assert run(everything_else, request).error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


def test_init_producer_id_without_transactional_id_idempotent_write_suffices() -> None:
    out = run(make(allow("IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster")), InitProducerId())
    assert out.granted
    assert len(out.decisions) == 1  # the by-type query is not asked (Kafka's ||)


def test_init_producer_id_without_transactional_id_write_on_any_topic_suffices() -> None:
    out = run(make(allow("WRITE", "TOPIC", "orders", "PREFIXED")), InitProducerId())
    assert out.granted
    assert len(out.decisions) == 2
    assert run(make(allow("READ", "TOPIC", "*")), InitProducerId()).error is E.CLUSTER_AUTHORIZATION_FAILED


def test_add_partitions_to_txn_needs_write_on_id() -> None:
    out = run(make(allow("WRITE", "TOPIC", "*")), AddPartitionsToTxn("tx", ["a", "b"]))
    assert out.error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


def test_add_partitions_to_txn_one_topic_failing_fails_the_whole_transaction() -> None:
    authorizer = make(allow("WRITE", "TRANSACTIONAL_ID", "tx"), allow("WRITE", "TOPIC", "a"))
    out = run(authorizer, AddPartitionsToTxn("tx", ["a", "b", "c"]))
    assert out.error is None
    assert dict(out.topic_errors) == {
        "a": E.OPERATION_NOT_ATTEMPTED,
        "b": E.TOPIC_AUTHORIZATION_FAILED,
        "c": E.TOPIC_AUTHORIZATION_FAILED,
    }
    assert run(authorizer, AddPartitionsToTxn("tx", ["a"])).granted


def test_add_partitions_to_txn_internal_topics_are_never_authorized() -> None:
    out = run(make(config=AuthorizerConfig.of([ALICE])),
              AddPartitionsToTxn("tx", ["a", "__transaction_state"]))
    assert dict(out.topic_errors) == {
        "a": E.OPERATION_NOT_ATTEMPTED,
        "__transaction_state": E.TOPIC_AUTHORIZATION_FAILED,
    }


def test_add_partitions_to_txn_v4_needs_cluster_action_only() -> None:
    request = AddPartitionsToTxn("tx", ["a", "__consumer_offsets"], version=4)
    assert run(make(allow("CLUSTER_ACTION", "CLUSTER", "kafka-cluster")), request).granted
    txn_and_topics = make(allow("WRITE", "TRANSACTIONAL_ID", "tx"), allow("WRITE", "TOPIC", "*"))
    assert run(txn_and_topics, request).error is E.CLUSTER_AUTHORIZATION_FAILED


def test_add_offsets_to_txn_checks_id_then_group() -> None:
    request = AddOffsetsToTxn("tx", "g")
    assert run(make(allow("READ", "GROUP", "g")), request).error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    only_txn = run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx")), request)
    assert only_txn.error is E.GROUP_AUTHORIZATION_FAILED
    assert run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx"), allow("READ", "GROUP", "g")), request).granted


def test_txn_offset_commit_checks_id_group_then_read_per_topic() -> None:
    request = TxnOffsetCommit("tx", "g", ["a", "b"])
    assert run(make(), request).error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    no_group = make(allow("WRITE", "TRANSACTIONAL_ID", "tx"), allow("READ", "TOPIC", "*"))
    assert run(no_group, request).error is E.GROUP_AUTHORIZATION_FAILED
    out = run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx"), allow("READ", "GROUP", "g"),
                   allow("READ", "TOPIC", "a")), request)
    assert out.error is None
    assert out.topic_errors == (("b", E.TOPIC_AUTHORIZATION_FAILED),)  # no OPERATION_NOT_ATTEMPTED


def test_end_txn_needs_write_on_id() -> None:
    assert run(make(allow("DESCRIBE", "TRANSACTIONAL_ID", "tx")), EndTxn("tx")).error is (
        E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    )
    assert run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx")), EndTxn("tx")).granted


def test_find_coordinator_transaction_key_write_implies_describe() -> None:
    request = FindCoordinator("tx", "transaction")
    assert run(make(allow("WRITE", "TRANSACTIONAL_ID", "tx")), request).granted
    assert run(make(allow("WRITE", "GROUP", "tx")), request).error is E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


def test_find_coordinator_group_key_needs_describe_group() -> None:
    assert run(make(allow("READ", "GROUP", "g")), FindCoordinator("g")).granted
    denied = run(make(allow("READ", "GROUP", "g"), deny("DESCRIBE", "GROUP", "g")), FindCoordinator("g"))
    assert denied.error is E.GROUP_AUTHORIZATION_FAILED


def test_write_txn_markers_needs_cluster_action() -> None:
    assert run(make(allow("CLUSTER_ACTION", "CLUSTER", "kafka-cluster")), WriteTxnMarkers(["t"])).granted
    assert run(make(allow("WRITE", "TOPIC", "t")), WriteTxnMarkers(["t"])).error is (
        E.CLUSTER_AUTHORIZATION_FAILED
    )


def test_describe_producers_needs_read_per_topic() -> None:
    out = run(make(allow("READ", "TOPIC", "a")), DescribeProducers(["a", "b"]))
    assert out.topic_errors == (("b", E.TOPIC_AUTHORIZATION_FAILED),)


def test_fetch_from_a_replica_needs_cluster_action_else_every_partition_fails() -> None:
    out = run(make(allow("READ", "TOPIC", "*")), Fetch(["a", "b"], replica=True))
    assert out.error is None
    assert dict(out.topic_errors) == {"a": E.TOPIC_AUTHORIZATION_FAILED, "b": E.TOPIC_AUTHORIZATION_FAILED}
    assert run(make(allow("CLUSTER_ACTION", "CLUSTER", "kafka-cluster")), Fetch(["a"], replica=True)).granted


def test_fetch_from_a_consumer_needs_read_per_topic() -> None:
    out = run(make(allow("READ", "TOPIC", "a")), Fetch(["a", "b"]))
    assert out.topic_errors == (("b", E.TOPIC_AUTHORIZATION_FAILED),)


def test_a_bare_string_is_not_a_topic_list() -> None:
    with pytest.raises(AclValueError):
        Produce("orders")  # a str is an Iterable[str], so only the converter catches it


# -- version boundaries --------------------------------------------------------------------


def test_init_producer_id_2_7_needs_idempotent_write_2_8_accepts_topic_write() -> None:
    topic_write = allow("WRITE", "TOPIC", "t")
    old = make(topic_write, version="2.7.0")
    assert not any(isinstance(a, ByResourceType)
                   for c in required_checks(InitProducerId(), old.profile) for a in c.any_of)
    assert run(old, InitProducerId()).error is E.CLUSTER_AUTHORIZATION_FAILED  # no AclValueError
    assert run(make(topic_write, version="2.8.0"), InitProducerId()).granted
    assert run(make(allow("IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"), version="2.7.0"),
               InitProducerId()).granted


def test_idempotent_produce_2_7_needs_idempotent_write_2_8_does_not() -> None:
    topic_write = allow("WRITE", "TOPIC", "t")
    assert run(make(topic_write, version="2.7.0"), Produce(["t"], idempotent=True)).error is (
        E.CLUSTER_AUTHORIZATION_FAILED
    )
    assert run(make(topic_write, version="2.7.0"), Produce(["t"])).granted
    assert run(make(topic_write, version="2.8.0"), Produce(["t"], idempotent=True)).granted


def test_transactional_produce_2_7_does_not_need_idempotent_write() -> None:
    acls = (allow("WRITE", "TOPIC", "t"), allow("WRITE", "TRANSACTIONAL_ID", "tx"))
    request = Produce(["t"], transactional_id="tx", idempotent=True)
    assert run(make(*acls, version="2.7.0"), request).granted


def test_add_partitions_to_txn_v4_arrives_in_3_5_0() -> None:
    request = AddPartitionsToTxn("tx", ["t"], version=4)
    with pytest.raises(AclValueError):
        required_checks(request, profile_for("3.4.1", "acl"))
    assert [str(c) for c in required_checks(request, profile_for("3.5.0", "acl"))] == [
        "CLUSTER_ACTION CLUSTER 'kafka-cluster' else CLUSTER_AUTHORIZATION_FAILED [v4+, broker to broker]"
    ]


def test_write_txn_markers_accepts_alter_from_3_8_0() -> None:
    alter = allow("ALTER", "CLUSTER", "kafka-cluster")
    assert run(make(alter, version="3.7.0"), WriteTxnMarkers()).error is E.CLUSTER_AUTHORIZATION_FAILED
    assert run(make(alter, version="3.8.0"), WriteTxnMarkers()).granted


def test_share_group_state_is_internal_from_3_9_0() -> None:
    assert "__share_group_state" not in internal_topics(profile_for("3.8.0", "acl"))
    assert "__share_group_state" in internal_topics(profile_for("3.9.0", "acl"))


def test_describe_producers_arrives_in_2_8_0() -> None:
    with pytest.raises(AclValueError):
        required_checks(DescribeProducers(["t"]), profile_for("2.7.0", "acl"))


def test_idempotent_write_required_and_deprecated() -> None:
    by_version = {v: profile_for(v, "acl") for v in ("2.7.0", "2.8.0", "2.8.2", "3.0.0", "3.9.0")}
    assert [idempotent_write_required(p) for p in by_version.values()] == [True, False, False, False, False]
    assert [idempotent_write_deprecated(p) for p in by_version.values()] == [False, False, False, True, True]


# -- AuthorizerIntegrationTest facts ---------------------------------------------------------


@pytest.mark.parametrize(("version", "flavour"), [("4.3.0", "standard"), ("3.9.0", "acl")])
def test_idempotent_producer_no_idempotent_write_acl_in_init_producer_id(version: str, flavour: str) -> None:
    authorizer = make(allow("READ", "TOPIC", "topic"), version=version, flavour=flavour)
    assert run(authorizer, InitProducerId()).error is E.CLUSTER_AUTHORIZATION_FAILED


@pytest.mark.parametrize(("version", "flavour"), [("4.3.0", "standard"), ("3.9.0", "acl")])
def test_idempotent_producer_no_idempotent_write_acl_in_produce(version: str, flavour: str) -> None:
    authorizer = make(allow("WRITE", "TOPIC", "topic"), allow("IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
                      version=version, flavour=flavour)
    assert run(authorizer, InitProducerId()).granted
    assert run(authorizer, Produce(["topic"], idempotent=True)).granted
    authorizer.delete_acls([AclBindingFilter(entry=AccessControlEntryFilter(principal=ALICE))])
    authorizer.create_acls([allow("DESCRIBE", "TOPIC", "topic")])
    out = run(authorizer, Produce(["topic"], idempotent=True))
    assert out.topic_errors == (("topic", E.TOPIC_AUTHORIZATION_FAILED),)


# -- authorizer errors -----------------------------------------------------------------------


def test_not_ready_authorizer_fails_the_request_with_unknown_server_error() -> None:
    authorizer = ReferenceAuthorizer(profile_for("3.9.0", "standard"), AuthorizerConfig.of(["User:admin"]))
    out = run(authorizer, InitProducerId())
    assert out.error is E.UNKNOWN_SERVER_ERROR
    assert len(out.decisions) == 1  # the throw ends the ||; the by-type query is never asked
    admin = RequestContext(parse_principal("User:admin"))
    assert authorize_request(authorizer, admin, InitProducerId()).granted


# -- properties of InitProducerId without a transactional id (2.8.0+) -------------------------

# StandardAuthorizer 3.2.0-3.3.0 is left out: its KAFKA-14265 lookup can miss a DENY that the
# by-type scan sees (see test_prefix_shadowing_era_can_refuse_a_producer_that_may_write).
PROFILES = [("2.8.0", "acl"), ("3.9.0", "acl"), ("3.3.1", "standard"), ("3.9.0", "standard"), ("4.3.0", "standard")]
NAMES = ["a", "ab", "b", "h", "hardcode", "*"]


@st.composite
def worlds(draw: st.DrawFn) -> tuple[ReferenceAuthorizer, ByTypeVariant]:
    version, flavour = draw(st.sampled_from(PROFILES))
    topic_acl = st.builds(
        AclBinding.of,
        st.sampled_from(["ALLOW", "DENY"]),
        st.sampled_from([ALICE, "User:bob", "User:*"]),
        st.sampled_from(["WRITE", "READ", "ALL", "DESCRIBE"]),
        st.just("TOPIC"),
        st.sampled_from(NAMES),
        st.sampled_from(["LITERAL", "PREFIXED"]),
        host=st.sampled_from(["*", "127.0.0.1", "10.0.0.9"]),
    )
    cluster_acl = st.builds(
        AclBinding.of,
        st.sampled_from(["ALLOW", "DENY"]),
        st.sampled_from([ALICE, "User:*"]),
        st.sampled_from(["IDEMPOTENT_WRITE", "ALL", "WRITE"]),
        st.just("CLUSTER"),
        st.just("kafka-cluster"),
    )
    acls = draw(st.lists(st.one_of(topic_acl, cluster_acl), max_size=6))
    config = AuthorizerConfig.of(draw(st.sampled_from([[], [ALICE], ["User:bob"]])), draw(st.booleans()))
    authorizer = ReferenceAuthorizer(profile_for(version, flavour), config)
    authorizer.complete_initial_load()
    authorizer.create_acls(acls)  # the few the controller refuses (PREFIXED '*') are simply absent
    return authorizer, draw(st.sampled_from(list(ByTypeVariant)))


def _write_allowed_somewhere(authorizer: ReferenceAuthorizer) -> bool:
    names = [n for n in NAMES if n != "*"] + ["zz", "hx"]
    return any(authorizer.authorize_one(CTX, write_topic(n)).allowed for n in names)


@settings(deadline=None, max_examples=300)
@given(worlds())
def test_write_on_some_topic_grants_init_producer_id(world: tuple[ReferenceAuthorizer, ByTypeVariant]) -> None:
    """Holds for the contract (ground truth) and for AclAuthorizer's over-permissive
    override always; for the interface default (StandardAuthorizer) only while
    allow.everyone.if.no.acl.found is false — see the counterexample below.
    Super users pass under every variant (the default through its probe)."""
    authorizer, variant = world
    assume(variant is not ByTypeVariant.INTERFACE_DEFAULT or not authorizer.config.allow_everyone_if_no_acl_found)
    if _write_allowed_somewhere(authorizer):
        assert run(authorizer, InitProducerId(), variant=variant).granted


@settings(deadline=None, max_examples=200)
@given(worlds())
def test_ground_truth_grants_init_producer_id_only_with_a_witness(
    world: tuple[ReferenceAuthorizer, ByTypeVariant],
) -> None:
    authorizer, _ = world
    out = run(authorizer, InitProducerId(), variant=ByTypeVariant.GROUND_TRUTH)
    if out.granted and len(out.decisions) == 2:
        witness = out.decisions[1].witness
        assert witness is not None
        assert authorizer.authorize_one(CTX, write_topic(witness)).allowed


def test_interface_default_can_refuse_a_producer_allow_everyone_lets_write() -> None:
    """§3.4 row 15: allow.everyone=true and a DENY PREFIXED 'h' catches the probe name
    'hardcode'; topic 'x' has no ACL, so WRITE on it is allowed, yet the default says no.
    (Some cluster ACL must exist, or allow.everyone would grant IDEMPOTENT_WRITE itself.)"""
    acls = (deny("WRITE", "TOPIC", "h", "PREFIXED"),
            allow("IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster", who="User:bob"))
    authorizer = make(*acls, version="3.9.0", flavour="standard",
                      config=AuthorizerConfig.of([], allow_everyone=True))
    assert run(authorizer, Produce(["x"], idempotent=True)).granted
    assert run(authorizer, InitProducerId()).error is E.CLUSTER_AUTHORIZATION_FAILED
    assert run(authorizer, InitProducerId(), variant=ByTypeVariant.GROUND_TRUTH).granted
    assert run(authorizer, InitProducerId(), variant=ByTypeVariant.ACL_AUTHORIZER).granted


@pytest.mark.parametrize("variant", list(ByTypeVariant))
def test_super_user_gets_a_producer_id_under_every_variant(variant: ByTypeVariant) -> None:
    """IDEMPOTENT_WRITE already passes for a super user, so the by-type query is not even
    asked; asked anyway, every variant says yes (the default through its probe)."""
    everyone_denied = (deny("ALL", "TOPIC", "*", who="User:*"),
                       deny("ALL", "CLUSTER", "kafka-cluster", who="User:*"))
    authorizer = make(*everyone_denied, version="4.3.0", flavour="standard",
                      config=AuthorizerConfig.of([ALICE]))
    out = run(authorizer, InitProducerId(), variant=variant)
    assert out.granted
    assert len(out.decisions) == 1
    assert authorizer.authorize_by_resource_type(
        CTX, AclOperation.WRITE, ResourceType.TOPIC, variant
    ).allowed


@pytest.mark.parametrize("version", ["3.2.0", "3.3.0"])
def test_prefix_shadowing_era_can_refuse_a_producer_that_may_write(version: str) -> None:
    """KAFKA-14265: the walk down from 'foo' stops at 'fa' and never sees DENY PREFIXED 'f',
    so WRITE on 'foo' is allowed; the by-type scan does see the deny and refuses."""
    acls = (allow("WRITE", "TOPIC", "foo"), deny("WRITE", "TOPIC", "f", "PREFIXED"), allow("READ", "TOPIC", "fa"))
    authorizer = make(*acls, version=version, flavour="standard")
    assert run(authorizer, Produce(["foo"], idempotent=True)).granted
    assert run(authorizer, InitProducerId()).error is E.CLUSTER_AUTHORIZATION_FAILED
