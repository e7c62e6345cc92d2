"""corpora/regressions: every kept counterexample replays, passes against the
reference, and still catches the bug it was found against."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.saved import load_case
from kafka_conformance.authorizer.targets import Target, resolve_target
from kafka_conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "corpora" / "regressions").glob("*.json"))


def test_the_regressions_directory_holds_cases() -> None:
    assert CASES


def test_replay_accepts_the_whole_directory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", *map(str, CASES)]) == 0
    assert capsys.readouterr().out.count("FIXED") == len(CASES)


_ZOO_NAMES = {
    # The cases were found against the first zoo (tests/quality, 0.2); the same bugs in today's zoo:
    "kafka-14265-shorter-prefixes": "kafka-14265-longest-prefix-only",
    "kafka-14435-allow-everyone": "kafka-14435-default-when-none-applies",
    "kafka-14733-non-literal-accepted": "kafka-14733-non-literal-answered",
    "kafka-7702-single-char-prefix": "kafka-7702-one-char-prefix",
}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_case_still_catches_the_mutant_it_was_found_against(path: Path) -> None:
    import json

    found = json.loads(path.read_text())["found"]
    mutant = re.search(r"mutant `([^`]+)`", found)
    assert mutant is not None, f"{path.name}: 'found' names no mutant"
    from kafka_conformance.selftest.zoo import ZOO

    factory = ZOO[_ZOO_NAMES.get(mutant.group(1), mutant.group(1))].make
    case = load_case(path)
    reference = resolve_target(case.target, kafka_version=case.kafka_version, flavour=case.flavour)
    target = Target(f"mutant:{mutant.group(1)}", factory, reference.capabilities)
    result = run_property_once(case.property, target, case.scenario)
    assert result.status.value == "failed" and result.counterexample is not None
    assert result.counterexample.anomaly == case.anomaly
    assert run_property_once(case.property, reference, case.scenario).status.value == "passed"
