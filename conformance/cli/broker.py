"""``kafka-conformance check broker``: hold a real broker to Kafka's idempotent-producer rules.

The kit starts the broker (or reaches ``bootstrap:HOST:PORT``), runs the named
probe table and Hypothesis-generated crafted produce sequences against it, and
stops it.  Exit codes: 0 conforms, 1 a divergence was found (or the broker
stopped answering), 2 usage or configuration error (unknown target, broker
package not installed, unwritable report file).  Heavy imports happen inside
:func:`run`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["add_arguments", "replay", "run"]

EXIT_OK, EXIT_DIVERGED, EXIT_USAGE = 0, 1, 2


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", required=True,
                        help="tansu, noida, rdkafka-mock, bootstrap:HOST:PORT or test-broker[:KAFKA_VERSION]")
    parser.add_argument("--kafka-version", default="4.3.0", help="Kafka release whose broker rules to hold it to (default: %(default)s)")
    parser.add_argument("--max-examples", type=_count, default=100,
                        help="generated cases per round; 0 runs the probe table only (default: %(default)s)")
    parser.add_argument("--max-rounds", type=_count, default=6,
                        help="rounds, each looking for one more distinct anomaly (default: %(default)s)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible run")
    parser.add_argument("--table", action="store_true", help="also run and print the named probe table")
    parser.add_argument("--json", type=Path, dest="json_path", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--junit", type=Path, dest="junit_path", metavar="FILE", help="write the report as JUnit XML")
    parser.add_argument("--failures-dir", type=Path, help="save each minimal case here as a replayable JSON file")


def _write(path: Path | None, text: str) -> str | None:
    if path is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror}"
    return None


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.broker.check import check_broker
    from kafka_conformance.broker.report import render_broker_json, render_broker_junit, render_broker_text
    from kafka_conformance.broker.targets import BrokerTargetError

    if args.max_examples == 0 and not args.table:
        print("kafka-conformance: --max-examples 0 needs --table (nothing would run)", file=sys.stderr)
        return EXIT_USAGE
    if args.max_rounds == 0:
        print("kafka-conformance: --max-rounds must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    for path in (args.json_path, args.junit_path):
        if path is not None and path.is_dir():
            print(f"kafka-conformance: {path} is a directory, not a report file", file=sys.stderr)
            return EXIT_USAGE
    try:
        report = check_broker(
            args.target, kafka_version=args.kafka_version, max_examples=args.max_examples, seed=args.seed,
            failures_dir=args.failures_dir, table=args.table, max_rounds=args.max_rounds,
            on_progress=(lambda line: print(f"  {line}", file=sys.stderr)) if sys.stderr.isatty() else None,
        )
    except BrokerTargetError as exc:
        print(f"kafka-conformance: {exc}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(render_broker_text(report))
    for path, text in ((args.json_path, render_broker_json(report)), (args.junit_path, render_broker_junit(report))):
        problem = _write(path, text)
        if problem is not None:
            print(f"kafka-conformance: {problem}", file=sys.stderr)
            return EXIT_USAGE
    return report.exit_code


def replay(paths: list[Path], target: str | None = None) -> int:
    """Re-run saved broker cases (``kafka-conformance replay`` hands broker case files here)."""
    from kafka_conformance.broker.cases import CaseError
    from kafka_conformance.broker.check import replay_broker_case
    from kafka_conformance.broker.targets import BrokerTargetError

    worst = EXIT_OK
    for path in paths:
        try:
            result = replay_broker_case(path, target=target)
        except (CaseError, BrokerTargetError) as exc:
            print(f"ERROR  {exc}" if str(path) in str(exc) else f"ERROR  {path}: {exc}")
            worst = EXIT_USAGE
            continue
        print(f"{result.status:<6} {path} ({result.target}) {', '.join(result.anomalies)}".rstrip())
        if result.status != "FIXED" and worst != EXIT_USAGE:
            worst = EXIT_DIVERGED
    return worst
