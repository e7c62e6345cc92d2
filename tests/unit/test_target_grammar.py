"""The one target grammar: every command parses a spec through adapters/targets.py and refuses with one error."""

from __future__ import annotations

import ast
import contextlib
import io
import pickle
import re
from pathlib import Path

import pytest

from kafka_conformance.adapters.targets import KINDS, Problem, Role, TargetError, parse_target, roles_of
from kafka_conformance.authorizer.targets import resolve_target
from kafka_conformance.broker.targets import parse_broker_target
from kafka_conformance.cli import targets as cli_targets
from kafka_conformance.producer.clients import resolve_client
from kafka_conformance.producer.engines import parse_broker
from kafka_conformance.requests.targets import parse_requests_target
from kafka_conformance.transactions.check import check_transactions

ROOT = Path(__file__).resolve().parents[2]

# One spec of each kind that the grammar accepts.
SAMPLES = {
    "reference": "reference:3.9.0:acl", "reference-indexed": "reference-indexed", "python": "python:mod:factory",
    "cmd": "cmd:node authorizer.js", "jvm": "jvm:com.example.A,jar=a.jar", "kafka-default-by-type": "kafka-default-by-type",
    "kafka": "kafka:3.9.1", "kafka-cluster": "kafka-cluster:3.9.1:3", "test-broker": "test-broker:3.6.2", "tansu": "tansu",
    "noida": "noida", "rdkafka-mock": "rdkafka-mock", "kfake": "kfake", "kfake-cluster": "kfake-cluster:2",
    "bootstrap": "bootstrap:127.0.0.1:9092", "java": "java", "kafka-python": "kafka-python", "aiokafka": "aiokafka",
    "confluent-kafka": "confluent-kafka", "franz-go": "franz-go", "sarama": "sarama", "kafkajs": "kafkajs",
    "platformatic": "platformatic", "model": "model",
}


