"""Parquet files of the corpus format, written atomically; the only pyarrow importer
besides the aggregation.

A file is written to a hidden temporary name in its final directory, then
renamed: a reader (or a retried Spark task, or a resumed run) sees either the
whole file or none, and writing the same file twice leaves one file.

Every shard file also says what it belongs to, in the Parquet footer's key-value
metadata (:data:`IDENTITY_KEY`): the digest of its directory's manifest (the corpus, or
the run with its target), its shard number and its row count.  A resumed corpus or run
takes a file as done only when all three match (:func:`check_identity`), so a truncated
file, a shard moved under another number, or a verdict file left by another target's run
is refused, naming the file, instead of counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "CASE_COLUMNS",
    "IDENTITY_KEY",
    "VERDICT_COLUMNS",
    "DamagedFile",
    "PyarrowMissing",
    "check_identity",
    "manifest_digest",
    "read_columns",
    "require_pyarrow",
    "row_count",
    "write_atomically",
]


IDENTITY_KEY = b"kafka-conformance"


class DamagedFile(ValueError):
    """A shard file that is not what its directory says it holds (the CLI's exit code 2)."""


def manifest_digest(body: Mapping[str, Any]) -> str:
    """A short, stable digest of a manifest's JSON body: what every shard file of it carries."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()[:32]


class PyarrowMissing(ImportError):
    """Corpora and fuzz runs need pyarrow (the ``spark`` extra): the user's set-up, not a bug."""


def require_pyarrow() -> None:
    """Fail with the install command, before any work, where pyarrow cannot be imported."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError as exc:
        raise PyarrowMissing(
            f"corpora and fuzz runs read and write Parquet, and pyarrow cannot be imported ({exc}); "
            "install it with: pip install 'kafka-conformance[spark]' (from a checkout: pip install -e '.[spark]')"
        ) from None

CASE_COLUMNS: dict[str, str] = {
    "case_id": "string",
    "suite": "string",
    "property": "string",
    "case": "string",
    "kafka_version": "string",
    "flavour": "string",
    "mode": "string",
    "schema_version": "int32",
    "generator_version": "string",
    "seed": "int64",
    "shard": "int32",
    "index": "int32",
}
"""One row per corpus case (docs/corpora.md)."""

VERDICT_COLUMNS: dict[str, str] = {
    "case_id": "string",
    "suite": "string",
    "property": "string",
    "shard": "int32",
    "index": "int32",
    "verdict": "string",
    "anomaly": "string",
    "signature": "string",
    "detail": "string",
    "adapter_error": "string",
    "duration_us": "int64",
    "case": "string",
}
"""One row per checked case; ``case`` is kept for non-passing rows only."""


def _schema(columns: Mapping[str, str]) -> Any:
    require_pyarrow()
    import pyarrow as pa

    types = {"string": pa.string(), "int32": pa.int32(), "int64": pa.int64()}
    return pa.schema([(name, types[kind]) for name, kind in columns.items()])


def write_atomically(path: Path, columns: Mapping[str, str], data: Mapping[str, Sequence[object]], *,
                     belongs_to: str, shard: int) -> None:
    """Write the rows with their identity (``belongs_to``: :func:`manifest_digest` of the directory)."""
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = len(next(iter(data.values()))) if data else 0
    identity = json.dumps({"belongs_to": belongs_to, "shard": shard, "rows": rows}).encode("utf-8")
    schema = _schema(columns).with_metadata({IDENTITY_KEY: identity})
    table = pa.Table.from_pydict({name: list(data[name]) for name in columns}, schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def read_columns(path: Path, names: Sequence[str]) -> dict[str, list[Any]]:
    """Some columns of a file as Python lists; ValueError naming the file when unreadable."""
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path, columns=list(names))
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"{path}: not a readable Parquet file of the expected columns: {exc}") from exc
    return {name: table.column(name).to_pylist() for name in names}


def row_count(path: Path) -> int:
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return int(pq.ParquetFile(path).metadata.num_rows)
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"{path}: not a readable Parquet file: {exc}") from exc


def check_identity(path: Path, belongs_to: str, shard: int, rows: int) -> None:
    """Raise :class:`DamagedFile` naming ``path`` unless it is a whole Parquet file of shard
    ``shard`` of the directory whose manifest digest is ``belongs_to``, with ``rows`` rows."""
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    remedy = "remove it and run again to redo that shard"
    try:
        meta = pq.ParquetFile(path).metadata
    except (OSError, pa.ArrowException) as exc:
        raise DamagedFile(f"{path}: not a whole Parquet file ({str(exc)[:200]}); {remedy}") from None
    raw = (meta.metadata or {}).get(IDENTITY_KEY)
    try:
        identity = json.loads(raw) if raw is not None else None
    except ValueError:
        identity = None
    if not isinstance(identity, dict):
        raise DamagedFile(f"{path}: says nothing of what it belongs to (not written by this kit, or by an older one); "
                          f"{remedy}")
    if identity.get("belongs_to") != belongs_to:
        raise DamagedFile(f"{path}: belongs to another corpus or run (a manifest digest {identity.get('belongs_to')!r}, "
                          f"this directory's is {belongs_to!r}); {remedy}")
    if identity.get("shard") != shard:
        raise DamagedFile(f"{path}: holds shard {identity.get('shard')!r}, not shard {shard}; {remedy}")
    if identity.get("rows") != rows or meta.num_rows != rows:
        raise DamagedFile(f"{path}: holds {meta.num_rows} rows (it says {identity.get('rows')!r}), the plan has {rows} "
                          f"for shard {shard}; {remedy}")
