"""The coverage phase: fixed cases, derived from the spec, asked before any random search.

Random search reaches most of the input domain on most seeds, and a bug that only
one corner of the spec shows is then caught on some seeds and not on others.  So
every property first asks a fixed list of cases (as Hypothesis ``@example`` values:
the explicit phase runs before generation, whatever the seed), built here one family
per step of :mod:`~kafka_conformance.reference.authorizer.decide` and per lifecycle
rule, each case small enough to read as ``kafka-acls --list`` output:

* **operations** (step 6): an ALLOW and a DENY of every operation, asked every operation;
* **names and pattern types** (step 4): LITERAL, the wildcard ``*`` and PREFIXED ACLs
  of every resource type, asked names equal, longer, shorter, in another case and of
  another type, and prefixes nested the ways KAFKA-7702 and KAFKA-14265 mishandled;
* **principals and hosts** (step 6): exact, ``User:*``, another user, another type of
  the same name, every host kind, from the caller's own host and from others;
* **precedence** (step 7): DENY against ALLOW from every side, in both orders;
* **the default** (step 5 and KAFKA-14435): no ACL, ACLs none of which applies, for
  every spelling of ``allow.everyone.if.no.acl.found``;
* **super users** (step 2) in every spelling of ``super.users``;
* **by type**, **listing**, **records** and the **lifecycle**, one family each.

A case holding anything a mode leaves out (hostile input in ``--mode well-formed``),
or that the target's release cannot hold, is dropped by the same rule the report
uses for domain coverage (:func:`~.classes.applicable_classes`), so the phase asks
every class that applies and nothing that does not.  ``tests/unit/test_coverage_phase.py``
holds it to that: for every release, flavour and mode, the phase alone reaches every
applicable class, each with the property that owns it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import BatchStep, ByTypeQuery, LogStep, Query, Scenario, SnapshotStep
from kafka_conformance.authorizer.domain.classes import DOMAIN, applicable_classes
from kafka_conformance.authorizer.domain.classify import classes_of
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.by_resource_type import PROBE_NAME
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["coverage_cases"]

ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
LITERAL, PREFIXED = PatternType.LITERAL, PatternType.PREFIXED
TOPIC, GROUP, CLUSTER = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER
ALL, READ, WRITE, DESCRIBE = AclOperation.ALL, AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE
ALICE, BOB, ANYONE = "User:alice", "User:bob", "User:*"
HOST, OTHER_HOST = "10.0.0.1", "10.0.0.2"
NAME = "foo"
ALLOW_EVERYONE = "allow.everyone.if.no.acl.found"
SUPER_USERS = "super.users"

_OPERATIONS = tuple(op for op in AclOperation if op not in (AclOperation.ANY, AclOperation.UNKNOWN, ALL))
_TYPES = (TOPIC, GROUP, ResourceType.TRANSACTIONAL_ID, ResourceType.DELEGATION_TOKEN, ResourceType.USER)
_ASKED_NAMES = ("foo", "foobar", "fo", "f", "Foo", "fob", "bar")
"""Equal to, longer than, shorter than, in another case than, and beside the ACLs' names."""


# -- building blocks ------------------------------------------------------------------


def _acl(permission: AclPermissionType = ALLOW, principal: str = ALICE, host: str = "*", operation: AclOperation = ALL,
         resource_type: ResourceType = TOPIC, name: str = NAME, pattern: PatternType = LITERAL) -> AclBinding:
    return AclBinding(ResourcePattern(resource_type, name, pattern),
                      AccessControlEntry(principal, host, operation, permission))


def _ask(actions: Iterable[tuple[AclOperation, ResourceType, str]], principal: str = ALICE,
         host: str = HOST, pattern: PatternType = LITERAL) -> Query:
    return Query(RequestContext(parse_principal(principal), host),
                 tuple(Action(op, ResourcePattern(rt, name, pattern)) for op, rt, name in actions))


def _case(acls: Sequence[AclBinding], queries: Sequence[Query], properties: Sequence[tuple[str, str]] = (),
          by_type: Sequence[ByTypeQuery] = (), records: Sequence[LogStep] = ()) -> Scenario:
    return Scenario(properties=tuple(properties), acls=tuple((f"acl-{n}", b) for n, b in enumerate(acls)),
                    records=tuple(records), queries=tuple(queries), by_type=tuple(by_type))


