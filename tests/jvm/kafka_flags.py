"""The version flags of the reference profiles, each as a scenario whose answer changes at the release
that fixed (or introduced) the behaviour: run on the real releases either side, and on the reference."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kafka_conformance.reference import (
    AclBinding,
    AclOperation,
    Action,
    KafkaException,
    PatternType,
    RequestContext,
    ResourcePattern,
    ResourceType,
    parse_principal,
)
from kafka_conformance.reference.acl.values import AccessControlEntry, AclPermissionType

ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY


def acl(principal: str, permission: AclPermissionType, op: AclOperation, name: str,
        pattern: PatternType = PatternType.LITERAL) -> AclBinding:
    return AclBinding(ResourcePattern(ResourceType.TOPIC, name, pattern),
                      AccessControlEntry(principal, "*", op, permission))


@attrs.frozen
class Scenario:
    config: dict[str, str]
    acls: tuple[AclBinding, ...]
    principal: str
    action: Action | None = None
    by_type: tuple[AclOperation, ResourceType] | None = None
    complete_initial_load: bool = True

    def run(self, adapter: object) -> str:
        """The answer as a word (ALLOWED / DENIED) or ``error:KIND``, as the kit compares them."""
        a: object = adapter
        try:
            a.configure(self.config)  # type: ignore[attr-defined]
            a.load_snapshot({f"acl-{i}": b for i, b in enumerate(self.acls)})  # type: ignore[attr-defined]
            if self.complete_initial_load:
                a.complete_initial_load()  # type: ignore[attr-defined]
            ctx = RequestContext(parse_principal(self.principal), "10.0.0.1")
            if self.by_type is not None:
                return str(a.authorize_by_resource_type(ctx, *self.by_type).name)  # type: ignore[attr-defined]
            return str(a.authorize(ctx, [self.action])[0].name)  # type: ignore[attr-defined]
        except KafkaException as exc:
            return f"error:{exc.kind}"


def read(name: str, pattern: PatternType = PatternType.LITERAL) -> Action:
    return Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name, pattern))


@attrs.frozen
class Flag:
    ticket: str
    flag: str
    """The Profile property that names the change."""
    before: str
    after: str
    """Releases (``VERSION:FLAVOUR``) either side of the change."""
    scenario: Scenario

    @property
    def id(self) -> str:
        return f"{self.ticket}-{self.before}-{self.after}"


FLAGS: tuple[Flag, ...] = (
    Flag("KAFKA-14435", "default_when_no_acl_applies", "3.3.1:standard", "3.4.0:standard",
         Scenario({"allow.everyone.if.no.acl.found": "true"}, (acl("User:bob", DENY, AclOperation.READ, "foo"),),
                  "User:alice", read("foo"))),
    Flag("KAFKA-14435", "default_when_no_acl_applies", "3.3.1:standard", "3.3.2:standard",
         Scenario({"allow.everyone.if.no.acl.found": "true"}, (acl("User:bob", DENY, AclOperation.READ, "foo"),),
                  "User:alice", read("foo"))),
    Flag("KAFKA-14265", "prefix_shadowing_bug", "3.3.0:standard", "3.3.1:standard",
         Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "foo", PatternType.PREFIXED),
                       acl("User:bob", ALLOW, AclOperation.READ, "fooa")),
                  "User:alice", read("foobar"))),
    Flag("KAFKA-14733", "rejects_non_literal_actions", "3.4.0:standard", "3.4.1:standard",
         Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "foo"),),
                  "User:alice", read("foo", PatternType.PREFIXED))),
    Flag("KAFKA-13649", "has_not_ready_state", "3.2.3:standard", "3.3.0:standard",
         Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "foo"),), "User:alice", read("foo"),
                  complete_initial_load=False)),
    Flag("KAFKA-14962", "trims_allow_everyone", "3.5.2:standard", "3.6.0:standard",
         Scenario({"allow.everyone.if.no.acl.found": " true"}, (), "User:alice", read("foo"))),
    Flag("KAFKA-14962", "trims_allow_everyone", "3.5.2:acl", "3.6.0:acl",
         Scenario({"allow.everyone.if.no.acl.found": " true"}, (), "User:alice", read("foo"))),
    Flag("KAFKA-17759", "wildcard_principal_session_throws", "3.9.1:standard", "4.0.0:standard",
         Scenario({}, (acl("User:*", ALLOW, AclOperation.READ, "foo"),), "User:*", read("foo"))),
)

NOT_RUNNABLE = {
    "KAFKA-7702 (single_char_prefix_bug)": "2.0.x-2.1.0 only, where the authorizer is the Scala SimpleAclAuthorizer, "
                                           "which the kit does not drive",
    "KAFKA-14733 (controller_rejects_empty_names)": "the KRaft controller validates CreateAcls; StandardAuthorizer "
                                                    "itself accepts records as given (real-broker issue)",
}

SLASH = Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "a/b"),), "User:alice", read("a/b"))
"""KAFKA-13983: a '/' in an AclAuthorizer resource name (checked on its own: the older release fails in ZooKeeper)."""
BY_TYPE = Scenario({}, (acl("User:alice", ALLOW, AclOperation.WRITE, "foo"),), "User:alice",
                   by_type=(AclOperation.WRITE, ResourceType.TOPIC))
"""KIP-679: authorizeByResourceType, absent from the Authorizer interface before 2.8."""

GATE_RELEASES = tuple(sorted({r for f in FLAGS for r in (f.before, f.after)} | {"3.2.3:acl", "3.3.0:acl", "2.7.2:acl", "2.8.2:acl"}))

ScenarioRunner = Callable[[Scenario, str], str]

STAR_NAMES = {
    "deny-on-literal-star-for-*o": Scenario({}, (acl("User:alice", DENY, AclOperation.READ, "*"),
                                                 acl("User:alice", ALLOW, AclOperation.READ, "*o")), "User:alice", read("*o")),
    "allow-on-literal-star-for-*o": Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "*"),), "User:alice", read("*o")),
    "allow-on-literal-star-for-**": Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "*"),), "User:alice", read("**")),
    "allow-on-literal-star-for-*": Scenario({}, (acl("User:alice", ALLOW, AclOperation.READ, "*"),), "User:alice", read("*")),
}
"""Profile.star_names_skip_wildcard_literal: StandardAuthorizer never consults LITERAL '*' for a name starting with '*'."""
