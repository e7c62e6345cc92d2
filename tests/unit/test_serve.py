"""A Python authorizer served over the subprocess protocol (``adapters/jsonlines/serve.py``).

The server is the process boundary of the mutation run, so it must be exact: the reference
served must conform to the reference in every mode and flavour, every value must survive
the trip through JSON both ways, and what the served implementation raises must arrive as
Kafka's kind or as the protocol's ``internal``, never as an answer."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.jsonlines import wire
from kafka_conformance.adapters.jsonlines.serve import Server, main, serve
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.authorizer.report import Status
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.filters import AccessControlEntryFilter, AclBindingFilter, ResourcePatternFilter
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.authorizer.profiles import profile_for
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "kafka_conformance.adapters.jsonlines.serve"]


def _served(spec: str) -> str:
    return "cmd:" + " ".join([*SERVE, spec])


@pytest.mark.parametrize("spec", ["reference:4.3.0", "reference:3.9.0:acl", "reference:3.2.3", "reference-indexed:3.5.2"])
@pytest.mark.parametrize("mode", ["well-formed", "hostile"])
def test_the_reference_served_conforms_to_the_reference(spec: str, mode: str) -> None:
    report = check_authorizer(_served(spec), Options(seed=0, max_examples=15), mode=mode)
    assert [r.name for r in report.results if r.status not in (Status.PASSED, Status.SKIPPED)] == []
    assert sum(r.examples for r in report.results) > 300  # the coverage phase went through the server


def test_a_python_target_is_served_from_the_working_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "examples" / "python_authorizer")
    report = check_authorizer(_served("python:my_authorizer:factory"), Options(seed=0, max_examples=5), properties=["authorize", "listing"])
    assert {r.status for r in report.results} == {Status.PASSED}


def test_what_cannot_be_served_is_refused_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kafka:4.3.1"]) == 2
    assert "serve hosts only reference, reference-indexed, python" in capsys.readouterr().err
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err
    assert main(["python:no_such_module_here:factory"]) == 2
    assert "no_such_module_here" in capsys.readouterr().err


def _server() -> Server:
    return Server(lambda: ReferenceTarget(profile_for("4.3.0")), "reference (test)")


def test_protocol_mistakes_are_answered_as_protocol_errors() -> None:
    server = _server()
    assert server.answer({"id": 1, "op": "frobnicate"})["error"]["kind"] == "unknown-op"
    bad = server.answer({"id": 2, "op": "acls", "filter": {"pattern": {}, "entry": {}}})
    assert bad["id"] == 2 and bad["error"]["kind"] == "bad-request"
    assert "filter.pattern" in bad["error"]["message"]


def test_a_refusal_answers_its_batch_and_a_crash_is_internal_with_its_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    server = _server()
    who = wire.encode_context(RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1"))
    read = wire.encode_action(Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "t")))
    prefixed = wire.encode_action(Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, "t", PatternType.PREFIXED)))
    before = server.answer({"id": 1, "op": "authorize", "batches": [{"context": who, "actions": [read]}]})
    assert before["result"][0]["error"]["kind"] == "not-ready"
    assert server.answer({"id": 2, "op": "complete_initial_load"}) == {"id": 2, "result": None}
    answer = server.answer({"id": 3, "op": "authorize", "batches": [{"context": who, "actions": [read]},
                                                                    {"context": who, "actions": [prefixed]}]})
    assert answer["result"][0] == ["DENIED"]
    assert answer["result"][1]["error"]["kind"] == "invalid-argument"

    class Broken(ReferenceTarget):
        def acl_count(self) -> int:
            return {}["missing"]  # type: ignore[no-any-return]

    broken = Server(lambda: Broken(profile_for("4.3.0")), "broken")
    error = broken.answer({"id": 4, "op": "acl_count"})["error"]
    assert error == {"kind": "internal", "message": "KeyError: 'missing'"}
    assert 'return {}["missing"]' in capsys.readouterr().err  # the traceback into the implementation's code


def test_a_session_ends_at_shutdown_and_a_line_that_is_not_json_ends_it_with_2() -> None:
    out = io.StringIO()
    lines = io.StringIO('{"id":1,"op":"hello","protocol":1}\n\n{"id":2,"op":"shutdown"}\n{"id":3,"op":"reset"}\n')
    assert serve(_server(), lines, out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0]["result"]["capabilities"]["kafka_version"] == "4.3.0"
    assert serve(_server(), io.StringIO("not json\n"), io.StringIO()) == 2


def test_the_module_runs_as_a_program() -> None:
    done = subprocess.run([*SERVE, "reference:3.9.0:acl"], input='{"id":7,"op":"hello","protocol":1}\n',
                          capture_output=True, text=True, timeout=60, check=True)
    hello = json.loads(done.stdout)
    assert hello["id"] == 7 and hello["result"]["capabilities"]["flavour"] == "acl"
    assert wire.decode_capabilities(hello["result"]["capabilities"]) == ReferenceTarget(
        profile_for("3.9.0", "acl")).capabilities()


# -- every value survives the trip through JSON, both ways ------------------------------------------

_text = st.text(max_size=6)
_bindings = st.builds(
    lambda rt, name, pt, who, host, op, perm: AclBinding(ResourcePattern(rt, name, pt), AccessControlEntry(who, host, op, perm)),
    st.sampled_from([t for t in ResourceType if t not in (ResourceType.ANY,)]), _text,
    st.sampled_from([PatternType.LITERAL, PatternType.PREFIXED, PatternType.UNKNOWN]), _text, _text,
    st.sampled_from([o for o in AclOperation if o is not AclOperation.ANY]),
    st.sampled_from([AclPermissionType.ALLOW, AclPermissionType.DENY, AclPermissionType.UNKNOWN]),
)


@given(_bindings, st.text(max_size=4))
def test_bindings_and_records_round_trip(binding: AclBinding, record_id: str) -> None:
    assert wire.decode_binding(wire.encode_binding(binding), "acl") == binding
    assert wire.decode_snapshot(wire.encode_snapshot({record_id: binding}), "acls") == {record_id: binding}
    for record in (AddAcl(record_id, binding), RemoveAcl(record_id)):
        assert wire.decode_record(wire.encode_record(record), "record") == record


@given(st.sampled_from(list(AclOperation)), st.sampled_from([t for t in ResourceType if t is not ResourceType.ANY]),
       _text, st.sampled_from([PatternType.LITERAL, PatternType.PREFIXED]), _text, _text, _text)
def test_questions_round_trip(op: AclOperation, rt: ResourceType, name: str, pt: PatternType, kind: str,
                              who: str, host: str) -> None:
    action = Action(op, ResourcePattern(rt, name, pt))
    assert wire.decode_action(wire.encode_action(action), "action") == action
    context = RequestContext(KafkaPrincipal(kind, who), host)
    assert wire.decode_context(wire.encode_context(context), "context") == context


@given(st.sampled_from(list(ResourceType)), st.none() | _text, st.sampled_from(list(PatternType)),
       st.none() | _text, st.none() | _text, st.sampled_from(list(AclOperation)), st.sampled_from(list(AclPermissionType)))
def test_filters_round_trip(rt: ResourceType, name: str | None, pt: PatternType, who: str | None, host: str | None,
                            op: AclOperation, perm: AclPermissionType) -> None:
    f = AclBindingFilter(ResourcePatternFilter(rt, name, pt), AccessControlEntryFilter(who, host, op, perm))
    assert wire.decode_filter(wire.encode_filter(f), "filter") == f
