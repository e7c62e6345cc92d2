"""Wire traces per second for each real producer client against each broker.

    python benchmarks/bench_clients.py                    # every installed client, 3 rounds, the test broker
    python benchmarks/bench_clients.py --rounds 5 --client aiokafka
    python benchmarks/bench_clients.py --client kafka-python --rounds 5 --kafka-version 3.9.1 \
        --broker test-broker:3.9.1 --broker tansu --broker kafka:3.9.1 --broker kafka-cluster:3.9.1

Each round runs two fixed traces through one client, one real run each (fresh
producer, the final log read back, the checker run).  The Python brokers start
afresh for every trace; Apache Kafka (``kafka:``, ``kafka-cluster:``) starts once
per client and broker and serves every trace on a topic of its own, as the trace
table and ``check producer`` run it, so its first trace carries the start-up and
is reported apart:

* **clean**: five sends, a flush, five more (no fault): the floor of a run,
  i.e. what starting a cluster and a producer and judging the run costs;
* **lost response**: the first produce answer is dropped, so the client
  waits ``request.timeout.ms`` (1500 ms) before its retry is deduplicated:
  what one fault costs, dominated by the client's own timeout.

The model engine (``--client model``) runs the same traces in simulated time,
for comparison.  Printed as a Markdown table: traces/s (from the median), the
median and worst seconds per trace, and the first trace's seconds.  Not a test:
no assertions.
"""

from __future__ import annotations

import argparse
import logging
import platform
import statistics
import time

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.producer.check import run_and_judge
from kafka_conformance.producer.clients import CLIENTS, REAL_CLIENTS, resolve_client
from kafka_conformance.producer.engines import shared_brokers
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

CLEAN = ProducerTrace([*(SendStep(f"a{i}") for i in range(5)), FlushStep(), *(SendStep(f"b{i}") for i in range(5))], name="clean")
LOST = ProducerTrace([SendStep("a"), SendStep("b"), FlushStep(), SendStep("c")], FaultPlan([ProduceRule(1, Action.DROP_RESPONSE)]),
                     name="lost response")


def _bench(client: str, broker: str, kafka_version: str, rounds: int) -> list[tuple[str, float, list[float], str]]:
    """Per trace: the first run's seconds, the other runs' seconds, the last verdict."""
    out = []
    with shared_brokers():
        for trace in (CLEAN, LOST):
            times = []
            status = ""
            for _ in range(rounds + 1):
                started = time.perf_counter()
                result = run_and_judge(trace, client, broker=broker, kafka_version=kafka_version, name=trace.name)
                times.append(time.perf_counter() - started)
                status = result.summary()
            out.append((trace.name, times[0], times[1:], status))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="timed runs per trace, after the first")
    parser.add_argument("--client", action="append", choices=CLIENTS, help="default: every real client installed, then the model")
    parser.add_argument("--broker", action="append", help="broker spec (repeatable); default test-broker")
    parser.add_argument("--kafka-version", default="4.3.0")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    logging.disable(logging.WARNING)  # the clients log every injected fault
    clients = args.client or [*REAL_CLIENTS, "model"]
    brokers = args.broker or ["test-broker"]
    print(f"python {platform.python_version()}, {platform.machine()}, {args.rounds} rounds per trace after the first\n")
    print("| client | broker | trace | traces/s | s/trace (median / worst) | first s | verdict |")
    print("|---|---|---|---:|---|---:|---|")
    for client in clients:
        if client != "model":
            try:
                resolve_client(client)
            except TargetError as exc:
                print(f"| {client} | - | - | - | - | - | not installed: {exc} |")
                continue
        for broker in brokers if client != "model" else ["model"]:
            for name, first, times, status in _bench(client, broker, args.kafka_version, args.rounds):
                median = statistics.median(times)
                print(f"| {client} | {broker} | {name} | {1 / median:.2f} | {median:.2f} / {max(times):.2f} | {first:.2f} | {status} |",
                      flush=True)


if __name__ == "__main__":
    main()
