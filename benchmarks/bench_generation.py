"""Generation speed: authorizer scenarios per second in one process (one core).

    python benchmarks/bench_generation.py                       # 1,000 per run, seeds 0-4, every mode
    python benchmarks/bench_generation.py --count 2000 --seeds 0,1,2 --modes mixed
    python benchmarks/bench_generation.py --profile mixed       # cProfile of one run, top 25 by cumulative time
    python benchmarks/bench_generation.py --record-logs         # the record-log strategy instead

Times :func:`~kafka_conformance.corpora.hypothesis_draw.draw_examples` over the
suite's own strategy (``scenarios(caps, mode)`` for the reference at its latest
release), the path ``corpus generate`` and ``fuzz --cases`` take, so the local
constants pool is empty as it is there.  Each (mode, seed) is one run in this
process after a warm-up run that builds the cached strategies; reported per
mode: the median and the worst (slowest) seed in scenarios/s, the mean number of
ACLs, questions and by-type questions per scenario (a faster generator that draws
smaller scenarios would not be faster at all), and the load average before and
after.  CPU time (``process_time``) is reported beside wall time: on a shared
machine wall time includes being descheduled.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.domain.logs import record_logs
from kafka_conformance.authorizer.domain.strategies import MODES, scenarios
from kafka_conformance.corpora.hypothesis_draw import draw_examples


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _shape(batch: list[Scenario]) -> str:
    n = len(batch)
    acls = sum(len(s.acls) for s in batch) / n
    actions = sum(sum(len(q.actions) for q in s.queries) for s in batch) / n
    by_type = sum(len(s.by_type) for s in batch) / n
    records = sum(len(s.records) for s in batch) / n
    return f"per scenario: {acls:.1f} ACLs, {actions:.1f} actions, {by_type:.1f} by-type, {records:.1f} records"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="scenarios per run")
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--record-logs", action="store_true", help="time record_logs instead of scenarios")
    parser.add_argument("--profile", metavar="MODE", help="profile one run of this mode instead")
    parser.add_argument("--sort", default="cumulative", help="cProfile sort key (with --profile)")
    parser.add_argument("--top", type=int, default=25, help="rows to print (with --profile)")
    args = parser.parse_args()

    caps = Capabilities()

    def strategy(mode: str):  # type: ignore[no-untyped-def]
        return record_logs(caps, mode) if args.record_logs else scenarios(caps, mode)

    if args.profile:
        draw_examples(strategy(args.profile), 50, 99)
        prof = cProfile.Profile()
        prof.enable()
        draw_examples(strategy(args.profile), args.count, 0)
        prof.disable()
        pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)
        return

    print(f"{'record_logs' if args.record_logs else 'scenarios'}, {args.count} per run, "
          f"Python {sys.version.split()[0]}; before: {_load()}", flush=True)
    for mode in args.modes.split(","):
        draw_examples(strategy(mode), 50, 99)  # builds and validates the cached strategies
        wall_rates, cpu_rates = [], []
        shape = ""
        for seed in (int(s) for s in args.seeds.split(",")):
            t0, c0 = time.perf_counter(), time.process_time()
            batch = draw_examples(strategy(mode), args.count, seed)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            wall_rates.append(args.count / wall)
            cpu_rates.append(args.count / cpu)
            shape = _shape(batch)  # type: ignore[arg-type]
            print(f"  {mode} seed {seed}: {args.count / wall:.0f}/s wall, {args.count / cpu:.0f}/s CPU; {shape}",
                  flush=True)
        print(f"{mode}: median {statistics.median(wall_rates):.0f}/s, worst {min(wall_rates):.0f}/s wall; "
              f"CPU median {statistics.median(cpu_rates):.0f}/s, worst {min(cpu_rates):.0f}/s; after: {_load()}",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
