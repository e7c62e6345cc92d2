"""The broker half of the mutation run: a mutated ``reference/broker`` served as a broker.

The broker suite holds a broker to the reference's producer-state rules.  The kit's Python test
broker is those rules on the wire (every produce is answered by the reference's partition log),
so a mutant of ``reference/broker`` served as the test broker is a broker that breaks one rule,
and the question the run asks is the authorizer half's: does the suite's fixed part (the probe
table and the coverage cases, run first on every seed) notice it?

As in :mod:`.mutation`, the mutated copy runs in a process of its own
(``python -m kafka_conformance.adapters.brokers.testbroker``, which answers restarts and
checkpoint questions over a pipe, so the restart cases run too) and the judge imports the
unmutated kit in another.  Each mutant is judged under one release of each distinct set of the
broker profile's answers (:func:`broker_releases`), newest first, until one catches it.  The
release judged is the *oldest* of its class: a class is a run of releases between two changes,
so its oldest release is where a change first shows, and a mutant that moves a change by one
release (``>=`` made ``>``) changes the answer there.  A change shipped as a backport has a
second threshold, the next line's first release, which a class's oldest release need not be,
so every modelled release the profile's source names is judged too.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import json
import queue
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kafka_conformance.adapters.brokers.process import BrokerStartError
from kafka_conformance.adapters.reaper import stop_tree, tagged_env
from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.broker.check import check_broker
from kafka_conformance.broker.targets import BrokerHandle
from kafka_conformance.options import Options
from kafka_conformance.reference.broker import profile as profile_module
from kafka_conformance.reference.broker.profile import OLDEST_BROKER, BrokerProfile, broker_profile
from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES, KafkaVersion

__all__ = ["BROKER_MUTATED", "broker_releases", "judge_broker", "served_broker"]

BROKER_MUTATED = tuple(f"reference/broker/{name}.py" for name in ("producer_state", "partition_log", "batches", "profile"))
"""The broker spec the broker suite judges: one partition's producer-state rules per release (the
batches, their checks, the log and what it keeps across a restart).  The rest of
``reference/broker`` is judged elsewhere: ``replication.py`` (leaders, in-sync replicas, acks) by
the producer suite's trace table on a cluster, ``produce_errors.py`` (the error vocabulary, of
which one broker's rules answer six codes) through every suite that reads an answer."""

ANSWER_TIMEOUT_S = 30.0
"""How long the served broker may take to start, restart or answer a checkpoint question."""


def broker_releases() -> tuple[str, ...]:
    """One release per distinct set of the broker profile's answers (the oldest of each: where its
    behaviour begins), and every modelled release the profile's source names (a backport's line
    and the line after it: where a flag's threshold lies, which a class's oldest release need not
    be), newest first."""
    names = sorted(n for n, v in vars(BrokerProfile).items() if isinstance(v, property))
    chosen: dict[tuple[object, ...], KafkaVersion] = {}
    modelled = [v for v in IDEMPOTENCE_RELEASES if v >= OLDEST_BROKER]
    for version in modelled:
        profile = broker_profile(version)
        chosen.setdefault(tuple(getattr(profile, n) for n in names), version)  # ascending: the oldest stays
    named = {KafkaVersion.parse(text) for text in _version_literals(inspect.getsource(profile_module))}
    judged = {*chosen.values(), *(v for v in modelled if v in named)}
    return tuple(str(v) for v in sorted(judged, reverse=True))


def _version_literals(source: str) -> set[str]:
    """Every string constant of ``source`` that reads as a release (``"2.0.1"``)."""
    return {node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"\d+\.\d+\.\d+", node.value)}


class _Pipe:
    """Lines from the served broker's standard output, read by a thread so that a wait can end."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="kafka-conformance-served-broker", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def next(self, what: str) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=ANSWER_TIMEOUT_S)
        except queue.Empty:
            raise BrokerStartError(f"the served broker gave no answer to {what} within {ANSWER_TIMEOUT_S} s") from None
        if line is None:
            raise BrokerStartError(f"the served broker exited (code {self.proc.wait()}) before answering {what}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise BrokerStartError(f"the served broker could not answer {what}: {answer['error']}")
        return answer

    def close(self) -> None:
        """After the process is gone: the reader has met the end of its output; close the pipe."""
        self._reader.join(timeout=ANSWER_TIMEOUT_S)
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def ask(self, request: dict[str, object]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise BrokerStartError(f"the served broker is gone: {exc}") from exc
        return self.next(json.dumps(request))


@contextlib.contextmanager
def served_broker(source: Path, version: str) -> Iterator[BrokerHandle]:
    """The test broker of the kit under ``source`` (the mutated copy), following ``version``, in
    a process of its own; stopped, with anything it started, when the block ends."""
    env, token = tagged_env()
    env.update(PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryFile("w+", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kafka_conformance.adapters.brokers.testbroker", "--kafka-version", version],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env, start_new_session=True)
        pipe = _Pipe(proc)
        try:
            try:
                where = pipe.next("the start")
            except BrokerStartError as exc:
                stderr.seek(0)
                raise BrokerStartError(f"{exc}: {stderr.read()[-1500:]}") from exc
            host, _, port = str(where["bootstrap"]).split(",")[0].rpartition(":")

            def restart(clean: bool) -> None:
                pipe.ask({"restart": "clean" if clean else "crash"})

            yield BrokerHandle(
                f"served-test-broker:{version}", host, int(port), f"the test broker of {source}, Kafka {version} model",
                str(where["topic"]), restart=restart, checkpoint=lambda: int(pipe.ask({"checkpoint": 0})["log_start"]))
        finally:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            stop_tree(proc, token)
            pipe.close()


def judge_broker(source: Path, releases: Sequence[str]) -> str:
    """The test broker under ``source`` (mutated) against the installed reference, the probe table
    and the coverage cases only: what caught it (``broker@VERSION: what``), or "" when nothing did."""
    for version in releases:
        try:
            with served_broker(source, version) as handle:
                report = check_broker(handle, Options(kafka_version=version, max_examples=0))  # the fixed cases only
        except (BrokerStartError, TargetError) as exc:
            return f"broker@{version}: the mutated test broker did not start or answer ({exc})"
        diverging = [p for p in report.probes if p.status in ("diverges", "error")]
        if diverging:
            return f"broker@{version} probe {diverging[0].name}: {diverging[0].status}"
        if report.findings:
            return f"broker@{version} coverage: {report.findings[0].anomaly}"
        if report.errors:
            return f"broker@{version}: {report.errors[0][:200]}"
    return ""


def _main(argv: Sequence[str] | None = None) -> int:
    """Cosmic Ray's test command for the broker half: exit 0 when the mutant survives."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m kafka_conformance.selftest.mutation_broker")
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--releases", required=True, help="VERSION,...")
    args = parser.parse_args(argv)
    caught = judge_broker(args.source.resolve(), args.releases.split(","))
    print(f"caught: {caught}" if caught else "not caught")
    return 1 if caught else 0


if __name__ == "__main__":
    sys.exit(_main())
