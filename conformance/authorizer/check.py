"""``check_authorizer``: the whole authorizer suite as one callable.

The pytest plugin and the CLI are thin wrappers around this function, so a
script, a notebook or a Spark task gets exactly the same checks.  Hypothesis
drives every property: it generates scenarios, and when one fails it shrinks
it to the fewest ACLs and questions that still fail, then this module captures
that minimal scenario as a structured, replayable counterexample.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import hypothesis
from hypothesis import HealthCheck, given
from hypothesis import settings as Settings
from hypothesis.errors import FlakyFailure, FlakyReplay

from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.properties import PROPERTIES, CheckContext, Property
from kafka_conformance.authorizer.report import Counterexample, PropertyResult, Report, Status
from kafka_conformance.authorizer.saved import save_counterexample
from kafka_conformance.authorizer.strategies import MODES, record_logs, scenarios
from kafka_conformance.authorizer.targets import Target, TargetError, resolve_target

__all__ = ["VACUITY_BRANCHES", "check_authorizer", "run_property_once"]

VACUITY_BRANCHES = {
    "rule:deny-acl": "a DENY ACL decided",
    "rule:allow-acl": "an ALLOW ACL decided",
    "match:prefixed": "a PREFIXED ACL matched",
    "match:wildcard-resource": "an ACL on the wildcard resource '*' matched",
    "rule:super-user": "a super user was asked about",
    "allow-everyone:granted": "allow.everyone.if.no.acl.found granted access",
}


def check_authorizer(
    target: str | Target,
    *,
    kafka_version: str | None = None,
    flavour: str | None = None,
    settings: Settings | None = None,
    max_examples: int | None = None,
    seed: int | None = None,
    mode: str = "well-formed",
    properties: Iterable[str] | None = None,
    failures_dir: str | Path | None = None,
    on_result: Callable[[str, str, int, int], None] | None = None,
) -> Report:
    """Run the authorizer suite against ``target`` and return a :class:`Report`.

    ``settings`` defaults to the active Hypothesis profile (the user's choice is
    respected); ``max_examples`` and ``seed`` override it for this run.
    ``on_result(property, status, done, total)`` is called as each property ends
    (the CLI's progress line).  Raises
    TargetError for an unusable target (the CLI's exit code 2).
    """
    if mode not in MODES:
        raise TargetError(f"unknown generation mode {mode!r}; expected one of {', '.join(MODES)}")
    resolved = target if isinstance(target, Target) else resolve_target(
        target, kafka_version=kafka_version, flavour=flavour
    )
    selected = _select(properties)
    caps = resolved.capabilities
    ctx = CheckContext(resolved.make, caps)
    base = settings if settings is not None else Settings()
    overrides: dict[str, object] = {
        "deadline": None,
        "report_multiple_bugs": False,
        "suppress_health_check": [*base.suppress_health_check, HealthCheck.too_slow],
    }
    if max_examples is not None:
        overrides["max_examples"] = max_examples
    run_settings = Settings(base, **overrides)  # type: ignore[arg-type]
    started = time.monotonic()
    results: list[PropertyResult] = []
    for prop in selected:
        if on_result is not None:
            on_result(prop.name, "running", len(results), len(selected))
        reason = prop.needs(caps)
        if reason is not None:
            results.append(PropertyResult(prop.name, Status.SKIPPED, reason=reason))
            continue
        result = _run_property(prop, ctx, run_settings, seed, mode)
        if result.counterexample is not None and failures_dir is not None:
            path = save_counterexample(result.counterexample, Path(failures_dir), resolved, seed)
            result = PropertyResult(result.name, result.status, result.examples,
                                    result.counterexample, result.reason, str(path))
        results.append(result)
        if on_result is not None:
            on_result(prop.name, result.status.value, len(results), len(selected))
    return Report(
        target=resolved.spec,
        profile=str(caps.profile()),
        seed=seed,
        results=tuple(results),
        coverage=tuple(sorted(ctx.coverage.items())),
        not_exercised=_not_exercised(ctx.coverage, caps.prefixed, results),
        out_of_scope=tuple(caps.out_of_scope()),
        duration_s=time.monotonic() - started,
    )


def _select(names: Iterable[str] | None) -> list[Property]:
    if names is None:
        return list(PROPERTIES)
    by_name = {p.name: p for p in PROPERTIES}
    chosen = []
    for name in names:
        if name not in by_name:
            raise TargetError(f"unknown property {name!r}; known: {', '.join(by_name)}")
        chosen.append(by_name[name])
    return chosen


_AUTHORIZE_PROPERTIES = {"authorize", "not-ready", "records", "record-log"}


def _not_exercised(coverage: Counter[str], prefixed: bool, results: list[PropertyResult]) -> tuple[str, ...]:
    """Branches the passing authorize()-comparing properties never reached."""
    if not any(r.status is Status.PASSED and r.name in _AUTHORIZE_PROPERTIES for r in results):
        return ()
    missing = []
    for key, what in VACUITY_BRANCHES.items():
        if key == "match:prefixed" and not prefixed:
            continue
        if coverage.get(key, 0) == 0:
            missing.append(what)
    return tuple(missing)


def _run_property(prop: Property, ctx: CheckContext, run_settings: Settings, seed: int | None,
                  mode: str) -> PropertyResult:
    examples = 0
    last_failing: list[Scenario] = []

    strategy = record_logs(ctx.caps, mode) if prop.generator == "record_logs" else scenarios(ctx.caps, mode)

    @run_settings
    @given(strategy)
    def test(scenario: Scenario) -> None:
        nonlocal examples
        examples += 1
        try:
            prop.check(ctx, scenario)
        except (CaseFailed, TargetCrashed):
            last_failing[:] = [scenario]
            raise

    if seed is not None:
        test = hypothesis.seed(seed)(test)
    try:
        test()
    except CaseFailed as exc:
        cx = Counterexample(prop.name, last_failing[0], divergence=exc.divergence)  # type: ignore[arg-type]
        return PropertyResult(prop.name, Status.FAILED, examples, cx)
    except TargetCrashed as exc:
        cx = Counterexample(prop.name, last_failing[0], adapter_error=exc.what)
        return PropertyResult(prop.name, Status.ERROR, examples, cx)
    except (FlakyFailure, FlakyReplay) as exc:
        return PropertyResult(prop.name, Status.ERROR, examples,
                              reason=f"the target answered the same case differently on replay: {exc}")
    return PropertyResult(prop.name, Status.PASSED, examples)


def run_property_once(prop_name: str, target: Target, scenario: Scenario) -> PropertyResult:
    """Re-run one saved scenario (``replay``): PASSED means the divergence is fixed."""
    prop = _select([prop_name])[0]
    ctx = CheckContext(target.make, target.capabilities)
    try:
        prop.check(ctx, scenario)
    except CaseFailed as exc:
        return PropertyResult(prop.name, Status.FAILED, 1,
                              Counterexample(prop.name, scenario, divergence=exc.divergence))  # type: ignore[arg-type]
    except TargetCrashed as exc:
        return PropertyResult(prop.name, Status.ERROR, 1, Counterexample(prop.name, scenario, adapter_error=exc.what))
    return PropertyResult(prop.name, Status.PASSED, 1)
