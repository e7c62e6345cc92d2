"""The broker half of the mutation run: the test broker served from a copy of the kit, judged by
the broker suite's fixed cases (a mutant's judge, without Cosmic Ray)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.process import port_is_listening
from kafka_conformance.reference.broker.profile import BrokerProfile, broker_profile
from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES
from kafka_conformance.selftest.mutation import workspace
from kafka_conformance.selftest.mutation_broker import broker_releases, judge_broker, served_broker

pytest.importorskip("kafka")  # the broker suite builds its requests with kafka-python


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return workspace(tmp_path_factory.mktemp("mutation"))


def test_every_answer_of_the_broker_profile_is_judged() -> None:
    """Why one release per class is enough: each answer of the profile takes, among the judged
    releases, every value it takes among all modelled broker releases."""
    chosen = [broker_profile(v) for v in broker_releases()]
    every = [broker_profile(v) for v in IDEMPOTENCE_RELEASES if v >= broker_profile("1.0.0").version]
    for name in (n for n, v in vars(BrokerProfile).items() if isinstance(v, property)):
        assert {getattr(p, name) for p in chosen} == {getattr(p, name) for p in every}, name


def test_the_unmutated_test_broker_served_conforms_under_every_judged_release(copy: Path) -> None:
    assert judge_broker(copy, broker_releases()) == ""


def test_a_changed_rule_is_caught_and_the_served_broker_is_stopped(copy: Path, tmp_path: Path) -> None:
    mutated = workspace(tmp_path)
    profile = mutated / "kafka_conformance" / "reference" / "broker" / "profile.py"
    text = profile.read_text(encoding="utf-8")
    assert text.count("        return 5\n") == 1
    profile.write_text(text.replace("        return 5\n", "        return 4\n"), encoding="utf-8")  # a four-batch window
    assert "broker@4.4.0" in judge_broker(mutated, ["4.4.0"])
    with served_broker(copy, "4.4.0") as handle:
        assert port_is_listening(handle.port)
        handle.restart(False)  # a crash and a return, over the pipe
        assert handle.checkpoint() == 0
    assert not port_is_listening(handle.port)
