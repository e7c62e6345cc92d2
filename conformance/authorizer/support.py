"""Shared plumbing of the authorizer properties: set-up of the target and the
reference alike, comparison of answers, coverage counting.

The properties themselves live in :mod:`~kafka_conformance.authorizer.differential`
(against the reference) and :mod:`~kafka_conformance.authorizer.metamorphic`
(against the target itself); :mod:`~kafka_conformance.authorizer.properties` lists them.
"""


from __future__ import annotations

import contextlib
import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, cast

import attrs
from hypothesis import currently_in_test_context, event

from kafka_conformance.adapters.protocol import AuthorizerUnderTest, Capabilities
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.anomalies import classify
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.driver import CaseFailed, Outcome, TargetCrashed, answered, guarded
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.reference.acl.values import (
    AclBinding,
    PatternType,
)
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.errors import ConfigError, KafkaException

T = TypeVar("T")

__all__ = [
    "CheckContext",
    "WorkedOut",
    "agree",
    "answers_of",
    "at_turn",
    "check_count",
    "close_target",
    "compare_queries",
    "count_event",
    "expected_outcome",
    "fresh_target",
    "fresh_target_asking",
    "paired",
    "questions_of",
    "record_coverage",
    "reference_answers",
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




def fresh_target(ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]] | None = None,
           *, complete: bool = True, kafka_accepts: bool = False) -> AuthorizerUnderTest | None:
    """A new target configured and loaded; None if it rightly refused the configuration.

    ``kafka_accepts``: the reference took the configuration, so a process target gets the
    whole set-up (configure, load, complete) in one write; one that refuses it anyway is
    still met as refusing it (None), and the loads sent behind it are not looked at."""
    return fresh_target_asking(ctx, scenario, acls, complete=complete, kafka_accepts=kafka_accepts)[0]


Batches = Sequence[tuple[RequestContext, Sequence[Action]]]


def fresh_target_asking(
    ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]] | None = None, *,
    complete: bool = True, kafka_accepts: bool = False, ask: Batches = (),
    meanwhile: Callable[[], object] | None = None,
) -> tuple[AuthorizerUnderTest | None, Iterator[list[Outcome]] | None]:
    """:func:`fresh_target`, and the answers to ``ask`` where they came in the same write.

    A process target that takes a case's set-up and its questions together
    (``configure_load_and_ask``, where Kafka accepts the configuration and the initial load
    is completed) gets both in one round trip; the set-up is met first, exactly as
    :func:`fresh_target` meets it (a refused configuration is a refusal even where the
    process failed on the questions behind it), and then the answers are handed out batch
    by batch as :func:`driver.authorize_each` hands them out, a failure of the process while
    answering them being met at the first batch as ``authorize()``'s.  Otherwise the answers
    are None and the caller asks as before.  ``meanwhile`` (the caller's own work, such as the reference's
    answers) is handed to that write only; where there is none, the caller passes it on."""
    target = guarded("creating the target", ctx.make_target)
    snapshot = dict(scenario.acls if acls is None else acls)
    steps: list[tuple[str, Callable[[], object]]]
    asking = getattr(target, "configure_load_and_ask", None) if complete and kafka_accepts and ask else None
    whole = getattr(target, "configure_and_load", None) if complete and kafka_accepts and asking is None else None
    if asking is not None:  # the set-up and the questions in one round trip
        work = driver.hand_off(target, meanwhile)
        (configured, loaded, completed), read = driver.while_asking(  # a failure of the questions is in ``read``
            "configure() and load_snapshot()", lambda w: asking(scenario.config, snapshot, ask, **driver.during(w)), work)
    elif whole is not None:  # one round trip to a process instead of two; met in the same order
        configured, loaded, completed = guarded("configure() and load_snapshot()", lambda: whole(scenario.config, snapshot))
    if asking is not None or whole is not None:
        try:
            guarded("configure()", lambda: answered(configured))
        except KafkaException:
            return None, None
        steps = [("load_snapshot()", lambda: answered(loaded)), ("complete_initial_load()", lambda: answered(completed))]
        loaded_target = _loaded(target, steps)
        return loaded_target, (driver.hand_out(read, ask) if asking is not None else None)
    try:
        guarded("configure()", lambda: target.configure(scenario.config))
    except KafkaException:
        return None, None
    both = getattr(target, "load_and_complete", None) if complete else None
    if both is not None:  # one round trip to a process instead of two; met in the same order
        loaded, completed = guarded("load_snapshot()", lambda: both(snapshot))
        steps = [("load_snapshot()", lambda: answered(loaded)), ("complete_initial_load()", lambda: answered(completed))]
    else:
        steps = [("load_snapshot()", lambda: target.load_snapshot(snapshot))]
        if complete:
            steps.append(("complete_initial_load()", target.complete_initial_load))
    return _loaded(target, steps), None


def _loaded(target: AuthorizerUnderTest, steps: list[tuple[str, Callable[[], object]]]) -> AuthorizerUnderTest:
    """The target once its load steps (asked now or read ahead) are met, in order."""
    try:
        guarded(*steps[0])
    except KafkaException as exc:
        # The generated snapshots are consistent: refusing one is the target failing to answer.
        raise TargetCrashed(f"load_snapshot() refused a consistent snapshot: {exc.kind}: {exc}") from exc
    for what, step in steps[1:]:
        guarded(what, step)
    return target


