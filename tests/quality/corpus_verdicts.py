"""The stored corpus whose verdicts must never change when the checking path gets faster.

``python tests/quality/corpus_verdicts.py`` (re)writes ``data/corpus-verdicts.jsonl.gz``:
authorizer cases drawn once for three profiles (StandardAuthorizer 4.3.0 and 3.3.0, and
AclAuthorizer 3.9.0, both generation modes) and for the zoo's capabilities, each with the
verdict row (verdict, anomaly, signature, detail, adapter error) that every target gave it: the reference
and ``reference-indexed`` of the profile, the zoo's unmutated authorizer and every zoo
mutant.  Regenerate it only on purpose (a new property, a new anomaly name) and say so in
the commit: the file is the "before" that ``test_corpus_verdicts.py`` holds every later
version of the checking path to, bit for bit.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).parent / "data" / "corpus-verdicts.jsonl.gz"

PROFILES: tuple[tuple[str, str, str, int], ...] = (
    # (kafka version, flavour, mode, cases)
    ("4.3.0", "standard", "well-formed", 90),
    ("4.3.0", "standard", "hostile", 90),
    ("3.3.0", "standard", "mixed", 90),
    ("3.9.0", "acl", "mixed", 90),
)
ZOO_CASES = 60


def _checkers(version: str | None, flavour: str | None) -> Iterator[tuple[str, Any]]:
    from kafka_conformance.authorizer.targets import resolve_target
    from kafka_conformance.corpora.suites.authorizer import AuthorizerChecker
    from kafka_conformance.selftest.scorecard import _target
    from kafka_conformance.selftest.zoo import ZOO

    if version is not None:
        for name in ("reference", "reference-indexed"):
            yield name, AuthorizerChecker(resolve_target(name, kafka_version=version, flavour=flavour))
        return
    yield "zoo:correct", AuthorizerChecker(_target("correct", None))
    for name in sorted(ZOO):
        yield f"zoo:{name}", AuthorizerChecker(_target(name, ZOO[name]))


def verdict_rows(cases: list[dict[str, Any]], version: str | None, flavour: str | None) -> dict[str, list[list[str]]]:
    """Per target: one [verdict, anomaly, signature, detail, adapter error] row per case, in order."""
    from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite

    suite = AuthorizerSuite()
    out: dict[str, list[list[str]]] = {}
    for name, checker in _checkers(version, flavour):
        rows = []
        for case in cases:
            outcome = checker.check(case["property"], suite.decode(case["case"]))
            rows.append([outcome.verdict, outcome.anomaly, outcome.signature, outcome.detail, outcome.adapter_error])
        out[name] = rows
        checker.close()
    return out


def _groups() -> Iterator[dict[str, Any]]:
    from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite, settings_from_capabilities
    from kafka_conformance.selftest.zoo import correct

    suite = AuthorizerSuite()
    for version, flavour, mode, count in PROFILES:
        settings = suite.generation_settings(target=None, kafka_version=version, flavour=flavour, mode=mode)
        yield {"kafka_version": version, "flavour": flavour, "settings": settings, "count": count}
    yield {"kafka_version": None, "flavour": None, "count": ZOO_CASES,
           "settings": settings_from_capabilities(correct().capabilities(), "mixed")}


def write_fixture() -> None:
    from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite

    suite = AuthorizerSuite()
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(FIXTURE, "wt", encoding="utf-8") as out:
        for group in _groups():
            drawn = suite.generate(group["settings"], group["count"], seed=20261125)
            cases = [{"property": prop, "case": suite.encode(payload)} for prop, payload in drawn]
            group["verdicts"] = verdict_rows(cases, group["kafka_version"], group["flavour"])
            group["cases"] = cases
            out.write(json.dumps(group, separators=(",", ":"), ensure_ascii=False) + "\n")
            print(f"{group['kafka_version'] or 'zoo'} {group['flavour'] or ''}: {len(cases)} cases, "
                  f"{len(group['verdicts'])} targets", file=sys.stderr)


def read_fixture() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python_authorizer"))
    write_fixture()
