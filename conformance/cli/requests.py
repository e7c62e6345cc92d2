"""``kafka-conformance check requests``: the request-level ACL rules on a real broker's wire.

The kit starts Apache Kafka's broker of a release with SASL/PLAIN and its authorizer on
(``kafka:VERSION``) or reaches yours (``bootstrap:HOST:PORT,sasl=ADMIN:PASSWORD,USER:PASSWORD``),
creates ACLs through the Admin API, sends InitProducerId, Produce, AddPartitionsToTxn,
EndTxn and FindCoordinator as the user, and holds each error code to ``reference/requests``
of the release.  Exit codes: 0 conforms, 1 a divergence, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import json
import sys

import attrs

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError
from kafka_conformance.credentials import redact

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", required=True,
                        help="kafka:VERSION (Apache Kafka's broker, 2.4.0 or later, started with SASL/PLAIN and its "
                             "authorizer), kfake (franz-go's in-memory cluster with SASL/PLAIN and ACLs; held to 4.3.1 "
                             "unless --kafka-version says otherwise) or bootstrap:HOST:PORT,sasl=@FILE (a properties file with "
                             "admin.username, admin.password, user.username, user.password; or sasl=env:PREFIX for "
                             "PREFIX_ADMIN_USERNAME, ...; inline sasl=ADMIN:PASSWORD,USER:PASSWORD shows them to ps)")
    parser.add_argument("--kafka-version", type=types.release,
                        help="release whose request rules to hold it to (default: a kafka: target's own; "
                             "required for bootstrap:)")
    parser.add_argument("--max-examples", type=types.count(0, 10_000, "generated ACL scenarios"), default=30,
                        help="generated ACL scenarios after the named ones (default: %(default)s)")
    parser.add_argument("--seed", type=types.seed, help="seed for a reproducible run")
    types.add_common_options(parser, failures=False)


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.options import Options
    from kafka_conformance.requests.check import check_requests, render_requests_text
    from kafka_conformance.requests.targets import parse_requests_target

    types.output_file(args.report_json, "--report-json")
    types.output_file(args.junit_xml, "--junit-xml")
    try:
        target = parse_requests_target(args.target)
    except TargetError as exc:
        raise UsageError(str(exc), where="--target") from exc
    if target.spec == "kfake" and args.kafka_version is None:
        args.kafka_version = "4.3.1"  # kfake emulates the newest Kafka when no MaxVersions is given
    if target.release is None and args.kafka_version is None:
        raise UsageError("a bootstrap: target needs --kafka-version (the release whose rules it claims)", where="--target")
    try:
        with types.progress_for(args) as progress:
            options = Options(kafka_version=args.kafka_version, seed=args.seed, max_examples=args.max_examples,
                              progress=progress)
            report = check_requests(target, options)
    except TargetError as exc:
        raise UsageError(str(exc)) from exc
    sys.stdout.write(redact(render_requests_text(report)) + "\n")
    if args.report_json is not None:
        data = attrs.asdict(report)
        data["exit_code"] = report.exit_code
        types.write_file(args.report_json, json.dumps(data, indent=2))
    if args.junit_xml is not None:
        from kafka_conformance.report.columns.requests import requests_column, requests_rows
        from kafka_conformance.report.model import Report, SuiteRun
        from kafka_conformance.report.write_junit import to_junit_xml

        junit = to_junit_xml(Report(suites=(SuiteRun("requests", requests_rows(), (requests_column(report),)),)))
        types.write_file(args.junit_xml, junit)
    return report.exit_code
