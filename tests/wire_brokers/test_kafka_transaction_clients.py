"""Real transactional producers (Apache Kafka's Java client, confluent-kafka, kafka-python, aiokafka,
franz-go, sarama) behind the fault proxy, on real Kafka.

The Jepsen shape (a Produce held in the network until its transaction has ended) with a real
client: before KIP-890 (3.5.2) the late request is written, into a transaction nobody ends or
into the next one, although the client bumped its epoch after giving the batch up; from 3.6 the
partition leader's verification asks the coordinator, which knows the new epoch, and the late
request is refused.  The rows without a fault hold everywhere.
"""

from __future__ import annotations

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.options import Options
from kafka_conformance.transactions.clients import TXN_CLIENTS, check_transaction_client
from kafka_conformance.transactions.report import render_client_text


def _need(client: str, version: str) -> None:
    reason = kafka_broker_reason(version) or TXN_CLIENTS[client]().available()
    if reason is not None:
        pytest.skip(f"kafka:{version} with {client}: {reason}")


@pytest.mark.parametrize(("client", "release", "after_abort", "into_next"), [
    ("java", "3.5.2", ("hanging-transaction",), ("aborted-read",)),
    ("java", "3.9.1", (), ()),
    ("java", "4.3.1", (), ()),
    ("confluent-kafka", "3.5.2", ("hanging-transaction",), ("aborted-read",)),
    ("confluent-kafka", "3.9.1", (), ()),
    ("sarama", "3.5.2", ("hanging-transaction",), ("aborted-read",)),
])
def test_a_client_meets_a_late_produce(client: str, release: str, after_abort: tuple[str, ...],
                                       into_next: tuple[str, ...]) -> None:
    _need(client, release)
    rows = None if release == "3.5.2" else ["lost-produce", "late-produce-after-abort", "late-produce-into-next"]
    report = check_transaction_client(client, f"kafka:{release}", Options(), rows=rows)
    text = render_client_text(report)
    results = {r.name: r for r in report.rows}
    assert not any(r.error for r in report.rows), text
    assert results["late-produce-after-abort"].anomalies == after_abort, text
    assert results["late-produce-into-next"].anomalies == into_next, text
    assert results["lost-produce"].holds, text
    for name in ("late-produce-after-abort", "late-produce-into-next"):
        assert results[name].outcomes[0].startswith("t1 commit refused") and "then aborted" in results[name].outcomes[0]
        (late,) = results[name].late
        assert late.startswith("'a0' to partition 0: ")
        assert ("without an error" in late) == bool(results[name].anomalies), text
    if release == "3.5.2":
        assert all(results[name].holds for name in ("commit", "abort", "two-transactions")), text
        assert report.exit_code == 1
    else:
        assert report.exit_code == 0, text


def test_kafka_python_commits_a_transaction_whose_batch_expired() -> None:
    """kafka-python 3.0.12 fails an expired batch without making the transaction abortable, so the
    commit succeeds without the write (docs/findings.md, entry 21)."""
    _need("kafka-python", "3.9.1")
    report = check_transaction_client("kafka-python", "kafka:3.9.1", Options(),
                                      rows=["commit", "lost-produce", "late-produce-after-abort"])
    text = render_client_text(report)
    results = {r.name: r for r in report.rows}
    assert results["commit"].holds, text
    # after the first, its next transaction's commit is refused PRODUCER_FENCED: it cannot go on
    assert results["lost-produce"].anomalies == ("committed-unacknowledged-write", "transaction-not-ended"), text
    assert results["late-produce-after-abort"].anomalies == ("committed-unacknowledged-write",), text
    for name in ("lost-produce", "late-produce-after-abort"):
        assert results[name].outcomes[0] == "t1 committed", text
        assert "its send of 'a0' to partition 0 failed without saying whether it was written" in results[name].explanations[0]
    (late,) = results["late-produce-after-abort"].late
    assert late == "'a0' to partition 0: INVALID_TXN_STATE (48)", text  # 3.6+ verification keeps it out of the log


