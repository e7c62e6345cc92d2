"""The checking path may get faster, never different: every target's verdict rows on the
stored corpus (``data/corpus-verdicts.jsonl.gz``, written by ``corpus_verdicts.py`` before
issue 18's speed-ups) stay bit for bit what they were: verdict, anomaly, signature, detail
and adapter error, for the reference, ``reference-indexed``, the zoo's authorizer and every
zoo mutant."""

from __future__ import annotations

import pytest
from corpus_verdicts import read_fixture, verdict_rows

GROUPS = read_fixture()


def test_the_stored_corpus_holds_failures_as_well_as_passes() -> None:
    verdicts = {row[0] for g in GROUPS for rows in g["verdicts"].values() for row in rows}
    assert {"pass", "fail"} <= verdicts
    assert sum(len(g["cases"]) for g in GROUPS) >= 400


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: f"{g['kafka_version'] or 'zoo'}-{g['flavour'] or ''}-"
                                                        f"{g['settings']['mode']}")
def test_verdicts_are_what_they_were(group: dict[str, object]) -> None:
    now = verdict_rows(group["cases"], group["kafka_version"], group["flavour"])  # type: ignore[arg-type]
    before = group["verdicts"]
    # A zoo mutant added after the fixture was written has no past to hold to; none may go missing.
    assert isinstance(before, dict) and before.keys() <= now.keys()
    for target, old_rows in before.items():
        for i, (row, old) in enumerate(zip(now[target], old_rows, strict=True)):
            assert row == old, f"{target}, case {i} ({group['cases'][i]['property']}): was {old}, now {row}"  # type: ignore[index]
