"""A case's questions go to a process in one request, and its set-up in one write, without
changing what is reported: answers are met batch by batch, in order, so a divergence in an
earlier batch still comes before a failure in a later one (issue 18)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from kafka_conformance.adapters.jsonlines.adapter import SubprocessAuthorizer
from kafka_conformance.adapters.protocol import AdapterError, Capabilities
from kafka_conformance.authorizer import driver
from kafka_conformance.authorizer.cases import Query, Scenario
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.support import CheckContext, compare_queries, fresh_target
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.errors import AuthorizerError

FAKE = Path(__file__).resolve().parents[1] / "data" / "subprocess" / "fake_impl.py"
ALICE = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
ACL = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "payments", "PREFIXED")
ALLOWED, DENIED = AuthorizationResult.ALLOWED, AuthorizationResult.DENIED


def read(name: str) -> Action:
    return Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name))


class Batching:
    """A target that answers every batch of one request with the answers it was given."""

    takes_meanwhile = True

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers
        self.requests = 0

    def authorize_batches(self, batches: Sequence[tuple[RequestContext, Sequence[Action]]],
                          meanwhile: Callable[[], object] | None = None) -> list[object]:
        self.requests += 1
        assert len(batches) == len(self.answers)
        if meanwhile is not None:
            meanwhile()
        return self.answers


def test_answers_are_met_in_order_and_a_failure_waits_for_its_turn() -> None:
    refused = AuthorizerError("not-ready", "later", "AuthorizerNotReadyException")
    target = Batching([[DENIED], refused, AdapterError("malformed", "bad batch")])
    answers = driver.authorize_each(target, [(ALICE, [read("a")]), (ALICE, [read("b"), read("c")]), (ALICE, [read("d")])])  # type: ignore[arg-type]
    assert next(answers) == [driver.Outcome(DENIED)]
    assert target.requests == 1
    assert [o.error for o in next(answers)] == ["not-ready", "not-ready"]
    with pytest.raises(TargetCrashed, match="authorize\\(\\): malformed: bad batch"):
        next(answers)
    assert target.requests == 1


@pytest.mark.parametrize("answers", [[["DENIED"], [DENIED]], [[DENIED, DENIED], [DENIED]], "nonsense"])
def test_answers_of_the_wrong_shape_are_target_failures(answers: object) -> None:
    class Wrong(Batching):
        def authorize_batches(self, batches: Sequence[tuple[RequestContext, Sequence[Action]]],
                              meanwhile: Callable[[], object] | None = None) -> Any:
            return answers

    batches = [(ALICE, [read("a")]), (ALICE, [read("b")])]
    with pytest.raises(TargetCrashed):
        list(driver.authorize_each(Wrong([]), batches))  # type: ignore[arg-type]


def test_an_earlier_divergence_is_reported_before_a_later_crash() -> None:
    """The reference denies both questions (no ACLs); the target allows the first, and its
    answer to the second could not be read: the divergence is the finding."""
    target = Batching([[ALLOWED], AdapterError("malformed", "bad batch")])
    ctx = CheckContext(lambda: target, Capabilities())  # type: ignore[arg-type,return-value]
    ref = ReferenceAuthorizer(ctx.caps.profile())
    ref.complete_initial_load()
    queries = (Query(ALICE, (read("a"),)), Query(ALICE, (read("b"),)))
    with pytest.raises(CaseFailed) as failed:
        compare_queries(ctx, target, ref, queries, Scenario(queries=queries))  # type: ignore[arg-type]
    divergence = failed.value.divergence
    assert divergence.question == "authorize(User:alice from 10.0.0.1, [READ TOPIC 'a'])"  # type: ignore[attr-defined]
    assert (divergence.expected, divergence.actual) == ("DENIED", "ALLOWED")  # type: ignore[attr-defined]


@pytest.fixture
def process() -> Iterator[tuple[SubprocessAuthorizer, list[list[str]]]]:
    """An adapter on the fake implementation, recording the ops of every write it makes."""
    adapter = SubprocessAuthorizer([sys.executable, str(FAKE), "ok"], timeout=10)
    writes: list[list[str]] = []
    session_call = adapter.session.call

    def spy(requests: Sequence[tuple[str, dict[str, Any]]], **kw: Any) -> Any:
        writes.append([op for op, _ in requests])
        return session_call(requests, **kw)

    adapter.session.call = spy  # type: ignore[method-assign]
    yield adapter, writes
    adapter.close()


def test_set_up_and_questions_take_one_write_each(process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("payments"),)), Query(ALICE, (read("x"), read("y"))), Query(ALICE, (read("z"),)))
    scenario = Scenario(acls=(("1", ACL),), queries=queries)
    assert fresh_target(ctx, scenario) is adapter
    answers = list(driver.authorize_each(adapter, [(q.context, q.actions) for q in queries]))
    assert [len(a) for a in answers] == [1, 2, 1]
    assert writes == [["reset", "configure"], ["load_snapshot", "complete_initial_load"], ["authorize"]]
    assert adapter.acl_count() == 1  # the snapshot was loaded by the pipelined write


def test_a_refused_snapshot_in_the_pipelined_set_up_is_still_named(
        process: tuple[SubprocessAuthorizer, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    adapter, _ = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    monkeypatch.setattr(adapter, "load_and_complete",
                        lambda acls: [AuthorizerError("illegal-state", "duplicate", "IllegalStateException"), None])
    with pytest.raises(TargetCrashed, match="load_snapshot\\(\\) refused a consistent snapshot: illegal-state"):
        fresh_target(ctx, Scenario(acls=(("1", ACL),)))


def test_a_record_step_is_one_write_and_a_refused_record_is_met_first(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    assert fresh_target(ctx, Scenario()) is adapter
    batches = [(ALICE, [read("payments")]), (ALICE, [read("x"), read("y")])]
    applied, answers, counted = adapter.apply_and_ask(AddAcl("1", ACL), batches, True)
    assert applied is None and counted == 1
    assert [len(a) for a in answers] == [1, 2]  # type: ignore[arg-type]
    assert writes[-1] == ["apply", "authorize", "acl_count"]
    refused, answers, counted = adapter.apply_and_ask(RemoveAcl("nope"), batches, False)
    assert isinstance(refused, AuthorizerError) and refused.kind == "illegal-state"
    assert counted is None and [len(a) for a in answers] == [1, 2]  # type: ignore[arg-type]
    assert writes[-1] == ["apply", "authorize"]


def test_the_record_property_on_a_process_takes_one_write_per_step(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    """check_records against the fake (it denies everything): the reference allows alice's READ on
    'payments' once the ACL is in, so the divergence is found after record 1, from one write."""
    from kafka_conformance.authorizer.differential import check_records

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("payments"),)), Query(ALICE, (read("other"),)))
    with pytest.raises(CaseFailed) as failed:
        check_records(ctx, Scenario(acls=(("1", ACL),), queries=queries))
    assert failed.value.divergence.step.startswith("after record 1 of")  # type: ignore[attr-defined]
    assert writes[-1] == ["apply", "authorize", "acl_count"]


def test_the_record_log_property_on_a_process_takes_one_write_per_record_step(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    """check_record_log: a refused record (removing an id never added) and then an add, each
    step one write; the refused step's questions are its unchanged-state check, and the add's
    divergence (the fake denies what the ACL allows) is reported after step 2, as asked call by call."""
    from kafka_conformance.authorizer.differential import check_record_log
    from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("payments"),)), Query(ALICE, (read("other"),)))
    with pytest.raises(CaseFailed) as failed:
        check_record_log(ctx, Scenario(records=(RemoveAcl("nope"), AddAcl("1", ACL)), queries=queries))
    divergence = failed.value.divergence
    assert divergence.anomaly != "refused-record-changed-state"  # type: ignore[attr-defined]
    assert divergence.step.startswith("after step 2 of 2")  # type: ignore[attr-defined]
    assert (divergence.expected, divergence.actual) == ("ALLOWED", "DENIED")  # type: ignore[attr-defined]
    steps = [w for w in writes if w[0] == "apply"]
    assert steps == [["apply", "authorize", "acl_count"]] * 2


def test_the_listing_property_on_a_process_asks_the_count_and_every_filter_in_one_write(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    """check_listing against the fake (its acls() returns every ACL whatever the filter): the
    first filter it answers wrongly is reported, after the count and the filters before it
    were compared, from one write."""
    from kafka_conformance.authorizer.differential import check_listing

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    bob = AclBinding.of("ALLOW", "User:bob", "WRITE", "TOPIC", "orders", "LITERAL")
    with pytest.raises(CaseFailed) as failed:
        check_listing(ctx, Scenario(acls=(("1", ACL), ("2", bob))))
    divergence = failed.value.divergence
    assert divergence.anomaly == "listing-wrong"  # type: ignore[attr-defined]
    assert "TOPIC" in divergence.question and "alice" not in divergence.question  # type: ignore[attr-defined]
    assert writes[-1] == ["acl_count", "acls", "acls", "acls", "acls", "acls"]


class ByTypeBatching:
    """A target that answers one by-type request with the answers it was given."""

    takes_meanwhile = True

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers
        self.requests = 0

    def authorize_by_resource_type_batches(self, queries: Sequence[object],
                                           meanwhile: Callable[[], object] | None = None) -> list[object]:
        self.requests += 1
        assert len(queries) == len(self.answers)
        if meanwhile is not None:
            meanwhile()
        return self.answers


def test_by_type_answers_come_from_one_request_and_a_failure_waits_for_its_turn() -> None:
    refused = AuthorizerError("not-ready", "later", "AuthorizerNotReadyException")
    target = ByTypeBatching([ALLOWED, refused, "MAYBE"])
    queries = [(ALICE, AclOperation.READ, ResourceType.TOPIC)] * 3
    answers = driver.by_type_each(target, queries)  # type: ignore[arg-type]
    assert next(answers) == driver.Outcome(ALLOWED)
    assert target.requests == 1
    assert next(answers).error == "not-ready"
    with pytest.raises(TargetCrashed, match="returned 'MAYBE'"):
        next(answers)


def test_the_by_type_property_on_a_process_asks_every_query_in_one_write(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    from kafka_conformance.authorizer.cases import ByTypeQuery
    from kafka_conformance.authorizer.differential import check_by_type

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = tuple(ByTypeQuery(ALICE, op, ResourceType.TOPIC) for op in (AclOperation.WRITE, AclOperation.READ))
    with pytest.raises(CaseFailed) as failed:  # the fake denies everything; alice may READ some topic
        check_by_type(ctx, Scenario(acls=(("1", ACL),), by_type=queries))
    assert "READ" in failed.value.divergence.question  # type: ignore[attr-defined]
    assert writes[-1] == ["authorize_by_resource_type"]
    assert sum(w == ["authorize_by_resource_type"] for w in writes) == 1


def test_where_kafka_accepts_the_configuration_the_whole_set_up_is_one_write(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    assert fresh_target(ctx, Scenario(acls=(("1", ACL),)), kafka_accepts=True) is adapter
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load"]]
    assert adapter.acl_count() == 1


def test_a_configuration_refused_in_the_one_write_set_up_is_still_a_refusal(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    # The fake refuses super.users without a ':'; were Kafka to accept it, the loads sent behind
    # the refused configure are not looked at and the target counts as refusing (None).
    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    refused = Scenario(properties=(("super.users", "bob"),), acls=(("1", ACL),))
    assert fresh_target(ctx, refused, kafka_accepts=True) is None
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load"]]


# -- the kit works while the implementation answers ------------------------------------------------

def test_the_kit_works_while_the_process_answers() -> None:
    """``meanwhile`` runs after the request is written and before any answer is read: the
    implementation's answer is already on its way while the kit's own work runs."""
    import select

    from kafka_conformance.adapters.jsonlines.process import ImplementationProcess

    proc = ImplementationProcess([sys.executable, str(FAKE), "ok"], timeout=10)
    try:
        seen: list[bool] = []

        def meanwhile() -> None:  # waits (at most 10 s) for the answer to be readable, without reading it
            readable, _, _ = select.select([proc._stdout_fd], [], [], 10)
            seen.append(bool(readable))

        hello = proc.exchange([{"id": 1, "op": "hello", "protocol": 1, "kit": "test"}], meanwhile)
        assert seen == [True]
        assert hello[0]["id"] == 1 and "result" in hello[0]
    finally:
        proc.stop()


def test_work_that_fails_meanwhile_is_raised_after_the_answers_and_the_process_stays_in_step() -> None:
    from kafka_conformance.adapters.jsonlines.process import ImplementationProcess

    proc = ImplementationProcess([sys.executable, str(FAKE), "ok"], timeout=10)
    try:
        def broken() -> None:
            raise LookupError("the kit's own bug")

        with pytest.raises(LookupError, match="the kit's own bug"):
            proc.exchange([{"id": 1, "op": "hello", "protocol": 1, "kit": "test"}], broken)
        assert proc.alive()  # not stopped: its answer was read, the stream is in step
        assert proc.exchange([{"id": 2, "op": "acl_count"}])[0]["id"] == 2
    finally:
        proc.stop()


def test_a_kit_error_in_the_work_is_never_taken_for_the_target_failing() -> None:
    target = Batching([[DENIED], [DENIED]])

    def broken() -> None:
        raise LookupError("the kit's own bug")

    answers = driver.authorize_each(target, [(ALICE, [read("a")]), (ALICE, [read("b")])], meanwhile=broken)  # type: ignore[arg-type]
    with pytest.raises(LookupError, match="the kit's own bug"):
        next(answers)


def _reference_calls_inside_exchange(adapter: SubprocessAuthorizer, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each answer the reference works out from now on, whether it was worked out inside the
    process's exchange (while the implementation answered)."""
    adapter.capabilities()  # the process is started by the handshake
    live = adapter.session._process
    assert live is not None
    exchange, in_exchange, inside = live.exchange, [False], []

    def spied(requests: Sequence[dict[str, Any]], meanwhile: Callable[[], object] | None = None) -> Any:
        in_exchange[0] = True
        try:
            return exchange(requests, meanwhile)
        finally:
            in_exchange[0] = False

    monkeypatch.setattr(live, "exchange", spied)
    real = ReferenceAuthorizer.authorize

    def counted(self: ReferenceAuthorizer, context: RequestContext, actions: Sequence[Action]) -> Any:
        inside.append(in_exchange[0])
        return real(self, context, actions)

    monkeypatch.setattr(ReferenceAuthorizer, "authorize", counted)
    return inside


