"""The ``jvm:`` target kind, the adapter's plumbing, and the jar fetcher's refusals.

Java fixtures (``tests/jvm/java``) are compiled once per session: an
authorizer with only the admin path (``PlainAuthorizer``) and a stand-in
``ClusterMetadataAuthorizer`` (``FakeStandardAuthorizer``) that exercises the
shim's reflective KIP-801 record path as a real StandardAuthorizer would see it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from listeners import listeners

from kafka_conformance import check_authorizer
from kafka_conformance.adapters.case import (
    Apply,
    Authorize,
    CaseAnswers,
    CaseRequest,
    CompleteInitialLoad,
    Configure,
    CountAcls,
    ListAcls,
    LoadSnapshot,
    run_by_calls,
)
from kafka_conformance.adapters.jvm.adapter import LIST_AUTHORIZER, JvmAuthorizer, parse_jvm_spec
from kafka_conformance.adapters.jvm.jars import KafkaJars, fetch_jars, find_jars
from kafka_conformance.adapters.jvm.session import JvmSession, shared_session, unavailable_reason
from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.authorizer.report import Status
from kafka_conformance.authorizer.targets import TargetError, resolve_target
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.filters import ANY_ACL
from kafka_conformance.reference.acl.principal import parse_principal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import RemoveAcl
from kafka_conformance.reference.errors import KafkaException

JAVA_FIXTURES = Path(__file__).parent / "java"
FAKE_STANDARD = "org.apache.kafka.metadata.authorizer.FakeStandardAuthorizer"


@pytest.fixture(scope="session")
def user_classes(jvm: JvmSession, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("user-classes")
    sources = sorted(str(p) for p in JAVA_FIXTURES.rglob("*.java"))
    cp = os.pathsep.join(str(p) for p in jvm.classpath)
    done = subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", str(out), *sources],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


def _statuses(spec: str) -> dict[str, Status]:
    report = check_authorizer(spec, Options(seed=3, max_examples=60), mode="hostile")
    return {r.name: r.status for r in report.results}


def test_plain_authorizer_through_the_admin_path(user_classes: Path) -> None:
    spec = f"jvm:PlainAuthorizer,classpath={user_classes}"
    caps = resolve_target(spec).capabilities
    assert (caps.not_ready_state, caps.acl_count) == (False, False)  # no record methods; aclCount not overridden
    statuses = _statuses(spec)
    assert statuses.pop("not-ready") is Status.SKIPPED
    assert set(statuses.values()) <= {Status.PASSED, Status.SKIPPED}, statuses


def test_cluster_metadata_authorizer_through_records(user_classes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAFKA_CONFORMANCE_CLASSPATH", str(user_classes))
    target = JvmAuthorizer(shared_session([user_classes]), FAKE_STANDARD)
    try:
        assert target.describe() == ("metadata", True, False)
    finally:
        target.close()
    statuses = _statuses(f"jvm:{FAKE_STANDARD}")
    assert statuses["not-ready"] is Status.PASSED
    assert set(statuses.values()) <= {Status.PASSED, Status.SKIPPED}, statuses


@pytest.mark.parametrize(("spec", "message"), [
    ("jvm:no.such.Authorizer", "ClassNotFoundException"),
    ("jvm:java.lang.String", "does not implement org.apache.kafka.server.authorizer.Authorizer"),
    ("jvm:X,colour=blue", "unknown jvm target option"),
    ("jvm:X,by-type=sideways", "by-type variant"),
    ("jvm:", r"jvm needs an argument: jvm:CLASS"),
])
def test_unusable_jvm_targets_are_refused(jvm: JvmSession, spec: str, message: str) -> None:
    with pytest.raises(TargetError, match=message):
        resolve_target(spec)


def test_spec_options() -> None:
    spec = parse_jvm_spec(f"com.example.A,classpath=/a.jar{os.pathsep}/b,by-type=acl")
    assert (spec.class_name, spec.classpath, spec.by_type.value if spec.by_type else None) == (
        "com.example.A", ("/a.jar", "/b"), "acl")


ALICE_LOCAL = RequestContext(parse_principal("User:alice"), "::1")


def test_hosts_java_cannot_render_are_renamed_consistently(jvm: JvmSession) -> None:
    """A context host "::1" (Java would say 0:0:0:0:0:0:0:1) matches an ACL host "::1" and
    nothing else, exactly as in the reference; acls() gives the kit's host back."""
    target = JvmAuthorizer(jvm, LIST_AUTHORIZER)
    try:
        target.configure({})
        target.load_snapshot({
            "a": AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t1", host="::1"),
            "b": AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t2", host="0:0:0:0:0:0:0:1"),
        })
        target.complete_initial_load()
        actions = [Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, n)) for n in ("t1", "t2")]
        assert target.authorize(ALICE_LOCAL, actions) == [AuthorizationResult.ALLOWED, AuthorizationResult.DENIED]
        assert sorted(b.entry.host for b in target.acls(ANY_ACL)) == ["0:0:0:0:0:0:0:1", "::1"]
    finally:
        target.close()


