"""Authorizer profiles: the semantics of one authorizer flavour in one Kafka release.

A :class:`Profile` is a Kafka version plus an authorizer flavour
(``standard`` = KRaft ``StandardAuthorizer``, KIP-801; ``acl`` = ZooKeeper
``AclAuthorizer``).  Every place where Kafka's behaviour changed between
releases is one named, documented flag here, so the authorizer code reads as
the KIPs do and a reader can check each flag against the release notes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cached_property, lru_cache

import attrs

from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import DEFAULT_VERSION, OLDEST_VERSION, KafkaVersion, fixed_in, known_release

__all__ = ["KAFKA_BUGS", "Flavour", "KafkaBug", "KafkaBugs", "Profile", "profile_for"]


class Flavour(enum.Enum):
    STANDARD = "standard"
    """KRaft ``StandardAuthorizer`` (KIP-801), 3.2.0 onwards."""
    ACL = "acl"
    """ZooKeeper ``AclAuthorizer`` (KIP-504), 2.4.0 to 3.9.x; before 2.4 ``SimpleAclAuthorizer``."""

    @classmethod
    def parse(cls, text: str | Flavour) -> Flavour:
        if isinstance(text, Flavour):
            return text
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise AclValueError("flavour", text, "expected 'standard' or 'acl'") from None


class KafkaBugs(enum.Enum):
    """Which answer a release's own bugs (:data:`KAFKA_BUGS`) set: the user's choice."""

    AS_RELEASED = "as-released"
    """Hold the implementation to what the release answers, bugs and all (the default: that is
    what a client of that release meets)."""
    DOCUMENTED = "documented"
    """Hold it to what Kafka documents, where the release has a known bug."""

    @classmethod
    def parse(cls, text: str | KafkaBugs) -> KafkaBugs:
        if isinstance(text, KafkaBugs):
            return text
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise AclValueError("kafka bugs", text, "expected 'as-released' or 'documented'") from None


@attrs.frozen
class KafkaBug:
    """A flag below that makes a release answer otherwise than Kafka documents."""

    id: str
    """The ticket, or a name where there is none."""
    flag: str
    """The :class:`Profile` property that is true where the release has the bug."""
    what: str
    """What the release does, in one line."""


KAFKA_BUGS: tuple[KafkaBug, ...] = (
    KafkaBug("KAFKA-14435", "default_when_no_acl_applies",
             "allow.everyone.if.no.acl.found is applied when no ACL applies to the caller, not only when no ACL "
             "matches the resource"),
    KafkaBug("KAFKA-14265", "prefix_shadowing_bug",
             "a shorter PREFIXED ACL is missed once the lookup walk meets an entry that is not a prefix"),
    KafkaBug("KAFKA-7702", "single_char_prefix_bug", "a PREFIXED ACL of exactly one character never matches"),
    KafkaBug("star-names-skip-wildcard", "star_names_skip_wildcard_literal",
             "ACLs on LITERAL '*' are never consulted for a resource name beginning with '*'; no ticket"),
    KafkaBug("KAFKA-17759", "wildcard_principal_session_throws",
             "a session principal equal to User:* makes authorize() throw for non-super-users"),
)
"""The flags that are bugs: Kafka documents another answer (the wildcard resource and
principal match everything, allow.everyone.if.no.acl.found applies only where no ACL matches
the resource, every PREFIXED ACL matches the names it prefixes).  A verdict says so where the
expected answer came from one of them, and ``--kafka-bugs documented`` holds an
implementation to the documentation instead (:func:`profile_for`'s ``fixed``)."""
_BUG_IDS = frozenset(b.id for b in KAFKA_BUGS)


def _frozen(ids: Iterable[str]) -> frozenset[str]:
    """Bug ids as a frozenset, whatever iterable was given (a set keeps a profile hashable)."""
    return frozenset(ids)


@attrs.frozen
class Profile:
    """The semantics of one authorizer flavour in one Kafka release.

    Each boolean below is derived from the version table in
    ``docs/spec/authorization.md`` §7; the field docstrings say which ticket
    changed it.  They are computed once per profile (``cached_property``): the
    decision procedure reads several of them for every ACL it looks at.
    """

    version: KafkaVersion
    flavour: Flavour
    fixed: frozenset[str] = attrs.field(default=frozenset(), converter=_frozen)
    """Ids of :data:`KAFKA_BUGS` answered as Kafka documents instead of as the release did
    (only bugs the release has; :func:`profile_for` drops the others)."""

    # -- decision procedure -------------------------------------------------
    @cached_property
    def default_when_no_acl_applies(self) -> bool:
        """KAFKA-14435: StandardAuthorizer 3.2.0-3.3.1 applied
        ``allow.everyone.if.no.acl.found`` when no ACL *applied* to the caller,
        instead of when no ACL *matched the resource*. Fixed in 3.3.2/3.4.0."""
        return self.is_standard and not fixed_in(self.version, "3.3.2", "3.4.0") and "KAFKA-14435" not in self.fixed

    @cached_property
    def prefix_shadowing_bug(self) -> bool:
        """KAFKA-14265: StandardAuthorizer 3.2.0-3.3.0 could miss a shorter
        PREFIXED ACL once the descending walk met a non-prefix entry. Fixed in 3.3.1."""
        return self.is_standard and not self.version.at_least("3.3.1") and "KAFKA-14265" not in self.fixed

    @cached_property
    def star_names_skip_wildcard_literal(self) -> bool:
        """No ticket (found by the release campaign, seen on real 3.2.0 to 4.4.0): StandardAuthorizer's
        walk skips every LITERAL ACL that is not an exact match once its name is a prefix of the
        resource name, and the LITERAL ``*`` wildcard is no exception.  So for a name that begins
        with ``*`` (``*o``: legal for groups and transactional ids) ALLOW and DENY ACLs on LITERAL
        ``*`` are never consulted (``StandardAuthorizerData.checkSection``).  AclAuthorizer looks
        the wildcard up on its own and is not affected."""
        return self.is_standard and "star-names-skip-wildcard" not in self.fixed

    @cached_property
    def single_char_prefix_bug(self) -> bool:
        """KAFKA-7702: 2.0.x and 2.1.0 never matched a PREFIXED ACL of exactly one
        character (SimpleAclAuthorizer's range lookup excluded it). Fixed in 2.1.1/2.2.0."""
        return self.flavour is Flavour.ACL and not fixed_in(self.version, "2.1.1", "2.2.0") and "KAFKA-7702" not in self.fixed

    @cached_property
    def rejects_non_literal_actions(self) -> bool:
        """Non-LITERAL actions raise IllegalArgumentException: AclAuthorizer
        always (2.0.0 onwards); StandardAuthorizer from 3.4.1/3.5.0 (KAFKA-14733),
        before which the action name was matched as if literal."""
        if self.flavour is Flavour.ACL:
            return True
        return fixed_in(self.version, "3.4.1", "3.5.0")

    @cached_property
    def has_not_ready_state(self) -> bool:
        """StandardAuthorizer throws AuthorizerNotReadyException for
        non-super-users until the initial load completes, from 3.3.0 (KAFKA-13649).
        3.2.x served requests immediately; AclAuthorizer is ready after configure()."""
        return self.is_standard and self.version.at_least("3.3.0")

    @cached_property
    def non_allow_deny_permission_denies(self) -> bool:
        """A stored ACL whose permission is UNKNOWN: StandardAuthorizer treats it
        as DENY when it applies; AclAuthorizer ignores it."""
        return self.is_standard

    @cached_property
    def compares_stored_principal_text(self) -> bool:
        """StandardAuthorizer 3.2.x compared a stored ACL's principal with the caller's as text
        (``StandardAuthorizerData.java@3.2.3:369-370``), so one without a colon (only records can
        hold it) never applies.  From 3.3.0 (KAFKA-13651, the audit-logging change) it parses the
        stored principal when it meets the ACL (``StandardAcl.kafkaPrincipal``,
        ``StandardAcl.java@3.3.0:100-108``), which throws IllegalStateException for one without a
        colon.  AclAuthorizer parses principals as it loads them and cannot hold such an ACL."""
        return self.is_standard and not self.version.at_least("3.3.0")

    @cached_property
    def empty_prefix_matches_all(self) -> bool:
        """A stored PREFIXED ACL named "" (only reachable through records):
        StandardAuthorizer matches every name; AclAuthorizer only the empty name."""
        return self.is_standard

    @cached_property
    def wildcard_principal_session_throws(self) -> bool:
        """KAFKA-17759 (4.0 line): the principal set is built with ``Set.of``,
        so a session principal equal to ``User:*`` makes authorize() throw
        IllegalArgumentException for non-super-users (confirmed on 3.9.1 vs 4.0.0 by
        tests/jvm/test_kafka_releases.py)."""
        return self.is_standard and self.version.at_least("4.0.0") and "KAFKA-17759" not in self.fixed

    # -- configuration --------------------------------------------------------
    @cached_property
    def trims_allow_everyone(self) -> bool:
        """KAFKA-14962: both authorizers trim ``allow.everyone.if.no.acl.found``
        from 3.6.0; before, " true" meant false for StandardAuthorizer and was an
        error for AclAuthorizer (Scala ``toBoolean``)."""
        return self.version.at_least("3.6.0")

    @cached_property
    def strict_config(self) -> bool:
        """AclAuthorizer throws on empty ``super.users`` segments and on a
        non-boolean ``allow.everyone.if.no.acl.found``; StandardAuthorizer
        skips empty segments and treats non-"true" as false."""
        return self.flavour is Flavour.ACL

    # -- lifecycle and APIs ------------------------------------------------------
    @cached_property
    def acl_count_supported(self) -> bool:
        """``aclCount()``: StandardAuthorizer counts ids; AclAuthorizer returns -1."""
        return self.is_standard

    @cached_property
    def delete_attributes_to_every_filter(self) -> bool:
        """deleteAcls with several filters: StandardAuthorizer reports a removed
        ACL under every filter that matched it; AclAuthorizer under the first."""
        return self.is_standard

    @cached_property
    def has_authorize_by_resource_type(self) -> bool:
        """KIP-679: ``authorizeByResourceType`` exists from 2.8.0."""
        return self.version.at_least("2.8.0")

    @cached_property
    def rejects_slash_in_names(self) -> bool:
        """KAFKA-13983: AclAuthorizer rejects resource names containing '/' from 3.3.0.

        Seen on the real releases (tests/jvm/test_kafka_releases.py): 3.3.0 refuses the ACL
        (InvalidRequestException); 3.2.3 took the name as a ZooKeeper path, so createAcls failed
        with NoNode unless the parent resource's znode existed."""
        return self.flavour is Flavour.ACL and self.version.at_least("3.3.0")

    @cached_property
    def controller_rejects_empty_names(self) -> bool:
        """KAFKA-14733: the KRaft controller rejects empty resource names from 3.4.1/3.5.0."""
        return fixed_in(self.version, "3.4.1", "3.5.0")

    @cached_property
    def is_standard(self) -> bool:
        return self.flavour is Flavour.STANDARD

    def supports(self, resource_type_or_op: enum.Enum) -> bool:
        """Whether this release knows the resource type or operation at all."""
        since = _INTRODUCED.get(resource_type_or_op.name)
        return since is None or self.version.at_least(since)

    def bugs(self) -> tuple[KafkaBug, ...]:
        """The :data:`KAFKA_BUGS` this release has, answered as released or not."""
        released = profile_for(self.version, self.flavour)
        return tuple(b for b in KAFKA_BUGS if getattr(released, b.flag))

    @property
    def documented(self) -> bool:
        """Every bug of the release answered as Kafka documents (``--kafka-bugs documented``)."""
        return bool(self.fixed) and self.fixed == frozenset(b.id for b in self.bugs())

    def __str__(self) -> str:
        """``standard@3.2.3``; with bugs fixed, ``standard@3.2.3 as documented`` (all of them) or
        ``standard@3.2.3 without KAFKA-14265``."""
        if not self.fixed:
            return f"{self.flavour.value}@{self.version}"
        return f"{self.flavour.value}@{self.version} " + (
            "as documented" if self.documented else "without " + ", ".join(sorted(self.fixed)))


_INTRODUCED = {
    "DELEGATION_TOKEN": "1.1.0",
    "USER": "3.3.0",
    "CREATE_TOKENS": "3.3.0",
    "DESCRIBE_TOKENS": "3.3.0",
}


@lru_cache(maxsize=256)
def profile_for(
    version: str | KafkaVersion = DEFAULT_VERSION, flavour: str | Flavour = Flavour.STANDARD,
    fixed: frozenset[str] = frozenset(), *, kafka_bugs: KafkaBugs | str = KafkaBugs.AS_RELEASED,
) -> Profile:
    """Build and validate a profile: the flavour must exist in that release.  Remembered (a
    profile is a frozen value, and the kit asks for one per reference it configures, a few per
    case); a refusal is not remembered, so it is raised every time.

    ``fixed`` names :data:`KAFKA_BUGS` to answer as documented; ``kafka_bugs=DOCUMENTED`` fixes
    every bug of the release.  Bugs the release does not have are dropped, so a profile of a
    release without bugs is the same value whatever is asked."""
    v = KafkaVersion.parse(version)
    f = Flavour.parse(flavour)
    if v < OLDEST_VERSION:
        raise AclValueError("kafka version", str(v), f"releases before {OLDEST_VERSION} are not modelled")
    known_release(v)
    if f is Flavour.STANDARD and v < KafkaVersion(3, 2, 0):
        raise AclValueError(
            "flavour", "standard", f"StandardAuthorizer first shipped in 3.2.0, not in {v}"
        )
    if f is Flavour.ACL and v >= KafkaVersion(4, 0, 0):
        raise AclValueError("flavour", "acl", f"AclAuthorizer was removed in 4.0.0 (asked for {v})")
    kafka_bugs = KafkaBugs.parse(kafka_bugs)
    unknown = set(fixed) - _BUG_IDS
    if unknown:
        raise AclValueError("kafka bug", ", ".join(sorted(unknown)), f"known: {', '.join(sorted(_BUG_IDS))}")
    released = Profile(v, f)
    if not fixed and kafka_bugs is KafkaBugs.AS_RELEASED:
        return released  # as shipped: what Profile.bugs() asks for, so this return ends that recursion
    has = frozenset(b.id for b in released.bugs())
    chosen = has if kafka_bugs is KafkaBugs.DOCUMENTED else has & fixed
    return Profile(v, f, chosen) if chosen else released
