"""Deterministic corpus generation, shard by shard.

Shard k of a corpus is a pure function of its :class:`CorpusSpec` and k: the
shard's cases are spread over the suite's properties round-robin (case i gets
property ``i mod P``), and each property's cases come from one seeded
Hypothesis run (:mod:`~kafka_conformance.corpora.hypothesis_draw`) whose seed
is derived from (suite, seed, shard, property).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.corpora.manifest import read_manifest, write_or_check_manifest
from kafka_conformance.corpora.shards import ShardPlan, case_id, derive_seed, generator_version
from kafka_conformance.corpora.suites.registry import Suite, get_suite
from kafka_conformance.corpora.verdicts import Case

__all__ = [
    "CORPUS_FORMAT",
    "SCHEMA_VERSION",
    "CorpusSpec",
    "generate_corpus",
    "generate_shard",
    "generate_task",
    "load_corpus",
    "read_corpus_shard",
    "shard_path",
]

SCHEMA_VERSION = 1
CORPUS_FORMAT = "kafka-conformance/corpus"
MAX_CASES = 10**9
MAX_SHARD_SIZE = 100_000
"""A shard is read and checked whole by one task: its cases, decoded, must fit in a worker's
memory (about 5 KB each at most), so a manifest asking for more is refused, not attempted."""


def _bounded(low: int, high: int, what: str) -> Any:
    def check(_instance: object, _attribute: object, value: int) -> None:
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"{what} must be a whole number from {low:,} to {high:,}, got {value!r}")
    return check


@attrs.frozen
class CorpusSpec:
    suite: str
    seed: int
    cases: int = attrs.field(validator=_bounded(1, MAX_CASES, "the number of cases"))
    shard_size: int = attrs.field(validator=_bounded(1, MAX_SHARD_SIZE, "the shard size"))
    settings: tuple[tuple[str, str], ...]
    generator_version: str = attrs.field(factory=generator_version)
    schema_version: int = SCHEMA_VERSION

    @property
    def plan(self) -> ShardPlan:
        return ShardPlan(self.cases, self.shard_size)

    @property
    def settings_map(self) -> dict[str, str]:
        return dict(self.settings)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CORPUS_FORMAT,
            "schema_version": self.schema_version,
            "generator_version": self.generator_version,
            "suite": self.suite,
            "seed": self.seed,
            "cases": self.cases,
            "shard_size": self.shard_size,
            "shards": self.plan.shards,
            "settings": dict(self.settings),
        }

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> CorpusSpec:
        spec = cls(body["suite"], int(body["seed"]), int(body["cases"]), int(body["shard_size"]),
                   tuple(sorted((str(k), str(v)) for k, v in body["settings"].items())),
                   str(body["generator_version"]), int(body["schema_version"]))
        if "shards" in body and body["shards"] != spec.plan.shards:
            raise ValueError(f"it says {body['shards']!r} shards where {spec.cases} cases in shards of "
                             f"{spec.shard_size} make {spec.plan.shards}")
        return spec


def generate_shard(suite: Suite, spec: CorpusSpec, shard: int) -> list[Case]:
    n = spec.plan.size_of(shard)
    drawn = suite.generate(spec.settings_map, n, derive_seed(spec.suite, spec.seed, shard))
    return [Case(case_id(spec.suite, spec.seed, shard, i), spec.suite, prop, shard, i, payload)
            for i, (prop, payload) in enumerate(drawn)]


def shard_path(directory: Path, shard: int) -> Path:
    return directory / "cases" / f"shard-{shard:06d}.parquet"


def generate_corpus(directory: Path, spec: CorpusSpec, *, shards: Iterable[int] | None = None,
                    on_shard: Callable[[int, int], None] | None = None) -> bool:
    """Write the corpus (or the given shards of it) under ``directory``; shards already
    there are kept.  True when an existing, compatible corpus was resumed."""
    from kafka_conformance.corpora.parquet_io import CASE_COLUMNS, check_identity, manifest_digest, write_atomically

    suite = get_suite(spec.suite)
    resumed = write_or_check_manifest(directory / "corpus.json", spec.to_json())
    digest = manifest_digest(spec.to_json())
    settings = spec.settings_map
    for k in range(spec.plan.shards) if shards is None else shards:
        path = shard_path(directory, k)
        if path.exists():  # kept only when it is this corpus's whole shard k
            check_identity(path, digest, k, spec.plan.size_of(k))
        else:
            cases = generate_shard(suite, spec, k)
            columns: dict[str, list[object]] = {
                "case_id": [c.case_id for c in cases],
                "suite": [spec.suite] * len(cases),
                "property": [c.property for c in cases],
                "case": [suite.encode(c.payload) for c in cases],
                "kafka_version": [settings.get("kafka_version", "")] * len(cases),
                "flavour": [settings.get("flavour", "")] * len(cases),
                "mode": [settings.get("mode", "")] * len(cases),
                "schema_version": [spec.schema_version] * len(cases),
                "generator_version": [spec.generator_version] * len(cases),
                "seed": [spec.seed] * len(cases),
                "shard": [k] * len(cases),
                "index": [c.index for c in cases],
            }
            write_atomically(path, CASE_COLUMNS, columns, belongs_to=digest, shard=k)
        if on_shard is not None:
            on_shard(k, spec.plan.size_of(k))
    return resumed


def generate_task(directory: str, spec_json: dict[str, Any], shards: Iterable[int]) -> Iterator[tuple[int, int]]:
    """What a Spark partition runs to write its shards of a corpus (the driver has
    written the manifest already; each executor checks it)."""
    done: list[tuple[int, int]] = []
    generate_corpus(Path(directory), CorpusSpec.from_json(spec_json), shards=list(shards),
                    on_shard=lambda k, n: done.append((k, n)))
    return iter(done)


def load_corpus(directory: Path) -> CorpusSpec:
    """The manifest of a corpus directory; ValueError naming what is wrong."""
    body = read_manifest(directory / "corpus.json", CORPUS_FORMAT)
    if body.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"{directory}: corpus schema version {body.get('schema_version')!r} is not supported "
                         f"(this kit reads version {SCHEMA_VERSION})")
    try:
        return CorpusSpec.from_json(body)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{directory}/corpus.json: malformed manifest: {type(exc).__name__}: {exc}") from exc


def read_corpus_shard(directory: Path, spec: CorpusSpec, shard: int, suite: Suite) -> list[Case]:
    from kafka_conformance.corpora.parquet_io import check_identity, manifest_digest, read_columns

    path = shard_path(directory, shard)
    if not path.exists():
        raise ValueError(f"{path}: shard {shard} of the corpus is missing")
    check_identity(path, manifest_digest(spec.to_json()), shard, spec.plan.size_of(shard))  # before reading a row
    cols = read_columns(path, ["case_id", "property", "case", "index"])
    cases = []
    for cid, prop, text, index in zip(cols["case_id"], cols["property"], cols["case"], cols["index"], strict=True):
        try:
            payload = suite.decode(text)
        except ValueError as exc:
            raise ValueError(f"{path}: case {cid}: {exc}") from exc
        cases.append(Case(cid, spec.suite, prop, shard, index, payload, text))
    expected = spec.plan.size_of(shard)
    if len(cases) != expected:
        raise ValueError(f"{path}: holds {len(cases)} cases, the manifest says {expected}")
    return cases
