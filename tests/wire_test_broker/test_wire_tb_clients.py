"""Real producers against the test broker: plain runs, a lost response the client retries, a failover.

Each run's trace (the application's sends and completions plus the broker's
attempts, responses and faults) and the final log go through the delivery
checker; every property must hold or be unknown, and the log must hold each
value exactly once, in send order per partition.
"""

from __future__ import annotations

import pytest
from tb_clients import CLIENTS, produce, quiet_imports, violated

from kafka_conformance.adapters.brokers.testbroker import TestCluster
from kafka_conformance.reference.traces.events import Attempt, Fault, FaultKind, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep


def sends(count: int, partitions: int, prefix: str = "m") -> list[tuple[str, int]]:
    return [(f"{prefix}{i}", i % partitions) for i in range(count)]


def assert_exactly_once_in_order(cluster: TestCluster, sent: list[tuple[str, int]]) -> None:
    log = cluster.final_log()
    for partition in range(cluster.model.spec.partitions):
        expected = [v for v, p in sent if p == partition]
        assert [r.value for r in log[partition]] == expected, f"partition {partition}"


@pytest.mark.parametrize("client", CLIENTS)
def test_idempotent_produce_of_200_messages_to_3_partitions(client: str) -> None:
    spec = ClusterSpec(partitions=3)
    sent = sends(200, 3)
    with TestCluster(spec) as cluster:
        run = produce(client, cluster, sent)
        assert run.failures == []
        assert_exactly_once_in_order(cluster, sent)
        assert violated(run.report()) == []
        acked = {e.value for e in run.completions}
        assert acked == {v for v, _ in sent}
        assert cluster.notes == []
        pids = {e.producer_id for e in cluster.events() if isinstance(e, Attempt)}
        assert len(pids) == 1 and min(pids) >= 0  # idempotence was really on


@pytest.mark.parametrize("client", CLIENTS)
def test_a_lost_response_is_retried_by_the_client_and_deduplicated(client: str) -> None:
    spec = ClusterSpec(partitions=1)
    plan = FaultPlan([ProduceRule(3, Action.DROP_RESPONSE)])
    sent = sends(12, 1, "d")
    with TestCluster(spec, plan) as cluster:
        run = produce(client, cluster, sent, request_timeout_ms=1000, flush_every=2)
        assert run.failures == []
        assert_exactly_once_in_order(cluster, sent)
        events = cluster.events()
        assert [(f.kind, f.partition) for f in events if isinstance(f, Fault)] == [(FaultKind.RESPONSE_DROPPED, 0)]
        attempts = [e for e in events if isinstance(e, Attempt)]
        lost = attempts[2]
        retries = [a for a in attempts[3:] if a.base_sequence == lost.base_sequence]
        assert retries, "the client never retried the batch whose response was lost"
        answered = {e.attempt_id: e for e in events if isinstance(e, Response)}
        first_offset = cluster.final_log()[0][[r.value for r in cluster.final_log()[0]].index(lost.values[0])].offset
        assert any(answered[a.attempt_id].base_offset == first_offset for a in retries if a.attempt_id in answered)
        assert violated(run.report()) == []


@pytest.mark.parametrize("client", CLIENTS)
def test_failover_mid_run(client: str) -> None:
    spec = ClusterSpec(partitions=2)
    sent = sends(60, 2, "f")
    with TestCluster(spec) as cluster:
        leader_before = cluster.model.leader(0)

        def failover() -> None:
            cluster.apply(ClusterStep(ClusterAction.FAILOVER, partition=0))

        run = produce(client, cluster, sent, request_timeout_ms=2000, pause_at=30, on_pause=failover)
        assert run.failures == []
        assert cluster.model.leader(0) != leader_before
        assert_exactly_once_in_order(cluster, sent)
        attempts = [e for e in cluster.events() if isinstance(e, Attempt) and e.partition == 0]
        assert attempts[-1].time_ms >= attempts[0].time_ms
        assert violated(run.report()) == []


def test_a_real_consumer_reads_the_log_back_through_list_offsets_and_fetch() -> None:
    spec = ClusterSpec(partitions=2)
    sent = sends(40, 2, "r")
    with TestCluster(spec) as cluster:
        assert produce("kafka-python", cluster, sent).failures == []
        with quiet_imports():
            from kafka import KafkaConsumer, TopicPartition
        consumer = KafkaConsumer(bootstrap_servers=cluster.bootstrap, group_id=None, enable_auto_commit=False, consumer_timeout_ms=3000)
        try:
            parts = [TopicPartition(spec.topic, p) for p in range(2)]
            consumer.assign(parts)
            consumer.seek_to_beginning(*parts)
            read: dict[int, list[tuple[int, str]]] = {p: [] for p in range(2)}
            for message in consumer:
                read[message.partition].append((message.offset, message.value.decode()))
                if sum(map(len, read.values())) == len(sent):
                    break
        finally:
            consumer.close()
        log = cluster.final_log()
        assert read == {p: [(r.offset, r.value) for r in log[p]] for p in range(2)}
        assert cluster.notes == []
