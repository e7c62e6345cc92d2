"""The socket-free cluster: every fault-plan action and cluster step against the reference behaviour.

Each test drives :class:`ClusterModel` the way the test broker and the model
engine do (one ``produce`` per partition of a request, ``responded`` when an
answer leaves) and checks the answer, the log, and the events the delivery
checker will read.
"""

from __future__ import annotations

import pytest

from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.cluster.model import FIRST_PRODUCER_ID, ClusterModel, InitProducerIdError
from kafka_conformance.reference.delivery.checker import DeliveryConfig, check_delivery
from kafka_conformance.reference.delivery.verdicts import Attribution, Outcome, Property
from kafka_conformance.reference.traces.events import Acked, Attempt, Event, Fault, FaultKind, Response, Send
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def cluster(*rules: ProduceRule, clock: Clock | None = None, **spec: object) -> ClusterModel:
    return ClusterModel(ClusterSpec(**spec), FaultPlan(rules), clock=clock or Clock())  # type: ignore[arg-type]


def batch(seq: int, *values: str, pid: int = FIRST_PRODUCER_ID, epoch: int = 0) -> ProducerBatch:
    return ProducerBatch(pid, epoch, seq, values or (f"v{seq}",))


def faults(model: ClusterModel) -> list[tuple[FaultKind, int | None]]:
    return [(e.kind, e.partition) for e in model.events() if isinstance(e, Fault)]


def values(model: ClusterModel, partition: int = 0) -> list[str]:
    return [r.value for r in model.final_log()[partition]]


# ----------------------------------------------------------------------------- topology


def test_placement_spreads_leaders_and_metadata_lists_replicas_and_isr() -> None:
    model = cluster(brokers=3, partitions=3, replication_factor=2, min_insync_replicas=1)
    meta = model.metadata()
    assert meta.brokers == (0, 1, 2)
    assert [(p.leader, p.replicas, p.isr) for p in meta.partitions] == [
        (0, (0, 1), (0, 1)),
        (1, (1, 2), (1, 2)),
        (2, (2, 0), (2, 0)),
    ]
    assert all(p.leader_epoch == 0 for p in meta.partitions)


def test_init_producer_id_always_a_new_id_for_a_null_transactional_id() -> None:
    model = cluster()
    first = model.init_producer_id()
    assert (first.error, first.producer_id, first.producer_epoch) == (InitProducerIdError.NONE, FIRST_PRODUCER_ID, 0)
    again = model.init_producer_id(producer_id=first.producer_id, producer_epoch=0)
    assert (again.error, again.producer_id, again.producer_epoch) == (InitProducerIdError.NONE, FIRST_PRODUCER_ID + 1, 0)
    half = model.init_producer_id(producer_id=first.producer_id)
    assert half.error is InitProducerIdError.INVALID_REQUEST and half.error.code == 42


# ----------------------------------------------------------------------------- produce rules


def test_deliver_acks_all_replicates_before_answering_and_logs_attempt_and_response() -> None:
    clock = Clock()
    model = cluster(clock=clock)
    clock.now = 7
    out = model.produce(0, 0, batch(0, "a", "b"), acks=-1)
    assert out.action is Action.DELIVER and not out.close_connection and out.delay_ms == 0
    assert out.response is not None and out.response.error is ProduceError.NONE and out.response.base_offset == 0
    assert all(r.log.log_end_offset == 2 for r in model.partitions[0].replicas.values())
    assert model.high_watermark(0) == 2
    model.responded(out.attempt_id, out.response)
    assert model.events() == (Attempt(1, ("a", "b"), 0, FIRST_PRODUCER_ID, 0, 0, 7), Response(1, ProduceError.NONE, 0, 7))
    assert values(model) == ["a", "b"]


