"""An independent implementation in another language, driven through the subprocess
protocol, passes the whole suite: the protocol carries every case the kit
generates (hostile ones included) and the kit's verdicts survive the process
boundary.  Also run: the Python example served over the same protocol."""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from kafka_conformance.adapters.jsonlines.adapter import close_shared_sessions
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.report import Status
from kafka_conformance.options import Options

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
NODE_TARGET = f"cmd:{shlex.join([NODE or 'node', str(ROOT / 'examples' / 'node_authorizer' / 'authorizer.js')])}"
PY_TARGET = f"cmd:{shlex.join([sys.executable, str(ROOT / 'examples' / 'python_subprocess' / 'my_authorizer_server.py')])}"
MODEST = settings(max_examples=60, derandomize=True, database=None)


@pytest.fixture(autouse=True, scope="module")
def _stop_processes() -> Iterator[None]:
    yield
    close_shared_sessions()


def _assert_conforms(target: str, mode: str) -> None:
    report = check_authorizer(target, Options(settings=MODEST), mode=mode)
    problems = [f"{r.name}: {r.status.value} {r.counterexample or r.reason}" for r in report.results
                if r.status in (Status.FAILED, Status.ERROR)]
    assert not problems, "\n".join(problems)
    assert report.verdict.value == "conforms", report
    ran = [r.name for r in report.results if r.status is Status.PASSED]
    assert {"authorize", "by-type", "not-ready", "records", "listing"} <= set(ran)


@pytest.mark.skipif(NODE is None, reason="node is not on PATH: the Node.js example cannot run here")
@pytest.mark.parametrize("mode", ["well-formed", "hostile"])
def test_node_authorizer_passes_the_suite(mode: str) -> None:
    _assert_conforms(NODE_TARGET, mode)


@pytest.mark.parametrize("mode", ["hostile"])
def test_python_example_over_the_protocol_passes_the_suite(mode: str) -> None:
    _assert_conforms(PY_TARGET, mode)
