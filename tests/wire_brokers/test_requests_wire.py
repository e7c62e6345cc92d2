"""Authorization on the wire (issue 16): Apache Kafka's broker with SASL/PLAIN and its own
authorizer, ACLs created through the Admin API, and a user's producer and transaction
requests held to ``reference/requests`` of the same release.  One release before KIP-679
(2.7.2, AclAuthorizer on ZooKeeper) and one after (3.9.1, StandardAuthorizer) run in the
gate; the kit must also tell them apart."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import AUTH_USERS, kafka_broker_reason
from kafka_conformance.cli.main import main
from kafka_conformance.options import Options

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
from killing import left_behind, start

pytest.importorskip("kafka")
BEFORE, AFTER = "2.7.2", "3.9.1"


def _need(version: str) -> None:
    reason = kafka_broker_reason(version)
    if reason is not None:
        pytest.skip(f"kafka:{version}: {reason}")


@pytest.mark.parametrize("release", [BEFORE, AFTER])
def test_real_kafka_authorizes_requests_as_the_reference_of_its_release(release: str) -> None:
    from kafka_conformance.requests.check import check_requests, render_requests_text

    _need(release)
    report = check_requests(f"kafka:{release}", Options(seed=1, max_examples=15))
    assert report.exit_code == 0, render_requests_text(report)
    assert report.scenarios >= 8 + 15 and report.requests == 8 * report.scenarios


def test_the_kit_tells_the_release_before_kip_679_from_the_one_after() -> None:
    """2.7.2 held to 2.8.2's rules: an idempotent producer with WRITE on a topic but no
    IDEMPOTENT_WRITE is refused (31) where 2.8 grants InitProducerId (KAFKA-10619)."""
    from kafka_conformance.requests.check import check_requests

    _need(BEFORE)
    report = check_requests(f"kafka:{BEFORE}", Options(kafka_version="2.8.2", seed=1, max_examples=0))
    assert report.exit_code == 1
    init = [d for d in report.divergences if d.request == "InitProducerId"]
    assert init and all(d.anomaly == "refused-but-allowed" and "(31)" in d.actual for d in init)


def test_the_command_writes_junit_with_a_test_case_per_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--junit-xml``: the report's JUnit writer over the run; the KAFKA-10619 refusal is a failure."""
    _need(BEFORE)
    junit = tmp_path / "requests.xml"
    code = main(["check", "requests", "--target", f"kafka:{BEFORE}", "--kafka-version", "2.8.2", "--max-examples", "0",
                 "--seed", "1", "--junit-xml", str(junit), "--quiet"])
    assert code == 1, capsys.readouterr()
    xml = junit.read_text()
    assert f'name="requests:kafka:{BEFORE}@2.8.2"' in xml and "<failure" in xml and "InitProducerId" in xml
    assert 'name="no ACL: everything refused"' in xml


