"""``kafka-conformance fuzz``: many generated cases against a target, on Spark or in
this process, every case accounted for, each distinct failure shrunk and saved.

Exit codes: 0 every case passed, 1 a failure (or an accounting mismatch), 2
usage or configuration error.  Heavy imports happen inside :func:`run`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError, abbreviate
from kafka_conformance.terminal.events import Kind, ProgressEvent

__all__ = ["add_arguments", "master_url", "run"]

EXIT_DIVERGED = 1


_positive = types.count(1, 10**9, "a whole number")

_MASTER = re.compile(r"^(local(\[(\*|[1-9]\d{0,3})(,[1-9]\d{0,3})?\])?|spark://[^\s/]+:\d{1,5}(,[^\s/]+:\d{1,5})*"
                     r"|yarn|k8s://\S+|mesos://\S+)$")


def _reachable_master(master: str) -> None:
    """A ``spark://`` master that nothing listens at fails inside Spark after a minute of
    retries; one connection attempt per host says so at once."""
    import socket

    if not master.startswith("spark://"):
        return
    for address in master.removeprefix("spark://").split(","):
        host, _, port = address.rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=5):
                return
        except OSError:
            continue
    raise UsageError(f"nothing answers at {master}", where="--master", remedy="start the Spark master, or fix the URL")


def master_url(text: str) -> str:
    """An argparse type: a Spark master URL Spark itself would accept, checked before Spark starts
    (a bogus one otherwise fails inside spark-submit with a JVM stack trace)."""
    if not _MASTER.match(text.strip()):
        raise argparse.ArgumentTypeError(f"not a Spark master URL: {abbreviate(text, 80)!r}; expected local, "
                                         "local[N], local[*], spark://HOST:PORT, yarn or k8s://URL")
    return text.strip()


def add_arguments(parser: argparse.ArgumentParser, *, master_default: str | None = "local[*]") -> None:
    parser.add_argument("--suite", default="authorizer", help="which suite's cases to run (default: %(default)s)")
    parser.add_argument("--target", required=True, help="target spec, e.g. reference or python:pkg.mod:factory")
    parser.add_argument("--cases", type=_positive, help="how many cases to generate (not with --corpus)")
    parser.add_argument("--corpus", type=Path, help="run the cases of this corpus instead of generating them")
    parser.add_argument("--seed", type=types.seed, default=0, help="generation seed (default: %(default)s)")
    parser.add_argument("--shard-size", type=types.count(1, 100_000, "a shard size"), default=1000,
                        help="cases per shard, the unit of retry and resume (default: %(default)s)")
    parser.add_argument("--kafka-version", type=types.release, help="Kafka release whose semantics to check against")
    parser.add_argument("--flavour", choices=["standard", "acl"], help="StandardAuthorizer or AclAuthorizer")
    parser.add_argument("--kafka-bugs", choices=["as-released", "documented"],
                        help="authorizer suite: where the release has a known bug of its own, expect its answer "
                             "(as-released, the default) or the documented one (documented)")
    parser.add_argument("--mode", choices=["mixed", "well-formed", "hostile"],
                      help="authorizer suite: mixed (default), one scenario in five hostile; well-formed, only what Kafka "
                           "accepts; hostile, only edge inputs. The other suites generate well-formed input only")
    parser.add_argument("--master", type=master_url, default=master_default,
                        help="Spark master URL: local[*] (default), local[N], spark://HOST:PORT")
    parser.add_argument("--no-spark", action="store_true", help="run every shard in this process, without Spark")
    parser.add_argument("--partitions", type=_positive,
                        help="Spark partitions, each opens the target once (default: 8 per core, at most one per shard)")
    parser.add_argument("--out", type=Path, required=True,
                        help="run directory: verdicts, failures, summary; a compatible earlier run there is resumed")
    parser.add_argument("--report-json", type=Path, help="also write the summary as JSON here")
    parser.add_argument("--report-md", type=Path, help="also write the summary as Markdown here")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def default_mode(args: argparse.Namespace) -> str:
    """``--mode`` as given, else the suite's default: the authorizer suite mixes hostile input
    into its cases, the others have only well-formed input (a default of "mixed" for every suite
    made ``fuzz --suite producer`` fail unless the user named the one mode it has)."""
    if args.mode is not None:
        return str(args.mode)
    return "mixed" if args.suite == "authorizer" else "well-formed"


def _shards(sink: Callable[[ProgressEvent], None], target: str) -> Callable[[int, int], None]:
    """Shards done as progress events (a shard is the fuzz run's unit of work)."""
    def seen(done: int, total: int) -> None:
        sink(ProgressEvent(Kind.END if done >= total else Kind.EXAMPLE, f"fuzz {target}", "shards", done, total,
                           unit="shards"))

    return seen


def _error(message: str) -> int:
    raise UsageError(message)


def run(args: argparse.Namespace, *, spark_factory: Callable[[], Any] | None = None) -> int:
    from kafka_conformance.corpora.campaign import run_campaign
    from kafka_conformance.corpora.fuzz import AccountingError, FuzzSpec
    from kafka_conformance.corpora.generate import CorpusSpec, load_corpus
    from kafka_conformance.corpora.parquet_io import require_pyarrow
    from kafka_conformance.corpora.suites.registry import get_suite
    from kafka_conformance.corpora.summary import to_json, to_markdown, to_text

    types.output_dir(args.out, "--out")
    types.output_file(args.report_json, "--report-json")
    types.output_file(args.report_md, "--report-md")
    try:
        if args.corpus is not None:
            if args.cases is not None:
                return _error("--cases and --corpus exclude each other: a corpus has its own cases")
            cases = load_corpus(args.corpus)
            suite = get_suite(cases.suite)
            mine = suite.generation_settings(target=args.target, kafka_version=cases.settings_map.get("kafka_version"),
                                             flavour=cases.settings_map.get("flavour"), mode=cases.settings_map.get("mode", ""))
            if mine != cases.settings_map:
                differ = ", ".join(f"{k}={cases.settings_map.get(k)!r} in the corpus, {v!r} for the target"
                                   for k, v in mine.items() if cases.settings_map.get(k) != v)
                return _error(f"{args.corpus} was generated for other capabilities than {args.target!r} declares: {differ}")
            corpus_dir: str | None = str(args.corpus.resolve())
        else:
            if args.cases is None:
                return _error("give --cases N (or --corpus DIR)")
            suite = get_suite(args.suite)
            settings = suite.generation_settings(target=args.target, kafka_version=args.kafka_version,
                                                 flavour=args.flavour, mode=default_mode(args))
            cases = CorpusSpec(args.suite, args.seed, args.cases, args.shard_size, tuple(sorted(settings.items())))
            corpus_dir = None
        if args.kafka_bugs is not None and cases.suite != "authorizer":
            return _error(f"--kafka-bugs is an authorizer setting; the {cases.suite} suite has none")
        # Absolute paths: executors do not share the driver's working directory.
        spec = FuzzSpec(str(args.out.resolve()), args.target, cases, corpus_dir, args.kafka_bugs)
        require_pyarrow()
        spark = None
        if spark_factory is not None:
            spark = spark_factory()
        elif not args.no_spark:
            try:
                import pyspark  # noqa: F401
            except ImportError:
                return _error("pyspark is not installed: pip install 'kafka-conformance[spark]', or use --no-spark")
            _reachable_master(args.master)
        try:
            with types.progress_for(args) as writer:
                writer(ProgressEvent(Kind.START, f"fuzz {args.target}", "shards", 0, cases.plan.shards, unit="shards"))
                summary = run_campaign(spec, master=None if args.no_spark else args.master,
                                       partitions=args.partitions, progress=_shards(writer, args.target), spark=spark)
        except Exception as exc:
            if "JAVA_GATEWAY_EXITED" in str(exc) or "Java gateway process exited" in str(exc):
                raise UsageError(f"Spark could not start with master {args.master!r}: {abbreviate(str(exc), 300)}",
                                 remedy="check the master URL, and that Java is installed") from None
            raise
        finally:
            if spark is not None:
                spark.stop()
    except AccountingError as exc:
        print(f"kafka-conformance: ACCOUNTING MISMATCH: {exc}", file=sys.stderr)
        return EXIT_DIVERGED
    except ValueError as exc:
        return _error(str(exc))
    print(to_text(summary))
    for path, text in ((args.report_json, to_json(summary) + "\n"), (args.report_md, to_markdown(summary))):
        types.write_file(path, text)
    return summary.exit_code