def _read(principal: str = ALICE, host: str = HOST, name: str = NAME) -> Query:
    return _ask([(READ, TOPIC, name), (DESCRIBE, TOPIC, name)], principal, host)


# -- the families of authorize() ---------------------------------------------------------


def _operations(ops: Sequence[AclOperation]) -> list[Scenario]:
    """Step 6, the operation: each ACL operation against every asked one (ALL covers all;
    implication widens an ALLOW only).  A DENY is asked beside an ALLOW ALL, so it shows."""
    asked = _ask([(op, TOPIC, NAME) for op in ops])
    cases = []
    for op in (*ops, ALL):
        cases.append(_case([_acl(ALLOW, operation=op)], [asked]))
        cases.append(_case([_acl(ALLOW), _acl(DENY, operation=op)], [asked]))
    return cases


def _names(types: Sequence[ResourceType], prefixed: bool) -> list[Scenario]:
    """Step 4: which ACLs match a name.  Every resource type with a LITERAL, a wildcard and
    (where held) a PREFIXED ACL, asked that type and every other; on topics every prefix length too."""
    cases = []
    for rt in types:
        patterns = [(LITERAL, NAME), (LITERAL, "*")] + ([(PREFIXED, "fo")] if prefixed else [])
        if rt is TOPIC:
            patterns += [(LITERAL, "fo")]  # a LITERAL ACL on a proper prefix covers nothing longer
            if prefixed:
                patterns += [(PREFIXED, NAME), (PREFIXED, "f"), (PREFIXED, "foob"), (PREFIXED, "*")]
        for pattern, name in patterns:
            asked = [(DESCRIBE, rt, n) for n in _ASKED_NAMES] + [(DESCRIBE, o, NAME) for o in types if o is not rt]
            cases.append(_case([_acl(ALLOW, resource_type=rt, name=name, pattern=pattern)], [_ask(asked)]))
    cluster = [(AclOperation.CLUSTER_ACTION, CLUSTER, "kafka-cluster"), (DESCRIBE, TOPIC, "kafka-cluster"),
               (DESCRIBE, GROUP, "kafka-cluster"), (DESCRIBE, ResourceType.TRANSACTIONAL_ID, "kafka-cluster")]
    cases.append(_case([_acl(ALLOW, resource_type=CLUSTER, name="kafka-cluster")], [_ask(cluster)]))
    cases.append(_case([_acl(ALLOW, resource_type=CLUSTER, name="*")], [_ask(cluster)]))
    if prefixed:
        nested = [_ask([(READ, TOPIC, n) for n in ("foobar", NAME, "fob", "f")])]
        cases += [
            _case([_acl(DENY, name="f", pattern=PREFIXED), _acl(ALLOW, name=NAME, pattern=PREFIXED)], nested),
            _case([_acl(ALLOW, name="f", pattern=PREFIXED), _acl(DENY, name=NAME, pattern=PREFIXED)], nested),
            _case([_acl(DENY, name="fo", pattern=PREFIXED), _acl(ALLOW, name=NAME, pattern=PREFIXED)], nested),
            _case([_acl(ALLOW, name="fo", pattern=PREFIXED), _acl(DENY, name=NAME, pattern=PREFIXED)], nested),
            _case([_acl(ALLOW, name="fo", pattern=PREFIXED), _acl(ALLOW, name=NAME, pattern=PREFIXED,
                                                                  operation=WRITE)], nested),
            # KAFKA-14265: a name sorting between the prefix and the asked name hid the prefix.
            _case([_acl(ALLOW, name="f", pattern=PREFIXED), _acl(ALLOW, BOB, name="fob")], nested),
            _case([_acl(ALLOW, name="f", pattern=PREFIXED), _acl(ALLOW, BOB, name="foa", pattern=PREFIXED)], nested),
            # The same walk for a name beginning with '*': only the second lookup, from '*', finds PREFIXED '*'.
            _case([_acl(ALLOW, name="*", pattern=PREFIXED), _acl(ALLOW, BOB, name="*a")], [_ask([(READ, TOPIC, "*o")])]),
            _case([_acl(ALLOW, name="*", pattern=PREFIXED), _acl(ALLOW, BOB, name="*a"), _acl(ALLOW, BOB, name="(x)")],
                  [_ask([(READ, TOPIC, "*o")])]),
            _case([_acl(DENY, name="fo", pattern=PREFIXED), _acl(ALLOW)], nested),
            _case([_acl(ALLOW, name="fo", pattern=PREFIXED), _acl(DENY)], nested),
        ]
    return cases


