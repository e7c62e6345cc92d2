"""Target spec strings: resolution, validation with a clear error, third-party entry points."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

import kafka_conformance.adapters.targets as grammar
import kafka_conformance.authorizer.targets as targets
from kafka_conformance.authorizer.targets import TargetError, resolve_target


class _Incomplete:
    def capabilities(self) -> None: ...

    def authorize(self) -> None: ...


def incomplete_factory() -> _Incomplete:
    return _Incomplete()


def test_missing_methods_are_listed() -> None:
    with pytest.raises(TargetError) as info:
        resolve_target(f"python:{__name__}:incomplete_factory")
    message = str(info.value)
    for method in ("configure", "load_snapshot", "apply", "complete_initial_load", "acl_count", "close"):
        assert method in message


def test_third_party_target_from_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint("acme-authorizer", "my_authorizer:factory", targets.ENTRY_POINT_GROUP)
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "python_authorizer"))
    for module in (targets, grammar):  # the grammar finds the name, the authorizer suite loads it
        monkeypatch.setattr(module, "entry_points", lambda group: [ep] if group == targets.ENTRY_POINT_GROUP else [])
    target = resolve_target("acme-authorizer")
    assert target.spec == "acme-authorizer"
    assert any(name == "acme-authorizer" for name, _, _ in targets.builtin_targets())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "an empty target"),
        ("reference:1.0.0", "the oldest modelled is 2.0.0"),
        ("reference:3.1.0:standard", "StandardAuthorizer first shipped in 3.2.0"),
        ("reference:3.9.0:zk", "FLAVOUR is standard or acl, not 'zk'"),
        ("python:justamodule", "expected python:package.module:factory"),
        ("python:kafka_conformance:nope", "has no attribute 'nope'"),
    ],
)
def test_bad_specs_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(TargetError, match=message):
        resolve_target(spec)


def test_version_and_flavour_override_the_declaration() -> None:
    target = resolve_target("reference", kafka_version="3.3.0", flavour="acl")
    assert str(target.capabilities.profile()) == "acl@3.3.0"


def test_the_entry_point_group_is_a_stable_public_name() -> None:
    """Third parties register targets under this group in their own packaging: it never moves with our modules."""
    assert targets.ENTRY_POINT_GROUP == "kafka_conformance.targets"