def test_the_reference_answers_while_the_process_does(process: tuple[SubprocessAuthorizer, list[list[str]]],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """compare_queries and the record property hand the reference's answers to the adapter as
    its ``meanwhile`` work: computed inside the write's exchange, once, and compared as before."""
    from kafka_conformance.authorizer.differential import check_records

    adapter, _ = process
    inside = _reference_calls_inside_exchange(adapter, monkeypatch)
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("x"),)), Query(ALICE, (read("y"),)))
    bob = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "x", "LITERAL")
    deny = AclBinding.of("DENY", "User:bob", "READ", "TOPIC", "y", "LITERAL")
    check_records(ctx, Scenario(acls=(("1", bob), ("2", deny)), queries=queries))
    # two records added, one removed: three steps of two questions, each answered inside its write
    assert inside == [True] * 6


def test_a_request_line_is_compact_json_and_carries_encoded_fields_as_they_are() -> None:
    import json

    from kafka_conformance.adapters.jsonlines.process import encoded, request_line

    plain = {"id": 7, "op": "authorize", "batches": [{"context": {"host": "h\u00e9"}, "actions": []}]}
    assert request_line(plain) == json.dumps(plain, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
    spliced = {"id": 7, "op": "authorize", "batches": encoded(plain["batches"])}
    assert request_line(spliced) == request_line(plain)


def test_a_record_log_sends_the_json_of_its_questions_built_once(
        process: tuple[SubprocessAuthorizer, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same (immutable) tuple of questions after every step is encoded once per adapter; a
    list, which could have changed, is encoded every time.  The answers are the same."""
    from kafka_conformance.adapters.jsonlines import adapter as adapter_module
    from kafka_conformance.reference.authorizer.records import AddAcl

    adapter, _ = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    assert fresh_target(ctx, Scenario()) is adapter
    encodings: list[Action] = []
    real = adapter_module.encode_action
    monkeypatch.setattr(adapter_module, "encode_action", lambda a: encodings.append(a) or real(a))
    questions = ((ALICE, (read("payments"),)), (ALICE, (read("x"), read("y"))))
    other = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "orders", "LITERAL")
    for n, binding in enumerate((ACL, other), start=1):
        applied, answers, counted = adapter.apply_and_ask(AddAcl(str(n), binding), questions, True)
        assert applied is None and counted == n and [len(a) for a in answers] == [1, 2]  # type: ignore[arg-type]
    assert len(encodings) == 3  # once, for the first step
    listed = [(c, list(a)) for c, a in questions]
    adapter.apply_and_ask(AddAcl("3", AclBinding.of("DENY", "User:bob", "READ", "TOPIC", "x", "LITERAL")), listed, True)
    adapter.apply_and_ask(AddAcl("4", AclBinding.of("DENY", "User:bob", "READ", "TOPIC", "y", "LITERAL")), listed, True)
    assert len(encodings) == 9


def test_a_target_whose_batch_method_takes_no_work_is_called_as_before() -> None:
    """A user's in-process target may have an ``authorize_batches`` of its own, without the
    keyword: it is called without it, and the work is done first."""
    events: list[str] = []

    class Plain:
        def authorize_batches(self, batches: Sequence[tuple[RequestContext, Sequence[Action]]]) -> list[object]:
            events.append("asked")
            return [[DENIED] for _ in batches]

    answers = driver.authorize_each(Plain(), [(ALICE, [read("a")]), (ALICE, [read("b")])],  # type: ignore[arg-type]
                                    meanwhile=lambda: events.append("work"))
    assert [next(answers), next(answers)] == [[driver.Outcome(DENIED)]] * 2
    assert events == ["work", "asked"]


def test_the_kit_error_comes_before_a_target_failure_and_a_stop_is_never_replaced() -> None:
    def broken() -> None:
        raise LookupError("the kit's own bug")

    def crashed(work: Callable[[], None] | None) -> object:
        assert work is not None
        work()
        raise AdapterError("crash", "gone")

    with pytest.raises(LookupError) as kit:
        driver.while_asking("authorize()", crashed, broken)
    assert isinstance(kit.value.__cause__, TargetCrashed)

    def stopped(work: Callable[[], None] | None) -> object:
        assert work is not None
        work()
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        driver.while_asking("authorize()", stopped, broken)


def test_a_reference_error_comes_at_its_turn_after_an_earlier_divergence() -> None:
    """The reference's answers are worked out together, but one that raises is raised at
    its question's turn: the target's divergence on the first question is reported first."""
    target = Batching([[ALLOWED], [DENIED]])
    ctx = CheckContext(lambda: target, Capabilities())  # type: ignore[arg-type,return-value]
    ref = ReferenceAuthorizer(ctx.caps.profile())
    ref.complete_initial_load()
    real = ref.authorize

    def second_fails(context: RequestContext, actions: Sequence[Action]) -> Any:
        if actions[0].resource.name == "b":
            raise LookupError("the reference's own bug")
        return real(context, actions)

    ref.authorize = second_fails  # type: ignore[method-assign]
    queries = (Query(ALICE, (read("a"),)), Query(ALICE, (read("b"),)))
    with pytest.raises(CaseFailed):
        compare_queries(ctx, target, ref, queries, Scenario(queries=queries))  # type: ignore[arg-type]
    target.answers = [[DENIED], [DENIED]]
    with pytest.raises(LookupError, match="reference's own bug"):
        compare_queries(ctx, target, ref, queries, Scenario(queries=queries))  # type: ignore[arg-type]


def test_work_that_fails_inside_an_adapter_call_leaves_the_adapter_usable(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    adapter, _ = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    assert fresh_target(ctx, Scenario(acls=(("1", ACL),))) is adapter

    def broken() -> None:
        raise LookupError("the kit's own bug")

    with pytest.raises(LookupError):
        adapter.authorize_batches([(ALICE, [read("payments")])], meanwhile=broken)
    assert adapter.acl_count() == 1  # still configured and loaded: nothing was lost


# -- a case's set-up and its questions in one write ------------------------------------------------

def test_where_kafka_accepts_the_configuration_set_up_and_questions_are_one_write(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    """check_authorize on a process: one write for the whole case, and the divergence (the fake
    denies everything; the reference allows alice's READ of payments) is still found."""
    from kafka_conformance.authorizer.differential import check_authorize

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("x"),)), Query(ALICE, (read("payments"),)))
    with pytest.raises(CaseFailed) as failed:
        check_authorize(ctx, Scenario(acls=(("1", ACL),), queries=queries))
    assert "payments" in failed.value.divergence.question  # type: ignore[attr-defined]
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load", "authorize"]]


def test_the_reference_answers_while_the_process_answers_set_up_and_questions(
        process: tuple[SubprocessAuthorizer, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    from kafka_conformance.authorizer.differential import check_authorize

    adapter, writes = process
    inside = _reference_calls_inside_exchange(adapter, monkeypatch)
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("x"),)), Query(ALICE, (read("y"),)))
    check_authorize(ctx, Scenario(queries=queries))  # no ACLs: both deny everything
    assert inside == [True, True]
    assert len(writes) == 1


