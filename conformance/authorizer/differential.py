"""Differential and lifecycle properties: the target against the reference for the
version and flavour it declares."""


from __future__ import annotations

import attrs

from kafka_conformance.adapters.case import (
    Apply,
    Authorize,
    AuthorizeByResourceType,
    Call,
    ListAcls,
    LoadSnapshot,
)
from kafka_conformance.adapters.protocol import ErrorComparison
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.cases import BatchStep, Scenario, SnapshotStep
from kafka_conformance.authorizer.driver import CaseFailed, Replies, set_up_calls
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.reference.acl.filters import (
    ANY_ACL,
    AccessControlEntryFilter,
    AclBindingFilter,
    ResourcePatternFilter,
)
from kafka_conformance.reference.acl.values import (
    AclBinding,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import candidate_names
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AuthorizerError

__all__ = [
    "check_authorize",
    "check_by_type",
    "check_by_type_witness",
    "check_listing",
    "check_not_ready",
    "check_record_log",
    "check_records",
]


from kafka_conformance.authorizer.support import (
    CheckContext,
    agree,
    answers_of,
    check_count,
    compare_queries,
    count_calls,
    expected_outcome,
    loaded_reference,
    question_calls,
    questions_of,
)


def check_authorize(ctx: CheckContext, scenario: Scenario) -> None:
    """Every answer of authorize() equals the reference for the declared version and flavour."""
    ref = loaded_reference(ctx, scenario)
    calls = set_up_calls(scenario.properties, scenario.acls)
    if ref is not None:  # where Kafka refuses the configuration, nothing is asked after it
        calls += question_calls(scenario.queries)
    with driver.run(ctx.make_target, calls) as replies:
        accepted = replies.set_up(complete=True) if ref is not None else replies.configured()
        _config_agreement(ref, accepted, scenario)
        if ref is not None and accepted:
            compare_queries(ctx, replies, ref, scenario.queries)


def _config_agreement(ref: ReferenceAuthorizer | None, accepted: bool, scenario: Scenario) -> None:
    if (ref is not None) == accepted:
        return
    raise CaseFailed(
        Divergence(
            anomaly="config-parse-differs",
            question=f"configure({scenario.config})",
            expected="rejected" if ref is None else "accepted",
            actual="accepted" if accepted else "rejected",
            explanation="Kafka parses super.users and allow.everyone.if.no.acl.found this way for the declared flavour",
        )
    )


def check_by_type(ctx: CheckContext, scenario: Scenario) -> None:
    """authorize_by_resource_type equals the variant the target declares."""
    ref = loaded_reference(ctx, scenario)
    if ref is None:
        return
    calls = set_up_calls(scenario.properties, scenario.acls)
    calls += [AuthorizeByResourceType(q.context, q.operation, q.resource_type) for q in scenario.by_type]
    with driver.run(ctx.make_target, calls) as replies:
        if not replies.set_up(complete=True):
            return
        for q in scenario.by_type:
            expected = ref.authorize_by_resource_type(q.context, q.operation, q.resource_type)
            actual = replies.by_type()
            ctx.coverage[f"by-type:{expected.rule.value}"] += 1
            if agree(ctx, expected, actual):
                continue
            anomaly = "by-type-too-permissive" if actual.result is AuthorizationResult.ALLOWED else (
                "by-type-too-restrictive" if expected.result is AuthorizationResult.ALLOWED else "wrong-error"
            )
            raise CaseFailed(
                Divergence(anomaly, f"authorize_by_resource_type({q})", str(expected_outcome(expected)),
                           str(actual), f"[{ref.by_type_variant.value} semantics] {expected.explain()}")
            )


def check_by_type_witness(ctx: CheckContext, scenario: Scenario) -> None:
    """Metamorphic, for ground-truth targets: an ALLOWED by-type answer is witnessed by
    some resource name that the target's own authorize() allows.  Every by-type question
    is followed by the authorize() calls that would witness it, one name per call (a batch
    fails whole where one name's ACLs make Kafka throw), asked whatever the answer."""
    acls = [b for _, b in scenario.acls]
    witnesses = []
    calls = set_up_calls(scenario.properties, scenario.acls)
    for q in scenario.by_type:
        names = candidate_names(acls, q.resource_type)
        witnesses.append(names)
        calls += [AuthorizeByResourceType(q.context, q.operation, q.resource_type),
                  *(Authorize(q.context, (Action(q.operation, ResourcePattern(q.resource_type, n)),)) for n in names)]
    with driver.run(ctx.make_target, calls) as replies:
        if not replies.set_up(complete=True):
            return
        for q, names in zip(scenario.by_type, witnesses, strict=True):
            answer = replies.by_type()
            results = [r for _ in names for r in replies.authorize()]
            if answer.result is not AuthorizationResult.ALLOWED:
                continue
            if not any(r.result is AuthorizationResult.ALLOWED for r in results):
                raise CaseFailed(Divergence(
                    "by-type-unwitnessed-allow", f"authorize_by_resource_type({q})", "DENIED", "ALLOWED",
                    f"authorize() allows none of the names that cover every case: {names}"))


# -- lifecycle ----------------------------------------------------------------------------


def check_not_ready(ctx: CheckContext, scenario: Scenario) -> None:
    """Before the initial load completes, non-super-users get not-ready; super users pass."""
    ref = loaded_reference(ctx, scenario, complete=False)
    if ref is None:
        return
    calls = set_up_calls(scenario.properties, scenario.acls, complete=False) + question_calls(scenario.queries)
    with driver.run(ctx.make_target, calls) as replies:
        if replies.set_up(complete=False):
            compare_queries(ctx, replies, ref, scenario.queries, step="before complete_initial_load()")


def check_records(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: ACLs arrive as records one by one after the initial load; every
    question is asked after every record, then the ACLs are removed again."""
    ref = loaded_reference(ctx, scenario, initial=False)
    if ref is None:
        return
    records: list[AclRecord] = [AddAcl(i, b) for i, b in scenario.acls]
    records += [RemoveAcl(i) for i, _ in scenario.acls[::2]]
    asks = question_calls(scenario.queries) + count_calls(ctx)
    calls = set_up_calls(scenario.properties, ())
    for record in records:
        calls += [Apply(record), *asks]
    with driver.run(ctx.make_target, calls) as replies:
        if not replies.set_up(complete=True):
            return
        for n, record in enumerate(records, start=1):
            step = f"after record {n} of {len(records)} ({record})"
            _apply_record(ctx, ref, replies, record, f"record {n}", step)
            _ask(ctx, replies, ref, scenario, step)


def check_record_log(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: a generated record log (adds, removals, re-adds under new ids,
    snapshot loads, batches, and records Kafka refuses) applied after the initial
    load.  A refused record must be refused by the target too and leave its state
    as it was; every question is asked and acl_count checked after every step; at
    the end, a fresh target loaded with the final snapshot must answer exactly as
    the replayed one."""
    ref = loaded_reference(ctx, scenario)
    if ref is None:
        return
    with driver.run(ctx.make_target, _record_log_calls(ctx, scenario)) as replies:
        if not replies.set_up(complete=True):
            return
        total = len(scenario.records)
        last: Answers | None = None  # the target's answers at the last step asked
        for n, step in enumerate(scenario.records, start=1):
            where = f"after step {n} of {total} ({step})"
            if isinstance(step, SnapshotStep):
                ref.load_snapshot(dict(step.acls))
                replies.loaded(f"load_snapshot(step {n})")
            elif isinstance(step, BatchStep):
                for record in step.records:
                    if _apply_record(ctx, ref, replies, record, f"step {n}", where):
                        last = _unchanged(ctx, replies, ref, scenario, f"after the refused record {record} in step {n}",
                                          last)
                    else:  # applied, and no question asked after it: what the target would answer is unknown
                        last = None
            elif _apply_record(ctx, ref, replies, step, f"step {n}", where):
                # The questions are asked once after a one-record step: in the state before
                # the record, when it was rightly refused.
                last = _unchanged(ctx, replies, ref, scenario, f"after the refused record {step} in step {n}", last)
                continue
            last = _ask(ctx, replies, ref, scenario, where)
        replayed = [o for _ in scenario.queries for o in replies.authorize()]
    final = tuple(ref.snapshot().items())
    loaded = answers_of(ctx, scenario, final)
    if loaded is None:
        return
    for question, r, f in zip(questions_of(scenario), replayed, loaded, strict=True):
        if r != f:
            raise CaseFailed(Divergence("replay-differs", question, str(f), str(r),
                                        "replaying the records must equal loading the final snapshot",
                                        "after the whole log"))


def _record_log_calls(ctx: CheckContext, scenario: Scenario) -> list[Call]:
    """The calls :func:`check_record_log` meets, in its order.  Which records Kafka refuses
    decides where the questions are asked, so the log is run on a reference of its own
    first."""
    scratch = loaded_reference(ctx, scenario)
    assert scratch is not None
    asks = question_calls(scenario.queries) + count_calls(ctx)
    calls = set_up_calls(scenario.properties, scenario.acls)
    for step in scenario.records:
        if isinstance(step, SnapshotStep):
            scratch.load_snapshot(dict(step.acls))
            calls.append(LoadSnapshot(step.acls))
        elif isinstance(step, BatchStep):
            for record in step.records:
                calls.append(Apply(record))
                if _reference_apply(scratch, record)[0] is not None:
                    calls += asks
        else:
            calls.append(Apply(step))
            _reference_apply(scratch, step)
        calls += asks
    return calls + question_calls(scenario.queries)


Answers = dict[str, str]
"""The target's answer to each question of a step (and to ``acl_count()``), as the report
prints them."""


def _ask(ctx: CheckContext, replies: Replies, ref: ReferenceAuthorizer, scenario: Scenario, where: str) -> Answers:
    """Every question and acl_count against the reference; the target's answers."""
    answers = dict(zip(questions_of(scenario), map(str, compare_queries(ctx, replies, ref, scenario.queries,
                                                                       step=where)), strict=True))
    count = check_count(ctx, replies, ref, where)
    if count is not None:
        answers["acl_count()"] = str(count)
    return answers


def _unchanged(ctx: CheckContext, replies: Replies, ref: ReferenceAuthorizer, scenario: Scenario, where: str,
               before: Answers | None) -> Answers:
    """Right after a refused record, the target must answer and count as before it.  A
    divergence there is named ``refused-record-changed-state`` only where the target's own
    answer to that question changed across the refused record (``before``: its answers at the
    last step asked); otherwise it is what it would be anywhere else: the refused record is
    not shown to have changed anything."""
    try:
        return _ask(ctx, replies, ref, scenario, where)
    except CaseFailed as exc:
        d = exc.divergence
        if before is None or before.get(d.question, d.actual) == d.actual:
            raise
        raise CaseFailed(attrs.evolve(d, anomaly="refused-record-changed-state",
                                      explanation=f"the answer was {before[d.question]} before the refused record; "
                                                  f"a refused record must leave the ACLs as they were; "
                                                  f"{d.explanation}")) from None


def _reference_apply(ref: ReferenceAuthorizer, record: AddAcl | RemoveAcl) -> tuple[str | None, str]:
    """The record applied to the reference: None and "", or the kind and text of Kafka's refusal."""
    try:
        ref.apply(record)
    except AuthorizerError as exc:
        return exc.kind, str(exc)
    return None, ""


def _apply_record(ctx: CheckContext, ref: ReferenceAuthorizer, replies: Replies, record: AddAcl | RemoveAcl,
                  what: str, where: str) -> bool:
    """One record applied to the reference, and the target's answer to it (next in
    ``replies``) met: the target must refuse exactly what Kafka refuses.  Returns whether
    the record was (rightly) refused."""
    expected, reason = _reference_apply(ref, record)
    actual = replies.applied(f"apply({what}: {record})")
    if expected is None and actual is None:
        return False
    question = f"apply({record})"
    if expected is None:
        raise CaseFailed(Divergence("record-refused", question, "applied", f"refused ({actual})",
                                    "the record is consistent with the ACLs held", where))
    if actual is None:
        raise CaseFailed(Divergence("inconsistent-record-accepted", question, f"refused ({expected})", "applied",
                                    f"Kafka refuses it: {reason}", where))
    if ctx.caps.error_comparison is ErrorComparison.KIND and expected != actual:
        raise CaseFailed(Divergence("record-wrong-error", question, f"refused ({expected})", f"refused ({actual})",
                                    f"Kafka refuses it: {reason}", where))
    return True


def listing_filters(held: list[AclBinding]) -> list[AclBindingFilter]:
    """Every filter, then from each ACL given one filter per way an AclBindingFilter selects: its
    name matched as a resource name (MATCH), its type under MATCH with no name, its exact pattern, its name under any type and
    pattern type, its principal, its host with its operation, its permission, and the whole
    ACL.  Applied to all the ACLs held, each selects some and leaves others (the mutation run of
    the reference found each of these branches unasked before, docs/selftest.md)."""
    filters = [ANY_ACL]
    for b in held:
        p, e = b.pattern, b.entry
        filters += [
            AclBindingFilter(ResourcePatternFilter(p.resource_type, p.name, PatternType.MATCH)),
            AclBindingFilter(ResourcePatternFilter(p.resource_type, None, PatternType.MATCH)),
            AclBindingFilter(ResourcePatternFilter(p.resource_type, p.name, p.pattern_type)),
            AclBindingFilter(ResourcePatternFilter(ResourceType.ANY, p.name, PatternType.ANY)),
            AclBindingFilter(entry=AccessControlEntryFilter(principal=e.principal)),
            AclBindingFilter(entry=AccessControlEntryFilter(host=e.host, operation=e.operation)),
            AclBindingFilter(entry=AccessControlEntryFilter(permission_type=e.permission_type)),
            AclBindingFilter.for_binding(b),
        ]
    return list(dict.fromkeys(filters))


def check_listing(ctx: CheckContext, scenario: Scenario) -> None:
    """acls(filter) returns exactly the ACLs Kafka's filter semantics match; acl_count agrees."""
    ref = loaded_reference(ctx, scenario)
    if ref is None:
        return
    filters = listing_filters([b for _, b in scenario.acls[:3]])
    calls = set_up_calls(scenario.properties, scenario.acls) + count_calls(ctx) + [ListAcls(f) for f in filters]
    with driver.run(ctx.make_target, calls) as replies:
        if not replies.set_up(complete=True):
            return
        check_count(ctx, replies, ref, "after load_snapshot()")
        for f in filters:
            expected = sorted(map(repr, ref.acls(f)))
            actual = sorted(map(repr, replies.acls()))
            if expected != actual:
                raise CaseFailed(Divergence("listing-wrong", f"acls({f})", "\n".join(expected) or "(none)",
                                            "\n".join(actual) or "(none)", "AclBindingFilter.matches semantics"))
