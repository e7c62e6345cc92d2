"""One Hypothesis draw per scenario: a seed decides every choice, within the bounds
the strategies ask for (conformance/authorizer/domain/choices.py)."""

from __future__ import annotations

from hypothesis import given, settings

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.domain.choices import Choices
from kafka_conformance.authorizer.domain.logs import draw_record_log, record_logs
from kafka_conformance.authorizer.domain.strategies import MODES, draw_scenario, scenarios


def test_a_seed_decides_the_whole_scenario() -> None:
    for mode in MODES:
        for seed in (0, 1, b"\x00" * 8, b"\xff" * 8):
            assert draw_scenario(Choices(seed), Capabilities(), mode) == draw_scenario(Choices(seed), Capabilities(), mode)
            assert draw_record_log(Choices(seed), Capabilities(), mode) == draw_record_log(Choices(seed), Capabilities(), mode)
    assert len({draw_scenario(Choices(s), Capabilities(), "mixed") for s in range(50)}) == 50


def test_choices_stay_within_their_bounds() -> None:
    c = Choices(7)
    for _ in range(2000):
        assert 2 <= c.between(2, 5) <= 5 and 1 <= c.count(1, 6) <= 6 and 0 <= c.below(3) < 3
        picked = c.subset("abcd", 1, 3)
        assert 1 <= len(picked) <= 3 and len(set(picked)) == len(picked) and set(picked) <= set("abcd")
        assert 1 <= len(c.text("fo", 1, 5)) <= 5
        assert len(set(c.unique(lambda c: c.below(100), 0, 8))) <= 8
    counts = [c.count(0, 4) for _ in range(4000)]
    assert all(counts.count(k) > 200 for k in range(5))  # every count is drawn, the least most often
    assert counts.count(0) == max(counts.count(k) for k in range(5))


def test_the_strategies_are_built_once() -> None:
    caps = Capabilities()
    assert scenarios(caps, "mixed") is scenarios(caps, "mixed")
    assert record_logs(caps, "hostile") is record_logs(caps, "hostile")


@settings(max_examples=30, database=None, deadline=None)
@given(scenarios(Capabilities(), "mixed"), record_logs(Capabilities(), "mixed"))
def test_the_strategies_draw_scenarios(scenario: Scenario, log: Scenario) -> None:
    assert scenario.queries and log.queries
