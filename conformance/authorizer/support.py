"""Shared plumbing of the authorizer properties: set-up of the target and the
reference alike, comparison of answers, coverage counting.

The properties themselves live in :mod:`~kafka_conformance.authorizer.differential`
(against the reference) and :mod:`~kafka_conformance.authorizer.metamorphic`
(against the target itself); :mod:`~kafka_conformance.authorizer.properties` lists them.
"""


from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import attrs
from hypothesis import currently_in_test_context, event

from kafka_conformance.adapters.case import Authorize, Call, CountAcls
from kafka_conformance.adapters.protocol import AuthorizerUnderTest, Capabilities
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.anomalies import classify
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.driver import CaseFailed, Outcome, Replies, set_up_calls
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.reference.acl.values import (
    AclBinding,
    PatternType,
)
from kafka_conformance.reference.authorizer.decision import (
    AuthorizationResult,
    Decision,
    Rule,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.errors import ConfigError

__all__ = [
    "CheckContext",
    "agree",
    "answers_of",
    "check_count",
    "compare_queries",
    "count_calls",
    "count_event",
    "expected_outcome",
    "loaded_reference",
    "question_calls",
    "questions_of",
    "record_coverage",
]

@attrs.define
class CheckContext:
    make_target: Callable[[], AuthorizerUnderTest]
    caps: Capabilities
    coverage: Counter[str] = attrs.field(factory=Counter)
    classes: Counter[str] = attrs.field(factory=Counter)
    """How many examples reached each input class of :mod:`~kafka_conformance.authorizer.domain.classes`."""
    stopped: str | None = None
    """Set when the target stopped answering (a timeout) or failed intermittently: where and how.
    Nothing more is asked of it; the rest of the run is skipped."""

    def reference(self, scenario: Scenario) -> ReferenceAuthorizer | None:
        """A configured reference, or None when the configuration itself is invalid."""
        ref = ReferenceAuthorizer(self.caps.profile(), by_type_variant=self.caps.by_type_variant)
        try:
            ref.configure(scenario.config)
        except ConfigError:
            return None
        return ref




def loaded_reference(ctx: CheckContext, scenario: Scenario, *, initial: bool = True,
                     complete: bool = True) -> ReferenceAuthorizer | None:
    """The reference set up as a case's target is (:func:`driver.set_up_calls`): configured,
    loaded with the scenario's snapshot (nothing when ``initial`` is false), its initial load
    completed or not; None where Kafka refuses the configuration."""
    ref = ctx.reference(scenario)
    if ref is not None:
        if initial:
            ref.load_snapshot(scenario.snapshot)
        if complete:
            ref.complete_initial_load()
    return ref


def question_calls(queries: Sequence[Query]) -> list[Call]:
    """The ``authorize`` calls that ask ``queries``, one batch each."""
    return [Authorize(q.context, tuple(q.actions)) for q in queries]


def expected_outcome(d: Decision) -> Outcome:
    return Outcome(d.result, d.error)


def agree(ctx: CheckContext, expected: Decision, actual: Outcome) -> bool:
    if expected.result is AuthorizationResult.ERROR or actual.result is AuthorizationResult.ERROR:
        mode = ctx.caps.error_comparison
        if mode == "ignore" and expected.result is AuthorizationResult.ERROR:
            return True
        if mode == "any":
            return (expected.result is AuthorizationResult.ERROR) == (actual.result is AuthorizationResult.ERROR)
        return expected.result is actual.result and expected.error == actual.error
    return expected.result is actual.result


def count_event(label: str) -> None:
    """Also count through Hypothesis (``--hypothesis-show-statistics``) when inside a test
    (not when replaying a saved case or running a corpus: asked first, because letting
    ``event`` raise costs more than the whole comparison on the corpus path)."""
    if currently_in_test_context():
        event(label)


_RULE_LABELS = {rule: (f"rule:{rule.value}", f"decided by {rule.value}") for rule in Rule}


def record_coverage(ctx: CheckContext, decision: Decision, allow_everyone: bool) -> None:
    counter, label = _RULE_LABELS[decision.rule]
    ctx.coverage[counter] += 1
    count_event(label)
    for acl in decision.acls:
        if acl.pattern.pattern_type is PatternType.PREFIXED:
            ctx.coverage["match:prefixed"] += 1
        if acl.pattern.is_wildcard:
            ctx.coverage["match:wildcard-resource"] += 1
        if acl.entry.principal == "User:*":
            ctx.coverage["match:wildcard-principal"] += 1
    if decision.rule is Rule.NO_ACL_FOR_RESOURCE and allow_everyone:
        ctx.coverage["allow-everyone:granted"] += 1


def compare_queries(ctx: CheckContext, replies: Replies, ref: ReferenceAuthorizer, queries: Sequence[Query],
                    step: str = "") -> list[Outcome]:
    """The answers to ``queries`` (their calls next in ``replies``) against the reference's
    in its present state, action by action, in order; the target's answers, all equal to the
    reference's.  The reference answers each question before the target's answer to it is
    met, so an error of the kit's comes first."""
    allow_everyone = ref.config.allow_everyone_if_no_acl_found
    answers: list[Outcome] = []
    for query in queries:
        decisions = ref.authorize(query.context, query.actions)
        actual = replies.authorize()
        answers += actual
        for action, exp, act in zip(query.actions, decisions, actual, strict=False):
            record_coverage(ctx, exp, allow_everyone)
            if agree(ctx, exp, act):
                continue
            raise CaseFailed(
                Divergence(
                    anomaly=classify(
                        exp, act.result, action, context=query.context, acls=ref.acls(),
                        allow_everyone=allow_everyone, profile=ref.profile,
                    ),
                    question=f"authorize({query.context}, [{action}])",
                    expected=str(expected_outcome(exp)),
                    actual=str(act),
                    explanation=exp.explain(),
                    step=step,
                )
            )
    return answers


def check_count(ctx: CheckContext, replies: Replies, ref: ReferenceAuthorizer, step: str) -> int | None:
    """``acl_count()`` (its call next in ``replies`` where the target declares a count)
    against the reference's; the count, or None where the target declares none."""
    if not ctx.caps.acl_count:
        return None
    actual = replies.count()
    if actual != ref.acl_count():
        raise CaseFailed(Divergence("acl-count-wrong", "acl_count()", str(ref.acl_count()), str(actual),
                                    "acl_count() is the number of ACL ids held", step))
    return actual


def count_calls(ctx: CheckContext) -> list[Call]:
    """The ``acl_count`` call :func:`check_count` meets, where the target declares a count."""
    return [CountAcls()] if ctx.caps.acl_count else []


def answers_of(ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]]) -> list[Outcome] | None:
    """The target's answers to the scenario's questions on a fresh target loaded with
    ``acls`` (one case); None where it refused the configuration."""
    calls = set_up_calls(scenario.properties, acls) + question_calls(scenario.queries)
    with driver.run(ctx.make_target, calls) as replies:
        if not replies.set_up(complete=True):
            return None
        return [o for _ in scenario.queries for o in replies.authorize()]


def questions_of(scenario: Scenario) -> list[str]:
    return [f"authorize({q.context}, [{a}])" for q in scenario.queries for a in q.actions]

