"""Wire traces per second for each real producer client against the Python test broker.

    python benchmarks/bench_clients.py                    # every installed client, 3 rounds
    python benchmarks/bench_clients.py --rounds 5 --client aiokafka

Each round runs two fixed traces through one client, one real run each
(fresh broker, fresh producer, the final log read back, the checker run):

* **clean**: five sends, a flush, five more (no fault): the floor of a run,
  i.e. what starting a cluster and a producer and judging the run costs;
* **lost response**: the first produce answer is dropped, so the client
  waits ``request.timeout.ms`` (1500 ms) before its retry is deduplicated:
  what one fault costs, dominated by the client's own timeout.

The model engine (``--client model``) runs the same traces in simulated time,
for comparison.  Printed as a Markdown table: traces/s and mean seconds per
trace.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import logging
import platform
import statistics
import time

from kafka_conformance.producer.check import run_and_judge
from kafka_conformance.producer.clients import CLIENTS, REAL_CLIENTS, ClientSpecError, resolve_client
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep

CLEAN = ProducerTrace([*(SendStep(f"a{i}") for i in range(5)), FlushStep(), *(SendStep(f"b{i}") for i in range(5))], name="clean")
LOST = ProducerTrace([SendStep("a"), SendStep("b"), FlushStep(), SendStep("c")], FaultPlan([ProduceRule(1, Action.DROP_RESPONSE)]),
                     name="lost response")


def _bench(client: str, trace: ProducerTrace, rounds: int) -> tuple[float, str]:
    times = []
    status = ""
    for _ in range(rounds):
        started = time.perf_counter()
        result = run_and_judge(trace, client, broker="test-broker", kafka_version="4.3.0", name=trace.name)
        times.append(time.perf_counter() - started)
        status = result.summary()
    return statistics.mean(times), status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--client", action="append", choices=CLIENTS, help="default: every real client installed, then the model")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the clients log every injected fault
    clients = args.client or [*REAL_CLIENTS, "model"]
    print(f"python {platform.python_version()}, {platform.machine()}, {args.rounds} rounds per trace\n")
    print("| client | trace | traces/s | s/trace | verdict |")
    print("|---|---|---|---|---|")
    for client in clients:
        if client != "model":
            try:
                resolve_client(client)
            except ClientSpecError as exc:
                print(f"| {client} | - | - | - | not installed: {exc} |")
                continue
        for trace in (CLEAN, LOST):
            mean, status = _bench(client, trace, args.rounds)
            print(f"| {client} | {trace.name} | {1 / mean:.2f} | {mean:.2f} | {status} |")


if __name__ == "__main__":
    main()
