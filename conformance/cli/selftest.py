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
    parser.add_argument("--mode", choices=["mixed", "well-formed", "hostile"],
                        help="generation mode (default: mixed)")
    parser.add_argument("--max-examples", type=types.count(1, 100_000, "examples per property"),
                        help="examples per property (default: the Hypothesis profile's)")
    parser.add_argument("--report-json", type=Path, metavar="FILE", help="also write the scorecard as JSON")
    parser.add_argument("--list", action="store_true", help="list the zoo and exit")
    parser.add_argument("--mutants", action="store_true",
                        help="instead of the zoo, mutate the reference itself with Cosmic Ray (extra 'mutation') and "
                             "judge every mutant with the fixed cases (the authorizer spec served as an authorizer, the "
                             "broker spec as the test broker), under every release class; exit 1 on a survivor not "
                             "reviewed as equivalent or a known gap (docs/selftest.md)")
    parser.add_argument("--module", action="append", metavar="PATH",
                        help="with --mutants: a file or folder of the package to mutate, e.g. reference/acl/principal.py "
                             "(repeatable; default: reference/authorizer, reference/acl and the broker spec's "
                             "producer_state, partition_log, batches and profile)")


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.selftest.scorecard import run_scorecard, to_text
    from kafka_conformance.selftest.zoo import ZOO

    if args.mutants or args.module:
        return _mutants(args)
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

    card = run_scorecard(tuple(range(args.seeds)), mutants=args.mutant, mode=args.mode or "mixed",
                         max_examples=args.max_examples, on_catch=show)
    print(to_text(card))
    if args.report_json is not None:
        types.write_file(args.report_json, json.dumps(attrs.asdict(card), indent=2))
    return 0 if card.perfect else 1


def _mutants(args: argparse.Namespace) -> int:
    import importlib.util

    from kafka_conformance.selftest import mutation

    if not args.mutants:
        return _usage("--module selects what --mutants mutates; add --mutants")
    if args.mutant or args.list or args.max_examples is not None:
        return _usage("--mutants judges with the coverage phase alone; --mutant, --list and --max-examples are for the zoo")
    if importlib.util.find_spec("cosmic_ray") is None:
        return _usage("--mutants needs Cosmic Ray: pip install 'kafka-conformance[mutation]'")
    types.output_file(args.report_json, "--report-json")
    modes = (args.mode,) if args.mode else ("mixed",)  # mixed's phase holds the other two's cases
    try:
        result = mutation.run_mutation(args.module or mutation.MUTATED, modes=modes,
                                       on_start=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as exc:
        return _usage(str(exc))
    except mutation.CosmicRayFailed as exc:  # the tool, not the kit: say so, with its own words
        return _usage(f"the mutation run has no verdict: {exc}")
    print(mutation.to_text(result))
    if args.report_json is not None:
        types.write_file(args.report_json, json.dumps(attrs.asdict(result), indent=2, default=str))
    return 0 if result.perfect else 1


def _usage(problem: str) -> int:
    print(f"kafka-conformance: error: selftest: {problem}", file=sys.stderr)
    return 2
