"""What the in-process timeout costs: one call into a ``python:`` target, direct and through
``TimedAdapter`` (the ``SIGALRM`` path in the main thread, the worker-thread path elsewhere).

    python benchmarks/bench_timeouts.py [--calls 200000]

Each call is timed alone (``time.perf_counter_ns``, garbage collector off); prints the
median and p99 in µs per path, and the overhead of each over the direct call.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "python_authorizer"))

from my_authorizer import factory

from kafka_conformance.adapters.timed import TimedAdapter, _with_thread
from kafka_conformance.reference import (
    AclOperation,
    Action,
    RequestContext,
    ResourcePattern,
    ResourceType,
    parse_principal,
)


def _time(call: Callable[[], object], calls: int) -> list[float]:
    samples = []
    gc.disable()
    try:
        for _ in range(calls):
            start = time.perf_counter_ns()
            call()
            samples.append((time.perf_counter_ns() - start) / 1000)
    finally:
        gc.enable()
    return sorted(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200_000)
    args = parser.parse_args()
    target = factory()
    target.configure({})
    target.load_snapshot({})
    target.complete_initial_load()
    context = RequestContext(parse_principal("User:alice"), "127.0.0.1")
    actions = [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "payments"))]
    timed = TimedAdapter(target, 10.0)
    paths: dict[str, Callable[[], object]] = {
        "direct": lambda: target.authorize(context, actions),
        "timed (SIGALRM, main thread)": lambda: timed.authorize(context, actions),
        "timed (worker thread)": lambda: _with_thread(lambda: target.authorize(context, actions), 10.0, "authorize()"),
    }
    results = {}
    for name, call in paths.items():
        calls = args.calls if "worker" not in name else args.calls // 10
        samples = _time(call, calls)
        results[name] = (statistics.median(samples), samples[int(len(samples) * 0.99)])
    base = results["direct"][0]
    print(f"{'path':32} {'median µs':>10} {'p99 µs':>8} {'overhead µs':>12}   ({threading.active_count()} threads)")
    for name, (median, p99) in results.items():
        print(f"{name:32} {median:10.2f} {p99:8.2f} {median - base:12.2f}")


if __name__ == "__main__":
    main()
