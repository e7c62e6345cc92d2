"""The process path judges exactly as the in-process path: the stored corpus's cases, checked
against the example authorizer in process and over the JSON-lines protocol (where a case's
set-up, record steps and questions are pipelined, and the reference's answers are worked out
while the process answers), give the same verdict row for every case: verdict, anomaly,
signature, detail and adapter error.  Once for the correct example and once for a variant
that denies every ``authorize`` question (``--trivial``), so that the rows compared are
failures with anomalies and details as well as passes."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus_verdicts import read_fixture

from kafka_conformance.adapters.jsonlines.adapter import close_shared_sessions
from kafka_conformance.authorizer.targets import Target, resolve_target
from kafka_conformance.corpora.suites.authorizer import AuthorizerChecker, AuthorizerSuite
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "examples" / "python_subprocess" / "my_authorizer_server.py"
sys.path.insert(0, str(ROOT / "examples" / "python_authorizer"))

from my_authorizer import MyAuthorizerAdapter  # noqa: E402  (the example is not a package)


class _DeniesEverything(MyAuthorizerAdapter):
    """The in-process twin of ``my_authorizer_server.py --trivial``."""

    def authorize(self, context: RequestContext, actions: Sequence[Action]) -> list[AuthorizationResult]:
        return [AuthorizationResult.DENIED] * len(actions)


@pytest.fixture(autouse=True, scope="module")
def _stop_processes() -> Iterator[None]:
    yield
    close_shared_sessions()


def _rows(target: Target, cases: list[dict[str, Any]]) -> list[list[str]]:
    suite, checker = AuthorizerSuite(), AuthorizerChecker(target)
    try:
        rows = []
        for case in cases:
            outcome = checker.check(case["property"], suite.decode(case["case"]))
            rows.append([outcome.verdict, outcome.anomaly, outcome.signature, outcome.detail, outcome.adapter_error])
        return rows
    finally:
        checker.close()


@pytest.mark.parametrize("trivial", [False, True], ids=["correct", "denies-everything"])
def test_a_process_target_gets_the_verdicts_of_the_same_authorizer_in_process(trivial: bool) -> None:
    cases = [case for group in read_fixture() for case in group["cases"]]
    make = _DeniesEverything if trivial else MyAuthorizerAdapter
    in_process = Target("python:example", make, make().capabilities())
    here = _rows(in_process, cases)
    command = [sys.executable, str(SERVER), *(["--trivial"] if trivial else [])]
    there = _rows(resolve_target(f"cmd:{shlex.join(command)}"), cases)  # closing a checker stops every process
    verdicts = {row[0] for row in here}
    assert "pass" in verdicts
    if trivial:
        assert "fail" in verdicts and sum(row[0] == "fail" for row in here) >= 50
    for i, (mine, theirs) in enumerate(zip(here, there, strict=True)):
        assert theirs == mine, f"case {i} ({cases[i]['property']}): in process {mine}, over the process {theirs}"