def _edge_names(standard: bool, prefixed: bool) -> list[Scenario]:
    """Names Kafka treats as plain strings although they look special (hostile input)."""
    cases = []
    for name, asked in (("*", ["*f", "**"]), ("f*", [NAME, "f*"]), (PROBE_NAME, [PROBE_NAME, NAME]),
                        (NAME, ["ü", "é-x"]), (NAME, ["fo/o", "foo/x"]), ("fo/o", ["fo/o", "fo"]), ("", ["", NAME])):
        if not standard and ("/" in name or name == ""):
            continue
        cases.append(_case([_acl(ALLOW, name=name)], [_ask([(READ, t, n) for n in asked for t in (TOPIC, GROUP)])]))
        if prefixed and name == "":
            cases.append(_case([_acl(ALLOW, name="", pattern=PREFIXED)], [_ask([(READ, TOPIC, n) for n in asked])]))
    return cases


def _unknown_values(standard: bool) -> list[Scenario]:
    """Stored ACLs holding UNKNOWN, the value a release decodes a code it does not know to (only records
    hold one; StandardAuthorizer only): a permission that counts as DENY, an operation nothing asks, a
    pattern type the lookup takes as a prefix."""
    if not standard:
        return []
    unknown_permission = AclPermissionType.UNKNOWN
    read, everyone = [_ask([(READ, TOPIC, NAME)])], ((ALLOW_EVERYONE, "true"),)
    return [
        _case([_acl(ALLOW, operation=READ), _acl(unknown_permission, operation=READ)], read),
        _case([_acl(unknown_permission, operation=READ)], read, everyone),
        _case([_acl(ALLOW, operation=AclOperation.UNKNOWN)], [_read()], everyone),
        _case([_acl(ALLOW, name="fo", pattern=PatternType.UNKNOWN, operation=READ)],
              [_ask([(READ, TOPIC, n)]) for n in (NAME, "fo", "f", "bar")]),
        _case([_acl(DENY, name="f", pattern=PatternType.UNKNOWN, operation=READ), _acl(ALLOW, operation=READ)], read),
        _case([_acl(DENY, resource_type=ResourceType.UNKNOWN, operation=READ), _acl(ALLOW, operation=READ)], read),
    ]


def _walk_order() -> list[Scenario]:
    """Where StandardAuthorizer's walk meets a colonless ACL (it throws) against the first DENY that
    applies (it stops): longer names first, a LITERAL name that only prefixes the asked one skipped,
    a name that prefixes nothing sought past (3.2.0-3.3.0 stop there, KAFKA-14265), LITERAL `*` met
    in the first pass, and within one name pattern type, then operation, then principal."""
    bad = "alice"
    deny, read = _acl(DENY, operation=READ), [_ask([(READ, TOPIC, NAME)])]
    sets = [
        [_acl(ALLOW, bad, name="f", pattern=PREFIXED, operation=READ), deny],
        [_acl(ALLOW, bad, name="f", pattern=PREFIXED, operation=READ), _acl(DENY, name="*", operation=READ)],
        [_acl(ALLOW, bad, name="", pattern=PREFIXED, operation=READ), _acl(DENY, name="*", operation=READ)],
        [_acl(ALLOW, bad, name="", pattern=PREFIXED, operation=READ), _acl(DENY, name="f", pattern=PREFIXED, operation=READ),
         _acl(ALLOW, BOB, name="fn", operation=READ)],
        [_acl(ALLOW, bad, name="", pattern=PREFIXED, operation=READ), _acl(DENY, name="f", pattern=PREFIXED, operation=READ),
         _acl(ALLOW, BOB, name="fo", operation=READ)],
        [_acl(ALLOW, bad, operation=ALL), deny],
        [_acl(ALLOW, bad, operation=READ), _acl(DENY, operation=ALL)],
        [_acl(ALLOW, bad, pattern=PREFIXED, operation=READ), deny],
        [_acl(ALLOW, bad, operation=READ), _acl(DENY, pattern=PREFIXED, operation=READ)],
    ]
    return [_case(acls, read) for acls in sets]


