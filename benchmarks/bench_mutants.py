"""How fast the kit finds each planted bug of the zoo: seconds and examples until the
first divergence per seed, under the default profile, as a Markdown table.

    python benchmarks/bench_mutants.py [--seeds 5] [--max-examples N] [--only NAME ...]

The same runs as ``kafka-conformance selftest`` (conformance/selftest/scorecard.py),
printed for benchmarks/README.md with medians and worst cases.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import statistics

from kafka_conformance.selftest.scorecard import run_scorecard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--max-examples", type=int)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    card = run_scorecard(tuple(range(args.seeds)), mutants=args.only, max_examples=args.max_examples)
    print("| mutant | caught (seeds) | median s | worst s | median examples | caught by |")
    print("|---|---|---|---|---|---|")
    for name in dict.fromkeys(c.mutant for c in card.catches):
        rows = [c for c in card.catches if c.mutant == name]
        seconds = [c.seconds for c in rows]
        by = sorted({f"{c.property}/{c.anomaly}" for c in rows if c.caught})
        print(f"| {name} | {sum(c.caught for c in rows)}/{len(rows)} | {statistics.median(seconds):.2f} | "
              f"{max(seconds):.2f} | {int(statistics.median(c.examples for c in rows))} | {', '.join(by) or '—'} |")
    every = sorted(c.seconds for c in card.catches)
    print(f"\nall runs: median {statistics.median(every):.2f} s, worst {every[-1]:.2f} s; "
          f"caught {sum(c.caught for c in card.catches)}/{len(card.catches)}")
    for b in card.baseline:
        print(f"unmutated, seed {b.seed}: {'conforms' if b.conforms else 'DIVERGES'}, classes "
              f"{b.classes_reached}/{b.classes_applicable}, {b.seconds:.1f} s")


if __name__ == "__main__":
    main()
