"""Apache Kafka's own broker as the kit starts it (``kafka:VERSION``): seconds from launch to
serving InitProducerId (format included), resident memory once ready, seconds to stop.

    python benchmarks/bench_kafka_broker.py [--versions 3.9.1,4.3.1] [--starts 3]

Needs the jars (``kafka-conformance fetch kafka-broker:VERSION``) and kafka-python (the
``clients`` extra).  Prints median and worst per release.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from kafka_conformance.adapters.brokers.launchers import start_kafka


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--versions", default="3.9.1,4.3.1")
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    print(f"{'release':8} {'start s (median / worst)':>26} {'RSS MB (median / worst)':>25} {'stop s (median / worst)':>25}")
    for version in args.versions.split(","):
        starts, rss, stops = [], [], []
        for _ in range(args.starts):
            began = time.monotonic()
            broker = start_kafka(version)
            starts.append(time.monotonic() - began)
            assert broker.pid is not None
            rss.append(_rss_mb(broker.pid))
            began = time.monotonic()
            broker.stop()
            stops.append(time.monotonic() - began)
        print(f"{version:8} {statistics.median(starts):12.2f} / {max(starts):5.2f} {statistics.median(rss):15.0f} / {max(rss):5.0f}"
              f" {statistics.median(stops):15.2f} / {max(stops):5.2f}")


if __name__ == "__main__":
    main()
