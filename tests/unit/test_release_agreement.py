"""Which Kafka releases answer a finding's case as the implementation did (issue 35): asked of the
reference of every modelled release, judged as the claimed release judges the implementation."""

from __future__ import annotations

import attrs
import pytest

from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.releases.agreement import modelled_profiles
from kafka_conformance.authorizer.report import Agreement, Status
from kafka_conformance.authorizer.targets import Target
from kafka_conformance.options import Options
from kafka_conformance.reference.authorizer.profiles import profile_for
from kafka_conformance.report.columns.authorizer import authorizer_column


def _posing(real: str, claimed: str) -> Target:
    """Kafka of one release and flavour, claiming to be another: its every divergence is a case
    where the two releases differ."""
    real_version, real_flavour = real.split("@")[1], real.split("@")[0]
    claimed_version, claimed_flavour = claimed.split("@")[1], claimed.split("@")[0]
    profile = profile_for(real_version, real_flavour)
    caps = ReferenceTarget(profile_for(claimed_version, claimed_flavour)).capabilities()
    return Target(f"posing-{real}", lambda: ReferenceTarget(profile), attrs.evolve(caps, acl_count=False))


@pytest.mark.parametrize(("real", "claimed"), [("acl@3.9.1", "standard@4.3.0"), ("acl@2.0.0", "acl@3.9.1"),
                                                ("standard@3.3.1", "standard@3.4.0"), ("acl@2.0.0", "standard@4.3.0")])
def test_the_release_a_target_really_is_answers_alike_and_the_one_it_claims_as_expected(real: str, claimed: str) -> None:
    report = check_authorizer(_posing(real, claimed), Options(seed=1, max_examples=20))
    failed = [r for r in report.results if r.status is Status.FAILED]
    assert failed, f"{real} posing as {claimed} diverges somewhere"
    for result in failed:
        assert result.counterexample is not None
        agreement = result.counterexample.agreement
        assert agreement is not None
        assert real in agreement.alike, (result.name, agreement)
        assert claimed in agreement.expected and claimed not in agreement.alike, (result.name, agreement)
        assert not set(agreement.alike) & set(agreement.expected)


def test_a_finding_on_the_report_page_says_which_releases_agree() -> None:
    report = check_authorizer(_posing("acl@3.9.1", "standard@4.3.0"), Options(seed=1, max_examples=20))
    column = authorizer_column(report)
    said = [d.releases for cell in column.cells for d in cell.divergences]
    assert said and all(s.startswith("Kafka releases answering as this implementation did: ") for s in said)
    assert all("acl " in s.split(";")[0] and "standard 4.3.0" not in s.split(";")[0] for s in said)


def test_releases_read_as_runs_per_flavour() -> None:
    acl = [str(p) for p in modelled_profiles() if p.flavour.value == "acl"]
    standard = [str(p) for p in modelled_profiles() if p.flavour.value == "standard"]
    assert acl[0] == "acl@2.0.0" and standard[0] == "standard@3.2.0"
    line = Agreement(tuple(acl), tuple(standard)).describe()
    assert line == f"Kafka releases answering as this implementation did: acl 2.0.0-{acl[-1][4:]}; as expected: " \
                   f"standard 3.2.0-{standard[-1][9:]}"
    gap = Agreement(("acl@2.0.0", "acl@2.0.1", "acl@2.2.0", "standard@3.2.0"), ()).describe()
    assert gap == ("Kafka releases answering as this implementation did: acl 2.0.0-2.0.1, acl 2.2.0, standard 3.2.0; "
                   "as expected: none")
