"""``authorizeByResourceType`` over a :class:`~.index.TypeIndex`.

Same three variants and the same answers as
:mod:`~kafka_conformance.reference.authorizer.by_resource_type`, which builds the
caller's "applicable" ACL list by scanning every ACL.  Here that list is the
union of at most eight :class:`~.index.Scan` objects (principal or
``User:*`` x host or ``*`` x operation or ALL), and each spec step becomes a
question to them:

* "first wildcard DENY/ALLOW": the smallest sequence number over the scans;
  AclAuthorizer's dict comprehension keeps the *last* wildcard DENY, so that
  variant takes the largest.
* "first allow not dominated": the first that passes in insertion order
  across the scans wins, which is what the spec's ``setdefault``-then-iterate
  amounts to.  Domination tests only the denied prefix lengths that exist.
  :mod:`.dominance` searches it both in insertion order and by name (jumping
  over every name a DENY prefix dominates at once), so data where a DENY
  prefix dominates every allow costs a few steps, not one test per allow.
* ground truth: the spec's candidate names (computed here from sorted names,
  identical list, memoised per type) decided one by one with the indexed
  ``decide``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from kafka_conformance.reference.acl.principal import KafkaPrincipal, parse_principal
from kafka_conformance.reference.acl.values import (
    WILDCARD_HOST,
    WILDCARD_RESOURCE,
    AclBinding,
    AclOperation,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import (
    _FRESH,
    PROBE_NAME,
    ByTypeVariant,
    _check_args,
)
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decide import error_decision
from kafka_conformance.reference.authorizer.decision import (
    Action,
    AuthorizationResult,
    Decision,
    RequestContext,
    Rule,
)
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.indexed.dominance import first_accepted
from kafka_conformance.reference.indexed.index import PrincipalKey, Scan, TypeIndex

__all__ = ["IndexedAuthorize", "by_resource_type", "candidate_names", "principal_key"]

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED

IndexedAuthorize = Callable[[RequestContext, Action, bool], Decision]
"""The indexed ``decide`` for one config/profile; the flag asks for R on DENIED answers."""


def principal_key(principal: KafkaPrincipal) -> PrincipalKey | None:
    """What a parsed stored principal must equal; None if nothing parsed can be equal
    (attrs equality also requires the exact class)."""
    if type(principal) is not KafkaPrincipal:
        return None
    return (principal.principal_type, principal.name)


def by_resource_type(
    index: TypeIndex | None,
    authorize: IndexedAuthorize,
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    config: AuthorizerConfig,
    variant: ByTypeVariant,
) -> Decision:
    bad = _check_args(operation, resource_type)
    if bad is not None:
        return bad
    if variant is ByTypeVariant.INTERFACE_DEFAULT:
        return _interface_default(index, authorize, context, operation, resource_type)
    if variant is ByTypeVariant.ACL_AUTHORIZER:
        return _acl_authorizer(index, context, operation, config)
    return _ground_truth(index, authorize, context, operation, resource_type)


class _Applicable:
    """The caller's slice of the index: what ``by_resource_type._applicable`` would list."""

    def __init__(self, index: TypeIndex, context: RequestContext, operation: AclOperation) -> None:
        hosts = (context.host, WILDCARD_HOST) if context.host != WILDCARD_HOST else (WILDCARD_HOST,)
        ops = (operation,) if operation is AclOperation.ALL else (operation, AclOperation.ALL)
        principals: list[PrincipalKey] = [(None, None)]
        own = principal_key(context.principal)
        if own is not None:
            principals.append(own)
        self.scans: list[Scan] = []
        for p in principals:
            for h in hosts:
                for op in ops:
                    scan = index.scan.get((p[0], p[1], h, id(op)))
                    if scan is not None:
                        self.scans.append(scan)
        self.first_bad = _extreme([index.bad_by_host.get(h) for h in hosts], last=False)
        """The first ACL whose principal fails to parse, tested after the host as in the spec."""
        self.deny_prefix = [s.deny_prefix for s in self.scans if s.deny_prefix]
        self.deny_literal = [s.deny_literal for s in self.scans if s.deny_literal]
        self.lens = sorted({k for s in self.scans for k in s.deny_prefix_lens if k > 0})

    def dominating(self, name: str) -> str | None:
        """The shortest non-empty prefix of ``name`` that is denied (None: undominated)."""
        size = len(name)
        for k in self.lens:
            if k > size:
                return None
            stem = name[:k]
            for denied in self.deny_prefix:
                if stem in denied:
                    return stem
        return None

    def dominated(self, name: str) -> bool:
        """``by_resource_type._dominated``: a non-empty prefix of name is denied."""
        return self.dominating(name) is not None

    def literal_denied(self, name: str) -> bool:
        # A loop, not any(<genexpr>): this runs once per allow on the by-type hot path.
        for denied in self.deny_literal:  # noqa: SIM110
            if name in denied:
                return True
        return False

    def default_prefix_allow(self, acl: AclBinding) -> Rule | None:
        """Interface default, step 3: a PREFIXED allow wins unless dominated."""
        return None if self.dominated(acl.pattern.name) else Rule.BY_TYPE_UNDOMINATED_ALLOW

    def default_literal_allow(self, acl: AclBinding) -> Rule | None:
        """Interface default, step 3: a LITERAL allow (not '*') wins unless denied or dominated."""
        name = acl.pattern.name
        if name == WILDCARD_RESOURCE or self.literal_denied(name) or self.dominated(name):
            return None
        return Rule.BY_TYPE_UNDOMINATED_ALLOW

    def acl_authorizer_allow(self, acl: AclBinding) -> Rule | None:
        """AclAuthorizer, step 5: the rule an allow wins with, by pattern."""
        name = acl.pattern.name
        if acl.pattern.pattern_type is PatternType.PREFIXED:
            return None if self.dominated(name) else Rule.BY_TYPE_UNDOMINATED_ALLOW
        if name == WILDCARD_RESOURCE:
            return Rule.BY_TYPE_WILDCARD_ALLOW
        if self.literal_denied(name) or self.dominated(name):
            return None
        return Rule.BY_TYPE_UNDOMINATED_ALLOW


