"""``docs/schemas`` describe what really travels: every op has a request and a response
schema, every reference resolves, and (when ``jsonschema`` is installed) every
message of a recorded session — the kit's requests and two implementations'
answers, errors included — validates against its schema."""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka_conformance.adapters.jsonlines.adapter import SubprocessAuthorizer
from kafka_conformance.adapters.jsonlines.process import ImplementationProcess, request_line
from kafka_conformance.reference.acl.filters import ANY_ACL, AclBindingFilter, ResourcePatternFilter
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, PatternType, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.errors import KafkaException

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
OPS = ("hello", "configure", "load_snapshot", "apply", "complete_initial_load", "authorize",
       "authorize_by_resource_type", "acls", "acl_count", "reset", "shutdown")
NODE = shutil.which("node")
IMPLEMENTATIONS = {
    "python": [sys.executable, str(ROOT / "examples" / "python_subprocess" / "my_authorizer_server.py")],
    "node": [NODE or "node", str(ROOT / "examples" / "node_authorizer" / "authorizer.js")],
    # the kit's own server (adapters/jsonlines/serve.py) hosting the reference of both flavours
    "served-standard": [sys.executable, "-m", "kafka_conformance.adapters.jsonlines.serve", "reference:4.3.0"],
    "served-acl": [sys.executable, "-m", "kafka_conformance.adapters.jsonlines.serve", "reference:3.9.0:acl"],
}


def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


def _refs(node: object) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield str(value)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_every_op_has_a_request_and_a_response_schema() -> None:
    names = {p.name for p in SCHEMAS.glob("*.json")}
    for op in OPS:
        assert f"{op}.request.json" in names and f"{op}.response.json" in names, op
    for name in names:
        schema = _load(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name


def test_every_reference_resolves() -> None:
    defs = _load("common.json")["$defs"]
    for path in SCHEMAS.glob("*.json"):
        for ref in _refs(_load(path.name)):
            document, _, pointer = ref.partition("#/$defs/")
            assert document in ("common.json", ""), ref
            assert pointer in defs, f"{path.name}: {ref}"


def _record(command: list[str], monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Drive a whole session, hostile values included, and keep every message pair."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    real = ImplementationProcess.exchange

    def recording(self: ImplementationProcess, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        responses = real(self, requests)
        written = [json.loads(request_line(r)) for r in requests]  # as on the wire (JSON built once included)
        pairs.extend(zip(written, responses, strict=True))
        return responses

    monkeypatch.setattr(ImplementationProcess, "exchange", recording)
    who = RequestContext(KafkaPrincipal("User", "a:b"), "")
    acl = AclBinding.of("DENY", "User:*", "ALL", "TOPIC", "f\u00e9", "PREFIXED", host="::1")
    literal = Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "f\u00e9e"))
    prefixed = Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "f", PatternType.PREFIXED))
    a = SubprocessAuthorizer(command, timeout=10)
    try:
        a.capabilities()
        for props in ({"super.users": "nocolon"}, {"super.users": " User:x ; ", "allow.everyone.if.no.acl.found": "TRUE"}):
            with contextlib.suppress(KafkaException):  # the first one is refused, on purpose
                a.configure(props)
        a.load_snapshot({"s-1": acl})
        with contextlib.suppress(KafkaException):  # not ready
            a.authorize(who, [literal])
        a.complete_initial_load()
        a.apply(AddAcl("r-1", AclBinding.of("ALLOW", "User:a:b", "READ", "GROUP", "*")))
        a.authorize(who, [literal, literal])
        with contextlib.suppress(KafkaException):  # a PREFIXED action is refused, on purpose
            a.authorize(who, [prefixed])
        a.authorize_by_resource_type(who, AclOperation.READ, ResourceType.GROUP)
        a.acls(ANY_ACL)
        a.acls(AclBindingFilter(ResourcePatternFilter(ResourceType.TOPIC, "f\u00e9x", PatternType.MATCH)))
        a.acl_count()
        a.apply(RemoveAcl("r-1"))
    finally:
        a.close()
    return pairs


@pytest.mark.parametrize("implementation", sorted(IMPLEMENTATIONS))
def test_recorded_messages_validate(implementation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    referencing = pytest.importorskip("referencing")
    if implementation == "node" and NODE is None:
        pytest.skip("node is not on PATH")
    registry = referencing.Registry().with_resources(
        (p.name, referencing.Resource.from_contents(_load(p.name))) for p in SCHEMAS.glob("*.json")
    )
    pairs = _record(IMPLEMENTATIONS[implementation], monkeypatch)
    seen = set()
    for request, response in pairs:
        op = request["op"]
        seen.add(op)
        for kind, message in (("request", request), ("response", response)):
            validator = jsonschema.Draft202012Validator(_load(f"{op}.{kind}.json"), registry=registry)
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(message)]
            assert not errors, f"{op} {kind} {json.dumps(message)}:\n" + "\n".join(errors)
    assert seen == set(OPS)
