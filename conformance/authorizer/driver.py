"""Talking to a target safely: a case goes to the target in one call, and its answers
are met one by one, in the order of the calls.  Every answer is either a value of the
right shape, a Kafka-style refusal, or the target failing to answer.  Nothing a
target does is allowed to pass silently.

Why the answers are met in order, by a cursor (:class:`Replies`): what the kit
reports must not depend on how many calls went to the implementation at once.  A
property reads the answers in the order it made the calls, so an earlier divergence
is reported before a later crash, and a crash is reported at the call it happened
on, exactly as when each call is made on its own.
"""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import attrs

from kafka_conformance.adapters import case as _case_module
from kafka_conformance.adapters.case import (
    CALL_NAMES,
    Apply,
    Authorize,
    AuthorizeByResourceType,
    Call,
    CaseAnswers,
    CaseRequest,
    CompleteInitialLoad,
    Configure,
    CountAcls,
    ListAcls,
    LoadSnapshot,
    run_case,
)
from kafka_conformance.adapters.protocol import AdapterError, AuthorizerUnderTest
from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.reference import errors as _errors_module
from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.errors import KafkaException

if TYPE_CHECKING:  # the report's values import the case's modules; the driver needs the type only
    from kafka_conformance.authorizer.report import Divergence

__all__ = ["CaseFailed", "Outcome", "Replies", "TargetCrashed", "authorize", "crashed", "guarded",
           "outcomes", "run", "set_up_calls"]

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

    def __init__(self, divergence: Divergence) -> None:
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
    except Exception as exc:
        raise crashed(what, exc) from exc


def crashed(what: str, exc: Exception, asked: Call | None = None) -> TargetCrashed:
    """The target's failure to answer ``what``, named as the kit reports it: the call it was
    asked (``asked``), and, for an exception out of the implementation's own code, where in
    that code it was raised, so that a user can go to the line."""
    if isinstance(exc, TargetCrashed):
        return exc
    if isinstance(exc, AdapterError):
        text, kind = f"{what}: {exc.kind}: {exc}", exc.kind
    else:
        text, kind = f"{what} raised {type(exc).__name__}: {str(exc)[:500]}", "raised"
    if asked is not None:
        text += f"\n  asked: {str(asked)[:500]}"
    return TargetCrashed(text + _where_raised(exc), kind)


_KIT = tuple(str(p) + os.sep for p in (Path(__file__).resolve().parents[1], Path(_case_module.__file__).resolve().parent,
                                        Path(_errors_module.__file__).resolve().parent))
"""The kit's own source folders: frames there are not the implementation's."""


def _where_raised(exc: BaseException, frames: int = 6) -> str:
    """The innermost frames of ``exc``'s traceback outside the kit (the implementation's own
    code), as Python prints them; empty for an error the kit raised about an answer."""
    if isinstance(exc, AdapterError) or exc.__traceback__ is None:
        return ""
    own = [f for f in traceback.extract_tb(exc.__traceback__)
           if not str(Path(f.filename).resolve()).startswith(_KIT) and "/hypothesis/" not in f.filename]
    if not own:
        return ""
    lines = "".join(traceback.format_list(own[-frames:])).rstrip()
    return "\n  raised at (innermost last):\n" + "\n".join("  " + line for line in lines.splitlines())




