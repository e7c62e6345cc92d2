"""The suite registry: what a corpus or a fuzz run can hold.

A suite knows how to generate its cases (from the same Hypothesis strategies
the pytest path uses), encode them as JSON, check one case against a target,
shrink a failing case and save it as a replayable file.  Everything else in
``corpora`` (shards, Parquet, Spark, accounting, reports) is suite-agnostic.

``authorizer``, ``producer`` and ``broker`` are built in.  Another suite
plugs in by implementing :class:`Suite` and calling :func:`register_suite`
from the module that defines it, or by being added to ``_BUILTIN`` below; an
unknown name is a clear error naming the suites available, never a stub.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

import attrs

__all__ = [
    "VERDICTS",
    "CaseOutcome",
    "Saved",
    "Suite",
    "SuiteChecker",
    "UnknownSuite",
    "available_suites",
    "crashed",
    "get_suite",
    "refuse_authorizer_settings",
    "register_suite",
]

VERDICTS = ("pass", "fail", "error", "skip")
"""``fail``: the target diverged; ``error``: it could not answer; ``skip``: the
case's property is outside what the target declares."""


class UnknownSuite(ValueError):
    """A suite name nobody registered (the CLI's exit code 2)."""


@attrs.frozen
class CaseOutcome:
    """What one case showed, as plain strings (a Parquet row, cheap to ship)."""

    verdict: str
    anomaly: str = ""
    signature: str = ""
    """property + anomaly + what differs, without the case's own names: failures
    with equal signatures are one distinct failure."""
    detail: str = ""
    adapter_error: str = ""


PASS = CaseOutcome("pass")


@attrs.frozen
class Saved:
    """A shrunk failure saved as a replayable case, and its identity as the kit's own checks name it.

    The rows of a run are grouped by :attr:`CaseOutcome.signature`, a cheap key computed on
    unshrunk cases; a suite whose findings have a finer identity (the authorizer's signature:
    what was observed, in kinds, on the minimal case) gives it here, so that two groups that
    shrink to the same finding are reported as one, under the name ``check`` and ``report`` use."""

    path: Path
    signature: str


def crashed(prop: str, exc: Exception) -> CaseOutcome:
    """An unexpected exception while checking a case: it becomes an ``error`` row, never a dead shard."""
    return CaseOutcome("error", "adapter-error", f"{prop} | adapter-error | {type(exc).__name__}",
                       adapter_error=f"unexpected {type(exc).__name__}: {exc}")


def refuse_authorizer_settings(suite: str, flavour: str | None, mode: str) -> None:
    """``--flavour`` and the hostile mode belong to the authorizer suite; other suites refuse them."""
    if flavour is not None:
        raise ValueError(f"--flavour is an authorizer setting; the {suite} suite has none")
    if mode != "well-formed":
        raise ValueError(f"the {suite} suite has no generation mode {mode!r}")


class SuiteChecker(Protocol):
    """A target opened once (per Spark partition, or per process) for many cases."""

    def check(self, prop: str, payload: object) -> CaseOutcome: ...

    def close(self) -> None: ...


class Suite(Protocol):
    name: str

    def generation_settings(self, *, target: str | None, kafka_version: str | None, flavour: str | None,
                            mode: str) -> dict[str, str]:
        """Everything besides the seed that decides what generation yields, as JSON-able
        strings (stored in manifests, compared on resume).  ValueError for bad input."""
        ...

    def properties(self, settings: Mapping[str, str]) -> Sequence[str]:
        """The properties cases are generated for, in a fixed order."""
        ...

    def generate(self, settings: Mapping[str, str], count: int, seed: int) -> list[tuple[str, object]]:
        """Exactly ``count`` (property, payload) pairs, a pure function of the arguments."""
        ...

    def encode(self, payload: object) -> str: ...

    def decode(self, text: str) -> object: ...

    def open(self, target: str, settings: Mapping[str, str]) -> SuiteChecker:
        """Resolve ``target`` once; ValueError when it is unusable.  ``settings`` are the corpus's
        generation settings and the run's judging choices (``kafka_bugs``, the authorizer suite's);
        a suite ignores keys it has no use for."""
        ...

    def shrink(self, checker: SuiteChecker, prop: str, payload: object, outcome: CaseOutcome) -> object:
        """A smaller payload showing the same anomaly (or ``payload`` itself)."""
        ...

    def size(self, payload: object) -> int:
        """How many parts (ACLs, records, questions...) a payload has, for reports."""
        ...

    def save(self, checker: SuiteChecker, prop: str, payload: object, directory: Path, seed: int | None) -> Saved | None:
        """Save a replayable case file; None when the failure no longer shows."""
        ...


_BUILTIN: dict[str, str] = {
    "authorizer": "kafka_conformance.corpora.suites.authorizer:AuthorizerSuite",
    "producer": "kafka_conformance.corpora.suites.producer:ProducerSuite",
    "broker": "kafka_conformance.corpora.suites.broker:BrokerSuite",
}
_REGISTERED: dict[str, Callable[[], Suite]] = {}


def register_suite(name: str, factory: Callable[[], Suite]) -> None:
    """Make ``name`` available to ``corpus generate`` and ``fuzz``."""
    _REGISTERED[name] = factory


def available_suites() -> list[str]:
    return sorted({*_BUILTIN, *_REGISTERED})


def get_suite(name: str) -> Suite:
    if name in _REGISTERED:
        return _REGISTERED[name]()
    if name in _BUILTIN:
        module, _, attr = _BUILTIN[name].partition(":")
        factory: Callable[[], Suite] = getattr(importlib.import_module(module), attr)
        return factory()
    raise UnknownSuite(f"unknown suite {name!r}; available: {', '.join(available_suites())}")
