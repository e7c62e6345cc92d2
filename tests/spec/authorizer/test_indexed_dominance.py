"""The two speed-ups of issue 18 held to the spec: R as a lazily merged view
(``reference/indexed/merged.py``) and the by-name search for an undominated
ALLOW (``reference/indexed/dominance.py``).

The by-name walk only runs when the insertion-order walk is slow, which the
small random sets of ``test_indexed_differential.py`` never are; here it is
forced (the insertion-order walk replaced by one that never finishes) and also
raced step by step, on ACL sets rich in DENY prefixes: nested prefixes, ``*``
and names starting with ``*``, the empty name, every profile.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_conformance.reference import (
    AclBinding,
    AclOperation,
    AclStore,
    Action,
    AddAcl,
    AuthorizerConfig,
    ByTypeVariant,
    KafkaPrincipal,
    Profile,
    RemoveAcl,
    RequestContext,
    ResourcePattern,
    ResourceType,
    Rule,
    authorize_by_resource_type,
    decide,
    profile_for,
)
from kafka_conformance.reference.indexed import acls as acls_module
from kafka_conformance.reference.indexed import dominance
from kafka_conformance.reference.indexed.acls import IndexedAcls
from kafka_conformance.reference.indexed.merged import MergedAcls

PROFILES = [
    profile_for("3.2.0", "standard"),  # KAFKA-14265 union walk
    profile_for("3.3.1", "standard"),
    profile_for("3.9.0", "acl"),
    profile_for("2.0.0", "acl"),  # KAFKA-7702
    profile_for("4.3.0", "standard"),  # '*...' names skip LITERAL '*'
]
STEMS = ["", "*", "**", "*a", "a", "ab", "abc", "abd", "b", "ba", "\U0010ffff", "a\U0010ffff", "é"]
ALICE = KafkaPrincipal("User", "alice")
HOSTS = ["*", "10.0.0.1"]


@st.composite
def dense_acls(draw: st.DrawFn) -> list[AclBinding]:
    """Many ALLOWs under a few DENY prefixes (often nested), for alice or ``User:*``."""
    names = st.sampled_from(STEMS).flatmap(lambda s: st.sampled_from([s, s + "x", s + "a", s + "xy"]))
    acl = st.builds(
        AclBinding.of,
        st.sampled_from(["ALLOW"] * 3 + ["DENY"]),
        st.sampled_from(["User:alice", "User:*", "User:bob"]),
        st.sampled_from(["READ", "READ", "ALL", "WRITE"]),
        st.just("TOPIC"),
        names,
        st.sampled_from(["LITERAL", "PREFIXED"]),
        st.sampled_from(HOSTS),
    )
    return draw(st.lists(acl, min_size=1, max_size=60, unique=True))


def _never(streams: object, accept: object) -> Iterator[None]:
    while True:
        yield


@pytest.fixture(params=["by-name only", "raced step by step", "as shipped"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "by-name only":
        monkeypatch.setattr(dominance, "_in_order", _never)
        monkeypatch.setattr(dominance, "_ALONE", 0)
    elif request.param == "raced step by step":
        monkeypatch.setattr(dominance, "_ALONE", 0)
        monkeypatch.setattr(dominance, "_CHUNK", 1)
    return str(request.param)


def _same_by_type(acls: list[AclBinding], index: IndexedAcls, profile: Profile) -> None:
    for host in ("10.0.0.1", "*"):
        for principal in (ALICE, KafkaPrincipal("User", "carol")):
            context = RequestContext(principal, host)
            for op in (AclOperation.READ, AclOperation.ALL):
                for allow_everyone in (False, True):
                    config = AuthorizerConfig(frozenset(), allow_everyone)
                    for variant in (ByTypeVariant.INTERFACE_DEFAULT, ByTypeVariant.ACL_AUTHORIZER):
                        want = authorize_by_resource_type(acls, context, op, ResourceType.TOPIC, config, profile, variant)
                        got = index.authorize_by_resource_type(context, op, ResourceType.TOPIC, config, profile, variant)
                        assert got == want, (variant, context, op, config)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dense_acls(), st.sampled_from(PROFILES))
def test_by_type_search_equals_spec(walk: str, acls: list[AclBinding], profile: Profile) -> None:
    """Both walks, alone and raced, give the spec's answer (the same ACL, the same rule)."""
    _same_by_type(acls, IndexedAcls(acls), profile)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dense_acls(), st.lists(st.tuples(st.booleans(), st.integers(0, 59)), max_size=12), st.booleans())
