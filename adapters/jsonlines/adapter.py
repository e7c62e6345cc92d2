"""Drive an authorizer written in any language, as a process speaking JSON lines.

The protocol is documented in ``docs/subprocess-protocol.md`` (schemas in
``docs/schemas/``).  Target spec: ``cmd:<command line>``, for example::

    kafka-conformance check authorizer --target "cmd:node examples/node_authorizer/authorizer.js"

Why it is built this way:

* the kit makes a new adapter for every case; starting a process per case would
  dominate the run, so adapters made by a target share one process through a
  pooled :class:`ImplementationSession` and start with ``reset`` (sent in the
  same write as their first real request, so it costs no extra round trip);
* an ``authorize`` call is one line however many actions it carries, and
  :meth:`SubprocessAuthorizer.authorize_batches` sends many batches in one line;
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
from functools import partial
from typing import Any

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

Meanwhile = Callable[[], object] | None
"""The caller's own work, done while the implementation answers a request (or None)."""


class SubprocessAuthorizer:
    """:class:`~kafka_conformance.adapters.protocol.AuthorizerUnderTest` over a process.

    ``SubprocessAuthorizer("node my_authorizer.js")`` owns its process and stops it
    on :meth:`close`; :meth:`sharing` makes one that borrows a session (the target
    factory does this) and leaves the process running for the next adapter.
    """

    takes_meanwhile = True
    """Its pipelined calls take ``meanwhile=``, the caller's own work done while the
    implementation answers (``conformance/authorizer/driver.py`` looks for this)."""

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
        self._last_questions: tuple[object, Encoded] | None = None

    def reset(self) -> None:
        """Start again from a fresh implementation state (sent with the next request)."""
        self._needs_reset = True

    # -- plumbing ---------------------------------------------------------------------------
    def _call(self, op: str, params: dict[str, Any], *, properties: Mapping[str, str] | None = None,
              meanwhile: Meanwhile = None) -> Any:
        return self.session.unwrap(self._send([(op, params)], meanwhile)[0], op, properties)

    def _send(self, requests: list[tuple[str, dict[str, Any]]], meanwhile: Meanwhile = None) -> list[dict[str, Any]]:
        """``requests`` in one write, after the ``reset`` a fresh adapter owes (its answer checked
        here); the other responses, unread.  ``meanwhile``: the caller's work while they are
        answered (:meth:`ImplementationSession.call`)."""
        if self._closed:
            raise AdapterError("closed", f"{requests[0][0]}() called on a closed adapter")
        reset = self._needs_reset
        work, failed = _shielded(meanwhile)
        try:
            responses, generation = self.session.call([("reset", {}), *requests] if reset else requests,
                                                      generation=None if reset else self._generation,
                                                      meanwhile=work)
        except Exception as exc:  # crash, timeout, malformed: whatever state it held is gone
            self._needs_reset, self._generation = False, _LOST
            _raise_first(failed)
            if reset and isinstance(exc, AdapterError) and exc.received is not None:
                exc.received = exc.received[1:] if exc.received[0] is not None else [None] * len(requests)
            raise
        except BaseException:  # Ctrl-C, a stop: the same, and nothing is raised in its place
            self._needs_reset, self._generation = False, _LOST
            raise
        _raise_first(failed)  # the caller's own error; the stream is in step (a reset owed is sent again)
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
        sent = encode_properties(properties)
        self._call("configure", {"properties": sent}, properties=sent)

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self._call("load_snapshot", {"acls": encode_snapshot(acls)})

    def apply(self, record: AclRecord) -> None:
        self._call("apply", {"record": encode_record(record)})

    def complete_initial_load(self) -> None:
        self._call("complete_initial_load", {})

    def configure_and_load(self, properties: Mapping[str, str], acls: Mapping[str, AclBinding]) -> list[Exception | None]:
        """``configure``, ``load_snapshot`` and ``complete_initial_load`` in one pipelined write
        (with the ``reset`` a fresh adapter owes): a case's whole set-up in one round trip.
        Per step, None or the exception its error stands for, met by the caller in order.  The
        caller uses it only where Kafka accepts the configuration; should the implementation
        refuse it anyway, the two loads after it were answered by an unconfigured
        implementation and are not looked at (nor is a failure of the process behind them)."""
        sent = encode_properties(properties)
        requests: list[tuple[str, dict[str, Any]]] = [
            ("configure", {"properties": sent}), ("load_snapshot", {"acls": encode_snapshot(acls)}), ("complete_initial_load", {})]
        try:
            responses = self._send(requests)
        except AdapterError as exc:
            return self._set_up(exc.received, sent, exc)
        return self._set_up(responses, sent, None)

    def configure_load_and_ask(
        self, properties: Mapping[str, str], acls: Mapping[str, AclBinding],
        batches: Sequence[tuple[RequestContext, Sequence[Action]]], *, meanwhile: Meanwhile = None,
    ) -> tuple[list[Exception | None], list[list[AuthorizationResult] | Exception] | Exception]:
        """:meth:`configure_and_load` with the case's questions (one ``authorize`` request of
        ``batches``) behind the set-up, in the same write: a case that only asks questions of a
        fresh target in one round trip instead of two.  The set-up as
        :meth:`configure_and_load` returns it, and the answers as :meth:`authorize_batches`
        gives them (or the exception the whole request stands for), for the caller to meet
        after the set-up.  Where the implementation refuses the configuration anyway, the
        answers came from an unconfigured implementation and are not to be looked at.  A
        process that failed after answering the set-up (a crash, a timeout, a malformed line)
        is met at the answers, as the failure of ``authorize``, as when asked separately.
        ``meanwhile``: the caller's own work while the write is answered."""
        sent = encode_properties(properties)
        requests: list[tuple[str, dict[str, Any]]] = [
            ("configure", {"properties": sent}), ("load_snapshot", {"acls": encode_snapshot(acls)}),
            ("complete_initial_load", {}), ("authorize", {"batches": self._questions(batches)})]
        try:
            responses = self._send(requests, meanwhile)
        except AdapterError as exc:
            return self._set_up(exc.received, sent, exc), exc
        set_up = self._set_up(responses, sent, None)
        return set_up, (set_up[0] if set_up[0] is not None else self._answers(responses[3], batches))

    def _set_up(self, responses: Sequence[dict[str, Any] | None] | None, sent: Mapping[str, str],
                failure: AdapterError | None) -> list[Exception | None]:
        """The outcomes of ``configure``, ``load_snapshot`` and ``complete_initial_load`` from
        the first three answers of a pipelined write; after a refused ``configure``, the rest
        are not looked at.  ``failure``: the write failed part-way (``responses`` are what had
        come); raised again where an answer the caller must meet had not come."""
        def outcome(n: int, op: str, properties: Mapping[str, str] | None = None) -> Exception | None:
            response = responses[n] if responses is not None and n < len(responses) else None
            if response is None:
                assert failure is not None
                raise failure
            return _outcome(partial(self.session.unwrap, response, op, properties))

        configured = outcome(0, "configure", sent)
        if configured is not None:
            return [configured, None, None]
        return [configured, outcome(1, "load_snapshot"), outcome(2, "complete_initial_load")]

    def _answers(self, response: dict[str, Any], batches: Sequence[tuple[RequestContext, Sequence[Action]]],
                 ) -> list[list[AuthorizationResult] | Exception] | Exception:
        """The answers of a pipelined ``authorize`` request, per batch its results or the
        exception its error stands for, or the exception the whole answer stands for."""
        try:
            decoded = decode_results(self.session.unwrap(response, "authorize"), [len(a) for _, a in batches])
        except WireError as exc:
            return self._malformed("authorize", exc)
        except (KafkaException, AdapterError) as exc:
            return exc
        return [self.session.error(d, "authorize") if isinstance(d, WireErrorInfo) else d for d in decoded]

    def load_and_complete(self, acls: Mapping[str, AclBinding]) -> list[Exception | None]:
        """``load_snapshot`` then ``complete_initial_load`` in one pipelined write (one round
        trip where a case's set-up took two).  Per step, None or the exception its error
        stands for, returned rather than raised so that the caller meets them in the order
        it would have met them calling the two one by one.  A process that could not answer
        (crash, timeout, malformed line) raises :class:`AdapterError`, as every call does."""
        if self._closed or self._needs_reset:
            return [_outcome(lambda: self.load_snapshot(acls)), _outcome(self.complete_initial_load)]
        requests = [("load_snapshot", {"acls": encode_snapshot(acls)}), ("complete_initial_load", {})]
        responses = self._pipelined(requests)
        return [_outcome(partial(self.session.unwrap, r, op)) for r, (op, _) in zip(responses, requests, strict=True)]

    def apply_and_ask(
        self, record: AclRecord, batches: Sequence[tuple[RequestContext, Sequence[Action]]], count: bool,
        *, meanwhile: Meanwhile = None,
    ) -> tuple[Exception | None, list[list[AuthorizationResult] | Exception] | Exception, int | Exception | None]:
        """``apply``, then the questions (one ``authorize`` request of ``batches``) and, when
        ``count``, ``acl_count``, in one pipelined write: a step of a record log in one round
        trip instead of three.  Each part is returned as its answer or as the exception it
        stands for, so that the caller meets a refused record before the answers it reads.
        The questions are read-only, so asking them after a refused record changes nothing.
        A process that fails after answering the record (a crash, a timeout, a malformed line)
        is met at the questions, as ``authorize``'s failure.
        ``meanwhile``: the caller's own work while the step is answered."""
        if self._closed or self._needs_reset:
            raise AdapterError("protocol-error", "apply_and_ask() needs a configured adapter")
        requests: list[tuple[str, dict[str, Any]]] = [("apply", {"record": encode_record(record)}),
                                                       ("authorize", {"batches": self._questions(batches)})]
        if count:
            requests.append(("acl_count", {}))
        try:
            responses = self._pipelined(requests, meanwhile)
        except AdapterError as exc:  # after the record was answered: met at the questions, as asked apart
            if exc.received is None or exc.received[0] is None:
                raise
            return _outcome(partial(self.session.unwrap, exc.received[0], "apply")), exc, exc if count else None
        applied = _outcome(partial(self.session.unwrap, responses[0], "apply"))
        answers = self._answers(responses[1], batches)
        counted: int | Exception | None = None
        if count:
            try:
                counted = decode_count(self.session.unwrap(responses[2], "acl_count"))
            except WireError as exc:
                counted = self._malformed("acl_count", exc)
            except (KafkaException, AdapterError) as exc:
                counted = exc
        return applied, answers, counted

    def _questions(self, batches: Sequence[tuple[RequestContext, Sequence[Action]]]) -> Any:
        """The ``batches`` of an ``authorize`` request.  A record log asks the same questions
        after every step: given the same tuple again (immutable, so unchanged), its JSON from
        the step before is sent again instead of being built anew."""
        last = self._last_questions
        if last is not None and last[0] is batches:
            return last[1]
        payload = [{"context": encode_context(c), "actions": [encode_action(a) for a in actions]} for c, actions in batches]
        if type(batches) is not tuple or not all(type(b) is tuple and type(b[1]) is tuple for b in batches):
            return payload
        text = encoded(payload)
        self._last_questions = (batches, text)
        return text

    def count_and_list(
        self, filters: Sequence[AclBindingFilter], count: bool, *, meanwhile: Meanwhile = None,
    ) -> tuple[int | Exception | None, list[list[AclBinding] | Exception]]:
        """``acl_count`` (when ``count``) and ``acls`` of every filter in one pipelined write:
        the listing property's questions in one round trip instead of one per filter.  Each
        answer is returned as its value or the exception it stands for, so that the caller
        meets them in the order it would have met them asking one by one; where the process
        failed part-way (a crash, a timeout, a malformed line), the answers that came are met
        first and the failure stands for each that did not."""
        if self._closed or self._needs_reset:
            raise AdapterError("protocol-error", "count_and_list() needs a configured adapter")
        requests: list[tuple[str, dict[str, Any]]] = [("acl_count", {})] if count else []
        requests += [("acls", {"filter": encode_filter(f)}) for f in filters]
        got: Sequence[dict[str, Any] | None]
        failure: AdapterError | None = None
        try:
            got = self._pipelined(requests, meanwhile)
        except AdapterError as exc:  # answers that came are met first; the failure at the first that did not
            if exc.received is None:
                raise
            got, failure = exc.received, exc

        def decoded(n: int, op: str, decode: Callable[[Any], Any]) -> Any:
            response = got[n]
            return failure if response is None else self._decoded(response, op, decode)

        counted = decoded(0, "acl_count", decode_count) if count else None
        return counted, [decoded(n, "acls", decode_bindings) for n in range(int(count), len(requests))]

    def _decoded(self, response: dict[str, Any], op: str, decode: Callable[[Any], Any]) -> Any:
        """One answer of a pipelined write, decoded, or the exception it stands for."""
        try:
            return decode(self.session.unwrap(response, op))
        except WireError as exc:
            return self._malformed(op, exc)
        except (KafkaException, AdapterError) as exc:
            return exc

    def _pipelined(self, requests: list[tuple[str, dict[str, Any]]], meanwhile: Meanwhile = None) -> list[dict[str, Any]]:
        """Several requests in one write, in this adapter's state (configured already)."""
        work, failed = _shielded(meanwhile)
        try:
            responses, _ = self.session.call(requests, generation=self._generation, meanwhile=work)
        except Exception:
            self._needs_reset, self._generation = False, _LOST
            _raise_first(failed)
            raise
        except BaseException:
            self._needs_reset, self._generation = False, _LOST
            raise
        _raise_first(failed)  # the caller's own error, with the stream and this adapter in step
        return responses

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        answer = self.authorize_batches([(context, actions)])[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def authorize_batches(
        self, batches: Sequence[tuple[RequestContext, Sequence[Action]]], *, meanwhile: Meanwhile = None,
    ) -> list[list[AuthorizationResult] | Exception]:
        """Many ``authorize`` calls in one request line: per batch, its results or the
        exception the implementation's error stands for (returned, not raised, since
        Kafka refuses batch by batch).  ``meanwhile``: the caller's own work (the answers
        it expects), done while the implementation answers."""
        result = self._call("authorize", {"batches": self._questions(batches)}, meanwhile=meanwhile)
        try:
            decoded = decode_results(result, [len(actions) for _, actions in batches])
        except WireError as exc:
            raise self._malformed("authorize", exc) from None
        return [self.session.error(d, "authorize") if isinstance(d, WireErrorInfo) else d for d in decoded]

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        answer = self.authorize_by_resource_type_batches([(context, operation, resource_type)])[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    def authorize_by_resource_type_batches(
        self, queries: Sequence[tuple[RequestContext, AclOperation, ResourceType]], *, meanwhile: Meanwhile = None,
    ) -> list[AuthorizationResult | Exception]:
        """Many ``authorize_by_resource_type`` questions in one request line: per query, its
        answer or the exception the implementation's error stands for (returned, not raised:
        each is met at its turn).  ``meanwhile``: the caller's own work meanwhile."""
        payload = [{"context": encode_context(c), "operation": op.name, "resource_type": rt.name} for c, op, rt in queries]
        result = self._call("authorize_by_resource_type", {"queries": payload}, meanwhile=meanwhile)
        try:
            if not isinstance(result, list) or len(result) != len(queries):
                raise WireError("result", f"expected an array with {len(queries)} answer(s), one per query sent")
            answers = [decode_answer(r, f"result[{i}]") for i, r in enumerate(result)]
        except WireError as exc:
            raise self._malformed("authorize_by_resource_type", exc) from None
        return [self.session.error(a, "authorize_by_resource_type") if isinstance(a, WireErrorInfo) else a for a in answers]

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        result = self._call("acls", {"filter": encode_filter(acl_filter)})
        try:
            return decode_bindings(result)
        except WireError as exc:
            raise self._malformed("acls", exc) from None

    def acl_count(self) -> int:
        result = self._call("acl_count", {})
        try:
            return decode_count(result)
        except WireError as exc:
            raise self._malformed("acl_count", exc) from None

    def close(self) -> None:
        """An owned process is shut down; a shared one stays up for the next adapter."""
        if self._closed:
            return
        self._closed = True
        if self._owns:
            self.session.close()


def _shielded(meanwhile: Meanwhile) -> tuple[Meanwhile, list[Exception]]:
    """The caller's work, its exception kept rather than raised inside the exchange."""
    failed: list[Exception] = []
    if meanwhile is None:
        return None, failed
    work = meanwhile

    def shielded() -> None:
        try:
            work()
        except Exception as exc:
            failed.append(exc)

    return shielded, failed


def _raise_first(failed: list[Exception]) -> None:
    """The caller's own error, raised first: a failure of the kit is never taken for one of
    the implementation (the exception in flight, if any, becomes its context)."""
    if failed:
        raise failed[0]


def _outcome(step: Callable[[], object]) -> Exception | None:
    """A Kafka-style refusal or an adapter error as a value; anything else propagates."""
    try:
        step()
    except (KafkaException, AdapterError) as exc:
        return exc
    return None


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


def command_target(command: str, *, timeout: float | None = None) -> tuple[Callable[[], SubprocessAuthorizer], Capabilities]:
    """What ``cmd:<command line>`` resolves to: a factory of adapters sharing one process,
    and the capabilities the implementation declared in its handshake (which starts it)."""
    split_command(command)
    session = shared_session(command, timeout=timeout)
    caps = session.capabilities

    def factory() -> SubprocessAuthorizer:
        return SubprocessAuthorizer.sharing(session)

    return factory, caps