def test_franz_go_refuses_to_commit_over_a_refused_send() -> None:
    """franz-go, like aiokafka, waits the hold out and commits its first transaction; in the next, after
    3.6+ refused a batch 45 (KAFKA-14920), it refuses the commit and the application aborts: no anomaly,
    where aiokafka commits (entry 22)."""
    _need("franz-go", "3.9.1")
    report = check_transaction_client("franz-go", "kafka:3.9.1", Options(), rows=["late-produce-into-next"])
    text = render_client_text(report)
    (row,) = report.rows
    assert row.holds, text
    assert row.outcomes[0] == "t1 committed" and row.outcomes[1].startswith("t2 commit refused (OPERATION_NOT_ATTEMPTED"), text
    assert row.outcomes[1].endswith("then aborted"), text


@pytest.mark.parametrize(("release", "anomalies"), [("3.5.2", ()), ("3.9.1", ("transaction-not-ended",))])
def test_a_stale_duplicate_costs_the_java_producer_its_life_from_3_6(release: str, anomalies: tuple[str, ...]) -> None:
    """The held request is a batch whose retry was written and committed; it arrives once the next
    transaction has begun and is answered as a duplicate.  From 3.6 the duplicate leaves its
    verification sequence behind (KAFKA-14920), the next batch is refused 45, and the Java client
    takes OutOfOrderSequenceException as fatal: the producer cannot go on."""
    _need("java", release)
    report = check_transaction_client("java", f"kafka:{release}", Options(), rows=["late-retry-into-next"])
    text = render_client_text(report)
    (row,) = report.rows
    assert row.late == ("'a0' to partition 0: answered without an error (offset 0)",), text
    assert row.anomalies == anomalies, text
    assert row.outcomes[0] == "t1 committed", text
    if anomalies:
        assert "OutOfOrderSequenceException" in row.outcomes[1], text


def test_aiokafka_commits_a_transaction_whose_send_was_refused() -> None:
    """aiokafka never gives the held batch up, so its retry gets through once the path heals and its
    first transaction commits; the held request then lands as a duplicate in the next transaction,
    after which 3.6+ refuses the next batch 45 (KAFKA-14920, as the spec's model says), and aiokafka
    commits that transaction anyway (docs/findings.md, entry 22)."""
    _need("aiokafka", "3.9.1")
    report = check_transaction_client("aiokafka", "kafka:3.9.1", Options(), rows=["late-produce-into-next"])
    text = render_client_text(report)
    (row,) = report.rows
    assert row.outcomes == ("t1 committed", "t2 committed"), text
    assert row.late == ("'a0' to partition 0: answered without an error (offset 0)",), text
    assert row.anomalies == ("committed-unacknowledged-write",), text
    assert "its send of 'b0' to partition 0 failed (OutOfOrderSequenceNumber" in row.explanations[0], text


@pytest.mark.parametrize(("client", "release", "refusal"), [
    ("java", "4.3.1", "InvalidTxnStateException"),  # transaction.version 2: CompleteAbort one epoch on, 48
    ("confluent-kafka", "3.9.1", "_FENCED"),  # transaction.version 1: PRODUCER_FENCED
])
def test_a_commit_after_the_coordinator_timed_the_transaction_out_is_refused(client: str, release: str,
                                                                             refusal: str) -> None:
    _need(client, release)
    report = check_transaction_client(client, f"kafka:{release}", Options(), rows=["stall-past-timeout"])
    text = render_client_text(report)
    [row] = report.rows
    assert row.holds and report.exit_code == 0, text
    assert row.outcomes[0].startswith("t1 commit refused") and refusal in row.outcomes[0], text
    assert row.outcomes[0].endswith("the coordinator had aborted it at its timeout"), text
    assert any("the coordinator aborted the transaction (CompleteAbort" in n for n in row.notes), text
