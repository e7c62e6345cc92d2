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

import attrs
import hypothesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as Settings
from hypothesis.errors import FlakyFailure, FlakyReplay

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.adapters.targets import Problem, Role
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.domain.classes import applicable_classes, owner_of
from kafka_conformance.authorizer.domain.classify import classes_of
from kafka_conformance.authorizer.domain.coverage import coverage_cases
from kafka_conformance.authorizer.domain.logs import record_logs
from kafka_conformance.authorizer.domain.strategies import DEFAULT_MODE, MODES, scenarios
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.minimize import one_minimal, simplify
from kafka_conformance.authorizer.properties import PROPERTIES, CheckContext, Property
from kafka_conformance.authorizer.releases.agreement import agreement_of, kafka_bug_of
from kafka_conformance.authorizer.report import Counterexample, PropertyResult, Report, Status
from kafka_conformance.authorizer.saved import save_counterexample, still_failing
from kafka_conformance.authorizer.targets import Target, TargetError, resolve_target
from kafka_conformance.options import MAX_EXAMPLES, Options
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.terminal.events import Kind, ProgressEvent, ProgressSink, emit
from kafka_conformance.terminal.verdict import run_seed

__all__ = ["MAX_EXAMPLES", "VACUITY_BRANCHES", "check_authorizer", "run_property_once"]

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
    options: Options | None = None,
    *,
    flavour: str | None = None,
    mode: str = DEFAULT_MODE,
    properties: Iterable[str] | None = None,
    kafka_bugs: str | None = None,
    stop_at_first_failure: bool = False,
) -> Report:
    """Run the authorizer suite against ``target`` and return a :class:`Report`.

    ``options`` (:class:`~kafka_conformance.options.Options`) holds what every suite shares.
    Its ``settings`` default to the active Hypothesis profile (the user's choice is
    respected); ``max_examples`` (per property; 0 runs the coverage phase alone) and ``seed``
    override it for this run.  Without a seed (and without ``derandomize`` in the settings) the
    run draws one and the report says which, so that passing it back repeats the run.  The cases
    saved in ``failures_dir`` by earlier runs for this target and property are asked again before
    any new search (:func:`~kafka_conformance.authorizer.saved.still_failing`).  ``progress``
    receives a :class:`~kafka_conformance.terminal.events.ProgressEvent` as each property starts,
    after each example and as it ends.  ``timeout`` bounds every call into the target (default
    10 s); a target that does not answer in time ends the run with an adapter error.

    ``stop_at_first_failure`` skips the properties after the first that fails (the selftest's
    time-to-catch).  ``kafka_bugs`` is ``as-released`` (the default: the release's answers, its
    own bugs included) or ``documented`` (Kafka's documented answer where the release has a known
    bug); either way a divergence that one of Kafka's bugs alone explains says so.  Raises
    TargetError for an unusable target or setting (the CLI's exit code 2).
    """
    opts = options if options is not None else Options()
    progress, failures_dir = opts.progress, opts.failures_dir
    if mode not in MODES:
        raise TargetError(f"unknown generation mode {mode!r}; expected one of {', '.join(MODES)}", Problem.MALFORMED,
                          Role.AUTHORIZER)
    resolved = target if isinstance(target, Target) else resolve_target(
        target, kafka_version=opts.kafka_version, flavour=flavour, timeout=opts.timeout, kafka_bugs=kafka_bugs
    )
    if isinstance(target, Target) and kafka_bugs is not None:
        try:
            resolved = attrs.evolve(resolved, capabilities=attrs.evolve(resolved.capabilities, kafka_bugs=kafka_bugs))
        except AclValueError as exc:
            raise TargetError(str(exc), Problem.MALFORMED, Role.AUTHORIZER) from None
    selected = _select(properties)
    caps = resolved.capabilities
    ctx = CheckContext(resolved.make, caps)
    base = opts.settings if opts.settings is not None else Settings()
    searched = [] if opts.max_examples == 0 else [
        p for p in base.phases if p not in (Phase.explicit, Phase.shrink, Phase.explain)]
    overrides: dict[str, object] = {
        # The kit shrinks a failing case itself (minimize.one_minimal, on the case's own
        # structure): Hypothesis's generic shrinking re-draws the whole scenario per step
        # and cost about 90% of the time to a verdict.
        # The coverage phase runs as Hypothesis's explicit phase, whatever the profile says.
        "phases": [Phase.explicit, *searched],
        "deadline": None,
        "report_multiple_bugs": False,
        "suppress_health_check": [*base.suppress_health_check, HealthCheck.too_slow],
    }
    if opts.max_examples:
        overrides["max_examples"] = opts.max_examples
    seed = run_seed(opts.seed, base)
    run_settings = Settings(base, **overrides)  # type: ignore[arg-type]
    started = time.monotonic()
    results: list[PropertyResult] = []
    column = f"authorizer {resolved.label}, Kafka {caps.profile()}"
    for prop in selected:
        if stop_at_first_failure and any(r.status in (Status.FAILED, Status.ERROR) for r in results):
            results.append(PropertyResult(prop.name, Status.SKIPPED, reason="not run: stopped at the first failure"))
            continue
        if ctx.stopped is not None:
            results.append(PropertyResult(prop.name, Status.SKIPPED,
                                          reason=f"not run: {ctx.stopped}"))
            continue
        reason = prop.needs(caps)
        if reason is not None:
            results.append(PropertyResult(prop.name, Status.SKIPPED, reason=reason))
            continue
        found = sum(r.status is Status.FAILED for r in results)
        planned = (run_settings.max_examples if searched else 0) + len(coverage_cases(prop.name, caps, mode))
        emit(progress, ProgressEvent(Kind.START, column, prop.name, 0, planned, found))
        again = still_failing(prop, ctx, resolved, Path(failures_dir), mode) if failures_dir is not None else None
        if again is not None:  # a case an earlier run saved still fails: that is the finding, at once
            result = _found_again(prop, ctx, *again)
        else:
            result = _run_property(prop, ctx, run_settings, seed, mode,
                                   _example_sink(progress, column, prop.name, planned, found))
        emit(progress, ProgressEvent(Kind.END, column, prop.name, result.examples, planned,
                                     found + (result.status is Status.FAILED), result.status.value))
        if result.counterexample is not None and failures_dir is not None and result.saved_to is None:
            path = save_counterexample(result.counterexample, Path(failures_dir), resolved, seed, mode)
            result = PropertyResult(result.name, result.status, result.examples,
                                    result.counterexample, result.reason, str(path))
        results.append(result)
    return Report(
        target=resolved.spec,
        label=resolved.label,
        profile=str(caps.profile()),
        seed=seed,
        results=tuple(results),
        coverage=tuple(sorted(ctx.coverage.items())),
        not_exercised=_not_exercised(ctx.coverage, caps.prefixed, results),
        domain=tuple(sorted(ctx.classes.items())),
        domain_missing=_domain_missing(ctx.classes, caps, mode, results),
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
            raise TargetError(f"unknown property {name!r}; known: {', '.join(by_name)}", Problem.MALFORMED, Role.AUTHORIZER)
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


def _domain_missing(reached: Counter[str], caps: Capabilities, mode: str,
                    results: list[PropertyResult]) -> tuple[str, ...]:
    """The input classes that apply to the target and that no example reached:
    reported only when something passed (a failure is evidence enough)."""
    ran = [r for r in results if r.status is not Status.SKIPPED]
    if not ran or any(r.status is not Status.PASSED for r in ran):
        return ()
    needed = applicable_classes(caps, mode)
    # Only the classes whose owning property ran (a subset run is no evidence about the others).
    run_names = {r.name for r in ran}
    needed = tuple(c for c in needed if owner_of(c.name) in run_names)
    return tuple(c.name for c in needed if reached.get(c.name, 0) == 0)


class _Stop(BaseException):
    """Ends a Hypothesis run at the first failure, before Hypothesis replays it.

    Not an Exception, so Hypothesis lets it through: the kit checks the failure
    itself (:func:`_settle`), and a target that answers differently when asked again
    is reported as that, never as Hypothesis's flaky-replay dump."""

    def __init__(self, found: CaseFailed | TargetCrashed) -> None:
        self.found = found


def _example_sink(progress: ProgressSink | None, column: str, name: str, planned: int,
                  found: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    return lambda done: progress(ProgressEvent(Kind.EXAMPLE, column, name, done, planned, found))


def _run_property(prop: Property, ctx: CheckContext, run_settings: Settings, seed: int | None,
                  mode: str, on_example: Callable[[int], None] | None = None) -> PropertyResult:
    examples = 0
    last_failing: list[Scenario] = []

    profile = ctx.caps.profile()
    strategy = record_logs(ctx.caps, mode) if prop.generator == "record_logs" else scenarios(ctx.caps, mode)

    def test(scenario: Scenario) -> None:
        nonlocal examples
        examples += 1
        if on_example is not None:
            on_example(examples)
        # A class counts only where the property that checks it saw it (see domain.classes.OWNERS).
        ctx.classes.update(c for c in classes_of(scenario, profile) if owner_of(c) == prop.name)
        try:
            prop.check(ctx, scenario)
        except (CaseFailed, TargetCrashed) as exc:
            last_failing[:] = [scenario]
            raise _Stop(exc) from None

    # The coverage phase: Hypothesis runs explicit examples first, in order, on every seed.
    for case in reversed(coverage_cases(prop.name, ctx.caps, mode)):
        test = hypothesis.example(case)(test)
    test = run_settings(given(strategy)(test))
    if seed is not None:
        test = hypothesis.seed(seed)(test)
    try:
        test()
    except _Stop as stop:
        return _settle(prop, ctx, last_failing[0], stop.found, examples)
    except (FlakyFailure, FlakyReplay) as exc:  # pragma: no cover - _Stop ends a run before any replay
        return PropertyResult(prop.name, Status.ERROR, examples,
                              reason=f"the target answered the same case differently on replay: {str(exc)[:300]}")
    return PropertyResult(prop.name, Status.PASSED, examples)


_STOPPED = ("the target stopped answering (timeout): the run ends here, and this case is reported as found, "
            "not minimized")
MAX_FAULTS_WHILE_MINIMIZING = 50
"""Adapter failures the minimizer may provoke before it stops and keeps what it has: each
one can cost a process restart."""


def _settle(prop: Property, ctx: CheckContext, scenario: Scenario, found: CaseFailed | TargetCrashed,
            examples: int) -> PropertyResult:
    """What a failure found by Hypothesis is: a target that stopped answering ends the run
    at once; one that fails the same way when asked again is minimized; one that does not
    is reported as nondeterministic (and, for an adapter fault, ends the run)."""
    if isinstance(found, TargetCrashed) and found.stopped_answering:
        ctx.stopped = f"the target stopped answering in {prop.name}"
        return attrs.evolve(_failed(prop, ctx, (scenario, found), examples), reason=_STOPPED)
    again = _outcome(prop, CheckContext(ctx.make_target, ctx.caps), scenario)
    if isinstance(again, TargetCrashed) and again.stopped_answering:
        ctx.stopped = f"the target stopped answering in {prop.name}"
        return attrs.evolve(_failed(prop, ctx, (scenario, again), examples), reason=_STOPPED)
    if again is None or _anomaly(again) != _anomaly(found):
        then = "answered correctly" if again is None else f"failed differently ({_anomaly(again)})"
        failed = _failed(prop, ctx, (scenario, found), examples)
        if isinstance(found, TargetCrashed):
            ctx.stopped = f"the target failed intermittently in {prop.name}"
        return attrs.evolve(failed, reason=f"nondeterministic target: the case failed once ({_anomaly(found)}), and when "
                                   f"asked again the target {then}")
    return _failed(prop, ctx, _minimal(prop, ctx, scenario, found), examples)


def _found_again(prop: Property, ctx: CheckContext, scenario: Scenario, found: CaseFailed | TargetCrashed,
                 path: Path) -> PropertyResult:
    """A saved case that failed again, settled as any failure is (asked once more; a timeout
    ends the run), and reported where it is saved when it is the same case."""
    result = _settle(prop, ctx, scenario, found, 0)  # its own contexts: the run's coverage is untouched
    if result.counterexample is None or result.counterexample.scenario != scenario:
        return result
    note = f"found again: a case saved by an earlier run still fails ({path.name})"
    return attrs.evolve(result, saved_to=str(path), reason=f"{note}; {result.reason}" if result.reason else note)


def _anomaly(exc: CaseFailed | TargetCrashed) -> str:
    return exc.divergence.anomaly if isinstance(exc, CaseFailed) else "adapter-error"


def _outcome(prop: Property, ctx: CheckContext, scenario: Scenario) -> CaseFailed | TargetCrashed | None:
    try:
        prop.check(ctx, scenario)
    except (CaseFailed, TargetCrashed) as exc:
        return exc
    return None


def _minimal(prop: Property, ctx: CheckContext, scenario: Scenario,
             found: CaseFailed | TargetCrashed) -> tuple[Scenario, CaseFailed | TargetCrashed]:
    """Hypothesis's shrunk case made 1-minimal (see :mod:`.minimize`), with the failure
    it shows.  The checks run on a context of their own, so coverage counts only the
    search itself.  Adapter faults are bounded: after :data:`MAX_FAULTS_WHILE_MINIMIZING`
    of them, or one timeout, no candidate is tried any more."""
    quiet = CheckContext(ctx.make_target, ctx.caps)
    anomaly = _anomaly(found)
    faults = 0

    def still_fails(candidate: Scenario) -> bool:
        nonlocal faults
        if ctx.stopped is not None or faults >= MAX_FAULTS_WHILE_MINIMIZING:
            return False
        exc = _outcome(prop, quiet, candidate)
        if isinstance(exc, TargetCrashed):
            faults += 1
            if exc.stopped_answering:
                ctx.stopped = f"the target stopped answering in {prop.name} (while the case was minimized)"
                return False
        return exc is not None and _anomaly(exc) == anomaly

    # Plain values, then 1-minimal again: a rename can make an element unnecessary.
    smaller = one_minimal(simplify(one_minimal(scenario, still_fails), still_fails), still_fails)
    final = _outcome(prop, quiet, smaller) if smaller is not scenario and ctx.stopped is None else None
    if final is None or _anomaly(final) != anomaly:  # unchanged, or the target stopped failing it
        return scenario, found
    return smaller, final


def _failed(prop: Property, ctx: CheckContext, case: tuple[Scenario, CaseFailed | TargetCrashed],
            examples: int) -> PropertyResult:
    scenario, exc = case
    if isinstance(exc, CaseFailed):
        return PropertyResult(prop.name, Status.FAILED, examples, _counterexample(prop, ctx.caps, scenario, exc))
    return PropertyResult(prop.name, Status.ERROR, examples, Counterexample(prop.name, scenario,
                                                                            adapter_error=exc.what,
                                                                            error_kind=exc.kind))


def _counterexample(prop: Property, caps: Capabilities, scenario: Scenario, exc: CaseFailed) -> Counterexample:
    """The minimal case and its divergence, with the releases of Kafka that answer it alike."""
    d = exc.divergence
    return Counterexample(prop.name, scenario, divergence=d, agreement=agreement_of(prop, scenario, caps, d),
                          kafka_bug=kafka_bug_of(prop, scenario, caps, d))


def run_property_once(prop_name: str, target: Target, scenario: Scenario) -> PropertyResult:
    """Re-run one saved scenario (``replay``): PASSED means the divergence is fixed."""
    prop = _select([prop_name])[0]
    ctx = CheckContext(target.make, target.capabilities)
    try:
        prop.check(ctx, scenario)
    except CaseFailed as exc:
        return PropertyResult(prop.name, Status.FAILED, 1, _counterexample(prop, ctx.caps, scenario, exc))
    except TargetCrashed as exc:
        return PropertyResult(prop.name, Status.ERROR, 1, Counterexample(prop.name, scenario, adapter_error=exc.what,
                                                                         error_kind=exc.kind))
    return PropertyResult(prop.name, Status.PASSED, 1)
