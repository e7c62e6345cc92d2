"""One case, one call: what the kit sends an implementation, and what comes back.

Every authorizer property is a sequence of calls to a fresh implementation whose
order the kit knows before it asks anything (it works the reference's answers out
first), so a whole case can go to the implementation at once: :func:`run_case`
hands a :class:`CaseRequest` to the target's own ``run_case`` where it declares one
(a process over JSON lines answers it in one write, the JVM shim in one py4j
call), and otherwise runs it on the ten methods of the protocol, one by one
(:func:`run_by_calls`, the default every in-process target gets).

Why the answers come back as values (:class:`CaseAnswers`): the kit meets them in
the order of the calls, so what it reports is what it would have reported asking
one call at a time.  A refusal (a :class:`~kafka_conformance.reference.errors.KafkaException`)
is an answer like any other; the first call the implementation could not answer
(a crash, a timeout, anything else raised) ends the case there, and the kit meets
that failure at that call, after every answer before it.  A refused
``configure`` also ends the case: nothing after it means anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

import attrs

from kafka_conformance.adapters.protocol import AuthorizerUnderTest
from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AclRecord
from kafka_conformance.reference.errors import KafkaException

__all__ = [
    "CALL_NAMES",
    "Apply",
    "Authorize",
    "AuthorizeByResourceType",
    "Call",
    "CaseAnswers",
    "CaseRequest",
    "CaseRunner",
    "CompleteInitialLoad",
    "Configure",
    "CountAcls",
    "ListAcls",
    "LoadSnapshot",
    "run_by_calls",
    "run_case",
]


@attrs.frozen
class Configure:
    """``configure(properties)``; a refusal ends the case."""

    properties: tuple[tuple[str, str], ...]

    @property
    def mapping(self) -> Mapping[str, str]:
        return dict(self.properties)

    def __str__(self) -> str:
        return f"configure({dict(self.properties)})"


@attrs.frozen
class LoadSnapshot:
    """``load_snapshot(acls)``: every ACL at once, by KIP-801 record id."""

    acls: tuple[tuple[str, AclBinding], ...]

    @property
    def mapping(self) -> Mapping[str, AclBinding]:
        return dict(self.acls)

    def __str__(self) -> str:
        return f"load_snapshot({len(self.acls)} ACL{'s' if len(self.acls) != 1 else ''})"


@attrs.frozen
class Apply:
    """``apply(record)``: one AddAcl or RemoveAcl record."""

    record: AclRecord

    def __str__(self) -> str:
        return f"apply({self.record})"


@attrs.frozen
class CompleteInitialLoad:
    """``complete_initial_load()``."""

    def __str__(self) -> str:
        return "complete_initial_load()"


@attrs.frozen
class Authorize:
    """``authorize(context, actions)``: one batch."""

    context: RequestContext
    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return f"authorize({self.context}, [{', '.join(map(str, self.actions))}])"


@attrs.frozen
class AuthorizeByResourceType:
    """``authorize_by_resource_type(context, operation, resource_type)``."""

    context: RequestContext
    operation: AclOperation
    resource_type: ResourceType

    def __str__(self) -> str:
        return f"authorize_by_resource_type({self.context}, {self.operation.name}, {self.resource_type.name})"


@attrs.frozen
class ListAcls:
    """``acls(filter)``."""

    filter: AclBindingFilter

    def __str__(self) -> str:
        return f"acls({self.filter})"


@attrs.frozen
class CountAcls:
    """``acl_count()``."""

    def __str__(self) -> str:
        return "acl_count()"


Call = (Configure | LoadSnapshot | Apply | CompleteInitialLoad | Authorize | AuthorizeByResourceType | ListAcls
        | CountAcls)
"""One call of the protocol, as a value."""

CALL_NAMES: dict[type, str] = {
    Configure: "configure()", LoadSnapshot: "load_snapshot()", Apply: "apply()",
    CompleteInitialLoad: "complete_initial_load()", Authorize: "authorize()",
    AuthorizeByResourceType: "authorize_by_resource_type()", ListAcls: "acls()", CountAcls: "acl_count()",
}
"""Each call's method, as errors name the call a target could not answer."""


@attrs.frozen
class CaseRequest:
    """A case: the calls, in order, to an implementation in a fresh state."""

    calls: tuple[Call, ...]


@attrs.frozen
class CaseAnswers:
    """What the implementation answered, call by call.

    ``answers[n]`` is call ``n``'s return value (None for the calls that return
    nothing) or the :class:`KafkaException` it refused with.  Where the
    implementation could not answer call ``len(answers)`` (it crashed, timed out,
    raised anything but a refusal, or its answer could not be read), ``failure`` is
    that error and nothing after it was answered.  Fewer answers than calls and no
    failure means the case ended at a refused ``configure``."""

    answers: tuple[object, ...]
    failure: Exception | None = None


@runtime_checkable
class CaseRunner(Protocol):
    """A target that takes a whole case in one call (the JSON-lines and JVM adapters)."""

    def run_case(self, request: CaseRequest) -> CaseAnswers: ...


def run_case(target: AuthorizerUnderTest, request: CaseRequest) -> CaseAnswers:
    """``target.run_case(request)`` where the target declares it, else :func:`run_by_calls`."""
    if isinstance(target, CaseRunner):
        return target.run_case(request)
    return run_by_calls(target, request)


def run_by_calls(target: AuthorizerUnderTest, request: CaseRequest) -> CaseAnswers:
    """The default: the case's calls made one by one on the ten methods of the protocol."""
    answers: list[object] = []
    for call in request.calls:
        raise_if_stopping()
        try:
            answers.append(_call(target, call))
        except KafkaException as exc:
            answers.append(exc)
            if isinstance(call, Configure):
                break
        except Exception as exc:  # the implementation could not answer: the case ends here
            return CaseAnswers(tuple(answers), exc)
    return CaseAnswers(tuple(answers))


def _call(target: AuthorizerUnderTest, call: Call) -> object:
    if isinstance(call, Authorize):
        return target.authorize(call.context, list(call.actions))
    if isinstance(call, Apply):
        return target.apply(call.record)  # type: ignore[func-returns-value]
    if isinstance(call, AuthorizeByResourceType):
        return target.authorize_by_resource_type(call.context, call.operation, call.resource_type)
    if isinstance(call, CountAcls):
        return target.acl_count()
    if isinstance(call, ListAcls):
        return target.acls(call.filter)
    if isinstance(call, Configure):
        return target.configure(call.mapping)  # type: ignore[func-returns-value]
    if isinstance(call, LoadSnapshot):
        return target.load_snapshot(call.mapping)  # type: ignore[func-returns-value]
    if isinstance(call, CompleteInitialLoad):
        return target.complete_initial_load()  # type: ignore[func-returns-value]
    raise TypeError(f"not a call of the protocol: {call!r}")
