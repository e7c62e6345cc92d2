"""An authorizer written apart from the reference, for the zoo to mutate.

It implements Kafka 4.3's StandardAuthorizer semantics from the documentation and
the KIPs, in its own way: rules are plain tuples, and every decision is a small
overridable method, so that each mutant in the zoo is a one-method change.  It
uses the reference's value types only at the adapter boundary, never its logic:
a zoo derived from the reference would share the reference's blind spots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import AclRecord, AddAcl
from kafka_conformance.reference.errors import AuthorizerError, ConfigError

__all__ = ["IMPLIED", "Rule", "ZooAdapter", "ZooAuthorizer"]

Rule = tuple[str, str, str, str, str, str, str]
"""(permission, principal, host, operation, resource type, pattern type, name)."""

IMPLIED = {"DESCRIBE": ("READ", "WRITE", "DELETE", "ALTER"), "DESCRIBE_CONFIGS": ("ALTER_CONFIGS",)}
"""Asked operation -> the operations whose ALLOW also grants it."""

PROBE = "hardcode"


class NotReady(Exception):
    pass


class BadRequest(Exception):
    pass


class Refused(Exception):
    pass


class BadStoredPrincipal(Exception):
    pass


_OPERATION_CODES = {op.name: op.value for op in AclOperation}


class ZooAuthorizer:
    """Kafka's authorizer, one overridable decision per method."""

    def __init__(self) -> None:
        self.rules: dict[str, Rule] = {}
        self.supers: set[str] = set()
        self.allow_everyone = False
        self.ready = False

    # -- configuration -----------------------------------------------------------------
    def configure(self, props: Mapping[str, str]) -> None:
        self.supers = self.parse_supers(props.get("super.users"))
        self.allow_everyone = self.parse_flag(props.get("allow.everyone.if.no.acl.found"))

    def parse_supers(self, raw: str | None) -> set[str]:
        entries = [e.strip() for e in (raw or "").split(";")]
        entries = [e for e in entries if e]
        if any(":" not in e for e in entries):
            raise ValueError(f"super.users entry is not Type:name in {raw!r}")
        return set(entries)

    def parse_flag(self, raw: str | None) -> bool:
        return (raw or "").strip().lower() == "true"

    # -- records -------------------------------------------------------------------------
    def add(self, acl_id: str, rule: Rule) -> None:
        if acl_id in self.rules or rule in self.rules.values():
            raise Refused(f"{acl_id} or its ACL is already held")
        self.rules[acl_id] = rule

    def remove(self, acl_id: str) -> None:
        if acl_id not in self.rules:
            raise Refused(f"no ACL with id {acl_id}")
        del self.rules[acl_id]

    def load(self, rules: dict[str, Rule]) -> None:
        self.rules = dict(rules)

    # -- matching ------------------------------------------------------------------------
    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal == caller or acl_principal == "User:*"

    def same_host(self, acl_host: str, host: str) -> bool:
        return acl_host == host or acl_host == "*"

    def denies(self, acl_op: str, op: str) -> bool:
        return acl_op == op or acl_op == "ALL"

    def grants(self, acl_op: str, op: str) -> bool:
        return acl_op == op or acl_op == "ALL" or acl_op in IMPLIED.get(op, ())

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if rtype != asked_type:
            return False
        if ptype in ("PREFIXED", "UNKNOWN"):  # an unknown pattern type is looked up as a prefix
            return name.startswith(rname)
        if rname == "*":
            # StandardAuthorizer never consults '*' for other names that begin with '*'.
            return name == "*" or not name.startswith("*")
        return rname == name

    def on_resource(self, asked_type: str, name: str) -> list[Rule]:
        return [r for r in self.rules.values() if self.covers(r[4], r[5], r[6], asked_type, name)]

    def kafka_order(self, found: list[Rule]) -> list[Rule]:
        """StandardAuthorizer meets the ACLs on a resource longest name first, then by pattern type,
        operation, principal, host and permission."""
        codes = {"LITERAL": 3, "PREFIXED": 4, "DENY": 2, "ALLOW": 3, **_OPERATION_CODES}
        found = sorted(found, key=lambda r: (codes.get(r[5], 0), codes.get(r[3], 0), r[1], r[2], codes.get(r[0], 0)))
        return sorted(found, key=lambda r: r[6], reverse=True)

    def session_refused(self, caller: str) -> bool:
        """Kafka 4.x matches Set.of(caller, User:*), which throws for the duplicate (KAFKA-17759)."""
        return caller == "User:*"

    def when_none_applies(self, found: list[Rule]) -> bool:
        return self.allow_everyone if not found else False

    # -- questions -----------------------------------------------------------------------
    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if not literal:
            raise BadRequest("only LITERAL resources can be authorized")
        if caller in self.supers:
            return True
        if not self.ready:
            raise NotReady("the initial ACL load has not completed")
        if self.session_refused(caller):
            raise BadRequest("the session principal is User:*")
        found = self.kafka_order(self.on_resource(asked_type, name))
        granted = False
        for permission, who, where, what, _, _, _ in found:
            if ":" not in who:  # parsed as it is met (KAFKA-13651): throws, unless a DENY decided first
                raise BadStoredPrincipal(f"stored principal {who!r} has no colon")
            if not (self.same_principal(who, caller) and self.same_host(where, host)):
                continue
            if permission != "ALLOW" and self.denies(what, op):  # UNKNOWN counts as DENY
                return False
            if permission == "ALLOW" and self.grants(what, op):
                granted = True
        return granted or self.when_none_applies(found)

    def any_allowed(self, caller: str, host: str, op: str, asked_type: str) -> bool:
        """Kafka's default authorizeByResourceType: the probe, then ALLOWs not dominated by a DENY."""
        if self.probe(caller, host, op, asked_type):
            return True
        mine = self.by_type_rules(caller, host, op, asked_type)
        denied = {(r[5], r[6]) for r in mine if r[0] == "DENY"}
        if self.wildcard_denies(denied):
            return False
        return any(self.undominated(r, denied) for r in mine if r[0] == "ALLOW")

    def probe(self, caller: str, host: str, op: str, asked_type: str) -> bool:
        return self.allowed(caller, host, op, asked_type, PROBE, True)

    def by_type_rules(self, caller: str, host: str, op: str, asked_type: str) -> list[Rule]:
        of_type = [r for r in self.rules.values() if r[4] == asked_type and self.same_host(r[2], host)]
        if any(":" not in r[1] for r in of_type):  # the scan parses each principal after the host
            raise BadRequest("a stored principal has no colon")
        return [r for r in of_type if self.same_principal(r[1], caller) and r[3] in (op, "ALL")]

    def wildcard_denies(self, denied: set[tuple[str, str]]) -> bool:
        return ("LITERAL", "*") in denied

    def undominated(self, allow: Rule, denied: set[tuple[str, str]]) -> bool:
        ptype, name = allow[5], allow[6]
        if ptype == "LITERAL" and name == "*":
            return True
        if ptype == "LITERAL" and ("LITERAL", name) in denied:
            return False
        prefixes = {n for p, n in denied if p == "PREFIXED"}
        return not any(name[:cut] in prefixes for cut in range(1, len(name) + 1))


