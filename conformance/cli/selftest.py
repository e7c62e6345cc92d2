"""``kafka-conformance selftest``: the zoo of faulty authorizers against the suite."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import attrs

from kafka_conformance.cli import args as types

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", type=types.count(1, 1000, "a number of seeds"), default=5,
                        help="seeds 0..N-1 per mutant (default: %(default)s)")
    parser.add_argument("--mutant", action="append", metavar="NAME", help="run only this mutant (repeatable)")
    parser.add_argument("--mode", choices=["mixed", "well-formed", "hostile"], default="mixed")
    parser.add_argument("--max-examples", type=types.count(1, 100_000, "examples per property"),
                        help="examples per property (default: the Hypothesis profile's)")
    parser.add_argument("--report-json", type=Path, metavar="FILE", help="also write the scorecard as JSON")
    parser.add_argument("--list", action="store_true", help="list the zoo and exit")


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.selftest.scorecard import run_scorecard, to_text
    from kafka_conformance.selftest.zoo import ZOO

    if args.list:
        for mutant in ZOO.values():
            print(f"{mutant.name:42} {mutant.area:10} {mutant.what}")
        return 0
    unknown = [m for m in args.mutant or () if m not in ZOO]
    problem = (f"unknown mutant {unknown[0]!r} (kafka-conformance selftest --list names them)" if unknown else
               "--seeds must be at least 1" if args.seeds < 1 else
               "--max-examples must be at least 1" if args.max_examples is not None and args.max_examples < 1 else "")
    if problem:
        print(f"kafka-conformance: error: selftest: {problem}", file=sys.stderr)
        return 2
    types.output_file(args.report_json, "--report-json")

    def show(catch: object) -> None:
        c = catch
        mark = f"caught by {c.property} ({c.anomaly})" if c.caught else "NOT CAUGHT"  # type: ignore[attr-defined]
        print(f"  {c.mutant:42} seed {c.seed}: {mark} after {c.examples} examples, {c.seconds:.2f} s",  # type: ignore[attr-defined]
              file=sys.stderr, flush=True)

    card = run_scorecard(tuple(range(args.seeds)), mutants=args.mutant, mode=args.mode,
                         max_examples=args.max_examples, on_catch=show)
    print(to_text(card))
    if args.report_json is not None:
        types.write_file(args.report_json, json.dumps(attrs.asdict(card), indent=2))
    return 0 if card.perfect else 1
