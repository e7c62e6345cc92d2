"""Shard arithmetic: which cases a shard holds, its seed, and every case's id.

A corpus of N cases is cut into shards of ``shard_size`` cases (the last one
may be shorter).  Everything about a shard is a pure function of
(suite, seed, shard index, shard size, capabilities, mode), so shard k is
reproducible on any machine with the same kit and Hypothesis versions, and two
runs that agree on those values agree case by case (the ids are stable).
"""

from __future__ import annotations

import hashlib

import attrs

__all__ = ["GENERATION", "ShardPlan", "case_id", "derive_seed", "generator_version"]


@attrs.frozen
class ShardPlan:
    """``cases`` split into shards of ``shard_size``; shard k holds the cases
    ``k * shard_size`` up to the next shard's first (or ``cases``)."""

    cases: int
    shard_size: int

    def __attrs_post_init__(self) -> None:
        if self.cases < 0:
            raise ValueError(f"the number of cases must not be negative, got {self.cases}")
        if self.shard_size < 1:
            raise ValueError(f"the shard size must be at least 1, got {self.shard_size}")

    @classmethod
    def with_shards(cls, cases: int, shards: int) -> ShardPlan:
        """About ``shards`` equal shards (``ceil(cases / shards)`` each; fewer shards when they divide badly)."""
        if shards < 1:
            raise ValueError(f"the number of shards must be at least 1, got {shards}")
        return cls(cases, max(1, -(-cases // shards)))

    @property
    def shards(self) -> int:
        return -(-self.cases // self.shard_size)

    def size_of(self, shard: int) -> int:
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is outside 0..{self.shards - 1}")
        return min(self.shard_size, self.cases - shard * self.shard_size)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text: stable across machines, processes and
    ``PYTHONHASHSEED`` (``hash()`` is not)."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def case_id(suite: str, seed: int, shard: int, index: int) -> str:
    """The stable id of a case: ``suite/seed/shard/index``."""
    return f"{suite}/{seed}/{shard}/{index}"


GENERATION = 3
"""The strategies' own version, raised whenever what a seed draws changes without a
release: 2 since an authorizer scenario became one Hypothesis draw (a seed for
:class:`~kafka_conformance.authorizer.domain.choices.Choices`, issue 18); 3 since
names and principals differing only in case are well-formed input, in every pool
(issue 36); 0.2.0 corpora made before 2 say no generation."""


def generator_version() -> str:
    """What produced the cases: the kit's version, its generation of strategies and
    Hypothesis's version (all three decide what a seed yields)."""
    import hypothesis

    from kafka_conformance import __version__

    return f"kafka-conformance {__version__}; generation {GENERATION}; hypothesis {hypothesis.__version__}"
