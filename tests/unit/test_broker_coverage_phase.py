"""The broker suite's coverage phase reaches every input class it can, on every release the
reference models, with and without restarts; its cases are valid, saved and read back alike."""

from __future__ import annotations

import pytest

from kafka_conformance.broker.cases import case_from_json, case_to_json
from kafka_conformance.broker.classes import BROKER_CLASSES, DELETE_CLASSES, RESTART_CLASSES, case_classes, excluded_classes
from kafka_conformance.broker.coverage import coverage_cases
from kafka_conformance.reference.broker.profile import OLDEST_BROKER, broker_profile
from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES


@pytest.mark.parametrize(("restartable", "deletes"), [(True, True), (False, True), (True, False), (False, False)])
@pytest.mark.parametrize("release", [str(v) for v in IDEMPOTENCE_RELEASES if v >= OLDEST_BROKER])
def test_the_phase_reaches_every_class_but_the_excluded(release: str, restartable: bool, deletes: bool) -> None:
    profile = broker_profile(release)
    reached: set[str] = set()
    for case in coverage_cases(profile.window_size, restarts=restartable, deletes=deletes):
        reached |= case_classes(case, profile)
    excluded = excluded_classes(profile, restartable=restartable, deletes=deletes)
    assert {name for name, _ in BROKER_CLASSES} - reached == set(excluded)
    assert not reached & set(excluded)


def test_restart_and_delete_cases_only_for_a_target_that_runs_them() -> None:
    assert any(c.restarts for c in coverage_cases())
    assert not any(c.restarts for c in coverage_cases(restarts=False))
    assert any(c.deletes_records for c in coverage_cases())
    assert not any(c.deletes_records for c in coverage_cases(deletes=False))
    assert set(excluded_classes(broker_profile("4.3.0"), restartable=True, deletes=False)) == DELETE_CLASSES
    profile = broker_profile("4.3.0")
    assert set(excluded_classes(profile, restartable=False)) == RESTART_CLASSES
    assert excluded_classes(profile, restartable=True) == {}
    assert set(excluded_classes(broker_profile("2.4.1"), restartable=True)) == {"after-int-max", "expired-at-restart"}
    assert set(excluded_classes(broker_profile("3.3.2"), restartable=True)) == {"expired-at-restart"}  # seven days (KIP-854)


def test_every_case_round_trips_through_json() -> None:
    for case in coverage_cases():
        assert case_from_json(case_to_json(case)) == case
