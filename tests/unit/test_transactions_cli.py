"""``check transactions`` refuses what it cannot run with exit code 2, before starting anything."""

from __future__ import annotations

import pytest

from kafka_conformance.cli.main import main


@pytest.mark.parametrize(("argv", "message"), [
    (["--broker", "nope"], "check transactions --broker takes kafka:VERSION, kafka-cluster:VERSION[:N], tansu, noida, "
                           "rdkafka-mock, kfake, bootstrap:HOST:PORT"),
    (["--broker", "kafka-cluster:2.3.0"], "transactions are modelled from Kafka 3.0.0"),
    (["--broker", "kafka-cluster:3.9.1:9"], "N is the number of brokers"),
    (["--client", "java", "--broker", "kafka:3.9.1", "--row", "coordinator-crash"],
     "coordinator-crash kills a broker: run it on kafka-cluster:VERSION (two brokers or more), not kafka:3.9.1"),
    (["--client", "java", "--broker", "kafka-cluster:3.9.1:1", "--row", "coordinator-crash"], "(two brokers or more)"),
    (["--broker", "kafka:3.9.1", "--transaction-version", "2"], "no transaction.version 2"),
    (["--broker", "bootstrap:127.0.0.1:1"], "--kafka-version"),
    (["--broker", "kfake"], "--kafka-version"),
    (["--broker", "kafka:2.8.2"], "modelled from Kafka 3.0.0"),
    (["--broker", "kafka:3.9.1", "--kafka-version", "3.5.2"], "names another release"),
    (["--broker", "kafka:3.9.1", "--row", "nosuch"], "no transaction row 'nosuch'"),
])
def test_bad_input_is_a_usage_error(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "transactions", *argv]) == 2
    assert message in capsys.readouterr().err
