"""Drive an authorizer written in any language, as a process speaking JSON lines.

The protocol is documented in ``docs/subprocess-protocol.md`` (schemas in
``docs/schemas/``).  Target spec: ``cmd:<command line>``, for example::

    kafka-conformance check authorizer --target "cmd:node examples/node_authorizer/authorizer.js"

Why it is built this way:

* the kit makes a new adapter for every case; starting a process per case would
  dominate the run, so adapters made by a target share one process through a
  pooled :class:`ImplementationSession` and start with ``reset`` (sent in the
  same write as their first real request, so it costs no extra round trip);
* a case goes in one write (:meth:`SubprocessAuthorizer.run_case`): one round trip
  per case, whatever it asks, and a run of questions is one request line;
* whatever the process does (crash, hang, print garbage) the kit gets an
  :class:`AdapterError` ("could not answer") with the process's stderr tail,
  never a hang and never a false verdict; Kafka-style refusals arrive as
  :class:`AuthorizerError` / :class:`ConfigError` and are compared with Kafka's.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafka_conformance.adapters.case import (
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
)
from kafka_conformance.adapters.jsonlines.process import Encoded, encoded
from kafka_conformance.adapters.jsonlines.session import (
    DEFAULT_TIMEOUT,
    TIMEOUT_ENV,
    ImplementationSession,
    split_command,
)
from kafka_conformance.adapters.jsonlines.wire import (
    WireError,
    WireErrorInfo,
    decode_answer,
    decode_bindings,
    decode_count,
    decode_results,
    encode_action,
    encode_context,
    encode_filter,
    encode_properties,
    encode_record,
    encode_snapshot,
)
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.adapters.reaper import closes_shared
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import AclRecord
from kafka_conformance.reference.errors import KafkaException

__all__ = [
    "DEFAULT_TIMEOUT",
    "TIMEOUT_ENV",
    "ImplementationSession",
    "SubprocessAuthorizer",
    "close_shared_sessions",
    "command_target",
    "shared_session",
]

_LOST = -1
"""Generation of an adapter whose process failed mid-request: its state is gone."""

class SubprocessAuthorizer:
    """:class:`~kafka_conformance.adapters.protocol.AuthorizerUnderTest` over a process.

    ``SubprocessAuthorizer("node my_authorizer.js")`` owns its process and stops it
    on :meth:`close`; :meth:`sharing` makes one that borrows a session (the target
    factory does this) and leaves the process running for the next adapter.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float | None = None, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self._init(ImplementationSession(command, timeout=timeout, cwd=cwd, env=env), owns=True)

    @classmethod
    def sharing(cls, session: ImplementationSession) -> SubprocessAuthorizer:
        adapter = cls.__new__(cls)
        adapter._init(session, owns=False)
        return adapter

    def _init(self, session: ImplementationSession, *, owns: bool) -> None:
        self.session = session
        self._owns = owns
        self._needs_reset = True
        self._generation = _LOST
        self._closed = False

    def reset(self) -> None:
        """Start again from a fresh implementation state (sent with the next request)."""
        self._needs_reset = True

    # -- plumbing ---------------------------------------------------------------------------
    def _send(self, requests: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """``requests`` in one write, after the ``reset`` a fresh adapter owes (its answer checked
        here); the other responses, unread."""
        if self._closed:
            raise AdapterError("closed", f"{requests[0][0]}() called on a closed adapter")
        reset = self._needs_reset
        try:
            responses, generation = self.session.call([("reset", {}), *requests] if reset else requests,
                                                      generation=None if reset else self._generation)
        except Exception as exc:  # crash, timeout, malformed: whatever state it held is gone
            self._needs_reset, self._generation = False, _LOST
            if reset and isinstance(exc, AdapterError) and exc.received is not None:
                exc.received = exc.received[1:] if exc.received[0] is not None else [None] * len(requests)
            raise
        except BaseException:  # Ctrl-C, a stop: the same, and nothing is raised in its place
            self._needs_reset, self._generation = False, _LOST
            raise
        if reset:
            try:
                self.session.unwrap(responses[0], "reset")
            except Exception as exc:
                raise AdapterError("protocol-error", f"reset failed: {exc}") from None
            self._needs_reset, self._generation = False, generation
            return responses[1:]
        return responses

    @staticmethod
    def _malformed(op: str, exc: WireError) -> AdapterError:
        return AdapterError("malformed", f"the answer to {op}: {exc}")

    # -- the protocol -----------------------------------------------------------------------
    def capabilities(self) -> Capabilities:
        return self.session.capabilities

    def configure(self, properties: Mapping[str, str]) -> None:
        self._one(Configure(tuple(properties.items())))

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self._one(LoadSnapshot(tuple(acls.items())))

    def apply(self, record: AclRecord) -> None:
        self._one(Apply(record))

    def complete_initial_load(self) -> None:
        self._one(CompleteInitialLoad())

    def run_case(self, request: CaseRequest) -> CaseAnswers:
        """The whole case in one write (after the ``reset`` a fresh adapter owes), its
        answers read back as values (:mod:`~kafka_conformance.adapters.case`).  Consecutive
        ``authorize`` calls go as one request of several batches, and so do consecutive
        ``authorize_by_resource_type`` calls, as the protocol always allowed; a batch the
        record log asks after every step is encoded once per case.  Where the process fails
        part-way (a crash, a timeout, a line that is not an answer), the answers that came
        are kept and the failure stands at the first call that has none."""
        groups = _grouped(request.calls)
        memo: dict[object, Encoded] = {}
        requests = [self._request(calls, memo) for calls in groups]
        failure: AdapterError | None = None
        responses: Sequence[dict[str, Any] | None]
        try:
            responses = self._send(requests)
        except AdapterError as exc:
            if exc.received is None:
                return CaseAnswers((), exc)
            responses, failure = exc.received, exc
        answers: list[object] = []
        for calls, (op, params), response in zip(groups, requests, responses, strict=False):
            if response is None:
                break
            try:
                got = self._read_answers(op, params, calls, response)
            except AdapterError as exc:
                return CaseAnswers(tuple(answers), exc)
            broken = next((n for n, a in enumerate(got) if isinstance(a, AdapterError)), None)
            if broken is not None:  # a batch the implementation could not answer: the case ends at it
                answers += got[:broken]
                return CaseAnswers(tuple(answers), got[broken])  # type: ignore[arg-type]
            answers += got
            if op == "configure" and got[0] is not None:  # a refused configuration ends the case
                return CaseAnswers(tuple(answers))
        return CaseAnswers(tuple(answers), failure if len(answers) < len(request.calls) else None)

    def _request(self, calls: Sequence[Call], memo: dict[object, Encoded]) -> tuple[str, dict[str, Any]]:
        """The request line of one call, or of a run of question calls."""
        first = calls[0]
        if isinstance(first, Authorize):
            key = tuple(map(id, calls))
            batches = memo.get(key)
            if batches is None:
                batches = memo[key] = Encoded("[" + ",".join(self._batch(c, memo) for c in calls) + "]")  # type: ignore[arg-type]
            return "authorize", {"batches": batches}
        if isinstance(first, AuthorizeByResourceType):
            return "authorize_by_resource_type", {"queries": [
                {"context": encode_context(c.context), "operation": c.operation.name, "resource_type": c.resource_type.name}
                for c in calls if isinstance(c, AuthorizeByResourceType)]}
        if isinstance(first, Configure):
            return "configure", {"properties": encode_properties(first.mapping)}
        if isinstance(first, LoadSnapshot):
            return "load_snapshot", {"acls": encode_snapshot(first.mapping)}
        if isinstance(first, Apply):
            return "apply", {"record": encode_record(first.record)}
        if isinstance(first, CompleteInitialLoad):
            return "complete_initial_load", {}
        if isinstance(first, ListAcls):
            return "acls", {"filter": encode_filter(first.filter)}
        return "acl_count", {}

    @staticmethod
    def _batch(call: Authorize, memo: dict[object, Encoded]) -> str:
        """One batch's JSON, built once per case however often it is asked."""
        text = memo.get(id(call))
        if text is None:
            text = memo[id(call)] = encoded({"context": encode_context(call.context),
                                             "actions": [encode_action(a) for a in call.actions]})
        return text

    def _read_answers(self, op: str, params: dict[str, Any], calls: Sequence[Call],
                      response: dict[str, Any]) -> list[object]:
        """One response as the answers of its calls: per call, a value, a refusal, or the
        :class:`AdapterError` its own error entry stands for (an error kind the protocol does
        not define), so that the batches before it keep their answers; a response that cannot
        be read at all raises :class:`AdapterError`."""
        try:
            result = self.session.unwrap(response, op, params.get("properties"))
        except KafkaException as exc:  # a refusal of the whole request answers every call in it
            return [exc] * len(calls)
        try:
            if op == "authorize":
                decoded: list[Any] = decode_results(result, [len(c.actions) for c in calls if isinstance(c, Authorize)])
            elif op == "authorize_by_resource_type":
                if not isinstance(result, list) or len(result) != len(calls):
                    raise WireError("result", f"expected an array with {len(calls)} answer(s), one per query sent")
                decoded = [decode_answer(r, f"result[{i}]") for i, r in enumerate(result)]
            elif op == "acls":
                decoded = [decode_bindings(result)]
            elif op == "acl_count":
                decoded = [decode_count(result)]
            else:
                decoded = [None]
        except WireError as exc:
            raise self._malformed(op, exc) from None
        return [self.session.error(a, op) if isinstance(a, WireErrorInfo) else a for a in decoded]

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        return self._one(Authorize(context, tuple(actions)))  # type: ignore[return-value]

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        return self._one(AuthorizeByResourceType(context, operation, resource_type))  # type: ignore[return-value]

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        return self._one(ListAcls(acl_filter))  # type: ignore[return-value]

    def acl_count(self) -> int:
        return self._one(CountAcls())  # type: ignore[return-value]

    def _one(self, call: Call) -> object:
        """One call made on its own (the stateful machine): its request and the reading of its
        answer are a case's, and its answer or refusal is returned or raised as a call does."""
        op, params = self._request([call], {})
        (answer,) = self._read_answers(op, params, [call], self._send([(op, params)])[0])
        if isinstance(answer, Exception):
            raise answer
        return answer

    def close(self) -> None:
        """An owned process is shut down; a shared one stays up for the next adapter."""
        if self._closed:
            return
        self._closed = True
        if self._owns:
            self.session.close()


def _grouped(calls: Sequence[Call]) -> list[list[Call]]:
    """The calls as request lines: a run of ``authorize`` calls in one line, a run of
    ``authorize_by_resource_type`` calls in one line, every other call in a line of its own."""
    groups: list[list[Call]] = []
    for call in calls:
        if groups and type(call) in _BATCHED and type(groups[-1][0]) is type(call):
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


_BATCHED = (Authorize, AuthorizeByResourceType)


# -- the target: one shared process per command line ------------------------------------------------

_SHARED: dict[tuple[tuple[str, ...], float, str], ImplementationSession] = {}
_SHARED_LOCK = threading.Lock()


def shared_session(command: str | Sequence[str], *, timeout: float | None = None) -> ImplementationSession:
    """The pooled session for a command line (and timeout, and working directory)."""
    probe = ImplementationSession(command, timeout=timeout)
    key = (probe.argv, probe.timeout, os.getcwd())
    with _SHARED_LOCK:
        session = _SHARED.get(key)
        if session is None or session.closed:
            session = _SHARED[key] = ImplementationSession(probe.argv, timeout=probe.timeout, cwd=key[2])
        return session


def close_shared_sessions() -> None:
    """Stop every pooled process (registered with atexit; call it earlier to free them)."""
    with _SHARED_LOCK:
        sessions = list(_SHARED.values())
        _SHARED.clear()
    for session in sessions:
        session.close()


atexit.register(close_shared_sessions)
closes_shared(close_shared_sessions)


def command_target(command: str, *, timeout: float | None = None) -> tuple[Callable[[], SubprocessAuthorizer], Capabilities]:
    """What ``cmd:<command line>`` resolves to: a factory of adapters sharing one process,
    and the capabilities the implementation declared in its handshake (which starts it)."""
    split_command(command)
    session = shared_session(command, timeout=timeout)
    caps = session.capabilities

    def factory() -> SubprocessAuthorizer:
        return SubprocessAuthorizer.sharing(session)

    return factory, caps
