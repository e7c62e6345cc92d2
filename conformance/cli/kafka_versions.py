"""``kafka-conformance kafka-versions``: the release campaign (real Kafka judging the reference)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from kafka_conformance.cli import args as types
from kafka_conformance.terminal.events import Kind, ProgressEvent

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("releases", nargs="*", metavar="kafka:VERSION[:FLAVOUR]",
                        help="releases to run (default: every release the kit runs, both flavours)")
    parser.add_argument("--mode", choices=["well-formed", "hostile", "both"], default="both",
                        help="which inputs: well-formed, hostile, or both, one row each (default)")
    parser.add_argument("--max-examples", type=types.count(1, 100_000, "examples per property"), default=50,
                        help="examples per property (default: %(default)s)")
    parser.add_argument("--seed", type=types.seed, default=0, help="seed of every row (default: %(default)s)")
    parser.add_argument("--failures-dir", type=Path, default=Path("kafka-conformance-failures/kafka-versions"),
                        help="where a diverging row's minimal cases are saved (default: %(default)s)")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown (docs/kafka-versions.md's table)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _command(args: argparse.Namespace) -> str:
    """The command that writes the same table, as the page names it: what changes the table
    (releases, mode, examples, seed) and where it goes, never where failures were kept (a path
    of the machine that ran it) or whether progress was shown."""
    words = ["kafka-conformance", "kafka-versions", *args.releases]
    if args.mode != "both":
        words += ["--mode", args.mode]
    words += ["--max-examples", str(args.max_examples), "--seed", str(args.seed), "--markdown", args.markdown.as_posix()]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.authorizer.releases.campaign import MODES, releases_named, run_campaign, to_markdown

    if args.max_examples < 1:
        print("kafka-conformance: error: kafka-versions: --max-examples must be at least 1", file=sys.stderr)
        return 2
    try:
        releases = releases_named(args.releases)
    except ValueError as exc:
        print(f"kafka-conformance: error: kafka-versions: {exc}", file=sys.stderr)
        return 2
    types.output_file(args.markdown, "--markdown")
    types.output_dir(args.failures_dir, "--failures-dir")
    modes = MODES if args.mode == "both" else (args.mode,)

    total = len(releases) * len(modes)
    done = {"rows": 0, "diverges": 0}

    with types.progress_for(args) as progress:
        def show(row: object) -> None:
            print(f"{row.release:24} {row.mode:12} {row.outcome} ({row.seconds} s)", flush=True)  # type: ignore[attr-defined]
            done["rows"] += 1
            done["diverges"] += row.outcome == "diverges"  # type: ignore[attr-defined]
            progress(ProgressEvent(Kind.EXAMPLE, "kafka-versions", "releases x modes", done["rows"], total,
                                   done["diverges"], unit="runs"))

        progress(ProgressEvent(Kind.START, "kafka-versions", "releases x modes", 0, total, unit="runs"))
        rows = run_campaign(releases, modes=modes, max_examples=args.max_examples, seed=args.seed,
                            failures_dir=args.failures_dir, on_row=show)
    if args.markdown is not None:
        types.write_file(args.markdown, to_markdown(rows, command=_command(args), max_examples=args.max_examples, seed=args.seed))
    if any(r.outcome.startswith("could not run") for r in rows):
        return 2
    return 1 if any(r.outcome == "diverges" for r in rows) else 0