def test_request_to_a_follower_is_counted_logged_and_answered_not_leader() -> None:
    model = cluster(ProduceRule(2, Action.DROP_RESPONSE))
    out = model.produce(1, 0, batch(0), acks=-1)
    assert out.response is not None and out.response.error is ProduceError.NOT_LEADER_OR_FOLLOWER
    assert out.result is not None and not out.result.appended
    second = model.produce(0, 0, batch(0), acks=-1)  # the 2nd request of partition 0: its response is lost
    assert second.response is None and second.result is not None and second.result.appended
    assert [e.attempt_id for e in model.events() if isinstance(e, Attempt)] == [1, 2]


def test_dropped_response_then_retry_is_a_duplicate_answered_with_the_original_offset() -> None:
    model = cluster(ProduceRule(2, Action.DROP_RESPONSE))
    first = model.produce(0, 0, batch(0, "a"), acks=-1)
    assert first.response is not None
    model.responded(first.attempt_id, first.response)
    lost = model.produce(0, 0, batch(1, "b"), acks=-1)
    assert lost.response is None and lost.result is not None and lost.result.base_offset == 1
    assert faults(model) == [(FaultKind.RESPONSE_DROPPED, 0)]
    retry = model.produce(0, 0, batch(1, "b"), acks=-1)
    assert retry.response is not None and retry.result is not None
    assert (retry.response.error, retry.response.base_offset, retry.result.appended) == (ProduceError.NONE, 1, False)
    model.responded(retry.attempt_id, retry.response)
    assert values(model) == ["a", "b"]
    trace: list[Event] = [Send("a"), Send("b"), *model.events(), Acked("a", 0), Acked("b", 1)]
    report = check_delivery(trace, model.final_log())
    assert report[Property.EXACTLY_ONCE].outcome is Outcome.HOLDS


@pytest.mark.parametrize(
    ("action", "appended", "answered", "closes", "fault"),
    [
        (Action.DROP_REQUEST, False, False, False, FaultKind.REQUEST_DROPPED),
        (Action.DISCONNECT_BEFORE, False, False, True, FaultKind.DISCONNECT),
        (Action.DISCONNECT_AFTER, True, False, True, FaultKind.DISCONNECT),
        (Action.DROP_RESPONSE, True, False, False, FaultKind.RESPONSE_DROPPED),
    ],
)
def test_unanswered_actions(action: Action, appended: bool, answered: bool, closes: bool, fault: FaultKind) -> None:
    model = cluster(ProduceRule(1, action))
    out = model.produce(0, 0, batch(0), acks=-1)
    assert (out.response is not None, out.close_connection) == (answered, closes)
    assert (model.partitions[0].leader_log().log_end_offset == 1) is appended  # type: ignore[union-attr]
    assert faults(model) == [(fault, 0)]


def test_injected_error_does_not_touch_the_log_but_error_after_append_does() -> None:
    model = cluster(
        ProduceRule(1, Action.ERROR, error=ProduceError.NOT_ENOUGH_REPLICAS),
        ProduceRule(2, Action.ERROR_AFTER_APPEND, error=ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND),
    )
    before = model.produce(0, 0, batch(0), acks=-1)
    assert before.result is None and before.response is not None
    assert (before.response.error, before.response.base_offset) == (ProduceError.NOT_ENOUGH_REPLICAS, -1)
    assert values(model) == []
    after = model.produce(0, 0, batch(0), acks=-1)
    assert after.result is not None and after.result.appended and after.response is not None
    assert (after.response.error, after.response.base_offset) == (ProduceError.NOT_ENOUGH_REPLICAS_AFTER_APPEND, -1)
    assert values(model) == ["v0"]


def test_delay_handles_now_and_answers_later() -> None:
    model = cluster(ProduceRule(1, Action.DELAY, delay_ms=250))
    out = model.produce(0, 0, batch(0), acks=-1)
    assert out.delay_ms == 250 and out.response is not None and out.response.base_offset == 0
    assert values(model) == ["v0"]
    assert not any(isinstance(e, Response) for e in model.events())  # logged only when it leaves


def test_acks_zero_appends_but_never_answers() -> None:
    model = cluster(ProduceRule(2, Action.ERROR, error=ProduceError.UNKNOWN_SERVER_ERROR))
    out = model.produce(0, 0, batch(0), acks=0)
    assert out.response is None and out.result is not None and out.result.appended
    assert model.produce(0, 0, batch(1), acks=0).response is None


