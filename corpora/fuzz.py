"""A fuzz run without Spark in it: the run directory, the executor-side work, resume
and exact accounting.  :mod:`~kafka_conformance.corpora.spark_job` maps
:func:`process_shards` over Spark partitions; :func:`run_inline` runs the same
function in this process (no pyspark needed).

Run directory::

    OUT/run.json                      what the run is (compared on resume)
    OUT/verdicts/shard-000000.parquet one file per shard, written atomically
    OUT/failures/*.json, *.py         each distinct failure, shrunk, replayable
    OUT/summary.json, OUT/summary.md  the aggregated report

A shard's verdict file appears whole or not at all (temporary name, then
rename), so a task that dies and is retried, or a run that is started again,
rewrites nothing twice and loses nothing; :func:`reconcile` proves it at the
end by matching every written case id against the plan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.corpora.generate import CorpusSpec, generate_shard, load_corpus, read_corpus_shard
from kafka_conformance.corpora.manifest import read_manifest, write_or_check_manifest
from kafka_conformance.corpora.shards import case_id
from kafka_conformance.corpora.suites.registry import get_suite
from kafka_conformance.corpora.verdicts import rows_to_columns, run_shard

__all__ = [
    "RUN_FORMAT",
    "AccountingError",
    "FuzzSpec",
    "process_shards",
    "reconcile",
    "run_inline",
    "start_run",
    "verdict_path",
]

RUN_FORMAT = "kafka-conformance/fuzz-run"


class AccountingError(RuntimeError):
    """Verdict rows do not match the cases planned: a lost or doubled case."""


@attrs.frozen
class FuzzSpec:
    """Everything a worker needs, as plain values (it travels to Spark executors)."""

    out: str
    target: str
    cases: CorpusSpec
    corpus_dir: str | None = None
    """Read the cases from this corpus; None: generate them from the seed on the executor."""
    kafka_bugs: str | None = None
    """The authorizer suite's judging choice for Kafka's own bugs (``as-released`` or
    ``documented``); None: the target's own (as released).  It changes no case, only the answers
    a case is held to, so it lives here and not in the corpus's generation settings."""

    def manifest(self) -> dict[str, Any]:
        body = self.cases.to_json()
        body.update(format=RUN_FORMAT, target=self.target, corpus=self.corpus_dir)
        if self.kafka_bugs is not None:  # absent otherwise: a run written before the option resumes
            body["kafka_bugs"] = self.kafka_bugs
        return body

    def judging_settings(self) -> dict[str, str]:
        """What the suite opens the target with: the corpus's settings and the judging choice."""
        settings = self.cases.settings_map
        return settings if self.kafka_bugs is None else {**settings, "kafka_bugs": self.kafka_bugs}

    def to_json(self) -> dict[str, Any]:
        return {"out": self.out, **self.manifest()}

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> FuzzSpec:
        return cls(body["out"], body["target"], CorpusSpec.from_json(body), body["corpus"], body.get("kafka_bugs"))

    @classmethod
    def load(cls, out: Path) -> FuzzSpec:
        """The spec of an existing run directory (to resume it or re-aggregate it)."""
        body = read_manifest(out / "run.json", RUN_FORMAT)
        return cls.from_json({"out": str(out), **body})


def verdict_path(out: Path, shard: int) -> Path:
    return out / "verdicts" / f"shard-{shard:06d}.parquet"


def start_run(spec: FuzzSpec) -> list[int]:
    """Write or check the run manifest; the shards still to do (all, or those a
    previous, interrupted run of the same spec did not write)."""
    out = Path(spec.out)
    if spec.corpus_dir is not None:
        corpus = load_corpus(Path(spec.corpus_dir))
        if corpus != spec.cases:
            raise ValueError(f"{spec.corpus_dir}: the corpus manifest changed since the run was planned")
    from kafka_conformance.corpora.parquet_io import check_identity, manifest_digest

    write_or_check_manifest(out / "run.json", spec.manifest())
    for stale in (out / "verdicts").glob(".*.tmp") if (out / "verdicts").exists() else ():
        stale.unlink()  # a temporary file of a writer that died; its shard is redone
    digest, plan, todo = manifest_digest(spec.manifest()), spec.cases.plan, []
    for k in range(plan.shards):
        path = verdict_path(out, k)
        if path.exists():  # done by an earlier run of this very spec, or refused here, naming the file
            check_identity(path, digest, k, plan.size_of(k))
        else:
            todo.append(k)
    return todo