class Replies:
    """A case's answers, met one at a time in the order of its calls.

    Each method (``configured``, ``loaded``, ``applied``, ``authorize``, ...) meets the next
    call's answer, asserting that the call is of its kind: it checks the answer's shape and
    raises :class:`TargetCrashed` where the implementation could not answer that call
    (so a crash is met at the call it happened on, after every answer before it).
    Refusals come back as values, and each method says how."""

    def __init__(self, calls: Sequence[Call], answered: CaseAnswers) -> None:
        self._calls = calls
        self._answers = answered.answers
        self._failure = answered.failure
        self._next = 0

    def _take(self, kind: type, what: str | None = None) -> object:
        n = self._next
        call = self._calls[n]
        assert type(call) is kind, f"the kit met call {n} ({type(call).__name__}) as {kind.__name__}"
        self._next += 1
        name = what or CALL_NAMES[kind]
        if n < len(self._answers):
            return self._answers[n]
        if self._failure is not None:
            raise crashed(name, self._failure, call)
        raise TargetCrashed(f"{name}: the case ended before this call, though configure() was accepted", "malformed")

    def configured(self) -> bool:
        """Whether ``configure`` was accepted (False: refused, as Kafka refuses a configuration)."""
        return not isinstance(self._take(Configure), KafkaException)

    def loaded(self, what: str = "load_snapshot()") -> None:
        """A snapshot load; every snapshot the kit sends is consistent, so refusing one is
        the target failing to answer."""
        answer = self._take(LoadSnapshot, what)
        if isinstance(answer, KafkaException):
            raise TargetCrashed(f"{what} refused a consistent snapshot: {answer.kind}: {answer}", "refused")

    def completed(self) -> None:
        answer = self._take(CompleteInitialLoad)
        if isinstance(answer, KafkaException):
            raise TargetCrashed(f"complete_initial_load() refused: {answer.kind}: {answer}", "refused")

    def set_up(self, complete: bool) -> bool:
        """A case's set-up (:func:`set_up_calls`): False where the configuration was refused."""
        if not self.configured():
            return False
        self.loaded()
        if complete:
            self.completed()
        return True

    def applied(self, what: str = "apply()") -> str | None:
        """A record: None where it was applied, else the kind of the refusal."""
        answer = self._take(Apply, what)
        return answer.kind if isinstance(answer, KafkaException) else None

    def authorize(self) -> list[Outcome]:
        """One batch; a refusal answers every action of the batch."""
        call = self._calls[self._next]
        answer = self._take(Authorize)
        assert isinstance(call, Authorize)
        if isinstance(answer, KafkaException):
            return [Outcome(AuthorizationResult.ERROR, answer.kind)] * len(call.actions)
        return outcomes(answer, call.actions)

    def by_type(self) -> Outcome:
        return _by_type_outcome(self._take(AuthorizeByResourceType))

    def acls(self) -> list[AclBinding]:
        answer = self._take(ListAcls)
        if isinstance(answer, KafkaException):
            raise TargetCrashed(f"acls() refused: {answer.kind}: {answer}", "refused")
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
            raise TargetCrashed(f"acls() returned {str(answer)[:200]} ({type(answer).__name__}), expected a list of AclBinding")
        return list(answer)

    def count(self) -> int:
        answer = self._take(CountAcls)
        if isinstance(answer, KafkaException):
            raise TargetCrashed(f"acl_count() refused: {answer.kind}: {answer}", "refused")
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise TargetCrashed(f"acl_count() returned {str(answer)[:200]} ({type(answer).__name__}), expected an int")
        return answer


def set_up_calls(config: Iterable[tuple[str, str]], acls: Iterable[tuple[str, AclBinding]], *,
                 complete: bool = True) -> list[Call]:
    """A fresh implementation configured, loaded with ``acls`` and (``complete``) its
    initial load completed: the set-up every case starts with."""
    calls: list[Call] = [Configure(tuple(config)), LoadSnapshot(tuple(acls))]
    if complete:
        calls.append(CompleteInitialLoad())
    return calls


@contextlib.contextmanager
def run(make_target: Callable[[], AuthorizerUnderTest], calls: Sequence[Call]) -> Iterator[Replies]:
    """A fresh target made, ``calls`` sent to it as one case, the target closed, and the
    answers yielded to be met in order.  A failure to close is reported once every answer
    was met without a divergence (a divergence is the more useful finding)."""
    target = guarded("creating the target", make_target)
    sent = tuple(calls)
    try:
        answered = guarded("the case", lambda: run_case(target, CaseRequest(sent)))
    except BaseException:  # a crash, a refusal out of a user's run_case, Ctrl-C: the target is closed all the same
        _close_quietly(target)
        raise
    closing: TargetCrashed | None = None
    try:
        guarded("close()", target.close)
    except (TargetCrashed, KafkaException) as exc:
        closing = exc if isinstance(exc, TargetCrashed) else TargetCrashed(f"close() refused: {exc}", "refused")
    yield Replies(sent, answered)
    if closing is not None:
        raise closing


def _close_quietly(target: AuthorizerUnderTest) -> None:
    with contextlib.suppress(Exception):
        target.close()


# -- one call at a time (the stateful machine, which drives a live target step by step) ------------


def authorize(target: AuthorizerUnderTest, context: RequestContext, actions: Sequence[Action]) -> list[Outcome]:
    """One batch asked now; a Kafka-style error answers every action of the batch."""
    try:
        raw = guarded("authorize()", lambda: target.authorize(context, list(actions)))
    except KafkaException as exc:
        return [Outcome(AuthorizationResult.ERROR, exc.kind)] * len(actions)
    return outcomes(raw, actions)



def outcomes(raw: object, actions: Sequence[Action]) -> list[Outcome]:
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


def _by_type_outcome(answer: object) -> Outcome:
    """One ``authorize_by_resource_type`` answer as an Outcome."""
    if isinstance(answer, KafkaException):
        return Outcome(AuthorizationResult.ERROR, answer.kind)
    if answer not in (AuthorizationResult.ALLOWED, AuthorizationResult.DENIED):
        raise TargetCrashed(
            f"authorize_by_resource_type() returned {answer!r}, expected ALLOWED or DENIED"
        )
    return Outcome(answer)
