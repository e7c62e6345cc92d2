"""Parquet files of the corpus format, written atomically; the only pyarrow importer
besides the aggregation.

A file is written to a hidden temporary name in its final directory, then
renamed: a reader (or a retried Spark task, or a resumed run) sees either the
whole file or none, and writing the same file twice leaves one file.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "CASE_COLUMNS",
    "VERDICT_COLUMNS",
    "PyarrowMissing",
    "read_columns",
    "require_pyarrow",
    "row_count",
    "write_atomically",
]


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


def write_atomically(path: Path, columns: Mapping[str, str], data: Mapping[str, Sequence[object]]) -> None:
    require_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pydict({name: list(data[name]) for name in columns}, schema=_schema(columns))
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