def test_every_kind_has_a_sample() -> None:
    assert set(SAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_kind_parses_in_its_roles_and_is_refused_by_name_in_the_others(kind: str) -> None:
    for role in Role:
        spec = SAMPLES[kind] + (",sasl=@logins.txt" if kind == "bootstrap" and role is Role.REQUESTS else "")
        if role in KINDS[kind].roles:
            parsed = parse_target(spec, role)
            assert (parsed.kind, parsed.text) == (kind, spec)
            continue
        with pytest.raises(TargetError) as caught:
            parse_target(spec, role)
        assert caught.value.problem is Problem.WRONG_ROLE and caught.value.role is role
        assert role.option in str(caught.value)
        assert any(r.option in str(caught.value) for r in KINDS[kind].roles), "says which commands take it"


def test_kafka_version_is_apache_kafka_of_the_release_in_every_role() -> None:
    assert roles_of("kafka:3.9.1") == (Role.AUTHORIZER, Role.BROKER, Role.PRODUCER_BROKER, Role.REQUESTS, Role.TRANSACTIONS)
    assert roles_of("kafka:3.9.1:acl") == (Role.AUTHORIZER,), "the flavour picks an authorizer class"
    assert {parse_target("kafka:3.9.1", role).release for role in roles_of("kafka:3.9.1")} == {"3.9.1"}


@pytest.mark.parametrize(("spec", "role", "problem"), [
    ("", Role.AUTHORIZER, Problem.MALFORMED),
    ("nonsense", Role.BROKER, Problem.UNKNOWN),
    ("python:no-factory", Role.AUTHORIZER, Problem.MALFORMED),
    ("kafka:three", Role.BROKER, Problem.MALFORMED),
    ("kafka", Role.BROKER, Problem.MALFORMED),
    ("kafka:3.9.1:zk", Role.AUTHORIZER, Problem.MALFORMED),
    ("kafka:3.9.1:acl", Role.BROKER, Problem.MALFORMED),
    ("tansu:1", Role.BROKER, Problem.MALFORMED),
    ("kfake-cluster:zero", Role.PRODUCER_BROKER, Problem.MALFORMED),
    ("kafka-cluster:3.9.1:3:1", Role.PRODUCER_BROKER, Problem.MALFORMED),
    ("bootstrap:127.0.0.1", Role.BROKER, Problem.MALFORMED),
    ("bootstrap:127.0.0.1:99999", Role.BROKER, Problem.MALFORMED),
    ("bootstrap:127.0.0.1:9092", Role.REQUESTS, Problem.MALFORMED),
    ("bootstrap:127.0.0.1:9092,sasl=a:b,c:d", Role.BROKER, Problem.MALFORMED),
    ("reference:3.9.0:zk", Role.AUTHORIZER, Problem.MALFORMED),
])
def test_a_malformed_spec_says_what_is_wrong(spec: str, role: Role, problem: Problem) -> None:
    with pytest.raises(TargetError) as caught:
        parse_target(spec, role)
    assert caught.value.problem is problem
    assert str(caught.value)


def test_a_password_in_a_spec_never_reaches_the_message() -> None:
    for role in Role:
        with contextlib.suppress(TargetError):
            parse_target("bootstrap:127.0.0.1:9092,sasl=admin:hunter2,alice:swordfish", role)
            continue
        with pytest.raises(TargetError) as caught:
            parse_target("bootstrap:127.0.0.1:9092,sasl=admin:hunter2,alice:swordfish", role)
        assert "hunter2" not in str(caught.value) and "swordfish" not in str(caught.value)


def test_every_suite_refuses_with_the_one_error_and_the_same_words() -> None:
    """The same misplaced spec, handed to each suite's own entry point: one type, one problem."""
    calls = [
        lambda: resolve_target("tansu"),
        lambda: parse_broker_target("python:mod:factory"),
        lambda: parse_broker("bootstrap:127.0.0.1:9092"),
        lambda: parse_requests_target("tansu"),
        lambda: check_transactions("test-broker"),
        lambda: resolve_client("kafka:3.9.1"),
    ]
    for call in calls:
        with pytest.raises(TargetError) as caught:
            call()
        assert type(caught.value) is TargetError and caught.value.problem is Problem.WRONG_ROLE


def test_the_error_keeps_its_problem_across_pickling() -> None:
    error = pickle.loads(pickle.dumps(TargetError("gone", Problem.UNAVAILABLE, Role.BROKER)))
    assert (str(error), error.problem, error.role) == ("gone", Problem.UNAVAILABLE, Role.BROKER)


def test_no_other_error_type_for_target_specs() -> None:
    """One error type: no module defines another ``...TargetError`` or ``...SpecError``."""
    found = []
    for folder in ("adapters", "conformance", "corpora", "reference"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and re.search(r"(Target|Spec)Error$", node.name):
                    found.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert found == ["adapters/targets.py: TargetError"]


def test_the_docs_list_the_grammar_the_code_parses() -> None:
    text = (ROOT / "docs" / "targets.md").read_text(encoding="utf-8")
    listed = text.split("<!-- grammar: kafka-conformance targets --grammar -->\n", 1)[1].split("<!-- end of grammar -->")[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_targets.grammar() == 0
    assert listed == out.getvalue(), "regenerate the table with: kafka-conformance targets --grammar"


def test_the_report_never_prints_a_password_of_a_spec_it_refuses() -> None:
    from kafka_conformance.report.plan import ReportError, make_plan

    spec = "bootstrap:127.0.0.1:9092,sasl=admin:hunter2,alice:swordfish"
    for kwargs in ({"targets": [spec]}, {"brokers": [spec]}):
        with pytest.raises(ReportError) as caught:
            make_plan(**kwargs)  # type: ignore[arg-type]
        assert "hunter2" not in str(caught.value) and "swordfish" not in str(caught.value)


def test_a_spec_another_command_takes_is_named_so_by_the_report() -> None:
    from kafka_conformance.report.plan import ReportError, make_plan

    with pytest.raises(ReportError, match="it is taken by check producer --broker"):
        make_plan(targets=["kafka-cluster:3.9.1"])
