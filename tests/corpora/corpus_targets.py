"""Targets for the corpora and Spark tests, built on the reference adapter.

``groups_allowed``: every GROUP action is ALLOWED (a plain divergence);
``crashes_on_cluster``: raises on any CLUSTER action (adapter errors);
``without_listing``: declares no listing (other capabilities than the reference);
``dies_once``: when armed (:func:`arm_die_once`), the process that has created
it ``after`` times kills itself with SIGKILL, once per marker file, the way a
Python worker dies under Spark.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.reference import AuthorizationResult, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.profiles import profile_for

PROFILE = profile_for("4.3.0", "standard")
ARM_FILE = Path(tempfile.gettempdir()) / f"kafka-conformance-die-once-{os.getuid()}.json"


class GroupsAllowed(ReferenceTarget):
    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        answers = super().authorize(context, actions)
        return [AuthorizationResult.ALLOWED if a.resource.resource_type is ResourceType.GROUP else r
                for a, r in zip(actions, answers, strict=True)]


def groups_allowed() -> ReferenceTarget:
    return GroupsAllowed(PROFILE)


class CrashesOnCluster(ReferenceTarget):
    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        if any(a.resource.resource_type is ResourceType.CLUSTER for a in actions):
            raise RuntimeError("cluster actions are not supported")
        return super().authorize(context, actions)


def crashes_on_cluster() -> ReferenceTarget:
    return CrashesOnCluster(PROFILE)


def arm_die_once(marker: Path, after: int) -> None:
    ARM_FILE.write_text(json.dumps({"marker": str(marker), "after": after}), encoding="utf-8")


def disarm_die_once() -> None:
    ARM_FILE.unlink(missing_ok=True)


_created = [0]


def dies_once() -> ReferenceTarget:
    _created[0] += 1
    if ARM_FILE.exists():
        arm = json.loads(ARM_FILE.read_text(encoding="utf-8"))
        marker = Path(arm["marker"])
        if _created[0] >= arm["after"] and not marker.exists():
            marker.write_text(str(os.getpid()), encoding="utf-8")
            os.kill(os.getpid(), signal.SIGKILL)
    return ReferenceTarget(PROFILE)


class WithoutListing(ReferenceTarget):
    def capabilities(self) -> Capabilities:
        return attrs.evolve(super().capabilities(), listing=False)


def without_listing() -> ReferenceTarget:
    return WithoutListing(PROFILE)
