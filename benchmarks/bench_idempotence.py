"""Throughput of the idempotence reference: batches per second through the broker
model, and traces per second through the delivery checker.

    python benchmarks/bench_idempotence.py [--batches 20000] [--traces 2000] [--sends 50]

Prints a Markdown table.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import time

from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import broker_profile
from kafka_conformance.reference.delivery.checker import check_delivery
from kafka_conformance.reference.delivery.run import DeliveryConfig
from kafka_conformance.reference.traces.events import Acked, Send


def bench_batches(count: int, version: str) -> float:
    """In-order batches of 5 records with every tenth batch retried (a duplicate)."""
    log = PartitionLog(broker_profile(version))
    sequence, started = 0, time.perf_counter()
    for n in range(count):
        batch = ProducerBatch(1000, 0, sequence, tuple(f"v{n}-{i}" for i in range(5)))
        log.append_client(batch)
        if n % 10 == 0:
            log.append_client(batch)  # a retry: answered from the five-batch window
        sequence += 5
    return count / (time.perf_counter() - started)


def bench_traces(count: int, sends: int) -> float:
    """Traces of ``sends`` single-record sends, each acknowledged, checked against the log."""
    log = PartitionLog(broker_profile("4.3.0"))
    trace: list[Send | Acked] = []
    for n in range(sends):
        response = log.append_client(ProducerBatch(1000, 0, n, (f"v{n}",)))
        trace += [Send(f"v{n}", time_ms=n), Acked(f"v{n}", response.base_offset, time_ms=n)]
    final = {0: log.records()}
    config = DeliveryConfig()
    started = time.perf_counter()
    for _ in range(count):
        check_delivery(trace, final, config, end_ms=sends)
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batches", type=int, default=20_000)
    parser.add_argument("--traces", type=int, default=2_000)
    parser.add_argument("--sends", type=int, default=50)
    args = parser.parse_args()
    print("| measurement | rate |")
    print("|---|---:|")
    for version in ("2.4.0", "4.3.0"):
        print(f"| broker model {version}: batches/s (5 records, 10% retried) | {bench_batches(args.batches, version):,.0f} |")
    print(f"| delivery checker: traces/s ({args.sends} sends each) | {bench_traces(args.traces, args.sends):,.0f} |")


if __name__ == "__main__":
    main()
