"""The harness's side of an ``expire`` step, on a scripted coordinator (no broker): it waits the
timeout out, then for the coordinator's abort; it says NOT_TIMED_OUT when none comes; and it refuses
to send a step so late that the coordinator could abort the transaction under it.

Real brokers answer the ``timeout-*`` rows in ``test_kafka_transactions.py``."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("kafka", reason="the wire harness speaks through kafka-python (the brokers extra)")

from kafka_conformance.adapters.brokers.wire_txn import TooLate, _Txn
from kafka_conformance.reference.transactions.run import NOT_TIMED_OUT


class _Coordinator:
    """Answers DescribeTransactions with the states given, the last one for ever."""

    address = "127.0.0.1:1"

    def __init__(self, *states: str) -> None:
        self.versions = {65: (0, 0)}
        self.states = list(states)
        self.asked = 0

    def request(self, request: Any, response_class: Any, version: int, **_: Any) -> Any:
        self.asked += 1
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        return SimpleNamespace(transaction_states=[SimpleNamespace(error_code=0, transaction_state=state, producer_epoch=1)])


def _txn(coordinator: _Coordinator, deadline_s: float = 0.3) -> _Txn:
    routes = SimpleNamespace(coordinator=lambda txn_id: coordinator)
    return _Txn(routes, "t", "topic", 1, deadline_s)  # type: ignore[arg-type]


def test_expire_waits_out_the_timeout_then_for_the_abort() -> None:
    coordinator = _Coordinator("Ongoing", "PrepareAbort", "CompleteAbort")
    txn = _txn(coordinator, deadline_s=5.0)
    txn._opened({0}, time.monotonic())
    began = time.monotonic()
    reply = txn.expire(200)
    assert time.monotonic() - began >= 0.2  # not asked before the timeout had passed
    assert reply.code == 0 and reply.detail.startswith("CompleteAbort at epoch 1"), reply
    assert coordinator.asked == 3 and txn.opened_at is None and not txn.added


def test_expire_before_any_transaction_is_done_at_once() -> None:
    class _NotFound(_Coordinator):
        def request(self, request: Any, response_class: Any, version: int, **_: Any) -> Any:
            self.asked += 1
            return SimpleNamespace(transaction_states=[SimpleNamespace(error_code=105, transaction_state="",
                                                                       producer_epoch=-1)])

    coordinator = _NotFound("")
    reply = _txn(coordinator).expire(1500)
    assert reply.code == 0 and reply.detail.startswith("no transaction ever begun") and coordinator.asked == 1


def test_expire_with_nothing_open_asks_once() -> None:
    coordinator = _Coordinator("Empty")
    assert _txn(coordinator).expire(1500).code == 0 and coordinator.asked == 1


def test_a_coordinator_that_never_aborts_is_not_timed_out_and_the_run_goes_on() -> None:
    txn = _txn(_Coordinator("Ongoing"))
    txn._opened({0}, time.monotonic())
    reply = txn.expire(50)
    assert reply.code == NOT_TIMED_OUT and reply.detail.startswith("not aborted") and "Ongoing" in reply.detail
    txn.in_time("EndTxn")  # the timeout is spent: the next step is judged, not refused


def test_a_step_too_close_to_the_timeout_is_refused_not_judged() -> None:
    txn = _txn(_Coordinator("Ongoing"))
    txn.timeout_s = 1.5
    txn._opened({0}, time.monotonic())
    txn.in_time("Produce")  # well within it
    txn.opened_at = time.monotonic() - 1.2  # 0.3 s left: under the margin
    with pytest.raises(TooLate, match=r"Produce: the script's steps took 1\.\ds of the transaction's 1\.5s timeout"):
        txn.in_time("Produce")


class _Leader:
    """A partition leader without DescribeTransactions behind it: the log end and last stable offset it
    reports, one pair per poll, the last for ever."""

    def __init__(self, *offsets: tuple[int, int]) -> None:
        self.offsets = list(offsets)
        self.polls = 0

    def list_offset(self, topic: str, partition: int, committed: bool = False) -> int:
        end, stable = self.offsets[min(self.polls // 2, len(self.offsets) - 1)]
        self.polls += 1
        return stable if committed else end


def _no_describe(leader: _Leader, deadline_s: float) -> _Txn:
    coordinator = _Coordinator("Ongoing")
    coordinator.versions = {}
    routes = SimpleNamespace(coordinator=lambda txn_id: coordinator, leader=lambda topic, p: leader)
    txn = _Txn(routes, "t", "topic", 1, deadline_s)  # type: ignore[arg-type]
    txn._opened({0}, time.monotonic())
    return txn


def test_without_describe_transactions_the_abort_is_its_marker() -> None:
    leader = _Leader((2, 0), (2, 0), (3, 3))  # the end before, still open, then the marker and the LSO at the end
    reply = _no_describe(leader, 5.0).expire(10)
    assert reply.code == 0 and reply.detail.startswith("a marker on partitions [0]"), reply


def test_without_describe_transactions_a_stable_offset_alone_is_no_abort() -> None:
    """A broker whose last stable offset is always its end (it tracks no open transaction) has written
    no marker: the step is not taken for an abort the broker never made."""
    reply = _no_describe(_Leader((2, 2)), 0.3).expire(10)
    assert reply.code == NOT_TIMED_OUT and "no abort marker seen on partitions [0]" in reply.detail, reply
