"""What a broker restart costs the broker suite: seconds from asking for a restart of
``kafka:VERSION`` to the broker serving InitProducerId again, a clean stop (SIGTERM) and a
kill (SIGKILL) alternated on one broker, with one idempotent batch written before each.

    python benchmarks/bench_restart.py [--versions 3.9.1,2.4.1] [--rounds 5]

Needs the jars (``kafka-conformance fetch kafka-broker:VERSION``) and kafka-python (the
``clients`` extra).  Prints median and worst per release and kind, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from kafka_conformance.adapters.brokers.launchers import start_kafka
from kafka_conformance.adapters.brokers.wire_client import WireClient
from kafka_conformance.reference.broker.batches import ProducerBatch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--versions", default="3.9.1,2.4.1")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    print(f"{'release':8} {'kind':6} {'restart s (median / worst)':>28}")
    for version in args.versions.split(","):
        broker = start_kafka(version)
        assert broker.restart is not None
        times: dict[str, list[float]] = {"clean": [], "crash": []}
        try:
            with WireClient(broker.host, broker.port) as client:
                client.create_topic("bench")
                pid, epoch = client.init_producer_id()
            for n in range(args.rounds * 2):
                kind = "clean" if n % 2 == 0 else "crash"  # alternated, so that load drifts hit both alike
                with WireClient(broker.host, broker.port) as client:
                    client.produce("bench", 0, ProducerBatch(pid, epoch, n, [f"v{n}"]))
                began = time.monotonic()
                broker.restart(kind == "clean")
                times[kind].append(time.monotonic() - began)
        finally:
            broker.stop()
        for kind, seconds in times.items():
            print(f"{version:8} {kind:6} {statistics.median(seconds):>17.2f} / {max(seconds):.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
