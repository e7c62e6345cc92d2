"""The coverage phase (issue 36): fixed cases derived from the spec, asked before any random
search, reach every input class that applies, on every release, flavour and mode, with the
property that owns it; they hold nothing the mode leaves out; and a bug only one corner of the
spec shows is caught whatever the seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.domain.classes import DOMAIN, applicable_classes, owner_of
from kafka_conformance.authorizer.domain.classify import classes_of
from kafka_conformance.authorizer.domain.coverage import coverage_cases
from kafka_conformance.authorizer.domain.logs import record_logs
from kafka_conformance.authorizer.domain.pool import MODES
from kafka_conformance.authorizer.domain.strategies import scenarios
from kafka_conformance.authorizer.properties import PROPERTIES
from kafka_conformance.authorizer.report import Status
from kafka_conformance.options import Options
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES, KafkaVersion

PROFILES = [profile_for(v, f) for v in APACHE_KAFKA_RELEASES for f in Flavour
            if (f is Flavour.ACL and v < KafkaVersion(4, 0, 0)) or (f is Flavour.STANDARD and v >= KafkaVersion(3, 2, 0))]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("profile", PROFILES, ids=str)
def test_the_phase_alone_reaches_every_class_that_applies(profile: object, mode: str) -> None:
    caps = ReferenceTarget(profile).capabilities()  # type: ignore[arg-type]
    reached: set[str] = set()
    for prop in PROPERTIES:
        if prop.needs(caps) is None:
            for case in coverage_cases(prop.name, caps, mode):
                reached |= {c for c in classes_of(case, caps.profile()) if owner_of(c) == prop.name}
    assert sorted({c.name for c in applicable_classes(caps, mode)} - reached) == []


@pytest.mark.parametrize("profile", [profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD),
                                     profile_for(KafkaVersion(3, 9, 1), Flavour.ACL)], ids=str)
def test_a_well_formed_phase_holds_no_hostile_input(profile: object) -> None:
    caps = ReferenceTarget(profile).capabilities()  # type: ignore[arg-type]
    hostile = {c.name for c in DOMAIN if "hostile" in c.needs}
    for prop in PROPERTIES:
        for case in coverage_cases(prop.name, caps, "well-formed"):
            assert not classes_of(case, caps.profile()) & hostile, case


@pytest.mark.parametrize("generator", [scenarios, record_logs], ids=["scenarios", "record_logs"])
def test_well_formed_random_cases_hold_no_hostile_input_either(generator: object) -> None:
    caps = ReferenceTarget(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD)).capabilities()
    hostile = {c.name for c in DOMAIN if "hostile" in c.needs}
    seen: set[str] = set()

    @settings(max_examples=300, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(generator(caps, "well-formed"))  # type: ignore[operator]
    def draw(case: Scenario) -> None:
        seen.update(classes_of(case, caps.profile()))

    draw()
    assert seen & hostile == set()
    assert len(seen) > 30  # it did draw varied cases


_DIGEST = """
import hashlib
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.domain.coverage import coverage_cases
from kafka_conformance.authorizer.properties import PROPERTIES
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.releases import KafkaVersion
caps = ReferenceTarget(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD)).capabilities()
cases = [c for p in PROPERTIES for c in coverage_cases(p.name, caps, "mixed")]
print(len(cases), hashlib.sha256(repr(cases).encode()).hexdigest())
"""


def test_the_phase_is_the_same_list_in_every_process() -> None:
    """Same cases, same order, whatever the hash seed: nothing in it may come from a set's order."""
    runs = {subprocess.run([sys.executable, "-c", _DIGEST], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(runs) == 1 and int(runs.pop().split()[0]) > 300


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python_authorizer" / "my_authorizer.py"
RIGHT = 'name[: len(rname)] == rname'
BUG = 'name[: len(rname)].lower() == rname.lower()'


@pytest.fixture
def prefixes_ignore_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bug of issue 36 in a copy of the example authorizer: PREFIXED ACLs compared without
    case, one line, which random search alone caught on 13 seeds of 20 and in no well-formed run."""
    source = EXAMPLE.read_text(encoding="utf-8")
    assert source.count(RIGHT) == 1
    (tmp_path / "prefix_bug_authorizer.py").write_text(source.replace(RIGHT, BUG), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "python:prefix_bug_authorizer:factory"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bug_one_corner_shows_is_caught_on_every_seed_and_mode(prefixes_ignore_case: str, seed: int,
                                                                 mode: str) -> None:
    report = check_authorizer(prefixes_ignore_case, Options(seed=seed, max_examples=1), properties=["authorize"], mode=mode)
    assert report.results[0].status is Status.FAILED
    assert "PREFIXED" in str(report.results[0].counterexample.scenario.acls)  # type: ignore[union-attr]


def test_the_same_bug_is_the_same_finding_on_every_seed(prefixes_ignore_case: str, tmp_path: Path) -> None:
    """Found by the same fixed case first, a bug is reported the same way whatever the seed:
    the same properties, the same anomaly, the same minimal case (what a baseline compares)."""
    findings = set()
    for seed in (1, 2, 3, 4, 5):
        report = check_authorizer(prefixes_ignore_case, Options(seed=seed, max_examples=20, failures_dir=tmp_path / str(seed)),
                                  properties=["authorize", "records", "record-log"])
        findings.add(tuple((r.name, r.counterexample.anomaly, r.counterexample.scenario)  # type: ignore[union-attr]
                           for r in report.results))
    assert len(findings) == 1
