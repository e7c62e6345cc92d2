"""Kafka 4.3.0's real ``Authorizer.authorizeByResourceType`` default against the reference.

The target ``kafka-default-by-type`` runs Kafka's interface default method
(kafka-clients 4.3.0) on top of our ``ListAuthorizer`` (adapters/jvm/), whose
authorize() -- the default's "hardcode" probe -- is OUR Java restatement of
StandardAuthorizer; the ``authorize`` property checks that part against the
reference first, so a by-type disagreement is Kafka's default against the
reference's INTERFACE_DEFAULT model.

Facts: ``reference/authorizer/by_resource_type.py`` (KIP-679's interface default, with its
worked examples).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.jvm.adapter import LIST_AUTHORIZER, JvmAuthorizer
from kafka_conformance.adapters.jvm.session import JvmSession
from kafka_conformance.authorizer.report import Status
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.records import AddAcl
from kafka_conformance.reference.errors import AclValueError, KafkaException

ALLOWED, DENIED, ERROR = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED, AuthorizationResult.ERROR
ALICE = RequestContext(parse_principal("User:alice"), "10.0.0.1")


def _passed(properties: Sequence[str], examples: int, mode: str = "well-formed") -> None:
    report = check_authorizer("kafka-default-by-type", Options(seed=7, max_examples=examples), properties=properties, mode=mode)
    bad = [r for r in report.results if r.status is not Status.PASSED]
    assert not bad, bad


@pytest.mark.parametrize("mode", ["well-formed", "hostile"])
def test_kit_by_type_suite(jvm: JvmSession, mode: str) -> None:
    """The kit's own by-type property: Kafka's default equals the INTERFACE_DEFAULT variant."""
    _passed(["by-type"], 300, mode)


def test_shim_authorize_is_standard_authorizer(jvm: JvmSession) -> None:
    """Our ListAuthorizer's authorize() (the probe) and lifecycle equal the reference."""
    _passed(["authorize", "not-ready", "records", "listing"], 150, "hostile")


# -- ``docs/spec/authorization.md`` §3.4, column D -----------------------------------------------


def acl(perm: str, pattern: str, name: str, *, principal: str = "User:alice", op: str = "WRITE",
        host: str = "*", rtype: str = "TOPIC") -> AclBinding:
    return AclBinding.of(perm, principal, op, rtype, name, "LITERAL" if pattern == "LIT" else "PREFIXED", host=host)


ROWS = [  # (row, acls, super users, allow.everyone, query op, D)
    (1, [acl("ALLOW", "LIT", "foo"), acl("DENY", "PRE", "fo")], "", False, "WRITE", DENIED),
    (2, [acl("ALLOW", "PRE", "foo"), acl("DENY", "LIT", "foo")], "", False, "WRITE", ALLOWED),
    (3, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "foo")], "", False, "WRITE", DENIED),
    (4, [acl("ALLOW", "PRE", "foo"), acl("DENY", "PRE", "foo")], "", False, "WRITE", DENIED),
    (5, [acl("ALLOW", "PRE", "foo"), acl("DENY", "PRE", "foobar")], "", False, "WRITE", ALLOWED),
    (6, [acl("ALLOW", "PRE", "fo"), acl("DENY", "PRE", "f")], "", False, "WRITE", DENIED),
    (7, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "*")], "", False, "WRITE", DENIED),
    (8, [acl("ALLOW", "LIT", "*"), acl("DENY", "PRE", "f")], "", False, "WRITE", ALLOWED),
    (9, [acl("ALLOW", "LIT", "*"), acl("DENY", "LIT", "*")], "", False, "WRITE", DENIED),
    (10, [acl("ALLOW", "LIT", "foo"), acl("DENY", "LIT", "foo", host="10.9.9.9")], "", False, "WRITE", ALLOWED),
    (11, [acl("DENY", "LIT", "*", principal="User:*", op="ALL")], "User:alice", False, "WRITE", ALLOWED),
    (12, [], "", True, "WRITE", ALLOWED),
    (13, [acl("DENY", "LIT", "foo")], "", True, "WRITE", ALLOWED),
    (14, [acl("ALLOW", "LIT", "*", principal="User:bob", op="READ")], "", True, "WRITE", DENIED),
    (15, [acl("DENY", "PRE", "h")], "", True, "WRITE", DENIED),
    (16, [acl("ALLOW", "LIT", "*", op="READ")], "", False, "DESCRIBE", ALLOWED),
    (17, [acl("ALLOW", "LIT", "foo", op="ALL")], "", False, "WRITE", ALLOWED),
    (18, [acl("ALLOW", "LIT", "foo", principal="User:*")], "", False, "WRITE", ALLOWED),
    (19, [acl("ALLOW", "LIT", "foo"), acl("DENY", "PRE", "foo", op="READ")], "", False, "WRITE", ALLOWED),
    (20, [acl("ALLOW", "LIT", "foo", rtype="GROUP")], "", False, "WRITE", DENIED),
]


