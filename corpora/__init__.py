"""Stored corpora and distributed (Spark) fuzz runs.

Nothing here is imported by ``import kafka_conformance``; pyarrow is imported
only by :mod:`~kafka_conformance.corpora.parquet_io` and pyspark only by
:mod:`~kafka_conformance.corpora.spark_job`, so corpora can be generated,
replayed and fuzzed in one process without Spark.  docs/corpora.md documents
the format and the commands.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["regressions_dir"]


def regressions_dir() -> Path:
    """The shipped regression cases (``corpora/regressions/*.json``, package data):
    ``kafka-conformance replay "$(python -c 'from kafka_conformance.corpora import
    regressions_dir; print(regressions_dir())')"/*.json``."""
    return Path(__file__).resolve().parent / "regressions"
