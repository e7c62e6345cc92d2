"""``kafka-conformance corpus generate``: write a deterministic corpus as Parquet.

Exit codes: 0 written, 2 usage or configuration error.  Heavy imports happen
inside :func:`run`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kafka_conformance.cli import args as types
from kafka_conformance.cli.errors import UsageError
from kafka_conformance.cli.fuzz import _positive, _reachable_master, default_mode, master_url

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the ``generate`` sub-command (``corpus`` has room for more)."""
    sub = parser.add_subparsers(dest="corpus_command", required=True)
    gen = sub.add_parser("generate", help="generate a deterministic corpus as Parquet")
    gen.add_argument("--suite", default="authorizer", help="which suite (default: %(default)s)")
    gen.add_argument("--cases", type=_positive, required=True, help="how many cases the corpus holds")
    gen.add_argument("--out", type=Path, required=True, help="corpus directory (resumed when compatible)")
    gen.add_argument("--seed", type=types.seed, default=0, help="generation seed (default: %(default)s)")
    gen.add_argument("--shards", type=_positive, default=None, help="number of shards (default: cases / 1000)")
    gen.add_argument("--kafka-version", type=types.release, help="Kafka release the cases are for (default: the reference's newest)")
    gen.add_argument("--flavour", choices=["standard", "acl"], help="authorizer suite: StandardAuthorizer or AclAuthorizer")
    gen.add_argument("--mode", choices=["mixed", "well-formed", "hostile"],
                      help="authorizer suite: mixed (default), one scenario in five hostile; well-formed, only what Kafka "
                           "accepts; hostile, only edge inputs. The other suites generate well-formed input only")
    gen.add_argument("--target", help="generate for the capabilities this target declares (default: the reference's)")
    gen.add_argument("--master", type=master_url,
                     help="generate the shards on Spark (local[*], spark://HOST:PORT); default: in this process")
    gen.add_argument("--partitions", type=_positive, help="Spark partitions (default: 4 per core)")


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.corpora.generate import CorpusSpec, generate_corpus
    from kafka_conformance.corpora.parquet_io import require_pyarrow
    from kafka_conformance.corpora.shards import ShardPlan
    from kafka_conformance.corpora.suites.registry import get_suite

    types.output_dir(args.out, "--out")
    try:
        suite = get_suite(args.suite)
        settings = suite.generation_settings(target=args.target, kafka_version=args.kafka_version,
                                             flavour=args.flavour, mode=default_mode(args))
        shards = args.shards if args.shards is not None else max(1, -(-args.cases // 1000))
        plan = ShardPlan.with_shards(args.cases, shards)
        spec = CorpusSpec(args.suite, args.seed, args.cases, plan.shard_size, tuple(sorted(settings.items())))
        done = [0]

        def progress(shard: int, n: int) -> None:
            done[0] += n
            if sys.stderr.isatty():
                print(f"\r[{shard + 1}/{plan.shards} shards] {done[0]} cases\033[K", end="", file=sys.stderr, flush=True)

        resumed = (args.out / "corpus.json").exists()
        require_pyarrow()
        if args.master is not None:
            try:
                import pyspark  # noqa: F401
            except ImportError:
                raise ValueError("pyspark is not installed: pip install 'kafka-conformance[spark]', or drop --master") from None
            _reachable_master(args.master)
            from kafka_conformance.corpora.spark_job import generate_on_spark

            generate_on_spark(str(args.out.resolve()), spec, master=args.master, partitions=args.partitions)
        else:
            generate_corpus(args.out, spec, on_shard=progress)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if sys.stderr.isatty():
        print(file=sys.stderr)
    verb = "completed" if resumed else "wrote"
    print(f"{verb} {args.out}: {args.cases} {args.suite} cases in {plan.shards} shards, seed {args.seed} ({spec.generator_version})")
    return 0
