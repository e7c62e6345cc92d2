"""Admin requests a cluster run needs: a topic with chosen replicas, a reassignment, a
preferred-leader election (KIP-455, KIP-460).  Functions over an open
:class:`~kafka_conformance.adapters.brokers.wire_client.WireClient`; kafka-python is
imported inside them only."""

from __future__ import annotations

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

__all__ = ["create_assigned_topic", "elect_preferred", "reassign"]


def _held(timeout_s: float) -> float:
    """How long to wait for the answer to a request that carries ``timeout_ms = timeout_s``:
    the broker may hold it that long (a ZooKeeper-mode election under load took over 10 s, the
    connection's own timeout), and then it still has to answer."""
    return timeout_s + 10.0


def create_assigned_topic(
    client: WireClient, name: str, assignments: dict[int, list[int]], *, configs: dict[str, str] | None = None,
    timeout_s: float = 30.0,
) -> dict[int, int]:
    """Create ``name`` with the replicas of each partition given (the first is the preferred
    leader) and topic ``configs``; wait until every partition has a leader."""
    from kafka.protocol.admin import CreateTopicsRequest, CreateTopicsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    creatable = CreateTopicsRequest.CreatableTopic
    topic = creatable(
        name=name, num_partitions=-1, replication_factor=-1,
        assignments=[creatable.CreatableReplicaAssignment(partition_index=p, broker_ids=list(r))
                     for p, r in sorted(assignments.items())],
        configs=[creatable.CreatableTopicConfig(name=k, value=v) for k, v in (configs or {}).items()],
    )
    response = client.request(CreateTopicsRequest(topics=[topic], timeout_ms=int(timeout_s * 1000)),
                              CreateTopicsResponse, client.version_for(19), timeout_s=_held(timeout_s))
    for result in response.topics:
        if result.error_code not in (0, 36):
            detail = f"error {result.error_code} {result.error_message or ''}".rstrip()
            raise WireError(f"broker {client.address} refused to create topic {name!r}: {detail}")
    return client.wait_for_leaders(name, len(assignments), timeout_s=timeout_s)

def reassign(client: WireClient, topic: str, partition: int, replicas: list[int], *, timeout_s: float = 30.0) -> None:
    """AlterPartitionReassignments (KIP-455) of one partition to ``replicas``, in that order."""
    from kafka.protocol.admin import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        AlterPartitionReassignmentsRequest,
        AlterPartitionReassignmentsResponse,
    )

    req_topic = AlterPartitionReassignmentsRequest.ReassignableTopic
    request = AlterPartitionReassignmentsRequest(timeout_ms=int(timeout_s * 1000), topics=[req_topic(
        name=topic, partitions=[req_topic.ReassignablePartition(partition_index=partition, replicas=replicas)])])
    response = client.request(request, AlterPartitionReassignmentsResponse, client.version_for(45), timeout_s=_held(timeout_s))
    errors = [(p.error_code, p.error_message) for t in response.responses for p in t.partitions if p.error_code]
    if response.error_code or errors:
        raise WireError(f"broker {client.address} refused to reassign {topic}-{partition} to {replicas}: "
                        f"{response.error_code} {response.error_message or ''} {errors}".rstrip())

def elect_preferred(client: WireClient, topic: str, partition: int, *, timeout_s: float = 30.0) -> None:
    """ElectLeaders (KIP-460), PREFERRED, for one partition; "already the preferred leader" is no error."""
    from kafka.protocol.admin import ElectLeadersRequest, ElectLeadersResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    version = client.version_for(43)
    request = ElectLeadersRequest(election_type=0, timeout_ms=int(timeout_s * 1000), topic_partitions=[
        ElectLeadersRequest.TopicPartitions(topic=topic, partitions=[partition])])
    response = client.request(request, ElectLeadersResponse, version, timeout_s=_held(timeout_s))
    errors = [(p.error_code, p.error_message) for r in response.replica_election_results
              for p in r.partition_result if p.error_code not in (0, 84)]  # 84 ELECTION_NOT_NEEDED
    if getattr(response, "error_code", 0) or errors:
        raise WireError(f"broker {client.address} refused to elect the preferred leader of {topic}-{partition}: {errors}")
