"""Reaching the classes a run missed: one found scenario per missing class.

Hypothesis's 100 examples per property reach every class on most seeds, but
not on all: its example mix varies from seed to seed (one run sees three
hostile scenarios in ten, another one in ten).  So after the properties have
run, the kit asks Hypothesis to *find* a scenario that reaches each
class still missing (``hypothesis.find`` with the class as the condition), and
checks the property that owns the class on it.  The report's domain coverage
is then a fact about what was checked, on every seed, at a bounded cost: a
search draws at most a few hundred scenarios and runs the target once.
"""

from __future__ import annotations

import random

import hypothesis
from hypothesis import HealthCheck, Phase
from hypothesis.errors import NoSuchExample, Unsatisfiable

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.domain.classes import DOMAIN
from kafka_conformance.authorizer.domain.classify import classes_of
from kafka_conformance.authorizer.domain.logs import record_logs
from kafka_conformance.authorizer.domain.strategies import scenarios

__all__ = ["OWNERS", "find_reaching", "owner_of"]

OWNERS = {"records": "record-log", "by-type": "by-type"}
"""The property that checks a class's inputs, by the class's field; ``authorize`` for the rest."""

_SEARCH = hypothesis.settings(max_examples=500, database=None, deadline=None, phases=[Phase.generate],
                              suppress_health_check=list(HealthCheck))


def owner_of(class_name: str) -> str:
    return OWNERS.get(class_name.split(":", 1)[0], "authorize")


def find_reaching(class_name: str, caps: Capabilities, mode: str, seed: int | None) -> Scenario | None:
    """A scenario that reaches ``class_name`` (a failure found on it is made 1-minimal later), or None
    when a bounded search finds none."""
    profile = caps.profile()
    needs = next((c.needs for c in DOMAIN if c.name == class_name), frozenset())
    if "hostile" in needs:
        mode = "hostile"  # the class exists only in hostile scenarios: search among those alone
    strategy = record_logs(caps, mode) if owner_of(class_name) == "record-log" else scenarios(caps, mode)
    rng = random.Random(f"{seed}:{class_name}")
    try:
        return hypothesis.find(strategy, lambda s: class_name in classes_of(s, profile), settings=_SEARCH,
                               random=rng)
    except (NoSuchExample, Unsatisfiable):
        return None
