"""A divergence's identity: what was observed, never a guess at why.

An anomaly name (:mod:`.anomalies`) is the kit's best guess at the cause, and a guess
depends on details of the case that have nothing to do with the bug: the same
implementation mistake can be met through a PREFIXED ALLOW on one run and a wildcard ALLOW on
another.  A report, a baseline and a user's CI need an identity that stays put, so a
divergence is identified by what was seen: the property, the method asked, the expected and
the actual answer, the moment in the lifecycle, and the shape of the minimal case, written
in kinds and relations rather than values (a PREFIXED ALLOW on "a prefix of the name asked",
for "the caller", from "any host").  Names, principals and hosts are never part of it, so
a case that shrank to other values is the same finding; the anomaly is printed beside it as
the "likely" cause.

Pure functions of a :class:`~.report.Counterexample`: the signature is computed wherever it
is shown, and a report read back from JSON carries the text that was computed then.
"""

from __future__ import annotations

import builtins
import hashlib
import re
from collections.abc import Iterable

import attrs

from kafka_conformance.authorizer.cases import BatchStep, ByTypeQuery, Query, Scenario, SnapshotStep
from kafka_conformance.authorizer.domain.classify import super_users_in
from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    WILDCARD_PRINCIPAL,
    AclBinding,
    AclOperation,
    PatternType,
    ResourceType,
)
from kafka_conformance.reference.authorizer.config import ALLOW_EVERYONE_KEY, SUPER_USERS_KEY
from kafka_conformance.reference.authorizer.decide import IMPLIED_BY
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["Signature", "signature_of"]


@attrs.frozen
class Signature:
    """What was observed, in words that do not depend on the values of the case."""

    property: str
    method: str
    """The method whose answer differed (``authorize``, ``acls``, ``apply``, ...), or "" for an adapter error."""
    expected: str
    actual: str
    moment: str
    """Where in the lifecycle: "" (after the initial load), "before the initial load completed", ..."""
    shape: tuple[str, ...]
    """The minimal case in kinds and relations: each ACL, the question, the settings that matter."""

    def __str__(self) -> str:
        method = f", {self.method}()" if self.method else ""
        seen = f"{self.property}{method}: expected {self.expected}, got {self.actual}"
        if self.moment:
            seen += f" ({self.moment})"
        return seen + "".join(f"; {part}" for part in self.shape)

    @builtins.property  # the field named `property` shadows the builtin in this class body
    def id(self) -> str:
        """Ten hex digits of the text's SHA-256: short enough to grep for, and the same on every run."""
        return hashlib.sha256(str(self).encode()).hexdigest()[:10]


def signature_of(prop: str, scenario: Scenario, method: str, question: str, expected: str, actual: str,
                 step: str) -> Signature:
    """The signature of one divergence: ``question``, ``expected``, ``actual`` and ``step`` are
    the divergence's own texts; ``method`` names the method they are about."""
    expected, actual = _answers(method, expected, actual)
    asked = _asked(scenario, question)
    supers = super_users_in(scenario.properties)
    shape: list[str] = []
    if method == "configure":
        shape += [_setting(key, value) for key, value in scenario.properties]
    elif dict(scenario.properties).get(ALLOW_EVERYONE_KEY, "").strip().lower() == "true":
        shape.append(f"{ALLOW_EVERYONE_KEY}=true")
    # The ACLs in a fixed order: the case's own order is not part of what was seen.
    if isinstance(asked, tuple):
        context, action = asked
        shape.append(f"asked {action.operation.name} on a {_pattern(action.resource.pattern_type)}"
                     f"{action.resource.resource_type.name}{_name_kind(action.resource.name)} as "
                     f"{_caller(context, supers)} from {_host_kind(context.host)}")
        shape += sorted(_acl(b, context, action.operation, action.resource.name, action.resource.resource_type)
                        for b in scenario.bindings)
    elif isinstance(asked, ByTypeQuery):
        shape.append(f"asked {asked.operation.name} on any {asked.resource_type.name} as "
                     f"{_caller(asked.context, supers)} from {_host_kind(asked.context.host)}")
        shape += sorted(_acl(b, asked.context, asked.operation, None, asked.resource_type) for b in scenario.bindings)
    else:
        shape += sorted(_acl(b, None, None, None, None) for b in scenario.bindings)
    if scenario.records:
        shape.append("then " + ", ".join(_steps(scenario.records)))
    return Signature(prop, method, expected, actual, _moment(step), tuple(shape))


def adapter_error_signature(prop: str, error: str, kind: str = "") -> Signature:
    """An adapter error's identity: the property, the method the error names, the adapter's kind of
    failure and, for an exception of the implementation's, its type; never the message, which
    names values of the case."""
    first = error.splitlines()[0] if error else ""
    method = re.match(r"\s*(\w+)\(", first)
    raised = re.search(r" raised (\w+)", first)
    what = kind or "error"
    if raised is not None:
        what += f": {raised.group(1)}"
    return Signature(prop, method.group(1) if method else "", "an answer", f"no answer ({what})", "", ())


def method_of(question: str) -> str:
    """The method a divergence's question names: its text up to the first parenthesis."""
    return question.split("(", 1)[0].strip() or question


# -- answers ----------------------------------------------------------------------------


