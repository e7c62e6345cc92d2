"""The kit against its own engines: the indexed engine, driven through the adapter
protocol, must conform on every profile (this puts the whole suite behind the
engine's differential tests), and so must the reference itself."""

from __future__ import annotations

import pytest
from hypothesis import settings

from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.options import Options

QUICK = settings(max_examples=40, derandomize=True, database=None)


@pytest.mark.parametrize(
    "spec",
    [
        "reference-indexed",
        "reference-indexed:3.2.0:standard",
        "reference-indexed:3.3.1:standard",
        "reference-indexed:3.9.0:acl",
        "reference-indexed:2.1.0:acl",
        "reference:3.5.0:acl",
    ],
)
@pytest.mark.parametrize("mode", ["well-formed", "hostile"])
def test_engine_conforms(spec: str, mode: str) -> None:
    report = check_authorizer(spec, Options(settings=QUICK), mode=mode)
    assert report.verdict.value == "conforms", [r for r in report.results if r.counterexample]
