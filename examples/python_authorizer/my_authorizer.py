"""An ACL authorizer written independently of the kit's reference, plus its adapter.

This file plays two roles:

* the example of how a team wraps its own Python authorizer for the kit: the
  ``MyAuthorizer`` class knows nothing about the kit; ``MyAuthorizerAdapter``
  translates between the kit's protocol and it, and ``factory`` is what the
  target spec names (``python:my_authorizer:factory``);
* an independent, correct implementation of StandardAuthorizer semantics
  (Kafka 4.x) that must pass the whole suite; the kit's mutation tests derive
  their faulty authorizers from it.

Run it:  kafka-conformance check authorizer --target python:my_authorizer:factory
(with this folder on PYTHONPATH).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.reference import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclRecord,
    Action,
    AddAcl,
    AuthorizationResult,
    AuthorizerError,
    ConfigError,
    RequestContext,
    ResourceType,
)

ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED

# ---------------------------------------------------------------------------
# The team's own authorizer: plain tuples and strings, its own matching code.
# ---------------------------------------------------------------------------

IMPLIES = {"DESCRIBE": {"READ", "WRITE", "DELETE", "ALTER"}, "DESCRIBE_CONFIGS": {"ALTER_CONFIGS"}}
# Kafka's own order of ACLs on a resource: longer names first, then these codes, then principal and host.
PATTERN_CODES = {"LITERAL": 3, "PREFIXED": 4}
OPERATION_CODES = {op.name: op.value for op in AclOperation}
PERMISSION_CODES = {"DENY": 2, "ALLOW": 3}


class BadStoredPrincipal(Exception):
    """A stored ACL whose principal has no colon (only records carry one)."""


class MyAuthorizer:
    """rule = (permission, principal, host, operation, resource_type, pattern, name)."""

    def __init__(self) -> None:
        self.rules: dict[str, tuple[str, str, str, str, str, str, str]] = {}
        self.super_users: set[str] = set()
        self.allow_everyone = False
        self.loaded = False

    def set_config(self, props: Mapping[str, str]) -> None:
        users = props.get("super.users", "") or ""
        for part in users.split(";"):
            part = part.strip()
            if not part:
                continue
            if ":" not in part:
                raise ValueError(f"bad super user {part!r}")
            self.super_users.add(part)
        self.allow_everyone = str(props.get("allow.everyone.if.no.acl.found", "false")).strip().lower() == "true"

    def resource_rules(self, rtype: str, name: str) -> list[tuple[str, str, str, str, str, str, str]]:
        out = []
        for rule in self.rules.values():
            _, _, _, _, rt, pattern, rname = rule
            if rt != rtype:
                continue
            # Kafka's StandardAuthorizer never consults LITERAL '*' for a name that begins with '*'.
            wildcard = rname == "*" and not name.startswith("*")
            # A pattern type this release does not know (UNKNOWN, from a record) is looked up as a prefix.
            prefix = pattern in ("PREFIXED", "UNKNOWN")
            if (pattern == "LITERAL" and (rname == name or wildcard)) or (prefix and name[: len(rname)] == rname):
                out.append(rule)
        return out

    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        if not literal:
            raise ValueError("only literal resources can be authorized")
        if principal in self.super_users:
            return True
        if not self.loaded:
            raise RuntimeError("not ready")
        if principal == "User:*":
            # Kafka 4.x matches the caller's principal and User:* as one Set.of(...), which throws
            # for the duplicate when the caller is User:* itself (KAFKA-17759).
            raise ValueError("duplicate element: User:*")
        rules = self.resource_rules(rtype, name)
        if not rules:
            return self.allow_everyone
        allowed = False
        # Kafka meets the ACLs in its own order, parses each stored principal as it meets it (one
        # without a colon throws) and stops at the first DENY that applies.
        rules.sort(key=lambda r: (PATTERN_CODES.get(r[5], 0), OPERATION_CODES.get(r[3], 0), r[1], r[2],
                                  PERMISSION_CODES.get(r[0], 0)))
        rules.sort(key=lambda r: r[6], reverse=True)
        for perm, who, where, what, _, _, _ in rules:
            if ":" not in who:
                raise BadStoredPrincipal(f"stored principal {who!r} has no colon")
            if who != principal and who != "User:*":
                continue
            if where != host and where != "*":
                continue
            if perm != "ALLOW":  # DENY, and a permission this release does not know (UNKNOWN), deny
                if what in (op, "ALL"):
                    return False
            elif what in (op, "ALL") or what in IMPLIES.get(op, ()):
                allowed = True
        return allowed

    def any_allowed(self, principal: str, host: str, op: str, rtype: str) -> bool:
        """Kafka's interface default for authorizeByResourceType."""
        if self.check(principal, host, op, rtype, "hardcode"):
            return True
        deny_lit, deny_pre, allow_lit, allow_pre = set(), set(), set(), set()
        wildcard_allow = False
        for perm, who, where, what, rt, pattern, rname in self.rules.values():
            if rt != rtype or where not in (host, "*"):
                continue
            if ":" not in who:  # the scan parses each stored principal after the host, and fails
                raise ValueError(f"stored principal {who!r} has no colon")
            if who not in (principal, "User:*") or what not in (op, "ALL"):
                continue
            if perm == "DENY":
                if pattern == "LITERAL" and rname == "*":
                    return False
                (deny_lit if pattern == "LITERAL" else deny_pre).add(rname)
            elif pattern == "LITERAL" and rname == "*":
                wildcard_allow = True
            else:
                (allow_lit if pattern == "LITERAL" else allow_pre).add(rname)
        if wildcard_allow:
            return True

        def dominated(n: str) -> bool:
            return any(n[:i] in deny_pre for i in range(1, len(n) + 1))

        return any(not dominated(p) for p in allow_pre) or any(
            lit not in deny_lit and not dominated(lit) for lit in allow_lit
        )