def _answers(method: str, expected: str, actual: str) -> tuple[str, str]:
    """The two answers, as kinds where the raw answers carry values of the case."""
    if method == "acls":
        want, got = _listed(expected), _listed(actual)
        missing, extra = bool(want - got), bool(got - want)
        return "its ACLs", ("some missing and others extra" if missing and extra else
                            "some missing" if missing else "extra ACLs" if extra else "a different listing")
    if method == "acl_count":
        try:
            return "the count", "a higher count" if int(actual) > int(expected) else "a lower count"
        except ValueError:
            return "the count", actual
    return expected, actual


def _setting(key: str, value: str) -> str:
    """A setting as kinds: ``super.users`` by its entries' shapes (never the principals), any
    other key by its spelling (``' true'`` and ``'TRUE'`` are what such a divergence is about)."""
    if key != SUPER_USERS_KEY:
        return f"{key}={value!r}"
    parts = value.split(";")
    entries = [p for p in parts if p.strip()]
    kinds = [f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"]
    if value.strip() and len(entries) < len(parts):
        kinds.append("an empty entry")
    if any(p != p.strip() for p in entries):
        kinds.append("padded entries")
    if any(":" not in p for p in entries):
        kinds.append("an entry without a colon")
    if any(p.strip() == WILDCARD_PRINCIPAL for p in entries):
        kinds.append("User:*")
    return f"{key}: " + ", ".join(kinds)


def _listed(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip() and line.strip() != "(none)"}


_MOMENTS = (
    ("before complete_initial_load()", "before the initial load completed"),
    ("after the refused record", "right after a record Kafka refuses"),
    ("after the whole log", "after the whole record log"),
    ("after record", "after a record"),
    ("after step", "after a step of the record log"),
)


def _moment(step: str) -> str:
    return next((said for start, said in _MOMENTS if step.startswith(start)), "")


# -- the case in kinds -------------------------------------------------------------------


def _asked(scenario: Scenario, question: str) -> tuple[RequestContext, Action] | ByTypeQuery | None:
    """The question of the divergence, found in the case by its text."""
    queries: Iterable[Query] = scenario.queries
    for query in queries:
        for action in query.actions:
            if question == f"authorize({query.context}, [{action}])":
                return query.context, action
    return next((q for q in scenario.by_type if question == f"authorize_by_resource_type({q})"), None)


def _pattern(pattern_type: PatternType) -> str:
    return "" if pattern_type is PatternType.LITERAL else f"{pattern_type.name} "


def _name_kind(name: str) -> str:
    if name in ("", "*"):
        return f" named {name!r}"
    return " whose name begins with '*'" if name.startswith("*") else ""


def _caller(context: RequestContext, supers: set[str]) -> str:
    principal = str(context.principal)
    if principal in supers:
        return "a super user"
    if principal == WILDCARD_PRINCIPAL:
        return "the session principal User:*"
    return "a user" if context.principal.principal_type == "User" else "a principal of another type"


def _host_kind(host: str) -> str:
    return "the empty host" if host == "" else "an IPv6 host" if ":" in host else "a host"


def _acl(b: AclBinding, context: RequestContext | None, operation: AclOperation | None, name: str | None,
         resource_type: ResourceType | None) -> str:
    p, e = b.pattern, b.entry
    where = p.resource_type.name if resource_type is None or p.resource_type is resource_type else (
        f"{p.resource_type.name} (another type)")
    return (f"{e.permission_type.name} {p.pattern_type.name} {where} ACL on {_name_relation(p.name, p.pattern_type, name)}"
            f" for {_operation_relation(e.operation, operation)}, {_principal_relation(e.principal, context)},"
            f" {_host_relation(e.host, context)}")


def _name_relation(acl_name: str, pattern_type: PatternType, asked: str | None) -> str:
    if acl_name == "*" and pattern_type is PatternType.LITERAL:
        return "'*'"
    if acl_name == "":
        return "''"
    if asked is None:
        return "a name"
    if acl_name == asked:
        return "the name asked"
    if pattern_type is PatternType.PREFIXED and asked.startswith(acl_name):
        return "a prefix of the name asked"
    if acl_name.lower() == asked.lower():
        return "the name asked in another case"
    if pattern_type is PatternType.PREFIXED and asked.lower().startswith(acl_name.lower()):
        return "a prefix of the name asked in another case"
    if acl_name.startswith(asked):
        return "a longer name beginning with the name asked"
    return "another name"


def _operation_relation(op: AclOperation, asked: AclOperation | None) -> str:
    if asked is None or op is AclOperation.ALL:
        return op.name
    if op is asked:
        return "the operation asked"
    if op in IMPLIED_BY.get(asked, frozenset()):
        return "an operation implying the one asked"
    return "another operation"


def _principal_relation(principal: str, context: RequestContext | None) -> str:
    if principal == WILDCARD_PRINCIPAL:
        return "User:*"
    if context is None:
        return "a principal"
    if principal == str(context.principal):
        return "the caller"
    if principal.lower() == str(context.principal).lower():
        return "the caller in another case"
    return "another principal"


def _host_relation(host: str, context: RequestContext | None) -> str:
    if host == WILDCARD_HOST:
        return "any host"
    if context is None:
        return "one host"
    return "the caller's host" if host == context.host else "another host"


def _steps(records: Iterable[object]) -> list[str]:
    out = []
    for step in records:
        if isinstance(step, SnapshotStep):
            out.append(f"a snapshot of {len(step.acls)} ACLs")
        elif isinstance(step, BatchStep):
            out.append("a batch of [" + ", ".join(_steps(step.records)) + "]")
        elif isinstance(step, AddAcl):
            out.append("an add")
        elif isinstance(step, RemoveAcl):
            out.append("a remove")
    return out
