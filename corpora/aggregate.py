"""Aggregation on the driver: counts per verdict and anomaly over every verdict
file, distinct failures by signature, each shrunk and saved as a replayable case.

Only the (few) non-passing rows are turned into Python objects; the counting is
done by pyarrow over the whole table.
"""

from __future__ import annotations

import time
from pathlib import Path

import attrs

from kafka_conformance.corpora.fuzz import FuzzSpec, verdict_path
from kafka_conformance.corpora.suites.registry import CaseOutcome, Saved, get_suite
from kafka_conformance.corpora.summary import FailureGroup, FuzzSummary

__all__ = ["Tally", "summarise", "tally"]

_FAILURE_COLUMNS = ["case_id", "shard", "index", "property", "verdict", "anomaly", "signature", "detail", "adapter_error", "case"]


@attrs.frozen
class Tally:
    verdicts: tuple[tuple[str, int], ...]
    anomalies: tuple[tuple[str, int], ...]
    groups: tuple[tuple[str, int, dict[str, object]], ...]
    """(signature, count, first failing row) in order of first appearance by (shard, index)."""


def tally(spec: FuzzSpec) -> Tally:
    from kafka_conformance.corpora.parquet_io import require_pyarrow

    require_pyarrow()
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    out = Path(spec.out)
    paths = [verdict_path(out, k) for k in range(spec.cases.plan.shards)]
    table = pa.concat_tables([pq.read_table(p, columns=_FAILURE_COLUMNS) for p in paths]) if paths else None
    if table is None or table.num_rows == 0:
        return Tally((), (), ())
    verdicts = table.group_by("verdict").aggregate([("verdict", "count")]).to_pylist()
    bad = table.filter(pc.is_in(table["verdict"], pa.array(["fail", "error"])))
    anomalies = bad.group_by("anomaly").aggregate([("anomaly", "count")]).to_pylist()
    # Many failing rows are possible (a badly broken target): count in pyarrow, and turn
    # only each signature's first row (by shard and index) into Python objects.
    bad = bad.sort_by([("shard", "ascending"), ("index", "ascending")])
    grouped = bad.group_by("signature").aggregate([("signature", "count")]).to_pylist()
    counts = {r["signature"]: int(r["signature_count"]) for r in grouped}
    first_at: dict[str, int] = {}
    for i, sig in enumerate(bad.column("signature").to_pylist()):
        first_at.setdefault(sig, i)
    firsts = dict(zip(first_at, bad.take(pa.array(list(first_at.values()), pa.int64())).to_pylist(), strict=True))
    return Tally(
        tuple(sorted(((r["verdict"], r["verdict_count"]) for r in verdicts), key=lambda x: (-x[1], x[0]))),
        tuple(sorted(((r["anomaly"], r["anomaly_count"]) for r in anomalies), key=lambda x: (-x[1], x[0]))),
        tuple((sig, counts[sig], firsts[sig]) for sig in first_at),
    )


def summarise(spec: FuzzSpec, *, executor: str, resumed_shards: int, startup_s: float, run_s: float,
              started: float, max_shrunk: int = 100) -> FuzzSummary:
    """Tally the run, then shrink and save each distinct failure (up to ``max_shrunk``)
    against the target opened once on the driver.  Groups whose shrunk cases have one identity
    (:class:`~.suites.registry.Saved`) are one failure: their counts add up, the first stays."""
    t = tally(spec)
    suite = get_suite(spec.cases.suite)
    failures: dict[str, FailureGroup] = {}
    checker = suite.open(spec.target, spec.judging_settings()) if t.groups else None
    try:
        for sig, count, row in sorted(t.groups, key=lambda g: -g[1])[:max_shrunk]:
            prop, text = str(row["property"]), row["case"]
            outcome = CaseOutcome(str(row["verdict"]), str(row["anomaly"]), sig, str(row["detail"]), str(row["adapter_error"]))
            saved: Saved | None = None
            before = after = 0
            if isinstance(text, str) and checker is not None:
                payload = suite.decode(text)
                shrunk = suite.shrink(checker, prop, payload, outcome)
                before, after = suite.size(payload), suite.size(shrunk)
                saved = suite.save(checker, prop, shrunk, Path(spec.out) / "failures", spec.cases.seed)
            identity = saved.signature if saved is not None else sig
            if identity in failures:  # another group shrank to the same finding
                failures[identity] = attrs.evolve(failures[identity], count=failures[identity].count + count)
                continue
            failures[identity] = FailureGroup(identity, prop, outcome.verdict, outcome.anomaly, count, str(row["case_id"]),
                                              outcome.detail or outcome.adapter_error, before, after,
                                              str(saved.path) if saved is not None else None)
    finally:
        if checker is not None:
            checker.close()
    return FuzzSummary(
        suite=spec.cases.suite, target=spec.target, seed=spec.cases.seed, cases=spec.cases.cases,
        shards=spec.cases.plan.shards, executor=executor, verdicts=t.verdicts, anomalies=t.anomalies,
        failures=tuple(failures.values()), resumed_shards=resumed_shards, startup_s=startup_s, run_s=run_s,
        total_s=time.monotonic() - started, kafka_bugs=spec.kafka_bugs,
    )