# ---------------------------------------------------------------------------
# The adapter: the only part that knows the kit.
# ---------------------------------------------------------------------------


def _rule(b: AclBinding) -> tuple[str, str, str, str, str, str, str]:
    return (
        b.entry.permission_type.name, b.entry.principal, b.entry.host, b.entry.operation.name,
        b.pattern.resource_type.name, b.pattern.pattern_type.name, b.pattern.name,
    )


class MyAuthorizerAdapter:
    def __init__(self, impl: MyAuthorizer | None = None) -> None:
        self.impl = impl if impl is not None else MyAuthorizer()

    def capabilities(self) -> Capabilities:
        return Capabilities()  # StandardAuthorizer semantics of the newest Kafka

    def configure(self, properties: Mapping[str, str]) -> None:
        try:
            self.impl.set_config(properties)
        except ValueError as exc:
            raise ConfigError("super.users", properties.get("super.users"), str(exc)) from exc

    def load_snapshot(self, acls: Mapping[str, AclBinding]) -> None:
        self.impl.rules = {i: _rule(b) for i, b in acls.items()}

    def apply(self, record: AclRecord) -> None:
        # Kafka refuses an inconsistent record and keeps its ACLs as they were.
        rules = self.impl.rules
        if isinstance(record, AddAcl):
            rule = _rule(record.binding)
            if record.id in rules or rule in rules.values():
                raise AuthorizerError("illegal-state", f"{record} conflicts with an ACL held", "RuntimeException")
            rules[record.id] = rule
        elif rules.pop(record.id, None) is None:
            raise AuthorizerError("illegal-state", f"no ACL with id {record.id}", "RuntimeException")

    def complete_initial_load(self) -> None:
        self.impl.loaded = True

    def _call(self, fn, *args):  # type: ignore[no-untyped-def]
        try:
            return fn(*args)
        except BadStoredPrincipal as exc:
            raise AuthorizerError("illegal-state", str(exc), "IllegalStateException") from exc
        except RuntimeError as exc:
            raise AuthorizerError("not-ready", str(exc), "AuthorizerNotReadyException") from exc
        except ValueError as exc:
            raise AuthorizerError("invalid-argument", str(exc), "IllegalArgumentException") from exc

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        who = str(context.principal)
        return [
            ALLOWED if self._call(
                self.impl.check, who, context.host, a.operation.name, a.resource.resource_type.name,
                a.resource.name, a.resource.pattern_type.name == "LITERAL",
            ) else DENIED
            for a in actions
        ]

    def authorize_by_resource_type(
        self, context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        allowed = self._call(self.impl.any_allowed, str(context.principal), context.host, operation.name,
                             resource_type.name)
        return ALLOWED if allowed else DENIED

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        return [
            b for b in (AclBinding.of(p, who, op, rt, name, pt, host)
                        for p, who, host, op, rt, pt, name in self.impl.rules.values())
            if acl_filter.matches(b)
        ]

    def acl_count(self) -> int:
        return len(self.impl.rules)

    def close(self) -> None:
        self.impl.rules.clear()


def factory() -> MyAuthorizerAdapter:
    return MyAuthorizerAdapter()