def _principals() -> list[Scenario]:
    """Step 6, the principal: an ACL for each kind of principal, asked by each kind of caller."""
    callers = (ALICE, BOB, "Group:alice", "ServiceAccount:alice")
    cases = []
    for principal in (ALICE, ANYONE, BOB, "Group:alice", "ServiceAccount:alice", "User:Alice", "Group:*", "user:*",
                      "User:", "User: alice", "User:alice ", "User:a:b"):
        asked = [_read(p) for p in callers]
        cases.append(_case([_acl(ALLOW, principal, operation=READ)], asked))
        cases.append(_case([_acl(ALLOW, ANYONE, operation=ALL), _acl(DENY, principal, operation=READ)], asked))
    # The caller's own odd principals, against exact ALLOWs for their look-alikes.
    for caller, held in (("User:ALICE", ALICE), ("User:a:b", "User:a"), ("User:", ALICE)):
        cases.append(_case([_acl(ALLOW, held), _acl(ALLOW, ANYONE, operation=WRITE)], [_read(caller)]))
    # A stored principal without a colon (only records hold one): 3.3.0 and later fail the question
    # (KAFKA-13651), 3.2.x never applies the ACL.
    # Kafka parses each as its walk meets it and stops at a DENY that applies: "User:alice" sorts
    # before "alice", so a DENY for the caller decides before the colonless ALLOW is met.
    cases.append(_case([_acl(ALLOW, "alice", operation=READ)], [_read()]))
    cases.append(_case([_acl(ALLOW, operation=READ), _acl(DENY, "alice", operation=READ)], [_read()]))
    cases.append(_case([_acl(ALLOW, "alice", operation=READ), _acl(DENY, operation=READ)], [_ask([(READ, TOPIC, NAME)])]))
    cases += _walk_order()
    # The session principal User:* (KAFKA-17759: StandardAuthorizer 4.0 onwards throws for it,
    # a super user excepted): a verdict says when a divergence is that bug of Kafka's.
    for acls, props in (([_acl(ALLOW, ANYONE, operation=READ)], ()), ([_acl(ALLOW, operation=READ)], ()),
                        ([], ((ALLOW_EVERYONE, "true"),)), ([_acl(DENY, ALICE)], ((SUPER_USERS, ANYONE),))):
        cases.append(_case(acls, [_read(ANYONE)], props))
    return cases


def _hosts() -> list[Scenario]:
    """Step 6, the host: exact, wildcard and other hosts, and the renderings Kafka compares as strings."""
    cases = []
    askers = (HOST, OTHER_HOST, "10.0.0.12")
    for host in ("*", HOST, OTHER_HOST):
        cases.append(_case([_acl(ALLOW, host=host, operation=READ)], [_read(host=h) for h in askers]))
        cases.append(_case([_acl(ALLOW), _acl(DENY, host=host, operation=READ)], [_read(host=h) for h in askers]))
    for held, asked in (("::1", "0:0:0:0:0:0:0:1"), ("0:0:0:0:0:0:0:1", "::1"), ("", HOST), ("localhost", "127.0.0.1")):
        cases.append(_case([_acl(ALLOW, host=held, operation=READ)], [_read(host=asked), _read(host=held)]))
    cases.append(_case([_acl(ALLOW, operation=READ)], [_read(host="")]))
    return cases


def _precedence() -> list[Scenario]:
    """Step 7: an applying DENY wins, whatever the order; one that does not apply changes nothing."""
    allow = _acl(ALLOW, operation=READ)
    asked = [_read(), _read(BOB), _ask([(WRITE, TOPIC, NAME)])]
    cases = []
    for deny in (_acl(DENY, operation=READ), _acl(DENY, BOB, operation=READ), _acl(DENY, ANYONE, operation=READ),
                 _acl(DENY, name="*", operation=READ), _acl(DENY, host=OTHER_HOST, operation=READ),
                 _acl(DENY, operation=WRITE), _acl(DENY, operation=ALL), _acl(DENY, operation=AclOperation.ALTER)):
        cases.append(_case([allow, deny], asked))
        cases.append(_case([deny, allow], asked))
    cases.append(_case([_acl(ALLOW, operation=WRITE)], asked))
    return cases


