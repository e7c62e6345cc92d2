"""The Spark job: the only module that imports pyspark (inside its functions, so
that importing it stays cheap).

Shard numbers are parallelised into partitions; each partition runs
:func:`~kafka_conformance.corpora.fuzz.partition_task`, which opens the target
once, writes one verdict file per shard atomically and closes the target.  The
verdict directory must be visible to the driver and every executor (local runs,
a standalone cluster on one machine, or a shared filesystem).

Also a ``spark-submit`` entry point: ``spark-submit [--py-files kit.zip] .../spark_job.py
--suite authorizer --target SPEC --cases N --out DIR`` takes the ``fuzz`` options.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from kafka_conformance.corpora.fuzz import FuzzSpec, partition_task
from kafka_conformance.corpora.generate import CorpusSpec

__all__ = ["DEFAULT_MASTER", "generate_on_spark", "main", "run_on_spark", "spark_session", "with_retries"]

DEFAULT_MASTER = "local[*]"

_LOCAL = re.compile(r"local(\[(\*|[0-9]+)\])?")


def with_retries(master: str, attempts: int = 4) -> str:
    """``local`` / ``local[N]`` / ``local[*]`` as ``local[N,attempts]``.

    Local mode runs every task once (``spark.task.maxFailures`` is ignored there),
    so a Python worker that dies would fail the whole job; with the retries a
    cluster has by default, the task runs again and the shards it had written
    are kept (exact accounting).  Other masters are returned unchanged."""
    m = _LOCAL.fullmatch(master.strip())
    if m is None:
        return master
    return f"local[{m.group(2) or '1'},{attempts}]"


_QUIET_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
"""


def _quiet_log4j2(folder: str) -> str:
    """A log4j2 configuration that prints errors only, in the run's own private folder (the driver
    JVM reads it at start: Spark's INFO/WARN start-up chatter never appears).  Never a fixed name
    in the shared temp directory, where another local user could plant a configuration of theirs."""
    path = os.path.join(folder, "log4j2.properties")
    with open(path, "x", encoding="utf-8") as out:
        out.write(_QUIET_LOG4J2)
    return f"-Dlog4j2.configurationFile=file:{path}"


class _SignalsButSigint:
    """The :mod:`signal` module as PySpark's context module sees it while a session starts:
    everything passes through, except that setting a SIGINT handler is ignored (see
    :func:`spark_session`)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(signal, name)

    @staticmethod
    def signal(signalnum: int, handler: Any) -> Any:
        if signalnum == signal.SIGINT:
            return signal.getsignal(signal.SIGINT)
        return signal.signal(signalnum, handler)


@contextlib.contextmanager
def _keeping_sigint() -> Iterator[None]:
    """While a SparkContext starts, PySpark's context module cannot replace the SIGINT handler.

    The module is ``pyspark.core.context`` (PySpark 4) or ``pyspark.context`` (3.x); where
    neither has a ``signal`` global, nothing is changed and :func:`spark_session` puts the
    handler back afterwards, as before."""
    import importlib

    module = None
    for name in ("pyspark.core.context", "pyspark.context"):
        try:
            candidate = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(candidate, "signal", None) is signal:
            module = candidate
            break
    if module is None:
        yield
        return
    module.signal = _SignalsButSigint()  # type: ignore[attr-defined]
    try:
        yield
    finally:
        module.signal = signal  # type: ignore[attr-defined]


def spark_session(master: str | None = None, app_name: str = "kafka-conformance fuzz") -> Any:
    """A SparkSession bound to 127.0.0.1, without UI or console progress bar, quiet.

    ``master`` None keeps what spark-submit configured (or ``local[*]``); a local
    master gets task retries (:func:`with_retries`)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    private = tempfile.mkdtemp(prefix="kafka-conformance-spark-")  # mode 0700, this run's alone
    if master is not None:
        # We start the driver JVM (under spark-submit it is already running and keeps its logging).
        builder = builder.master(with_retries(master)).config("spark.driver.extraJavaOptions", _quiet_log4j2(private))
    for key, value in {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.python.worker.reuse": "true",
    }.items():
        builder = builder.config(key, value)
    # SparkContext installs its own SIGINT handler (cancel every job through py4j, then raise) at
    # the end of its start, and the session's JVM side is built after that: a Ctrl-C in that
    # window ran PySpark's handler and printed py4j's tracebacks instead of "interrupted".  So
    # PySpark is kept from installing it at all (:func:`_keeping_sigint`), and whatever handler
    # was in place before is put back in case a PySpark release installs it some other way.
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main_thread else None
    try:
        with _keeping_sigint():
            session = builder.getOrCreate()
    except Exception as exc:  # a py4j error from the JVM: say what it means, not the Java stack
        first = str(exc).strip().splitlines()
        reason = next((line for line in first if "Exception" in line), first[0] if first else type(exc).__name__)
        raise ValueError(f"Spark could not start a session with master {master!r}: {reason[:300]}") from None
    finally:
        if main_thread and previous is not None:
            signal.signal(signal.SIGINT, previous)
        shutil.rmtree(private, ignore_errors=True)  # log4j2 read it while the JVM started
    session.sparkContext.setLogLevel("ERROR")
    return session


