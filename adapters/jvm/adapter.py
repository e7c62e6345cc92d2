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

Every call is one py4j round trip carrying the whole batch; the JVM is shared
by all cases (see :mod:`~kafka_conformance.adapters.jvm.session`), and
``close()`` frees only this case's Java object.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

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
from kafka_conformance.adapters.jvm.session import JvmSession, close_shared_sessions, shared_session
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl
from kafka_conformance.reference.errors import KafkaException

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
                 by_type: ByTypeVariant | None = None, extra_config: Mapping[str, str] | None = None) -> None:
        self.session = session
        self.class_name = class_name
        self._shim: Any = session.host(class_name)
        self._caps = capabilities
        self._by_type = by_type
        self._extra_config = dict(extra_config or {})
        """Properties the host adds to every configure() (AclAuthorizer's ``zookeeper.connect``)."""

    # -- plumbing -------------------------------------------------------------------------
    def _call(self, what: str, method: str, *args: object) -> str:
        from py4j.protocol import Py4JError  # type: ignore[import-untyped,import-not-found,unused-ignore]

        if self._shim is None:
            raise AdapterError("closed", f"{what} after close()")
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
                by_type_variant=variant, acl_count=count, not_ready_state=driver in ("list", "metadata")
            )
        return self._caps

    # -- the protocol -----------------------------------------------------------------------
    def configure(self, properties: Mapping[str, str]) -> None:
        merged = {**properties, **self._extra_config}
        self._call("configure()", "configure", "".join(tok(k) + tok(str(v)) for k, v in merged.items()))

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self._call("load_snapshot()", "loadSnapshot", "".join(tok(i) + enc_binding(b) for i, b in acls.items()))

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

    def authorize_many(
        self, queries: Sequence[tuple[RequestContext, Sequence[Action]]]
    ) -> list[list[AuthorizationResult] | KafkaException]:
        """Many authorize() calls in ONE round trip; a Kafka-style error answers its own query."""
        encoded = "".join(enc_context(c) + tok(len(a)) + "".join(map(enc_action, a)) for c, a in queries)
        answers = list(decode_tokens(self._call("authorize_many()", "authorizeMany", encoded)))
        out: list[list[AuthorizationResult] | KafkaException] = []
        for (_, actions), answer in zip(queries, answers, strict=True):
            try:
                out.append(_results(raise_for(answer or "", "authorize()"), len(actions), "authorize()"))
            except KafkaException as exc:
                out.append(exc)
        return out

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
        if self._shim is None:
            return
        try:
            self._call("close()", "close")
        finally:
            shim, self._shim = self._shim, None
            self.session.detach(shim)


def _results(payload: str, expected: int, what: str) -> list[AuthorizationResult]:
    if len(payload) != expected or any(c not in _RESULTS for c in payload):
        raise AdapterError("malformed-answer", f"{what} returned {payload!r} for {expected} actions")
    return [_RESULTS[c] for c in payload]


@attrs.frozen
class JvmSpec:
    class_name: str
    classpath: tuple[str, ...] = ()
    by_type: ByTypeVariant | None = None


def parse_jvm_spec(rest: str) -> JvmSpec:
    """``CLASS[,classpath=PATHS][,by-type=VARIANT]`` (the part after ``jvm:``)."""
    class_name, *options = rest.split(",")
    if not class_name.strip():
        raise ValueError("expected jvm:CLASS[,classpath=PATHS][,by-type=default|acl|truth]")
    classpath = os.environ.get(CLASSPATH_ENV, "")
    by_type = None
    for option in options:
        key, sep, value = option.partition("=")
        if key.strip() == "classpath" and sep:
            classpath = value
        elif key.strip() == "by-type" and sep:
            by_type = ByTypeVariant.parse(value)
        else:
            raise ValueError(f"unknown jvm target option {option!r}; expected classpath=PATHS or by-type=VARIANT")
    return JvmSpec(class_name.strip(), tuple(p for p in classpath.split(os.pathsep) if p), by_type)


def jvm_factory(rest: str) -> Callable[[], JvmAuthorizer]:
    spec = parse_jvm_spec(rest)

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
