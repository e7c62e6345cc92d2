"""The scorecard: the zoo against the suite, as a user runs it.

For every mutant and seed, the default run (every property, the default mode
and number of examples, or the ones given) stops at the first failing property
and records what caught the mutant, after how many examples and seconds.  The
unmutated zoo authorizer runs the whole suite once per seed: it must conform,
and its run says which input classes that seed reached.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence

import attrs

from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.domain.classes import applicable_classes
from kafka_conformance.authorizer.domain.strategies import DEFAULT_MODE
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.targets import Target
from kafka_conformance.options import Options
from kafka_conformance.selftest.zoo import ZOO, Mutant, correct

__all__ = ["Catch", "Scorecard", "SeedRun", "run_scorecard", "to_text"]


@attrs.frozen
class Catch:
    mutant: str
    seed: int
    caught: bool
    property: str = ""
    anomaly: str = ""
    examples: int = 0
    """Examples run up to and including the failing one (all properties before it count)."""
    seconds: float = 0.0
    """Wall time to the verdict, shrinking and minimising included."""


@attrs.frozen
class SeedRun:
    """The unmutated authorizer's full run on one seed."""

    seed: int
    conforms: bool
    classes_reached: int
    classes_applicable: int
    missing: tuple[str, ...]
    seconds: float


@attrs.frozen
class Scorecard:
    mode: str
    max_examples: int | None
    seeds: tuple[int, ...]
    catches: tuple[Catch, ...]
    baseline: tuple[SeedRun, ...]
    not_in_mode: tuple[str, ...] = ()
    """Mutants not run: only hostile input shows their defect, and the mode asks none."""

    @property
    def survivors(self) -> tuple[Catch, ...]:
        return tuple(c for c in self.catches if not c.caught)

    @property
    def perfect(self) -> bool:
        return not self.survivors and all(b.conforms and not b.missing for b in self.baseline)


def _target(name: str, mutant: Mutant | None) -> Target:
    make = mutant.make if mutant is not None else correct
    return Target(f"zoo:{name}", make, make().capabilities())


def run_mutant(mutant: Mutant, seed: int, *, mode: str = DEFAULT_MODE, max_examples: int | None = None) -> Catch:
    started = time.monotonic()
    report = check_authorizer(_target(mutant.name, mutant), Options(seed=seed, max_examples=max_examples), mode=mode,
                              stop_at_first_failure=True)
    examples = 0
    for result in report.results:
        examples += result.examples
        if result.status in (Status.FAILED, Status.ERROR):
            anomaly = result.counterexample.anomaly if result.counterexample is not None else "error"
            return Catch(mutant.name, seed, True, result.name, anomaly, examples, time.monotonic() - started)
    return Catch(mutant.name, seed, False, examples=examples, seconds=time.monotonic() - started)


def run_baseline(seed: int, *, mode: str = DEFAULT_MODE, max_examples: int | None = None) -> SeedRun:
    started = time.monotonic()
    target = _target("correct", None)
    report = check_authorizer(target, Options(seed=seed, max_examples=max_examples), mode=mode)
    applicable = applicable_classes(target.capabilities, mode)
    reached = {name for name, n in report.domain if n}
    return SeedRun(seed, report.verdict.value == "conforms", sum(1 for c in applicable if c.name in reached),
                   len(applicable), report.domain_missing, time.monotonic() - started)


def run_scorecard(seeds: Sequence[int] = (0, 1, 2, 3, 4), *, mutants: Iterable[str] | None = None,
                  mode: str = DEFAULT_MODE, max_examples: int | None = None,
                  on_catch: Callable[[Catch], None] | None = None) -> Scorecard:
    """Every chosen mutant on every seed, plus the unmutated authorizer per seed.
    Raises KeyError naming an unknown mutant."""
    chosen = [ZOO[name] for name in mutants] if mutants is not None else list(ZOO.values())
    not_in_mode = tuple(m.name for m in chosen if mode == "well-formed" and m.hostile_only)
    chosen = [m for m in chosen if m.name not in not_in_mode]
    baseline = tuple(run_baseline(seed, mode=mode, max_examples=max_examples) for seed in seeds)
    catches = []
    for mutant in chosen:
        for seed in seeds:
            catch = run_mutant(mutant, seed, mode=mode, max_examples=max_examples)
            catches.append(catch)
            if on_catch is not None:
                on_catch(catch)
    return Scorecard(mode, max_examples, tuple(seeds), tuple(catches), baseline, not_in_mode)


def to_text(card: Scorecard) -> str:
    names = list(dict.fromkeys(c.mutant for c in card.catches))
    out = [f"kafka-conformance selftest: {len(names)} mutants x {len(card.seeds)} seeds, mode {card.mode}, "
           f"{card.max_examples or 'default'} examples per property"]
    out.append(f"  {'mutant':42} {'caught':>7} {'median s':>9} {'max s':>7} {'examples':>9}  caught by")
    for name in names:
        rows = [c for c in card.catches if c.mutant == name]
        caught = [c for c in rows if c.caught]
        seconds = [c.seconds for c in rows]
        by = sorted({c.property for c in caught})
        out.append(f"  {name:42} {len(caught)}/{len(rows):<5} {statistics.median(seconds):9.2f} {max(seconds):7.2f} "
                   f"{int(statistics.median(c.examples for c in rows)):9d}  {', '.join(by) or 'NOT CAUGHT'}")
    caught = [c for c in card.catches if c.caught]
    if caught:
        times = sorted(c.seconds for c in caught)
        out.append(f"time to catch: median {statistics.median(times):.2f} s, slowest {times[-1]:.2f} s "
                   f"({max(caught, key=lambda c: c.seconds).mutant})")
    for b in card.baseline:
        verdict = "conforms" if b.conforms else "DOES NOT CONFORM"
        out.append(f"unmutated authorizer, seed {b.seed}: {verdict}, input classes {b.classes_reached}/"
                   f"{b.classes_applicable}, {b.seconds:.1f} s" + (f"; missed: {', '.join(b.missing)}" if b.missing
                                                                   else ""))
    if card.not_in_mode:
        out.append(f"not run in {card.mode} mode ({len(card.not_in_mode)}: only hostile input shows their defect): "
                   + ", ".join(card.not_in_mode))
    total = len(card.catches)
    out.append(f"score: {len(caught)}/{total} mutant runs caught" + ("" if card.perfect else
                                                                     " — the kit is NOT at full strength"))
    return "\n".join(out)