def test_answers_of_a_fresh_process_target_take_one_write(process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    from kafka_conformance.authorizer.support import answers_of

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    queries = (Query(ALICE, (read("x"), read("y"))), Query(ALICE, (read("z"),)))
    assert answers_of(ctx, Scenario(queries=queries), (("1", ACL),)) == [driver.Outcome(DENIED)] * 3
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load", "authorize"]]


def test_a_configuration_refused_in_the_one_write_case_is_a_refusal_and_its_answers_are_not_read(
        process: tuple[SubprocessAuthorizer, list[list[str]]]) -> None:
    from kafka_conformance.authorizer.support import fresh_target_asking

    adapter, writes = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    refused = Scenario(properties=(("super.users", "bob"),), acls=(("1", ACL),), queries=(Query(ALICE, (read("x"),)),))
    assert fresh_target_asking(ctx, refused, kafka_accepts=True, ask=[(ALICE, (read("x"),))]) == (None, None)
    assert writes == [["reset", "configure", "load_snapshot", "complete_initial_load", "authorize"]]


def test_the_set_up_of_a_one_write_case_is_met_before_its_answers(
        process: tuple[SubprocessAuthorizer, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused snapshot is named as fresh_target names it, however the answers behind it went;
    and a batch the implementation could not answer fails only at its turn."""
    from kafka_conformance.authorizer.support import fresh_target_asking

    adapter, _ = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    batches = [(ALICE, (read("a"),)), (ALICE, (read("b"),))]
    refused = AuthorizerError("illegal-state", "duplicate", "IllegalStateException")
    monkeypatch.setattr(adapter, "configure_load_and_ask",
                        lambda config, acls, ask, **kw: ([None, refused, None], AdapterError("malformed", "never read")))
    with pytest.raises(TargetCrashed, match="load_snapshot\\(\\) refused a consistent snapshot: illegal-state"):
        fresh_target_asking(ctx, Scenario(acls=(("1", ACL),)), kafka_accepts=True, ask=batches)
    monkeypatch.setattr(adapter, "configure_load_and_ask",
                        lambda config, acls, ask, **kw: ([None, None, None], [[DENIED], AdapterError("malformed", "bad")]))
    target, answers = fresh_target_asking(ctx, Scenario(acls=(("1", ACL),)), kafka_accepts=True, ask=batches)
    assert target is adapter and answers is not None
    assert next(answers) == [driver.Outcome(DENIED)]
    with pytest.raises(TargetCrashed, match="authorize\\(\\): malformed: bad"):
        next(answers)


def _adapter(mode: str, timeout: float = 10) -> SubprocessAuthorizer:
    return SubprocessAuthorizer([sys.executable, str(FAKE), mode], timeout=timeout)


@pytest.mark.parametrize(("mode", "timeout"), [("crash", 10), ("garbage", 10), ("hang", 1)])
def test_a_refused_configuration_stays_a_refusal_whatever_the_process_does_behind_it(mode: str, timeout: float) -> None:
    """The questions behind a refused configure are answered by an unconfigured implementation:
    however that goes (a crash, a line that is not JSON, no answer), the finding is the refusal,
    as when the questions were never sent."""
    from kafka_conformance.authorizer.support import fresh_target_asking

    adapter = _adapter(mode, timeout)
    try:
        ctx = CheckContext(lambda: adapter, adapter.capabilities())
        refused = Scenario(properties=(("super.users", "bob"),), acls=(("1", ACL),))
        assert fresh_target_asking(ctx, refused, kafka_accepts=True, ask=[(ALICE, (read("x"),))]) == (None, None)
    finally:
        adapter.close()


@pytest.mark.parametrize(("mode", "kind"), [("crash", "crash"), ("garbage", "malformed"), ("wrong-id", "malformed")])
def test_a_process_that_fails_on_the_questions_of_a_one_write_case_fails_at_authorize(mode: str, kind: str) -> None:
    """Set up fine, then the process fails answering the questions: met after the set-up, at the
    first batch, named as authorize()'s failure, as when the questions were a write of their own."""
    from kafka_conformance.authorizer.support import fresh_target_asking

    adapter = _adapter(mode)
    try:
        ctx = CheckContext(lambda: adapter, adapter.capabilities())
        target, answers = fresh_target_asking(ctx, Scenario(acls=(("1", ACL),)), kafka_accepts=True,
                                              ask=[(ALICE, (read("x"),)), (ALICE, (read("y"),))])
        assert target is adapter and answers is not None
        with pytest.raises(TargetCrashed, match=f"^authorize\\(\\): {kind}: ") as failed:
            next(answers)
        assert failed.value.kind == kind
    finally:
        adapter.close()


def test_a_process_that_fails_on_the_questions_of_a_record_step_fails_at_authorize() -> None:
    """The record was answered, then the process crashed answering the questions written with it:
    met at the questions, named as authorize()'s failure, as when they were a write of their own."""
    from kafka_conformance.authorizer.differential import check_records

    adapter = _adapter("crash")
    try:
        ctx = CheckContext(lambda: adapter, adapter.capabilities())
        bob = AclBinding.of("ALLOW", "User:bob", "READ", "TOPIC", "x", "LITERAL")
        with pytest.raises(TargetCrashed, match=r"^authorize\(\): crash: ") as failed:
            check_records(ctx, Scenario(acls=(("1", bob),), queries=(Query(ALICE, (read("x"),)),)))
        assert failed.value.kind == "crash"
    finally:
        adapter.close()


def test_the_listing_answers_that_came_are_met_before_a_failure_of_the_process(
        process: tuple[SubprocessAuthorizer, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The count and the first filter were answered, then the process failed: the answers that
    came are met first (a wrong count is the finding, as when each was asked on its own), and the
    failure stands for the filters that got no answer."""
    from kafka_conformance.authorizer.differential import check_listing
    from kafka_conformance.reference.acl.filters import AclBindingFilter

    adapter, _ = process
    ctx = CheckContext(lambda: adapter, adapter.capabilities())
    assert fresh_target(ctx, Scenario(acls=(("1", ACL),))) is adapter
    gone = AdapterError("crash", "the implementation process exited")

    def partly(requests: list[tuple[str, dict[str, Any]]], meanwhile: Any = None) -> Any:
        gone.received = [{"id": 1, "result": count}, {"id": 2, "result": []}] + [None] * (len(requests) - 2)
        raise gone

    count = 1
    monkeypatch.setattr(adapter, "_pipelined", partly)
    counted, listed = adapter.count_and_list([AclBindingFilter(), AclBindingFilter()], True)
    assert counted == 1 and listed[0] == [] and listed[1] is gone
    count = 5
    with pytest.raises(CaseFailed) as failed:
        check_listing(ctx, Scenario(acls=(("1", ACL),)))
    assert failed.value.divergence.anomaly == "acl-count-wrong"  # type: ignore[attr-defined]
