"""Talking to a target safely: every call is either an answer, a Kafka-style error,
or an adapter error.  Nothing a target does is allowed to pass silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

import attrs

from kafka_conformance.adapters.protocol import AdapterError, AuthorizerUnderTest
from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.reference.acl.values import AclOperation, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.errors import KafkaException

__all__ = ["CaseFailed", "Outcome", "TargetCrashed", "answered", "authorize", "authorize_each", "by_type", "by_type_each",
           "during", "guarded", "hand_off", "hand_out", "takes_meanwhile", "while_asking"]

T = TypeVar("T")


@attrs.frozen
class Outcome:
    result: AuthorizationResult
    error: str | None = None

    def __str__(self) -> str:
        if self.result is AuthorizationResult.ERROR:
            return f"ERROR ({self.error})"
        return self.result.name


class CaseFailed(AssertionError):
    """Raised inside a Hypothesis test when the target disagrees; carries the divergence."""

    def __init__(self, divergence: object) -> None:
        self.divergence = divergence
        super().__init__(str(divergence))


class TargetCrashed(AssertionError):
    """Raised when the target could not answer.  ``kind`` is the adapter's error kind
    (``timeout``, ``crash``, ``malformed``, ...) or ``raised`` for an exception out of an
    in-process target, ``wrong-answer`` for an answer of the wrong shape."""

    def __init__(self, what: str, kind: str = "wrong-answer") -> None:
        self.what = what
        self.kind = kind
        super().__init__(what)

    @property
    def stopped_answering(self) -> bool:
        """A target that timed out: its state is unknown and every later call would wait again."""
        return self.kind == "timeout"


def guarded(what: str, fn: Callable[[], T]) -> T:
    """Run one call into the target; turn crashes into TargetCrashed with context."""
    raise_if_stopping()
    try:
        return fn()
    except (KafkaException, CaseFailed, TargetCrashed):
        raise
    except AdapterError as exc:
        raise TargetCrashed(f"{what}: {exc.kind}: {exc}", exc.kind) from exc
    except Exception as exc:
        raise TargetCrashed(f"{what} raised {type(exc).__name__}: {str(exc)[:500]}", "raised") from exc


def authorize(
    target: AuthorizerUnderTest, context: RequestContext, actions: Sequence[Action]
) -> list[Outcome]:
    """One batch; a Kafka-style error answers every action of the batch."""
    try:
        raw = guarded("authorize()", lambda: target.authorize(context, list(actions)))
    except KafkaException as exc:
        return [Outcome(AuthorizationResult.ERROR, exc.kind)] * len(actions)
    return _outcomes(raw, actions)


def authorize_each(
    target: AuthorizerUnderTest, queries: Sequence[tuple[RequestContext, Sequence[Action]]],
    meanwhile: Callable[[], object] | None = None,
) -> Iterator[list[Outcome]]:
    """The answers to several batches, in order, as :func:`authorize` gives each.

    A target with ``authorize_batches`` (the JSON-lines adapter) gets every batch in one
    request: one round trip per case instead of one per question.  The answers are still
    handed out one batch at a time, and a batch the implementation could not answer raises
    only when its turn comes, so a divergence in an earlier batch is reported first, exactly
    as when the batches are asked one by one.  Other targets are asked lazily, batch by batch.

    ``meanwhile`` (the caller's own work, such as the reference's answers) is done when the
    first answer is asked for: while a process target answers the request, before the first
    question of any other target.  It is not done when asking fails first."""
    batched = getattr(target, "authorize_batches", None)
    work = _handed_over(target, batched, meanwhile)
    if batched is None or not queries or (len(queries) < 2 and work is None):
        for context, actions in queries:
            yield authorize(target, context, actions)
        return
    sent = [(c, list(a)) for c, a in queries]
    try:
        answers: object = while_asking("authorize()", lambda w: batched(sent, **during(w)), work)
    except KafkaException as exc:  # a refusal of the whole request answers every batch in it
        answers = exc
    yield from hand_out(answers, queries)


def while_asking(what: str, ask: Callable[[Callable[[], None] | None], T], meanwhile: Callable[[], object] | None) -> T:
    """``guarded(what, ...)`` of a call into a process target that takes the caller's own work
    to do while the implementation answers (``meanwhile=``, the JSON-lines adapter's pipelined
    calls).  The work is done at most once, not when the call fails before it.  An exception
    of the work is the kit's, raised as it is once the call has returned: never taken for the
    target's failure, and never left inside the adapter's exchange."""
    if meanwhile is None:
        return guarded(what, lambda: ask(None))
    failed: list[Exception] = []

    def work() -> None:
        try:
            meanwhile()
        except Exception as exc:
            failed.append(exc)

    try:
        result = guarded(what, lambda: ask(work))
    except Exception as exc:  # the target failed too: the kit's own error comes first
        if failed:
            raise failed[0] from exc
        raise
    if failed:
        raise failed[0]
    return result


def hand_off(target: object, meanwhile: Callable[[], object] | None) -> Callable[[], object] | None:
    """The work to hand to a pipelined call of ``target`` that has one (see :func:`_handed_over`)."""
    return _handed_over(target, True, meanwhile)


def _handed_over(target: object, batched: object, meanwhile: Callable[[], object] | None) -> Callable[[], object] | None:
    """The work to hand to ``target``'s pipelined batch call, or None when there is none or
    it has just been done here (a target that takes no work, or one without batch calls)."""
    if meanwhile is not None and (batched is None or not takes_meanwhile(target)):
        meanwhile()
        return None
    return meanwhile


def takes_meanwhile(target: object) -> bool:
    """Whether ``target``'s batch methods take ``meanwhile=`` (the JSON-lines adapter says so
    with ``takes_meanwhile = True``); other targets, a user's in-process one with batch
    methods of its own among them, are called as before and the work is done first."""
    return getattr(target, "takes_meanwhile", False) is True


def during(work: Callable[[], None] | None) -> dict[str, Callable[[], None]]:
    """The ``meanwhile=`` keyword for a batched call, left out when there is no such work."""
    return {} if work is None else {"meanwhile": work}


def hand_out(answers: object, queries: Sequence[tuple[RequestContext, Sequence[Action]]]) -> Iterator[list[Outcome]]:
    """Batch answers already read (``authorize_batches``' list, or the exception the whole
    request stands for), handed out as :func:`authorize_each` does: each failure at its turn."""
    if isinstance(answers, KafkaException):  # as authorize() answers a refused call: every action
        for _, actions in queries:
            yield [Outcome(AuthorizationResult.ERROR, answers.kind)] * len(actions)
        return
    if isinstance(answers, Exception):
        yield guarded("authorize()", lambda: answered(answers))
        return
    if not isinstance(answers, list) or len(answers) != len(queries):
        raise TargetCrashed(f"authorize_batches() returned {str(answers)[:200]}, expected {len(queries)} batch answers")
    for (_, actions), answer in zip(queries, answers, strict=True):
        if isinstance(answer, KafkaException):
            yield [Outcome(AuthorizationResult.ERROR, answer.kind)] * len(actions)
        elif isinstance(answer, Exception):
            yield guarded("authorize()", lambda a=answer: answered(a))  # type: ignore[misc]
        else:
            yield _outcomes(answer, actions)


def answered(outcome: T | BaseException) -> T:
    """An answer read ahead (a pipelined write), or the exception it stands for, raised where
    the call would have raised it."""
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def _outcomes(raw: object, actions: Sequence[Action]) -> list[Outcome]:
    """A batch's answers checked for shape: exactly one ALLOWED or DENIED per action."""
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Iterable):
        raise TargetCrashed(f"authorize() returned {str(raw)[:200]} ({type(raw).__name__}), expected a list of "
                            f"{len(actions)} AuthorizationResult")
    answers = list(raw)
    if len(answers) != len(actions):
        raise TargetCrashed(
            f"authorize() returned {len(answers)} results for {len(actions)} actions"
        )
    out = []
    for answer in answers:
        outcome = _ANSWERS.get(answer) if isinstance(answer, AuthorizationResult) else None
        if outcome is None:
            raise TargetCrashed(f"authorize() returned {answer!r}, expected ALLOWED or DENIED")
        out.append(outcome)
    return out


