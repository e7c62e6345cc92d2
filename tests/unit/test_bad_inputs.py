"""Every subcommand against malformed arguments and files: exit code 2, a message that names
what is wrong, never a traceback, never a hang, never a run that checks nothing.

The table is generated from families (a bad value × every place that value is accepted),
so that a new option gets the same treatment as the old ones.  Every case runs in
process through ``main()``, and must fail before any suite starts: the whole table takes
seconds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from kafka_conformance.cli.main import main


@attrs.frozen
class Bad:
    id: str
    argv: tuple[str, ...]
    says: str | None = None
    """A fragment the error output must contain (None: any clear error)."""
    env: tuple[tuple[str, str], ...] = ()


EXPLAIN_Q = ("--principal", "User:a", "--operation", "READ", "--resource-type", "TOPIC", "--name", "t")
NEAREST = "not an Apache Kafka release the kit models"


def _files(root: Path) -> None:
    """The bad files the table points at (created once per module)."""
    def write(name: str, data: str | bytes) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)  # type: ignore[operator]

    acl = {"principal": "User:a", "host": "*", "operation": "READ", "permission": "ALLOW",
           "resource_type": "TOPIC", "name": "t", "pattern_type": "LITERAL"}
    write("ok.yaml", "acls: []\n")
    write("a-file", "x")
    write("acl/nested.json", "[" * 5000 + "]" * 5000)
    write("acl/nested100.json", "[" * 100 + "]" * 100)
    write("acl/bigint.json", json.dumps({"acls": [acl], "config": {}}).replace('"config": {}', '"config": {"k": ' + "9" * 5000 + "}"))
    write("acl/nan.json", '{"acls": [], "config": {"k": NaN}}')
    write("acl/bomb.yaml", "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(7)))
    write("acl/deep.yaml", "a:\n" + "".join("  " * i + "- \n" for i in range(1, 80)) + "  " * 80 + "- x\n")
    write("acl/binary.json", bytes(range(256)) * 4)
    write("acl/latin1.yaml", "acls:\n- {principal: 'User:\xe9', host: '*', operation: READ, permission: ALLOW, "
                             "resource_type: TOPIC, name: t}\n".encode("latin-1"))
    write("acl/list-of-numbers.json", "[1, 2, 3]")
    write("acl/unknown-key.json", json.dumps({"acls": [{**acl, "colour": "blue"}]}))
    write("acl/bad-op.json", json.dumps({"acls": [{**acl, "operation": "FROB"}]}))
    write("acl/any-pattern.json", json.dumps({"acls": [{**acl, "pattern_type": "ANY"}]}))
    write("acl/truncated.json", '{"acls": [{"principal": "User:a"')
    write("acl/dup-key.json", '{"acls": [], "acls": []}')
    write("acl/bad-super-users.json", json.dumps({"acls": [], "config": {"super.users": "alice"}}))
    write("acl/garbage.txt", "Current ACLs for resource nonsense\n\tmore nonsense\n")
    os.makedirs(root / "acl/a-dir", exist_ok=True)
    write("case/not-json.json", "not json at all")
    write("case/list.json", "[1, 2]")
    write("case/other-format.json", json.dumps({"format": "something-else"}))
    write("case/nested.json", "{\"a\": " + "[" * 200 + "]" * 200 + "}")
    write("case/bigint.json", '{"format": ' + "1" * 5000 + "}")
    write("case/latin1.json", b'{"format": "\xe9"}')
    write("case/empty.json", "")
    write("case/scenario-list.json", json.dumps({"format": "kafka-conformance/authorizer-case", "version": 1,
                                                 "property": "authorize", "scenario": [1, 2]}))
    write("case/truncated.json", '{"format": "kafka-conformance/authorizer-case", "scen')
    write("report/version-2.json", json.dumps({"format": "kafka-conformance/report", "version": 2, "suites": []}))
    write("report/no-status.json", json.dumps({"format": "kafka-conformance/report", "version": 1, "suites": [
        {"suite": "authorizer", "rows": [], "columns": [{"suite": "authorizer", "target": "t", "release": "4.3.0",
                                                          "cells": [{"row": "authorize"}]}]}]}))
    write("report/ok.json", json.dumps({"format": "kafka-conformance/report", "version": 1, "profile": "smoke", "suites": []}))
    write("report/suites-string.json", json.dumps({"format": "kafka-conformance/report", "version": 1, "suites": "none"}))
    write("props/latin1.properties", b"acks=\xe9\n")
    write("props/no-equals.properties", "acks\n")
    write("props/binary.properties", bytes(range(256)))
    write("syntax_error_target.py", "def factory(:\n")
    write("raising_target.py", "raise RuntimeError('broken at import')\n")
    write("acl/huge-principal.json", json.dumps({"acls": [{**acl, "principal": "x" * 2_000_000}]}))


def _families(d: Path) -> Iterator[Bad]:
    f = str
    # --- releases: every place one is accepted ------------------------------------------------
    release_places = {
        "authorizer": ("check", "authorizer", "--target", "reference", "--kafka-version", "{}"),
        "authorizer-spec": ("check", "authorizer", "--target", "reference:{}"),
        "indexed-spec": ("check", "authorizer", "--target", "reference-indexed:{}:standard"),
        "explain": ("explain", f(d / "ok.yaml"), *EXPLAIN_Q, "--kafka-version", "{}"),
        "explain-config": ("explain-config", "--kafka-version", "{}"),
        "producer": ("check", "producer", "--client", "model", "--kafka-version", "{}"),
        "matrix": ("check", "matrix", "--kafka-version", "{}"),
        "broker": ("check", "broker", "--target", "test-broker", "--kafka-version", "{}"),
        "broker-spec": ("check", "broker", "--target", "test-broker:{}"),
        "corpus": ("corpus", "generate", "--cases", "2", "--out", f(d / "out-corpus"), "--kafka-version", "{}"),
        "fuzz": ("fuzz", "--target", "reference", "--cases", "2", "--out", f(d / "out-fuzz"), "--kafka-version", "{}"),
        "report": ("report", "--out", f(d / "out-report"), "--kafka-version", "{}"),
    }
    for place, template in release_places.items():
        for value, says in (("9.9.9", None), ("banana", "MAJOR.MINOR"), ("3.9.7", None), ("0.10.2", None),
                            ("4.3.0.1", "MAJOR.MINOR"), ("99999999999999999999.0.0", None)):
            argv = tuple(part.replace("{}", value) for part in template)
            # test-broker:VERSION is read after the suite's own extra is found (kafka-python): either error is right
            expected = None if place == "broker-spec" else says or "release"
            yield Bad(f"release-{place}-{value[:12]}", argv, expected)
    # --- counts ---------------------------------------------------------------------------------------
    count_places = {
        "authorizer-examples": ("check", "authorizer", "--target", "reference", "--max-examples", "{}"),
        "producer-examples": ("check", "producer", "--client", "model", "--max-examples", "{}"),
        "broker-examples": ("check", "broker", "--target", "test-broker", "--max-examples", "{}"),
        "broker-rounds": ("check", "broker", "--target", "test-broker", "--max-rounds", "{}"),
        "selftest-seeds": ("selftest", "--seeds", "{}"),
        "selftest-examples": ("selftest", "--max-examples", "{}"),
        "versions-examples": ("kafka-versions", "--max-examples", "{}"),
        "corpus-cases": ("corpus", "generate", "--out", f(d / "out-corpus"), "--cases", "{}"),
        "corpus-shards": ("corpus", "generate", "--out", f(d / "out-corpus"), "--cases", "5", "--shards", "{}"),
        "corpus-partitions": ("corpus", "generate", "--out", f(d / "out-corpus"), "--cases", "5", "--partitions", "{}"),
        "fuzz-cases": ("fuzz", "--target", "reference", "--out", f(d / "out-fuzz"), "--cases", "{}"),
        "fuzz-shard-size": ("fuzz", "--target", "reference", "--out", f(d / "out-fuzz"), "--cases", "2", "--shard-size", "{}"),
        "fuzz-partitions": ("fuzz", "--target", "reference", "--out", f(d / "out-fuzz"), "--cases", "2", "--partitions", "{}"),
        "format-key": ("explain-format", "--key-size", "{}"),
        "format-records": ("explain-format", "--records", "{}"),
    }
    for place, template in count_places.items():
        for value in ("-1", "x", "1e3", "9" * 30, ""):
            if value == "-1" and place == "format-key":
                continue  # -1 is a null key
            argv = tuple(part.replace("{}", value) for part in template)
            yield Bad(f"count-{place}-{value[:6] or 'empty'}", argv)
        if place in ("authorizer-examples", "selftest-seeds", "selftest-examples", "versions-examples", "corpus-cases",
                     "fuzz-cases", "broker-rounds"):
            yield Bad(f"count-{place}-0", tuple(part.replace("{}", "0") for part in template))
    yield Bad("count-authorizer-examples-huge", ("check", "authorizer", "--target", "reference", "--max-examples", "100000000"),
              "from 1 to 100000")
    # --- timeouts and seeds ----------------------------------------------------------------------------
    for value in ("0", "-1", "inf", "nan", "soon", "1e9"):
        yield Bad(f"timeout-check-{value}", ("check", "authorizer", "--target", "reference", "--timeout", value), "timeout")
        yield Bad(f"timeout-replay-{value}", ("replay", f(d / "case/list.json"), "--timeout", value), "timeout")
        yield Bad(f"timeout-broker-{value}", ("check", "broker", "--target", "test-broker", "--timeout", value), "timeout")
        yield Bad(f"timeout-report-{value}", ("report", "--out", f(d / "out-report"), "--timeout", value), "timeout")
    seed_places = {
        "authorizer": ("check", "authorizer", "--target", "reference", "--seed", "{}"),
        "producer": ("check", "producer", "--client", "model", "--seed", "{}"),
        "broker": ("check", "broker", "--target", "test-broker", "--seed", "{}"),
        "corpus": ("corpus", "generate", "--cases", "2", "--out", f(d / "out-corpus"), "--seed", "{}"),
        "fuzz": ("fuzz", "--target", "reference", "--cases", "2", "--out", f(d / "out-fuzz"), "--seed", "{}"),
        "versions": ("kafka-versions", "--seed", "{}"),
        "report": ("report", "--out", f(d / "out-report"), "--seed", "{}"),
    }
    for place, template in seed_places.items():
        for value in ("x", "1" * 60):
            yield Bad(f"seed-{place}-{value[:4]}", tuple(part.replace("{}", value) for part in template), "--seed")
    # --- ACL files, and the question asked about them ----------------------------------------------------------
    acl_files = {
        "missing": ("acl/missing.yaml", "cannot read"), "directory": ("acl/a-dir", "directory"),
        "nested": ("acl/nested.json", "nested deeper"), "nested100": ("acl/nested100.json", "nested deeper"),
        "bigint": ("acl/bigint.json", "5000 digits"), "nan": ("acl/nan.json", "NaN"), "bomb": ("acl/bomb.yaml", "alias"),
        "deep-yaml": ("acl/deep.yaml", "nested deeper"), "binary": ("acl/binary.json", "UTF-8"),
        "latin1": ("acl/latin1.yaml", "UTF-8"), "numbers": ("acl/list-of-numbers.json", None),
        "unknown-key": ("acl/unknown-key.json", "colour"), "bad-op": ("acl/bad-op.json", "FROB"),
        "any-pattern": ("acl/any-pattern.json", "pattern_type"), "truncated": ("acl/truncated.json", "invalid JSON"),
        "dup-key": ("acl/dup-key.json", "duplicate key"), "super-users": ("acl/bad-super-users.json", "bad-super-users.json"),
        "garbage": ("acl/garbage.txt", "garbage.txt"),
    }
    for name, (path, says) in acl_files.items():
        yield Bad(f"aclfile-{name}", ("explain", f(d / path), *EXPLAIN_Q), says)
    ok = f(d / "ok.yaml")
    questions = {
        "variant-without-by-type": (("--variant", "acl"), "--variant"),
        "name-with-by-type": (("--by-type",), "--name"),
        "operation": (("--operation", "FROB"), "FROB"),
        "resource-type-any": (("--resource-type", "ANY"), "ANY"),
        "resource-type": (("--resource-type", "FROB"), "FROB"),
        "principal-no-type": (("--principal", "alice"), "alice"),
        "principal-empty": (("--principal", ""), "principal"),
        "super-users": (("--super-users", "alice"), "--super-users"),
        "acl-allow-everyone": (("--flavour", "acl", "--kafka-version", "3.9.0", "--allow-everyone", "banana"), "banana"),
        "acl-flavour-4x": (("--flavour", "acl", "--kafka-version", "4.0.0"), "4.0.0"),
        "standard-flavour-2x": (("--flavour", "standard", "--kafka-version", "2.8.0"), "3.2.0"),
    }
    for name, (extra, says) in questions.items():
        argv = ["explain", ok, *EXPLAIN_Q, *extra]
        if "--by-type" in extra:  # no --name with --by-type, except where that is the mistake
            if name != "name-with-by-type":
                argv[argv.index("--name"): argv.index("--name") + 2] = []
        for option in ("--operation", "--principal", "--resource-type"):
            if option in extra and argv.count(option) > 1:
                first = argv.index(option)
                del argv[first: first + 2]
        yield Bad(f"explain-{name}", tuple(argv), says)
    yield Bad("explain-no-name", ("explain", ok, *EXPLAIN_Q[:-2]), "--name")
    # --- saved cases -----------------------------------------------------------------------------------
    for name in ("not-json", "list", "other-format", "nested", "bigint", "latin1", "empty", "scenario-list", "truncated"):
        yield Bad(f"replay-{name}", ("replay", f(d / f"case/{name}.json")), f"{name}.json")
    yield Bad("replay-missing", ("replay", f(d / "case/missing.json")), "missing.json")
    yield Bad("replay-directory", ("replay", f(d / "acl/a-dir")), "a-dir")
    # --- properties and producer settings -----------------------------------------------------------------
    for name, says in (("latin1", "UTF-8"), ("no-equals", "key=value"), ("binary", None)):
        yield Bad(f"properties-{name}", ("explain-config", "--properties", f(d / f"props/{name}.properties")), says)
    yield Bad("properties-missing", ("explain-config", "--properties", f(d / "props/missing.properties")), "cannot read")
    yield Bad("properties-directory", ("explain-config", "--properties", f(d / "acl/a-dir")), "directory")
    for setting, says in (("acks=banana", "banana"), ("retries=" + "9" * 20, "not a number of type INT"), ("noequals", "KEY=VALUE"),
                          ("=x", "KEY=VALUE"), ("linger.ms=-1", "at least 0"), ("enable.idempotence=maybe", "maybe"),
                          ("max.in.flight.requests.per.connection=0", "at least 1"),
                          ("delivery.timeout.ms=1.5", "not a number"), ("retries=x" * 10000, "...")):
        yield Bad(f"setting-{setting[:24]}", ("explain-config", setting), says)
    yield Bad("setting-librdkafka-future", ("explain-config", "--client", "librdkafka", "--kafka-version", "9.0.0"), "9.0.0")
    # --- output paths: checked before anything runs ---------------------------------------------------------
    a_file, a_dir = f(d / "a-file"), f(d / "acl/a-dir")
    under_file = f(d / "a-file/inside")
    file_options = {
        "authorizer-json": ("check", "authorizer", "--target", "reference", "--report-json"),
        "authorizer-junit": ("check", "authorizer", "--target", "reference", "--junit-xml"),
        # the one spelling every command shares
        "producer-report-json": ("check", "producer", "--client", "model", "--report-json"),
        "producer-junit-xml": ("check", "producer", "--client", "model", "--junit-xml"),
        "matrix-report-json": ("check", "matrix", "--report-json"),
        "broker-report-json": ("check", "broker", "--target", "test-broker", "--report-json"),
        "broker-junit-xml": ("check", "broker", "--target", "test-broker", "--junit-xml"),
        "fuzz-report-json": ("fuzz", "--target", "reference", "--cases", "2", "--out", f(d / "out-fuzz"), "--report-json"),
        "fuzz-report-md": ("fuzz", "--target", "reference", "--cases", "2", "--out", f(d / "out-fuzz"), "--report-md"),
        "selftest-report-json": ("selftest", "--report-json"),
        "requests-report-json": ("check", "requests", "--target", "kfake", "--report-json"),
        "versions-markdown": ("kafka-versions", "--markdown"),
    }
    for name, argv in file_options.items():
        yield Bad(f"output-{name}-is-a-dir", (*argv, a_dir), "directory")
        yield Bad(f"output-{name}-under-a-file", (*argv, under_file), "cannot create")
    dir_options = {
        "authorizer-failures": ("check", "authorizer", "--target", "reference", "--failures-dir"),
        "producer-failures": ("check", "producer", "--client", "model", "--failures-dir"),
        "matrix-failures": ("check", "matrix", "--failures-dir"),
        "broker-failures": ("check", "broker", "--target", "test-broker", "--failures-dir"),
        "corpus-out": ("corpus", "generate", "--cases", "2", "--out"),
        "fuzz-out": ("fuzz", "--target", "reference", "--cases", "2", "--out"),
        "versions-failures": ("kafka-versions", "--failures-dir"),
        "report-out": ("report", "--suite", "authorizer", "--out"),
    }
    for name, argv in dir_options.items():
        yield Bad(f"output-{name}-is-a-file", (*argv, a_file), "is a file")
        yield Bad(f"output-{name}-under-a-file", (*argv, under_file), "cannot create")
    # --- target specs --------------------------------------------------------------------------------------
    specs = {
        "empty": ("", "empty target"), "blank": ("   ", "empty target"), "unknown": ("bogus", "unknown target"),
        "python-bare": ("python:", "python:MODULE:FACTORY"), "python-module-only": ("python:nomod", None),
        "python-missing-module": ("python:no_such_module_kc:factory", "no_such_module_kc"),
        "python-missing-attr": ("python:json:nope", "nope"), "python-not-callable": ("python:json:__name__", "not callable"),
        "python-factory-raises": ("python:json:dumps", "factory"),
        "python-not-an-adapter": ("python:collections:OrderedDict", "missing"),
        "cmd-empty": ("cmd:", "cmd:COMMAND LINE"), "cmd-unterminated": ("cmd:python3 'oops", "cannot split"),
        "cmd-missing-binary": ("cmd:/nonexistent/kc-binary", "cannot start"),
        "reference-too-many": ("reference:4.3.0:standard:x", "expected reference"),
        "reference-flavour": ("reference:3.9.0:zk", "standard or acl"),
        "reference-version": ("reference:banana", "MAJOR.MINOR"),
        "reference-acl-4x": ("reference:4.1.0:acl", "removed in 4.0.0"),
        "kafka-unknown": ("kafka:9.9.9", "9.9.9"), "kafka-banana": ("kafka:banana", "banana"),
        "python-syntax-error": ("python:syntax_error_target:factory", "syntax error"),
        "python-raises-at-import": ("python:raising_target:factory", "broken at import"),
    }
    for name, (spec, says) in specs.items():
        yield Bad(f"target-{name}", ("check", "authorizer", "--target", spec), says)
    yield Bad("target-fuzz-unknown", ("fuzz", "--target", "bogus", "--cases", "2", "--out", f(d / "out-fuzz")), "bogus")
    yield Bad("target-corpus-unknown", ("corpus", "generate", "--cases", "2", "--out", f(d / "out-corpus"), "--target", "bogus"),
              "bogus")
    for name, spec, says in (("unknown", "bogus", "unknown target"), ("python-missing-module", "python:no_such_module_kc:f",
                                                                      "no_such_module_kc"),
                             ("reference-version", "reference:banana", "MAJOR.MINOR"),
                             ("broker-bootstrap", "bootstrap", "bootstrap:HOST:PORT"),
                             ("test-broker-release", "test-broker:9.9.9", "9.9.9")):
        yield Bad(f"target-report-{name}", ("report", "--out", f(d / "out-report"), "--target", spec), says)
    for name, says in (("not-json", "not valid JSON"), ("other-format", "format field"), ("missing", "cannot read"),
                       ("list", "not a kafka-conformance report")):
        yield Bad(f"report-baseline-{name}", ("report", "--out", f(d / "out-report"), "--baseline", f(d / f"case/{name}.json")),
                  says)
    for name, says in (("version-2", "version"), ("no-status", "status"), ("suites-string", "suites")):
        yield Bad(f"report-baseline-{name}", ("report", "--out", f(d / "out-report"), "--baseline", f(d / f"report/{name}.json")),
                  says)
    yield Bad("target-replay-unknown", ("replay", f(d / "case/list.json"), "--target", "bogus"), None)
    conflicts = {
        "release": (("--target", "reference:3.9.0", "--kafka-version", "3.6.2"), "give the release once"),
        "flavour": (("--target", "reference:3.9.0:acl", "--flavour", "standard"), "give the flavour once"),
        "indexed-release": (("--target", "reference-indexed:3.9.0", "--kafka-version", "3.6.2"), "give the release once"),
    }
    for name, (argv, says) in conflicts.items():
        yield Bad(f"conflict-{name}", ("check", "authorizer", *argv), says)
    # --- everything else ---------------------------------------------------------------------------------------
    misc = {
        "producer-client": (("check", "producer", "--client", "bogus"), "bogus"),
        "producer-broker": (("check", "producer", "--client", "model", "--broker", "bogus"), "bogus"),
        "producer-nothing": (("check", "producer", "--client", "model", "--max-examples", "0"), "--table"),
        "matrix-client": (("check", "matrix", "--client", "bogus"), "bogus"),
        "matrix-row": (("check", "matrix", "--row", "999999"), "999999"),
        "broker-target": (("check", "broker", "--target", "bogus"), None),
        "report-suite": (("report", "--out", f(d / "out-report"), "--suite", "bogus"), "bogus"),
        "report-render-md-missing": (("report", "--render-md-from", f(d / "case/missing.json")), "cannot read"),
        "report-render-md-not-a-report": (("report", "--render-md-from", f(d / "case/list.json")), "not a kafka-conformance report"),
        "report-update-doc-alone": (("report", "--update-doc", f(d / "a-file")), "--render-md-from"),
        "report-update-doc-no-block": (("report", "--render-md-from", f(d / "report/ok.json"), "--update-doc", f(d / "a-file")),
                                       "no generated block"),
        "report-profile": (("report", "--out", f(d / "out-report"), "--profile", "fast"), "fast"),
        "report-client": (("report", "--out", f(d / "out-report"), "--client", "bogus"), "bogus"),
        "report-broker": (("report", "--out", f(d / "out-report"), "--broker", "bogus"), "bogus"),
        "report-out-is-a-file": (("report", "--out", f(d / "a-file")), "is a file"),
        "report-kafka-broker-release": (("report", "--out", f(d / "out-report"), "--suite", "broker", "--broker", "kafka:3.2.9"),
                                        "3.2.9"),
        "report-target-of-another-suite": (("report", "--out", f(d / "out-report"), "--suite", "broker", "--target",
                                            "kafka:3.9.1"), "--broker kafka:VERSION"),
        "fetch-bogus": (("fetch", "bogus"), "bogus"),
        "fetch-nothing": (("fetch",), "fetch"),
        "selftest-mutant": (("selftest", "--mutant", "no-such-mutant"), "no-such-mutant"),
        "fuzz-both": (("fuzz", "--target", "reference", "--cases", "2", "--corpus", f(d / "acl/a-dir"), "--out", f(d / "out-fuzz")),
                      "exclude each other"),
        "fuzz-neither": (("fuzz", "--target", "reference", "--out", f(d / "out-fuzz")), "--cases"),
        "fuzz-corpus-missing": (("fuzz", "--target", "reference", "--corpus", f(d / "no-corpus"), "--out", f(d / "out-fuzz")),
                                "no-corpus"),
        "fuzz-master": (("fuzz", "--target", "reference", "--cases", "2", "--out", f(d / "out-fuzz"), "--master", "bogus://x"),
                        "Spark master URL"),
        "corpus-master": (("corpus", "generate", "--cases", "2", "--out", f(d / "out-corpus"), "--master", "localhost"),
                          "Spark master URL"),
        "corpus-suite": (("corpus", "generate", "--cases", "2", "--out", f(d / "out-corpus"), "--suite", "bogus"), "bogus"),
        "authorizer-mode": (("check", "authorizer", "--target", "reference", "--mode", "bogus"), "bogus"),
        "authorizer-property": (("check", "authorizer", "--target", "reference", "--property", "bogus"), "bogus"),
        "authorizer-flavour": (("check", "authorizer", "--target", "reference", "--flavour", "zk"), "zk"),
        "unknown-command": (("frobnicate",), "frobnicate"),
        "targets-option": (("targets", "--bogus"), "--bogus"),
        "versions-release": (("kafka-versions", "kafka:9.9.9"), "9.9.9"),
        "explain-huge-principal": (("explain", f(d / "ok.yaml"), *EXPLAIN_Q[2:], "--principal", "x" * 1_000_000), "characters"),
        "no-command": ((), None),
        "check-no-suite": (("check",), None),
        "explain-no-file": (("explain",), None),
        "replay-nothing": (("replay",), None),
    }
    for name, (argv, says) in misc.items():
        yield Bad(f"misc-{name}", argv, says)
    yield Bad("env-old-timeout-variable", ("check", "authorizer", "--target", "reference", "--max-examples", "1"),
              "--timeout", env=(("KAFKA_CONFORMANCE_CMD_TIMEOUT", "inf"),))


def _cases() -> list[Bad]:
    return list(_families(Path("<root>")))


CASES = _cases()


def test_the_table_is_large_and_every_case_distinct() -> None:
    assert len(CASES) >= 200
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad-inputs")
    _files(folder)
    return folder


@pytest.mark.parametrize("case_id", [c.id for c in CASES])
def test_bad_input_is_a_clear_error(case_id: str, root: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    case = next(c for c in _families(root) if c.id == case_id)
    monkeypatch.chdir(root)
    monkeypatch.delenv("KAFKA_CONFORMANCE_CMD_TIMEOUT", raising=False)
    for key, value in case.env:
        monkeypatch.setenv(key, value)
    code = main(list(case.argv))
    out, err = capsys.readouterr()
    both = out + err
    assert code == 2, f"exit {code} for {case.argv}:\n{both[-3000:]}"
    assert "Traceback" not in both and "internal error" not in both, both[-3000:]
    assert len(both) < 5000, f"{len(both)} characters of output: messages must abbreviate what they quote"
    if case.says is not None:
        assert case.says in both, f"expected {case.says!r} in:\n{both[-2000:]}"
    for scratch in ("out-corpus", "out-fuzz"):
        assert not (root / scratch / "verdicts").exists(), "a bad input must fail before anything runs"
    assert not (root / "out-report" / "report.json").exists(), "a bad input must fail before anything runs"


def test_an_answer_about_huge_values_is_abbreviated(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A two-megabyte principal in an ACL file is loaded (see docs/errors.md) and answered
    about; the answer names it without echoing it back."""
    code = main(["explain", str(root / "acl/huge-principal.json"), *EXPLAIN_Q])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "more characters" in out and "note: ACL 1" in out
    assert len(out + err) < 5000
