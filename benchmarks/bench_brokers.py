"""Crafted broker cases per second: the reference model in-process, the Python test broker, each real broker.

    python benchmarks/bench_brokers.py                   # 300 cases, every broker that runs here
    python benchmarks/bench_brokers.py --cases 1000 --brokers tansu,noida

The same fixed list of cases (drawn once, derandomized, from the strategy
``check broker`` uses) is run against each target with ``run_case``: a fresh
topic (or, on the test broker, fresh producer ids on its fixed partition),
InitProducerId per allocated producer, every Produce, then ListOffsets and a
Fetch of the log, each answer compared with the model.  "model" is the
reference ``PartitionLog`` alone (no wire), the floor under every other row.
Start-up is the time until the broker answers ApiVersions.  Printed as a
Markdown table; not a test, no assertions.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from hypothesis import HealthCheck, Phase, given, settings

from kafka_conformance.adapters.brokers.launchers import available
from kafka_conformance.adapters.brokers.wire_client import WireClient
from kafka_conformance.broker.cases import BrokerCase
from kafka_conformance.broker.compare import run_case
from kafka_conformance.broker.strategies import broker_cases
from kafka_conformance.broker.targets import open_broker_target
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import BrokerProfile, broker_profile


def draw_cases(profile: BrokerProfile, count: int) -> list[BrokerCase]:
    drawn: list[BrokerCase] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(broker_cases(profile))
    def collect(case: BrokerCase) -> None:
        drawn.append(case)

    collect()
    return drawn


def model_only(cases: list[BrokerCase], profile: BrokerProfile) -> float:
    started = time.perf_counter()
    for n, case in enumerate(cases):
        log = PartitionLog(profile)
        pids = range(n * 10, n * 10 + len(case.slots))
        for i, b in enumerate(case.batches):
            log.append_client(b.to_batch(pids[b.producer], "bench", i))
        log.records()
    return time.perf_counter() - started


def on_broker(spec: str, cases: list[BrokerCase], profile: BrokerProfile) -> tuple[float, float, int]:
    """(start-up s, run s, cases that diverged)."""
    started = time.perf_counter()
    with open_broker_target(spec) as handle:
        up = time.perf_counter() - started
        diverged = 0
        with WireClient(handle.host, handle.port) as client:
            began = time.perf_counter()
            for case in cases:
                run = run_case(client, case, profile, shared_topic=handle.shared_topic)
                diverged += bool(run.divergences)
            elapsed = time.perf_counter() - began
    return up, elapsed, diverged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--kafka-version", default="4.3.0")
    parser.add_argument("--brokers", default="test-broker,tansu,noida,rdkafka-mock")
    args = parser.parse_args()
    profile = broker_profile(args.kafka_version)
    cases = draw_cases(profile, args.cases)
    steps = [len(c.batches) for c in cases]
    print(f"# broker cases/s — {len(cases)} cases, {statistics.mean(steps):.1f} produce requests per case on average; "
          f"Python {platform.python_version()}, {platform.machine()}\n")
    print("| target | start-up | cases/s | produce requests/s | cases that diverged |")
    print("|---|---|---|---|---|")
    model_s = model_only(cases, profile)
    print(f"| reference model (in-process) | — | {len(cases) / model_s:,.0f} | {sum(steps) / model_s:,.0f} | — |")
    runnable = available()
    for spec in args.brokers.split(","):
        if spec in runnable and not runnable[spec].ok:
            print(f"| {spec} | not available: {runnable[spec].reason} | | | |")
            continue
        up, run_s, diverged = on_broker(spec, cases, profile)
        print(f"| {spec} | {up * 1000:.0f} ms | {len(cases) / run_s:,.0f} | {sum(steps) / run_s:,.0f} | {diverged} |")


if __name__ == "__main__":
    main()