def _pair(jvm: JvmSession, acls: Sequence[AclBinding], props: dict[str, str], *, ready: bool = True
          ) -> tuple[JvmAuthorizer, ReferenceAuthorizer]:
    target = JvmAuthorizer(jvm, LIST_AUTHORIZER)
    ref = ReferenceAuthorizer(by_type_variant=ByTypeVariant.INTERFACE_DEFAULT)
    snapshot = {f"acl-{i}": b for i, b in enumerate(acls)}
    for side in (target, ref):
        side.configure(props)
        side.load_snapshot(snapshot)
        if ready:
            side.complete_initial_load()
    return target, ref


def _kafka(target: JvmAuthorizer, ctx: RequestContext, op: AclOperation, rtype: ResourceType) -> tuple[object, ...]:
    try:
        return (target.authorize_by_resource_type(ctx, op, rtype),)
    except KafkaException as exc:
        return (ERROR, exc.kind)


def _expected(ref: ReferenceAuthorizer, ctx: RequestContext, op: AclOperation, rtype: ResourceType) -> tuple[object, ...]:
    d = ref.authorize_by_resource_type(ctx, op, rtype)
    return (d.result,) if d.error is None else (d.result, d.error)


@pytest.mark.parametrize(("row", "acls", "supers", "flag", "op", "d"), ROWS, ids=[f"row{r[0]}" for r in ROWS])
def test_worked_example_column_d(jvm: JvmSession, row: int, acls: list[AclBinding], supers: str, flag: bool,
                                 op: str, d: AuthorizationResult) -> None:
    props = {"allow.everyone.if.no.acl.found": str(flag).lower(), "super.users": supers}
    target, ref = _pair(jvm, acls, props)
    try:
        assert _kafka(target, ALICE, AclOperation[op], ResourceType.TOPIC) == (d,)
        assert _expected(ref, ALICE, AclOperation[op], ResourceType.TOPIC) == (d,)
    finally:
        target.close()


def test_worked_example_row_21_incremental(jvm: JvmSession) -> None:
    """BaseAuthorizerTest.testAuthorizeByResourceTypePrefixedResourceDenyDominate (GROUP, READ)."""
    target, ref = _pair(jvm, [], {})
    steps = [("ALLOW", "abcde", ALLOWED), ("DENY", "abcd", DENIED), ("ALLOW", "abc", ALLOWED),
             ("DENY", "a", DENIED), ("ALLOW", "ab", DENIED)]
    try:
        for n, (perm, name, expected) in enumerate(steps):
            record = AddAcl(f"r{n}", acl(perm, "PRE", name, op="READ", rtype="GROUP"))
            target.apply(record)
            ref.apply(record)
            assert _kafka(target, ALICE, AclOperation.READ, ResourceType.GROUP) == (expected,), record
            assert _expected(ref, ALICE, AclOperation.READ, ResourceType.GROUP) == (expected,), record
    finally:
        target.close()


# -- beyond the kit's generator: odd records, invalid arguments ---------------------------------

