"""Saved counterexamples: one JSON file per minimal failing case, replayable, and asked
again by every later run.

A case file holds everything needed to re-run it without the original run:
the target spec, the Kafka profile, the generation mode, the property, the scenario, and
what was expected versus observed.  ``kafka-conformance replay FILE`` re-runs it and
prints FIXED, FAILED or ERROR.

Sticky failures (:func:`still_failing`): random search finds a bug on some seeds and not
on others, and a CI job whose verdict depends on the seed gets disabled.  So, as ``pytest
--lf`` does, every run first asks
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

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kafka_conformance.authorizer.cases import (
    CASE_FORMAT_VERSION,
    SCENARIO_FIELDS,
    Scenario,
    scenario_from_json,
    scenario_to_json,
)
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.report import Counterexample
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.casefiles import known_fields, read_json_file
from kafka_conformance.outputs import write_output
from kafka_conformance.reference.authorizer.profiles import KafkaBugs

if TYPE_CHECKING:
    from kafka_conformance.authorizer.properties import Property
    from kafka_conformance.authorizer.targets import Target

__all__ = ["MAX_SAVED_PER_PROPERTY", "SavedCase", "load_case", "save_counterexample", "still_failing"]


@attrs.frozen
class SavedCase:
    path: str
    target: str
    kafka_version: str
    flavour: str
    property: str
    scenario: Scenario
    anomaly: str
    mode: str = "mixed"
    """The generation mode of the run that found it (older files: ``mixed``)."""
    kafka_bugs: str = "as-released"
    """Whether the run held the target to the release's own bugs or to the documentation (older
    files: ``as-released``)."""


def save_counterexample(cx: Counterexample, directory: Path, target: Target, seed: int | None,
                        mode: str = "mixed") -> Path:
    caps = target.capabilities
    body: dict[str, Any] = {
        "format": "kafka-conformance/authorizer-case",
        "version": CASE_FORMAT_VERSION,
        "target": target.spec,
        "kafka_version": str(caps.version),
        "flavour": caps.flavour.value,
        "kafka_bugs": caps.kafka_bugs.value,
        "property": cx.property,
        "anomaly": cx.anomaly,
        "seed": seed,
        "mode": mode,
        "scenario": scenario_to_json(cx.scenario),
    }
    if cx.divergence is not None:
        body["divergence"] = attrs.asdict(cx.divergence)
    if cx.adapter_error is not None:
        body["adapter_error"] = cx.adapter_error
    text = json.dumps(body, indent=2, ensure_ascii=False, sort_keys=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from a target's message): escaped, the file stays UTF-8
        text = json.dumps(body, indent=2, ensure_ascii=True, sort_keys=False)
    digest = hashlib.sha256(json.dumps(body["scenario"], sort_keys=True).encode()).hexdigest()[:10]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{cx.property}-{cx.anomaly}-{digest}.json"
    write_output(path, text + "\n")
    write_output(path.with_suffix(".py"), pytest_snippet(cx, target.spec, str(caps.version), caps.flavour.value,
                                                         caps.kafka_bugs.value))
    return path


def pytest_snippet(cx: Counterexample, target: str, kafka_version: str, flavour: str,
                   kafka_bugs: str = "as-released") -> str:
    """A self-contained pytest test that fails until the divergence is fixed.

    The scenario is written as Python literals (every value's repr is valid
    Python), so the case reads as a regression test and needs no JSON file.  What was
    observed comes from the target (a question, or the message of its error) and is written
    only as an ASCII string literal, never into the file's text: a message holding quotes,
    newlines or a Windows path can neither run as code nor break the file."""
    what = cx.divergence.question if cx.divergence is not None else (cx.adapter_error or "")
    return f'''"""Regression test written by kafka-conformance: {cx.property} / {cx.anomaly} (see FOUND)."""

from kafka_conformance.authorizer.cases import BatchStep, ByTypeQuery, Query, Scenario, SnapshotStep
from kafka_conformance.reference import (
    AclBinding, AclOperation, Action, AddAcl, KafkaPrincipal, PatternType, RemoveAcl,
    RequestContext, ResourcePattern, ResourceType,
)
from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.targets import resolve_target

FOUND = {what!a}
SCENARIO = {cx.scenario!r}


def test_{cx.property.replace("-", "_")}_{cx.anomaly.replace("-", "_")}():
    target = resolve_target({target!r}, kafka_version={kafka_version!r}, flavour={flavour!r}, kafka_bugs={kafka_bugs!r})
    result = run_property_once({cx.property!r}, target, SCENARIO)
    assert result.status.value == "passed", result.counterexample
'''


_CASE_FIELDS = frozenset({"format", "version", "target", "kafka_version", "flavour", "kafka_bugs", "property", "anomaly", "seed",
                          "mode", "scenario", "divergence", "adapter_error",
                          "found"})  # a person's note on where the case came from (corpora/regressions)


def load_case(path: str | Path) -> SavedCase:
    """Read a saved case; raises ValueError naming the file and the problem."""
    p = Path(path)
    body = read_json_file(p, "kafka-conformance/authorizer-case", "kafka-conformance authorizer case file")
    if body.get("version") != CASE_FORMAT_VERSION:
        raise ValueError(f"{p}: case format version {body.get('version')!r} is not supported")
    known_fields(body, _CASE_FIELDS, str(p))
    known_fields(body.get("scenario"), SCENARIO_FIELDS, f"{p}: scenario")
    try:
        case = SavedCase(
            str(p), body["target"], body["kafka_version"], body["flavour"], body["property"],
            scenario_from_json(body["scenario"]), body.get("anomaly", ""), str(body.get("mode", "mixed")),
            KafkaBugs.parse(body.get("kafka_bugs", "as-released")).value,
        )
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"{p}: malformed case: {type(exc).__name__}: {exc}") from exc
    if not (case.scenario.queries or case.scenario.by_type or case.scenario.records):
        raise ValueError(f"{p}: the scenario asks nothing (no queries, by_type questions or records): nothing to replay")
    return case


# -- sticky failures: saved cases asked again first ----------------------------------------
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
        if (case.property, case.target, case.kafka_version, case.flavour, case.mode, case.kafka_bugs) != (
                prop.name, target.spec, str(caps.version), caps.flavour.value, mode, caps.kafka_bugs.value):
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