def close_target(target: AuthorizerUnderTest | None) -> None:
    if target is not None:
        guarded("close()", target.close)


@contextlib.contextmanager
def paired(ctx: CheckContext, scenario: Scenario, *, initial: bool = True,
          complete: bool = True) -> Iterator[tuple[ReferenceAuthorizer, AuthorizerUnderTest] | None]:
    """A configured reference and a fresh target, both loaded the same way
    (the scenario's snapshot, or nothing when ``initial`` is false; the initial
    load completed or not).  Yields None when the configuration is invalid for
    either (``check_authorize`` checks that they agree on that)."""
    ref = ctx.reference(scenario)
    target = fresh_target(ctx, scenario, acls=None if initial else (), complete=complete, kafka_accepts=ref is not None)
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
        close_target(target)


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


class WorkedOut(Generic[T]):
    """The reference's answers to a list of questions, worked out once, when first asked for
    (called as a process target's ``meanwhile`` work, while the implementation answers the
    same questions; the reference is read-only here, so when they are worked out changes
    nothing).  Each answer is kept as its value or as the exception working it out raised, and
    :meth:`take` raises that exception at the answer's turn, so that failures come in the order
    they came when each answer was worked out just before its comparison."""

    def __init__(self, steps: Sequence[Callable[[], T]]) -> None:
        self._steps = steps
        self._results: list[tuple[bool, Any]] | None = None

    def __call__(self) -> None:
        if self._results is not None:
            return
        results: list[tuple[bool, Any]] = []
        for step in self._steps:
            try:
                results.append((True, step()))
            except Exception as exc:
                results.append((False, exc))
        self._results = results

    def take(self, n: int) -> T:
        self()
        assert self._results is not None
        ok, value = self._results[n]
        if not ok:
            raise value
        return cast(T, value)


def reference_answers(ref: ReferenceAuthorizer, queries: Sequence[Query]) -> WorkedOut[list[Decision]]:
    """The reference's answers to ``queries`` in its present state (see :class:`WorkedOut`)."""
    return WorkedOut([functools.partial(ref.authorize, q.context, q.actions) for q in queries])


U = TypeVar("U")


def at_turn(answers: Iterator[U], reference: WorkedOut[T], n: int) -> tuple[T, U]:
    """Question ``n``'s answer from the reference and from the target: the target's read
    first (its read may be what sets the reference's work going), but a failure of the
    reference's is raised before one of the target's, as when the reference's answer was
    worked out first."""
    try:
        actual = next(answers)
    except Exception:
        reference.take(n)
        raise
    return reference.take(n), actual


def compare_queries(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer,
                     queries: Sequence[Query], scenario: Scenario, step: str = "",
                     answers: Iterator[list[Outcome]] | None = None,
                     expected: WorkedOut[list[Decision]] | None = None) -> None:
    """Ask ``queries`` (or take ``answers`` already read, one per query) and compare each
    action's answer with the reference's (``expected``: its answers, perhaps computed while
    the target answered), in order."""
    reference = expected or reference_answers(ref, queries)
    if answers is None:
        answers = driver.authorize_each(target, [(q.context, q.actions) for q in queries], meanwhile=reference)
    for n, query in enumerate(queries):
        decisions, actual = at_turn(answers, reference, n)
        for action, exp, act in zip(query.actions, decisions, actual, strict=False):
            record_coverage(ctx, exp, ref.config.allow_everyone_if_no_acl_found)
            if agree(ctx, exp, act):
                continue
            raise CaseFailed(
                Divergence(
                    anomaly=classify(
                        exp, act.result, action, context=query.context, acls=ref.acls(),
                        allow_everyone=ref.config.allow_everyone_if_no_acl_found,
                        profile=ref.profile,
                    ),
                    question=f"authorize({query.context}, [{action}])",
                    expected=str(expected_outcome(exp)),
                    actual=str(act),
                    explanation=exp.explain(),
                    step=step,
                )
            )


def check_count(ctx: CheckContext, target: AuthorizerUnderTest, ref: ReferenceAuthorizer, step: str,
                answer: Callable[[], int] | None = None) -> None:
    """``acl_count()`` (or ``answer``, a count already read) against the reference's."""
    if not ctx.caps.acl_count:
        return
    actual = guarded("acl_count()", answer or target.acl_count)
    if actual != ref.acl_count():
        raise CaseFailed(Divergence("acl-count-wrong", "acl_count()", str(ref.acl_count()), str(actual),
                                    "acl_count() is the number of ACL ids held", step))




def answers_of(ctx: CheckContext, scenario: Scenario, acls: Sequence[tuple[str, AclBinding]]) -> list[Outcome] | None:
    """The target's answers to the scenario's questions on a fresh target loaded with
    ``acls``; None where it refused the configuration.  A process target gets the set-up and
    the questions in one write where Kafka accepts the configuration."""
    batches = [(q.context, q.actions) for q in scenario.queries]
    target, answers = fresh_target_asking(ctx, scenario, acls, kafka_accepts=ctx.reference(scenario) is not None,
                                          ask=batches)
    try:
        if target is None:
            return None
        if answers is None:
            answers = driver.authorize_each(target, batches)
        return [o for batch in answers for o in batch]
    finally:
        close_target(target)


def questions_of(scenario: Scenario) -> list[str]:
    return [f"authorize({q.context}, [{a}])" for q in scenario.queries for a in q.actions]