_FLAGS = ("true", "false", "TRUE", "True", " true", "false ", "yes", "1", "", "tru")


def _defaults() -> list[Scenario]:
    """Step 5 and KAFKA-14435: no ACL on the resource, or ACLs none of which applies, for
    every spelling of allow.everyone.if.no.acl.found (and without it)."""
    asked = [_ask([(READ, TOPIC, NAME), (WRITE, TOPIC, NAME)])]
    cases = []
    for flag in (None, *_FLAGS):
        props = () if flag is None else ((ALLOW_EVERYONE, flag),)
        for acls in ([], [_acl(ALLOW, BOB, operation=READ)], [_acl(ALLOW, name="bar")], [_acl(DENY, BOB)]):
            cases.append(_case(acls, asked, props))
    return cases


_SUPERS = ("User:alice", "User:bob;User:alice", "User:bob ; User:alice", " User:alice ", "User:Alice", "Group:alice",
           "User:bob;;User:alice", "User:alice;", "alice", ";", "", " ")


def _super_users() -> list[Scenario]:
    """Step 2: a super user is allowed whatever the ACLs say, in every spelling of super.users."""
    asked = [_read(), _read("User:ALICE"), _read(BOB), _ask([(WRITE, TOPIC, NAME)], "Group:alice")]
    return [_case([_acl(DENY, ANYONE, operation=ALL)], asked, ((SUPER_USERS, value),)) for value in _SUPERS]


def _non_literal(prefixed: bool) -> list[Scenario]:
    """Step 1: an action that is not LITERAL is refused, also for a super user (hostile input)."""
    acls = [_acl(ALLOW), *([_acl(ALLOW, name="fo", pattern=PREFIXED)] if prefixed else [])]
    asked = [_ask([(READ, TOPIC, NAME)], pattern=PREFIXED), _ask([(READ, TOPIC, NAME)], BOB, pattern=PREFIXED)]
    return [_case(acls, asked), _case(acls, asked, ((SUPER_USERS, BOB),))]


# -- the other properties' families -------------------------------------------------------------


