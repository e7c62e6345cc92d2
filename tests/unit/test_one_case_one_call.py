"""One case, one call (issue 29): a case goes to a target at once, its answers come back as
values, and the kit meets them in the order of the calls, so that what it reports is what it
would report asking one call at a time: an earlier divergence before a later crash, a crash at
the call it happened on, a refused configuration as a refusal whatever came behind it."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from kafka_conformance.adapters.case import (
    Apply,
    Authorize,
    CaseAnswers,
    CaseRequest,
    CompleteInitialLoad,
    Configure,
    CountAcls,
    LoadSnapshot,
    run_by_calls,
    run_case,
)
from kafka_conformance.adapters.jsonlines.adapter import SubprocessAuthorizer
from kafka_conformance.adapters.jsonlines.session import ImplementationSession
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.adapters.timed import TimedAdapter
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.differential import check_authorize, check_listing, check_record_log, check_records
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.support import CheckContext, answers_of
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AuthorizerError, ConfigError
from kafka_conformance.reference.releases import KafkaVersion

FAKE = Path(__file__).resolve().parents[1] / "data" / "subprocess" / "fake_impl.py"
ALICE = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
ACL = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "payments", "PREFIXED")
ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED


def read(name: str) -> Action:
    return Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name))


def ask(*names: str) -> Authorize:
    return Authorize(ALICE, tuple(read(n) for n in names))


SET_UP = (Configure(()), LoadSnapshot((("1", ACL),)), CompleteInitialLoad())


class Canned:
    """An in-process target whose run_case answers what it was given (a user's own run_case)."""

    def __init__(self, answers: CaseAnswers) -> None:
        self.answers = answers
        self.requests: list[CaseRequest] = []
        self.closed = False

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def run_case(self, request: CaseRequest) -> CaseAnswers:
        self.requests.append(request)
        return self.answers

    def close(self) -> None:
        self.closed = True


def ctx_of(make: Any, caps: Capabilities | None = None) -> CheckContext:
    return CheckContext(make, caps or Capabilities())


# -- the default: a case on the ten methods ----------------------------------------------------------


def test_the_default_runs_the_calls_in_order_and_keeps_refusals_as_answers() -> None:
    target = ReferenceTarget(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD))
    answered = run_case(target, CaseRequest((*SET_UP, ask("payments-eu", "x"), Apply(RemoveAcl("9")), CountAcls())))
    assert answered.failure is None
    assert answered.answers[:3] == (None, None, None)
    assert list(answered.answers[3]) == [ALLOWED, DENIED]  # type: ignore[call-overload]
    refused = answered.answers[4]
    assert isinstance(refused, AuthorizerError) and refused.kind == "illegal-state"  # an unknown id
    assert answered.answers[5] == 1


def test_a_refused_configuration_ends_the_case() -> None:
    target = ReferenceTarget(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD))
    answered = run_by_calls(target, CaseRequest((Configure((("super.users", "bob"),)), *SET_UP[1:], ask("x"))))
    assert len(answered.answers) == 1 and isinstance(answered.answers[0], ConfigError)
    assert answered.failure is None


def test_a_target_that_raises_ends_the_case_at_that_call() -> None:
    class Breaks(ReferenceTarget):
        def acl_count(self) -> int:
            raise KeyError("::1")

    target = Breaks(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD))
    answered = run_by_calls(target, CaseRequest((*SET_UP, CountAcls(), ask("x"))))
    assert len(answered.answers) == 3 and isinstance(answered.failure, KeyError)


def test_a_timed_target_without_run_case_is_bounded_call_by_call_and_one_with_it_as_a_whole() -> None:
    plain = TimedAdapter(ReferenceTarget(profile_for(KafkaVersion(4, 3, 0), Flavour.STANDARD)), 10)
    assert run_case(plain, CaseRequest(SET_UP)).answers == (None, None, None)  # type: ignore[arg-type]
    own = Canned(CaseAnswers((None,)))
    assert run_case(TimedAdapter(own, 10), CaseRequest(SET_UP[:1])).answers == (None,)  # type: ignore[arg-type]
    assert len(own.requests) == 1


# -- meeting the answers in order ---------------------------------------------------------------------