def test_sorted_keys_follow_records(
    walk: str, acls: list[AclBinding], changes: list[tuple[bool, int]], bulk: bool
) -> None:
    """The by-name keys, once built (by a bulk load, or by the first query), are
    kept up to date by later adds and removes."""
    store = AclStore()
    for n, acl in enumerate(acls):
        store.apply(AddAcl(f"a{n}", acl))
    if bulk:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(acls_module, "EAGER_KEYS", 1)
            index = IndexedAcls(store.by_id)
        assert all(s.keys_literal is not None for t in index._types.values() for s in t.scan.values())
    else:
        index = IndexedAcls()
        for n, acl in enumerate(acls):
            index.apply(AddAcl(f"a{n}", acl))
        _same_by_type(store.bindings(), index, PROFILES[-1])  # builds the keys
    for n, (remove, at) in enumerate(changes):
        live = list(store.by_id)
        if remove and live:
            record: AddAcl | RemoveAcl = RemoveAcl(live[at % len(live)])
        else:
            binding = acls[at % len(acls)]
            if binding in store.by_id.values():
                continue
            record = AddAcl(f"r{n}", binding)
        store.apply(record)
        index.apply(record)
        _same_by_type(store.bindings(), index, PROFILES[-1])


def test_one_deny_prefix_over_many_allows_is_skipped_in_one_jump(walk: str) -> None:
    """The benchmark's all-dominated shape: every ALLOW under one DENY prefix."""
    acls = [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", f"res-{i}", "PREFIXED" if i % 5 else "LITERAL") for i in range(300)]
    acls.insert(150, AclBinding.of("DENY", "User:alice", "READ", "TOPIC", "res-", "PREFIXED", "10.0.0.1"))
    acls.append(AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "other", "LITERAL"))
    index = IndexedAcls(acls)
    for profile in PROFILES:
        _same_by_type(acls, index, profile)
    answer = index.authorize_by_resource_type(
        RequestContext(ALICE, "10.0.0.1"), AclOperation.READ, ResourceType.TOPIC, AuthorizerConfig(), PROFILES[-1],
        ByTypeVariant.INTERFACE_DEFAULT,
    )
    assert answer.rule is Rule.BY_TYPE_UNDOMINATED_ALLOW and answer.acls == (acls[-1],)


POOL = ["a", "ab", "abc", "ax", "b", "*", "*a", "**", "é", "\U0010ffff", "\U0010ffffa", "a\U0010ffff", "a\U0010ffffz"]


@pytest.mark.parametrize("walk", ["by-name only"], indirect=True)
def test_two_allows_one_deny_prefix_every_combination(walk: str) -> None:
    """Exhaustive small cases: a dominated ALLOW beside an undominated one, whichever
    sorts first and whichever was added first; a wrong jump shows up here."""
    context, profile, config = RequestContext(ALICE, "h"), PROFILES[-1], AuthorizerConfig()
    for deny in POOL:
        for first in POOL:
            for second in POOL:
                if first == second:
                    continue
                acls = [
                    AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", first, "PREFIXED"),
                    AclBinding.of("ALLOW", "User:*", "READ", "TOPIC", second, "LITERAL"),
                    AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", second, "PREFIXED"),
                    AclBinding.of("DENY", "User:alice", "READ", "TOPIC", deny, "PREFIXED"),
                ]
                index = IndexedAcls(acls)
                for variant in (ByTypeVariant.INTERFACE_DEFAULT, ByTypeVariant.ACL_AUTHORIZER):
                    want = authorize_by_resource_type(acls, context, AclOperation.READ, ResourceType.TOPIC, config, profile, variant)
                    got = index.authorize_by_resource_type(context, AclOperation.READ, ResourceType.TOPIC, config, profile, variant)
                    assert got == want, (deny, first, second, variant)


@pytest.mark.parametrize("stem", ["a", "ab", "\U0010ffff", "a\U0010ffff", "\U0010ffff\U0010ffff", "é"])
def test_after_bounds_exactly_the_names_a_stem_starts(stem: str) -> None:
    bound = dominance.after(stem)
    for name in ["", "a", "ab", "abc", "b", "\U0010ffff", "\U0010ffffa", "a\U0010ffffz", "é", "éa", "ê", stem, stem + "z"]:
        inside = stem <= name and (bound is None or name < bound)
        assert inside == name.startswith(stem), (stem, name, bound)


# -- R as a merged view ---------------------------------------------------------------
def _interleaved() -> list[AclBinding]:
    """ACLs added alternately to '*', 'foo' and the prefixes 'f'/'fo': overlapping ranges."""
    out = []
    for i in range(12):
        name, pattern = [("*", "LITERAL"), ("foo", "LITERAL"), ("f", "PREFIXED"), ("fo", "PREFIXED")][i % 4]
        out.append(AclBinding.of("ALLOW", f"User:u{i}", "READ", "TOPIC", name, pattern, f"10.0.0.{i}"))
    return out


