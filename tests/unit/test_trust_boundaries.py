"""Trust boundaries (issue 33), one class of attack or accident per section, several inputs each:
every one ends in a clear error or an honest verdict, with no traceback, no hang, no secret in
any output and no partial file.

The runs go through ``main()`` in process, as ``test_bad_inputs.py`` does; what needs a real
broker (a whole ``check requests`` run with a password file) is in
``tests/wire_brokers/test_requests_wire.py``.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import attrs
import pytest

from kafka_conformance.cli.main import main
from kafka_conformance.credentials import MASK, CredentialsError, Login, logins_from, redact, redact_spec, scrub

ADMIN_PW, USER_PW = "Adm1n-pa55word", "Us3r-pa55word"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out + err


# --------------------------------------------------------------------------- secrets


def _creds(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "creds.properties"
    path.write_text(text, encoding="utf-8")
    return path


GOOD_FILE = f"admin.username=admin\nadmin.password={ADMIN_PW}\nuser.username=alice\nuser.password={USER_PW}\n"


@pytest.mark.parametrize(("sasl", "says"), [
    (f"sasl=admin:{ADMIN_PW}", "give the logins as"),
    (f"sasl=admin:{ADMIN_PW},{USER_PW}", "the user login is not NAME:PASSWORD"),
    (f"sasl=:{ADMIN_PW},alice:{USER_PW}", "the admin login is not NAME:PASSWORD"),
    (f"sasl=admin:{ADMIN_PW},admin:{USER_PW}", "the user must not be the admin"),
    ("sasl=@{tmp}/missing.properties", "cannot read the logins file"),
    ("sasl=@{tmp}/creds.properties", "creds.properties:2: unknown key 'admin.pasword'"),
    ("sasl=env:KC_TEST_NOBODY", "KC_TEST_NOBODY_ADMIN_USERNAME, KC_TEST_NOBODY_ADMIN_PASSWORD"),
    ("sasl=env:1BAD", "the prefix must be a variable name"),
])
def test_a_bad_login_spec_is_a_usage_error_that_shows_no_password(
        sasl: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _creds(tmp_path, f"admin.username=admin\nadmin.pasword={ADMIN_PW}\n")
    target = f"bootstrap:127.0.0.1:9,{sasl.format(tmp=tmp_path)}"
    code, output = _run(["check", "requests", "--target", target, "--kafka-version", "3.9.1"], capsys)
    assert code == 2, output
    assert says in output and "Traceback" not in output
    assert ADMIN_PW not in output and USER_PW not in output


@pytest.mark.parametrize("command", [
    ["report", "--target"],
    ["check", "broker", "--target"],
    ["check", "authorizer", "--target"],
])
def test_a_spec_with_passwords_given_where_no_logins_are_taken_is_refused_masked(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, output = _run([*command, f"bootstrap:127.0.0.1:9,sasl=admin:{ADMIN_PW},alice:{USER_PW}"], capsys)
    assert code == 2, output
    assert ADMIN_PW not in output and USER_PW not in output and "Traceback" not in output


def test_logins_read_from_a_file_or_the_environment_are_the_same(tmp_path: Path) -> None:
    path = _creds(tmp_path, "# the CI logins\n" + GOOD_FILE)
    from_file = logins_from(f"@{path}")
    from_env = logins_from("env:KC_SASL", {"KC_SASL_ADMIN_USERNAME": "admin", "KC_SASL_ADMIN_PASSWORD": ADMIN_PW,
                                           "KC_SASL_USER_USERNAME": "alice", "KC_SASL_USER_PASSWORD": USER_PW})
    inline = logins_from(f"admin:{ADMIN_PW},alice:{USER_PW}")
    assert from_file == from_env == inline == (Login("admin", ADMIN_PW), Login("alice", USER_PW))
    assert from_file[0].password.reveal() == ADMIN_PW


def test_a_password_never_shows_in_a_repr_a_dict_or_a_spec(tmp_path: Path) -> None:
    from kafka_conformance.requests.targets import parse_requests_target

    for spec in (f"bootstrap:127.0.0.1:9092,sasl=admin:{ADMIN_PW},alice:{USER_PW}",
                 f"bootstrap:127.0.0.1:9092,sasl=@{_creds(tmp_path, GOOD_FILE)}"):
        target = parse_requests_target(spec)
        for shown in (repr(target), str(attrs.asdict(target)), target.spec, f"{target.admin.password}"):
            assert ADMIN_PW not in shown and USER_PW not in shown, shown
    assert redact_spec("bootstrap:h:1,sasl=admin:p a,ss,alice:x:y") == f"bootstrap:h:1,sasl=admin:{MASK},{MASK},alice:{MASK}"
    assert redact(f"target 'x,sasl=admin:{ADMIN_PW}x,alice:{USER_PW}x': unknown") == f"target 'x,sasl=admin:{MASK},alice:{MASK}': unknown"
    assert redact("give sasl=@FILE or sasl=ADMIN:PASSWORD,USER:PASSWORD") == "give sasl=@FILE or sasl=ADMIN:PASSWORD,USER:PASSWORD"
    assert scrub(f"an error quoting {USER_PW} back") == f"an error quoting {MASK} back"


def test_a_login_file_error_names_the_line_not_the_value(tmp_path: Path) -> None:
    path = _creds(tmp_path, f"admin.username=admin\n{ADMIN_PW}\n")
    with pytest.raises(CredentialsError) as caught:
        logins_from(f"@{path}")
    assert f"{path}:2: expected KEY=VALUE" in str(caught.value) and ADMIN_PW not in str(caught.value)


def test_an_output_file_masks_a_password_that_reached_its_text(tmp_path: Path) -> None:
    from kafka_conformance.outputs import write_output

    Login("admin", ADMIN_PW)  # read once: from here on the kit knows it as a secret
    path = write_output(tmp_path / "report.json", json.dumps({"error": f"broker said {ADMIN_PW!r}"}))
    assert ADMIN_PW not in path.read_text() and MASK in path.read_text()


# --------------------------------------------------------------------------- the disk


@pytest.mark.parametrize("fails", ["write", "fsync", "replace"])
def test_a_write_that_fails_midway_leaves_the_old_file_and_no_partial_one(
        fails: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kafka_conformance import outputs

    path = tmp_path / "report.json"
    path.write_text('{"old": true}\n')

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if fails == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, handle: int, mode: str) -> None:
                self.file = real_fdopen(handle, mode)

            def __enter__(self) -> Full:
                return self

            def __exit__(self, *exc: object) -> None:
                self.file.close()

            def write(self, data: bytes) -> int:
                self.file.write(data[: len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(outputs.os, "fdopen", Full)
    else:
        monkeypatch.setattr(outputs.os, fails, full)
    with pytest.raises(OSError):
        outputs.write_output(path, '{"new": true}\n' * 1000)
    assert path.read_text() == '{"old": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_full_disk_under_a_report_is_exit_2_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from kafka_conformance import outputs

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outputs.os, "fsync", full)
    out = tmp_path / "json" / "r.json"
    code, output = _run(["check", "authorizer", "--target", "reference", "--max-examples", "1", "--seed", "0",
                         "--quiet", "--report-json", str(out)], capsys)
    assert code == 2, output
    assert f"cannot write {out}: No space left on device" in output and "Traceback" not in output
    assert not out.exists() and list(out.parent.iterdir()) == []


# --------------------------------------------------------------------------- files that run code

ZOO = "python:kafka_conformance.selftest.zoo:factories.allow-beats-deny"


@pytest.fixture(scope="module")
def saved_case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("saved")
    assert main(["check", "authorizer", "--target", ZOO, "--max-examples", "5", "--seed", "0", "--quiet",
                 "--failures-dir", str(folder)]) == 1
    return sorted(folder.glob("authorize-*.json"))[0]


@pytest.mark.parametrize("target", ["cmd:sh -c 'touch {tmp}/ran'", "python:os:getcwd", "jvm:com.example.Evil"])
def test_replay_never_runs_code_a_file_names(target: str, saved_case: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    body = json.loads(saved_case.read_text())
    body["target"] = target.format(tmp=tmp_path)
    case = tmp_path / "case.json"
    case.write_text(json.dumps(body))
    code, output = _run(["replay", str(case)], capsys)
    assert code == 2, output
    assert "runs code of its own" in output and "--target SPEC" in output and "--trust-saved-target" in output
    assert not (tmp_path / "ran").exists()


def test_replay_runs_the_target_the_user_names_or_trusts(saved_case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["replay", str(saved_case), "--target", "reference"], capsys)[0] == 0  # FIXED on the reference
    assert _run(["replay", str(saved_case), "--trust-saved-target"], capsys)[0] == 1  # the mutant still fails
    _, output = _run(["check", "authorizer", "--target", ZOO, "--max-examples", "5", "--seed", "0",
                         "--failures-dir", str(saved_case.parent)], capsys)
    assert "--trust-saved-target" in output  # the command the kit prints for its own file says it trusts it


@pytest.mark.parametrize(("edit", "says"), [
    (lambda b: b["scenario"].update(querys=b["scenario"].pop("queries")), "unknown field(s) 'querys'"),
    (lambda b: b.update(targett=b.pop("target")), "unknown field(s) 'targett'"),
    (lambda b: b.update(scenario={"config": {}, "acls": []}), "the scenario asks nothing"),
    (lambda b: b.update(scenario=[]), "expected an object"),
    (lambda b: b["scenario"].update(config=[1, 2]), "malformed case"),
])
def test_a_damaged_saved_case_is_refused_not_called_fixed(edit: object, says: str, saved_case: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    body = json.loads(saved_case.read_text())
    edit(body)  # type: ignore[operator]
    case = tmp_path / "case.json"
    case.write_text(json.dumps(body))
    code, output = _run(["replay", str(case), "--target", "reference"], capsys)
    assert code == 2 and says in output and "FIXED" not in output, output


@pytest.mark.parametrize("message", ['"""\nimport os; os.system("touch ran")\n"""', "C:\\Users\\x\\new", "\ud800 lone", "'''"])
def test_a_producer_regression_file_is_valid_python_whatever_the_message(message: str, tmp_path: Path) -> None:
    from kafka_conformance.producer.report import RunResult, RunStatus
    from kafka_conformance.producer.saved import save_run
    from kafka_conformance.producer.table import table_rows
    from kafka_conformance.reference.delivery.verdicts import Anomaly, Attribution, Property

    anomaly = Anomaly("duplicate", next(iter(Property)), Attribution.CLIENT, message, values=(message,))
    result = RunResult("generated", "kafka-python", f"bootstrap:h{message[:3]!s}:1", table_rows()[0].trace,
                       RunStatus.CLIENT, anomalies=(anomaly,))
    program = save_run(result, tmp_path, kafka_version="4.3.0").with_suffix(".py").read_text(errors="surrogateescape")
    namespace: dict[str, object] = {}
    exec(compile(program, "regression.py", "exec"), namespace)
    assert namespace["FOUND"] == (anomaly.describe(),) and not (tmp_path / "ran").exists()


# --------------------------------------------------------------------------- in-process targets

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize(("act", "code", "says"), [
    ("exit0", 1, "authorize() raised SystemExit(0): an in-process target cannot end the run"),
    ("os_exit0", 1, "authorize() called os._exit(0): an in-process target cannot end the run"),
    ("generator_exit", 1, "authorize() raised GeneratorExit()"),
    ("interrupt", 1, "raised KeyboardInterrupt, and no signal arrived"),
    ("chdir", 1, "changed the working directory to"),
    ("rewrite", 1, "load_snapshot() changed the values it was handed"),
    ("close_hangs", 1, "close() gave no answer within 1 s"),
    ("thread", 0, "left 1 thread(s) running ('hostile-forever')"),
    ("fork", 0, "a python: target forked; its child is stopped"),
])
def test_an_in_process_target_cannot_bend_the_verdict(act: str, code: int, says: str, tmp_path: Path) -> None:
    """Every run ends (no hang, the timeout only stops a broken test), with its verdict and its
    report where the user asked for it, whatever the target did to the process it shares."""
    import subprocess
    import sys

    (tmp_path / "elsewhere").mkdir()
    env = {**os.environ, "PYTHONPATH": str(DATA), "HOSTILE_DIR": str(tmp_path / "elsewhere")}
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "authorizer", "--target",
                           f"python:hostile_python:{act}", "--max-examples", "5", "--seed", "0", "--timeout", "1",
                           "--quiet", "--report-json", "out.json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == code, output
    assert says in output and "Traceback" not in output, output
    assert json.loads((tmp_path / "out.json").read_text())["exit_code"] == code
    assert not (tmp_path / "elsewhere" / "out.json").exists()
    assert ("verdict: conforms" in output) == (code == 0)


# --------------------------------------------------------------------------- damaged state


def _corpus(out: Path, capsys: pytest.CaptureFixture[str], cases: str = "30") -> tuple[int, str]:
    return _run(["corpus", "generate", "--cases", cases, "--shards", "3", "--seed", "1", "--out", str(out)], capsys)


@pytest.mark.parametrize(("damage", "says"), [
    ("truncate", "shard-000001.parquet: not a whole Parquet file"),
    ("swap", "shard-000001.parquet: holds shard 0, not shard 1"),
    ("other-corpus", "shard-000001.parquet: belongs to another corpus or run"),
])
def test_a_damaged_corpus_shard_is_refused_on_resume_and_on_use(
        damage: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "corpus"
    assert _corpus(out, capsys)[0] == 0
    shard = out / "cases" / "shard-000001.parquet"
    if damage == "truncate":
        shard.write_bytes(shard.read_bytes()[: shard.stat().st_size // 2])
    elif damage == "swap":
        shard.write_bytes((out / "cases" / "shard-000000.parquet").read_bytes())
    else:
        assert _run(["corpus", "generate", "--cases", "30", "--shards", "3", "--seed", "2", "--out",
                     str(tmp_path / "other")], capsys)[0] == 0
        shard.write_bytes((tmp_path / "other" / "cases" / "shard-000001.parquet").read_bytes())
    code, output = _corpus(out, capsys)
    assert code == 2 and says in output and "Traceback" not in output, output
    code, output = _run(["fuzz", "--target", "reference", "--corpus", str(out), "--no-spark", "--out",
                         str(tmp_path / "run")], capsys)
    assert code == 2 and says in output, output


def test_a_run_folder_that_lost_its_manifest_does_not_lend_its_verdicts_to_another_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    run = tmp_path / "run"
    argv = ["fuzz", "--cases", "20", "--shard-size", "10", "--seed", "3", "--no-spark", "--out", str(run)]
    assert _run([*argv, "--target", "reference"], capsys)[0] == 0
    (run / "run.json").unlink()
    code, output = _run([*argv, "--target", "python:kafka_conformance.selftest.zoo:factories.allow-beats-deny"], capsys)
    assert code == 2 and "shard-000000.parquet: belongs to another corpus or run" in output, output


@pytest.mark.parametrize(("field", "value", "says"), [
    ("cases", 10**15, "the number of cases must be a whole number from 1 to 1,000,000,000"),
    ("shard_size", 10**7, "the shard size must be a whole number from 1 to 100,000"),
    ("shards", 7, "it says 7 shards where 30 cases in shards of 10 make 3"),
])
def test_a_manifest_claiming_what_it_cannot_hold_is_refused_at_once(
        field: str, value: int, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "corpus"
    assert _corpus(out, capsys)[0] == 0
    body = json.loads((out / "corpus.json").read_text())
    body[field] = value
    (out / "corpus.json").write_text(json.dumps(body))
    code, output = _run(["fuzz", "--target", "reference", "--corpus", str(out), "--no-spark", "--out",
                         str(tmp_path / "run")], capsys)
    assert code == 2 and says in output, output


# --------------------------------------------------------------------------- sizes


def test_a_5_mb_adapter_message_with_escape_codes_is_cut_and_made_visible(tmp_path: Path) -> None:
    import subprocess
    import sys

    server = DATA / "subprocess" / "faulty_server.py"
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "check", "authorizer", "--target",
                           f"cmd:{sys.executable} {server} huge-error", "--max-examples", "3", "--seed", "0", "--quiet",
                           "--report-json", "out.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output[-2000:]
    assert "more characters left out" in output and "\\x1b]0;pwned\\x07" in output
    assert "\x1b" not in output and "\r" not in output and len(output) < 200_000
    assert (tmp_path / "out.json").stat().st_size < 200_000


# --------------------------------------------------------------------------- odd paths


def test_odd_paths_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "kafka-conformance/authorizer-case", "version": 1, "scenario": '
                    + "[" * 100_000 + "]" * 100_000 + "}")
    rows = [
        (["check", "authorizer", "--target", "reference", "--report-json", str(tmp_path / ("a" * 300 + ".json"))],
         "File name too long"),
        (["report", "--suite", "authorizer", "--profile", "smoke", "--out", str(tmp_path / "loop1" / "x")],
         "Too many levels of symbolic links"),
        (["replay", str(deep)], "nested deeper than"),
    ]
    for argv, says in rows:
        code, output = _run(argv, capsys)
        assert code == 2 and says in output and "Traceback" not in output, (argv, output)


def test_a_run_folder_part_replaced_by_a_file_is_exit_2_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "verdicts").write_text("not a folder")
    code, output = _run(["fuzz", "--target", "reference", "--cases", "10", "--no-spark", "--out", str(tmp_path / "run")],
                        capsys)
    assert code == 2 and "verdicts: a file stands where the kit needs a folder" in output, output
