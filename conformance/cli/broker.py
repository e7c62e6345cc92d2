"""``kafka-conformance check broker`` and ``check transactions``: hold a real broker to Kafka's rules.

``check transactions`` runs the transaction table (``reference/transactions/table.py``) on the
broker and on the spec's model of the release it claims, row by row: 0 every row answers as
that release does, 1 a row differs (or the broker stopped answering), 2 usage or configuration.

``check broker``:

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
from typing import TYPE_CHECKING

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError
from kafka_conformance.reference.releases import DEFAULT_RELEASE

if TYPE_CHECKING:
    from kafka_conformance.transactions.check import TxnReport

__all__ = ["add_arguments", "add_transactions_arguments", "replay", "run", "run_transactions"]

EXIT_OK, EXIT_DIVERGED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", required=True,
                        help="tansu, noida, rdkafka-mock, bootstrap:HOST:PORT or test-broker[:KAFKA_VERSION]")
    parser.add_argument("--kafka-version", type=types.idempotence_release,
                        help=f"Kafka release whose broker rules to hold it to (default: the one the target names, "
                             f"as in kafka:3.9.1 or test-broker:1.0.1, else {DEFAULT_RELEASE})")
    parser.add_argument("--max-examples", type=types.count(0, 100_000, "cases"), default=100,
                        help="cases in all, the coverage cases first, shared by the rounds; "
                             "0 runs the fixed cases only (default: %(default)s)")
    parser.add_argument("--max-rounds", type=types.count(1, 100, "rounds"), default=6,
                        help="rounds at most, each looking for one more distinct anomaly with the examples the "
                             "earlier rounds left (default: %(default)s)")
    parser.add_argument("--seed", type=types.seed, help="seed for a reproducible run")
    parser.add_argument("--timeout", type=types.seconds, default=10.0,
                        help="seconds the broker may take to answer one request (default: %(default)s)")
    parser.add_argument("--table", action="store_true", help="also run and print the named probe table")
    types.add_common_options(parser)



def run(args: argparse.Namespace) -> int:
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.broker.check import check_broker
    from kafka_conformance.broker.report import render_broker_json, render_broker_junit, render_broker_text
    from kafka_conformance.options import Options

    types.output_file(args.report_json, "--report-json")
    types.output_file(args.junit_xml, "--junit-xml")
    types.output_dir(args.failures_dir, "--failures-dir")
    try:
        with types.progress_for(args) as progress:
            options = Options(kafka_version=args.kafka_version, seed=args.seed, max_examples=args.max_examples,
                              timeout=args.timeout, failures_dir=args.failures_dir, progress=progress)
            report = check_broker(args.target, options, table=args.table, max_rounds=args.max_rounds)
    except TargetError as exc:
        raise UsageError(str(exc)) from exc
    sys.stdout.write(render_broker_text(report))
    types.write_file(args.report_json, render_broker_json(report))
    types.write_file(args.junit_xml, render_broker_junit(report))
    return report.exit_code


def replay(paths: list[Path], target: str | None = None) -> int:
    """Re-run saved broker cases (``kafka-conformance replay`` hands broker case files here)."""
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.broker.cases import CaseError
    from kafka_conformance.broker.check import replay_broker_case

    worst = EXIT_OK
    for path in paths:
        try:
            result = replay_broker_case(path, target=target)
        except (CaseError, TargetError) as exc:
            print(f"ERROR  {exc}" if str(path) in str(exc) else f"ERROR  {path}: {exc}")
            worst = EXIT_USAGE
            continue
        print(f"{result.status:<6} {path} ({result.target}) {', '.join(result.anomalies)}".rstrip())
        if result.status != "FIXED" and worst != EXIT_USAGE:
            worst = EXIT_DIVERGED
    return worst


def add_transactions_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, help="kafka:VERSION, or kfake, tansu, noida, rdkafka-mock (started "
                        "here), or bootstrap:HOST:PORT; all but kafka:VERSION need --kafka-version (docs/targets.md)")
    parser.add_argument("--kafka-version", help="the Kafka release the broker claims (default: the one kafka:VERSION names)")
    parser.add_argument("--transaction-version", type=int, choices=(1, 2), default=None,
                        help="1: KIP-98's protocol (default); 2: KIP-890 part 2 (EndTxn v5, Produce v12; Kafka 4.0+)")
    parser.add_argument("--client", metavar="NAME", help="run the client rows with this real transactional producer "
                        "(java, confluent-kafka, kafka-python, aiokafka, franz-go, sarama, kafkajs, platformatic) behind the fault proxy, "
                        "instead of the kit's own requests (docs/transactions-conformance.md)")
    parser.add_argument("--row", action="append", dest="rows", metavar="NAME", help="run only this row (repeatable)")
    parser.add_argument("--max-examples", type=types.count(0, 10_000, "generated scripts"), default=None,
                        help="generated scripts to run after the rows, each on the broker and the model "
                             "(default: 10; 0 with --row)")
    parser.add_argument("--seed", type=types.seed, help="seed of the generated scripts, for a run that repeats exactly "
                        "(the rows need none)")
    types.add_common_options(parser, failures=False)


def run_transactions(args: argparse.Namespace) -> int:
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.options import Options
    from kafka_conformance.transactions.check import check_transactions
    from kafka_conformance.transactions.report import render_txn_json, render_txn_text

    types.output_file(args.report_json, "--report-json")
    types.output_file(args.junit_xml, "--junit-xml")
    if args.client is not None:
        return _run_client(args)
    try:
        examples = args.max_examples if args.max_examples is not None else (0 if args.rows else 10)
        with types.progress_for(args) as progress:
            options = Options(kafka_version=args.kafka_version, seed=args.seed, max_examples=examples, progress=progress)
            report = check_transactions(args.broker, options, transaction_version=args.transaction_version or 1,
                                        rows=args.rows)
    except TargetError as exc:
        raise UsageError(str(exc)) from exc
    sys.stdout.write(render_txn_text(report))
    types.write_file(args.report_json, render_txn_json(report))
    if args.junit_xml is not None:
        types.write_file(args.junit_xml, _txn_junit(report, args.broker, args.kafka_version))
    return report.exit_code


def _run_client(args: argparse.Namespace) -> int:
    """``check transactions --client NAME``: the client rows, where the client speaks the protocol."""
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.options import Options
    from kafka_conformance.transactions.clients import check_transaction_client
    from kafka_conformance.transactions.report import render_client_json, render_client_text

    for given, flag in ((args.max_examples, "--max-examples"), (args.seed, "--seed"),
                        (args.transaction_version, "--transaction-version"), (args.kafka_version, "--kafka-version"),
                        (args.junit_xml, "--junit-xml")):
        if given is not None:
            raise UsageError(f"{flag} is for the kit's own transaction scripts, not for --client (the client "
                             "chooses its protocol, and its rows are fixed)")
    try:
        with types.progress_for(args) as progress:
            report = check_transaction_client(args.client, args.broker, Options(progress=progress), rows=args.rows)
    except TargetError as exc:
        raise UsageError(str(exc)) from exc
    sys.stdout.write(render_client_text(report))
    types.write_file(args.report_json, render_client_json(report))
    return report.exit_code


def _txn_junit(report: TxnReport, broker: str, kafka_version: str | None) -> str:
    """JUnit XML through the report's one writer: the run as the report's transactions column."""
    from kafka_conformance.adapters.targets import Role, parse_target
    from kafka_conformance.report.columns.transactions import transactions_column, transactions_rows
    from kafka_conformance.report.model import Report, SuiteRun
    from kafka_conformance.report.write_junit import to_junit_xml

    release = parse_target(broker, Role.TRANSACTIONS).release or kafka_version or ""
    column = transactions_column(report, release=release)
    return to_junit_xml(Report(suites=(SuiteRun("transactions", transactions_rows(), (column,)),)))
