"""The CLI: exit codes, reports, replay, explain and targets, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from kafka_conformance.authorizer.anomalies import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "python_authorizer"
DATA = ROOT / "tests" / "data" / "acls"

BROKEN = """
from my_authorizer import IMPLIES, MyAuthorizer, MyAuthorizerAdapter
class Broken(MyAuthorizer):
    def check(self, principal, host, op, rtype, name, literal=True):
        if principal in self.super_users:
            return True
        if not self.loaded:
            raise RuntimeError("not ready")
        # bug: the host of an ACL is ignored
        rules = self.resource_rules(rtype, name)
        if not rules:
            return self.allow_everyone
        allowed = False
        for perm, who, where, what, *_ in rules:
            if who not in (principal, "User:*"):
                continue
            if perm == "DENY" and what in (op, "ALL"):
                return False
            if perm == "ALLOW" and (what in (op, "ALL") or what in IMPLIES.get(op, ())):
                allowed = True
        return allowed
def factory():
    return MyAuthorizerAdapter(Broken())
"""


def run(*args: str, cwd: Path, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{EXAMPLES}{os.pathsep}{cwd}", "NO_COLOR": "1"}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "kafka_conformance.cli.main", *args], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=300, check=False,
    )


def test_conforming_target_exits_0_and_writes_reports(tmp_path: Path) -> None:
    done = run("check", "authorizer", "--target", "python:my_authorizer:factory", "--max-examples", "20",
               "--seed", "1", "--report-json", "r.json", "--junit-xml", "j.xml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verdict: conforms" in done.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "conforms" and report["exit_code"] == 0
    assert {r["property"] for r in report["results"]} >= {"authorize", "record-log", "deny-monotonic"}
    suite = ET.parse(tmp_path / "j.xml").getroot()
    assert suite.tag == "testsuite" and suite.get("failures") == "0"
    assert "\x1b[" not in done.stdout + done.stderr  # plain output when not a TTY


def test_divergence_exits_1_saves_replayable_case(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    done = run("check", "authorizer", "--target", "python:broken:factory", "--seed", "2", "--property", "authorize",
               "--mode", "well-formed",
               "--junit-xml", "j.xml", "--report-json", "r.json", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    # The host is ignored; which anomaly that shows as depends on the ACL the case ends with
    # (an ALLOW for another host grants, a DENY for another host denies), but every output
    # names the same one, from the catalogue.
    report = json.loads((tmp_path / "r.json").read_text())
    anomaly = report["results"][0]["anomaly"]
    assert anomaly in CATALOGUE and f"likely: {anomaly}" in done.stdout, done.stdout
    assert f"observed: {report['results'][0]['signature']}" in done.stdout  # the identity, beside the guess
    failure = ET.parse(tmp_path / "j.xml").getroot().find("testcase/failure")
    assert failure is not None and failure.get("type") == anomaly
    saved = tmp_path / report["results"][0]["saved_to"]
    assert saved.exists() and saved.with_suffix(".py").exists()
    # The minimal case has the host-specific ACL that was ignored, and little else.
    case = json.loads(saved.read_text())
    assert 1 <= len(case["scenario"]["acls"]) <= 2
    assert any(a["host"] not in ("*", q["context"]["host"]) for a in case["scenario"]["acls"]
               for q in case["scenario"]["queries"])
    assert f"replay: kafka-conformance replay {report['results'][0]['saved_to']} --trust-saved-target" in done.stdout
    replay = run("replay", str(saved), "--target", "python:broken:factory", cwd=tmp_path)
    assert replay.returncode == 1 and replay.stdout.startswith("FAILED"), replay.stdout
    fixed = run("replay", str(saved), "--target", "python:my_authorizer:factory", cwd=tmp_path)
    assert fixed.returncode == 0 and fixed.stdout.startswith("FIXED"), fixed.stdout


def test_replay_of_a_bad_file_is_error_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = run("replay", str(bad), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout.startswith("ERROR") and "bad.json:1" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "authorizer", "--target", "python:nope:factory"], "cannot import 'nope'"),
        (["check", "authorizer", "--target", "reference", "--flavour", "acl", "--kafka-version", "4.0.0"],
         "AclAuthorizer was removed in 4.0.0"),
        (["check", "authorizer", "--target", "reference", "--kafka-version", "banana"], "kafka version"),
        (["check", "authorizer", "--target", "reference", "--property", "nonsense"], "unknown property 'nonsense'"),
        (["check", "authorizer", "--target", "bogus"], "unknown target 'bogus'"),
        (["check", "authorizer", "--target", "reference", "--max-examples", "0"], "from 1 to 100000, got 0"),
        (["explain", "missing.txt", "--principal", "User:a", "--operation", "READ", "--resource-type", "TOPIC",
          "--name", "x"], "missing.txt"),
    ],
)
def test_usage_errors_exit_2_and_name_the_problem(tmp_path: Path, args: list[str], message: str) -> None:
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr, done.stderr


def test_explain_answers_from_a_kafka_acls_dump(tmp_path: Path) -> None:
    dump = DATA / "kafka-3.9-list.txt"
    allowed = run("explain", str(dump), "--principal", "User:alice", "--operation", "DESCRIBE",
                  "--resource-type", "TOPIC", "--name", "orders", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert "ALLOWED because an ALLOW ACL matches" in allowed.stdout
    denied = run("explain", str(dump), "--principal", "User:mallory", "--operation", "READ",
                 "--resource-type", "TOPIC", "--name", "logs-app", cwd=tmp_path)
    assert "DENIED because a DENY ACL matches" in denied.stdout and "logs-" in denied.stdout
    by_type = run("explain", str(dump), "--principal", "User:alice", "--operation", "READ",
                  "--resource-type", "TOPIC", "--by-type", "--variant", "truth", cwd=tmp_path)
    assert by_type.returncode == 0 and "e.g. resource" in by_type.stdout, by_type.stdout


def test_explain_bad_operation_names_it(tmp_path: Path) -> None:
    done = run("explain", str(DATA / "example.yaml"), "--principal", "User:a", "--operation", "REED",
               "--resource-type", "TOPIC", "--name", "x", cwd=tmp_path)
    assert done.returncode == 2 and "REED" in done.stderr


def test_targets_lists_reference(tmp_path: Path) -> None:
    done = run("targets", cwd=tmp_path)
    assert done.returncode == 0 and "reference" in done.stdout


def test_explain_config_shows_origins(tmp_path: Path) -> None:
    done = run("explain-config", "acks=1", "--kafka-version", "3.2.0", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "idempotence off" in done.stdout and "KAFKA-13673" in done.stdout and "[user]" in done.stdout


def test_explain_config_conflict_names_the_keys_and_exits_2(tmp_path: Path) -> None:
    done = run("explain-config", "acks=1", "enable.idempotence=true", "--kafka-version", "3.2.0", cwd=tmp_path)
    assert done.returncode == 2
    assert "acks" in done.stdout and "enable.idempotence" in done.stdout


def test_explain_config_reads_a_properties_file(tmp_path: Path) -> None:
    (tmp_path / "p.properties").write_text("# producer\nacks = all\nmax.in.flight.requests.per.connection: 5\n")
    done = run("explain-config", "--properties", "p.properties", cwd=tmp_path)
    assert done.returncode == 0 and "idempotence on" in done.stdout, done.stdout
    (tmp_path / "bad.properties").write_text("acks\n")
    bad = run("explain-config", "--properties", "bad.properties", cwd=tmp_path)
    assert bad.returncode == 2 and "bad.properties:1" in bad.stderr


@pytest.mark.parametrize("args", [
    ["corpus", "generate", "--cases", "10"],
    ["fuzz", "--target", "reference", "--cases", "10", "--no-spark"],
])
def test_corpora_without_pyarrow_name_the_extra_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """pyarrow is an extra: its absence is the user's set-up (exit 2 with the install command),
    found before any case is generated, never an internal error."""
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    out = tmp_path / "out"
    from kafka_conformance.cli.main import main

    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "pyarrow cannot be imported" in err and "kafka-conformance[spark]" in err
    assert "Traceback" not in err and "internal error" not in err
    assert not (out / "verdicts").exists() and not list(out.glob("shard-*"))


def test_a_reader_that_goes_away_ends_the_run_quietly() -> None:
    """``kafka-conformance ... | head -1``: no traceback, no "internal error", exit 141 (as SIGPIPE)."""
    code = ("import sys\nfrom kafka_conformance.cli.errors import guarded\n"
            "def run():\n    for i in range(1_000_000):\n        print('line', i)\n    return 0\n"
            "sys.exit(guarded(run))\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"line 0\n"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert err == "", err
