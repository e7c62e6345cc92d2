"""Sticky failures: a bug found once is found on every later run until it is fixed.

Random search finds a bug on some seeds and not on others; a CI job whose verdict
depends on the seed gets disabled.  So, as ``pytest --lf`` does, every run first asks
again the cases earlier runs saved in its failures folder (``--failures-dir``, by
default ``kafka-conformance-failures``) for the same target, release, flavour, property
and generation mode (a case a hostile run found is no finding for a well-formed one),
before any new search: one that still fails is the property's finding, at once (the
caller asks it a second time, as for any failure, to tell a nondeterministic target).
They are asked on a context of their own, so the run's coverage counts its search
alone.  A saved case that now passes is left where it is (``kafka-conformance replay``
reports it FIXED); a file that cannot be read is not this run's to judge (``replay``
names its problem).
"""

from __future__ import annotations

from pathlib import Path

from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.properties import CheckContext, Property
from kafka_conformance.authorizer.saved import load_case
from kafka_conformance.authorizer.targets import Target

__all__ = ["MAX_SAVED_PER_PROPERTY", "still_failing"]

MAX_SAVED_PER_PROPERTY = 20
"""How many saved cases of one property a run asks again (the newest first): a bound on the
time a long-lived folder can add to every run."""


def still_failing(prop: Property, ctx: CheckContext, target: Target, failures_dir: Path,
                  mode: str) -> tuple[Scenario, CaseFailed | TargetCrashed, Path] | None:
    """The newest saved case of ``prop`` for this target and mode that still fails, with what
    it shows and where it is saved; None when there is none."""
    if not failures_dir.is_dir():
        return None
    caps = target.capabilities
    candidates = sorted(failures_dir.glob(f"{prop.name}-*.json"), key=_newest_first)
    asked = 0
    for path in candidates:
        try:
            case = load_case(path)
        except (OSError, ValueError):
            continue
        if (case.property, case.target, case.kafka_version, case.flavour, case.mode) != (
                prop.name, target.spec, str(caps.version), caps.flavour.value, mode):
            continue
        asked += 1
        quiet = CheckContext(ctx.make_target, ctx.caps)
        try:
            prop.check(quiet, case.scenario)
        except (CaseFailed, TargetCrashed) as exc:
            return case.scenario, exc, path
        if asked >= MAX_SAVED_PER_PROPERTY:
            break
    return None


def _newest_first(path: Path) -> tuple[float, str]:
    try:
        return -path.stat().st_mtime, path.name
    except OSError:
        return 0.0, path.name
