"""The ``kafka-conformance`` command: a thin wrapper over the library.

Exit codes: 0 the target conforms; 1 a divergence was found (or the target
could not answer); 2 usage or configuration error (bad arguments, unusable
target, unreadable file); 3 a bug in the kit (the only case with a
traceback); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM).  Every
process a command starts is stopped before it returns, whichever way it ends
(:mod:`kafka_conformance.adapters.reaper`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from kafka_conformance import __version__
from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError, abbreviate, guarded
from kafka_conformance.terminal.text import shown_stdout

EXIT_OK, EXIT_DIVERGED, EXIT_USAGE = 0, 1, 2
MAX_EXAMPLES = 100_000  # kafka_conformance.authorizer.check.MAX_EXAMPLES, without importing the suite for --help
TARGET_KINDS = """target kinds (--target):
  reference[:VERSION[:standard|acl]]   the kit's reference authorizer (the spec itself)
  reference-indexed[:VERSION[:FLAVOUR]] the reference's fast indexed engine
  python:MODULE:FACTORY                a Python object implementing the protocol (adapters/protocol.py);
                                       MODULE must be importable: run from the project folder or set PYTHONPATH
  cmd:COMMAND                          any language over JSON lines on stdin/stdout (docs/subprocess-protocol.md)
  jvm:CLASS[,classpath=PATH]           a Java org.apache.kafka.server.authorizer.Authorizer (docs/jvm-adapter.md)
  kafka:VERSION[:standard|acl]         Apache Kafka's own authorizer of a release (after 'kafka-conformance fetch')
  kafka-default-by-type                Kafka's default authorizeByResourceType on a list authorizer
