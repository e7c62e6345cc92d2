"""Traces per second through the in-process model engine.

    python benchmarks/bench_traces.py                    # the default table
    python benchmarks/bench_traces.py --traces 500 --sends 20 --seed 3

Rows, printed as a Markdown table:

* **table** - every row of the trace table (conformance/producer/trace_table.py), run
  once each, repeated; what the oracle costs per wire-run comparison.
* **generated, N sends** - traces drawn by ``producer_traces(max_sends=N)``
  (drawn once, up front, so the figure is the engine alone): the application's
  sends plus fault-plan rules and cluster faults, configurations inside and
  outside the guarantee.
* **20 sends, lost responses** - twenty sends, every fourth answer dropped (each
  costs a request timeout, a disconnect and in-order retries): the retry path.
* **stateful machine** - ``ProducerTraceMachine`` runs (step-by-step engine with
  an invariant check after every step).

Each engine run includes the delivery checker on the result.  Not a test: no
assertions; figures depend on the machine (give the lead the command and the table).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable, Sequence

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from kafka_conformance.producer.machine import ProducerTraceMachine
from kafka_conformance.producer.model_engine import run_model
from kafka_conformance.producer.strategies import producer_traces
from kafka_conformance.producer.trace_table import TRACE_TABLE
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, ProduceRule
from kafka_conformance.reference.traces.program import FlushStep, ProducerTrace, SendStep


def draw(strategy: st.SearchStrategy[ProducerTrace], count: int, at: int) -> list[ProducerTrace]:
    out: list[ProducerTrace] = []

    @seed(at)
    @settings(max_examples=count, database=None, deadline=None, phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(trace: ProducerTrace) -> None:
        out.append(trace)

    collect()
    return out[:count]


def timed(traces: Sequence[ProducerTrace]) -> tuple[float, float]:
    """(traces/s, mean sends per trace)."""
    started = time.perf_counter()
    for trace in traces:
        run_model(trace)
    elapsed = time.perf_counter() - started
    sends = sum(len(t.sends) for t in traces) / max(1, len(traces))
    return len(traces) / elapsed, sends


def lost_responses(n: int) -> ProducerTrace:
    sends = [SendStep(f"v{i}") for i in range(n)]
    rules = [ProduceRule(k, Action.DROP_RESPONSE) for k in range(1, n + 1, 4)]
    return ProducerTrace([*sends, FlushStep()], FaultPlan(rules))


def machine_runs(count: int) -> float:
    runner: Callable[[], None] = ProducerTraceMachine.TestCase().runTest
    ProducerTraceMachine.TestCase.settings = settings(
        max_examples=count,
        stateful_step_count=25,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.generate,),
    )
    started = time.perf_counter()
    runner()
    return count / (time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=300, help="generated traces per row (default 300)")
    parser.add_argument("--sends", type=int, default=20, help="most sends of the large generated row (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows: list[tuple[str, float, float]] = []
    table = [r.trace for r in TRACE_TABLE] * max(1, args.traces // len(TRACE_TABLE))
    rows.append(("trace table (all rows)", *timed(table)))
    for n in (8, args.sends):
        rows.append((f"generated, up to {n} sends", *timed(draw(producer_traces(max_sends=n), args.traces, args.seed))))
    rows.append(("20 sends, every 4th answer lost", *timed([lost_responses(20)] * max(1, args.traces // 3))))
    print(f"python {sys.version.split()[0]} on {platform.machine()} ({platform.system()}), seed {args.seed}\n")
    print("| workload | traces/s | mean sends/trace |")
    print("|---|---:|---:|")
    for name, rate, sends in rows:
        print(f"| {name} | {rate:,.0f} | {sends:.1f} |")
    print(f"| stateful machine (25 steps, invariants each step) | {machine_runs(max(10, args.traces // 10)):,.1f} | - |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
