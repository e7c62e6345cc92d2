"""``kafka-conformance report``: every suite over every target that can run here, as one page.

A thin wrapper over :func:`~kafka_conformance.report.run.run_report`: it checks
the output folder and reads the baseline before anything runs (a mistyped path
is found in a second, not after the run), prints one plain progress line per
target and property on stderr (live on a terminal, plain lines when piped, none
with ``--quiet``), writes the report folder, prints the terminal summary (the
page's data, :mod:`~kafka_conformance.report.write_text`), and ends with where
the page is and the verdict.  ``--render-md-from`` runs nothing: it renders the
findings block that ``docs/*-conformance.md`` embed from a saved ``report.json``.

Exit codes: 0 everything asked for ran and held (with ``--baseline``: no new
divergence); 1 a divergence (with ``--baseline``: a new one); 2 usage error: an
unknown target, client, broker or suite, an output folder that cannot be written,
a baseline that cannot be read; 4 no divergence, but something asked for could
not run.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError
from kafka_conformance.report.model import SUITES

__all__ = ["DEFAULT_OUT", "add_arguments", "run"]

DEFAULT_OUT = Path("kafka-conformance-report")
PROFILES = ("smoke", "ci", "nightly")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run the suites over the targets that can run on this machine and write a report folder: index.html "
        "(one self-contained page), report.json, summary.md (for a pull-request comment) and junit.xml. "
        "By default, the kit's own targets, the same on every machine: the reference authorizer, the model producer "
        "and the test broker. Third-party clients and brokers (kafka-python, aiokafka, confluent-kafka; Tansu, noida, "
        "librdkafka's mock) and targets that start a JVM (kafka:VERSION authorizers and brokers, jvm: authorizers, "
        "the java producer) run only when named with --target/--client/--broker, or with --all-runnable."
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, metavar="DIR",
                        help="the report folder (default: %(default)s); minimal cases are saved under DIR/cases")
    parser.add_argument("--suite", action="append", dest="suites", choices=SUITES,
                        help="run only this suite (repeatable; default: every suite, or those the named targets belong to)")
    parser.add_argument("--target", action="append", dest="targets", default=[], metavar="SPEC",
                        help="an authorizer (reference, python:MODULE:FACTORY, cmd:COMMAND, jvm:CLASS, kafka:VERSION: Apache "
                             "Kafka's authorizer) or a broker (test-broker[:VERSION], tansu, noida, rdkafka-mock, "
                             "bootstrap:HOST:PORT) to report on instead of the defaults (repeatable)")
    parser.add_argument("--client", action="append", dest="clients", default=[],
                        help="a producer client (kafka-python, aiokafka, confluent-kafka, java, model) instead of the defaults "
                             "(repeatable)")
    parser.add_argument("--broker", action="append", dest="brokers", default=[],
                        help="a broker (test-broker[:VERSION], tansu, noida, rdkafka-mock, kafka:VERSION: Apache Kafka's "
                             "broker, kfake, kafka-cluster:VERSION[:N]): the producer clients run against it, the broker "
                             "suite checks it and, where it has a transaction coordinator, the transactions suite runs on it, "
                             "instead of the defaults (repeatable)")
    parser.add_argument("--kafka-version", type=types.idempotence_release,
                        help="the Kafka release every target is held to (default: the newest modelled; 4.3.0 for producers "
                             "and brokers)")
    parser.add_argument("--kafka-bugs", choices=["as-released", "documented"],
                        help="authorizer suite: where a release has a known bug of its own, expect its answer "
                             "(as-released, the default) or the documented one")
    parser.add_argument("--profile", choices=PROFILES, default="ci",
                        help="how hard to look: smoke (under a minute on the defaults), ci (default), nightly")
    parser.add_argument("--all-runnable", action="store_true",
                        help="also every target this machine can run: the third-party clients and brokers installed "
                             "here, and every JVM target (every fetched kafka:VERSION authorizer and broker, the java "
                             "producer): slow")
    parser.add_argument("--demo", action="store_true",
                        help="also run a planted bug (the reference with ALLOW beating DENY), shown as the demonstration "
                             "it is: what a finding looks like, never counted in the verdict or the exit code")
    parser.add_argument("--seed", type=types.seed, help="seed for a reproducible run")
    parser.add_argument("--timeout", type=types.seconds,
                        help="seconds one call into an authorizer target may take (default: 10)")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="an earlier report.json: list new and fixed divergences, and exit 1 only for new ones")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (progress is live on a terminal, plain lines every few seconds "
                             "when piped; NO_COLOR gives plain lines on a terminal too)")
    parser.add_argument("--render-md-from", type=Path, metavar="REPORT_JSON",
                        help="run nothing: print the findings block of a saved report.json (what docs/*-conformance.md "
                             "embed), or with --update-doc rewrite that block in a document")
    parser.add_argument("--update-doc", type=Path, metavar="DOC", help="with --render-md-from: the Markdown document "
                        "whose generated block to rewrite")


def _probe_writable(folder: Path) -> None:
    """Create the folder and write into it now: permission bits do not tell the whole story
    (a superuser passes every access check; /proc refuses anyway)."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-check-"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write into {folder}: {exc.strerror}", where="--out") from exc


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.report.baseline import compare
    from kafka_conformance.report.files import write_report
    from kafka_conformance.report.plan import ReportError
    from kafka_conformance.report.read_json import load_report
    from kafka_conformance.report.run import run_report
    from kafka_conformance.report.write_text import to_text

    if args.render_md_from is not None:
        return _render_block(args.render_md_from, args.update_doc)
    if args.update_doc is not None:
        raise UsageError("--update-doc needs --render-md-from REPORT_JSON")
    types.output_dir(args.out, "--out")
    from kafka_conformance.cli.producer import quiet_clients

    quiet_clients()
    _probe_writable(args.out)
    old = None
    if args.baseline is not None:
        try:
            old = load_report(args.baseline)
        except ValueError as exc:
            raise UsageError(str(exc), where="--baseline") from exc

    try:
        with types.progress_for(args) as progress:
            report = run_report(
                suites=args.suites, targets=args.targets, clients=args.clients, brokers=args.brokers,
                kafka_version=args.kafka_version, profile=args.profile, all_runnable=args.all_runnable, seed=args.seed,
                failures_dir=args.out / "cases", timeout=args.timeout, progress=progress, demo=args.demo,
                kafka_bugs=args.kafka_bugs,
            )
    except ReportError as exc:
        raise UsageError(str(exc)) from exc
    comparison = compare(old, report, baseline=str(args.baseline)) if old is not None else None
    try:
        written = write_report(report, args.out, comparison)
    except OSError as exc:
        raise UsageError(f"cannot write the report: {exc.filename or args.out}: {exc.strerror}", where="--out") from exc
    summary = to_text(report, comparison)
    if summary:
        print(summary)
        print()
    print(f"report: {written['index.html']}")
    print(report.verdict_line())
    return comparison.exit_code if comparison is not None else report.exit_code


def _render_block(source: Path, doc: Path | None) -> int:
    """``--render-md-from``: the generated findings block of a saved report, printed or written into ``doc``."""
    from kafka_conformance.report.docs_block import render_block, update_document
    from kafka_conformance.report.read_json import load_report

    try:
        saved = load_report(source)
    except ValueError as exc:
        raise UsageError(str(exc), where="--render-md-from") from exc
    if doc is None:
        print(render_block(saved, source))
        return 0
    try:
        changed = update_document(doc, saved, source)
    except ValueError as exc:
        raise UsageError(str(exc), where="--update-doc") from exc
    except OSError as exc:
        raise UsageError(f"cannot rewrite {doc}: {exc.strerror}", where="--update-doc") from exc
    print(f"{doc}: {'updated' if changed else 'already up to date'}")
    return 0
