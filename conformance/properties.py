"""The authorizer properties: differential (against the reference), lifecycle and
metamorphic (against the target itself).

Each property is a function ``(ctx, scenario) -> None`` that raises
:class:`~kafka_conformance.driver.CaseFailed` with a
:class:`~kafka_conformance.report.Divergence` when the target is wrong, or
:class:`~kafka_conformance.driver.TargetCrashed` when it cannot answer.
Hypothesis shrinks either to a minimal scenario.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import attrs
from hypothesis import event
from hypothesis.errors import InvalidArgument

from kafka_conformance import driver
from kafka_conformance.adapters.protocol import AuthorizerUnderTest, Capabilities
from kafka_conformance.anomalies import classify
from kafka_conformance.cases import Query, Scenario, SnapshotStep
from kafka_conformance.driver import CaseFailed, Outcome, guarded
from kafka_conformance.reference.acl import (
    AclBinding,
    AclPermissionType,
    PatternType,
    ResourcePattern,
)
from kafka_conformance.reference.authorizer import ReferenceAuthorizer
from kafka_conformance.reference.by_resource_type import ByTypeVariant, candidate_names
from kafka_conformance.reference.decision import (
    Action,
    AuthorizationResult,
    Decision,
    Rule,
)
from kafka_conformance.reference.errors import ConfigError, KafkaException
from kafka_conformance.reference.filters import (
    ANY_ACL,
    AccessControlEntryFilter,
    AclBindingFilter,
    ResourcePatternFilter,
)
from kafka_conformance.reference.records import AclRecord, AddAcl, RemoveAcl
from kafka_conformance.report import Divergence

__all__ = ["PROPERTIES", "CheckContext", "Property"]


@attrs.define
class CheckContext:
    make_target: Callable[[], AuthorizerUnderTest]
    caps: Capabilities
    coverage: Counter[str] = attrs.field(factory=Counter)

    def reference(self, scenario: Scenario) -> ReferenceAuthorizer | None:
        """A configured reference, or None when the configuration itself is invalid."""
        ref = ReferenceAuthorizer(self.caps.profile(), by_type_variant=self.caps.by_type_variant)
        try:
            ref.configure(scenario.config)
        except ConfigError:
            return None
        return ref


@attrs.frozen
class Property:
    name: str
    summary: str
    check: Callable[[CheckContext, Scenario], None]
    needs: Callable[[Capabilities], str | None] = lambda caps: None
    """Returns why the property is out of scope for these capabilities, or None."""
    generator: str = "scenarios"
    """Which strategy feeds it: ``scenarios`` (snapshot + questions) or ``record_logs``."""


# -- helpers -------------------------------------------------------------------------


def _fresh(ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]] | None = None,
           *, complete: bool = True) -> AuthorizerUnderTest | None:
    """A new target configured and loaded; None if it rightly refused the configuration."""
    target = guarded("creating the target", ctx.make_target)
    try:
        guarded("configure()", lambda: target.configure(scenario.config))
    except KafkaException:
        return None
    snapshot = dict(scenario.acls if acls is None else acls)
    guarded("load_snapshot()", lambda: target.load_snapshot(snapshot))
    if complete:
        guarded("complete_initial_load()", target.complete_initial_load)
    return target


def _close(target: AuthorizerUnderTest | None) -> None:
    if target is not None:
        guarded("close()", target.close)


@contextlib.contextmanager
def _pair(ctx: CheckContext, scenario: Scenario, *, initial: bool = True,
          complete: bool = True) -> Iterator[tuple[ReferenceAuthorizer, AuthorizerUnderTest] | None]:
    """A configured reference and a fresh target, both loaded the same way
    (the scenario's snapshot, or nothing when ``initial`` is false; the initial
    load completed or not).  Yields None when the configuration is invalid for
    either (``check_authorize`` checks that they agree on that)."""
    ref = ctx.reference(scenario)
    target = _fresh(ctx, scenario, acls=None if initial else (), complete=complete)
    try:
        if ref is None or target is None:
            yield None
            return
        if initial:
            ref.load_snapshot(scenario.snapshot)
        if complete:
            ref.complete_initial_load()
        yield ref, target
    finally:
        _close(target)


def _expected_outcome(d: Decision) -> Outcome:
    return Outcome(d.result, d.error)


def _agree(ctx: CheckContext, expected: Decision, actual: Outcome) -> bool:
    if expected.result is AuthorizationResult.ERROR or actual.result is AuthorizationResult.ERROR:
        mode = ctx.caps.error_comparison
        if mode == "ignore" and expected.result is AuthorizationResult.ERROR:
            return True
        if mode == "any":
            return (expected.result is AuthorizationResult.ERROR) == (actual.result is AuthorizationResult.ERROR)
        return expected.result is actual.result and expected.error == actual.error
    return expected.result is actual.result


def _event(label: str) -> None:
    """Also count through Hypothesis (``--hypothesis-show-statistics``) when inside a test."""
    with contextlib.suppress(InvalidArgument):  # replaying a saved case: not inside a test
        event(label)


def _record_coverage(ctx: CheckContext, decision: Decision, allow_everyone: bool) -> None:
    ctx.coverage[f"rule:{decision.rule.value}"] += 1
    _event(f"decided by {decision.rule.value}")
    for acl in decision.acls:
        if acl.pattern.pattern_type is PatternType.PREFIXED:
            ctx.coverage["match:prefixed"] += 1
        if acl.pattern.is_wildcard:
            ctx.coverage["match:wildcard-resource"] += 1
        if acl.entry.principal == "User:*":
            ctx.coverage["match:wildcard-principal"] += 1
    if decision.rule is Rule.NO_ACL_FOR_RESOURCE and allow_everyone:
        ctx.coverage["allow-everyone:granted"] += 1


def _compare_queries(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer,
                     queries: Sequence[Query], scenario: Scenario, step: str = "") -> None:
    acls = ref.acls()
    for query in queries:
        expected = ref.authorize(query.context, query.actions)
        actual = driver.authorize(target, query.context, query.actions)
        for action, exp, act in zip(query.actions, expected, actual, strict=False):
            _record_coverage(ctx, exp, ref.config.allow_everyone_if_no_acl_found)
            if _agree(ctx, exp, act):
                continue
            raise CaseFailed(
                Divergence(
                    anomaly=classify(
                        exp, act.result, action, context=query.context, acls=acls,
                        allow_everyone=ref.config.allow_everyone_if_no_acl_found,
                        profile=ref.profile,
                    ),
                    question=f"authorize({query.context}, [{action}])",
                    expected=str(_expected_outcome(exp)),
                    actual=str(act),
                    explanation=exp.explain(),
                    step=step,
                )
            )


# -- differential ----------------------------------------------------------------------


def check_authorize(ctx: CheckContext, scenario: Scenario) -> None:
    """Every answer of authorize() equals the reference for the declared version and flavour."""
    ref = ctx.reference(scenario)
    target = _fresh(ctx, scenario)
    try:
        if ref is None or target is None:
            _config_agreement(ref, target, scenario)
            return
        ref.load_snapshot(scenario.snapshot)
        ref.complete_initial_load()
        _compare_queries(ctx, target, ref, scenario.queries, scenario)
    finally:
        _close(target)


def _config_agreement(ref: ReferenceAuthorizer | None, target: AuthorizerUnderTest | None,
                      scenario: Scenario) -> None:
    if (ref is None) == (target is None):
        return
    raise CaseFailed(
        Divergence(
            anomaly="config-parse-differs",
            question=f"configure({scenario.config})",
            expected="rejected" if ref is None else "accepted",
            actual="rejected" if target is None else "accepted",
            explanation="Kafka parses super.users and allow.everyone.if.no.acl.found this way for the declared flavour",
        )
    )


def check_by_type(ctx: CheckContext, scenario: Scenario) -> None:
    """authorize_by_resource_type equals the variant the target declares."""
    with _pair(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        for q in scenario.by_type:
            expected = ref.authorize_by_resource_type(q.context, q.operation, q.resource_type)
            actual = driver.by_type(target, q.context, q.operation, q.resource_type)
            ctx.coverage[f"by-type:{expected.rule.value}"] += 1
            if _agree(ctx, expected, actual):
                continue
            anomaly = "by-type-too-permissive" if actual.result is AuthorizationResult.ALLOWED else (
                "by-type-too-restrictive" if expected.result is AuthorizationResult.ALLOWED else "wrong-error"
            )
            raise CaseFailed(
                Divergence(anomaly, f"authorize_by_resource_type({q})", str(_expected_outcome(expected)),
                           str(actual), f"[{ref.by_type_variant.value} semantics] {expected.explain()}")
            )


def check_by_type_witness(ctx: CheckContext, scenario: Scenario) -> None:
    """Metamorphic, for ground-truth targets: an ALLOWED by-type answer is witnessed by
    some resource name that the target's own authorize() allows."""
    target = _fresh(ctx, scenario)
    try:
        if target is None:
            return
        acls = [b for _, b in scenario.acls]
        for q in scenario.by_type:
            answer = driver.by_type(target, q.context, q.operation, q.resource_type)
            if answer.result is not AuthorizationResult.ALLOWED:
                continue
            names = candidate_names(acls, q.resource_type)
            actions = [Action(q.operation, ResourcePattern(q.resource_type, n)) for n in names]
            results = driver.authorize(target, q.context, actions)
            if not any(r.result is AuthorizationResult.ALLOWED for r in results):
                raise CaseFailed(Divergence(
                    "by-type-unwitnessed-allow", f"authorize_by_resource_type({q})", "DENIED", "ALLOWED",
                    f"authorize() allows none of the names that cover every case: {names}"))
    finally:
        _close(target)


