"""The subprocess adapter's plumbing, against a small fake implementation that
misbehaves on demand (``tests/data/subprocess/fake_impl.py``): answers, errors,
crashes, hangs, malformed output, restarts, and never a process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka_conformance.adapters.case import Authorize, CaseRequest, Configure
from kafka_conformance.adapters.jsonlines.adapter import (
    SubprocessAuthorizer,
    close_shared_sessions,
    command_target,
    shared_session,
)
from kafka_conformance.adapters.jsonlines.process import ImplementationProcess
from kafka_conformance.adapters.jsonlines.session import TIMEOUT_ENV, ImplementationSession, default_timeout, split_command
from kafka_conformance.adapters.protocol import AdapterError, AuthorizerUnderTest, validate_adapter
from kafka_conformance.authorizer.targets import TargetError, resolve_target
from kafka_conformance.reference.acl.filters import ANY_ACL
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, AclOperation, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.decision import Action, AuthorizationResult, RequestContext
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl
from kafka_conformance.reference.errors import AuthorizerError, ConfigError

FAKE = Path(__file__).resolve().parents[1] / "data" / "subprocess" / "fake_impl.py"
ALICE = RequestContext(KafkaPrincipal("User", "alice"), "10.0.0.1")
ACL = AclBinding.of("ALLOW", "User:alice", "READ", "TOPIC", "payments", "PREFIXED")


def fake(mode: str = "ok") -> list[str]:
    return [sys.executable, str(FAKE), mode]


def read(name: str = "payments") -> Action:
    return Action(AclOperation.READ, ResourcePattern(ResourceType.TOPIC, name))


def gone(pid: int) -> bool:
    """True when no process (not even a zombie of ours) has this pid."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def adapter() -> Iterator[SubprocessAuthorizer]:
    a = SubprocessAuthorizer(fake(), timeout=5)
    yield a
    a.close()


def test_round_trip_of_every_call(adapter: SubprocessAuthorizer) -> None:
    validate_adapter(adapter, where="subprocess adapter")
    assert isinstance(adapter, AuthorizerUnderTest)
    assert adapter.capabilities().version.major == 4
    adapter.configure({"super.users": "User:bob"})
    adapter.load_snapshot({"a": ACL})
    adapter.apply(AddAcl("b", AclBinding.of("DENY", "User:*", "ALL", "GROUP", "*")))
    adapter.complete_initial_load()
    assert adapter.acl_count() == 2
    assert adapter.authorize(ALICE, [read(), read("x")]) == [AuthorizationResult.DENIED] * 2
    assert adapter.authorize_by_resource_type(ALICE, AclOperation.READ, ResourceType.TOPIC) is AuthorizationResult.DENIED
    assert ACL in adapter.acls(ANY_ACL)
    adapter.apply(RemoveAcl("b"))
    assert adapter.acl_count() == 1
    assert adapter.session.implementation == "fake-ok"


def test_kafka_style_errors_are_raised_as_kafka_exceptions(adapter: SubprocessAuthorizer) -> None:
    with pytest.raises(ConfigError) as config:
        adapter.configure({"super.users": "alice"})
    assert config.value.key == "super.users" and config.value.value == "alice"
    with pytest.raises(AuthorizerError) as state:
        adapter.apply(RemoveAcl("nope"))
    assert state.value.kind == "illegal-state"


@pytest.mark.parametrize("kind", ["not-ready", "invalid-argument", "illegal-state"])
def test_batch_errors_become_authorizer_errors(kind: str) -> None:
    a = SubprocessAuthorizer(fake("errors"), timeout=5)
    try:
        with pytest.raises(AuthorizerError) as err:
            a.authorize(ALICE, [read(kind)])
        assert err.value.kind == kind and err.value.kafka_exception
        a.reset()
        case = CaseRequest((Configure(()), Authorize(ALICE, (read(kind),)), Authorize(ALICE, (read(kind), read(kind)))))
        answers = a.run_case(case).answers[1:]
        assert [getattr(x, "kind", None) for x in answers] == [kind, kind]
    finally:
        a.close()


def test_protocol_error_kinds_are_adapter_errors() -> None:
    a = SubprocessAuthorizer(fake("errors"), timeout=5)
    try:
        with pytest.raises(AdapterError, match="error kind 'internal'") as err:
            a.authorize(ALICE, [read("internal")])
        assert err.value.kind == "protocol-error"
    finally:
        a.close()


