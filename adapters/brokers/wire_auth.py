"""Authorization on the wire: SASL/PLAIN logins, ACLs through the Admin API, and the producer
and transaction requests whose error codes ``KafkaApis`` decides from them (issue 16).

Each function takes an open :class:`~kafka_conformance.adapters.brokers.wire_client.WireClient`
and sends exactly one request (after the login), so a suite can ask Kafka what a given user
gets for a given request, and compare it with ``reference/requests``.  The requests are
built to be answered by the authorization checks first: a producer id and epoch that need
not exist, a transaction that was never begun.  Whatever comes after the checks (an
unknown producer id, an invalid transaction state) is not authorization and is reported as
the code the broker sent.

kafka-python's protocol classes are imported inside the functions only.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import attrs

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError, encode_batch
from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.broker.batches import ProducerBatch

__all__ = [
    "AUTHORIZATION_CODES",
    "TopicCodes",
    "add_partitions_to_txn",
    "create_acls",
    "delete_acls",
    "describe_acl_count",
    "end_txn",
    "find_transaction_coordinator",
    "init_producer_id_code",
    "produce_codes",
    "sasl_plain",
    "wait_acl_count",
]

AUTHORIZATION_CODES = frozenset({29, 30, 31, 53, 55})
"""TOPIC_/GROUP_/CLUSTER_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED and OPERATION_NOT_ATTEMPTED."""


@attrs.frozen
class TopicCodes:
    """A request answered per topic (Produce, AddPartitionsToTxn v0-3): the code of each, and a
    request-level code where the response has one."""

    request: int
    topics: tuple[tuple[str, int], ...]


def sasl_plain(client: WireClient, user: str, password: str) -> None:
    """SaslHandshake v1 (PLAIN) then SaslAuthenticate: the connection is ``User:user`` from here on."""
    from kafka.protocol.sasl import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        SaslAuthenticateRequest,
        SaslAuthenticateResponse,
        SaslHandshakeRequest,
        SaslHandshakeResponse,
    )

    shake = client.request(SaslHandshakeRequest(mechanism="PLAIN"), SaslHandshakeResponse, 1)
    if shake.error_code != 0:
        raise WireError(f"broker {client.address} refused SASL PLAIN (error {shake.error_code}; offers {shake.mechanisms})")
    token = b"\0" + user.encode() + b"\0" + password.encode()
    done = client.request(SaslAuthenticateRequest(auth_bytes=token), SaslAuthenticateResponse, 1)
    if done.error_code != 0:
        raise LoginRefused(f"broker {client.address} refused the login of {user!r}: error {done.error_code} "
                           f"{done.error_message or ''}".rstrip())


class LoginRefused(WireError):
    """SaslAuthenticate answered with an error: a wrong name or password, not a broker still starting."""


def create_acls(client: WireClient, bindings: Iterable[AclBinding]) -> None:
    """CreateAcls (the caller must be allowed to ALTER the cluster); any refusal is a WireError."""
    from kafka.protocol.admin import CreateAclsRequest, CreateAclsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    creations = [
        CreateAclsRequest.AclCreation(
            resource_type=b.pattern.resource_type.code, resource_name=b.pattern.name,
            resource_pattern_type=b.pattern.pattern_type.code, principal=b.entry.principal, host=b.entry.host,
            operation=b.entry.operation.code, permission_type=b.entry.permission_type.code)
        for b in bindings
    ]
    if not creations:
        return
    response = client.request(CreateAclsRequest(creations=creations), CreateAclsResponse, 1)
    failed = [(r.error_code, r.error_message) for r in response.results if r.error_code]
    if failed:
        raise WireError(f"broker {client.address} refused to create ACLs: {failed}")


def _any_filter(request_class: object) -> object:
    return request_class(  # type: ignore[operator]
        resource_type_filter=1, resource_name_filter=None, pattern_type_filter=1, principal_filter=None,
        host_filter=None, operation=1, permission_type=1)


def describe_acl_count(client: WireClient) -> int:
    """How many ACLs the broker's authorizer holds (DescribeAcls, every resource and principal)."""
    from kafka.protocol.admin import DescribeAclsRequest, DescribeAclsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    response = client.request(_any_filter(DescribeAclsRequest), DescribeAclsResponse, 1)
    if response.error_code:
        raise WireError(f"broker {client.address} refused DescribeAcls: {response.error_code} {response.error_message}")
    return sum(len(r.acls) for r in response.resources)