def test_an_earlier_divergence_is_reported_before_a_later_crash() -> None:
    """The reference denies both questions (no ACLs); the target allows the first, and then
    could not answer the second: the divergence is the finding."""
    target = Canned(CaseAnswers((None, None, None, [ALLOWED]), AdapterError("malformed", "bad batch")))
    scenario = Scenario(queries=(Query(ALICE, (read("a"),)), Query(ALICE, (read("b"),))))
    with pytest.raises(CaseFailed) as failed:
        check_authorize(ctx_of(lambda: target), scenario)
    divergence = failed.value.divergence
    assert divergence.question == "authorize(User:alice from 10.0.0.1, [READ TOPIC 'a'])"  # type: ignore[attr-defined]
    assert (divergence.expected, divergence.actual) == ("DENIED", "ALLOWED")  # type: ignore[attr-defined]
    assert len(target.requests) == 1 and target.closed


def test_a_crash_is_met_at_the_call_it_happened_on() -> None:
    target = Canned(CaseAnswers((None, None, None, [DENIED]), AdapterError("crash", "gone")))
    scenario = Scenario(queries=(Query(ALICE, (read("a"),)), Query(ALICE, (read("b"),))))
    with pytest.raises(TargetCrashed, match=r"^authorize\(\): crash: gone") as failed:
        check_authorize(ctx_of(lambda: target), scenario)
    assert failed.value.kind == "crash"


@pytest.mark.parametrize("answer", [["DENIED"], [DENIED, DENIED], "nonsense", None])
def test_answers_of_the_wrong_shape_are_target_failures(answer: object) -> None:
    target = Canned(CaseAnswers((None, None, None, answer)))
    with pytest.raises(TargetCrashed, match=r"^authorize\(\) returned"):
        check_authorize(ctx_of(lambda: target), Scenario(queries=(Query(ALICE, (read("a"),)),)))


def test_a_refusal_of_a_question_answers_every_action_of_its_batch() -> None:
    refusal = AuthorizerError("not-ready", "later", "AuthorizerNotReadyException")
    replies = driver.Replies((ask("a", "b"),), CaseAnswers((refusal,)))
    assert [o.error for o in replies.authorize()] == ["not-ready", "not-ready"]


def test_a_refused_snapshot_is_the_target_failing_to_answer() -> None:
    refusal = AuthorizerError("illegal-state", "duplicate", "IllegalStateException")
    target = Canned(CaseAnswers((None, refusal, None, [DENIED])))
    with pytest.raises(TargetCrashed, match=r"load_snapshot\(\) refused a consistent snapshot: illegal-state"):
        check_authorize(ctx_of(lambda: target), Scenario(acls=(("1", ACL),), queries=(Query(ALICE, (read("a"),)),)))


def test_a_consistent_record_refused_is_a_divergence_not_an_internal_error() -> None:
    """An implementation refusing a record Kafka accepts is a finding (issue 36's ninth point)."""
    refusal = AuthorizerError("illegal-state", "no", "IllegalStateException")
    target = Canned(CaseAnswers((None, None, None, refusal)))
    with pytest.raises(CaseFailed) as failed:
        check_records(ctx_of(lambda: target), Scenario(acls=(("1", ACL),), queries=(Query(ALICE, (read("a"),)),)))
    assert failed.value.divergence.anomaly == "record-refused"  # type: ignore[attr-defined]


def test_a_failure_to_close_is_reported_after_the_answers_and_never_hides_a_divergence() -> None:
    class BadClose(Canned):
        def close(self) -> None:
            raise RuntimeError("close failed")

    scenario = Scenario(queries=(Query(ALICE, (read("a"),)),))
    with pytest.raises(TargetCrashed, match=r"^close\(\) raised RuntimeError"):
        check_authorize(ctx_of(lambda: BadClose(CaseAnswers((None, None, None, [DENIED])))), scenario)
    with pytest.raises(CaseFailed):
        check_authorize(ctx_of(lambda: BadClose(CaseAnswers((None, None, None, [ALLOWED])))), scenario)


# -- over JSON lines: one write per case -----------------------------------------------------------------


