"""The equivalence classes of the authorizer's inputs, with stable names.

Each class is one trait of an input that Kafka's semantics treat differently
from its neighbours, or one combination of ACLs whose interplay Kafka defines
(DENY against ALLOW on prefix-related names, and so on).  The list is the
checklist the generators are held to: a default run must reach every class
that applies to the target, and the report names those it did not reach.

``needs`` says when a class can apply at all: ``hostile`` (only hostile
scenarios produce it: not in ``--mode well-formed``), ``prefixed`` (the target
understands PREFIXED ACLs), ``by-type`` (it implements
``authorize_by_resource_type``), ``records`` (it applies KIP-801 records), and
``standard`` (StandardAuthorizer semantics: AclAuthorizer keeps ACLs in
ZooKeeper znodes named after the resource, so names it cannot hold are never
generated for it), and ``star-skip`` (the release skips the LITERAL ``*`` ACL for
names beginning with ``*``: elsewhere that ACL simply matches, and there is no near
miss to reach), ``one-char-prefix`` (a one-character PREFIXED ACL can match: not
before KAFKA-7702 was fixed).
"""

from __future__ import annotations

import attrs

from kafka_conformance.adapters.protocol import Capabilities

__all__ = ["DOMAIN", "OWNERS", "DomainClass", "applicable_classes", "owner_of"]


@attrs.frozen
class DomainClass:
    name: str
    """Stable name, ``field:trait``; reports and the selftest scorecard use it."""
    what: str
    needs: frozenset[str] = frozenset()

    @property
    def field(self) -> str:
        return self.name.split(":", 1)[0]


def _c(name: str, what: str, *needs: str) -> DomainClass:
    return DomainClass(name, what, frozenset(needs))


