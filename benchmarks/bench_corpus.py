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

``--split`` runs each in-process target once more and times, per case, the calls the kit makes
into the target (``reference`` / ``reference-indexed``: the adapter and its engine) and into
the kit's own reference (the spec working out the expected answers), the rest being the
harness (reading, decoding, driving, comparing, coverage, verdict rows).  The sum of the first
two is a floor no harness change can go below: it says what rate the engines alone allow.

``--instructions`` counts, for each target, the instructions one run executes under valgrind's
callgrind, less those of a run that does only what a run does once (start, imports, the
manifest, opening and closing the target) and reads or checks no case: millions of
instructions per case, the same from run to run whatever else the machine is doing (this
machine's speed drifts by up to 2x within minutes), so two versions of the kit can be compared
with one run each.  About 70 s per 1,000 cases per target.

``--paired`` runs the targets in turn, one run each per round, ``--repeat`` rounds, and reports
each later target's rate over the first's round by round: the ``cmd:`` over in-process ratio
measured over the same minutes.

    python benchmarks/bench_corpus.py --corpus /tmp/corpus-cmd --paired --repeat 7 \
        --targets "python:my_authorizer:factory,cmd:python3 examples/python_subprocess/my_authorizer_server.py"
"""

from __future__ import annotations

import argparse
import collections
import inspect
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kafka_conformance.corpora.fuzz import FuzzSpec, run_inline, start_run
from kafka_conformance.corpora.generate import load_corpus


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f} (1/5 min) on {os.cpu_count()} cores"


def run_once(corpus: Path, target: str, work: Path, *, check: bool = True) -> tuple[float, float]:
    """One run of the whole corpus; with ``check`` false, only what a run does once whatever its
    size (the manifest written, the target opened and closed, the Parquet reader imported)."""
    cases = load_corpus(corpus)
    out = work / f"run-{time.monotonic_ns()}"
    spec = FuzzSpec(str(out), target, cases, str(corpus.resolve()))
    todo = start_run(spec)
    if not check:
        from kafka_conformance.corpora import parquet_io  # noqa: F401  (imported by a run's first shard)
        from kafka_conformance.corpora.suites.registry import get_suite

        get_suite(cases.suite).open(target, cases.settings_map).close()
        return 0.0, 0.0
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


def split_time(corpus: Path, target: str, work: Path) -> tuple[int, float, dict[str, float], dict[str, int]]:
    """Cases, wall seconds of the run, and the wall seconds spent in the outermost calls into the
    target's adapter and into the kit's reference (by side), with the number of such calls (one
    clock for both, so that time the process spent descheduled is not put on one side only)."""
    from kafka_conformance.adapters.reference_adapter import ReferenceTarget
    from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer

    spent = {"target": 0.0, "reference": 0.0}
    calls = {"target": 0, "reference": 0}
    inside = [False]
    clock = time.perf_counter

    def timed(fn: Callable[..., object], side: str) -> Callable[..., object]:
        def wrapper(self: object, *args: object, **kwargs: object) -> object:
            if inside[0]:
                return fn(self, *args, **kwargs)
            inside[0] = True
            started = clock()
            try:
                return fn(self, *args, **kwargs)
            finally:
                spent[side] += clock() - started
                calls[side] += 1
                inside[0] = False
        return wrapper

    patched: list[tuple[type, str, object]] = []
    for cls, side in ((ReferenceTarget, "target"), (ReferenceAuthorizer, "reference")):
        for name, fn in list(vars(cls).items()):
            if not name.startswith("_") and inspect.isfunction(fn):
                patched.append((cls, name, fn))
                setattr(cls, name, timed(fn, side))
    cases = load_corpus(corpus).cases
    try:
        rate, _ = run_once(corpus, target, work)
    finally:
        for cls, name, fn in patched:
            setattr(cls, name, fn)
    return cases, cases / rate, spent, calls


def count_instructions(corpus: Path, target: str, *, check: bool = True) -> int:
    """Instructions executed by one run of this script (``--inner``) under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
               "--corpus", str(corpus), "--targets", target, "--inner", "check" if check else "read"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"Collected\s*:\s*([0-9]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--targets", default="reference,reference-indexed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--round-trips", action="store_true", help="also count the round trips of each cmd: target")
    parser.add_argument("--split", action="store_true",
                        help="also time each in-process target's own calls and the kit's reference's, per case")
    parser.add_argument("--instructions", action="store_true",
                        help="count each target's instructions per case under valgrind's callgrind instead of timing")
    parser.add_argument("--inner", choices=("check", "read"), help=argparse.SUPPRESS)
    parser.add_argument("--paired", action="store_true",
                        help="run the targets in turn, run by run, and report each later target's wall-clock "
                             "rate over the first's within each round (median and worst of the ratios)")
    args = parser.parse_args()
    if args.inner is not None:  # one run, under valgrind (--instructions)
        with tempfile.TemporaryDirectory(prefix="kc-bench-corpus-") as inner_work:
            run_once(args.corpus, args.targets, Path(inner_work), check=args.inner == "check")
        return
    import kafka_conformance

    cases = load_corpus(args.corpus)
    print(f"{cases.cases} {cases.suite} cases ({dict(cases.settings_map).get('mode')}, "
          f"Kafka {dict(cases.settings_map).get('kafka_version')}); CPython {platform.python_version()}; "
          f"kit at {Path(kafka_conformance.__file__).resolve().parent.parent}; {_load()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="kc-bench-corpus-"))
    try:
        if args.instructions:
            baseline = count_instructions(args.corpus, args.targets.split(",")[0], check=False)
            print(f"a run's one-off work (start, imports, opening the target): {baseline / 1e6:,.0f} M instructions",
                  flush=True)
            for target in args.targets.split(","):
                total = count_instructions(args.corpus, target)
                print(f"{target:<20} {(total - baseline) / cases.cases / 1e6:.3f} M instructions per case "
                      f"({total / 1e6:,.0f} M in all)", flush=True)
            return
        if args.paired:
            _paired(args.corpus, args.targets.split(","), args.repeat, work)
            return
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
            if args.split and target in ("reference", "reference-indexed"):
                n, whole, spent, calls = split_time(args.corpus, target, work)
                engines = spent["target"] + spent["reference"]
                print(f"{target:<20} split per case (one timed run, wall clock, {1e6 * whole / n:.0f} µs/case): "
                      f"target {1e6 * spent['target'] / n:.0f} µs ({calls['target'] / n:.1f} calls), "
                      f"kit's reference {1e6 * spent['reference'] / n:.0f} µs ({calls['reference'] / n:.1f} calls), "
                      f"the rest {1e6 * (whole - engines) / n:.0f} µs; the two engines alone allow at most "
                      f"{n / engines:,.0f} cases/s; {_load()}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _paired(corpus: Path, targets: list[str], rounds: int, work: Path) -> None:
    """Each round runs every target once, back to back, so that the ratio of two targets is
    taken over the same minutes: on a machine whose speed drifts from run to run (this one
    varies by about 1.5x for the same code), ratios of medians taken minutes apart mislead."""
    rates: dict[str, list[float]] = {t: [] for t in targets}
    for n in range(rounds):
        for target in targets:
            rates[target].append(run_once(corpus, target, work)[0])
        print(f"round {n + 1}: " + ", ".join(f"{t} {rates[t][-1]:.0f}" for t in targets) + f" cases/s; {_load()}",
              flush=True)
    first = targets[0]
    for target in targets[1:]:
        ratios = [r / b for r, b in zip(rates[target], rates[first], strict=True)]
        print(f"{target} over {first}, round by round: median {statistics.median(ratios):.2f}, worst "
              f"{min(ratios):.2f}, best {max(ratios):.2f} (ratios {', '.join(f'{r:.2f}' for r in ratios)})", flush=True)


if __name__ == "__main__":
    main()