def test_crash_mid_request_reports_stderr_and_the_process_is_restarted() -> None:
    session = ImplementationSession(fake("crash"), timeout=5)
    try:
        first = SubprocessAuthorizer.sharing(session)
        first.configure({})
        pid = session.pid
        assert pid is not None
        with pytest.raises(AdapterError) as err:
            first.authorize(ALICE, [read()])
        assert err.value.kind == "crash"
        message = str(err.value)
        assert "exited with code 3" in message and "segfault-like failure" in message and "authorize" in message
        assert gone(pid)
        # The adapter whose state lived in the dead process says so instead of answering blank.
        with pytest.raises(AdapterError, match="lost"):
            first.acl_count()
        # A new adapter gets a new process, which answers.
        second = SubprocessAuthorizer.sharing(session)
        assert second.acl_count() == 0
        assert session.pid not in (None, pid)
        assert session.generation == 2
        # reset() makes the first adapter usable again.
        first.reset()
        assert first.acl_count() == 0
    finally:
        session.close()


def test_death_between_requests_is_reported_on_the_next_one() -> None:
    a = SubprocessAuthorizer(fake("exit-after"), timeout=5)
    try:
        a.authorize(ALICE, [read()])
        time.sleep(0.3)
        with pytest.raises(AdapterError, match="between requests") as err:
            a.acl_count()
        assert err.value.kind == "crash"
    finally:
        a.close()


def test_hang_times_out_within_the_configured_time() -> None:
    a = SubprocessAuthorizer(fake("hang"), timeout=1)
    try:
        a.configure({})
        pid = a.session.pid
        assert pid is not None
        started = time.monotonic()
        with pytest.raises(AdapterError, match=r"no response within 1 s.*authorize") as err:
            a.authorize(ALICE, [read()])
        assert err.value.kind == "timeout"
        assert time.monotonic() - started < 2.5
        assert gone(pid)
    finally:
        a.close()


def test_a_process_ignoring_sigterm_is_killed() -> None:
    session = ImplementationSession(fake("hang-stubborn"), timeout=0.5, grace=0.3)
    try:
        a = SubprocessAuthorizer.sharing(session)
        a.configure({})
        time.sleep(0.2)  # let it install its handler
        pid = session.pid
        assert pid is not None
        with pytest.raises(AdapterError, match=r"no response within"):
            a.authorize(ALICE, [read()])
        assert gone(pid)
    finally:
        session.close()


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("garbage", r"'DEBUG: authorizing now' is not JSON"),
        ("wrong-id", r"has id \d+, which matches no request awaiting an answer \(awaiting id \d+ \(authorize\)\)"),
        ("no-result", r"exactly one of 'result' or 'error'"),
        ("short", r"result\[0\]: expected 2 results \(one per action\), got 1"),
    ],
)
def test_malformed_answers_name_what_was_wrong(mode: str, expected: str) -> None:
    a = SubprocessAuthorizer(fake(mode), timeout=5)
    try:
        with pytest.raises(AdapterError, match=expected) as err:
            a.authorize(ALICE, [read(), read("x")])
        assert err.value.kind == "malformed"
    finally:
        a.close()


def test_malformed_handshake_names_the_field() -> None:
    with pytest.raises(AdapterError, match=r"capabilities\.prefixed: expected true or false"):
        command_target(f"{sys.executable} {FAKE} bad-hello")


def test_command_that_cannot_start() -> None:
    with pytest.raises(TargetError, match="cannot start"):
        resolve_target("cmd:/nonexistent/authorizer --flag")
    with pytest.raises(TargetError, match="cmd needs an argument"):
        resolve_target("cmd:   ")
    with pytest.raises(TargetError, match="cannot split"):
        resolve_target("cmd:node 'unterminated")


def test_no_shell_is_involved() -> None:
    assert split_command("node 'my dir/a.js' $HOME; rm -rf /") == ("node", "my dir/a.js", "$HOME;", "rm", "-rf", "/")


def test_loud_stderr_never_blocks_and_the_tail_is_bounded() -> None:
    a = SubprocessAuthorizer(fake("spam"), timeout=5)
    try:
        assert a.acl_count() == 0
        time.sleep(0.2)
        tail = a.session.stderr_tail()
        assert tail.endswith("spam done\n") and len(tail) <= 4000
    finally:
        a.close()


def test_large_requests_are_pipelined_without_deadlock(adapter: SubprocessAuthorizer) -> None:
    """Several MiB in one line: the kit writes while the process reads."""
    snapshot = {f"id-{i}": AclBinding.of("ALLOW", f"User:u{i}", "READ", "TOPIC", f"topic-{i}" * 5) for i in range(20000)}
    adapter.load_snapshot(snapshot)
    assert adapter.acl_count() == 20000
    assert len(adapter.acls(ANY_ACL)) == 20000


def test_close_leaves_no_process_behind() -> None:
    a = SubprocessAuthorizer(fake(), timeout=5)
    a.configure({})
    pid = a.session.pid
    assert pid is not None and not gone(pid)
    a.close()
    assert gone(pid)
    with pytest.raises(AdapterError, match="closed"):
        a.acl_count()
    a.close()  # idempotent


