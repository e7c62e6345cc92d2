"""One fuzz campaign from start to report, with or without Spark: plan (or
resume), execute the shards, reconcile the accounting, aggregate, write the
summary files."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kafka_conformance.corpora.aggregate import summarise
from kafka_conformance.corpora.fuzz import FuzzSpec, reconcile, run_inline, start_run
from kafka_conformance.corpora.summary import FuzzSummary, to_json, to_markdown
from kafka_conformance.outputs import write_output

__all__ = ["run_campaign"]

Progress = Callable[[int, int], None]


class _Watcher:
    """Counts verdict files as they appear (works whoever writes them: this
    process, Spark executors, a cluster's workers on a shared disk)."""

    def __init__(self, out: Path, total: int, progress: Progress | None) -> None:
        self._dir, self._total, self._progress = out / "verdicts", total, progress
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="kafka-conformance-progress", daemon=True)

    def _count(self) -> int:
        return sum(1 for _ in self._dir.glob("shard-*.parquet")) if self._dir.exists() else 0

    def _loop(self) -> None:
        last = -1
        while not self._stop.wait(0.5):
            done = self._count()
            if done != last and self._progress is not None:
                self._progress(done, self._total)
                last = done

    def __enter__(self) -> _Watcher:
        if self._progress is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self._progress is not None:
            self._progress(self._count(), self._total)


def run_campaign(spec: FuzzSpec, *, master: str | None, partitions: int | None = None,
                 progress: Progress | None = None, spark: Any = None) -> FuzzSummary:
    """Run (or resume) ``spec``: ``master`` None runs in this process, otherwise on
    Spark (``spark`` an existing SparkSession to reuse, as the tests do).

    Raises ValueError for an unusable target or directory and AccountingError when
    the verdict rows do not match the cases."""
    started = time.monotonic()
    todo = start_run(spec)
    resumed = spec.cases.plan.shards - len(todo)
    with _Watcher(Path(spec.out), spec.cases.plan.shards, progress):
        if master is None and spark is None:
            executor, startup = "one process", 0.0
            t0 = time.monotonic()
            run_inline(spec, todo)
            run_s = time.monotonic() - t0
        else:
            from kafka_conformance.corpora.spark_job import run_on_spark

            executor, startup, run_s = run_on_spark(spec, todo, master=master, partitions=partitions, spark=spark)
    reconcile(spec)
    for leftover in (Path(spec.out) / "verdicts").glob(".*.tmp"):
        leftover.unlink()  # half-written files of attempts that died; their shards were redone
    summary = summarise(spec, executor=executor, resumed_shards=resumed, startup_s=startup, run_s=run_s, started=started)
    out = Path(spec.out)
    write_output(out / "summary.json", to_json(summary) + "\n")
    write_output(out / "summary.md", to_markdown(summary))
    return summary