def delete_acls(client: WireClient, bindings: Iterable[AclBinding]) -> None:
    """DeleteAcls of exactly ``bindings`` (one exact filter each): nothing else is touched, so
    the suite can run against a broker that holds ACLs of its own."""
    from kafka.protocol.admin import DeleteAclsRequest, DeleteAclsResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    exact = DeleteAclsRequest.DeleteAclsFilter
    filters = [exact(resource_type_filter=b.pattern.resource_type.code, resource_name_filter=b.pattern.name,
                     pattern_type_filter=b.pattern.pattern_type.code, principal_filter=b.entry.principal,
                     host_filter=b.entry.host, operation=b.entry.operation.code,
                     permission_type=b.entry.permission_type.code) for b in bindings]
    if not filters:
        return
    request = DeleteAclsRequest(filters=filters)
    response = client.request(request, DeleteAclsResponse, 1)
    failed = [(r.error_code, r.error_message) for r in response.filter_results if r.error_code]
    if failed:
        raise WireError(f"broker {client.address} refused DeleteAcls: {failed}")


def wait_acl_count(client: WireClient, count: int, timeout_s: float = 30.0) -> None:
    """Until the authorizer answering ``client`` holds ``count`` ACLs: a change is applied
    asynchronously (the metadata log under KRaft, ZooKeeper watches before)."""
    deadline = time.monotonic() + timeout_s
    while (held := describe_acl_count(client)) != count:
        if time.monotonic() >= deadline:
            raise WireError(f"broker {client.address} holds {held} ACLs after {timeout_s:.0f} s, expected {count}")
        time.sleep(0.05)


def init_producer_id_code(client: WireClient, transactional_id: str | None) -> int:
    from kafka.protocol.producer import InitProducerIdRequest, InitProducerIdResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    request = InitProducerIdRequest(transactional_id=transactional_id, transaction_timeout_ms=60000)
    return int(client.request(request, InitProducerIdResponse, client.version_for(22)).error_code)


def produce_codes(
    client: WireClient, topics: Sequence[str], *, transactional_id: str | None, producer_id: int, idempotent: bool,
    transactional: bool,
) -> TopicCodes:
    """One Produce of one batch per topic (partition 0), acks=all; the code per topic."""
    from kafka.protocol.producer import ProduceRequest, ProduceResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    data = []
    for i, topic in enumerate(topics):
        batch = ProducerBatch(producer_id if idempotent or transactional else -1, 0 if idempotent or transactional else -1,
                              0 if idempotent or transactional else -1, [f"auth-{i}"], transactional=transactional)
        part = ProduceRequest.TopicProduceData.PartitionProduceData(index=0, records=encode_batch(batch))
        data.append(ProduceRequest.TopicProduceData(name=topic, partition_data=[part]))
    request = ProduceRequest(transactional_id=transactional_id, acks=-1, timeout_ms=10000, topic_data=data)
    response = client.request(request, ProduceResponse, client.version_for(0), timeout_s=20.0)  # held up to timeout_ms
    codes = {t.name: p.error_code for t in response.responses for p in t.partition_responses}
    return TopicCodes(0, tuple((t, int(codes.get(t, -1))) for t in topics))


def add_partitions_to_txn(client: WireClient, transactional_id: str, topics: Sequence[str], producer_id: int) -> TopicCodes:
    """AddPartitionsToTxn as a client sends it (v0-3: one transaction, partition 0 of each topic)."""
    from kafka.protocol.producer import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        AddPartitionsToTxnRequest,
        AddPartitionsToTxnResponse,
    )

    version = client.version_for(24)
    topic_class = AddPartitionsToTxnRequest.fields["v3_and_below_topics"].array_of
    request = AddPartitionsToTxnRequest(
        v3_and_below_transactional_id=transactional_id, v3_and_below_producer_id=producer_id,
        v3_and_below_producer_epoch=0, v3_and_below_topics=[topic_class(name=t, partitions=[0]) for t in topics])
    response = client.request(request, AddPartitionsToTxnResponse, version)
    codes = {t.name: r.partition_error_code for t in response.results_by_topic_v3_and_below for r in t.results_by_partition}
    return TopicCodes(0, tuple((t, int(codes.get(t, -1))) for t in topics))


def end_txn(client: WireClient, transactional_id: str, producer_id: int) -> int:
    from kafka.protocol.producer import EndTxnRequest, EndTxnResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    request = EndTxnRequest(transactional_id=transactional_id, producer_id=producer_id, producer_epoch=0, committed=True)
    return int(client.request(request, EndTxnResponse, client.version_for(26)).error_code)


def find_transaction_coordinator(client: WireClient, transactional_id: str) -> int:
    from kafka.protocol.metadata import FindCoordinatorRequest, FindCoordinatorResponse  # type: ignore[import-untyped,import-not-found,unused-ignore]

    version = min(client.version_for(10), 3)
    request = FindCoordinatorRequest(key=transactional_id, key_type=1)
    return int(client.request(request, FindCoordinatorResponse, version).error_code)