def process_shards(spec: FuzzSpec, shards: Iterable[int]) -> Iterator[tuple[int, int]]:
    """The executor's work: open the target once, check and write each shard not
    yet written, close the target.  Yields (shard, rows written or found)."""
    from kafka_conformance.corpora.parquet_io import VERDICT_COLUMNS, check_identity, manifest_digest, write_atomically

    out = Path(spec.out)
    digest = manifest_digest(spec.manifest())
    todo = []
    for k in shards:
        path = verdict_path(out, k)
        if path.exists():  # written by an earlier attempt of this task, or an earlier run of this very spec
            planned = spec.cases.plan.size_of(k)
            check_identity(path, digest, k, planned)
            yield k, planned
        else:
            todo.append(k)
    if not todo:
        return
    suite = get_suite(spec.cases.suite)
    checker = suite.open(spec.target, spec.judging_settings())
    try:
        for k in todo:
            if spec.corpus_dir is None:
                cases = generate_shard(suite, spec.cases, k)
            else:
                cases = read_corpus_shard(Path(spec.corpus_dir), spec.cases, k, suite)
            rows = run_shard(cases, checker, suite.encode)
            write_atomically(verdict_path(out, k), VERDICT_COLUMNS, rows_to_columns(rows), belongs_to=digest, shard=k)
            yield k, len(rows)
    finally:
        checker.close()


def run_inline(spec: FuzzSpec, shards: Iterable[int], on_shard: Callable[[int, int], None] | None = None) -> None:
    """The single-process executor (no Spark)."""
    for k, n in process_shards(spec, shards):
        if on_shard is not None:
            on_shard(k, n)


def reconcile(spec: FuzzSpec) -> int:
    """Check that every planned case has exactly one verdict row; the total.

    Raises AccountingError listing missing shards, wrong row counts, unknown or
    doubled case ids."""
    from kafka_conformance.corpora.parquet_io import DamagedFile, check_identity, manifest_digest, read_columns

    out, plan, cs = Path(spec.out), spec.cases.plan, spec.cases
    digest = manifest_digest(spec.manifest())
    problems: list[str] = []
    total = 0
    for k in range(plan.shards):
        path = verdict_path(out, k)
        if not path.exists():
            problems.append(f"shard {k}: no verdict file")
            continue
        try:
            check_identity(path, digest, k, plan.size_of(k))
        except DamagedFile as exc:
            problems.append(str(exc))
            continue
        ids = read_columns(path, ["case_id"])["case_id"]
        expected = [case_id(cs.suite, cs.seed, k, i) for i in range(plan.size_of(k))]
        if ids != expected:
            have, want = set(ids), set(expected)
            doubled = len(ids) - len(have)
            problems.append(f"shard {k}: {len(ids)} rows for {len(expected)} cases "
                            f"({len(want - have)} missing, {len(have - want)} unknown, {doubled} doubled)")
        total += len(ids)
    extra = sorted(p.name for p in (out / "verdicts").glob("shard-*.parquet")
                   if not p.name[6:12].isdigit() or int(p.name[6:12]) >= plan.shards) if (out / "verdicts").exists() else []
    if extra:
        problems.append(f"verdict files outside the plan: {', '.join(extra)}")
    if problems or total != cs.cases:
        raise AccountingError(f"{out}: {cs.cases} cases planned, {total} verdict rows found: " + "; ".join(problems))
    return total


def partition_task(spec_json: dict[str, Any], shards: Iterable[int]) -> Iterator[tuple[int, int]]:
    """What a Spark partition runs (picklable by reference: a module-level function)."""
    return process_shards(FuzzSpec.from_json(spec_json), list(shards))
