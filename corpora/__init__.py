"""Stored corpora and distributed (Spark) fuzz runs.

Nothing here is imported by ``import kafka_conformance``; pyarrow is imported
only by :mod:`~kafka_conformance.corpora.parquet_io` and pyspark only by
:mod:`~kafka_conformance.corpora.spark_job`, so corpora can be generated,
replayed and fuzzed in one process without Spark.  docs/corpora.md documents
the format and the commands.
"""

from __future__ import annotations
