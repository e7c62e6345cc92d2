"""Mutants of everything around the decision: super users and configuration,
readiness, non-literal actions, records, by-type answers, listing and counting."""

from __future__ import annotations

from typing import Any

from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.authorizer.records import RemoveAcl
from kafka_conformance.selftest.independent import NotReady, Refused, Rule, ZooAdapter, ZooAuthorizer

# -- super users and configuration ---------------------------------------------------------------


class DenyBeatsSuperUser(ZooAuthorizer):
    """A DENY ACL applies to super users too."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if caller in self.supers and literal and self.ready:
            for permission, who, where, what, _, _, _ in self.on_resource(asked_type, name):
                if permission == "DENY" and self.same_principal(who, caller) and self.same_host(where, host) \
                        and self.denies(what, op):
                    return False
        return super().allowed(caller, host, op, asked_type, name, literal)


class SuperUsersUntrimmed(ZooAuthorizer):
    """super.users entries not trimmed: 'User:a ; User:b' names nobody."""

    def parse_supers(self, raw: str | None) -> set[str]:
        return {e for e in (raw or "").split(";") if e}


class SuperUsersIgnoreCase(ZooAuthorizer):
    """Super users compared without case."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if literal and caller.lower() in {s.lower() for s in self.supers}:
            return True
        return super().allowed(caller, host, op, asked_type, name, literal)


class SuperUsersEmptyEntryRefused(ZooAuthorizer):
    """An empty super.users entry (';;', a trailing ';') refused (StandardAuthorizer skips it)."""

    def parse_supers(self, raw: str | None) -> set[str]:
        if raw and raw.strip() and any(not e.strip() for e in raw.split(";")):
            raise ValueError("empty super.users entry")
        return super().parse_supers(raw)


class SuperUsersUnchecked(ZooAuthorizer):
    """A super.users entry that is not Type:name accepted (Kafka refuses the configuration)."""

    def parse_supers(self, raw: str | None) -> set[str]:
        return {e.strip() for e in (raw or "").split(";") if e.strip()}


class SuperUserWaitsForLoad(ZooAuthorizer):
    """Super users refused before the initial load (Kafka answers them at once)."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if literal and not self.ready:
            raise NotReady("not ready")
        return super().allowed(caller, host, op, asked_type, name, literal)


class FlagCaseSensitive(ZooAuthorizer):
    """allow.everyone.if.no.acl.found must be exactly 'true' (Kafka: any case)."""

    def parse_flag(self, raw: str | None) -> bool:
        return (raw or "").strip() == "true"


class FlagUntrimmed(ZooAuthorizer):
    """allow.everyone.if.no.acl.found not trimmed (Kafka trims it from 3.6)."""

    def parse_flag(self, raw: str | None) -> bool:
        return (raw or "").lower() == "true"


class FlagStrict(ZooAuthorizer):
    """A flag value other than true/false refused (StandardAuthorizer reads it as false)."""

    def parse_flag(self, raw: str | None) -> bool:
        if raw is not None and raw.strip().lower() not in ("true", "false"):
            raise ValueError(f"bad flag {raw!r}")
        return super().parse_flag(raw)


class FlagDefaultsTrue(ZooAuthorizer):
    """allow.everyone.if.no.acl.found true when absent."""

    def parse_flag(self, raw: str | None) -> bool:
        return True if raw is None else super().parse_flag(raw)


class FlagOverridesAcls(ZooAuthorizer):
    """allow.everyone.if.no.acl.found grants even where an ACL would deny."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        if literal and self.ready and self.allow_everyone:
            return True
        return super().allowed(caller, host, op, asked_type, name, literal)


# -- readiness and non-literal actions -------------------------------------------------------------


class ServesBeforeReady(ZooAuthorizer):
    """Answers before the initial load completes (KIP-801 says: refuse)."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        self.ready = True
        return super().allowed(caller, host, op, asked_type, name, literal)


class NonLiteralAnswered(ZooAuthorizer):
    """KAFKA-14733: a PREFIXED action answered as if literal instead of refused."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        return super().allowed(caller, host, op, asked_type, name, True)


class WildcardSessionAnswered(ZooAuthorizer):
    """KAFKA-17759: the session principal User:* answered (as Kafka documents and 3.x does) where 4.x throws."""

    def session_refused(self, caller: str) -> bool:
        return False


class NonLiteralDenied(ZooAuthorizer):
    """A PREFIXED action DENIED instead of refused with an error."""

    def allowed(self, caller: str, host: str, op: str, asked_type: str, name: str, literal: bool) -> bool:
        return literal and super().allowed(caller, host, op, asked_type, name, literal)


# -- records ---------------------------------------------------------------------------------------


