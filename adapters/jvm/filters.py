"""Filter conformance: the reference's filters against Kafka's real ``AclBindingFilter``.

``reference/acl/filters.py`` restates ``ResourcePatternFilter.matches``,
``AccessControlEntryFilter.matches`` and ``isUnknown`` from Kafka's source;
this module asks the real kafka-clients classes the same questions, in bulk
(one py4j round trip for a whole bindings-by-filters matrix), and returns
every disagreement as a value.  It also compares which bindings each side
allows to be constructed at all (ANY/MATCH are filter-only in both).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import attrs

from kafka_conformance.adapters.jvm.codec import decode_tokens, enc_binding, enc_filter, raise_for, tok
from kafka_conformance.adapters.jvm.session import JvmSession
from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.errors import AclValueError, KafkaException

__all__ = ["ConstructorDivergence", "FilterDivergence", "constructor_divergences", "filter_divergences"]


@attrs.frozen
class FilterDivergence:
    """One question the two sides answer differently."""

    question: str
    """``matches`` or ``isUnknown``."""
    filter: AclBindingFilter
    binding: AclBinding | None
    reference: str
    kafka: str
    """``True``/``False``, or the exception Kafka threw."""

    def __str__(self) -> str:
        on = f" on {self.binding!r}" if self.binding is not None else ""
        return f"{self.question}: {self.filter}{on}: reference {self.reference}, Kafka {self.kafka}"


def filter_divergences(
    session: JvmSession, bindings: Sequence[AclBinding], filters: Sequence[AclBindingFilter]
) -> list[FilterDivergence]:
    """Every (filter, binding) where ``AclBindingFilter.matches`` differs, plus ``isUnknown``."""
    if not filters:
        return []
    encoded_b = "".join(enc_binding(b, alias=False) for b in bindings)
    encoded_f = "".join(enc_filter(f, alias=False) for f in filters)
    rows = list(decode_tokens(raise_for(str(session.filter_matches(encoded_b, encoded_f)), "FilterCheck.matches")))
    out = []
    for f, row in zip(filters, rows, strict=True):
        if row is None or len(row) != len(bindings) + 1:
            raise AdapterError("malformed-answer", f"FilterCheck.matches returned {row!r} for {len(bindings)} bindings")
        kafka_unknown = row[0] == "U"
        if kafka_unknown != f.is_unknown:
            out.append(FilterDivergence("isUnknown", f, None, str(f.is_unknown), str(kafka_unknown)))
        for b, answer in zip(bindings, row[1:], strict=True):
            expected = _reference_matches(f, b)
            if answer == "E":
                if expected.startswith("threw"):
                    continue  # both refuse; the kind of exception is not compared
                kafka = _exception(session, b, f)
            elif str(answer == "T") != expected:
                kafka = str(answer == "T")
            else:
                continue
            out.append(FilterDivergence("matches", f, b, expected, kafka))
    return out


def _reference_matches(acl_filter: AclBindingFilter, binding: AclBinding) -> str:
    try:
        return str(acl_filter.matches(binding))
    except KafkaException as exc:  # should the reference ever model Kafka's exceptions
        return f"threw {exc.kind}: {exc}"


def _exception(session: JvmSession, binding: AclBinding, acl_filter: AclBindingFilter) -> str:
    answer = str(session.filter_explain(enc_binding(binding, alias=False), enc_filter(acl_filter, alias=False)))
    if not answer.startswith("!"):
        return f"no exception on a second try ({answer})"
    _, cls, message = decode_tokens(answer, 1)
    return f"threw {cls}: {message}"


@attrs.frozen
class ConstructorDivergence:
    resource_type: ResourceType
    pattern_type: PatternType
    operation: AclOperation
    permission_type: AclPermissionType
    reference_accepts: bool
    kafka_accepts: bool


def _reference_accepts(rt: ResourceType, pt: PatternType, op: AclOperation, perm: AclPermissionType) -> bool:
    try:
        AclBinding(ResourcePattern(rt, "n", pt), AccessControlEntry("User:a", "*", op, perm))
    except AclValueError:
        return False
    return True


def constructor_divergences(session: JvmSession) -> list[ConstructorDivergence]:
    """Every combination of the four enums: does each side let such an ACL binding exist?"""
    combos = list(itertools.product(ResourceType, PatternType, AclOperation, AclPermissionType))
    encoded = "".join(
        tok(rt.code) + tok("n") + tok(pt.code) + tok("User:a") + tok("*") + tok(op.code) + tok(perm.code)
        for rt, pt, op, perm in combos
    )
    answers = raise_for(str(session.constructible(encoded)), "FilterCheck.constructible")
    out = []
    for (rt, pt, op, perm), answer in zip(combos, answers, strict=True):
        ours, kafka = _reference_accepts(rt, pt, op, perm), answer == "Y"
        if ours != kafka:
            out.append(ConstructorDivergence(rt, pt, op, perm, ours, kafka))
    return out
