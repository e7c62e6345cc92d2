"""StandardAuthorizer's sorted walk: where the order of Kafka's lookup shows in an answer.

KIP-11 and KIP-290 define the ACLs that match a resource as a set (step 4 of :mod:`.decide`), and
for every release but one that set is all the decision needs.  StandardAuthorizer finds it by
walking its ACLs sorted by ``StandardAcl.compareTo``, and the order of that walk shows in two
places, both kept here so that :mod:`.decide` reads as the KIP's steps:

* KAFKA-14265 (3.2.0 to 3.3.0): the walk stopped at the first name that does not prefix the
  asked one, so a shorter PREFIXED ACL behind it was never found (:func:`shadowed_lookup`, which
  :func:`.decide.matching_acls` uses when ``Profile.prefix_shadowing_bug`` is set).
* From 3.3.0 (KAFKA-13651) a stored principal that does not parse fails the question only if the
  walk meets it before a DENY that applies (:func:`kafka_walk`, the order
  :func:`.decide.unparseable_met_first` follows).

Sources: ``StandardAcl.java@3.9.0-rc3:162-178`` (the order) and
``StandardAuthorizerData.java@3.9.0-rc3:341-367,385-434`` (the walk); ``@3.2.0`` and ``@3.3.0``
for the walk that stops.
"""

from __future__ import annotations

from collections.abc import Sequence

from kafka_conformance.reference.acl.values import WILDCARD_RESOURCE, AclBinding, PatternType

__all__ = ["java_order", "kafka_walk", "shadowed_lookup"]


def java_order(text: str) -> bytes:
    """Sort key equal to Java's ``String.compareTo`` (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def kafka_walk(on_resource: Sequence[AclBinding]) -> list[AclBinding]:
    """The ACLs of R in the order StandardAuthorizer's walk meets them.

    The walk goes down the set sorted by ``StandardAcl.compareTo`` (names in reverse, then pattern
    type, operation, principal, host and permission by code, strings as Java compares them;
    ``StandardAcl.java@3.9.0-rc3:162-178``) from the asked name, then again from LITERAL ``*``
    (``StandardAuthorizerData.java@3.9.0-rc3:341-367,385-434``).  What makes it skip, seek or (in
    3.2.0-3.3.0) stop are names that do not match the asked one, and R holds none: only the ACLs
    the walk reaches (:func:`.decide.matching_acls` models which).  So among R the walk meets them in that
    sorted order, LITERAL ``*`` in its place (met again in the second pass, to no new effect)."""
    by_fields = sorted(on_resource, key=lambda a: (a.pattern.pattern_type.value, a.entry.operation.value,
                                                    java_order(a.entry.principal), java_order(a.entry.host),
                                                    a.entry.permission_type.value))
    return sorted(by_fields, key=lambda a: java_order(a.pattern.name), reverse=True)  # stable: the fields stay


def shadowed_lookup(same_type: Sequence[AclBinding], name: str) -> list[AclBinding]:
    """KAFKA-14265 (StandardAuthorizer 3.2.0-3.3.0).

    ACLs were kept sorted by name in descending order (UTF-16 code unit order,
    as Java's ``String.compareTo``).  The lookup walked from the action's name
    towards shorter names and stopped at the first entry whose name is not a
    prefix of the action's name, so a shorter PREFIXED ACL behind such an entry
    was never seen.  The LITERAL ``*`` entries were consulted separately.
    """
    found: list[AclBinding] = []
    found_ids: set[int] = set()
    for walk in (_walk_from(same_type, name), _walk_from_wildcard(same_type)):
        for acl in walk:
            if not name.startswith(acl.pattern.name):
                if acl.pattern.is_wildcard:
                    continue  # the LITERAL '*' entry was evaluated and the walk went on
                break
            if acl.pattern.pattern_type is PatternType.LITERAL and acl.pattern.name != name:
                continue  # a LITERAL that is only a prefix is skipped ('*' too: a name starting with '*')
            if id(acl) not in found_ids:
                found.append(acl)
                found_ids.add(id(acl))
    if not name.startswith(WILDCARD_RESOURCE):
        found.extend(
            a
            for a in same_type
            if a.pattern.is_wildcard and id(a) not in found_ids
        )
    return found


def _walk_from(same_type: Sequence[AclBinding], name: str) -> list[AclBinding]:
    """The first pass: every ACL whose name sorts at or below the action's, descending."""
    key = java_order(name)
    return sorted(
        (a for a in same_type if java_order(a.pattern.name) <= key),
        key=lambda a: java_order(a.pattern.name),
        reverse=True,
    )


def _walk_from_wildcard(same_type: Sequence[AclBinding]) -> list[AclBinding]:
    """The second pass, the wildcard lookup: it starts at (``*``, LITERAL), so the ``*`` ACLs
    come LITERAL first, then PREFIXED (an UNKNOWN pattern sorts before LITERAL and is not
    on it), then every name below ``*``, descending, under the same walk rules."""
    order = {PatternType.LITERAL: 0, PatternType.PREFIXED: 1}
    at_star = sorted(
        (a for a in same_type if a.pattern.name == WILDCARD_RESOURCE and a.pattern.pattern_type in order),
        key=lambda a: order[a.pattern.pattern_type],
    )
    below = sorted(
        (a for a in same_type if java_order(a.pattern.name) < java_order(WILDCARD_RESOURCE)),
        key=lambda a: java_order(a.pattern.name),
        reverse=True,
    )
    return at_star + below
