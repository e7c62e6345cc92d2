"""Cases per second on the stored-corpus path, in one process (what ``fuzz --corpus DIR
--no-spark`` does: read the Parquet shards, decode, check every case against the target and
the reference, write the verdict files).

    kafka-conformance corpus generate --suite authorizer --cases 20000 --seed 0 --out /tmp/corpus
    python benchmarks/bench_corpus.py --corpus /tmp/corpus
    python benchmarks/bench_corpus.py --corpus /tmp/corpus --targets reference,reference-indexed,cmd:... --repeat 5
    python benchmarks/bench_corpus.py --corpus /tmp/corpus-cmd --targets cmd:... --round-trips

Each target runs the whole corpus ``--repeat`` times, each time into a fresh run directory;
reported: cases/s per run (median and worst) on the wall clock and on this process's CPU time
(cases per CPU-second: per core, and far less disturbed by other work on a shared machine),
the per-case cost in µs, and the load average after each target.  To compare two versions of the kit, run the script under each one on the
same corpus, back to back (``PYTHONPATH`` pointing at the other version's package).  Not a
test: no assertions.

``--round-trips`` runs each ``cmd:`` target once more, counting the writes to its process
(each one round trip) by the operations they carry: a figure that does not depend on the
machine's load.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from kafka_conformance.corpora.fuzz import FuzzSpec, run_inline, start_run
from kafka_conformance.corpora.generate import load_corpus


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f} (1/5 min) on {os.cpu_count()} cores"


def run_once(corpus: Path, target: str, work: Path) -> tuple[float, float]:
    cases = load_corpus(corpus)
    out = work / f"run-{time.monotonic_ns()}"
    spec = FuzzSpec(str(out), target, cases, str(corpus.resolve()))
    todo = start_run(spec)
    started, cpu = time.perf_counter(), time.process_time()
    run_inline(spec, todo)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    shutil.rmtree(out, ignore_errors=True)
    return cases.cases / seconds, cases.cases / cpu_seconds


def count_round_trips(corpus: Path, target: str, work: Path) -> tuple[int, collections.Counter[str]]:
    """Cases, and the writes to the implementation's process by the operations each carried."""
    from kafka_conformance.adapters.jsonlines import process

    writes: collections.Counter[str] = collections.Counter()
    exchange = process.ImplementationProcess.exchange

    def counted(self: process.ImplementationProcess, requests: list[dict[str, object]]) -> list[dict[str, object]]:
        writes["+".join(str(r.get("op", "?")) for r in requests)] += 1
        return exchange(self, requests)

    process.ImplementationProcess.exchange = counted  # type: ignore[method-assign,assignment]
    try:
        run_once(corpus, target, work)
    finally:
        process.ImplementationProcess.exchange = exchange  # type: ignore[method-assign]
    return load_corpus(corpus).cases, writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--targets", default="reference,reference-indexed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--round-trips", action="store_true", help="also count the round trips of each cmd: target")
    args = parser.parse_args()
    import kafka_conformance

    cases = load_corpus(args.corpus)
    print(f"{cases.cases} {cases.suite} cases ({dict(cases.settings_map).get('mode')}, "
          f"Kafka {dict(cases.settings_map).get('kafka_version')}); CPython {platform.python_version()}; "
          f"kit at {Path(kafka_conformance.__file__).resolve().parent.parent}; {_load()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="kc-bench-corpus-"))
    try:
        for target in args.targets.split(","):
            runs = [run_once(args.corpus, target, work) for _ in range(args.repeat)]
            for clock, rates in (("wall", [w for w, _ in runs]), ("cpu", [c for _, c in runs])):
                median = statistics.median(rates)
                print(f"{target:<20} {clock:<4} median {median:7.0f} cases/s ({1e6 / median:5.0f} µs/case), "
                      f"worst {min(rates):7.0f}, runs {', '.join(f'{r:.0f}' for r in rates)}; {_load()}", flush=True)
            if args.round_trips and target.startswith("cmd:"):
                n, writes = count_round_trips(args.corpus, target, work)
                print(f"{target:<20} round trips per case {sum(writes.values()) / n:.2f}; per {n} cases:", flush=True)
                for ops, count in writes.most_common():
                    print(f"    {count:7d}  {ops}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