def _extreme(maps: Sequence[dict[int, AclBinding] | None], *, last: bool) -> AclBinding | None:
    """The first (or last) ACL by insertion order across several seq-keyed dicts."""
    best: tuple[int, AclBinding] | None = None
    for m in maps:
        if not m:
            continue
        seq = next(reversed(m)) if last else next(iter(m))
        if best is None or (seq > best[0] if last else seq < best[0]):
            best = (seq, m[seq])
    return None if best is None else best[1]


def _interface_default(
    index: TypeIndex | None,
    authorize: IndexedAuthorize,
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
) -> Decision:
    probe = authorize(context, Action(operation, ResourcePattern(resource_type, PROBE_NAME)), False)
    if probe.result is AuthorizationResult.ERROR:
        return probe
    if probe.allowed:
        return Decision(ALLOWED, Rule.BY_TYPE_PROBE, probe.acls, detail=probe.explain())
    if index is None:
        return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)
    app = _Applicable(index, context, operation)
    if app.first_bad is not None:
        try:
            parse_principal(app.first_bad.entry.principal)
        except AclValueError as exc:
            return error_decision("invalid-argument", f"stored ACL principal: {exc}")
    deny = _extreme([s.deny_wild for s in app.scans], last=False)
    if deny is not None:
        return Decision(DENIED, Rule.BY_TYPE_WILDCARD_DENY, (deny,))
    allow = _extreme([s.allow_wild for s in app.scans], last=False)
    if allow is not None:
        return Decision(ALLOWED, Rule.BY_TYPE_WILDCARD_ALLOW, (allow,))
    found = first_accepted([(s, False) for s in app.scans], app.default_prefix_allow, app.dominating)
    if found is None:
        found = first_accepted([(s, True) for s in app.scans], app.default_literal_allow, app.dominating)
    return found or Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)


def _acl_authorizer(
    index: TypeIndex | None,
    context: RequestContext,
    operation: AclOperation,
    config: AuthorizerConfig,
) -> Decision:
    if config.super_users and context.principal in config.super_users:
        return Decision(ALLOWED, Rule.SUPER_USER)
    if index is None:
        if config.allow_everyone_if_no_acl_found:
            return Decision(ALLOWED, Rule.BY_TYPE_ALLOW_EVERYONE)
        return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)
    app = _Applicable(index, context, operation)
    if app.first_bad is not None:
        parse_principal(app.first_bad.entry.principal)  # raises, as the spec's scan does
    deny = _extreme([s.deny_wild for s in app.scans], last=True)
    if deny is not None:
        return Decision(DENIED, Rule.BY_TYPE_WILDCARD_DENY, (deny,))
    if config.allow_everyone_if_no_acl_found:
        return Decision(ALLOWED, Rule.BY_TYPE_ALLOW_EVERYONE)
    if not app.deny_literal and not app.deny_prefix:
        maps = [m for s in app.scans for m in (s.allow_prefixed, s.allow_literal, s.allow_other)]
        first = _extreme(maps, last=False)
        if first is not None:
            return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (first,))
        return Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)
    streams = [(s, literal) for s in app.scans for literal in (False, True)]
    found = first_accepted(streams, app.acl_authorizer_allow, app.dominating)
    return found or Decision(DENIED, Rule.BY_TYPE_NO_UNDOMINATED_ALLOW)


def candidate_names(index: TypeIndex | None) -> list[str]:
    """Exactly ``by_resource_type.candidate_names`` for the type, without its
    quadratic inner scan: the names extending a stem are contiguous in sorted order."""
    if index is None:
        return ["a"]  # the spec's answer for a type with no ACLs
    if index.candidates is not None:
        return index.candidates
    names = sorted({*index.literal, *index.prefixed, *index.unknown})
    candidates = {n for n in names if n}
    for stem in sorted({*index.prefixed, *index.unknown, ""}):
        taken = set()
        at = bisect.bisect_left(names, stem)
        while at < len(names) and names[at].startswith(stem):
            if len(names[at]) > len(stem):
                taken.add(names[at][len(stem)])
            at += 1
        fresh = next((c for c in _FRESH if c not in taken), None)
        if fresh is None:
            fresh = next(chr(cp) for cp in range(0x100, 0x10000) if chr(cp) not in taken)
        candidates.add(stem + fresh)
    index.candidates = sorted(candidates)
    return index.candidates


def _ground_truth(
    index: TypeIndex | None,
    authorize: IndexedAuthorize,
    context: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
) -> Decision:
    for name in candidate_names(index):
        answer = authorize(context, Action(operation, ResourcePattern(resource_type, name)), False)
        if answer.result is AuthorizationResult.ERROR:
            return answer
        if answer.allowed:
            return Decision(ALLOWED, Rule.BY_TYPE_WITNESS, answer.acls, witness=name)
    return Decision(DENIED, Rule.BY_TYPE_NO_WITNESS)
