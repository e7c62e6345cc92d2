"""The trace table on real clients: every row on one client, and the client x broker matrix.

The table (``docs/spec/idempotence.md`` §5.2, :mod:`trace_table`) names the traces every idempotent
producer must survive: a lost response, 5 versus 6 in flight, a failover, a
stale epoch, injected 46 and 59, a leader absent longer than the batch
timeout, ...  :func:`run_table` runs each row once on one client and judges it;
:func:`run_matrix` does so for every real client installed here against every
broker it is asked for, which is the one command that shows which delivery
guarantees hold under which failure traces, per client and per broker.

A row a client cannot express (a setting it has no knob for) is ``n/a``, a row a
broker cannot run (faults without the fault proxy) likewise; neither is a pass.
Every row whose run was attributed to the client or broker is saved (with
``failures_dir``) so it can be replayed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.producer.check import run_and_judge
from kafka_conformance.producer.clients import REAL_CLIENTS, resolve_client
from kafka_conformance.producer.engines import parse_broker, shared_brokers
from kafka_conformance.producer.report import MatrixReport, RunResult, RunStatus
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.terminal.events import Kind, ProgressEvent, ProgressSink, emit

__all__ = ["ColumnUnusable", "run_matrix", "run_table", "table_rows"]


class ColumnUnusable(Exception):
    """The client could not even start against the broker on the first row (an incompatibility,
    e.g. aiokafka's InitProducerId v0 on Tansu): the column is skipped, not filled with errors."""


def table_rows(only: Iterable[str] | None = None) -> list[Any]:
    """The trace table's entries (optionally only the rows named by number or name)."""
    from kafka_conformance.producer.trace_table import TRACE_TABLE

    rows = list(TRACE_TABLE)
    if only is None:
        return rows
    wanted = {str(x) for x in only}
    picked = [r for r in rows if str(r.number) in wanted or r.name in wanted]
    missing = wanted - {str(r.number) for r in picked} - {r.name for r in picked}
    if missing:
        raise ValueError(f"no trace table row named {sorted(missing)}; rows are {[r.number for r in rows]}")
    return picked


def run_table(
    client: str,
    *,
    broker: str = "test-broker",
    kafka_version: str = DEFAULT_RELEASE,
    rows: Sequence[Any] | None = None,
    failures_dir: Path | None = None,
    on_result: Callable[[RunResult], None] | None = None,
) -> tuple[RunResult, ...]:
    """Every row (of ``rows``, default the whole table) run once on ``client``."""
    with shared_brokers():
        return _run_rows(client, broker, kafka_version, rows if rows is not None else table_rows(), failures_dir, on_result)


def _run_rows(
    client: str, broker: str, kafka_version: str, rows: Sequence[Any], failures_dir: Path | None,
    on_result: Callable[[RunResult], None] | None,
) -> tuple[RunResult, ...]:
    out: list[RunResult] = []
    for entry in rows:
        result = run_and_judge(entry.trace, client, broker=broker, kafka_version=kafka_version, name=entry.name, number=entry.number)
        if not out and result.could_not_start:
            raise ColumnUnusable(result.error)
        if getattr(entry, "config_error", False):
            result = _config_row(result)
        if failures_dir is not None and result.status in (RunStatus.CLIENT, RunStatus.BROKER):
            from kafka_conformance.producer.saved import save_run

            result = attrs.evolve(result, saved_to=str(save_run(result, failures_dir, kafka_version=kafka_version)))
        if on_result is not None:
            on_result(result)
        out.append(result)
    return tuple(out)


def _config_row(result: RunResult) -> RunResult:
    """A CFG row: the Java client must refuse the configuration.  The client refusing it itself
    holds; a client that accepts it follows rules of its own (not Java's), which is outside the
    Java guarantee rather than a violation - the note says which."""
    if result.status is RunStatus.REFUSED and "refuses the configuration" in result.error:
        return attrs.evolve(result, status=RunStatus.HOLDS, notes=(*result.notes, f"refused, as required: {result.error}"))
    if result.status is RunStatus.REFUSED:
        return result
    note = "accepted a configuration the Java client refuses (this client's own rules differ)"
    return attrs.evolve(result, status=RunStatus.OUTSIDE, notes=(*result.notes, note))


def run_matrix(
    clients: Sequence[str] | None = None,
    brokers: Sequence[str] = ("test-broker",),
    *,
    kafka_version: str = DEFAULT_RELEASE,
    rows: Sequence[Any] | None = None,
    failures_dir: Path | None = None,
    on_result: Callable[[RunResult], None] | None = None,
    progress: ProgressSink | None = None,
) -> MatrixReport:
    """Every client (default: every real client installed here) x every broker through the table;
    ``progress`` gets a :class:`~kafka_conformance.terminal.events.ProgressEvent` per row run."""
    started = time.monotonic()
    entries = list(rows) if rows is not None else table_rows()
    columns: list[tuple[str, str]] = []
    skipped = []
    for client in clients if clients is not None else REAL_CLIENTS:
        try:
            resolve_client(client)
        except TargetError as exc:
            if clients is not None:
                raise
            skipped.append(f"{client}: {exc}")
            continue
        for broker in brokers:
            parse_broker(broker)  # a bad spec is a usage error before anything runs
            columns.append((client, broker))
    results: dict[tuple[str, str], tuple[RunResult, ...]] = {}
    # Broker by broker (the columns keep their order): one Apache Kafka broker or cluster per
    # spec serves every client, and is stopped before the next spec's starts.
    with shared_brokers() as pool:
        for client, broker in sorted(columns, key=lambda c: list(brokers).index(c[1])):
            pool.keep_only(broker)
            column = f"matrix {client} on {broker}@{kafka_version}"
            seen = {"done": 0, "diverges": 0}

            def one(result: RunResult, column: str = column, seen: dict[str, int] = seen) -> None:
                seen["done"] += 1
                seen["diverges"] += result.status in (RunStatus.CLIENT, RunStatus.BROKER)
                if on_result is not None:
                    on_result(result)
                emit(progress, ProgressEvent(Kind.EXAMPLE, column, "trace table", seen["done"], len(entries), seen["diverges"]))

            emit(progress, ProgressEvent(Kind.START, column, "trace table", 0, len(entries)))
            try:
                results[(client, broker)] = run_table(client, broker=broker, kafka_version=kafka_version, rows=entries,
                                                      failures_dir=failures_dir, on_result=one)
            except (TargetError, ColumnUnusable) as exc:
                skipped.append(f"{client}@{broker}: {exc}")
                emit(progress, ProgressEvent(Kind.NOTE, column, message=f"could not run: {exc}"))
                continue
            emit(progress, ProgressEvent(Kind.END, column, "trace table", seen["done"], len(entries), seen["diverges"], "done"))
    kept = [c for c in columns if c in results]
    grid = tuple(
        (f"#{e.number} {e.name}", tuple(results[c][i] for c in kept)) for i, e in enumerate(entries)
    )
    return MatrixReport(tuple(f"{c}@{b}" for c, b in kept), grid, tuple(skipped), time.monotonic() - started)