def test_interpreter_exit_stops_the_process() -> None:
    script = textwrap.dedent(f"""
        from kafka_conformance.adapters.jsonlines.adapter import SubprocessAuthorizer
        a = SubprocessAuthorizer({fake()!r}, timeout=5)
        a.configure({{}})
        print(a.session.pid, flush=True)
        # no close(): the finalizer must stop it
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 5
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)


def test_target_shares_one_process_and_resets_between_cases() -> None:
    target = resolve_target(f"cmd:{sys.executable} {FAKE} ok")
    try:
        first = target.make()
        first.load_snapshot({"a": ACL})
        assert first.acl_count() == 1
        pid = first.session.pid  # type: ignore[attr-defined]
        first.close()
        second = target.make()
        assert second.acl_count() == 0  # reset before its first request
        assert second.session.pid == pid  # type: ignore[attr-defined]
        second.close()
        assert not gone(pid)  # a shared process outlives its adapters...
    finally:
        close_shared_sessions()
    assert gone(pid)  # ...until the pool is closed


def test_shared_sessions_are_keyed_by_command_line() -> None:
    try:
        assert shared_session(fake(), timeout=5) is shared_session(fake(), timeout=5)
        assert shared_session(fake(), timeout=5) is not shared_session(fake("spam"), timeout=5)
    finally:
        close_shared_sessions()


def test_the_old_timeout_variable_is_refused_not_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TIMEOUT_ENV, raising=False)
    assert default_timeout() == 10.0
    monkeypatch.setenv(TIMEOUT_ENV, "2.5")
    with pytest.raises(AdapterError, match="--timeout"):
        default_timeout()


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), "soon", 10**9])
def test_a_timeout_must_be_a_finite_positive_number(bad: object) -> None:
    with pytest.raises(AdapterError, match="seconds"):
        ImplementationSession(fake(), timeout=bad)  # type: ignore[arg-type]


def test_requests_are_one_line_each_and_json(tmp_path: Path) -> None:
    """A recording implementation sees reset travel with the first request, and
    one authorize line carrying every batch."""
    log = tmp_path / "requests.jsonl"
    recorder = tmp_path / "recorder.py"
    recorder.write_text(textwrap.dedent(f"""
        import json, runpy, sys
        log = open({str(log)!r}, "a")
        real = sys.stdin
        class Tee:
            def __iter__(self):
                for line in real:
                    log.write(line); log.flush()
                    yield line
        sys.stdin = Tee()
        sys.argv = [{str(FAKE)!r}, "ok"]
        runpy.run_path({str(FAKE)!r}, run_name="__main__")
    """))
    a = SubprocessAuthorizer([sys.executable, str(recorder)], timeout=5)
    try:
        a.run_case(CaseRequest((Configure((("allow.everyone.if.no.acl.found", "true"),)),
                                Authorize(ALICE, (read(),)), Authorize(ALICE, (read(), read("y"))))))
    finally:
        a.close()
    ops = [json.loads(line)["op"] for line in log.read_text().splitlines()]
    assert ops == ["hello", "reset", "configure", "authorize", "shutdown"]
    authorize = json.loads(log.read_text().splitlines()[3])
    assert [len(b["actions"]) for b in authorize["batches"]] == [1, 2]
    assert authorize["batches"][0]["context"] == {"principal": {"type": "User", "name": "alice"}, "host": "10.0.0.1"}


def test_an_endless_line_is_refused() -> None:
    code = "import sys, time; sys.stdout.write('x' * 5000); sys.stdout.flush(); time.sleep(30)"
    proc = ImplementationProcess([sys.executable, "-c", code], timeout=5, max_line=1000)
    with pytest.raises(AdapterError, match="longer than 1000 bytes") as err:
        proc.exchange([{"id": 1, "op": "hello"}])
    assert err.value.kind == "malformed"
    assert gone(proc.pid)


class _Interrupt(Exception):
    pass


def test_an_interrupted_exchange_stops_the_process() -> None:
    """Ctrl-C while waiting leaves requests unanswered: the process must not be reused."""

    def interrupt(signum: int, frame: object) -> None:
        raise _Interrupt

    session = ImplementationSession(fake("hang"), timeout=30)
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        a = SubprocessAuthorizer.sharing(session)
        a.configure({})
        pid = session.pid
        assert pid is not None
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(_Interrupt):
            a.authorize(ALICE, [read()])
        assert gone(pid)
        assert SubprocessAuthorizer.sharing(session).acl_count() == 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        session.close()


def test_the_required_methods_are_the_protocols_own() -> None:
    """Derived from AuthorizerUnderTest, so a method added to the protocol is required at once."""
    from kafka_conformance.adapters.protocol import REQUIRED_METHODS, AuthorizerUnderTest

    assert REQUIRED_METHODS[0] == "capabilities" and REQUIRED_METHODS[-1] == "close" and len(REQUIRED_METHODS) == 10
    assert all(callable(getattr(AuthorizerUnderTest, name)) for name in REQUIRED_METHODS)
