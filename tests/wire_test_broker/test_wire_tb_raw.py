"""Crafted requests over a raw socket: the test broker answers exactly like the reference of its version.

The produce test is differential: every crafted batch (chosen producer id,
epoch, base sequence, record count) goes both to a one-broker test cluster and
to a :class:`PartitionLog` of the same Kafka version, and the wire answer must
equal the reference answer field by field.  The other tests pin the protocol
surface: ApiVersions (incl. an unsupported version), Metadata, InitProducerId
(aiokafka's v0 and the KIP-360 fields), ListOffsets, Fetch, acks=0, ordering of
delayed answers, and what happens to requests the broker does not serve.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tb_raw import Raw, batch_bytes, protocol, quiet

from kafka_conformance.adapters.brokers.testbroker import TestCluster
from kafka_conformance.adapters.brokers.testbroker_codec import SERVED_VERSIONS
from kafka_conformance.adapters.brokers.testbroker_dispatch import newest_versions
from kafka_conformance.reference.broker.batches import INT32_MAX, ProducerBatch
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.releases import KafkaVersion
from kafka_conformance.reference.traces.events import Attempt, Response
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import ClusterAction, ClusterSpec, ClusterStep

ONE = {"brokers": 1, "replication_factor": 1, "min_insync_replicas": 1}
P = protocol()


def produce_request(topic: str, partition: int, batch: ProducerBatch, acks: int = -1) -> object:
    req = P.producer.ProduceRequest
    part = req.TopicProduceData.PartitionProduceData(index=partition, records=batch_bytes(batch))
    data = req.TopicProduceData(name=topic, partition_data=[part])
    return req(transactional_id=None, acks=acks, timeout_ms=1000, topic_data=[data])


def partition_answer(response: object) -> tuple[int, int, int]:
    part = response.responses[0].partition_responses[0]  # type: ignore[attr-defined]
    return part.error_code, part.base_offset, part.log_start_offset


def init_pid(raw: Raw, version: int, **fields: int) -> tuple[int, int, int]:
    req = P.producer.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=-1, **fields)
    answer = raw.call(req, P.producer.InitProducerIdResponse, version)
    return answer.error_code, answer.producer_id, answer.producer_epoch


# ----------------------------------------------------------------------------- produce, differential

batches = st.lists(
    st.tuples(
        st.sampled_from([0, 1, 2]),  # which producer: two known ids and one the broker never issued
        st.integers(0, 2),  # epoch
        st.sampled_from([0, 1, 2, 3, 5, 8, INT32_MAX - 1]),  # base sequence
        st.integers(1, 3),  # records
        st.sampled_from([3, 5, 7, 9, 12]),  # Produce version
    ),
    min_size=1,
    max_size=6,
)


@pytest.mark.parametrize("version", ["4.3.0", "2.4.0", "1.0.0"])
def test_crafted_batches_are_answered_like_the_reference_log(version: str) -> None:
    spec = ClusterSpec(kafka_version=version, **ONE)  # type: ignore[arg-type]
    reference = PartitionLog(broker_profile(version))
    counter = iter(range(10**6))
    # The broker serves what the release's broker lists: no Produce or InitProducerId newer than that.
    caps = newest_versions(KafkaVersion.parse(version))
    with TestCluster(spec) as cluster, Raw(cluster.ports[0]) as raw:
        pids = [init_pid(raw, 0)[1], init_pid(raw, min(4, caps[22]))[1], 424242]

        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(batches)
        def check(drawn: list[tuple[int, int, int, int, int]]) -> None:
            for who, epoch, seq, count, drawn_version in drawn:
                wire_version = min(drawn_version, caps[0])
                values = tuple(f"x{next(counter)}" for _ in range(count))
                batch = ProducerBatch(pids[who], epoch, seq, values)
                expected = reference.append_client(batch)
                answer = raw.call(produce_request(spec.topic, 0, batch), P.producer.ProduceResponse, wire_version)
                got = partition_answer(answer)
                want = (expected.error.code, expected.base_offset, expected.log_start_offset if wire_version >= 5 else -1)
                assert got == want, f"{batch.describe()} at Produce v{wire_version}: {expected.rule}"

        check()
        assert [r.value for r in cluster.final_log()[0]] == [r.value for r in reference.records()]


# ----------------------------------------------------------------------------- protocol surface


def test_api_versions_lists_what_is_served_and_refuses_an_unknown_version_in_v0_layout() -> None:
    with TestCluster(ClusterSpec(**ONE)) as cluster, Raw(cluster.ports[0]) as raw:  # type: ignore[arg-type]
        for version in (0, 3, 4):
            answer = raw.call(P.metadata.ApiVersionsRequest(), P.metadata.ApiVersionsResponse, version)
            assert answer.error_code == 0
            assert {k.api_key: (k.min_version, k.max_version) for k in answer.api_keys} == dict(SERVED_VERSIONS)
        correlation = raw.send_bytes(18, 9)
        answer = raw.receive(P.metadata.ApiVersionsResponse, 9)
        assert (answer.header.correlation_id, answer.error_code) == (correlation, 35)
        assert 18 in {k.api_key for k in answer.api_keys}
        assert "ApiVersions v9 unsupported" in cluster.notes[-1]


def test_before_kip_360_init_producer_id_is_served_to_v2_as_by_kafka_2_4() -> None:
    # A client learns from ApiVersions whether it may bump its own epoch (v3, 2.5 on); against
    # 2.4 it must start over with a new producer id, as real 2.4 makes it.
    for release, newest in (("2.4.1", 2), ("2.5.0", 3), ("4.3.0", 5)):
        spec = ClusterSpec(kafka_version=release, **ONE)  # type: ignore[arg-type]
        with TestCluster(spec) as cluster, Raw(cluster.ports[0]) as raw:
            answer = raw.call(P.metadata.ApiVersionsRequest(), P.metadata.ApiVersionsResponse, 3)
            assert {k.api_key: k.max_version for k in answer.api_keys}[22] == newest
            if newest == 2:
                raw.send_bytes(22, 3)
                assert raw.receive_frame() is None
                assert "InitProducerId v3 served at v0-v2 only" in cluster.notes[-1]


@pytest.mark.parametrize(("api_key", "version"), [(19, 4), (0, 2), (1, 13), (10, 3)])
def test_an_unserved_api_or_version_closes_the_connection_with_a_note(api_key: int, version: int) -> None:
    with TestCluster(ClusterSpec(**ONE)) as cluster, Raw(cluster.ports[0]) as raw:  # type: ignore[arg-type]
        raw.send_bytes(api_key, version)
        assert raw.receive_frame() is None
        assert "connection closed" in cluster.notes[-1] and f"v{version}" in cluster.notes[-1]


@pytest.mark.parametrize("version", [0, 1, 5, 9, 12])
def test_metadata_advertises_the_leaders_on_their_own_ports(version: int) -> None:
    spec = ClusterSpec(partitions=3)
    with TestCluster(spec) as cluster, Raw(cluster.ports[1]) as raw:
        cluster.apply(ClusterStep(ClusterAction.FAILOVER, partition=2))
        topics = None if version else []
        answer = raw.call(P.metadata.MetadataRequest(topics=topics), P.metadata.MetadataResponse, version)
        assert {(b.node_id, b.host, b.port) for b in answer.brokers} == {(b, "127.0.0.1", cluster.ports[b]) for b in range(3)}
        [topic] = answer.topics
        assert (topic.error_code, topic.name) == (0, spec.topic)
        leaders = {p.partition_index: (p.leader_id, list(p.replica_nodes)) for p in topic.partitions}
        assert leaders == {0: (0, [0, 1, 2]), 1: (1, [1, 2, 0]), 2: (0, [2, 0, 1])}
        missing = P.metadata.MetadataRequest(topics=[P.metadata.MetadataRequest.MetadataRequestTopic(name="nope")])
        assert raw.call(missing, P.metadata.MetadataResponse, version).topics[0].error_code == 3


def test_init_producer_id_v0_for_aiokafka_and_kip_360_fields_for_v3_plus() -> None:
    with TestCluster(ClusterSpec(**ONE)) as cluster, Raw(cluster.ports[0]) as raw:  # type: ignore[arg-type]
        err, pid, epoch = init_pid(raw, 0)
        assert (err, epoch) == (0, 0) and pid >= 0
        assert init_pid(raw, 4, producer_id=pid, producer_epoch=0) == (0, pid + 1, 0)  # a new id, as Kafka does
        assert init_pid(raw, 5, producer_id=pid, producer_epoch=-1)[0] == 42
        assert init_pid(raw, 2) == (0, pid + 2, 0)


def test_list_offsets_and_fetch_read_the_log_back_from_the_leader_only() -> None:
    spec = ClusterSpec(partitions=1)
    with TestCluster(spec) as cluster, Raw(cluster.ports[0]) as leader, Raw(cluster.ports[1]) as follower:
        pid = init_pid(leader, 4)[1]
        for seq, values in ((0, ("a", "b")), (2, ("c",))):
            answer = leader.call(produce_request(spec.topic, 0, ProducerBatch(pid, 0, seq, values)), P.producer.ProduceResponse, 9)
            assert partition_answer(answer)[0] == 0
        lo = P.consumer.ListOffsetsRequest
        for timestamp, offset in ((-2, 0), (-1, 3)):
            part = lo.ListOffsetsTopic.ListOffsetsPartition(partition_index=0, timestamp=timestamp, current_leader_epoch=-1)
            req = lo(replica_id=-1, isolation_level=0, topics=[lo.ListOffsetsTopic(name=spec.topic, partitions=[part])])
            got = leader.call(req, P.consumer.ListOffsetsResponse, 5).topics[0].partitions[0]
            assert (got.error_code, got.offset) == (0, offset)
        fr = P.consumer.FetchRequest

        def fetch(raw: Raw, offset: int) -> object:
            part = fr.FetchTopic.FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 20, current_leader_epoch=-1)
            req = fr(replica_id=-1, max_wait_ms=10, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                     topics=[fr.FetchTopic(topic=spec.topic, partitions=[part])])
            return raw.call(req, P.consumer.FetchResponse, 11).responses[0].partitions[0]

        data = fetch(leader, 1)
        assert (data.error_code, data.high_watermark) == (0, 3)  # type: ignore[attr-defined]
        with quiet():
            from kafka.record.memory_records import MemoryRecords
        records = MemoryRecords(bytes(data.records))  # type: ignore[attr-defined]
        seen = []
        while records.has_next():
            b = records.next_batch()
            seen += [(b.producer_id, b.producer_epoch, b.base_sequence, r.offset, r.value) for r in b]
        assert seen == [(pid, 0, 0, 0, b"a"), (pid, 0, 0, 1, b"b"), (pid, 0, 2, 2, b"c")]  # whole batches from the one holding offset 1
        assert fetch(follower, 0).error_code == 6  # type: ignore[attr-defined]
        assert fetch(leader, 7).error_code == 1  # type: ignore[attr-defined]


def test_acks_0_is_never_answered_and_delayed_answers_keep_request_order() -> None:
    spec = ClusterSpec(**ONE)  # type: ignore[arg-type]
    plan = FaultPlan([ProduceRule(2, Action.DELAY, delay_ms=300)])
    with TestCluster(spec, plan) as cluster, Raw(cluster.ports[0]) as raw:
        pid = init_pid(raw, 4)[1]
        raw.send(produce_request(spec.topic, 0, ProducerBatch(pid, 0, 0, ("z",)), acks=0), 9)
        delayed = raw.send(produce_request(spec.topic, 0, ProducerBatch(pid, 0, 1, ("d",))), 9)
        quick = raw.send(P.metadata.ApiVersionsRequest(), 3)
        first = raw.receive(P.producer.ProduceResponse, 9)
        assert (first.header.correlation_id, partition_answer(first)[:2]) == (delayed, (0, 1))
        assert raw.receive(P.metadata.ApiVersionsResponse, 3).header.correlation_id == quick
        events = cluster.events()
        assert [type(e) for e in events] == [Attempt, Attempt, Response]
        assert [r.value for r in cluster.final_log()[0]] == ["z", "d"]
