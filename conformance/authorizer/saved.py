"""Saved counterexamples: one JSON file per minimal failing case, replayable.

A case file holds everything needed to re-run it without the original run:
the target spec, the Kafka profile, the property, the scenario, and what was
expected versus observed.  ``kafka-conformance replay FILE`` re-runs it and
prints FIXED, FAILED or ERROR.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kafka_conformance.authorizer.cases import (
    CASE_FORMAT_VERSION,
    Scenario,
    scenario_from_json,
    scenario_to_json,
)
from kafka_conformance.authorizer.report import Counterexample
from kafka_conformance.casefiles import read_json_file

if TYPE_CHECKING:
    from kafka_conformance.authorizer.targets import Target

__all__ = ["SavedCase", "load_case", "save_counterexample"]


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


def save_counterexample(cx: Counterexample, directory: Path, target: Target, seed: int | None,
                        mode: str = "mixed") -> Path:
    caps = target.capabilities
    body: dict[str, Any] = {
        "format": "kafka-conformance/authorizer-case",
        "version": CASE_FORMAT_VERSION,
        "target": target.spec,
        "kafka_version": str(caps.version),
        "flavour": caps.flavour.value,
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
    digest = hashlib.sha256(json.dumps(body["scenario"], sort_keys=True).encode()).hexdigest()[:10]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{cx.property}-{cx.anomaly}-{digest}.json"
    path.write_text(text + "\n", encoding="utf-8")
    path.with_suffix(".py").write_text(pytest_snippet(cx, target.spec, str(caps.version), caps.flavour.value), encoding="utf-8")
    return path


def pytest_snippet(cx: Counterexample, target: str, kafka_version: str, flavour: str) -> str:
    """A self-contained pytest test that fails until the divergence is fixed.

    The scenario is written as Python literals (every value's repr is valid
    Python), so the case reads as a regression test and needs no JSON file."""
    what = cx.divergence.question if cx.divergence is not None else (cx.adapter_error or "")
    return f'''"""Regression test written by kafka-conformance: {cx.property} / {cx.anomaly}.

{what}
"""

from kafka_conformance.authorizer.cases import BatchStep, ByTypeQuery, Query, Scenario, SnapshotStep
from kafka_conformance.reference import (
    AclBinding, AclOperation, Action, AddAcl, KafkaPrincipal, PatternType, RemoveAcl,
    RequestContext, ResourcePattern, ResourceType,
)
from kafka_conformance.authorizer.check import run_property_once
from kafka_conformance.authorizer.targets import resolve_target

SCENARIO = {cx.scenario!r}


def test_{cx.property.replace("-", "_")}_{cx.anomaly.replace("-", "_")}():
    target = resolve_target({target!r}, kafka_version={kafka_version!r}, flavour={flavour!r})
    result = run_property_once({cx.property!r}, target, SCENARIO)
    assert result.status.value == "passed", result.counterexample
'''


def load_case(path: str | Path) -> SavedCase:
    """Read a saved case; raises ValueError naming the file and the problem."""
    p = Path(path)
    body = read_json_file(p, "kafka-conformance/authorizer-case", "kafka-conformance authorizer case file")
    if body.get("version") != CASE_FORMAT_VERSION:
        raise ValueError(f"{p}: case format version {body.get('version')!r} is not supported")
    try:
        return SavedCase(
            str(p), body["target"], body["kafka_version"], body["flavour"], body["property"],
            scenario_from_json(body["scenario"]), body.get("anomaly", ""), str(body.get("mode", "mixed")),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"{p}: malformed case: {type(exc).__name__}: {exc}") from exc