def test_a_whole_case_is_one_round_trip_and_answers_as_the_calls_do(jvm: JvmSession) -> None:
    """run_case hosts, configures, loads, asks and closes in one py4j call; its answers are
    the ones the calls give one by one, refusals as values; a refused configuration ends it."""
    actions = tuple(Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, n)) for n in ("t", "tx", "u"))
    root = RequestContext(parse_principal("User:root"))
    alice = RequestContext(parse_principal("User:alice"))
    acl = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "t", "PREFIXED")
    calls = (Configure((("super.users", "User:root"),)), LoadSnapshot((("a", acl),)), Authorize(root, actions),
             Authorize(alice, actions), CompleteInitialLoad(), Authorize(alice, actions), Apply(RemoveAcl("nope")),
             CountAcls(), ListAcls(ANY_ACL))
    whole = JvmAuthorizer(jvm, LIST_AUTHORIZER)
    answered = whole.run_case(CaseRequest(calls))
    whole.close()
    assert answered.failure is None
    one = JvmAuthorizer(jvm, LIST_AUTHORIZER)
    try:
        assert _same(run_by_calls(one, CaseRequest(calls)), answered)
    finally:
        one.close()
    assert answered.answers[2] == [AuthorizationResult.ALLOWED] * 3
    assert isinstance(answered.answers[3], KafkaException) and answered.answers[3].kind == "not-ready"
    assert answered.answers[5] == [AuthorizationResult.ALLOWED, AuthorizationResult.ALLOWED, AuthorizationResult.DENIED]
    assert isinstance(answered.answers[6], KafkaException) and answered.answers[6].kind == "illegal-state"
    assert answered.answers[7] == 1 and answered.answers[8] == [acl]
    refused = JvmAuthorizer(jvm, LIST_AUTHORIZER).run_case(CaseRequest((Configure((("super.users", "nocolon"),)), *calls[1:])))
    assert len(refused.answers) == 1 and isinstance(refused.answers[0], KafkaException) and refused.failure is None
    with pytest.raises(AdapterError, match="after close"):
        whole.acl_count()


def _same(a: CaseAnswers, b: CaseAnswers) -> bool:
    """Equal answers, refusals compared by kind (exceptions are not equal by value)."""
    def norm(x: object) -> object:
        return ("refused", x.kind) if isinstance(x, KafkaException) else x
    return [norm(x) for x in a.answers] == [norm(x) for x in b.answers] and a.failure is None and b.failure is None


def test_close_targets_stops_the_shared_jvm(jvm: JvmSession) -> None:
    """The CLI and the pytest plugin end a run with targets.close_targets(); a later case
    starts a new JVM.  In a subprocess, so this session's shared JVM stays up."""
    code = (
        "from kafka_conformance.adapters.jvm.session import shared_session\n"
        "from kafka_conformance.authorizer.targets import close_targets, resolve_target\n"
        "resolve_target('kafka-default-by-type'); first = shared_session()\n"
        "close_targets(); assert not first.alive and first._proc is None\n"
        "assert shared_session().alive and shared_session() is not first\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr


def test_jvm_listens_on_loopback_and_stops_on_close() -> None:
    if unavailable_reason() is not None:
        pytest.skip(f"JVM adapter unavailable: {unavailable_reason()}")
    session = JvmSession()
    try:
        listening = listeners(session.port)
        if listening is None:
            pytest.skip("no /proc/net/tcp on this system")
        assert listening and all(_loopback(a) for a in listening), listening
    finally:
        session.close()
    assert not session.alive
    session.close()  # idempotent


def _loopback(address: str) -> bool:
    return address in ("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000")


def test_cached_jars_are_reused(jvm: JvmSession) -> None:
    jars = find_jars()
    assert isinstance(jars, KafkaJars)
    assert fetch_jars() == jars  # no download: the cache answers
    assert jvm.kafka_version == "4.3.0"



def test_a_wrong_java_authorizer_is_caught_with_a_counterexample(user_classes: Path) -> None:
    """``ForgetfulAuthorizer`` ignores super.users: the kit finds it through the JVM."""
    report = check_authorizer(f"jvm:ForgetfulAuthorizer,classpath={user_classes}", Options(seed=3, max_examples=200),
                              properties=["authorize"])
    (result,) = report.results
    assert result.status is Status.FAILED and result.counterexample is not None
    assert result.counterexample.divergence is not None
    assert result.counterexample.divergence.expected == "ALLOWED"
