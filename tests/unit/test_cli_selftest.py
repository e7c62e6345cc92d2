"""``kafka-conformance selftest``: usage errors, the listing, a one-mutant scorecard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.cli.main import main


def test_lists_the_zoo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 60 and any(line.startswith("kafka-14265-longest-prefix-only") for line in lines)


@pytest.mark.parametrize("args, message", [
    (["--mutant", "no-such-mutant"], "unknown mutant 'no-such-mutant'"),
    (["--seeds", "0"], "a number of seeds from 1 to 1000, got 0"),
    (["--max-examples", "0"], "examples per property from 1 to 100000, got 0"),
])
def test_usage_errors_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_caught_mutant_scores_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.json"
    code = main(["selftest", "--seeds", "1", "--mutant", "allow-beats-deny", "--report-json", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "allow-beats-deny" in text and "1/1" in text and "score: 1/1" in text
    card = json.loads(out.read_text())
    assert card["catches"][0]["caught"] is True and card["baseline"][0]["conforms"] is True


def test_a_failure_of_cosmic_ray_itself_is_a_clear_error_with_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The tool failing (its session file, its work folder) gives no verdict: said so, in its own words,
    never as an internal error of the kit."""
    pytest.importorskip("cosmic_ray")
    from kafka_conformance.selftest import mutation

    def broken(*args: object, **kwargs: object) -> object:
        raise mutation.CosmicRayFailed("cosmic-ray exec failed (exit 1) in /tmp/x: attempt to write a readonly database")

    monkeypatch.setattr(mutation, "run_mutation", broken)
    assert main(["selftest", "--mutants", "--module", "reference/acl/principal.py"]) == 2
    err = capsys.readouterr().err
    assert "the mutation run has no verdict" in err and "readonly database" in err and "internal error" not in err