'kafka-conformance targets' lists which of them can run on this machine."""


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kafka-conformance",
        description="Check Kafka ACL authorizers, idempotent producers and brokers against Apache Kafka's semantics.",
        epilog="Exit codes: 0 conforms, 1 divergence found, 2 usage or configuration error, "
               "3 a bug in kafka-conformance, 4 (report) something asked for could not run, "
               "129/130/143 stopped by SIGHUP/Ctrl-C/SIGTERM.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="run a conformance suite against a target")
    check_sub = check.add_subparsers(dest="suite", required=True)
    auth = check_sub.add_parser("authorizer", help="the ACL authorizer suite", epilog=TARGET_KINDS,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    auth.add_argument("--target", required=True, metavar="SPEC",
                      help="the authorizer to check; the kinds of target are listed below")
    auth.add_argument("--kafka-version", type=types.release, help="Kafka release whose semantics to check against")
    auth.add_argument("--flavour", choices=["standard", "acl"], help="StandardAuthorizer (KRaft) or AclAuthorizer (ZooKeeper)")
    auth.add_argument("--kafka-bugs", choices=["as-released", "documented"],
                      help="where the release has a known bug of its own, expect its answer (as-released, the "
                           "default) or the documented one (documented); a divergence one of them explains says so")
    auth.add_argument("--max-examples", type=types.count(1, MAX_EXAMPLES, "examples per property"),
                      help=f"random examples per property, after the coverage phase's fixed cases (1 to {MAX_EXAMPLES}; "
                           "campaigns beyond: fuzz)")
    auth.add_argument("--seed", type=types.seed, help="seed for a reproducible run")
    auth.add_argument("--timeout", type=types.seconds, help="seconds one call into the target may take (default: 10); "
                      "a target that does not answer in time ends the run with an adapter error")
    auth.add_argument("--mode", choices=["mixed", "well-formed", "hostile"], default="mixed",
                      help="mixed (default): one scenario in five hostile; well-formed: only what Kafka accepts; hostile: only edge inputs")
    auth.add_argument("--property", action="append", dest="properties", help="run only this property (repeatable)")
    types.add_common_options(auth)

    from kafka_conformance.cli import broker as cli_broker
    from kafka_conformance.cli import corpus as cli_corpus
    from kafka_conformance.cli import fetch as cli_fetch
    from kafka_conformance.cli import fuzz as cli_fuzz
    from kafka_conformance.cli import kafka_versions as cli_kafka_versions
    from kafka_conformance.cli import producer as cli_producer
    from kafka_conformance.cli import report as cli_report
    from kafka_conformance.cli import selftest as cli_selftest

    cli_producer.add_arguments(check_sub.add_parser("producer", help="a real producer client under failure traces"))
    cli_producer.add_matrix_arguments(
        check_sub.add_parser("matrix", help="the trace table on every installed client x broker: which guarantees hold")
    )
    cli_broker.add_arguments(check_sub.add_parser("broker", help="a broker's produce path against the reference, by crafted requests"))
    from kafka_conformance.cli import requests as cli_requests

    cli_requests.add_arguments(check_sub.add_parser(
        "requests", help="a broker's authorization of producer and transaction requests (SASL users, real ACLs)"))
    cli_broker.add_transactions_arguments(check_sub.add_parser(
        "transactions", help="a broker's transactions (KIP-98, KIP-890) against the release's, row by row"))
    cli_corpus.add_arguments(sub.add_parser("corpus", help="deterministic stored corpora (Parquet)"))
    cli_fuzz.add_arguments(sub.add_parser("fuzz", help="a Spark-distributed fuzz run (local[*] by default, any master URL)"))
    cli_fetch.add_arguments(sub.add_parser("fetch", help="fetch the jars of real-Kafka targets from Maven, checked against the lock"))
    cli_fetch.add_classpath_arguments(sub.add_parser(
        "classpath", help="print the classpath of a release's jars (fetched if needed), for javac, java and jvm: targets"))
    cli_kafka_versions.add_arguments(
        sub.add_parser("kafka-versions", help="Apache Kafka's own authorizers of every release judging the reference")
    )

    cli_report.add_arguments(
        sub.add_parser("report", help="every suite over every target that can run here: one page (index.html), "
                       "report.json, summary.md, junit.xml")
    )
    cli_selftest.add_arguments(
        sub.add_parser("selftest", help="how strong the suite is: the zoo of faulty authorizers, caught per seed")
    )
    replay = sub.add_parser("replay", help="re-run saved counterexamples: FIXED / FAILED / ERROR")
    replay.add_argument("files", nargs="+", type=Path, metavar="FILE",
                        help="saved case files (authorizer, producer or broker), as a run wrote them")
    replay.add_argument("--target", help="run against this target (producer cases: this client) instead of the saved one")
    replay.add_argument("--trust-saved-target", action="store_true",
                        help="run the python:, cmd: or jvm: target a case file names (it runs code: only for files you "
                             "trust; without this flag such a case is refused, naming the target, unless --target is given)")
    replay.add_argument("--timeout", type=types.seconds, help="seconds one call into an authorizer target may take (default: 10)")

    explain = sub.add_parser("explain", help="answer one request against an ACL file, with the reason")
    explain.add_argument("acls", type=Path, help="ACL file: kafka-acls --list text, JSON or YAML")
    explain.add_argument("--principal", required=True, help="e.g. User:alice")
    explain.add_argument("--host", default="127.0.0.1", help="client address as Java renders it")
    explain.add_argument("--operation", required=True, help="e.g. READ, Write, DescribeConfigs")
    explain.add_argument("--resource-type", required=True, help="TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, ...")
    explain.add_argument("--name", help="resource name (omit with --by-type)")
    explain.add_argument("--by-type", action="store_true", help="ask authorizeByResourceType instead")
    explain.add_argument("--variant", choices=["default", "acl", "truth"], help="by-type semantics (default: the flavour's)")
    explain.add_argument("--kafka-version", type=types.release, help="the release whose answer to give (default: the newest modelled)")
    explain.add_argument("--flavour", choices=["standard", "acl"], default="standard",
                         help="StandardAuthorizer (KRaft, the default) or AclAuthorizer (ZooKeeper)")
    explain.add_argument("--super-users", help="raw super.users value, overrides the file's config")
    explain.add_argument("--allow-everyone", help="raw allow.everyone.if.no.acl.found value")

    cfg = sub.add_parser("explain-config", help="what a producer configuration really does on a given version")
    cfg.add_argument("settings", nargs="*", metavar="KEY=VALUE", help="producer properties, e.g. acks=1")
    cfg.add_argument("--properties", type=Path, help="a Java .properties file to read first")
    cfg.add_argument("--client", choices=["java", "console", "librdkafka"], default="java",
                     help="whose defaults and rules: the Java producer (default), the console producer, librdkafka")
    cfg.add_argument("--kafka-version", help="Kafka release (librdkafka release for --client librdkafka); default newest")
    cfg.add_argument("--semantics", choices=["shipped", "tristate"], default="shipped",
                     help="which enable.idempotence semantics: shipped (default), or tristate, the never-shipped "
                          "off/required/requested proposal")

    fmt = sub.add_parser("explain-format", help="KIP-98's space comparison against the v2 format that shipped")
    fmt.add_argument("--key-size", type=_size, default=100, help="key bytes, -1 for a null key (default: %(default)s)")
    fmt.add_argument("--value-size", type=_size, default=1024, help="value bytes (default: %(default)s)")
    fmt.add_argument("--records", type=_counts, default=(1, 3, 10, 50, 100), help="batch sizes, comma-separated (default: 1,3,10,50,100)")

    targets = sub.add_parser("targets", help="list the built-in targets and whether each can run here")
    targets.add_argument("--kafka", action="store_true", help="also list every real Kafka authorizer release (kafka:VERSION)")
    targets.add_argument("--grammar", action="store_true",
                         help="print the grammar of target specs (every kind, and what it is in each command) as Markdown")
    return parser


class _Parser(argparse.ArgumentParser):
    """One spelling per option: argparse would take ``--junit`` for ``--junit-xml`` and ``--rep``
    for ``--report-json``, so a script written against a prefix would break when an option is
    added.  Subcommands' parsers are of this class too (argparse makes them of the parent's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of bytes, got {abbreviate(text, 40)!r}") from None
    if not -1 <= value <= 2**31 - 1:
        raise argparse.ArgumentTypeError(f"a size is -1 (null) to 2147483647 (a Java int), got {abbreviate(text, 40)}")
    return value


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated record counts, got {abbreviate(text, 60)!r}") from None
    if not counts or min(counts) < 1 or max(counts) > 100_000:
        raise argparse.ArgumentTypeError(f"record counts must be 1..100000, got {abbreviate(text, 60)!r}")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    from kafka_conformance.adapters.reaper import close_shared, run_scope

    def run() -> int:
        try:
            args = _parser().parse_args(argv)
        except SystemExit as exc:  # argparse: --help, --version (0) or a usage error (2), already printed
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        return _dispatch(args)

    with run_scope(), shown_stdout():
        return guarded(run, cleanup=close_shared)


