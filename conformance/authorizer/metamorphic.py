"""Metamorphic properties: relations between the target's own answers, with no
reference involved (adding a DENY never grants, and so on)."""


from __future__ import annotations

import attrs

from kafka_conformance.adapters.case import Authorize
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.driver import CaseFailed, set_up_calls
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.reference.acl.values import (
    AclPermissionType,
    PatternType,
)
from kafka_conformance.reference.authorizer.decision import (
    AuthorizationResult,
)

__all__ = [
    "check_allow_monotonic",
    "check_deny_monotonic",
    "check_order_independence",
    "check_super_users",
]


from kafka_conformance.authorizer.support import (
    CheckContext,
    answers_of,
    questions_of,
)


def _monotonic(ctx: CheckContext, scenario: Scenario, permission: AclPermissionType) -> None:
    for index, (_, acl) in enumerate(scenario.acls):
        if acl.entry.permission_type is not permission:
            continue
        without = scenario.acls[:index] + scenario.acls[index + 1:]
        before, after = answers_of(ctx, scenario, without), answers_of(ctx, scenario, scenario.acls)
        if before is None or after is None:
            return
        for question, b, a in zip(questions_of(scenario), before, after, strict=False):
            if permission is AclPermissionType.DENY and b.result is AuthorizationResult.DENIED \
                    and a.result is AuthorizationResult.ALLOWED:
                raise CaseFailed(Divergence("deny-added-granted", question, "DENIED", "ALLOWED",
                                            f"adding ACL {acl} turned DENIED into ALLOWED"))
            if permission is AclPermissionType.ALLOW and b.result is AuthorizationResult.ALLOWED \
                    and a.result is AuthorizationResult.DENIED:
                raise CaseFailed(Divergence("allow-added-revoked", question, "ALLOWED", "DENIED",
                                            f"adding ACL {acl} turned ALLOWED into DENIED"))
        return


def check_deny_monotonic(ctx: CheckContext, scenario: Scenario) -> None:
    """Adding a DENY ACL never turns a DENIED answer into ALLOWED."""
    _monotonic(ctx, scenario, AclPermissionType.DENY)


def check_allow_monotonic(ctx: CheckContext, scenario: Scenario) -> None:
    """Adding an ALLOW ACL never turns ALLOWED into DENIED — when allow.everyone is
    off (with it on, the first ACL on a resource rightly ends the default)."""
    ref = ctx.reference(scenario)
    if ref is None or ref.config.allow_everyone_if_no_acl_found:
        return
    _monotonic(ctx, scenario, AclPermissionType.ALLOW)


def check_order_independence(ctx: CheckContext, scenario: Scenario) -> None:
    """The answers do not depend on the order ACLs appear in the snapshot."""
    if len(scenario.acls) < 2:
        return
    forward = answers_of(ctx, scenario, scenario.acls)
    backward = answers_of(ctx, scenario, scenario.acls[::-1])
    if forward is None or backward is None:
        return
    for question, f, b in zip(questions_of(scenario), forward, backward, strict=False):
        if f != b:
            raise CaseFailed(Divergence("order-dependent", question, str(f), str(b),
                                        "the same ACLs loaded in reverse order gave a different answer"))


def check_super_users(ctx: CheckContext, scenario: Scenario) -> None:
    """Metamorphic: make every asking principal a super user; then every literal
    action is ALLOWED whatever the ACLs say, even before the initial load."""
    # Kafka trims each super.users entry, so a principal with outer spaces cannot be one.
    principals = sorted({str(q.context.principal) for q in scenario.queries} - {""})
    principals = [p for p in principals if p == p.strip() and ";" not in p]
    config = dict(scenario.properties)
    config["super.users"] = ";".join(principals)
    promoted = attrs.evolve(scenario, properties=tuple(config.items()))
    asked = [(query, tuple(a for a in query.actions if a.resource.pattern_type is PatternType.LITERAL))
             for query in promoted.queries if str(query.context.principal) in principals]
    asked = [(query, literal) for query, literal in asked if literal]
    for complete in (False, True):
        calls = set_up_calls(promoted.properties, promoted.acls, complete=complete)
        calls += [Authorize(query.context, literal) for query, literal in asked]
        with driver.run(ctx.make_target, calls) as replies:
            if not replies.set_up(complete=complete):
                return
            for query, literal in asked:
                for action, outcome in zip(literal, replies.authorize(), strict=True):
                    if outcome.result is not AuthorizationResult.ALLOWED:
                        raise CaseFailed(Divergence(
                            "super-user-denied", f"authorize({query.context}, [{action}])", "ALLOWED", str(outcome),
                            f"{query.context.principal} is in super.users={config['super.users']!r}",
                            "" if complete else "before complete_initial_load()"))