@pytest.fixture
def session() -> Iterator[tuple[ImplementationSession, list[list[str]]]]:
    """A session on the fake implementation, recording the ops of every write made on it."""
    live = ImplementationSession([sys.executable, str(FAKE), "ok"], timeout=10)
    writes: list[list[str]] = []
    call = live.call

    def spy(requests: Sequence[tuple[str, dict[str, Any]]], **kw: Any) -> Any:
        writes.append([op for op, _ in requests])
        return call(requests, **kw)

    live.call = spy  # type: ignore[method-assign]
    yield live, writes
    live.close()


def process_ctx(live: ImplementationSession) -> CheckContext:
    return CheckContext(lambda: SubprocessAuthorizer.sharing(live), live.capabilities)


def test_a_case_is_one_write_and_a_run_of_questions_one_request(session: tuple[ImplementationSession, list[list[str]]]) -> None:
    live, writes = session
    queries = (Query(ALICE, (read("payments"),)), Query(ALICE, (read("x"), read("y"))), Query(ALICE, (read("z"),)))
    assert answers_of(process_ctx(live), Scenario(queries=queries), (("1", ACL),)) == [driver.Outcome(DENIED)] * 4
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load", "authorize"]]


def test_a_record_log_is_one_write_and_its_replay_a_second(session: tuple[ImplementationSession, list[list[str]]]) -> None:
    """The fake answers DENIED to everything: the reference allows nothing here either."""
    live, writes = session
    bob = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "x", "LITERAL")
    scenario = Scenario(queries=(Query(ALICE, (read("x"),)),),
                        records=(AddAcl("1", bob), RemoveAcl("1"), RemoveAcl("1")))
    check_record_log(process_ctx(live), scenario)
    assert len(writes) == 2
    assert writes[0] == ["reset", "configure", "load_snapshot", "complete_initial_load",
                         "apply", "authorize", "acl_count", "apply", "authorize", "acl_count",
                         "apply", "authorize", "acl_count", "authorize"]


def test_a_divergence_is_found_through_the_one_write(session: tuple[ImplementationSession, list[list[str]]]) -> None:
    """The fake denies everything; the reference allows alice's prefixed read."""
    live, _ = session
    with pytest.raises(CaseFailed) as failed:
        check_authorize(process_ctx(live), Scenario(acls=(("1", ACL),), queries=(Query(ALICE, (read("payments-eu"),)),)))
    assert failed.value.divergence.actual == "DENIED"  # type: ignore[attr-defined]