def _blocks() -> list[AclBinding]:
    """Each name's ACLs added together, '*' first: disjoint ranges in another order than the lookup's."""
    return [
        AclBinding.of("ALLOW", f"User:u{i}", "READ", "TOPIC", name, pattern)
        for name, pattern in [("*", "LITERAL"), ("fo", "PREFIXED"), ("foo", "LITERAL"), ("f", "PREFIXED")]
        for i in range(3)
    ]


@pytest.mark.parametrize("profile", PROFILES, ids=str)
@pytest.mark.parametrize("make", [_interleaved, _blocks])
def test_no_acl_applied_lists_r_as_the_spec_does(profile: Profile, make: Callable[[], list[AclBinding]]) -> None:
    acls = make()
    index = IndexedAcls(acls)
    context = RequestContext(ALICE, "10.0.0.99")
    for name in ["foo", "fooz", "fo", "x", "*", "*x"]:
        action = Action(AclOperation.WRITE, ResourcePattern(ResourceType.TOPIC, name))
        want = decide(acls, context, action, AuthorizerConfig(), profile)
        for _ in range(3):  # first ask, memoised, memoised and read
            got = index.decide(context, action, AuthorizerConfig(), profile)
            assert got == want and want == got
            assert hash(got) == hash(want) and repr(got) == repr(want)
            assert tuple(got.acls) == want.acls and len(got.acls) == len(want.acls)
            assert got.explain() == want.explain()


def test_a_given_answer_does_not_change_with_the_index() -> None:
    """The view holds the buckets' snapshots: later records never alter an answer."""
    acls = _interleaved()
    index = IndexedAcls(acls)
    context, profile = RequestContext(ALICE, "10.0.0.99"), profile_for("4.3.0")
    action = Action(AclOperation.WRITE, ResourcePattern(ResourceType.TOPIC, "foo"))
    before = index.decide(context, action, AuthorizerConfig(), profile)
    want = decide(acls, context, action, AuthorizerConfig(), profile)
    index.apply(AddAcl("late", AclBinding.of("ALLOW", "User:z", "READ", "TOPIC", "*", "LITERAL")))
    index.apply(RemoveAcl("acl-1"))
    assert before == want and list(before.acls) == list(want.acls)


def test_view_behaves_as_the_tuple() -> None:
    acls = _interleaved()
    view = MergedAcls([[((3, 7), (acls[3], acls[7])), ((1, 5), (acls[1], acls[5]))], [((9,), (acls[9],))]])
    plain = (acls[1], acls[3], acls[5], acls[7], acls[9])
    assert view == plain and plain == view and (view != plain) is False
    assert view != plain[:4] and view != plain[::-1] and view != list(plain)
    assert hash(view) == hash(plain) and repr(view) == repr(plain) and len(view) == 5 and bool(view)
    assert view[0] == acls[1] and view[-1] == acls[9] and view[:2] == plain[:2] and acls[5] in view
    extra = (acls[0],)
    assert view + extra == (*plain, acls[0]) and extra + view == (acls[0], *plain)
    assert pickle.loads(pickle.dumps(view)) == plain and type(pickle.loads(pickle.dumps(view))) is tuple
    assert copy.deepcopy(view) == plain and list(view) == list(plain)
    assert not MergedAcls([]) and MergedAcls([]) == ()


def test_records_after_a_bulk_load_reach_the_sorted_keys(walk: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The only undominated ALLOW arrives (and leaves) by record after the keys were sorted."""
    monkeypatch.setattr(acls_module, "EAGER_KEYS", 1)
    base = [AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", f"res-{i}", "PREFIXED" if i % 5 else "LITERAL") for i in range(50)]
    base.append(AclBinding.of("DENY", "User:alice", "READ", "TOPIC", "res-", "PREFIXED"))
    store = AclStore()
    for n, acl in enumerate(base):
        store.apply(AddAcl(f"b{n}", acl))
    index = IndexedAcls(store.by_id)
    late = [
        AddAcl("x1", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "other", "LITERAL")),
        AddAcl("x2", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "res", "PREFIXED")),
        RemoveAcl("x1"),
        AddAcl("x3", AclBinding.of("DENY", "User:alice", "READ", "TOPIC", "r", "PREFIXED")),
        AddAcl("x4", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "res-9", "LITERAL")),
        RemoveAcl("x3"),
        RemoveAcl("x2"),
        AddAcl("x1", AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "other", "LITERAL")),
    ]
    seen = set()
    for record in late:
        store.apply(record)
        index.apply(record)
        _same_by_type(store.bindings(), index, PROFILES[-1])
        answer = index.authorize_by_resource_type(
            RequestContext(ALICE, "h"), AclOperation.READ, ResourceType.TOPIC, AuthorizerConfig(), PROFILES[-1],
            ByTypeVariant.INTERFACE_DEFAULT,
        )
        seen.add(answer.rule)
    assert seen == {Rule.BY_TYPE_UNDOMINATED_ALLOW, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW}