class IdReuseOverwrites(ZooAuthorizer):
    """An add under a present id silently replaces that ACL."""

    def add(self, acl_id: str, rule: Rule) -> None:
        if acl_id in self.rules:
            self.rules[acl_id] = rule
            return
        super().add(acl_id, rule)


class UnknownRemoveIgnored(ZooAuthorizer):
    """The removal of an unknown id silently ignored."""

    def remove(self, acl_id: str) -> None:
        self.rules.pop(acl_id, None)


class DuplicateContentKept(ZooAuthorizer):
    """An ACL already held under another id accepted again."""

    def add(self, acl_id: str, rule: Rule) -> None:
        if acl_id in self.rules:
            raise Refused(acl_id)
        self.rules[acl_id] = rule


class RefusedAddKept(ZooAuthorizer):
    """A refused duplicate is stored before the error is raised: the state changes."""

    def add(self, acl_id: str, rule: Rule) -> None:
        if rule in self.rules.values() and acl_id not in self.rules:
            self.rules[acl_id] = rule
            raise Refused(f"{acl_id} duplicates an ACL")
        super().add(acl_id, rule)


class SnapshotMerges(ZooAuthorizer):
    """A snapshot merged into the ACLs held instead of replacing them."""

    def load(self, rules: dict[str, Rule]) -> None:
        merged = dict(self.rules)
        merged.update(rules)
        self.rules = merged


class ReaddTombstoned(ZooAuthorizer):
    """An ACL removed once is never added again (a tombstone cache keyed by content)."""

    def __init__(self) -> None:
        super().__init__()
        self.gone: set[Rule] = set()

    def remove(self, acl_id: str) -> None:
        if acl_id in self.rules:
            self.gone.add(self.rules[acl_id])
        super().remove(acl_id)

    def add(self, acl_id: str, rule: Rule) -> None:
        if rule in self.gone:
            return
        super().add(acl_id, rule)


# -- authorize_by_resource_type ---------------------------------------------------------------------


class ByTypeDenyOnlyWildcard(ZooAuthorizer):
    """By type: only a DENY on '*' counts; PREFIXED and LITERAL DENYs dominate nothing."""

    def undominated(self, allow: Rule, denied: set[tuple[str, str]]) -> bool:
        return True


class ByTypeNoProbe(ZooAuthorizer):
    """By type without the 'hardcode' probe: super users and implied operations missed."""

    def probe(self, caller: str, host: str, op: str, asked_type: str) -> bool:
        return False


class ByTypeWildcardDenyIgnored(ZooAuthorizer):
    """By type: a DENY on '*' does not end the search."""

    def wildcard_denies(self, denied: set[tuple[str, str]]) -> bool:
        return False


class ByTypeLiteralDenyIgnored(ZooAuthorizer):
    """By type: a LITERAL DENY does not cancel the LITERAL ALLOW of the same name."""

    def undominated(self, allow: Rule, denied: set[tuple[str, str]]) -> bool:
        return super().undominated(allow, {d for d in denied if d[0] != "LITERAL"})


class ByTypeHostIgnored(ZooAuthorizer):
    """By type: the ACLs' hosts not checked."""

    def by_type_rules(self, caller: str, host: str, op: str, asked_type: str) -> list[Rule]:
        return [r for r in self.rules.values() if r[4] == asked_type and self.same_principal(r[1], caller)
                and r[3] in (op, "ALL")]


# -- listing and counting (adapter-level mutants) ------------------------------------------------------


class CountByContent(ZooAdapter):
    """acl_count counts distinct ACL contents without the permission, not ids."""

    def acl_count(self) -> int:
        return len({r[1:] for r in self.impl.rules.values()})


class ListingMatchAsExact(ZooAdapter):
    """acls(filter) takes a MATCH filter as an exact-name filter."""

    def acls(self, acl_filter: AclBindingFilter) -> list[Any]:
        held = super().acls(AclBindingFilter())
        name = acl_filter.pattern.name
        if acl_filter.pattern.pattern_type.name == "MATCH" and name is not None:
            return [b for b in held if b.pattern.name == name and acl_filter.entry.matches(b.entry)]
        return [b for b in held if acl_filter.matches(b)]


class RemovalHeldBack(ZooAdapter):
    """Records out of order: a removal waits for the next add."""

    def __init__(self, impl: ZooAuthorizer) -> None:
        super().__init__(impl)
        self.pending: list[Any] = []

    def apply(self, record: Any) -> None:
        if isinstance(record, RemoveAcl) and record.id in self.impl.rules:
            self.pending.append(record)
            return
        super().apply(record)
        for held in self.pending:
            super().apply(held)
        self.pending.clear()
