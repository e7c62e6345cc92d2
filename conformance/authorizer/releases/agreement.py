"""Which Kafka releases answer a minimal case as the implementation did, and which as it should have.

A divergence says the implementation answers otherwise than Kafka of the release it claims.
That alone does not say whether its answer is an invention or what another release of
Kafka does: an authorizer written against 2.x semantics, or one that copied a bug Kafka
has since fixed, answers as some real release does.  So the minimal case is asked again
of the reference of every release and flavour the kit models, judged as the claimed
release judges the implementation (the same property, the same checks): a release that
fails it the same way (the same anomaly, the same actual answer) answers as the
implementation did; one that passes answers as expected.  The reference is what real Kafka
was checked against release by release (``docs/kafka-versions.md``), so this is what
those releases answer, not a guess.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.properties import Property
from kafka_conformance.authorizer.report import Agreement, Divergence
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.reference.authorizer.profiles import Flavour, Profile, profile_for
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES

__all__ = ["agreement_of", "modelled_profiles"]


def modelled_profiles() -> Iterator[Profile]:
    """Every release and flavour the reference models, oldest first, StandardAuthorizer after AclAuthorizer."""
    for flavour in (Flavour.ACL, Flavour.STANDARD):
        for version in APACHE_KAFKA_RELEASES:
            try:
                yield profile_for(version, flavour)
            except AclValueError:
                continue  # the flavour did not ship in that release


def agreement_of(prop: Property, scenario: Scenario, caps: Capabilities, anomaly: str, actual: str) -> Agreement:
    """Ask ``scenario`` of the reference of every modelled release, judged as ``caps`` judges the
    implementation, and sort the releases by whether they fail it as the implementation did.  A
    release that cannot be asked the case (a method it lacks) or fails it otherwise is in neither."""
    alike, expected = [], []
    for profile in modelled_profiles():
        try:
            prop.check(CheckContext(functools.partial(ReferenceTarget, profile), caps), scenario)
        except CaseFailed as exc:
            d = exc.divergence
            if isinstance(d, Divergence) and (d.anomaly, d.actual) == (anomaly, actual):
                alike.append(str(profile))
        except TargetCrashed:
            continue
        else:
            expected.append(str(profile))
    return Agreement(tuple(alike), tuple(expected))
