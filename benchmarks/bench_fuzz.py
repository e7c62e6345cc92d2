"""Throughput of fuzz runs: cases/s in one process versus Spark ``local[2]``.

    python benchmarks/bench_fuzz.py                           # 20k cases per run, both modes
    python benchmarks/bench_fuzz.py --cases 1000000 --modes corpus --targets reference
    python benchmarks/bench_fuzz.py --modes corpus --corpus DIR      # a corpus made by `corpus generate`

For each target and mode, the same cases are run twice into fresh directories:
once in this process (``run_campaign(master=None)``, no Spark) and once on a
Spark ``local[2]`` session (``--partitions``, default: 4 per core).  Modes:

* ``seed``: each executor generates its shards from the seed (Hypothesis
  drawing from the suite's strategies) and checks them; what ``fuzz --cases``
  does.
* ``corpus``: the cases are read from a corpus generated once beforehand
  (``corpus generate``; its generation time is reported separately) and only
  checked; what ``fuzz --corpus`` does.

Reported per run: wall time of the cases (``run_s``; excludes the Spark session
start), cases/s, and the Spark session start-up (the fixed cost, measured once).
Aggregation and shrinking are excluded from cases/s and reported as ``finish_s``.
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
from pathlib import Path

from kafka_conformance.corpora.campaign import run_campaign
from kafka_conformance.corpora.fuzz import FuzzSpec
from kafka_conformance.corpora.generate import CorpusSpec, generate_corpus
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--shard-size", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=None, help="default: 4 per core, at most one per shard")
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
        runs = []
        try:
            for target in args.targets.split(","):
                for mode in modes:
                    corpus_dir = str(args.corpus or work / "corpus") if mode == "corpus" else None
                    for executor in (["spark"] if args.no_single else ["single", "spark"]):
                        out = work / f"{target}-{mode}-{executor}"
                        spec = FuzzSpec(str(out), target, cases, corpus_dir)
                        t0 = time.monotonic()
                        if executor == "spark":
                            summary = run_campaign(spec, master=None, spark=spark, partitions=args.partitions)
                        else:
                            summary = run_campaign(spec, master=None)
                        total = time.monotonic() - t0
                        row = {"target": target, "mode": mode, "executor": summary.executor, "run_s": round(summary.run_s, 1),
                               "cases_per_s": round(summary.cases_per_s, 1), "finish_s": round(total - summary.run_s, 1),
                               "verdicts": dict(summary.verdicts), "load_after": _load(),
                               "verdict_bytes": sum(f.stat().st_size for f in (out / "verdicts").glob("*.parquet"))}
                        runs.append(row)
                        print(json.dumps(row), flush=True)
                        shutil.rmtree(out, ignore_errors=True)
        finally:
            spark.stop()
        figures["runs"] = runs
        for target in args.targets.split(","):
            for mode in modes:
                pair = {r["executor"].split()[0]: r["cases_per_s"] for r in runs if r["target"] == target and r["mode"] == mode}
                if "one" in pair and "Spark" in pair:
                    print(f"{target} / {mode}: Spark {pair['Spark']:.0f} cases/s vs one process {pair['one']:.0f} "
                          f"= {pair['Spark'] / pair['one']:.2f}x")  # type: ignore[operator]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