def test_the_listing_answers_that_came_are_met_before_a_failure_of_the_process(
        session: tuple[ImplementationSession, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The set-up, the count and the first filter were answered, then the process failed: a wrong
    count is the finding, as when each was asked on its own."""
    live, _ = session

    def partly(requests: list[tuple[str, dict[str, Any]]], **kw: Any) -> Any:
        gone = AdapterError("crash", "the implementation process exited")
        gone.received = [{"id": 1, "result": None}] * 4 + [{"id": 5, "result": 5}, {"id": 6, "result": []}]  # reset first
        gone.received += [None] * (len(requests) - len(gone.received))
        raise gone

    monkeypatch.setattr(live, "call", partly)
    with pytest.raises(CaseFailed) as failed:
        check_listing(process_ctx(live), Scenario(acls=(("1", ACL),)))
    assert failed.value.divergence.anomaly == "acl-count-wrong"  # type: ignore[attr-defined]


def _adapter(mode: str, timeout: float = 10) -> SubprocessAuthorizer:
    return SubprocessAuthorizer([sys.executable, str(FAKE), mode], timeout=timeout)


@pytest.mark.parametrize(("mode", "timeout"), [("crash", 10), ("garbage", 10), ("hang", 1)])
def test_a_refused_configuration_stays_a_refusal_whatever_the_process_does_behind_it(mode: str, timeout: float) -> None:
    """The questions behind a refused configure are answered by an unconfigured implementation:
    however that goes (a crash, a line that is not JSON, no answer), the answer is the refusal."""
    adapter = _adapter(mode, timeout)
    try:
        answered = adapter.run_case(CaseRequest((Configure((("super.users", "bob"),)), *SET_UP[1:], ask("x"))))
        assert len(answered.answers) == 1 and isinstance(answered.answers[0], ConfigError)
        assert answered.failure is None
    finally:
        adapter.close()


@pytest.mark.parametrize(("mode", "kind"), [("crash", "crash"), ("garbage", "malformed"), ("wrong-id", "malformed")])
def test_a_process_that_fails_on_the_questions_fails_at_authorize(mode: str, kind: str) -> None:
    """Set up fine, then the process fails answering the questions: met after the set-up, at the
    first question, named as authorize()'s failure."""
    adapter = _adapter(mode)
    try:
        with pytest.raises(TargetCrashed, match=f"^authorize\\(\\): {kind}: ") as failed:
            check_authorize(CheckContext(lambda: adapter, adapter.capabilities()),
                            Scenario(acls=(("1", ACL),), queries=(Query(ALICE, (read("x"),)), Query(ALICE, (read("y"),)))))
        assert failed.value.kind == kind
    finally:
        adapter.close()


def test_a_process_that_fails_on_the_questions_of_a_record_step_fails_at_authorize() -> None:
    """The record was answered, then the process crashed answering the questions behind it."""
    adapter = _adapter("crash")
    try:
        bob = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "x", "LITERAL")
        with pytest.raises(TargetCrashed, match=r"^authorize\(\): crash: ") as failed:
            check_records(CheckContext(lambda: adapter, adapter.capabilities()),
                          Scenario(acls=(("1", bob),), queries=(Query(ALICE, (read("x"),)),)))
        assert failed.value.kind == "crash"
    finally:
        adapter.close()


def test_single_questions_still_work_for_step_by_step_callers() -> None:
    """The stateful machine drives a live target call by call."""
    adapter = _adapter("errors")
    try:
        adapter.configure({})
        with pytest.raises(AuthorizerError, match="fake not-ready"):
            adapter.authorize(ALICE, [read("not-ready")])
        assert adapter.authorize_by_resource_type(ALICE, AclOperation.READ, ResourceType.TOPIC) is DENIED
    finally:
        adapter.close()


def test_a_batch_the_process_could_not_answer_ends_the_case_there_and_keeps_the_batches_before(
        session: tuple[ImplementationSession, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """One request carries three batches; the third is answered with an error kind the protocol
    does not define: the first two answers stand, the failure is met at the third."""
    live, _ = session

    def answered(requests: list[tuple[str, dict[str, Any]]], **kw: Any) -> Any:
        batches = [["ALLOWED"], ["DENIED"], {"error": {"kind": "internal", "message": "boom"}}]
        return [{"id": n, "result": None} for n in range(4)] + [{"id": 4, "result": batches}], 1

    monkeypatch.setattr(live, "call", answered)
    adapter = SubprocessAuthorizer.sharing(live)
    got = adapter.run_case(CaseRequest((*SET_UP, ask("a"), ask("b"), ask("c"))))
    assert got.answers[3:] == ([ALLOWED], [DENIED])
    assert isinstance(got.failure, AdapterError) and "error kind 'internal'" in str(got.failure)
    replies = driver.Replies((*SET_UP, ask("a"), ask("b"), ask("c")), got)
    assert replies.set_up(complete=True)
    assert replies.authorize() == [driver.Outcome(ALLOWED)] and replies.authorize() == [driver.Outcome(DENIED)]
    with pytest.raises(TargetCrashed, match=r"^authorize\(\): protocol-error: .*internal"):
        replies.authorize()


def test_a_target_that_runs_its_own_cases_gets_the_timeout_once_per_call() -> None:
    import time

    class Slow(Canned):
        def run_case(self, request: CaseRequest) -> CaseAnswers:
            time.sleep(0.3)  # 0.1 s a call: within a 0.2 s bound per call, over it for the case
            return CaseAnswers((None,) * len(request.calls))

    assert run_case(TimedAdapter(Slow(CaseAnswers(())), 0.2), CaseRequest(SET_UP)).answers == (None,) * 3  # type: ignore[arg-type]
    with pytest.raises(AdapterError, match=r"the case \(1 calls\) gave no answer within 0.2 s"):
        run_case(TimedAdapter(Slow(CaseAnswers(())), 0.2), CaseRequest(SET_UP[:1]))  # type: ignore[arg-type]