def _by_type(prefixed: bool) -> list[Scenario]:
    """authorize_by_resource_type: each way an ACL set of one type allows or denies an operation."""
    sets: list[list[AclBinding]] = [
        [], [_acl(ALLOW, operation=READ)], [_acl(ALLOW, operation=READ), _acl(DENY, name="*", operation=READ)],
        [_acl(ALLOW, operation=READ), _acl(DENY, operation=READ)], [_acl(ALLOW, host=OTHER_HOST, operation=READ)],
        [_acl(ALLOW, ANYONE, operation=READ)], [_acl(ALLOW, operation=WRITE)], [_acl(ALLOW, operation=READ),
                                                                                _acl(DENY, BOB, operation=READ)],
        [_acl(ALLOW, name=PROBE_NAME, operation=READ)], [_acl(ALLOW, resource_type=GROUP, operation=READ)],
        # The wildcard ALLOW that decides only after the probe was denied (the interface default's scan),
        # and AclAuthorizer's own walk past a DENY to a wildcard or a literal ALLOW it does not cover.
        [_acl(ALLOW, name="*", operation=READ), _acl(DENY, name=PROBE_NAME, operation=READ)],
        [_acl(ALLOW, name="*", operation=READ), _acl(DENY, operation=READ)],
        [_acl(ALLOW, name="bar", operation=READ), _acl(DENY, operation=READ)],
        # An ACL on a group name that sorts below '*' is no wildcard ACL, whether it allows or denies.
        [_acl(ALLOW, resource_type=GROUP, operation=READ), _acl(DENY, resource_type=GROUP, name="(x)", operation=READ)],
        [_acl(ALLOW, resource_type=GROUP, name="(x)", operation=READ),
         _acl(DENY, resource_type=GROUP, name="(x)", operation=READ)],
        # An ACL of another type, operation or principal first, then one that applies; one for a principal
        # of another type.
        [_acl(ALLOW, resource_type=GROUP, operation=READ), _acl(ALLOW, name="bar", operation=READ)],
        [_acl(ALLOW, operation=WRITE), _acl(ALLOW, name="bar", operation=READ)],
        [_acl(ALLOW, BOB, operation=READ), _acl(ALLOW, name="bar", operation=READ)],
        [_acl(ALLOW, "Group:alice", operation=READ)],
        # An ACL for another host first: the scan passes over it to the one that applies.
        [_acl(ALLOW, name="bar", host=OTHER_HOST, operation=READ), _acl(ALLOW, operation=READ)],
        # A stored principal without a colon (only records hold one): the scan parses it and fails,
        # unless its host is another (the host is looked at first).
        [_acl(ALLOW, operation=READ), _acl(ALLOW, "alice", name="bar", operation=READ)],
        [_acl(ALLOW, operation=READ), _acl(ALLOW, "alice", name="bar", host=OTHER_HOST, operation=READ)],
    ]
    if prefixed:
        sets += [
            [_acl(ALLOW, name="fo", pattern=PREFIXED, operation=READ), _acl(DENY, name="f", pattern=PREFIXED,
                                                                           operation=READ)],
            [_acl(ALLOW, operation=READ), _acl(DENY, name="fo", pattern=PREFIXED, operation=READ)],
            [_acl(ALLOW, name="fo", pattern=PREFIXED, operation=READ), _acl(DENY, operation=READ),
             _acl(ALLOW, name="bar", operation=READ), _acl(DENY, name="b", pattern=PREFIXED, operation=READ)],
            # The empty PREFIXED name covers every name (StandardAuthorizer; hostile: only records hold it);
            # as a DENY it denies the probe, yet the scan after it looks only at non-empty prefixes.
            [_acl(ALLOW, name="", pattern=PREFIXED, operation=READ)],
            [_acl(ALLOW, name="fo", pattern=PREFIXED, operation=READ), _acl(DENY, name="", pattern=PREFIXED,
                                                                           operation=READ)],
            [_acl(ALLOW, operation=READ), _acl(DENY, name="", pattern=PREFIXED, operation=READ)],
            # A PREFIXED DENY exactly as long as the ALLOW's name still covers it.
            [_acl(ALLOW, operation=READ), _acl(DENY, pattern=PREFIXED, operation=READ)],
            # Only a name the ACLs do not spell is allowed ("fb"): the ground truth must invent it.
            [_acl(ALLOW, name="f", pattern=PREFIXED, operation=READ), _acl(DENY, name="f", operation=READ),
             _acl(DENY, name="fa", operation=READ)],
        ]
    asked = [ByTypeQuery(RequestContext(parse_principal(p), HOST), op, rt)
             for p in (ALICE, BOB) for op in (READ, DESCRIBE, WRITE) for rt in (TOPIC, GROUP)]
    cases = []
    for acls in sets:
        for props in ((), ((ALLOW_EVERYONE, "true"),), ((SUPER_USERS, ALICE),)):
            cases.append(_case(acls, [], props, by_type=asked))
    return cases


def _listing(prefixed: bool) -> list[Scenario]:
    """acls(filter) and acl_count(): the filters are built from the first ACLs of each case."""
    held = [_acl(ALLOW, operation=READ), _acl(DENY, host=HOST, operation=READ), _acl(ALLOW, BOB, name="*", operation=WRITE),
            _acl(ALLOW, resource_type=GROUP, operation=READ), _acl(ALLOW, resource_type=CLUSTER, name="kafka-cluster"),
            _acl(ALLOW, name="fo", pattern=PREFIXED, operation=READ) if prefixed else _acl(ALLOW, name="fo")]
    cases = [_case(held[i:] + held[:i], [_read()]) for i in range(len(held))]
    # A stored ACL of resource type UNKNOWN (hostile, StandardAuthorizer only): a filter naming
    # UNKNOWN lists it alone, where one naming ANY lists every type.
    unknown = _acl(DENY, resource_type=ResourceType.UNKNOWN, operation=READ)
    return [*cases, _case([unknown, held[0], held[3]], [_read()])]


