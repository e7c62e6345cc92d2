"""Mutants of matching: principals, hosts, resource names, operations, decisions.

Each class changes one method of :class:`~.independent.ZooAuthorizer`; its
docstring names the bug class and, where there is one, the real bug.
"""

from __future__ import annotations

from kafka_conformance.selftest.independent import IMPLIED, Rule, ZooAuthorizer

# -- principals -------------------------------------------------------------------------------


class UserStarOnlyUsers(ZooAuthorizer):
    """User:* taken as 'any User principal' (Kafka: any principal of any type)."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal == caller or (acl_principal == "User:*" and caller.startswith("User:"))


class PrincipalsIgnoreCase(ZooAuthorizer):
    """Principals compared without case (Kafka compares them exactly)."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal.lower() == caller.lower() or acl_principal == "User:*"


class PrincipalsTrimmed(ZooAuthorizer):
    """Principals compared after trimming spaces (Kafka keeps them)."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal.strip() == caller.strip() or acl_principal == "User:*"


class TypedWildcards(ZooAuthorizer):
    """Group:* (any Type:*) taken as a wildcard for that type (Kafka: only User:* is one)."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        kind, _, name = acl_principal.partition(":")
        return super().same_principal(acl_principal, caller) or (name == "*" and caller.startswith(kind + ":"))


class LowercaseUserStar(ZooAuthorizer):
    """user:* taken as the wildcard (Kafka: the type is case-sensitive)."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal == caller or acl_principal.lower() == "user:*"


class PrincipalTypeIgnored(ZooAuthorizer):
    """Only the principal's name compared: User:alice's ACL serves ServiceAccount:alice."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return acl_principal.partition(":")[2] == caller.partition(":")[2] or acl_principal == "User:*"


class EmptyNameIsWildcard(ZooAuthorizer):
    """An ACL for 'User:' (empty name) taken as 'every User'."""

    def same_principal(self, acl_principal: str, caller: str) -> bool:
        return super().same_principal(acl_principal, caller) or (
            acl_principal.endswith(":") and caller.startswith(acl_principal))


# -- hosts --------------------------------------------------------------------------------------


class HostIgnored(ZooAuthorizer):
    """The ACL's host is never checked."""

    def same_host(self, acl_host: str, host: str) -> bool:
        return True


class HostPrefix(ZooAuthorizer):
    """Hosts matched by prefix (an empty host then matches every client)."""

    def same_host(self, acl_host: str, host: str) -> bool:
        return host.startswith(acl_host) or acl_host == "*"


class Ipv6Normalised(ZooAuthorizer):
    """IPv6 renderings unified (Kafka compares the client's rendering as a string)."""

    def same_host(self, acl_host: str, host: str) -> bool:
        def norm(h: str) -> str:
            return "::1" if h in ("::1", "0:0:0:0:0:0:0:1") else h

        return norm(acl_host) == norm(host) or acl_host == "*"


class WildcardHostIgnored(ZooAuthorizer):
    """host '*' not taken as the wildcard."""

    def same_host(self, acl_host: str, host: str) -> bool:
        return acl_host == host


# -- resource names -------------------------------------------------------------------------------


class PrefixedStarIsWildcard(ZooAuthorizer):
    """A PREFIXED '*' ACL taken as the wildcard resource."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        return (rtype == asked_type and rname == "*") or super().covers(rtype, ptype, rname, asked_type, name)


class PrefixNotEqual(ZooAuthorizer):
    """Off by one: a PREFIXED ACL must be strictly shorter than the name."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "PREFIXED" and name == rname:
            return False
        return super().covers(rtype, ptype, rname, asked_type, name)


class NamesIgnoreCase(ZooAuthorizer):
    """Resource names compared without case."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        return super().covers(rtype, ptype, rname.lower(), asked_type, name.lower())


class LongestPrefixOnly(ZooAuthorizer):
    """KAFKA-14265: only the longest matching PREFIXED ACL is consulted."""

    def on_resource(self, asked_type: str, name: str) -> list[Rule]:
        found = super().on_resource(asked_type, name)
        prefixed = [r for r in found if r[5] == "PREFIXED"]
        if not prefixed:
            return found
        longest = max(len(r[6]) for r in prefixed)
        return [r for r in found if r[5] != "PREFIXED" or len(r[6]) == longest]


class OneCharPrefixMissed(ZooAuthorizer):
    """KAFKA-7702: a one-character PREFIXED ACL never matches."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "PREFIXED" and len(rname) == 1:
            return False
        return super().covers(rtype, ptype, rname, asked_type, name)


class PrefixReversed(ZooAuthorizer):
    """The PREFIXED test the wrong way round: the ACL's name starts with the asked one."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "PREFIXED":
            return rtype == asked_type and rname.startswith(name)
        return super().covers(rtype, ptype, rname, asked_type, name)


class WildcardResourceIgnored(ZooAuthorizer):
    """The LITERAL '*' ACL never matches."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "LITERAL" and rname == "*":
            return False
        return super().covers(rtype, ptype, rname, asked_type, name)


class StarNamesSeeWildcard(ZooAuthorizer):
    """LITERAL '*' consulted for names starting with '*' (StandardAuthorizer skips it there)."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "LITERAL" and rname == "*":
            return rtype == asked_type
        return super().covers(rtype, ptype, rname, asked_type, name)


class StarGlob(ZooAuthorizer):
    """A '*' at the end of a LITERAL name taken as a glob ('f*' covers 'foo')."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "LITERAL" and len(rname) > 1 and rname.endswith("*"):
            return rtype == asked_type and name.startswith(rname[:-1])
        return super().covers(rtype, ptype, rname, asked_type, name)