# -- lifecycle ----------------------------------------------------------------------------


def check_not_ready(ctx: CheckContext, scenario: Scenario) -> None:
    """Before the initial load completes, non-super-users get not-ready; super users pass."""
    with _pair(ctx, scenario, complete=False) as pair:
        if pair is not None:
            ref, target = pair
            _compare_queries(ctx, target, ref, scenario.queries, scenario, step="before complete_initial_load()")


def check_records(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: ACLs arrive as records one by one after the initial load; every
    question is asked after every record, then the ACLs are removed again."""
    with _pair(ctx, scenario, initial=False) as pair:
        if pair is None:
            return
        ref, target = pair
        records: list[AclRecord] = [AddAcl(i, b) for i, b in scenario.acls]
        records += [RemoveAcl(i) for i, _ in scenario.acls[::2]]
        for n, record in enumerate(records, start=1):
            ref.apply(record)
            guarded(f"apply(record {n})", lambda r=record: target.apply(r))  # type: ignore[misc]
            step = f"after record {n} of {len(records)} ({record})"
            _compare_queries(ctx, target, ref, scenario.queries, scenario, step=step)
            _check_count(ctx, target, ref, step)


def check_record_log(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: a generated record log (adds, removals, re-adds under new ids,
    snapshot loads) applied after the initial load, with every question asked
    and acl_count checked after every step; at the end, a fresh target loaded
    with the final snapshot must answer exactly as the replayed one."""
    with _pair(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        total = len(scenario.records)
        for n, record in enumerate(scenario.records, start=1):
            if isinstance(record, SnapshotStep):
                ref.load_snapshot(dict(record.acls))
                guarded(f"load_snapshot(step {n})", lambda r=record: target.load_snapshot(dict(r.acls)))  # type: ignore[misc]
            else:
                ref.apply(record)
                guarded(f"apply(step {n})", lambda r=record: target.apply(r))  # type: ignore[misc]
            step = f"after step {n} of {total} ({record})"
            _compare_queries(ctx, target, ref, scenario.queries, scenario, step=step)
            _check_count(ctx, target, ref, step)
        replayed = [o for q in scenario.queries for o in driver.authorize(target, q.context, q.actions)]
    final = tuple(ref.snapshot().items())
    loaded = _answers(ctx, scenario, final)
    if loaded is None:
        return
    for question, r, f in zip(_questions(scenario), replayed, loaded, strict=True):
        if r != f:
            raise CaseFailed(Divergence("replay-differs", question, str(f), str(r),
                                        "replaying the records must equal loading the final snapshot",
                                        "after the whole log"))


def _check_count(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer, step: str) -> None:
    if not ctx.caps.acl_count:
        return
    actual = guarded("acl_count()", target.acl_count)
    if actual != ref.acl_count():
        raise CaseFailed(Divergence("acl-count-wrong", "acl_count()", str(ref.acl_count()), str(actual),
                                    "acl_count() is the number of ACL ids held", step))


def check_listing(ctx: CheckContext, scenario: Scenario) -> None:
    """acls(filter) returns exactly the ACLs Kafka's filter semantics match; acl_count agrees."""
    with _pair(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        _check_count(ctx, target, ref, "after load_snapshot()")
        filters = [ANY_ACL]
        for _, b in scenario.acls[:3]:
            filters.append(AclBindingFilter(ResourcePatternFilter(b.pattern.resource_type, b.pattern.name,
                                                                  PatternType.MATCH)))
            filters.append(AclBindingFilter(entry=AccessControlEntryFilter(principal=b.entry.principal)))
        for f in filters:
            expected = sorted(map(repr, ref.acls(f)))
            actual = sorted(map(repr, guarded("acls()", lambda f=f: list(target.acls(f)))))  # type: ignore[misc]
            if expected != actual:
                raise CaseFailed(Divergence("listing-wrong", f"acls({f})", "\n".join(expected) or "(none)",
                                            "\n".join(actual) or "(none)", "AclBindingFilter.matches semantics"))


# -- metamorphic (no reference needed) -------------------------------------------------------


def _answers(ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]]) -> list[Outcome] | None:
    target = _fresh(ctx, scenario, acls=acls)
    try:
        if target is None:
            return None
        return [o for q in scenario.queries for o in driver.authorize(target, q.context, q.actions)]
    finally:
        _close(target)


def _questions(scenario: Scenario) -> list[str]:
    return [f"authorize({q.context}, [{a}])" for q in scenario.queries for a in q.actions]


def _monotonic(ctx: CheckContext, scenario: Scenario, permission: AclPermissionType) -> None:
    for index, (_, acl) in enumerate(scenario.acls):
        if acl.entry.permission_type is not permission:
            continue
        without = scenario.acls[:index] + scenario.acls[index + 1:]
        before, after = _answers(ctx, scenario, without), _answers(ctx, scenario, scenario.acls)
        if before is None or after is None:
            return
        for question, b, a in zip(_questions(scenario), before, after, strict=False):
            if permission is AclPermissionType.DENY and b.result is AuthorizationResult.DENIED \
                    and a.result is AuthorizationResult.ALLOWED:
                raise CaseFailed(Divergence("deny-added-granted", question, "DENIED", "ALLOWED",
                                            f"adding ACL {acl} turned DENIED into ALLOWED"))
            if permission is AclPermissionType.ALLOW and b.result is AuthorizationResult.ALLOWED \
                    and a.result is AuthorizationResult.DENIED:
                raise CaseFailed(Divergence("allow-added-revoked", question, "ALLOWED", "DENIED",
                                            f"adding ACL {acl} turned ALLOWED into DENIED"))
        return


def check_deny_monotonic(ctx: CheckContext, scenario: Scenario) -> None:
    """Adding a DENY ACL never turns a DENIED answer into ALLOWED."""
    _monotonic(ctx, scenario, AclPermissionType.DENY)


def check_allow_monotonic(ctx: CheckContext, scenario: Scenario) -> None:
    """Adding an ALLOW ACL never turns ALLOWED into DENIED — when allow.everyone is
    off (with it on, the first ACL on a resource rightly ends the default)."""
    ref = ctx.reference(scenario)
    if ref is None or ref.config.allow_everyone_if_no_acl_found:
        return
    _monotonic(ctx, scenario, AclPermissionType.ALLOW)


def check_order_independence(ctx: CheckContext, scenario: Scenario) -> None:
    """The answers do not depend on the order ACLs appear in the snapshot."""
    if len(scenario.acls) < 2:
        return
    forward = _answers(ctx, scenario, scenario.acls)
    backward = _answers(ctx, scenario, scenario.acls[::-1])
    if forward is None or backward is None:
        return
    for question, f, b in zip(_questions(scenario), forward, backward, strict=False):
        if f != b:
            raise CaseFailed(Divergence("order-dependent", question, str(f), str(b),
                                        "the same ACLs loaded in reverse order gave a different answer"))


def check_super_users(ctx: CheckContext, scenario: Scenario) -> None:
    """Metamorphic: make every asking principal a super user; then every literal
    action is ALLOWED whatever the ACLs say, even before the initial load."""
    principals = sorted({str(q.context.principal) for q in scenario.queries})
    config = dict(scenario.properties)
    config["super.users"] = ";".join(principals)
    promoted = attrs.evolve(scenario, properties=tuple(config.items()))
    for complete in (False, True):
        target = _fresh(ctx, promoted, complete=complete)
        try:
            if target is None:
                return
            for query in promoted.queries:
                literal = [a for a in query.actions if a.resource.pattern_type is PatternType.LITERAL]
                if not literal:
                    continue
                for action, outcome in zip(literal, driver.authorize(target, query.context, literal), strict=True):
                    if outcome.result is not AuthorizationResult.ALLOWED:
                        raise CaseFailed(Divergence(
                            "super-user-denied", f"authorize({query.context}, [{action}])", "ALLOWED", str(outcome),
                            f"{query.context.principal} is in super.users={config['super.users']!r}",
                            "" if complete else "before complete_initial_load()"))
        finally:
            _close(target)


def _needs_by_type(caps: Capabilities) -> str | None:
    return None if caps.by_type_variant is not None else "the target does not implement authorize_by_resource_type"


PROPERTIES: tuple[Property, ...] = (
    Property("authorize", "authorize() equals the reference", check_authorize),
    Property("by-type", "authorize_by_resource_type() equals the declared variant", check_by_type, _needs_by_type),
    Property("by-type-witness", "a by-type ALLOWED is witnessed by some allowed resource",
             check_by_type_witness,
             lambda c: None if c.by_type_variant is ByTypeVariant.GROUND_TRUTH
             else "only for targets that declare ground-truth by-type semantics"),
    Property("not-ready", "before the initial load only super users are answered", check_not_ready,
             lambda c: None if c.not_ready_state and c.profile().has_not_ready_state
             else "the target declares no not-ready state"),
    Property("records", "records applied in order, questions between every two records", check_records,
             lambda c: None if c.incremental else "the target declares no incremental record application"),
    Property("record-log", "a generated record log, questions after every step; replay equals snapshot",
             check_record_log,
             lambda c: None if c.incremental else "the target declares no incremental record application",
             generator="record_logs"),
    Property("listing", "acls(filter) and acl_count() agree with Kafka's filter semantics", check_listing,
             lambda c: None if c.listing else "the target declares no listing"),
    Property("deny-monotonic", "adding a DENY never grants", check_deny_monotonic),
    Property("allow-monotonic", "adding an ALLOW never revokes (allow.everyone off)", check_allow_monotonic),
    Property("order-independence", "answers do not depend on ACL order", check_order_independence),
    Property("super-users", "super users are always allowed, ready or not", check_super_users),
)