def _records(prefixed: bool) -> list[Scenario]:
    """KIP-801 records: every kind a log holds, and the three Kafka refuses, each followed by questions."""
    a, b = _acl(ALLOW, operation=READ), _acl(DENY, operation=READ)
    c = _acl(ALLOW, name="fo", pattern=PREFIXED, operation=WRITE) if prefixed else _acl(ALLOW, name="bar")
    asked = [_ask([(READ, TOPIC, NAME), (WRITE, TOPIC, NAME), (WRITE, TOPIC, "foobar"), (READ, TOPIC, "bar")])]
    logs: list[tuple[list[AclBinding], list[LogStep]]] = [
        ([], [AddAcl("r-1", a), RemoveAcl("r-1"), AddAcl("r-2", a)]),
        ([a], [AddAcl("r-1", b), SnapshotStep((("r-2", c),)), AddAcl("r-3", a)]),
        ([a], [AddAcl("r-1", c), SnapshotStep((("acl-0", a), ("r-1", c))), RemoveAcl("acl-0")]),
        ([], [BatchStep((AddAcl("r-1", a), AddAcl("r-2", b), RemoveAcl("r-1")))]),
        ([], [AddAcl("r-1", b), BatchStep((RemoveAcl("r-1"), AddAcl("r-2", a)))]),
        ([a], [RemoveAcl("r-9"), AddAcl("r-1", c)]),
        ([a], [RemoveAcl("acl-0"), RemoveAcl("acl-0"), AddAcl("r-1", a)]),
        ([a], [AddAcl("acl-0", b), AddAcl("r-1", c)]),
        ([a], [AddAcl("r-1", a), AddAcl("r-2", b)]),
        ([], [AddAcl("r-1", b), RemoveAcl("r-1"), AddAcl("r-2", b), AddAcl("r-3", a)]),
    ]
    return [_case(initial, asked, records=steps) for initial, steps in logs]


def _as_log(case: Scenario) -> Scenario:
    """The same case with its ACLs added by records after an empty initial load."""
    return _case([], case.queries, case.properties, records=[AddAcl(f"r-{n}", b) for n, (_, b) in enumerate(case.acls)])


def _not_ready() -> list[Scenario]:
    """Before the initial load: super users answered, everyone else refused."""
    asked = [_read(), _read(BOB)]
    return [_case([_acl(ALLOW, operation=READ)], asked), _case([_acl(ALLOW, operation=READ)], asked, ((SUPER_USERS, BOB),)),
            _case([], asked, ((ALLOW_EVERYONE, "true"),))]


# -- assembly ------------------------------------------------------------------------------------


def _families(prop: str, caps: Capabilities) -> list[Scenario]:
    profile = caps.profile()
    ops = [op for op in _OPERATIONS if profile.supports(op)]
    types = [t for t in _TYPES if profile.supports(t)]
    if prop == "authorize":
        return [*_operations(ops), *_names(types, caps.prefixed), *_edge_names(profile.is_standard, caps.prefixed),
                *_principals(), *_hosts(), *_precedence(), *_defaults(), *_super_users(), *_non_literal(caps.prefixed),
                *_unknown_values(profile.is_standard)]
    if prop in ("by-type", "by-type-witness"):
        return _by_type(caps.prefixed)
    if prop == "listing":
        return _listing(caps.prefixed)
    if prop == "record-log":
        # Also the decision's own families, their ACLs arriving as records after the load: a
        # bug of the decision then shows here on the same case as in authorize, on every seed.
        return [*_records(caps.prefixed), *map(_as_log, _precedence()), *map(_as_log, _names([TOPIC], caps.prefixed))]
    if prop == "not-ready":
        return _not_ready()
    if prop == "super-users":
        return [*_super_users(), *_principals()]
    return [*_precedence(), *_names([TOPIC], caps.prefixed)]  # records and the metamorphic properties


@functools.lru_cache(maxsize=256)
def coverage_cases(prop: str, caps: Capabilities, mode: str) -> tuple[Scenario, ...]:
    """The coverage phase of property ``prop`` against ``caps`` in ``mode``: fixed, in a fixed order.

    A case is kept when every class it reaches applies here (so a well-formed run asks no
    hostile input, and AclAuthorizer is never handed a name its ZooKeeper paths cannot hold),
    and when it holds no PREFIXED ACL for a target that declares none."""
    profile = caps.profile()
    applicable = {c.name for c in applicable_classes(caps, mode)}
    known = {c.name for c in DOMAIN}
    kept = []
    for case in _families(prop, caps):
        if not caps.prefixed and any(b.pattern.pattern_type is PREFIXED for b in case.bindings):
            continue
        if (classes_of(case, profile) & known) <= applicable:
            kept.append(case)
    return tuple(kept)

