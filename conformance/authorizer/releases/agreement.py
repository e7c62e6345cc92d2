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

import enum
import functools
from collections.abc import Iterator

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.properties import Property
from kafka_conformance.authorizer.report import Agreement, Divergence, KafkaOwnBug
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.reference.authorizer.profiles import Flavour, KafkaBugs, Profile, profile_for
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES

__all__ = ["agreement_of", "kafka_bug_of", "modelled_profiles"]


def modelled_profiles() -> Iterator[Profile]:
    """Every release and flavour the reference models, oldest first, StandardAuthorizer after AclAuthorizer."""
    for flavour in (Flavour.ACL, Flavour.STANDARD):
        for version in APACHE_KAFKA_RELEASES:
            try:
                yield profile_for(version, flavour)
            except AclValueError:
                continue  # the flavour did not ship in that release


def agreement_of(prop: Property, scenario: Scenario, caps: Capabilities, d: Divergence) -> Agreement:
    """Ask ``scenario`` of the reference of every modelled release, judged as ``caps`` judges the
    implementation, and sort the releases by whether they fail it as the implementation did.  A
    release that cannot be asked the case (a method it lacks) or fails it otherwise is in neither."""
    alike, expected = [], []
    for profile in modelled_profiles():
        answer = _answers(prop, scenario, caps, profile, d)
        if answer is _Answer.ALIKE:
            alike.append(str(profile))
        elif answer is _Answer.EXPECTED:
            expected.append(str(profile))
    return Agreement(tuple(alike), tuple(expected))


def kafka_bug_of(prop: Property, scenario: Scenario, caps: Capabilities, d: Divergence) -> KafkaOwnBug | None:
    """The bug of Kafka's (:data:`KAFKA_BUGS`) whose toggling alone makes the claimed release answer
    ``scenario`` as the implementation did, judged as ``caps`` judges it; None when there is none.
    Held to the release as shipped, each of its bugs is fixed in turn (the implementation answers as
    documented); held to the documentation, each is put back (it answers as the release does)."""
    profile = caps.profile()
    for bug in profile.bugs():
        toggled = profile_for(profile.version, profile.flavour, profile.fixed ^ {bug.id})
        if _answers(prop, scenario, caps, toggled, d) is _Answer.ALIKE:
            follows = KafkaBugs.DOCUMENTED if bug.id in toggled.fixed else KafkaBugs.AS_RELEASED
            return KafkaOwnBug(f"{profile.version} ({profile.flavour.value})", bug.id, bug.what, follows)
    return None


class _Answer(enum.Enum):
    ALIKE = "alike"
    EXPECTED = "expected"
    OTHERWISE = "otherwise"


def _answers(prop: Property, scenario: Scenario, caps: Capabilities, profile: Profile, found: Divergence) -> _Answer:
    """How the reference of ``profile`` answers the case, judged as ``caps`` judges the
    implementation: as the implementation did (the same question, anomaly and actual answer), as
    expected, or otherwise (another failure, or a method the release lacks)."""
    try:
        prop.check(CheckContext(functools.partial(ReferenceTarget, profile), caps), scenario)
    except CaseFailed as exc:
        d = exc.divergence
        alike = (d.question, d.anomaly, d.actual) == (found.question, found.anomaly, found.actual)
        return _Answer.ALIKE if alike else _Answer.OTHERWISE
    except TargetCrashed:
        return _Answer.OTHERWISE
    return _Answer.EXPECTED
