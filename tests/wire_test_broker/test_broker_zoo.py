"""The broker suite is judged by what it catches: every faulty log of the broker zoo
(``broker_zoo.py``) behind the Python test broker must be found by ``check_broker`` with its
default settings and no probe table, on every seed; the conforming independent log must pass;
and every run must reach every input class (``conformance/broker/classes.py``).

The gate runs seed 0; ``tox -e broker-zoo`` runs seeds 0 to 4 (``KC_BROKER_ZOO_SEEDS``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from broker_zoo import ZOO, IndependentLog

import kafka_conformance.adapters.brokers.testbroker as test_broker
from kafka_conformance.broker.check import check_broker
from kafka_conformance.broker.classes import BROKER_CLASSES
from kafka_conformance.broker.report import render_broker_text
from kafka_conformance.options import Options
from kafka_conformance.reference.broker.partition_log import PartitionLog

SEEDS = [int(s) for s in os.environ.get("KC_BROKER_ZOO_SEEDS", "0").split(",")]
RELEASE = "4.3.0"


@pytest.fixture
def behind_the_wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Put a log class behind the test broker for one test; the suite's expectations stay the reference's."""

    def install(log_class: type[PartitionLog]) -> None:
        class Serving(test_broker.TestCluster):  # type: ignore[misc,name-defined]
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, log_class=log_class, **kwargs)

        monkeypatch.setattr(test_broker, "TestCluster", Serving)

    yield install


@pytest.mark.parametrize("seed", SEEDS)
def test_the_independent_log_conforms_and_every_class_is_reached(behind_the_wire: object, seed: int) -> None:
    behind_the_wire(IndependentLog)  # type: ignore[operator]
    report = check_broker(f"test-broker:{RELEASE}", Options(kafka_version=RELEASE, seed=seed), table=False)
    assert report.exit_code == 0, render_broker_text(report)
    assert report.missed_classes == (), render_broker_text(report)
    assert report.excluded_classes == ()  # the test broker restarts in place
    assert set(report.classes) == {name for name, _ in BROKER_CLASSES}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(ZOO))
def test_every_faulty_log_is_caught_without_the_probe_table(behind_the_wire: object, name: str, seed: int) -> None:
    behind_the_wire(ZOO[name])  # type: ignore[operator]
    report = check_broker(f"test-broker:{RELEASE}", Options(kafka_version=RELEASE, seed=seed), table=False, max_rounds=1)
    assert report.exit_code == 1, f"{name} escaped on seed {seed}:\n{render_broker_text(report)}"
    assert report.findings and not report.errors


@pytest.mark.parametrize("name", sorted(ZOO))
def test_the_coverage_phase_alone_catches_every_faulty_log(behind_the_wire: object, name: str) -> None:
    """One random case beside the fixed ones: what catches the bug is the phase, on any seed."""
    behind_the_wire(ZOO[name])  # type: ignore[operator]
    report = check_broker(f"test-broker:{RELEASE}", Options(kafka_version=RELEASE, seed=12345, max_examples=1), table=False, max_rounds=1)
    assert report.exit_code == 1, f"{name} escaped the coverage phase:\n{render_broker_text(report)}"


@pytest.mark.parametrize(("name", "anomaly"), [
    ("window-kept-across-restart", "false-duplicate"),
    ("state-lost-on-restart", "out-of-order-accepted"),  # the forgotten first batch, written again
])
def test_restart_bugs_are_named_by_what_the_client_sees(behind_the_wire: object, name: str, anomaly: str) -> None:
    behind_the_wire(ZOO[name])  # type: ignore[operator]
    report = check_broker(f"test-broker:{RELEASE}", Options(kafka_version=RELEASE, seed=0, max_examples=1), table=True, max_rounds=1)
    text = render_broker_text(report)
    assert report.findings[0].anomaly == anomaly, text
    assert report.findings[0].case.restarts, text
    assert "restart" in report.findings[0].divergence.request, text
    rows = {p.name: p for p in report.probes}
    assert rows["restart-clean-window"].status == rows["restart-crash-window"].status == "diverges", text
