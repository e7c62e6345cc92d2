"""Deliberately faulty authorizers: each a small variation of the independent,
correct ``MyAuthorizer`` in ``examples/python_authorizer``.

They are the kit's exam: a conformance kit that passes any of them has failed.
Several are Kafka's own historic bugs; the rest are classic mistakes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from my_authorizer import IMPLIES, MyAuthorizer, MyAuthorizerAdapter

from kafka_conformance.reference import AclBindingFilter, AclRecord, RemoveAcl

Rule = tuple[str, str, str, str, str, str, str]


class _Base(MyAuthorizer):
    """Decomposed check so each mutant overrides one decision."""

    def principal_ok(self, who: str, principal: str) -> bool:
        return who == principal or who == "User:*"

    def host_ok(self, where: str, host: str) -> bool:
        return where == host or where == "*"

    def deny_op_ok(self, what: str, op: str) -> bool:
        return what in (op, "ALL")

    def allow_op_ok(self, what: str, op: str) -> bool:
        return what in (op, "ALL") or what in IMPLIES.get(op, ())

    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        if pattern == "LITERAL":
            return rname == name or rname == "*"
        return name[: len(rname)] == rname

    def resource_rules(self, rtype: str, name: str) -> list[Rule]:
        return [r for r in self.rules.values() if r[4] == rtype and self.name_ok(r[5], r[6], name)]

    def default(self, rules: list[Rule], applied: bool) -> bool:
        return self.allow_everyone if not rules else False

    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        if not literal:
            raise ValueError("only literal resources can be authorized")
        if principal in self.super_users:
            return True
        if not self.loaded:
            raise RuntimeError("not ready")
        rules = self.resource_rules(rtype, name)
        allowed = applied = False
        for perm, who, where, what, _, _, _ in rules:
            if not self.principal_ok(who, principal) or not self.host_ok(where, host):
                continue
            if perm == "DENY" and self.deny_op_ok(what, op):
                return False
            if perm == "ALLOW" and self.allow_op_ok(what, op):
                allowed = applied = True
        return allowed or self.default(rules, applied)


class AllowWinsOverDeny(_Base):
    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        if principal in self.super_users:
            return True
        if not self.loaded:
            raise RuntimeError("not ready")
        rules = self.resource_rules(rtype, name)
        if not rules:
            return self.allow_everyone
        mine = [r for r in rules if self.principal_ok(r[1], principal) and self.host_ok(r[2], host)]
        return bool(any(r[0] == "ALLOW" and self.allow_op_ok(r[3], op) for r in mine))


class ImpliedOpOnDeny(_Base):
    def deny_op_ok(self, what: str, op: str) -> bool:
        return what in (op, "ALL") or what in IMPLIES.get(op, ())


class HostIgnored(_Base):
    def host_ok(self, where: str, host: str) -> bool:
        return True


class UserStarAsPrefix(_Base):
    """`User:*` treated as 'any principal of type User'."""

    def principal_ok(self, who: str, principal: str) -> bool:
        return who == principal or (who == "User:*" and principal.startswith("User:"))


class PrefixedStarIsWildcard(_Base):
    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        return rname == "*" or super().name_ok(pattern, rname, name)


class PrefixEqualityMissed(_Base):
    """Off by one: a PREFIXED ACL must be strictly shorter than the name."""

    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        if pattern == "PREFIXED":
            return name.startswith(rname) and name != rname
        return super().name_ok(pattern, rname, name)


class CaseInsensitiveNames(_Base):
    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        return super().name_ok(pattern, rname.lower(), name.lower())


class CaseInsensitivePrincipals(_Base):
    def principal_ok(self, who: str, principal: str) -> bool:
        return who.lower() == principal.lower() or who == "User:*"


class AllowEveryoneWhenNoneApplied(_Base):
    """KAFKA-14435 (StandardAuthorizer 3.2.0-3.3.1)."""

    def default(self, rules: list[Rule], applied: bool) -> bool:
        return self.allow_everyone if not applied else False


class ShorterPrefixesMissed(_Base):
    """KAFKA-14265: only the longest matching PREFIXED ACL is consulted."""

    def resource_rules(self, rtype: str, name: str) -> list[Rule]:
        rules = super().resource_rules(rtype, name)
        prefixed = [r for r in rules if r[5] == "PREFIXED"]
        if not prefixed:
            return rules
        longest = max(len(r[6]) for r in prefixed)
        return [r for r in rules if r[5] != "PREFIXED" or len(r[6]) == longest]


class SingleCharPrefixIgnored(_Base):
    """KAFKA-7702."""

    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        if pattern == "PREFIXED" and len(rname) == 1:
            return False
        return super().name_ok(pattern, rname, name)


class NonLiteralAccepted(_Base):
    """KAFKA-14733: a PREFIXED action is answered instead of rejected."""

    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        return super().check(principal, host, op, rtype, name, True)


class DenyBeatsSuperUser(_Base):
    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        supers, self.super_users = self.super_users, set()
        try:
            if principal in supers:
                rules = self.resource_rules(rtype, name)
                return not any(
                    r[0] == "DENY" and self.principal_ok(r[1], principal) and self.host_ok(r[2], host)
                    and self.deny_op_ok(r[3], op) for r in rules
                )
            return super().check(principal, host, op, rtype, name, literal)
        finally:
            self.super_users = supers


class WildcardResourceIgnored(_Base):
    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        if pattern == "LITERAL":
            return rname == name
        return super().name_ok(pattern, rname, name)


class DenyAllNotDenying(_Base):
    def deny_op_ok(self, what: str, op: str) -> bool:
        return what == op


class ServesBeforeReady(_Base):
    def check(self, principal: str, host: str, op: str, rtype: str, name: str, literal: bool = True) -> bool:
        self.loaded = True
        return super().check(principal, host, op, rtype, name, literal)


class ReversedPrefixMatch(_Base):
    def name_ok(self, pattern: str, rname: str, name: str) -> bool:
        if pattern == "PREFIXED":
            return rname.startswith(name)
        return super().name_ok(pattern, rname, name)


class SuperUsersNotTrimmed(_Base):
    def set_config(self, props: Mapping[str, str]) -> None:
        self.super_users = {p for p in (props.get("super.users", "") or "").split(";") if p}
        self.allow_everyone = str(props.get("allow.everyone.if.no.acl.found", "false")).strip().lower() == "true"


class AllowEveryoneCaseSensitive(_Base):
    def set_config(self, props: Mapping[str, str]) -> None:
        super().set_config(props)
        self.allow_everyone = props.get("allow.everyone.if.no.acl.found", "false") == "true"


class ByTypeIgnoresDenyPrefixes(_Base):
    def any_allowed(self, principal: str, host: str, op: str, rtype: str) -> bool:
        if self.check(principal, host, op, rtype, "hardcode"):
            return True
        return any(
            r[0] == "ALLOW" and r[4] == rtype and self.principal_ok(r[1], principal) and self.host_ok(r[2], host)
            and r[3] in (op, "ALL") for r in self.rules.values()
        ) and not any(
            r[0] == "DENY" and r[4] == rtype and r[5] == "LITERAL" and r[6] == "*" and self.principal_ok(r[1], principal)
            and self.host_ok(r[2], host) and r[3] in (op, "ALL") for r in self.rules.values()
        )


class ByTypeWithoutProbe(_Base):
    """No 'hardcode' probe: super users and implied operations are missed."""

    def any_allowed(self, principal: str, host: str, op: str, rtype: str) -> bool:
        original = self.check
        self.check = lambda *a, **k: False  # type: ignore[method-assign]
        try:
            return super().any_allowed(principal, host, op, rtype)
        finally:
            self.check = original  # type: ignore[method-assign]


class RemoveAppliedLate(MyAuthorizerAdapter):
    """Records out of order: a removal is held back until the next record arrives."""

    def __init__(self) -> None:
        super().__init__(_Base())
        self.pending: list[AclRecord] = []

    def apply(self, record: AclRecord) -> None:
        if isinstance(record, RemoveAcl):
            self.pending.append(record)
            return
        super().apply(record)
        for held in self.pending:
            super().apply(held)
        self.pending.clear()


class AclCountCountsContent(MyAuthorizerAdapter):
    def __init__(self) -> None:
        super().__init__(_Base())

    def acl_count(self) -> int:
        return len({r[:5] for r in self.impl.rules.values()})


class ListingIgnoresMatch(MyAuthorizerAdapter):
    """acls(filter) treats a MATCH filter as an exact-name filter."""

    def __init__(self) -> None:
        super().__init__(_Base())

    def acls(self, acl_filter: AclBindingFilter) -> list[Any]:
        everything = super().acls(AclBindingFilter())
        name = acl_filter.pattern.name
        if acl_filter.pattern.pattern_type.name == "MATCH" and name is not None:
            return [b for b in everything if b.pattern.name == name and acl_filter.entry.matches(b.entry)]
        return [b for b in everything if acl_filter.matches(b)]


def _wrap(cls: type[MyAuthorizer]) -> Callable[[], MyAuthorizerAdapter]:
    return lambda: MyAuthorizerAdapter(cls())


MUTANTS: dict[str, tuple[Callable[[], Any], str]] = {
    "allow-wins-over-deny": (_wrap(AllowWinsOverDeny), "well-formed"),
    "implied-op-on-deny": (_wrap(ImpliedOpOnDeny), "well-formed"),
    "host-ignored": (_wrap(HostIgnored), "well-formed"),
    "user-star-as-prefix": (_wrap(UserStarAsPrefix), "well-formed"),
    "prefixed-star-is-wildcard": (_wrap(PrefixedStarIsWildcard), "well-formed"),
    "prefix-equality-missed": (_wrap(PrefixEqualityMissed), "well-formed"),
    "case-insensitive-names": (_wrap(CaseInsensitiveNames), "hostile"),
    "case-insensitive-principals": (_wrap(CaseInsensitivePrincipals), "hostile"),
    "kafka-14435-allow-everyone": (_wrap(AllowEveryoneWhenNoneApplied), "well-formed"),
    "kafka-14265-shorter-prefixes": (_wrap(ShorterPrefixesMissed), "well-formed"),
    "kafka-7702-single-char-prefix": (_wrap(SingleCharPrefixIgnored), "well-formed"),
    "kafka-14733-non-literal-accepted": (_wrap(NonLiteralAccepted), "hostile"),
    "deny-beats-super-user": (_wrap(DenyBeatsSuperUser), "well-formed"),
    "wildcard-resource-ignored": (_wrap(WildcardResourceIgnored), "well-formed"),
    "deny-all-not-denying": (_wrap(DenyAllNotDenying), "well-formed"),
    "serves-before-ready": (_wrap(ServesBeforeReady), "well-formed"),
    "reversed-prefix-match": (_wrap(ReversedPrefixMatch), "well-formed"),
    "super-users-not-trimmed": (_wrap(SuperUsersNotTrimmed), "well-formed"),
    "allow-everyone-case-sensitive": (_wrap(AllowEveryoneCaseSensitive), "well-formed"),
    "by-type-ignores-deny-prefixes": (_wrap(ByTypeIgnoresDenyPrefixes), "well-formed"),
    "by-type-without-probe": (_wrap(ByTypeWithoutProbe), "well-formed"),
    "records-out-of-order": (RemoveAppliedLate, "well-formed"),
    "acl-count-counts-content": (AclCountCountsContent, "well-formed"),
    "listing-ignores-match": (ListingIgnoresMatch, "well-formed"),
}