def test_not_enough_replicas_when_the_isr_is_below_min_insync() -> None:
    model = cluster()
    model.apply(ClusterStep(ClusterAction.CRASH, broker=1))
    model.apply(ClusterStep(ClusterAction.CRASH, broker=2))
    assert model.metadata().partition(0).isr == (0,)
    out = model.produce(0, 0, batch(0), acks=-1)
    assert out.response is not None and out.response.error is ProduceError.NOT_ENOUGH_REPLICAS
    assert model.partitions[0].leader_log().log_end_offset == 0  # type: ignore[union-attr]
    one = model.produce(0, 0, batch(0), acks=1)
    assert one.response is not None and one.response.error is ProduceError.NONE


# ----------------------------------------------------------------------------- cluster steps


def test_failover_keeps_dedup_because_followers_rebuilt_producer_state() -> None:
    model = cluster(ProduceRule(1, Action.DROP_RESPONSE))
    model.produce(0, 0, batch(0, "a"), acks=-1)
    model.apply(ClusterStep(ClusterAction.FAILOVER, partition=0))
    assert model.leader(0) == 1 and model.metadata().partition(0).leader_epoch == 1
    stale = model.produce(0, 0, batch(0, "a"), acks=-1)
    assert stale.response is not None and stale.response.error is ProduceError.NOT_LEADER_OR_FOLLOWER
    retry = model.produce(1, 0, batch(0, "a"), acks=-1)
    assert retry.response is not None and (retry.response.error, retry.response.base_offset) == (ProduceError.NONE, 0)
    assert retry.result is not None and not retry.result.appended
    assert values(model) == ["a"]
    assert faults(model) == [(FaultKind.RESPONSE_DROPPED, 0), (FaultKind.LEADER_FAILOVER, 0)]


def test_crash_of_an_acks_1_leader_before_replicate_loses_the_tail() -> None:
    model = cluster()
    model.produce(0, 0, batch(0, "a"), acks=1)
    model.replicate()
    model.produce(0, 0, batch(1, "b"), acks=1)
    assert values(model) == ["a"]  # "b" is above the high watermark until followers fetch
    model.apply(ClusterStep(ClusterAction.CRASH, broker=0))
    assert model.leader(0) == 1 and values(model) == ["a"]
    assert faults(model) == [(FaultKind.BROKER_CRASH, None)]  # "b" was never committed: no concurrent failure
    model.apply(ClusterStep(ClusterAction.RESTART, broker=0))
    model.replicate()
    assert [r.log.log_end_offset for r in model.partitions[0].replicas.values()] == [1, 1, 1]


def test_crash_after_replicate_loses_nothing() -> None:
    model = cluster()
    model.produce(0, 0, batch(0, "a"), acks=1)
    model.produce(0, 0, batch(1, "b"), acks=1)
    model.replicate()
    model.apply(ClusterStep(ClusterAction.CRASH, broker=0))
    assert values(model) == ["a", "b"]
    retry = model.produce(1, 0, batch(1, "b"), acks=1)
    assert retry.response is not None and retry.response.base_offset == 1  # dedup survived on the new leader


def test_crashing_every_replica_that_holds_a_committed_record_is_a_concurrent_failure() -> None:
    model = cluster(replication_factor=2, min_insync_replicas=1)
    model.produce(0, 0, batch(0, "a"), acks=-1)
    model.apply(ClusterStep(ClusterAction.CRASH, broker=1))
    assert (FaultKind.CONCURRENT_FAILURE, 0) not in faults(model)
    model.apply(ClusterStep(ClusterAction.CRASH, broker=0))
    assert (FaultKind.CONCURRENT_FAILURE, 0) in faults(model)
    assert model.leader(0) is None and values(model) == []
    model.heal()
    assert model.leader(0) == 0 and faults(model)[-1] == (FaultKind.HEALED, None)
    assert values(model) == []  # power loss before any flush: the write is gone, outside the guarantee