def _rule(b: AclBinding) -> Rule:
    e, p = b.entry, b.pattern
    return (e.permission_type.name, e.principal, e.host, e.operation.name, p.resource_type.name,
            p.pattern_type.name, p.name)


class ZooAdapter:
    """The kit's protocol over a :class:`ZooAuthorizer` (or a mutant of it)."""

    def __init__(self, impl: ZooAuthorizer) -> None:
        self.impl = impl

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def configure(self, properties: Mapping[str, str]) -> None:
        try:
            self.impl.configure(properties)
        except ValueError as exc:
            raise ConfigError("super.users", properties.get("super.users"), str(exc)) from exc

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self.impl.load({i: _rule(b) for i, b in acls.items()})

    def apply(self, record: AclRecord) -> None:
        try:
            if isinstance(record, AddAcl):
                self.impl.add(record.id, _rule(record.binding))
            else:
                self.impl.remove(record.id)
        except Refused as exc:
            raise AuthorizerError("illegal-state", str(exc), "RuntimeException") from exc

    def complete_initial_load(self) -> None:
        self.impl.ready = True

    def _ask(self, fn, *args):  # type: ignore[no-untyped-def]
        try:
            return AuthorizationResult.ALLOWED if fn(*args) else AuthorizationResult.DENIED
        except NotReady as exc:
            raise AuthorizerError("not-ready", str(exc), "AuthorizerNotReadyException") from exc
        except BadRequest as exc:
            raise AuthorizerError("invalid-argument", str(exc), "IllegalArgumentException") from exc
        except BadStoredPrincipal as exc:
            raise AuthorizerError("illegal-state", str(exc), "IllegalStateException") from exc

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        caller = str(context.principal)
        return [self._ask(self.impl.allowed, caller, context.host, a.operation.name, a.resource.resource_type.name,
                          a.resource.name, a.resource.pattern_type.name == "LITERAL") for a in actions]

    def authorize_by_resource_type(self, context: RequestContext, operation: AclOperation,
                                   resource_type: ResourceType) -> AuthorizationResult:
        result: AuthorizationResult = self._ask(self.impl.any_allowed, str(context.principal), context.host,
                                                operation.name, resource_type.name)
        return result

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        held = (AclBinding.of(perm, who, op, rt, name, pt, host)
                for perm, who, host, op, rt, pt, name in self.impl.rules.values())
        return [b for b in held if acl_filter.matches(b)]

    def acl_count(self) -> int:
        return len(self.impl.rules)

    def close(self) -> None:
        self.impl.rules.clear()