DOMAIN: tuple[DomainClass, ...] = (
    # -- principals -------------------------------------------------------------------
    _c("principal:user", "a question asked as a User principal"),
    _c("principal:other-type", "a question asked as a principal of another type (Group:, ServiceAccount:)"),
    _c("principal:wildcard-applies", "an ACL for User:* applied to the caller"),
    _c("principal:wildcard-other-type", "an ALLOW for User:* decided for a caller of another type"),
    _c("principal:same-name-other-type", "an ACL for Type:x on the resource, asked as OtherType:x"),
    _c("principal:case-variant", "asked as a principal that differs from an ALLOW's only in case"),
    _c("principal:outer-space-variant", "asked as a principal that differs from an ALLOW's only in outer spaces",
       "hostile"),
    _c("principal:whitespace-variant", "asked as a principal that differs from an ALLOW's only in inner spaces",
       "hostile"),
    _c("principal:typed-wildcard", "an ALLOW for Type:* other than User:* (not Kafka's wildcard), asked as Type:x",
       "hostile"),
    _c("principal:empty-name-not-wildcard", "an ALLOW for 'Type:' (empty name) on the resource, asked as Type:x",
       "hostile"),
    _c("principal:odd-syntax", "a principal with an empty name or a second colon (User:, User:a:b)", "hostile"),
    _c("principal:wildcard-session", "a question asked as the session principal User:* (KAFKA-17759)", "hostile"),
    _c("principal:colonless-stored", "an ACL whose principal has no colon (only records hold one, and AclAuthorizer "
       "none; KAFKA-13651)", "hostile", "standard"),
    # -- hosts --------------------------------------------------------------------------
    _c("host:exact", "an ACL for the caller's own host applied"),
    _c("host:other", "an ALLOW for the caller on the resource from another host, nothing else applying"),
    _c("host:wildcard", "an ACL for host * applied"),
    _c("host:ipv6-rendering", "an ALLOW for one rendering of an IPv6 address, asked from another", "hostile"),
    _c("host:empty", "asked from, or an ACL for, the empty host", "hostile"),
    _c("host:empty-acl", "an ALLOW for the caller from the empty host, asked from a real one", "hostile"),
    # -- resource names -----------------------------------------------------------------
    _c("name:literal-exact", "a LITERAL ACL on the exact name matched"),
    _c("name:wildcard", "a LITERAL '*' ACL matched"),
    _c("name:prefixed-longer", "a PREFIXED ACL matched a longer name", "prefixed"),
    _c("name:prefixed-equal", "a PREFIXED ACL matched the name equal to its own", "prefixed"),
    _c("name:prefixed-one-char", "a one-character PREFIXED ACL matched", "prefixed", "one-char-prefix"),
    _c("name:prefixed-nested", "PREFIXED ACLs of two lengths matched one name", "prefixed"),
    _c("name:literal-on-prefix", "a LITERAL ACL on a proper prefix of the name (must not match)"),
    _c("name:prefixed-too-long", "a PREFIXED ACL longer than the name, starting with it (must not match)",
       "prefixed"),
    _c("name:cluster", "a question on the CLUSTER resource"),
    _c("name:empty", "a question on, or an ACL for, the empty name", "hostile", "standard"),
    _c("name:empty-literal-not-wildcard", "an ALLOW on LITERAL '' for the caller, asked about another name",
       "hostile", "standard"),
    _c("name:star-inside", "a name holding '*' that is not the wildcard ('f*', '**')", "hostile"),
    _c("name:case-variant", "a question on a name that differs from an ALLOW's only in case"),
    _c("name:non-ascii", "a resource name outside ASCII", "hostile"),
    _c("name:slash", "a resource name holding '/'", "hostile", "standard"),
    _c("name:star-not-a-glob", "an ALLOW on LITERAL 'f*', asked about a name starting with 'f'", "hostile"),
    _c("name:star-name-and-wildcard", "an ALLOW on LITERAL '*', asked about a name starting with '*'", "hostile",
       "star-skip"),
    _c("name:slash-not-a-separator", "an ALLOW on LITERAL 'x', asked about 'x/...'", "hostile", "standard"),
    _c("name:empty-prefix-decides", "an ALLOW on PREFIXED '' alone granted (it covers every name)",
       "hostile", "standard", "prefixed"),
    _c("name:probe-decides", "a question on 'hardcode' granted by an ALLOW on 'hardcode' alone", "hostile"),
    _c("name:probe", "an ACL on 'hardcode', the name authorizeByResourceType probes with", "hostile"),
    # -- the action's pattern type ----------------------------------------------------------
    _c("action:literal", "a LITERAL action"),
    _c("action:non-literal", "a PREFIXED action reaching authorize (Kafka refuses it)", "hostile"),
    _c("action:batch", "several actions in one authorize() call"),
    # -- operations ---------------------------------------------------------------------
    _c("op:exact", "an ACL for the asked operation applied"),
    _c("op:all", "an ACL for ALL applied"),
    _c("op:implied-allow", "an ALLOW of an implying operation granted DESCRIBE or DESCRIBE_CONFIGS"),
    _c("op:implied-deny", "a DENY of an implying operation on the resource, asked the implied one"),
    _c("op:unknown-stored", "an ACL on the resource whose operation is UNKNOWN (a code the release does not know: "
       "only records hold one)", "hostile", "standard"),
    _c("decision:unknown-permission", "an applying ACL whose permission is UNKNOWN, which StandardAuthorizer "
       "counts as a DENY (only records hold one)", "hostile", "standard"),
    _c("name:unknown-pattern", "an ACL on the resource whose pattern type is UNKNOWN, which StandardAuthorizer's "
       "lookup takes as a prefix (only records hold one)", "hostile", "standard"),
    _c("type:unknown-stored", "an ACL whose resource type is UNKNOWN (a code the release does not know: only records "
       "hold one), which no question reaches and only a filter naming UNKNOWN lists", "hostile", "standard"),
    _c("op:unrelated", "an ALLOW for the caller on the resource for an operation that does not cover the asked one"),
    # -- how the question was decided ----------------------------------------------------------
    _c("decision:deny", "a DENY ACL decided"),
    _c("decision:allow", "an ALLOW ACL decided"),
    _c("decision:no-acl-allowed", "no ACL on the resource, allow.everyone.if.no.acl.found granted"),
    _c("decision:no-acl-denied", "no ACL on the resource, denied by default"),
    _c("decision:none-applied", "ACLs on the resource, none applying to the caller"),
    _c("decision:super-user", "a super user asked"),
    _c("decision:super-user-over-deny", "a super user asked where a DENY would apply"),
    # -- combinations -----------------------------------------------------------------------
    _c("conflict:deny-and-allow", "a DENY and an ALLOW both applied"),
    _c("conflict:prefix-deny-literal-allow", "a PREFIXED DENY and a LITERAL ALLOW both applied", "prefixed"),
    _c("conflict:prefix-allow-literal-deny", "a PREFIXED ALLOW and a LITERAL DENY both applied", "prefixed"),
    _c("conflict:nested-prefixes-mixed", "PREFIXED ACLs of two lengths and both permissions applied", "prefixed"),
    _c("conflict:wildcard-deny-exact-allow", "a DENY on '*' and an ALLOW on the exact name applied"),
    _c("conflict:deny-for-another", "a DENY on the resource for another principal, an ALLOW for the caller"),
    # -- configuration as raw strings ---------------------------------------------------------------
    _c("config:super-users", "super.users set"),
    _c("config:super-users-padded", "super.users with spaces around its entries"),
    _c("config:super-users-empty-entry", "super.users with an empty entry (';;' or a trailing ';')", "hostile"),
    _c("config:super-users-malformed", "a super.users entry that is not Type:name", "hostile"),
    _c("config:allow-everyone-true", "allow.everyone.if.no.acl.found=true"),
    _c("config:allow-everyone-case", "allow.everyone.if.no.acl.found in another case (TRUE, True)"),
    _c("config:allow-everyone-padded", "allow.everyone.if.no.acl.found with spaces around it"),
    _c("config:allow-everyone-invalid", "allow.everyone.if.no.acl.found neither true nor false", "hostile"),
    # -- record streams --------------------------------------------------------------------------
    _c("records:add", "an ACL added by a record", "records"),
    _c("records:remove", "an ACL removed by a record", "records"),
    _c("records:re-add", "an ACL removed and added again under a new id", "records"),
    _c("records:snapshot", "a snapshot loaded in the middle of a log", "records"),
    _c("records:batch", "several records applied with no question between them", "records"),
    _c("records:unknown-remove", "a removal of an id that is not present (must be refused)", "records"),
    _c("records:duplicate-id", "an add reusing a present id (must be refused)", "records"),
    _c("records:duplicate-content", "an add of an ACL already present under another id (must be refused)",
       "records"),
    # -- authorize_by_resource_type -----------------------------------------------------------------
    _c("by-type:no-acl", "by type, no ACL of the type for the caller", "by-type"),
    _c("by-type:colonless-stored", "by type, an ACL of the type from the caller's host whose principal has no colon "
       "(only records hold one)", "by-type", "hostile", "standard"),
    _c("by-type:literal-allow", "by type, a LITERAL ALLOW of the type for the caller", "by-type"),
    _c("by-type:prefix-deny-over-allow", "by type, a PREFIXED DENY covering a caller's ALLOW's name",
       "by-type", "prefixed"),
    _c("by-type:wildcard-deny", "by type, a DENY on '*' and an ALLOW of the type for the caller", "by-type"),
    _c("by-type:literal-deny-cancels", "by type, a LITERAL DENY and a LITERAL ALLOW of one name for the caller",
       "by-type"),
    _c("by-type:allow-for-another-host", "by type, an ALLOW of the type for the caller from another host", "by-type"),
    _c("by-type:mixed-patterns", "by type, ALLOWs and DENYs of both pattern types for the caller",
       "by-type", "prefixed"),
)


def applicable_classes(caps: Capabilities, mode: str) -> tuple[DomainClass, ...]:
    """The classes a run against ``caps`` in ``mode`` can and must reach."""
    have = {"prefixed": caps.prefixed, "by-type": caps.by_type_variant is not None,
            "records": caps.incremental, "standard": caps.profile().is_standard,
            "hostile": mode != "well-formed",
            "star-skip": caps.profile().star_names_skip_wildcard_literal,
            "one-char-prefix": not caps.profile().single_char_prefix_bug}
    return tuple(c for c in DOMAIN if all(have[n] for n in c.needs))


OWNERS = {"records": "record-log", "by-type": "by-type"}
"""The property that checks a class's inputs, by the class's field; ``authorize`` for the rest.
A class counts as reached only where its owner saw it: a record log asked by ``authorize``
checks no record."""


def owner_of(class_name: str) -> str:
    return OWNERS.get(class_name.split(":", 1)[0], "authorize")
