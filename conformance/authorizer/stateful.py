"""A Hypothesis ``RuleBasedStateMachine`` over the KIP-801 ACL lifecycle.

The ``record-log`` property of :func:`~kafka_conformance.check_authorizer`
replays generated logs as plain values (so they can be saved and replayed);
this machine explores the same space step by step for pytest users who want
Hypothesis's stateful engine and its "failure printed as a program" output::

    from kafka_conformance.authorizer.stateful import authorizer_state_machine

    TestMyAuthorizerStateful = authorizer_state_machine("python:my_authorizer:factory").TestCase

Rules: add an ACL under a fresh id, remove a present id, load a snapshot, and
ask a question; the target must answer as the reference after every rule,
before and after the initial load, and ``acl_count`` must agree throughout.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.anomalies import classify
from kafka_conformance.authorizer.cases import Query
from kafka_conformance.authorizer.domain.strategies import acl_bindings, for_release, pools, queries
from kafka_conformance.authorizer.driver import CaseFailed
from kafka_conformance.authorizer.report import Divergence
from kafka_conformance.authorizer.targets import Target, resolve_target
from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["authorizer_state_machine"]


def authorizer_state_machine(target: str | Target, *, mode: str = "well-formed") -> type[RuleBasedStateMachine]:
    resolved = target if isinstance(target, Target) else resolve_target(target)
    caps = resolved.capabilities

    class AuthorizerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.next_id = 0
            self.present: dict[str, AclBinding] = {}
            self.ref = ReferenceAuthorizer(caps.profile(), by_type_variant=caps.by_type_variant)
            self.target = resolved.make()
            self.pool: Any = None

        @initialize(pool=pools(mode))
        def start(self, pool: Any) -> None:
            self.pool = for_release(pool, caps)
            self.target.configure({})

        @rule(data=st.data())
        def add(self, data: st.DataObject) -> None:
            binding = data.draw(acl_bindings(self.pool, caps))
            if binding in self.present.values():
                return
            self.next_id += 1
            record = AddAcl(f"r-{self.next_id}", binding)
            self.present[record.id] = binding
            self.ref.apply(record)
            self.target.apply(record)

        @precondition(lambda self: bool(self.present))
        @rule(data=st.data())
        def remove(self, data: st.DataObject) -> None:
            victim = data.draw(st.sampled_from(sorted(self.present)))
            del self.present[victim]
            self.ref.apply(RemoveAcl(victim))
            self.target.apply(RemoveAcl(victim))

        @rule()
        def load_snapshot(self) -> None:
            self.ref.load_snapshot(dict(self.present))
            self.target.load_snapshot(dict(self.present))

        @precondition(lambda self: not self.ref.ready)
        @rule()
        def complete_initial_load(self) -> None:
            self.ref.complete_initial_load()
            self.target.complete_initial_load()

        @rule(data=st.data())
        def ask(self, data: st.DataObject) -> None:
            query: Query = data.draw(queries(self.pool, caps, list(self.present.values())))
            expected = self.ref.authorize(query.context, query.actions)
            actual = driver.authorize(self.target, query.context, query.actions)
            for action, exp, act in zip(query.actions, expected, actual, strict=True):
                if exp.result is not act.result or (exp.error or None) != (act.error or None):
                    anomaly = classify(exp, act.result, action, context=query.context, acls=self.ref.acls(),
                                       allow_everyone=self.ref.config.allow_everyone_if_no_acl_found,
                                       profile=self.ref.profile)
                    raise CaseFailed(Divergence(anomaly, f"authorize({query.context}, [{action}])",
                                                str(driver.Outcome(exp.result, exp.error)), str(act), exp.explain()))

        @invariant()
        def count_agrees(self) -> None:
            if caps.acl_count and self.target.acl_count() != self.ref.acl_count():
                raise CaseFailed(Divergence("acl-count-wrong", "acl_count()", str(self.ref.acl_count()),
                                            str(self.target.acl_count()), "the number of ACL ids held"))

        def teardown(self) -> None:
            self.target.close()

    AuthorizerMachine.__name__ = f"AuthorizerMachine[{resolved.spec}]"
    return AuthorizerMachine
