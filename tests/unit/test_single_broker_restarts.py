"""Which cluster steps a single real broker takes: Apache Kafka's own (``kafka:VERSION``) is stopped, cleanly or
killed, and started again on its own data, so a STOP or CRASH of broker 0 followed at once by its RESTART runs
there (rows 25 and 25b); anything else is refused by name before a broker starts (the matrix shows n/a)."""

from __future__ import annotations

import pytest

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.producer.engines import _cluster_steps, _RealBroker
from kafka_conformance.reference.traces.events import FaultKind
from kafka_conformance.reference.traces.program import ClusterAction, ClusterStep, FlushStep, ProducerTrace, SendStep, WaitStep

STOP, CRASH, RESTART = (ClusterStep(a, broker=0) for a in (ClusterAction.STOP, ClusterAction.CRASH, ClusterAction.RESTART))


def _trace(*steps: object) -> ProducerTrace:
    return ProducerTrace([SendStep("v0"), *steps, FlushStep()])  # type: ignore[list-item]


@pytest.mark.parametrize("down", [STOP, CRASH])
def test_a_stop_or_crash_then_restart_runs_on_kafka_only(down: ClusterStep) -> None:
    trace = _trace(WaitStep(100), down, RESTART)
    assert _cluster_steps(trace, restartable=True) == []
    assert _cluster_steps(trace) == [f"cluster step {down.action.value}", "cluster step restart"]


@pytest.mark.parametrize("steps", [
    (STOP,),
    (RESTART,),
    (STOP, SendStep("v1"), RESTART),
    (ClusterStep(ClusterAction.STOP, broker=1), ClusterStep(ClusterAction.RESTART, broker=1)),
    (ClusterStep(ClusterAction.FAILOVER, partition=0),),
])
def test_other_cluster_steps_are_refused_on_a_single_broker(steps: tuple[object, ...]) -> None:
    assert _cluster_steps(_trace(*steps), restartable=True)


class _Proxy:
    def __init__(self) -> None:
        self.faults: list[tuple[FaultKind, int | None]] = []

    def record_fault(self, kind: FaultKind, partition: int | None = None) -> None:
        self.faults.append((kind, partition))


@pytest.mark.parametrize(("down", "clean", "faults"), [
    (STOP, True, [(FaultKind.BROKER_STOP, None)]),
    (CRASH, False, [(FaultKind.BROKER_CRASH, None), (FaultKind.CONCURRENT_FAILURE, 0)]),
])
def test_the_restart_happens_at_the_restart_step_and_is_logged_as_the_test_broker_logs_it(
        down: ClusterStep, clean: bool, faults: list[tuple[FaultKind, int | None]]) -> None:
    restarts: list[bool] = []
    broker = _RealBroker("127.0.0.1", 9092, _trace(down, RESTART), restart=restarts.append)
    broker.proxy = _Proxy()
    broker.control(down)
    assert restarts == []  # nothing happens until the broker is to come back: the pair is one restart
    broker.control(RESTART)
    assert restarts == [clean] and broker.proxy.faults == faults


def test_a_broker_the_kit_cannot_restart_refuses_every_step() -> None:
    broker = _RealBroker("127.0.0.1", 9092, _trace(STOP, RESTART))
    with pytest.raises(TargetError, match="cannot apply stop"):
        broker.control(STOP)