def entry() -> NoReturn:
    """The console script: :func:`main`, then an exit that a target's leftover thread cannot hold.

    Python waits for every non-daemon thread before it exits; a ``python:`` target that started
    one and never stopped it would hang the kit after its verdict.  Such threads are named on
    stderr and the process ends with the verdict's code (every process and JVM the run started
    is already stopped by then: :func:`main` closes them)."""
    from kafka_conformance.adapters.sandbox import stray_threads

    before = {t.ident for t in threading.enumerate()}
    code = main()
    stray = stray_threads(before)
    if stray:
        names = ", ".join(repr(t.name) for t in stray[:5])
        print(f"kafka-conformance: warning: the run left {len(stray)} thread(s) running ({names}), started by the "
              "target; the kit ends without waiting for them", file=sys.stderr)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    sys.exit(code)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "check":
        if args.suite == "producer":
            from kafka_conformance.cli import producer as cli_producer

            return cli_producer.run(args)
        if args.suite == "matrix":
            from kafka_conformance.cli import producer as cli_producer

            return cli_producer.run_matrix_command(args)
        if args.suite == "broker":
            from kafka_conformance.cli import broker as cli_broker

            return cli_broker.run(args)
        if args.suite == "requests":
            from kafka_conformance.cli import requests as cli_requests

            return cli_requests.run(args)
        if args.suite == "transactions":
            from kafka_conformance.cli import broker as cli_broker

            return cli_broker.run_transactions(args)
        return _check(args)
    if args.command == "corpus":
        from kafka_conformance.cli import corpus as cli_corpus

        return cli_corpus.run(args)
    if args.command == "fuzz":
        from kafka_conformance.cli import fuzz as cli_fuzz

        return cli_fuzz.run(args)
    if args.command == "kafka-versions":
        from kafka_conformance.cli import kafka_versions as cli_kafka_versions

        return cli_kafka_versions.run(args)
    if args.command == "report":
        from kafka_conformance.cli import report as cli_report

        return cli_report.run(args)
    if args.command == "selftest":
        from kafka_conformance.cli import selftest as cli_selftest

        return cli_selftest.run(args)
    if args.command in ("fetch", "classpath"):
        from kafka_conformance.cli import fetch as cli_fetch

        return cli_fetch.run(args) if args.command == "fetch" else cli_fetch.classpath(args)
    if args.command == "replay":
        return _replay(args)
    if args.command in ("explain", "explain-config", "explain-format"):
        from kafka_conformance.cli import explain

        run = {"explain": explain.explain, "explain-config": explain.explain_config, "explain-format": explain.explain_format}
        return run[args.command](args)
    from kafka_conformance.cli import targets as cli_targets

    return cli_targets.grammar() if args.grammar else cli_targets.run(args.kafka)