class LiteralAsPrefix(ZooAuthorizer):
    """LITERAL ACLs also cover the names they prefix."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        return super().covers(rtype, "PREFIXED" if rname != "*" else ptype, rname, asked_type, name)


class EmptyPrefixMatchesNothing(ZooAuthorizer):
    """A PREFIXED '' ACL matches nothing (StandardAuthorizer: every name)."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "PREFIXED" and rname == "":
            return False
        return super().covers(rtype, ptype, rname, asked_type, name)


class EmptyLiteralIsWildcard(ZooAuthorizer):
    """A LITERAL '' ACL taken as the wildcard."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "LITERAL" and rname == "":
            return rtype == asked_type
        return super().covers(rtype, ptype, rname, asked_type, name)


class WildcardAnyType(ZooAuthorizer):
    """The '*' ACL of one resource type covers every type."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "LITERAL" and rname == "*":
            return not name.startswith("*")
        return super().covers(rtype, ptype, rname, asked_type, name)


class PrefixedAnyType(ZooAuthorizer):
    """PREFIXED ACLs cover every resource type."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        if ptype == "PREFIXED":
            return name.startswith(rname)
        return super().covers(rtype, ptype, rname, asked_type, name)


class SlashTruncates(ZooAuthorizer):
    """Names cut at '/' (a ZooKeeper path habit): 'fo/o' is asked as 'fo'."""

    def covers(self, rtype: str, ptype: str, rname: str, asked_type: str, name: str) -> bool:
        return super().covers(rtype, ptype, rname, asked_type, name.split("/", 1)[0])


class ProbeNameIgnored(ZooAuthorizer):
    """ACLs on 'hardcode' skipped, as if the by-type probe name were reserved."""

    def on_resource(self, asked_type: str, name: str) -> list[Rule]:
        return [r for r in super().on_resource(asked_type, name) if r[6] != "hardcode"]


# -- operations ---------------------------------------------------------------------------------


class DenyImplies(ZooAuthorizer):
    """A DENY of an implying operation (DENY READ) also denies the implied one (DESCRIBE)."""

    def denies(self, acl_op: str, op: str) -> bool:
        return self.grants(acl_op, op)


class DenyAllIgnored(ZooAuthorizer):
    """DENY ALL does not deny."""

    def denies(self, acl_op: str, op: str) -> bool:
        return acl_op == op


class AllowAllIgnored(ZooAuthorizer):
    """ALLOW ALL does not grant."""

    def grants(self, acl_op: str, op: str) -> bool:
        return acl_op == op or acl_op in IMPLIED.get(op, ())


class NoImplication(ZooAuthorizer):
    """ALLOW READ does not grant DESCRIBE."""

    def grants(self, acl_op: str, op: str) -> bool:
        return acl_op in (op, "ALL")


class ImplicationReversed(ZooAuthorizer):
    """ALLOW DESCRIBE grants READ, WRITE, DELETE, ALTER."""

    def grants(self, acl_op: str, op: str) -> bool:
        return acl_op in (op, "ALL") or op in IMPLIED.get(acl_op, ())


class PartialImplication(ZooAuthorizer):
    """An incomplete implication table: DELETE and ALTER_CONFIGS imply nothing."""

    def grants(self, acl_op: str, op: str) -> bool:
        return acl_op in (op, "ALL") or (op == "DESCRIBE" and acl_op in ("READ", "WRITE", "ALTER"))


# -- decisions --------------------------------------------------------------------------------------


class AllowBeatsDeny(ZooAuthorizer):
    """An applying ALLOW wins over an applying DENY."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if literal and caller not in self.supers and self.ready:
            for permission, who, where, what, _, _, _ in self.on_resource(asked_type, name):
                if permission == "ALLOW" and self.same_principal(who, caller) and self.same_host(where, host) \
                        and self.grants(what, op):
                    return True
        return super().allowed(caller, host, op, asked_type, name, literal)


class FirstMatchWins(ZooAuthorizer):
    """The first applying ACL, in the order held, decides (a firewall's habit)."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if literal and caller not in self.supers and self.ready:
            for permission, who, where, what, _, _, _ in self.on_resource(asked_type, name):
                if self.same_principal(who, caller) and self.same_host(where, host):
                    if permission == "DENY" and self.denies(what, op):
                        return False
                    if permission == "ALLOW" and self.grants(what, op):
                        return True
        return super().allowed(caller, host, op, asked_type, name, literal)


class DefaultWhenNoneApplies(ZooAuthorizer):
    """KAFKA-14435: allow.everyone.if.no.acl.found applied when ACLs exist but none applies."""

    def when_none_applies(self, found: list[Rule]) -> bool:
        return self.allow_everyone


class DefaultAllow(ZooAuthorizer):
    """No ACL for the resource: allowed, whatever the flag says."""

    def when_none_applies(self, found: list[Rule]) -> bool:
        return not found or False


class WildcardDenyIgnored(ZooAuthorizer):
    """A DENY for User:* never denies."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        held = self.rules
        self.rules = {i: r for i, r in held.items() if not (r[0] == "DENY" and r[1] == "User:*")}
        try:
            return super().allowed(caller, host, op, asked_type, name, literal)
        finally:
            self.rules = held