_ANSWERS = {r: Outcome(r) for r in (AuthorizationResult.ALLOWED, AuthorizationResult.DENIED)}
"""The two plain answers, built once (outcomes are frozen values)."""


def by_type_each(
    target: AuthorizerUnderTest, queries: Sequence[tuple[RequestContext, AclOperation, ResourceType]],
    meanwhile: Callable[[], object] | None = None,
) -> Iterator[Outcome]:
    """The answers to several ``authorize_by_resource_type`` questions, in order, as
    :func:`by_type` gives each.  A target with ``authorize_by_resource_type_batches`` (the
    JSON-lines adapter) gets them in one request; a failure is raised only at its turn, so
    an earlier divergence is reported first, as when asked one by one.  ``meanwhile`` as
    in :func:`authorize_each`."""
    batched = getattr(target, "authorize_by_resource_type_batches", None)
    work = _handed_over(target, batched, meanwhile)
    if batched is None or not queries or (len(queries) < 2 and work is None):
        for query in queries:
            yield by_type(target, *query)
        return
    sent = list(queries)
    try:
        answers: object = while_asking("authorize_by_resource_type()", lambda w: batched(sent, **during(w)), work)
    except KafkaException as exc:  # a refusal of the whole request answers every query in it
        answers = [exc] * len(queries)
    if not isinstance(answers, list) or len(answers) != len(queries):
        raise TargetCrashed(f"authorize_by_resource_type_batches() returned {str(answers)[:200]}, "
                            f"expected {len(queries)} answers")
    for read in answers:
        yield _by_type_outcome(lambda a=read: answered(a))  # type: ignore[misc]


def by_type(target: AuthorizerUnderTest, *args: object) -> Outcome:
    return _by_type_outcome(lambda: target.authorize_by_resource_type(*args))  # type: ignore[arg-type]


def _by_type_outcome(ask: Callable[[], object]) -> Outcome:
    """One ``authorize_by_resource_type`` answer (asked now, or read ahead) as an Outcome."""
    try:
        answer = guarded("authorize_by_resource_type()", ask)
    except KafkaException as exc:
        return Outcome(AuthorizationResult.ERROR, exc.kind)
    if answer not in (AuthorizationResult.ALLOWED, AuthorizationResult.DENIED):
        raise TargetCrashed(
            f"authorize_by_resource_type() returned {answer!r}, expected ALLOWED or DENIED"
        )
    return Outcome(answer)