PRINCIPALS = ["User:alice"] * 6 + ["User:*"] * 2 + ["User:bob", "Group:alice", "User:alice:x", "alice"]
NAMES = ["", "*", "h", "hardcode", "hardcodex"] + ["f", "fo", "foo", "foobar", "fob", "b"] * 2
acls = st.builds(
    AclBinding,
    st.builds(ResourcePattern, st.sampled_from([ResourceType.TOPIC] * 6 + [ResourceType.GROUP, ResourceType.UNKNOWN]),
              st.sampled_from(NAMES), st.sampled_from([PatternType.LITERAL, PatternType.PREFIXED, PatternType.UNKNOWN])),
    st.builds(AccessControlEntry, st.sampled_from(PRINCIPALS), st.sampled_from(["*", "10.0.0.1", "10.0.0.2"]),
              st.sampled_from([AclOperation.WRITE, AclOperation.ALL] * 3 + [o for o in AclOperation if o is not AclOperation.ANY]),
              st.sampled_from([AclPermissionType.ALLOW, AclPermissionType.DENY] * 3 + [AclPermissionType.UNKNOWN])),
)
# Mostly valid questions; now and then a filter-only argument or the User:* session quirk.
SESSIONS = ["User:alice"] * 4 + ["User:bob", "Group:alice", "User:alice:x", "User:*"]
queries = st.tuples(
    st.builds(RequestContext, st.sampled_from(SESSIONS).map(parse_principal), st.sampled_from(["10.0.0.1", "10.0.0.2"])),
    st.sampled_from([AclOperation.WRITE] * 8 + list(AclOperation)),
    st.sampled_from([ResourceType.TOPIC] * 8 + [ResourceType.GROUP, ResourceType.ANY, ResourceType.UNKNOWN]),
)


Question = tuple[RequestContext, AclOperation, ResourceType]


def stops_before_bad_principal(acls: Sequence[AclBinding], ctx: RequestContext, op: AclOperation,
                               rtype: ResourceType) -> bool:
    """FINDING 2 (see ``test_deny_wildcard_before_malformed_principal``): walking acls() in
    order, Kafka's default meets an applicable DENY LITERAL '*' (and returns DENIED)
    before any host-matching ACL of the type whose principal does not parse."""
    for b in acls:
        if b.pattern.resource_type is not rtype or b.entry.host not in ("*", ctx.host):
            continue
        try:
            principal = parse_principal(b.entry.principal)
        except AclValueError:
            return False
        applies = b.entry.principal == "User:*" or principal == ctx.principal
        if applies and b.entry.operation in (op, AclOperation.ALL) and b.entry.permission_type is AclPermissionType.DENY \
                and b.pattern.pattern_type is PatternType.LITERAL and b.pattern.name == "*":
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.lists(acls, max_size=8, unique=True), st.lists(queries, min_size=1, max_size=6),
       st.sampled_from(["", "User:bob"]), st.integers(0, 3).map(lambda n: n == 0), st.integers(0, 9))
def test_by_type_differential_odd_records(jvm: JvmSession, bs: list[AclBinding], qs: list[Question], supers: str,
                                          everyone: bool, not_ready: int) -> None:
    """UNKNOWN patterns, permissions and operations, unparseable principals, filter-only
    query arguments and the not-ready state: Kafka's default equals the reference."""
    target, ref = _pair(jvm, bs, {"super.users": supers, "allow.everyone.if.no.acl.found": str(everyone)},
                        ready=not_ready != 0)
    try:
        for ctx, op, rtype in qs:
            kafka, expected = _kafka(target, ctx, op, rtype), _expected(ref, ctx, op, rtype)
            if kafka == (DENIED,) and expected[0] is ERROR and stops_before_bad_principal(bs, ctx, op, rtype):
                continue  # FINDING 2
            assert kafka == expected, (ctx, op, rtype)
    finally:
        target.close()


def test_deny_wildcard_before_malformed_principal(jvm: JvmSession) -> None:
    """FINDING 2, pinned: the reference always answers ERROR when a host-matching ACL of
    the type has a principal without a colon; Kafka's default returns DENIED as soon as
    it meets an applicable DENY LITERAL '*', so its answer depends on acls() order.

    Reachable only through records (controllers reject such principals since
    KAFKA-18051).  In StandardAuthorizer acls() runs in its storage order (names
    descending), so a malformed ACL on "!x" (sorting below "*") is never reached."""
    deny_all = acl("DENY", "LIT", "*", principal="User:*")
    malformed = acl("ALLOW", "LIT", "foo", principal="alice")
    for order, kafka in (([deny_all, malformed], (DENIED,)), ([malformed, deny_all], (ERROR, "invalid-argument"))):
        target, ref = _pair(jvm, order, {})
        try:
            assert _kafka(target, ALICE, AclOperation.WRITE, ResourceType.TOPIC) == kafka
            assert _expected(ref, ALICE, AclOperation.WRITE, ResourceType.TOPIC) == (ERROR, "invalid-argument")
        finally:
            target.close()
