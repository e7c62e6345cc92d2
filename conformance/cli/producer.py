"""``kafka-conformance check producer`` and ``kafka-conformance check matrix``.

``check producer --client SPEC`` runs Hypothesis-generated failure traces (and,
with ``--table``, every row of the trace table) through one real producer
client against a broker and reports what is attributed to the client.
``check matrix`` runs the trace table on every real client installed here
against every broker named, and prints one table of which guarantees hold
under which traces.

Exit codes: 0 nothing attributed to the client (matrix: to any client or
broker); 1 a violation (or a run crashed); 2 usage or configuration error: an
unknown or uninstalled client (the message names the extra
``kafka-conformance[clients]``), an unknown broker, a trace setting the client
cannot express.
"""

from __future__ import annotations

import argparse
import os

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError
from kafka_conformance.reference.releases import DEFAULT_RELEASE

__all__ = ["add_arguments", "add_matrix_arguments", "run", "run_matrix_command"]



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--client", required=True,
                        help="kafka-python, aiokafka, confluent-kafka, java (Kafka's own KafkaProducer), or model")
    parser.add_argument("--broker", default="test-broker",
                        help="test-broker[:VERSION] (default), or a real broker: tansu, noida, rdkafka-mock")
    parser.add_argument("--kafka-version", type=types.idempotence_release, default=DEFAULT_RELEASE,
                        help="Kafka release whose semantics the test broker models")
    parser.add_argument("--max-examples", type=types.count(0, 10_000, "generated traces"), default=15,
                        help="examples per property: generated failure traces, each one real run (default %(default)s)")
    parser.add_argument("--seed", type=types.seed, help="seed for a reproducible choice of traces")
    parser.add_argument("--table", action="store_true", help="also run every row of the trace table")
    types.add_common_options(parser)


def add_matrix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--client", action="append", dest="clients",
                        help="a client to include (repeatable; default every real client installed here)")
    parser.add_argument("--broker", action="append", dest="brokers",
                        help="a broker to include (repeatable; default test-broker)")
    parser.add_argument("--row", action="append", dest="rows", help="only this trace table row, by number or name (repeatable)")
    parser.add_argument("--kafka-version", type=types.idempotence_release, default=DEFAULT_RELEASE,
                        help="Kafka release whose semantics the test broker models and every cell is held to "
                             "(default: %(default)s)")
    types.add_common_options(parser, json_what="the matrix", junit=False)



def quiet_clients() -> None:
    """The clients log a WARNING for every fault a trace injects on purpose; the report says what
    happened, so their chatter is kept off the terminal unless KAFKA_CONFORMANCE_CLIENT_LOGS is set."""
    import logging

    if os.environ.get("KAFKA_CONFORMANCE_CLIENT_LOGS"):
        return
    for name in ("aiokafka", "kafka"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def run(args: argparse.Namespace) -> int:
    quiet_clients()
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.options import Options
    from kafka_conformance.producer.check import check_producer
    from kafka_conformance.producer.render import dumps_json, to_junit_xml, to_text

    types.output_file(args.report_json, "--report-json")
    types.output_file(args.junit_xml, "--junit-xml")
    types.output_dir(args.failures_dir, "--failures-dir")
    if args.max_examples == 0 and not args.table:
        raise UsageError("--max-examples 0 runs nothing; add --table or give a number of traces")
    try:
        with types.progress_for(args) as progress:
            options = Options(kafka_version=args.kafka_version, seed=args.seed, max_examples=args.max_examples,
                              failures_dir=args.failures_dir, progress=progress)
            report = check_producer(args.client, options, broker=args.broker, table=args.table)
    except (TargetError, ClientConfigError) as exc:
        raise UsageError(str(exc)) from exc
    print(to_text(report))
    types.write_file(args.report_json, dumps_json(report))
    types.write_file(args.junit_xml, to_junit_xml(report))
    if report.nothing_ran:
        raise UsageError(f"nothing could run: {report.refusal or 'every trace table row was refused'}",
                         where=f"client {args.client} on {args.broker}")
    return report.exit_code


def run_matrix_command(args: argparse.Namespace) -> int:
    import json

    from kafka_conformance.adapters.targets import TargetError

    quiet_clients()
    from kafka_conformance.producer.render import matrix_to_json, matrix_to_text
    from kafka_conformance.producer.table import run_matrix, table_rows

    types.output_file(args.report_json, "--report-json")
    types.output_dir(args.failures_dir, "--failures-dir")
    try:
        rows = table_rows(args.rows) if args.rows else None
        with types.progress_for(args) as progress:
            matrix = run_matrix(args.clients, tuple(args.brokers or ("test-broker",)), kafka_version=args.kafka_version,
                                rows=rows, failures_dir=args.failures_dir, progress=progress)
    except (TargetError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    print(matrix_to_text(matrix))
    types.write_file(args.report_json, json.dumps(matrix_to_json(matrix), indent=2, ensure_ascii=False))
    return matrix.exit_code