def test_leaderless_period_then_the_previous_leader_returns() -> None:
    clock = Clock()
    model = cluster(clock=clock)
    clock.now = 100
    model.apply(ClusterStep(ClusterAction.LEADERLESS, partition=0, duration_ms=500))
    assert model.leader(0) is None and model.metadata().partition(0).leader is None
    out = model.produce(0, 0, batch(0), acks=-1)
    assert out.response is not None and out.response.error is ProduceError.NOT_LEADER_OR_FOLLOWER
    clock.now = 599
    assert model.leader(0) is None
    clock.now = 600
    assert model.leader(0) == 0 and model.metadata().partition(0).leader_epoch == 1
    ok = model.produce(0, 0, batch(0), acks=-1)
    assert ok.response is not None and ok.response.error is ProduceError.NONE
    # the period's end is the last fault ending: the producer must make progress from here (LIVE)
    assert faults(model) == [(FaultKind.NETWORK_PARTITION, 0), (FaultKind.HEALED, None)]
    assert [e.time_ms for e in model.events() if isinstance(e, Fault) and e.kind is FaultKind.HEALED] == [600]


def test_a_leaderless_period_ending_while_a_broker_is_down_heals_nothing() -> None:
    clock = Clock()
    model = cluster(clock=clock)
    model.apply(ClusterStep(ClusterAction.CRASH, broker=2))
    model.apply(ClusterStep(ClusterAction.LEADERLESS, partition=0, duration_ms=50))
    clock.now = 60
    assert model.leader(0) is not None
    assert (FaultKind.HEALED, None) not in faults(model)


def test_expired_producer_state_lets_a_late_retry_append_again_outside_the_guarantee() -> None:
    model = cluster(ProduceRule(1, Action.DROP_RESPONSE))
    model.produce(0, 0, batch(0, "a"), acks=-1)
    model.apply(ClusterStep(ClusterAction.EXPIRE_PRODUCERS, partition=0))
    retry = model.produce(0, 0, batch(0, "a"), acks=-1)
    assert retry.result is not None and retry.result.appended and retry.response is not None
    model.responded(retry.attempt_id, retry.response)
    assert values(model) == ["a", "a"]
    trace: list[Event] = [Send("a"), *model.events(), Acked("a", 1)]
    amo = check_delivery(trace, model.final_log(), DeliveryConfig())[Property.AT_MOST_ONCE]
    assert amo.outcome is Outcome.VIOLATED
    assert {a.attribution for a in amo.anomalies} == {Attribution.OUTSIDE_GUARANTEE}


def test_disconnect_bumps_the_generation_the_socket_layer_watches() -> None:
    model = cluster()
    model.apply(ClusterStep(ClusterAction.DISCONNECT))
    assert model.disconnect_generation == 1 and faults(model) == [(FaultKind.DISCONNECT, None)]
    model.apply(ClusterStep(ClusterAction.CRASH, broker=2))
    assert model.crash_generation[2] == 1 and model.live_brokers() == (0, 1)
    assert model.metadata().brokers == (0, 1)


def test_same_calls_same_events() -> None:
    def run() -> tuple[Event, ...]:
        model = cluster(ProduceRule(2, Action.DROP_RESPONSE), ProduceRule(1, Action.DELAY, 1, delay_ms=5), partitions=2)
        for seq in range(4):
            for p in (0, 1):
                out = model.produce(model.leader(p) or 0, p, batch(seq, f"p{p}-{seq}"), acks=-1)
                if out.response is not None:
                    model.responded(out.attempt_id, out.response)
            model.apply(ClusterStep(ClusterAction.FAILOVER, partition=seq % 2))
        model.heal()
        return model.events()

    assert run() == run()


def test_unknown_partition_or_broker_is_a_clear_error() -> None:
    model = cluster()
    with pytest.raises(ValueError, match="partition 3"):
        model.produce(0, 3, batch(0), acks=-1)
    with pytest.raises(ValueError, match="broker 7"):
        model.apply(ClusterStep(ClusterAction.CRASH, broker=7))