def test_a_broker_the_user_runs_keeps_every_acl_the_kit_did_not_create(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``bootstrap:HOST:PORT,sasl=...``: names carry a prefix of the run's own and only the
    kit's ACLs are deleted; an ACL the broker held before is still there after."""
    from kafka_conformance.adapters.brokers import wire_auth as wa
    from kafka_conformance.adapters.brokers.kafka_broker import start_kafka_broker
    from kafka_conformance.adapters.brokers.wire_client import WireClient
    from kafka_conformance.credentials import Login
    from kafka_conformance.reference.acl.values import (
        AccessControlEntry,
        AclBinding,
        AclOperation,
        AclPermissionType,
        PatternType,
        ResourcePattern,
        ResourceType,
    )
    from kafka_conformance.requests.check import check_requests, render_requests_text
    from kafka_conformance.requests.targets import Connection, RequestsTarget, _ready

    _need(AFTER)
    node = start_kafka_broker(AFTER, auth=True)
    try:
        admin_login = ("admin", AUTH_USERS["admin"])
        _ready(Connection("127.0.0.1", node.port, "own", RequestsTarget("x", admin=Login(*admin_login),
                                                                         user=Login("alice", AUTH_USERS["alice"])), ""),
               120, node.process.running)
        theirs = AclBinding(ResourcePattern(ResourceType.TOPIC, "payments", PatternType.LITERAL),
                            AccessControlEntry("User:bob", "*", AclOperation.READ, AclPermissionType.ALLOW))
        with WireClient("127.0.0.1", node.port, login=lambda c: wa.sasl_plain(c, *admin_login)) as admin:
            wa.create_acls(admin, [theirs])
            wa.wait_acl_count(admin, 1)
        spec = f"bootstrap:127.0.0.1:{node.port},sasl=admin:{AUTH_USERS['admin']},alice:{AUTH_USERS['alice']}"
        report = check_requests(spec, Options(kafka_version=AFTER, seed=2, max_examples=5))
        assert report.exit_code == 0, render_requests_text(report)
        _the_passwords_never_leave_the_kit(node.port, tmp_path, capsys)
        with WireClient("127.0.0.1", node.port, login=lambda c: wa.sasl_plain(c, *admin_login)) as admin:
            assert wa.describe_acl_count(admin) == 1
            _, topics = admin.metadata(None)
        assert {"payments"} >= {t.name for t in topics if not t.name.startswith("kc")} - {"__consumer_offsets", "__transaction_state"}
    finally:
        node.stop()


def _the_passwords_never_leave_the_kit(port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: the logins from a file, a whole run through the CLI, and not one output holding
    a password; a wrong password is a usage error said at once, again without the passwords."""
    passwords = (AUTH_USERS["admin"], AUTH_USERS["alice"])
    creds = tmp_path / "creds.properties"
    creds.write_text(f"admin.username=admin\nadmin.password={passwords[0]}\n"
                     f"user.username=alice\nuser.password={passwords[1]}\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["check", "requests", "--target", f"bootstrap:127.0.0.1:{port},sasl=@{creds}", "--kafka-version", AFTER,
                 "--max-examples", "2", "--seed", "4", "--report-json", str(tmp_path / "out.json")])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    outputs = out + err + (tmp_path / "out.json").read_text()
    assert f"sasl=@{creds}" in outputs and not any(p in outputs for p in passwords)
    creds.write_text(creds.read_text().replace(passwords[1], "not-" + passwords[1]), encoding="utf-8")
    code = main(["check", "requests", "--target", f"bootstrap:127.0.0.1:{port},sasl=@{creds}", "--kafka-version", AFTER])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "refused the login of 'alice'" in err and "Traceback" not in err
    assert not any(p in out + err for p in passwords)


def test_nothing_outlives_a_requests_check(tmp_path: Path) -> None:
    _need(AFTER)
    marker = "requests-" + tmp_path.name
    proc = start(["check", "requests", "--target", f"kafka:{AFTER}", "--max-examples", "2", "--seed", "3"], tmp_path, marker)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert "verdict: conforms" in out
    assert left_behind(marker) == []


@pytest.mark.parametrize(("argv", "says"), [
    (["--target", "kafka:2.3.1"], "from 2.4.0"),
    (["--target", "kafka:9.9.9"], "not a release"),
    (["--target", "bootstrap:127.0.0.1:9092"], "sasl=ADMIN:PASSWORD,USER:PASSWORD"),
    (["--target", "bootstrap:127.0.0.1:9092,sasl=admin:x,alice:y"], "needs --kafka-version"),
    (["--target", "bootstrap:127.0.0.1:9092,sasl=admin:x,admin:y", "--kafka-version", "3.9.1"], "must not be the admin"),
    (["--target", "bootstrap:nohost,sasl=admin:x,alice:y", "--kafka-version", "3.9.1"], "HOST:PORT"),
    (["--target", "bootstrap:127.0.0.1:9092,sasl=admin,alice:y", "--kafka-version", "3.9.1"], "NAME:PASSWORD"),
    (["--target", "tansu"], "is not a broker with SASL logins and an authorizer"),
])
def test_bad_targets_are_usage_errors(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "requests", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
