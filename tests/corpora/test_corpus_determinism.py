"""Shard k of a corpus is the same everywhere: across calls, processes and hash seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.shards import ShardPlan, derive_seed
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite

SUITE = AuthorizerSuite()
SETTINGS = tuple(sorted(SUITE.generation_settings(target=None, kafka_version=None, flavour=None, mode="hostile").items()))

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[2])
import extra_constants  # a local module full of constants Hypothesis would otherwise mix into draws
from kafka_conformance.corpora.generate import CorpusSpec, generate_shard
from kafka_conformance.corpora.suites.authorizer import AuthorizerSuite
spec = CorpusSpec.from_json(json.loads(sys.argv[1]))
suite = AuthorizerSuite()
print(json.dumps([[c.case_id, c.property, suite.encode(c.payload)] for c in generate_shard(suite, spec, 1)]))
"""


def _encoded(spec: CorpusSpec, shard: int) -> list[list[str]]:
    return [[c.case_id, c.property, SUITE.encode(c.payload)] for c in generate_shard(SUITE, spec, shard)]


def test_a_shard_is_reproduced_in_another_process_with_other_modules_and_hash_seed(tmp_path: Path) -> None:
    spec = CorpusSpec("authorizer", 11, 60, 24, SETTINGS)
    here = _encoded(spec, 1)
    # Each property's Hypothesis run starts with its simplest example, so a few repeat.
    assert len(here) == 24 and len({text for _, _, text in here}) > 12
    (tmp_path / "extra_constants.py").write_text(
        "NUMBERS = (" + ", ".join(str(n) for n in range(-40, 400, 3)) + ")\nNAMES = ('f', 'fo', 'b-', '*', 'o-x', 'kafka')\n")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    child = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(spec.to_json()), str(tmp_path)], capture_output=True,
                           text=True, env=env, timeout=120, check=True, cwd=tmp_path)
    assert json.loads(child.stdout) == here


def test_shards_and_seeds_give_different_cases() -> None:
    spec = CorpusSpec("authorizer", 11, 24, 12, SETTINGS)
    other_seed = CorpusSpec("authorizer", 12, 24, 12, SETTINGS)
    first = _encoded(spec, 0)
    assert first == _encoded(spec, 0)
    assert [t for _, _, t in first] != [t for _, _, t in _encoded(spec, 1)]
    assert [t for _, _, t in first] != [t for _, _, t in _encoded(other_seed, 0)]


def test_shard_plan_arithmetic() -> None:
    plan = ShardPlan(1_000_001, 1000)
    assert plan.shards == 1001 and plan.size_of(0) == 1000 and plan.size_of(1000) == 1
    assert sum(plan.size_of(k) for k in range(plan.shards)) == 1_000_001
    assert ShardPlan.with_shards(10, 4).shard_size == 3 and ShardPlan.with_shards(10, 4).shards == 4
    assert derive_seed("a", 1) == derive_seed("a", 1) != derive_seed("a", 2)
    assert 0 <= derive_seed("x") < 2**63
