"""Real Java authorizers as targets, through py4j and the shim (``adapters/jvm/``).

Two kinds of target:

* ``jvm:CLASS[,classpath=PATHS][,by-type=default|acl|truth]`` — any
  ``org.apache.kafka.server.authorizer.Authorizer`` with a public no-argument
  constructor, loaded from ``PATHS`` (or ``$KAFKA_CONFORMANCE_CLASSPATH``)
  ahead of our kafka-clients 4.3.0.  A ``ClusterMetadataAuthorizer`` (KRaft's
  StandardAuthorizer) is fed KIP-801 records; any other authorizer is fed
  through createAcls/deleteAcls.
* ``kafka-default-by-type`` — Kafka 4.3.0's own ``Authorizer.authorizeByResourceType``
  default method, running on top of our minimal ``ListAuthorizer`` (whose
  authorize() follows StandardAuthorizer semantics and is OUR code; the
  by-type answer is Kafka's).

A whole case is one py4j round trip (:meth:`JvmAuthorizer.run_case`: the shim
hosts a fresh instance, makes every call and closes it); a call made on its own
(the stateful machine) is one round trip carrying its whole batch.  The JVM is
shared by all cases (see :mod:`~kafka_conformance.adapters.jvm.session`), and
``close()`` frees only this case's Java object.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from kafka_conformance.adapters.case import (
    CALL_NAMES,
    Apply,
    Authorize,
    AuthorizeByResourceType,
    Call,
    CaseAnswers,
    CaseRequest,
    Configure,
    CountAcls,
    ListAcls,
    LoadSnapshot,
)
from kafka_conformance.adapters.jvm.codec import (
    decode_bindings,
    decode_tokens,
    enc_action,
    enc_binding,
    enc_context,
    enc_filter,
    raise_for,
    tok,
)
from kafka_conformance.adapters.jvm.maven import Artifact, JarError, resolve_user_artifact
from kafka_conformance.adapters.jvm.session import JvmSession, close_shared_sessions, shared_session
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl
from kafka_conformance.reference.errors import AclValueError, KafkaException
from kafka_conformance.reference.releases import DEFAULT_VERSION, KafkaVersion, known_release

__all__ = [
    "BUILTIN_TARGETS",
    "CLASSPATH_ENV",
    "LIST_AUTHORIZER",
    "JvmAuthorizer",
    "JvmSpec",
    "builtin_factory",
    "close_shared",
    "jvm_factory",
    "parse_jvm_spec",
]

CLASSPATH_ENV = "KAFKA_CONFORMANCE_CLASSPATH"
LIST_AUTHORIZER = "kafka_conformance.jvm.ListAuthorizer"
BUILTIN_TARGETS = {
    "kafka-default-by-type": "Kafka 4.3.0's real Authorizer.authorizeByResourceType default (JVM, py4j)",
}
_RESULTS = {"A": AuthorizationResult.ALLOWED, "D": AuthorizationResult.DENIED}


class JvmAuthorizer:
    """One hosted Java authorizer: a fresh Java instance in a shared JVM."""

    def __init__(self, session: JvmSession, class_name: str, *, capabilities: Capabilities | None = None,
                 by_type: ByTypeVariant | None = None, extra_config: Mapping[str, str] | None = None,
                 reuse: bool = False) -> None:
        self.session = session
        self.class_name = class_name
        self._shim: Any = None
        """The hosted Java object, made on the first call one at a time (a case run whole hosts
        its own inside the JVM)."""
        self._reuse = reuse
        """A whole case may take an instance an earlier case left configured the same way and
        emptied (``runCase``'s ``reuse``): only for Kafka's own AclAuthorizer, whose state is its ACLs."""
        self._closed = False
        self._close_failure: Exception | None = None
        self._caps = capabilities
        self._by_type = by_type
        self._extra_config = dict(extra_config or {})
        """Properties the host adds to every configure() (AclAuthorizer's ``zookeeper.connect``)."""

    # -- plumbing -------------------------------------------------------------------------
    def _call(self, what: str, method: str, *args: object) -> str:
        from py4j.protocol import Py4JError  # type: ignore[import-untyped,import-not-found,unused-ignore]

        if self._closed:
            raise AdapterError("closed", f"{what} after close()")
        if self._shim is None:
            self._shim = self.session.host(self.class_name)
        try:
            answer = getattr(self._shim, method)(*args)
        except Py4JError as exc:
            raise self.session.crashed(what, exc) from exc
        return raise_for(str(answer), what)

    def describe(self) -> tuple[str, bool, bool]:
        """(driver, overrides aclCount, overrides authorizeByResourceType)."""
        driver, count, by_type, _ = decode_tokens(self._call("describe()", "describe"))
        return driver or "", count == "1", by_type == "1"

    def capabilities(self) -> Capabilities:
        if self._caps is None:
            driver, count, overrides_by_type = self.describe()
            variant = self._by_type or (
                ByTypeVariant.GROUND_TRUTH if overrides_by_type else ByTypeVariant.INTERFACE_DEFAULT
            )
            self._caps = Capabilities(
                version=_release_on(self.session), by_type_variant=variant, acl_count=count,
                not_ready_state=driver in ("list", "metadata"),
            )
        return self._caps

    # -- the protocol -----------------------------------------------------------------------
    def run_case(self, request: CaseRequest) -> CaseAnswers:
        """The whole case in one py4j round trip: the shim hosts a fresh instance, makes the
        calls and closes it (``KafkaConformanceShim.runCase``); the answers are read back as
        values, the first that is not a Kafka-style refusal ending the case."""
        from py4j.protocol import Py4JError  # type: ignore[import-untyped,import-not-found,unused-ignore]

        if self._closed or self._shim is not None:
            raise AdapterError("protocol-error", "run_case() needs a fresh adapter")
        self._closed = True  # the case closes its own instance
        memo: dict[int, str] = {}  # a record log asks the same question objects after every step
        payload = "".join(self._encoded(call, memo) for call in request.calls)
        try:
            answered = str(self.session.run_case(self.class_name, payload, self._reuse))
        except Py4JError as exc:
            return CaseAnswers((), self.session.crashed("the case", exc))
        tokens = list(decode_tokens(answered))  # hosting, one per call made, closing
        try:
            raise_for(tokens[0] or "", f"hosting {self.class_name}")
        except Exception as exc:
            return CaseAnswers((), exc)
        if len(tokens) < 2:
            return CaseAnswers((), AdapterError("malformed-answer", f"the shim answered the case with {answered[:200]!r}"))
        try:
            raise_for(tokens[-1] or "", "close()")
        except Exception as exc:  # met by the kit when it closes this adapter, after the answers
            self._close_failure = exc
        answers: list[object] = []
        for call, token in zip(request.calls, tokens[1:-1], strict=False):
            what = CALL_NAMES[type(call)]
            try:
                answers.append(self._decode(call, raise_for(token or "", what), what))
            except KafkaException as exc:
                answers.append(exc)
                if isinstance(call, Configure):
                    return CaseAnswers(tuple(answers))
            except Exception as exc:
                return CaseAnswers(tuple(answers), exc)
        if len(answers) < len(request.calls):
            return CaseAnswers(tuple(answers), AdapterError("malformed-answer", "the shim answered fewer calls than sent"))
        return CaseAnswers(tuple(answers))

    def _encoded(self, call: Call, memo: dict[int, str]) -> str:
        text = memo.get(id(call))
        if text is None:
            text = memo[id(call)] = self._encode(call)
        return text

    def _encode(self, call: Call) -> str:
        """One call as ``runCase`` reads it: its name, then its arguments, each one token."""
        if isinstance(call, Authorize):
            return tok("authorize") + tok(enc_context(call.context)) + tok("".join(map(enc_action, call.actions)))
        if isinstance(call, Apply):
            record = call.record
            if isinstance(record, AddAcl):
                return tok("add") + tok(record.id) + tok(enc_binding(record.binding))
            return tok("remove") + tok(record.id)
        if isinstance(call, CountAcls):
            return tok("count")
        if isinstance(call, AuthorizeByResourceType):
            return tok("by-type") + tok(enc_context(call.context)) + tok(call.operation.code) + tok(call.resource_type.code)
        if isinstance(call, ListAcls):
            return tok("acls") + tok(enc_filter(call.filter))
        if isinstance(call, Configure):
            return tok("configure") + tok(self._properties(call.mapping))
        if isinstance(call, LoadSnapshot):
            return tok("load") + tok(_snapshot(call.mapping))
        return tok("complete")

    @staticmethod
    def _decode(call: Call, payload: str, what: str) -> object:
        if isinstance(call, Authorize):
            return _results(payload, len(call.actions), what)
        if isinstance(call, AuthorizeByResourceType):
            return _results(payload, 1, what)[0]
        if isinstance(call, ListAcls):
            return decode_bindings(payload)
        if isinstance(call, CountAcls):
            (count,) = decode_tokens(payload)
            return int(count or "0")
        return None

    def _properties(self, properties: Mapping[str, str]) -> str:
        merged = {**properties, **self._extra_config}
        return "".join(tok(k) + tok(str(v)) for k, v in merged.items())

    def configure(self, properties: Mapping[str, str]) -> None:
        self._call("configure()", "configure", self._properties(properties))

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self._call("load_snapshot()", "loadSnapshot", _snapshot(acls))

    def apply(self, record: AclRecord) -> None:
        if isinstance(record, AddAcl):
            self._call(f"apply({record})", "addAcl", record.id, enc_binding(record.binding))
        else:
            self._call(f"apply({record})", "removeAcl", record.id)

    def complete_initial_load(self) -> None:
        self._call("complete_initial_load()", "completeInitialLoad")

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        payload = self._call("authorize()", "authorize", enc_context(context), "".join(map(enc_action, actions)))
        return _results(payload, len(actions), "authorize()")

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        what = "authorize_by_resource_type()"
        payload = self._call(what, "authorizeByResourceType", enc_context(context), operation.code, resource_type.code)
        return _results(payload, 1, what)[0]

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        return decode_bindings(self._call("acls()", "acls", enc_filter(acl_filter)))

    def acl_count(self) -> int:
        (count,) = decode_tokens(self._call("acl_count()", "aclCount"))
        return int(count or "0")

    def close(self) -> None:
        """Close the Java authorizer and free its object; the shared JVM keeps running."""
        failure, self._close_failure = self._close_failure, None
        if failure is not None:
            self._closed = True
            raise failure
        if self._shim is None or self._closed:
            self._closed = True
            return
        try:
            self._call("close()", "close")
        finally:
            shim, self._shim, self._closed = self._shim, None, True
            self.session.detach(shim)


def _release_on(session: JvmSession) -> KafkaVersion:
    """The Kafka release whose jars the JVM runs (``AppInfoParser``), where the kit models it:
    a Java authorizer built on Kafka 4.3.1's classes claims 4.3.1.  Otherwise the default."""
    try:
        return known_release(session.kafka_version)
    except (AclValueError, ValueError):
        return DEFAULT_VERSION


def _snapshot(acls: Mapping[str, AclBinding]) -> str:
    return "".join(tok(i) + enc_binding(b) for i, b in acls.items())


def _results(payload: str, expected: int, what: str) -> list[AuthorizationResult]:
    if len(payload) != expected or any(c not in _RESULTS for c in payload):
        raise AdapterError("malformed-answer", f"{what} returned {payload!r} for {expected} actions")
    return [_RESULTS[c] for c in payload]


@attrs.frozen
class JvmSpec:
    class_name: str
    classpath: tuple[str, ...] = ()
    """The user's classpath, ``jar=`` files first, then ``classpath=`` entries."""
    by_type: ByTypeVariant | None = None
    jars: tuple[str, ...] = ()
    classpath_given: tuple[str, ...] = ()
    maven: tuple[str, ...] = ()
    """``maven=`` coordinates, as given: resolved again whenever the spec is opened."""

    @property
    def spec(self) -> str:
        """The part after ``jvm:``, complete (a classpath from the environment written in), so that
        a saved case runs again with nothing else set."""
        options = [f"maven={m}" for m in self.maven]
        options += [f"jar={j}" for j in self.jars]
        if self.classpath_given:
            options.append("classpath=" + os.pathsep.join(self.classpath_given))
        if self.by_type is not None:
            options.append(f"by-type={self.by_type.value}")
        return ",".join([self.class_name, *options])


_JVM_GRAMMAR = ("jvm:CLASS[,maven=GROUP:ARTIFACT:VERSION ...][,jar=FILE.jar ...][,classpath=PATHS]"
                "[,by-type=default|acl|truth]")


def parse_jvm_spec(rest: str) -> JvmSpec:
    """``CLASS[,maven=G:A:V][,jar=FILE][,classpath=PATHS][,by-type=VARIANT]`` (the part after ``jvm:``).

    ``maven=`` (repeatable) is an artifact of the user's, resolved with Maven, its runtime
    dependencies with it (:func:`~kafka_conformance.adapters.jvm.maven.resolve_user_artifact`);
    ``jar=`` (repeatable) names a jar that must exist; ``classpath=`` (or, without it,
    ``$KAFKA_CONFORMANCE_CLASSPATH``) is a list of entries separated as the platform
    separates paths, ``DIR/*`` meaning every jar in ``DIR`` as for ``java``.  The classpath
    is the resolved ``maven=`` jars, then the ``jar=`` files, then the ``classpath=`` entries."""
    class_name, *options = rest.split(",")
    if not class_name.strip():
        raise ValueError(f"expected {_JVM_GRAMMAR}")
    classpath = os.environ.get(CLASSPATH_ENV, "")
    by_type = None
    jars: list[str] = []
    coordinates: list[Artifact] = []
    for option in options:
        key, sep, value = option.partition("=")
        key = key.strip()
        if key == "classpath" and sep:
            classpath = value
        elif key == "maven" and sep:
            coordinates.append(Artifact.parse(value))
        elif key == "jar" and sep:
            path = os.path.abspath(os.path.expanduser(value.strip()))
            if not os.path.isfile(path):
                raise ValueError(f"jar={value.strip()}: no such file (build it first, for example with mvn package)")
            jars.append(path)
        elif key == "by-type" and sep:
            by_type = ByTypeVariant.parse(value)
        else:
            raise ValueError(f"unknown jvm target option {option.strip()!r}; expected {_JVM_GRAMMAR}")
    given = tuple(p for p in classpath.split(os.pathsep) if p)
    resolved: list[str] = []
    for artifact in coordinates:
        try:
            resolved += [str(jar) for jar in resolve_user_artifact(artifact)]
        except JarError as exc:
            raise ValueError(f"maven={artifact}: {exc}") from None
    return JvmSpec(class_name.strip(), (*resolved, *jars, *given), by_type, tuple(jars), given,
                   tuple(a.coordinate for a in coordinates))


def jvm_factory(rest: str | JvmSpec) -> Callable[[], JvmAuthorizer]:
    spec = parse_jvm_spec(rest) if isinstance(rest, str) else rest

    def factory() -> JvmAuthorizer:
        return JvmAuthorizer(shared_session(spec.classpath), spec.class_name, by_type=spec.by_type)

    return factory


def builtin_factory(name: str) -> Callable[[], JvmAuthorizer]:
    """Factories for :data:`BUILTIN_TARGETS`."""
    if name != "kafka-default-by-type":
        raise KeyError(name)

    def factory() -> JvmAuthorizer:
        # Kafka 4.3.0 StandardAuthorizer has no override: the interface default IS its semantics.
        caps = Capabilities(by_type_variant=ByTypeVariant.INTERFACE_DEFAULT)
        return JvmAuthorizer(shared_session(), LIST_AUTHORIZER, capabilities=caps)

    return factory


def close_shared() -> None:
    """Stop every shared JVM; ``targets.close_targets()`` calls this when a run ends."""
    close_shared_sessions()
