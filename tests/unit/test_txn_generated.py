"""Generated transaction scripts (issue 32): valid by construction, run on every modelled release, shrunk
to the smallest script that shows a difference between a broker and the release it claims."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from kafka_conformance.options import Options
from kafka_conformance.reference.transactions.model import run_model
from kafka_conformance.reference.transactions.profile import txn_profile
from kafka_conformance.reference.transactions.script import Add, End, Produce, Send, TxnScript, script_from_json, script_to_json
from kafka_conformance.transactions import check as txn_check
from kafka_conformance.transactions.report import render_txn_json, render_txn_text
from kafka_conformance.transactions.strategies import Late, ProduceMove, TxnMove, build_script, txn_scripts

PROFILES = [txn_profile("3.5.2"), txn_profile("3.9.1"), txn_profile("4.3.1", transaction_version=2)]


@settings(max_examples=150, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(txn_scripts())
def test_every_generated_script_runs_on_every_release(script: TxnScript) -> None:
    assert script_from_json(script_to_json(script)) == script
    for profile in PROFILES:
        run = run_model(script, profile)
        assert len(run.answers) == len(script.steps)


def test_late_sends_land_where_the_move_says() -> None:
    first = TxnMove("a", frozenset({0}), (ProduceMove(0, late=Late.IN_NEXT), ProduceMove(0, late=Late.AFTER_END)), False)
    second = TxnMove("a", frozenset({0}), (ProduceMove(0),), True)
    steps = build_script((first, second)).steps
    end = steps.index(End("a", False))
    assert steps[end + 1] == Send("p2"), "after the end: the second produce"
    next_add = steps.index(Add("a", frozenset({0})), end)
    assert steps[next_add + 1] == Send("p1"), "once the next transaction added the partition: the first"
    assert isinstance(steps[-1], End) and steps[-1].commit


@contextlib.contextmanager
def _no_broker(spec: str) -> Iterator[txn_check.BrokerAt]:
    yield txn_check.BrokerAt("127.0.0.1", 1)


def test_a_broker_of_another_release_is_found_and_the_script_shrunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model of 3.5.2 (before KIP-890's verification) posing as a 3.9.1 broker: a Produce sent after
    its transaction was aborted is written there and refused by 3.9.1, and the search finds it."""
    posing = txn_profile("3.5.2")
    monkeypatch.setattr(txn_check, "broker_address", _no_broker)
    monkeypatch.setattr(txn_check, "run_script_on_broker", lambda script, *a, **k: run_model(script, posing))
    report = txn_check.check_transactions("kafka:3.9.1", Options(seed=3, max_examples=200), rows=())
    generated = report.generated
    assert generated is not None and generated.failure is not None and generated.script is not None
    assert not report.conforms and report.exit_code == 1
    assert 1 <= generated.examples <= 200 and generated.shrink_runs > 0, generated  # draws, then the shrinking apart
    script = generated.script
    assert len(script.steps) <= 8, script  # shrunk: a transaction or two, and the produce 3.6+ refuses
    refused = [d for d in generated.failure.differences if "broker answered error 0" in d]
    assert refused and all(("error 47" in d or "error 48" in d) and (" produce " in d or " send " in d) for d in refused), generated.failure
    assert any(isinstance(s, Produce) for s in script.steps)
    text = render_txn_text(report)
    assert "generated script:" in text and "verdict: diverges" in text and f"seed {generated.seed}" in text
    assert '"generated"' in render_txn_json(report)


def test_a_broker_that_is_the_release_agrees_on_every_generated_script(monkeypatch: pytest.MonkeyPatch) -> None:
    same = txn_profile("3.9.1")
    monkeypatch.setattr(txn_check, "broker_address", _no_broker)
    monkeypatch.setattr(txn_check, "run_script_on_broker", lambda script, *a, **k: run_model(script, same))
    report = txn_check.check_transactions("kafka:3.9.1", Options(seed=1, max_examples=40), rows=())
    assert report.generated is not None and report.generated.failure is None and report.generated.examples == 40
    text = render_txn_text(report)
    assert report.conforms and "40 generated scripts (seed 1) agree" in text
    assert "verdict: conforms (0 rows and 40 generated scripts) — kafka:3.9.1, transactions@3.9.1" in text


def test_a_broker_that_stops_answering_ends_the_search_unshrunk(monkeypatch: pytest.MonkeyPatch) -> None:
    from kafka_conformance.adapters.brokers.wire_client import WireError

    calls = []

    def gone(script: TxnScript, *args: object, **kwargs: object) -> object:
        calls.append(script)
        raise WireError("broker 127.0.0.1:1 closed the connection")

    monkeypatch.setattr(txn_check, "broker_address", _no_broker)
    monkeypatch.setattr(txn_check, "run_script_on_broker", gone)
    report = txn_check.check_transactions("kafka:3.9.1", Options(seed=4, max_examples=30), rows=())
    generated = report.generated
    assert generated is not None and generated.failure is not None and generated.failure.error
    assert len(calls) == 1 and generated.examples == 1 and generated.shrink_runs == 0
    assert not report.conforms and "stopped: the broker could not finish" in render_txn_text(report)


def test_a_run_too_close_to_its_timeout_is_run_again_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness refuses a step within 0.5 s of its transaction's timeout (TooLate): the row is run once
    more on a topic of its own, and a second miss is a row that could not finish, never a difference."""
    from kafka_conformance.adapters.brokers.wire_txn import TooLate

    calls: list[str] = []

    def late_then(times: int):  # type: ignore[no-untyped-def]
        def run(script, *a, topic: str, **k):  # type: ignore[no-untyped-def]
            calls.append(topic)
            if len(calls) <= times:
                raise TooLate("EndTxn: the script's steps took 1.2s of the transaction's 1.5s timeout before it")
            return run_model(script, txn_profile("3.9.1"))
        return run

    monkeypatch.setattr(txn_check, "broker_address", _no_broker)
    monkeypatch.setattr(txn_check, "run_script_on_broker", late_then(1))
    [row] = txn_check.check_transactions("kafka:3.9.1", Options(), rows=["timeout-then-commit"]).rows
    assert row.agrees and len(calls) == 2 and calls[1] == calls[0] + "-again"
    calls.clear()
    monkeypatch.setattr(txn_check, "run_script_on_broker", late_then(2))
    [row] = txn_check.check_transactions("kafka:3.9.1", Options(), rows=["timeout-then-commit"]).rows
    assert not row.agrees and row.error.endswith("(twice)") and not row.differences and len(calls) == 2