def _check(args: argparse.Namespace) -> int:
    from kafka_conformance.authorizer.check import check_authorizer
    from kafka_conformance.authorizer.render import dumps_json, to_junit_xml, to_text
    from kafka_conformance.authorizer.targets import TargetError
    from kafka_conformance.options import Options

    types.output_file(args.report_json, "--report-json")
    types.output_file(args.junit_xml, "--junit-xml")
    types.output_dir(args.failures_dir, "--failures-dir")
    try:
        with types.progress_for(args) as progress:
            options = Options(kafka_version=args.kafka_version, seed=args.seed, max_examples=args.max_examples,
                              timeout=args.timeout, failures_dir=args.failures_dir, progress=progress)
            report = check_authorizer(args.target, options, flavour=args.flavour, mode=args.mode, properties=args.properties,
                                      kafka_bugs=args.kafka_bugs)
    except TargetError as exc:
        raise UsageError(str(exc)) from exc
    print(to_text(report))
    types.write_file(args.report_json, dumps_json(report))
    types.write_file(args.junit_xml, to_junit_xml(report))
    return report.exit_code



def _replay(args: argparse.Namespace) -> int:
    from kafka_conformance.authorizer.check import run_property_once
    from kafka_conformance.authorizer.render import describe_scenario
    from kafka_conformance.authorizer.saved import load_case
    from kafka_conformance.authorizer.targets import TargetError, names_code, resolve_target

    worst = EXIT_OK
    for path in args.files:
        kind = _case_kind(path)
        if kind == "producer":
            worst = max(worst, _replay_producer(path, args.target))
            continue
        if kind == "broker":
            from kafka_conformance.cli import broker as cli_broker

            worst = max(worst, cli_broker.replay([path], args.target))
            continue
        try:
            case = load_case(path)
            if args.target is None and names_code(case.target) and not args.trust_saved_target:
                print(f"ERROR  {path}: the case names the target {case.target!r}, which runs code of its own; "
                      "replay it against your target with --target SPEC, or pass --trust-saved-target if you "
                      "trust this file and what it names")
                worst = EXIT_USAGE
                continue
            target = resolve_target(
                args.target or case.target, kafka_version=case.kafka_version, flavour=case.flavour,
                timeout=args.timeout, kafka_bugs=case.kafka_bugs,
            )
            result = run_property_once(case.property, target, case.scenario)
        except (ValueError, TargetError) as exc:
            print(f"ERROR  {exc}" if str(path) in str(exc) else f"ERROR  {path}: {exc}")
            worst = EXIT_USAGE
            continue
        label = {"passed": "FIXED", "failed": "FAILED", "error": "ERROR"}[result.status.value]
        print(f"{label:6} {path} [{case.property}, was {case.anomaly}]")
        if result.counterexample is not None:
            cx = result.counterexample
            for line in describe_scenario(cx.scenario):
                print(f"       {line}")
            if cx.divergence is not None:
                print(f"       {cx.divergence.question}: expected {cx.divergence.expected}, got {cx.divergence.actual}")
                print(f"       why: {cx.divergence.explanation}")
            if cx.adapter_error:
                print(f"       {cx.adapter_error}")
            worst = max(worst, EXIT_DIVERGED) if worst != EXIT_USAGE else worst
    return worst


def _case_kind(path: Path) -> str:
    """Which suite saved a case file ("authorizer" when unreadable: its loader names the problem)."""
    from kafka_conformance.casefiles import case_format

    return {"kafka-conformance/producer-case": "producer", "kafka-conformance/broker-case": "broker"}.get(
        case_format(path) or "", "authorizer"
    )


def _replay_producer(path: Path, client: str | None) -> int:
    from kafka_conformance.producer.render import describe_run
    from kafka_conformance.producer.saved import replay_producer

    try:
        result = replay_producer(path, client=client)
    except ValueError as exc:
        print(f"ERROR  {exc}" if str(path) in str(exc) else f"ERROR  {path}: {exc}")
        return EXIT_USAGE
    print(f"{result.label:6} {path} [{result.case.client} on {result.case.broker}, was {', '.join(result.case.anomalies)}]")
    if result.result is not None:
        for line in describe_run(result.result, with_trace=False)[1:]:
            print(f"       {line}")
    return result.exit_code


if __name__ == "__main__":  # pragma: no cover
    entry()