FUZZ_PARTITIONS_PER_SLOT = 8
"""A fuzz run's default partitions per slot.  Shards differ in cost (a record-log case costs
many times a plain one), and a slot that draws the last expensive partition finishes alone:
with 4 per slot on ``local[2]`` the busiest slot of a 200,000-case ``reference-indexed`` run did
53.4% of the work, with 8 per slot 52.0% (other runs vary either way: ``benchmarks/README.md``);
smaller partitions bound the tail lower.  Each partition opens the target once, so a JVM
target pays one more start per extra partition: a second or so against runs of minutes."""


def run_on_spark(spec: FuzzSpec, shards: Sequence[int], *, master: str | None, partitions: int | None = None,
                 spark: Any = None) -> tuple[str, float, float]:
    """Run ``shards`` of ``spec`` on Spark; (executor label, start-up s, run s).

    ``spark`` reuses a session (it is then left running); otherwise one is started
    on ``master`` and stopped at the end."""
    t0 = time.monotonic()
    own = spark is None
    session = spark_session(master or DEFAULT_MASTER) if own else spark
    try:
        sc = session.sparkContext
        startup = time.monotonic() - t0
        label = f"Spark {sc.master}"
        if not shards:
            return label, startup, 0.0
        slices = partitions or max(1, min(len(shards), FUZZ_PARTITIONS_PER_SLOT * sc.defaultParallelism))
        t1 = time.monotonic()
        task = functools.partial(partition_task, spec.to_json())
        sc.parallelize(list(shards), slices).mapPartitions(task).collect()
        return label, startup, time.monotonic() - t1
    finally:
        if own:
            session.stop()


def generate_on_spark(directory: str, spec: CorpusSpec, *, master: str | None, partitions: int | None = None,
                      spark: Any = None) -> tuple[str, float, float]:
    """Write the shards of a corpus not yet written, in parallel; (executor label,
    start-up s, run s).  The driver writes (or checks) the manifest first."""
    from pathlib import Path

    from kafka_conformance.corpora.generate import generate_task, shard_path
    from kafka_conformance.corpora.manifest import write_or_check_manifest

    write_or_check_manifest(Path(directory) / "corpus.json", spec.to_json())
    todo = [k for k in range(spec.plan.shards) if not shard_path(Path(directory), k).exists()]
    t0 = time.monotonic()
    own = spark is None
    session = spark_session(master or DEFAULT_MASTER, app_name="kafka-conformance corpus") if own else spark
    try:
        sc = session.sparkContext
        startup = time.monotonic() - t0
        if todo:
            t1 = time.monotonic()
            slices = partitions or max(1, min(len(todo), 4 * sc.defaultParallelism))
            sc.parallelize(todo, slices).mapPartitions(functools.partial(generate_task, directory, spec.to_json())).collect()
            return f"Spark {sc.master}", startup, time.monotonic() - t1
        return f"Spark {sc.master}", startup, 0.0
    finally:
        if own:
            session.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """``spark-submit`` entry point: the ``fuzz`` command's options; the master comes
    from spark-submit unless --master is given."""
    import argparse

    from kafka_conformance.cli import fuzz as cli_fuzz

    parser = argparse.ArgumentParser(prog="spark_job.py", description="kafka-conformance fuzz under spark-submit")
    cli_fuzz.add_arguments(parser, master_default=None)
    args = parser.parse_args(argv)
    if args.no_spark:
        parser.error("--no-spark makes no sense under spark-submit")
    return cli_fuzz.run(args, spark_factory=lambda: spark_session(args.master))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
