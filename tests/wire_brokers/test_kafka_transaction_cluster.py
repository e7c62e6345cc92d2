"""Transactions on a real Apache Kafka cluster (``check transactions --broker kafka-cluster:VERSION``).

On a cluster the transaction coordinator and the partitions' leaders are different brokers, so
the kit's own transactional producer must send each request where a client would (FindCoordinator,
Metadata), and a client row can kill the coordinator mid-transaction: the client must commit
through the broker that takes the transaction log over.  One cluster serves the module.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.transactions.check import BrokerAt, broker_address

RELEASE = "3.9.1"


@pytest.fixture(scope="module")
def cluster_at() -> Iterator[BrokerAt]:
    pytest.importorskip("kafka")
    reason = kafka_broker_reason(RELEASE)
    if reason is not None:
        pytest.skip(f"kafka:{RELEASE}: {reason}")
    with broker_address(f"kafka-cluster:{RELEASE}") as at:
        yield at
        processes = at.cluster.processes()  # the controller and every broker, taken while they run
    assert len(processes) == 4 and all(not p.running() for p in processes)


def test_the_kit_sends_each_request_to_the_broker_that_answers_it(cluster_at: BrokerAt) -> None:
    from kafka_conformance.adapters.brokers.wire_routes import Routes
    from kafka_conformance.adapters.brokers.wire_txn import run_script_on_broker
    from kafka_conformance.reference.transactions.model import run_model
    from kafka_conformance.reference.transactions.profile import txn_profile
    from kafka_conformance.reference.transactions.table import txn_row
    from kafka_conformance.transactions.check import compare_runs

    assert cluster_at.replication_factor == 3 and cluster_at.create_topic is not None
    cluster_at.create_topic("spread", 2)
    with Routes(cluster_at.host, cluster_at.port) as routes:
        leaders = [routes.leader("spread", p).port for p in (0, 1)]
        coordinator = routes.coordinator("kit-spread").port
    ports = [n.port for n in cluster_at.cluster.nodes]
    # placed by the kit, the same on every run: partition p on broker p, the coordinator on broker 2
    assert (leaders, coordinator) == (ports[:2], ports[2])

    script = txn_row("commit").script
    real = run_script_on_broker(script, cluster_at.host, cluster_at.port, topic="txn-cluster-commit",
                                transactional_id="kit-cluster-commit", replication_factor=3)
    assert compare_runs(real, run_model(script, txn_profile(RELEASE))) == ()


def test_a_client_commits_through_the_coordinator_that_takes_over(cluster_at: BrokerAt) -> None:
    from kafka_conformance.adapters.brokers.wire_routes import Routes
    from kafka_conformance.transactions.client_rows import client_txn_row
    from kafka_conformance.transactions.clients import TXN_CLIENTS, run_client_row

    client = TXN_CLIENTS["java"]()
    reason = client.available()
    if reason is not None:
        pytest.skip(f"java: {reason}")
    cluster = cluster_at.cluster
    result = run_client_row(client_txn_row("coordinator-crash"), client, cluster_at.host, cluster_at.port,
                            replication_factor=3, cluster=cluster)
    assert result.holds, result
    assert result.outcomes == ("t1 committed", "t2 committed")
    assert any("the coordinator, was killed (SIGKILL)" in n for n in result.notes), result.notes
    assert cluster.live_nodes() == [0, 1, 2]  # the killed broker runs again for whatever comes next
    with Routes(cluster_at.host, cluster_at.port) as routes:  # and leads the transaction log again
        assert routes.coordinator("kit-after-crash").port == cluster.nodes[2].port


def test_a_row_that_kills_a_broker_is_refused_without_a_cluster() -> None:
    from kafka_conformance.transactions.client_rows import client_txn_row
    from kafka_conformance.transactions.clients import TXN_CLIENTS, run_client_row

    with pytest.raises(ValueError, match="runs on a cluster"):
        run_client_row(client_txn_row("coordinator-crash"), TXN_CLIENTS["java"](), "127.0.0.1", 1)
