"""How fast the kit finds each planted bug: examples and seconds until the first
divergence, median over several seeds, with the default example budget.

    python benchmarks/bench_mutants.py [--seeds 5] [--max-examples 100] [--only NAME]

Prints a Markdown table for benchmarks/README.md.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "examples" / "python_authorizer"), str(ROOT / "tests" / "quality")]

from hypothesis import settings  # noqa: E402
from mutants import MUTANTS  # noqa: E402

from kafka_conformance.authorizer.check import check_authorizer  # noqa: E402
from kafka_conformance.authorizer.properties import PROPERTIES  # noqa: E402
from kafka_conformance.authorizer.report import Status  # noqa: E402
from kafka_conformance.authorizer.targets import Target  # noqa: E402


def find(name: str, seed: int, max_examples: int) -> tuple[int, float, str] | None:
    make, mode = MUTANTS[name]
    target = Target(f"mutant:{name}", make, make().capabilities())
    examples, started = 0, time.perf_counter()
    for prop in PROPERTIES:
        report = check_authorizer(
            target, settings=settings(max_examples=max_examples, database=None), seed=seed,
            mode=mode, properties=[prop.name],
        )
        result = report.results[0]
        examples += result.examples
        if result.status in (Status.FAILED, Status.ERROR) and result.counterexample is not None:
            return examples, time.perf_counter() - started, f"{prop.name}/{result.counterexample.anomaly}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--max-examples", type=int, default=100)
    parser.add_argument("--only")
    args = parser.parse_args()
    print("| mutant | found (seeds) | median examples | median seconds | found by |")
    print("|---|---|---|---|---|")
    for name in sorted(MUTANTS):
        if args.only and name != args.only:
            continue
        runs = [find(name, seed, args.max_examples) for seed in range(args.seeds)]
        found = [r for r in runs if r is not None]
        if not found:
            print(f"| {name} | 0/{args.seeds} | - | - | NOT FOUND |")
            continue
        med_examples = statistics.median(r[0] for r in found)
        med_seconds = statistics.median(r[1] for r in found)
        by = sorted({r[2] for r in found})
        print(f"| {name} | {len(found)}/{args.seeds} | {med_examples:g} | {med_seconds:.2f} | {', '.join(by)} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
