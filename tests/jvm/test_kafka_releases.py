"""Apache Kafka's own authorizers, release by release, judging the reference.

Every version flag of the reference profiles that names a ticket is shown on the
real releases either side of it: the older release answers one way, the newer
the other, and the reference of each release answers as that release does.
The jars come from ``kafka-conformance fetch`` (``tox -e jvm`` fetches them).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from kafka_flags import BY_TYPE, FLAGS, GATE_RELEASES, NOT_RUNNABLE, SLASH, STAR_NAMES, Flag

from kafka_conformance.adapters.jvm.kafka_releases import parse_kafka_target
from kafka_conformance.adapters.jvm.kafka_target import kafka_factory, not_runnable_reason
from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.targets import close_targets
from kafka_conformance.reference import profile_for

ROOT = Path(__file__).resolve().parents[2]


def _real(release: str) -> object:
    reason = not_runnable_reason(parse_kafka_target(release))
    if reason is not None:
        pytest.skip(f"kafka:{release}: {reason}")
    factory, _, _ = kafka_factory(release)
    return factory()


def _reference(release: str) -> object:
    version, flavour = release.split(":")
    return ReferenceTarget(profile_for(version, flavour))


@pytest.fixture(scope="module", autouse=True)
def _stop_jvms() -> object:
    yield
    close_targets()


@pytest.mark.parametrize("flag", FLAGS, ids=[f.id for f in FLAGS])
def test_each_version_flag_is_confirmed_by_the_real_releases_either_side(flag: Flag) -> None:
    answers = {}
    for release in (flag.before, flag.after):
        real = _real(release)
        try:
            answers[release] = (flag.scenario.run(real), flag.scenario.run(_reference(release)))
        finally:
            real.close()  # type: ignore[attr-defined]
    (real_before, ref_before), (real_after, ref_after) = answers[flag.before], answers[flag.after]
    assert real_before != real_after, f"{flag.ticket}: Kafka {flag.before} and {flag.after} answer alike ({real_before})"
    assert (ref_before, ref_after) == (real_before, real_after), (
        f"{flag.ticket} ({flag.flag}): Kafka answers {real_before} on {flag.before} and {real_after} on {flag.after}; "
        f"the reference profiles answer {ref_before} and {ref_after}"
    )


def _answer(release: str, scenario: object) -> str:
    real = _real(release)
    try:
        return scenario.run(real)  # type: ignore[attr-defined,no-any-return]
    except AdapterError as exc:
        return f"adapter-error:{exc}"
    finally:
        real.close()  # type: ignore[attr-defined]


def test_kip_679_authorize_by_resource_type_exists_from_2_8() -> None:
    assert "has no authorizeByResourceType" in _answer("2.7.2:acl", BY_TYPE)
    assert not profile_for("2.7.2", "acl").has_authorize_by_resource_type
    assert _answer("2.8.2:acl", BY_TYPE) == BY_TYPE.run(_reference("2.8.2:acl")) == "ALLOWED"
    assert profile_for("2.8.2", "acl").has_authorize_by_resource_type


def test_kafka_13983_a_slash_in_an_acl_authorizer_name() -> None:
    """Before 3.3.0 the name became a ZooKeeper path (createAcls failed with NoNode); from 3.3.0 it is refused up front."""
    before = _answer("3.2.3:acl", SLASH)
    assert "NoNode" in before, before
    after = _answer("3.3.0:acl", SLASH)
    assert after == "error:invalid-argument", after
    assert profile_for("3.3.0", "acl").rejects_slash_in_names and not profile_for("3.2.3", "acl").rejects_slash_in_names


@pytest.mark.parametrize("release", ["3.3.1:standard", "3.9.1:standard", "4.4.0:standard", "3.9.1:acl"])
def test_literal_star_acls_for_names_starting_with_a_star(release: str) -> None:
    """Found by the release campaign: StandardAuthorizer (every release) skips LITERAL '*' ACLs for a
    name that begins with '*'; AclAuthorizer applies them.  The reference models both."""
    real = _real(release)
    try:
        answers = {name: (s.run(real), s.run(_reference(release))) for name, s in STAR_NAMES.items()}
    finally:
        real.close()  # type: ignore[attr-defined]
    assert all(kafka == ours for kafka, ours in answers.values()), answers
    skipped = answers["deny-on-literal-star-for-*o"][0] == "ALLOWED"
    assert skipped == release.endswith(":standard"), answers


def test_the_flags_not_shown_on_real_releases_say_why() -> None:
    shown = {f.flag for f in FLAGS}
    for name, why in NOT_RUNNABLE.items():
        assert why and name.split("(")[1].rstrip(")") not in shown


def test_the_gate_fetches_every_release_these_tests_need() -> None:
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    line = next(line for line in tox.splitlines() if "kafka-conformance fetch" in line and "commands_pre" in line)
    fetched = {parse_kafka_target(w[len("kafka:"):]).spec for w in line.split() if w.startswith("kafka:")}
    needed = {parse_kafka_target(r).spec for r in GATE_RELEASES}
    assert needed <= fetched, sorted(needed - fetched)
