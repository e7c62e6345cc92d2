"""Differential and lifecycle properties: the target against the reference for the
version and flavour it declares."""


from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import cast

import attrs

from kafka_conformance.adapters.protocol import AuthorizerUnderTest
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.cases import BatchStep, Scenario, SnapshotStep
from kafka_conformance.authorizer.driver import CaseFailed, Outcome, guarded
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.reference.acl.filters import (
    ANY_ACL,
    AccessControlEntryFilter,
    AclBindingFilter,
    ResourcePatternFilter,
)
from kafka_conformance.reference.acl.values import (
    PatternType,
    ResourcePattern,
)
from kafka_conformance.reference.authorizer.by_resource_type import candidate_names
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AuthorizerError, KafkaException

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
    WorkedOut,
    agree,
    answers_of,
    at_turn,
    check_count,
    close_target,
    compare_queries,
    expected_outcome,
    fresh_target,
    fresh_target_asking,
    paired,
    questions_of,
    reference_answers,
)


def check_authorize(ctx: CheckContext, scenario: Scenario) -> None:
    """Every answer of authorize() equals the reference for the declared version and flavour."""
    ref = ctx.reference(scenario)
    expected = None
    if ref is not None:
        # Loaded before the target is made, so that a process target gets the questions with its
        # set-up and the reference answers them meanwhile.  (A reference refusing the snapshot,
        # which no generated case makes it do, is therefore met before the target's set-up.)
        ref.load_snapshot(scenario.snapshot)
        ref.complete_initial_load()
        expected = reference_answers(ref, scenario.queries)
    target, answers = fresh_target_asking(ctx, scenario, kafka_accepts=ref is not None, meanwhile=expected,
                                          ask=[(q.context, q.actions) for q in scenario.queries])
    try:
        if ref is None or target is None:
            _config_agreement(ref, target, scenario)
            return
        compare_queries(ctx, target, ref, scenario.queries, scenario, answers=answers, expected=expected)
    finally:
        close_target(target)


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
    with paired(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        reference = WorkedOut([functools.partial(ref.authorize_by_resource_type, q.context, q.operation, q.resource_type)
                               for q in scenario.by_type])  # worked out while a process target answers
        answers = driver.by_type_each(target, [(q.context, q.operation, q.resource_type) for q in scenario.by_type],
                                      meanwhile=reference)
        for n, q in enumerate(scenario.by_type):
            expected, actual = at_turn(answers, reference, n)
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
    some resource name that the target's own authorize() allows."""
    target = fresh_target(ctx, scenario)
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
        close_target(target)


# -- lifecycle ----------------------------------------------------------------------------


def check_not_ready(ctx: CheckContext, scenario: Scenario) -> None:
    """Before the initial load completes, non-super-users get not-ready; super users pass."""
    with paired(ctx, scenario, complete=False) as pair:
        if pair is not None:
            ref, target = pair
            compare_queries(ctx, target, ref, scenario.queries, scenario, step="before complete_initial_load()")


def check_records(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: ACLs arrive as records one by one after the initial load; every
    question is asked after every record, then the ACLs are removed again."""
    with paired(ctx, scenario, initial=False) as pair:
        if pair is None:
            return
        ref, target = pair
        records: list[AclRecord] = [AddAcl(i, b) for i, b in scenario.acls]
        records += [RemoveAcl(i) for i, _ in scenario.acls[::2]]
        # A process target takes a record and the questions after it in one write (one round
        # trip per step instead of three); what is reported, and in what order, is the same.
        together = getattr(target, "apply_and_ask", None) if scenario.queries else None
        batches = tuple((q.context, q.actions) for q in scenario.queries)  # immutable: sent as JSON built once
        for n, record in enumerate(records, start=1):
            ref.apply(record)
            step = f"after record {n} of {len(records)} ({record})"
            if together is None:
                guarded(f"apply(record {n})", lambda r=record: target.apply(r))  # type: ignore[misc]
                compare_queries(ctx, target, ref, scenario.queries, scenario, step=step)
                check_count(ctx, target, ref, step)
                continue
            expected = reference_answers(ref, scenario.queries)  # computed while the target answers
            applied, answers, counted = driver.while_asking(
                f"apply(record {n}) and the questions after it",
                lambda work, r=record: together(r, batches, ctx.caps.acl_count, **driver.during(work)),  # type: ignore[misc]
                expected if driver.takes_meanwhile(target) else None)
            guarded(f"apply(record {n})", lambda a=applied: driver.answered(a))  # type: ignore[misc]
            compare_queries(ctx, target, ref, scenario.queries, scenario, step=step,
                            answers=driver.hand_out(answers, batches), expected=expected)
            check_count(ctx, target, ref, step, answer=lambda c=counted: driver.answered(c))  # type: ignore[misc]


def check_record_log(ctx: CheckContext, scenario: Scenario) -> None:
    """Stateful: a generated record log (adds, removals, re-adds under new ids,
    snapshot loads, batches, and records Kafka refuses) applied after the initial
    load.  A refused record must be refused by the target too and leave its state
    as it was; every question is asked and acl_count checked after every step; at
    the end, a fresh target loaded with the final snapshot must answer exactly as
    the replayed one."""
    with paired(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        total = len(scenario.records)
        # A process target takes a one-record step and the questions after it in one write
        # (as in check_records); the questions are asked once, in the state after the record,
        # which is the state before it when the record was rightly refused.
        together = getattr(target, "apply_and_ask", None) if scenario.queries else None
        batches = tuple((q.context, q.actions) for q in scenario.queries)  # immutable: sent as JSON built once
        for n, step in enumerate(scenario.records, start=1):
            where = f"after step {n} of {total} ({step})"
            if isinstance(step, SnapshotStep):
                ref.load_snapshot(dict(step.acls))
                guarded(f"load_snapshot(step {n})", lambda s=step: target.load_snapshot(dict(s.acls)))  # type: ignore[misc]
            elif together is not None and not isinstance(step, BatchStep):
                # The reference takes the record first, then works out its answers while the
                # target answers the step (the state after the record, or before a refused one).
                kafka = _reference_apply_kept(ref, step)
                expected = reference_answers(ref, scenario.queries)
                applied, answers, counted = driver.while_asking(
                    f"apply(step {n}) and the questions after it",
                    lambda work, s=step: together(s, batches, ctx.caps.acl_count, **driver.during(work)),  # type: ignore[misc]
                    expected if driver.takes_meanwhile(target) else None)
                read: _ReadAhead = (driver.hand_out(answers, batches), lambda c=counted: driver.answered(c),  # type: ignore[misc]
                                    expected)
                refused = _apply_record(ctx, ref, target, step, f"step {n}", where,
                                        sent=lambda a=applied: driver.answered(a), kafka=kafka)  # type: ignore[misc]
                if refused:
                    _unchanged(ctx, target, ref, scenario, f"after the refused record {step} in step {n}", read)
                else:
                    _ask(ctx, target, ref, scenario, where, read)
                continue
            else:
                inner = step.records if isinstance(step, BatchStep) else (step,)
                for record in inner:
                    if _apply_record(ctx, ref, target, record, f"step {n}", where):
                        _unchanged(ctx, target, ref, scenario, f"after the refused record {record} in step {n}")
            _ask(ctx, target, ref, scenario, where)
        replayed = [o for batch in driver.authorize_each(target, [(q.context, q.actions) for q in scenario.queries])
                    for o in batch]
    final = tuple(ref.snapshot().items())
    loaded = answers_of(ctx, scenario, final)
    if loaded is None:
        return
    for question, r, f in zip(questions_of(scenario), replayed, loaded, strict=True):
        if r != f:
            raise CaseFailed(Divergence("replay-differs", question, str(f), str(r),
                                        "replaying the records must equal loading the final snapshot",
                                        "after the whole log"))


_ReadAhead = tuple[Iterator[list[Outcome]], Callable[[], int], WorkedOut[list[Decision]]]
"""The answers to a step's questions and its acl_count, already read by a pipelined write,
and the reference's answers to the same questions (worked out while they were answered)."""


def _ask(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer, scenario: Scenario, where: str,
         read: _ReadAhead | None = None) -> None:
    """Every question and acl_count against the reference, asked now or (``read``) read ahead."""
    answers, counted, expected = read if read is not None else (None, None, None)
    compare_queries(ctx, target, ref, scenario.queries, scenario, step=where, answers=answers, expected=expected)
    check_count(ctx, target, ref, where, answer=counted)


def _unchanged(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer, scenario: Scenario,
               where: str, read: _ReadAhead | None = None) -> None:
    """Right after a refused record, the target must answer and count as before it."""
    try:
        _ask(ctx, target, ref, scenario, where, read)
    except CaseFailed as exc:
        d = cast(Divergence, exc.divergence)
        raise CaseFailed(attrs.evolve(d, anomaly="refused-record-changed-state",
                                      explanation=f"a refused record must leave the ACLs as they were; "
                                                  f"{d.explanation}")) from None


def _reference_apply(ref: ReferenceAuthorizer, record: AddAcl | RemoveAcl) -> tuple[str | None, str]:
    """The record applied to the reference: None and "", or the kind and text of Kafka's refusal."""
    try:
        ref.apply(record)
    except AuthorizerError as exc:
        return exc.kind, str(exc)
    return None, ""


def _reference_apply_kept(ref: ReferenceAuthorizer, record: AddAcl | RemoveAcl) -> tuple[str | None, str] | Exception:
    """:func:`_reference_apply` done ahead of the target's step: any other exception is kept,
    to be raised by :func:`_apply_record` where it was raised before (after the step)."""
    try:
        return _reference_apply(ref, record)
    except Exception as exc:
        return exc


def _apply_record(ctx: CheckContext, ref: ReferenceAuthorizer, target: AuthorizerUnderTest,
                  record: AddAcl | RemoveAcl, what: str, where: str, sent: Callable[[], object] | None = None,
                  kafka: tuple[str | None, str] | Exception | None = None) -> bool:
    """Apply one record to both (to the target by ``sent``, the answer of a write already
    made, when given; to the reference unless ``kafka`` says how it took it already); the
    target must refuse exactly what Kafka refuses.  Returns whether the record was (rightly)
    refused."""
    if isinstance(kafka, Exception):
        raise kafka
    expected, reason = kafka if kafka is not None else _reference_apply(ref, record)
    actual: str | None = None
    try:
        guarded(f"apply({what}: {record})", sent or (lambda: target.apply(record)))
    except KafkaException as exc:
        actual = exc.kind
    if expected is None and actual is None:
        return False
    question = f"apply({record})"
    if expected is None:
        raise CaseFailed(Divergence("record-refused", question, "applied", f"refused ({actual})",
                                    "the record is consistent with the ACLs held", where))
    if actual is None:
        raise CaseFailed(Divergence("inconsistent-record-accepted", question, f"refused ({expected})", "applied",
                                    f"Kafka refuses it: {reason}", where))
    if ctx.caps.error_comparison == "kind" and expected != actual:
        raise CaseFailed(Divergence("record-wrong-error", question, f"refused ({expected})", f"refused ({actual})",
                                    f"Kafka refuses it: {reason}", where))
    return True


def check_listing(ctx: CheckContext, scenario: Scenario) -> None:
    """acls(filter) returns exactly the ACLs Kafka's filter semantics match; acl_count agrees."""
    with paired(ctx, scenario) as pair:
        if pair is None:
            return
        ref, target = pair
        filters = [ANY_ACL]
        for _, b in scenario.acls[:3]:
            filters.append(AclBindingFilter(ResourcePatternFilter(b.pattern.resource_type, b.pattern.name,
                                                                  PatternType.MATCH)))
            filters.append(AclBindingFilter(entry=AccessControlEntryFilter(principal=b.entry.principal)))
        # A process target answers the count and every filter from one write (one round trip
        # instead of one per question); the answers are met in the same order.
        together = getattr(target, "count_and_list", None)
        if together is None:
            check_count(ctx, target, ref, "after load_snapshot()")
            listed = None
        else:
            counted, listed = guarded("acl_count() and acls()", lambda: together(filters, ctx.caps.acl_count))
            check_count(ctx, target, ref, "after load_snapshot()", answer=lambda: driver.answered(counted))
        for n, f in enumerate(filters):
            expected = sorted(map(repr, ref.acls(f)))
            ask = (lambda f=f: target.acls(f)) if listed is None else (lambda n=n: driver.answered(listed[n]))
            actual = sorted(map(repr, guarded("acls()", lambda ask=ask: list(ask()))))  # type: ignore[misc]
            if expected != actual:
                raise CaseFailed(Divergence("listing-wrong", f"acls({f})", "\n".join(expected) or "(none)",
                                            "\n".join(actual) or "(none)", "AclBindingFilter.matches semantics"))

