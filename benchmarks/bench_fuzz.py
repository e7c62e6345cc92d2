"""Throughput of fuzz runs: cases/s in one process versus Spark ``local[2]``.

    python benchmarks/bench_fuzz.py                           # 20k cases per run, both modes
    python benchmarks/bench_fuzz.py --cases 1000000 --modes corpus --targets reference
    python benchmarks/bench_fuzz.py --modes corpus --corpus DIR      # a corpus made by `corpus generate`

For each target and mode, the same cases are run twice into fresh directories:
once in this process (``run_campaign(master=None)``, no Spark) and once on a
Spark ``local[2]`` session (``--partitions``, default: the kit's, 8 per core for a fuzz run).  Modes:

* ``seed``: each executor generates its shards from the seed (Hypothesis
  drawing from the suite's strategies) and checks them; what ``fuzz --cases``
  does.
* ``corpus``: the cases are read from a corpus generated once beforehand
  (``corpus generate``; its generation time is reported separately) and only
  checked; what ``fuzz --corpus`` does.

Reported per run: wall time of the cases (``run_s``; excludes the Spark session
start), cases/s, and the Spark session start-up (the fixed cost, measured once).
Aggregation and shrinking are excluded from cases/s and reported as ``finish_s``.

Python worker start-up is measured apart, so that one process and ``local[2]``
are compared fairly (issue 18).  A Spark job's first tasks start the Python
workers (fork, ``import kafka_conformance``, the suite and the target: about a
second each), and before 2026-11-25 that cost fell inside ``run_s`` of whichever
run came first, and of none after it (``spark.python.worker.reuse``).  Now:

* before each Spark run a warm-up job of one tiny task per slot imports what a
  partition imports; its wall time is ``worker_startup_s`` (the cold start on the
  session's first run, about zero later), reported beside the run, never in it;
* every partition times its own work inside the executor (wall and CPU, written
  to a file per partition beside the verdicts); ``partition_busy_s`` is their sum
  and ``busiest_worker_s`` the largest per-worker sum, so ``cases /
  busiest_worker_s`` is the throughput of the slots with Spark's scheduling and
  the driver's collection left out;
* ``speedup`` is Spark's ``cases_per_s`` (warm workers) over the one process's;
  ``speedup_cold`` charges the worker start-up to the Spark run as well;
  ``speedup_cpu`` is the one process's CPU time over the busiest worker's: what
  ``local[2]`` would give with a core per slot, which a machine shared with other
  jobs does not grant (then wall-clock speed-ups understate it; the load is
  recorded before and after every run).

Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kafka_conformance.corpora import spark_job
from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import FuzzSpec
from kafka_conformance.corpora.generate import CorpusSpec, generate_corpus
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _warm_partition(_: Any) -> Iterator[dict[str, float]]:
    """A warm-up task: what every partition imports, timed in the worker."""
    t0 = time.monotonic()
    import kafka_conformance.authorizer.properties
    import kafka_conformance.corpora.fuzz
    import kafka_conformance.corpora.suites.authorizer  # noqa: F401

    yield {"pid": os.getpid(), "import_s": time.monotonic() - t0}


def _warm_workers(spark: Any) -> tuple[float, int]:
    """Start (or find) a Python worker in every slot; (wall s, distinct workers)."""
    sc = spark.sparkContext
    slots = sc.defaultParallelism
    t0 = time.monotonic()
    rows = sc.parallelize(range(slots), slots).mapPartitions(_warm_partition).collect()
    return time.monotonic() - t0, len({r["pid"] for r in rows})


def _timed_partition_task(spec_json: dict[str, Any], shards: Any) -> Iterator[tuple[int, int]]:
    """``partition_task`` timed inside the executor: wall and CPU of the partition's
    own work, written beside the verdicts (the driver discards what tasks return)."""
    from kafka_conformance.corpora.fuzz import partition_task

    shards = list(shards)
    t0, c0 = time.monotonic(), time.process_time()
    out = list(partition_task(spec_json, shards))
    record = {"pid": os.getpid(), "shards": len(shards), "cases": sum(n for _, n in out),
              "wall_s": time.monotonic() - t0, "cpu_s": time.process_time() - c0}
    timings = Path(spec_json["out"]) / "bench-timings"
    timings.mkdir(exist_ok=True)
    (timings / f"{os.getpid()}-{shards[0] if shards else 'none'}-{time.monotonic_ns()}.json").write_text(
        json.dumps(record), encoding="utf-8")
    return iter(out)


def _partition_figures(out: Path) -> dict[str, float]:
    records = [json.loads(f.read_text(encoding="utf-8")) for f in (out / "bench-timings").glob("*.json")]
    per_worker: dict[int, float] = {}
    cpu_per_worker: dict[int, float] = {}
    for r in records:
        per_worker[r["pid"]] = per_worker.get(r["pid"], 0.0) + r["wall_s"]
        cpu_per_worker[r["pid"]] = cpu_per_worker.get(r["pid"], 0.0) + r["cpu_s"]
    return {"partitions": len(records), "workers": len(per_worker),
            "partition_busy_s": round(sum(r["wall_s"] for r in records), 1),
            "partition_cpu_s": round(sum(r["cpu_s"] for r in records), 1),
            "busiest_worker_s": round(max(per_worker.values(), default=0.0), 1),
            "busiest_worker_cpu_s": round(max(cpu_per_worker.values(), default=0.0), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--shard-size", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=None, help="default: the kit's, 8 per core, at most one per shard")
    parser.add_argument("--targets", default="reference,reference-indexed")
    parser.add_argument("--modes", default="seed,corpus")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--no-single", action="store_true", help="skip the one-process runs")
    parser.add_argument("--json", type=Path, help="write the figures as JSON here")
    parser.add_argument("--corpus", type=Path, help="reuse this corpus (corpus mode; --cases is then the corpus's)")
    args = parser.parse_args()

    suite = AuthorizerSuite()
    settings = tuple(sorted(suite.generation_settings(target=None, kafka_version=None, flavour=None,
                                                      mode="well-formed").items()))
    cases = CorpusSpec("authorizer", 0, args.cases, args.shard_size, settings)
    if args.corpus is not None:
        from kafka_conformance.corpora.generate import load_corpus

        cases = load_corpus(args.corpus)
        args.cases = cases.cases
    work = Path(tempfile.mkdtemp(prefix="kc-bench-fuzz-"))
    figures: dict[str, object] = {"cases": args.cases, "python": platform.python_version(), "load_before": _load()}
    print(f"{args.cases} authorizer cases, shards of {args.shard_size}; {_load()}", flush=True)
    try:
        modes = args.modes.split(",")
        if "corpus" in modes and args.corpus is None:
            t0 = time.monotonic()
            generate_corpus(work / "corpus", cases)
            gen_s = time.monotonic() - t0
            figures["corpus_generation_s"] = round(gen_s, 1)
            print(f"corpus generation (one process): {gen_s:.1f} s, {args.cases / gen_s:.0f} cases/s", flush=True)

        from kafka_conformance.corpora.spark_job import spark_session

        t0 = time.monotonic()
        spark = spark_session(args.master, app_name="kafka-conformance bench")
        startup = time.monotonic() - t0
        figures["spark_startup_s"] = round(startup, 2)
        print(f"Spark session start-up ({spark.sparkContext.master}): {startup:.1f} s", flush=True)
        # The run_on_spark of every Spark run below times its partitions in the executors.
        spark_job.partition_task = _timed_partition_task  # type: ignore[assignment]
        runs = []
        try:
            for target in args.targets.split(","):
                for mode in modes:
                    corpus_dir = str(args.corpus or work / "corpus") if mode == "corpus" else None
                    for executor in (["spark"] if args.no_single else ["single", "spark"]):
                        out = work / f"{target}-{mode}-{executor}"
                        spec = FuzzSpec(str(out), target, cases, corpus_dir)
                        extra: dict[str, object] = {}
                        if executor == "spark":
                            warm_s, workers = _warm_workers(spark)
                            extra = {"worker_startup_s": round(warm_s, 2), "warm_workers": workers}
                        load_before = _load()
                        t0 = time.monotonic()
                        if executor == "spark":
                            summary = run_campaign(spec, master=None, spark=spark, partitions=args.partitions)
                            extra.update(_partition_figures(out))
                            busiest = extra["busiest_worker_s"]
                            if isinstance(busiest, float) and busiest > 0:
                                extra["cases_per_busiest_worker_s"] = round(args.cases / busiest, 1)
                        else:
                            c0 = time.process_time()
                            summary = run_campaign(spec, master=None)
                            extra["cpu_s"] = round(time.process_time() - c0, 1)
                        total = time.monotonic() - t0
                        row = {"target": target, "mode": mode, "executor": summary.executor, "run_s": round(summary.run_s, 1),
                               "cases_per_s": round(summary.cases_per_s, 1), "finish_s": round(total - summary.run_s, 1),
                               **extra, "verdicts": dict(summary.verdicts), "load_before": load_before,
                               "load_after": _load(),
                               "verdict_bytes": sum(f.stat().st_size for f in (out / "verdicts").glob("*.parquet"))}
                        runs.append(row)
                        print(json.dumps(row), flush=True)
                        shutil.rmtree(out, ignore_errors=True)
        finally:
            spark.stop()
        figures["runs"] = runs
        for target in args.targets.split(","):
            for mode in modes:
                pair = {str(r["executor"]).split()[0]: r for r in runs if r["target"] == target and r["mode"] == mode}
                if "one" in pair and "Spark" in pair:
                    one, sp = pair["one"], pair["Spark"]
                    cold_s = float(sp["run_s"]) + float(sp.get("worker_startup_s", 0.0))  # type: ignore[arg-type]
                    speedup = float(sp["cases_per_s"]) / float(one["cases_per_s"])  # type: ignore[arg-type]
                    cold = (args.cases / cold_s) / float(one["cases_per_s"])  # type: ignore[arg-type]
                    sp["speedup"], sp["speedup_cold"] = round(speedup, 2), round(cold, 2)
                    if one.get("cpu_s") and sp.get("busiest_worker_cpu_s"):
                        # On a shared machine: what the slots would do with a core each to themselves.
                        sp["speedup_cpu"] = round(float(one["cpu_s"]) / float(sp["busiest_worker_cpu_s"]), 2)  # type: ignore[arg-type]
                    print(f"{target} / {mode}: Spark {float(sp['cases_per_s']):.0f} cases/s (workers warm) vs one process "  # type: ignore[arg-type]
                          f"{float(one['cases_per_s']):.0f} = {speedup:.2f}x; with the worker start-up "  # type: ignore[arg-type]
                          f"({sp.get('worker_startup_s')} s) charged to the run: {cold:.2f}x; "
                          f"slots busy {sp.get('partition_busy_s')} s, busiest worker {sp.get('busiest_worker_s')} s; "
                          f"CPU: one process {one.get('cpu_s')} s, busiest worker {sp.get('busiest_worker_cpu_s')} s "
                          f"= {sp.get('speedup_cpu')}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
