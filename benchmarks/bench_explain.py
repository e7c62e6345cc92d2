"""``kafka-conformance explain`` on big ``kafka-acls --list`` dumps (issue 33), the whole command.

    python benchmarks/bench_explain.py                                  # 10k, 100k and 1M ACLs, 3 runs each
    python benchmarks/bench_explain.py --before f3f282f                 # beside the code at a git revision
    python benchmarks/bench_explain.py --sizes 10000,100000 --runs 5 --questions allow --before HEAD~1

What a user waits for: ``python -m kafka_conformance.cli.main explain DUMP ...`` in a
subprocess, from start to answer (wall clock, ``perf_counter``), and the child's peak memory
(``wait4``).  The dumps are generated into a temporary folder (``--keep DIR`` keeps them):
the 4.x layout (``--layout scala``: the 2.1-3.9 bytes), blocks of 1 to 7 ACLs on TOPIC,
GROUP and TRANSACTIONAL_ID resources, LITERAL and PREFIXED, principals ``User:app-N``, one
ACL in ten a DENY, one in seven on a host of its own; a LITERAL ``*`` block first, and in the
middle the ACLs the questions are about (``bench-orders``, a PREFIXED DENY on ``bench-``).
Seeded: the same size gives the same bytes.  Questions (``--questions``):

* ``allow``: ``User:alice`` DESCRIBE TOPIC ``bench-orders``: ALLOWED, READ implies DESCRIBE;
* ``none``: ``User:bob`` WRITE TOPIC ``bench-orders``: DENIED, no ACL applies (the answer lists R);
* ``by-type``: ``User:alice`` READ on any TOPIC (``--by-type``, the flavour's variant).

``after`` is the kit this Python imports (the working tree, when it is installed editable).
``--before REV`` also times the code at a git revision: ``git archive REV`` is exported into
the temporary folder, its packages linked under ``kafka_conformance/`` as pyproject's
``package-dir`` maps them, and that folder put first on ``PYTHONPATH`` (no install, no
worktree).  The two alternate run by run (after-before, then before-after), so a drift of the
machine's speed falls on both; their outputs are compared whenever both finish.  A run that
takes longer than ``--before-timeout`` seconds is stopped, and that code is not run again on
that size or on a larger one.  The load average is printed before and after each size.  Not a
test: no assertions.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, TextIO

ROOT = Path(__file__).resolve().parents[1]
OPS = ("READ", "WRITE", "DESCRIBE", "ALL", "CREATE", "DELETE", "ALTER", "DESCRIBE_CONFIGS", "ALTER_CONFIGS")
QUESTIONS = {
    "allow": ["--principal", "User:alice", "--operation", "DESCRIBE", "--resource-type", "TOPIC", "--name", "bench-orders"],
    "none": ["--principal", "User:bob", "--operation", "WRITE", "--resource-type", "TOPIC", "--name", "bench-orders"],
    "by-type": ["--principal", "User:alice", "--operation", "READ", "--resource-type", "TOPIC", "--by-type"],
}
PACKAGE_DIRS = {"kafka_conformance": "conformance", "kafka_conformance.reference": "reference",
                "kafka_conformance.adapters": "adapters", "kafka_conformance.corpora": "corpora"}
"""pyproject's ``[tool.setuptools] package-dir``, when a revision's pyproject does not say it on one line."""


def write_dump(path: Path, acls: int, *, scala: bool = False, seed: int = 1) -> int:
    """A ``kafka-acls --list`` dump of exactly ``acls`` distinct ACLs; returns its line count."""
    rnd = random.Random(seed)
    lines = 0

    def block(handle: TextIO, rtype: str, name: str, ptype: str, entries: list[str]) -> None:
        nonlocal lines
        header = f"Current ACLs for resource `ResourcePattern(resourceType={rtype}, name={name}, patternType={ptype})`:"
        body = [f"\t{e}" for e in entries]
        if scala:
            header += " "
            body[0] = " " + body[0]
            body[-1] += " "
        handle.write("\n".join([header, *body, "", ""]))
        lines += len(body) + 2

    def entry(principal: str, host: str, op: str, permission: str) -> str:
        return f"(principal={principal}, host={host}, operation={op}, permissionType={permission})"

    wildcard = [entry("User:admin", "*", "ALL", "ALLOW"), entry("User:monitor", "*", "DESCRIBE", "ALLOW"),
                entry("User:monitor", "*", "DESCRIBE_CONFIGS", "ALLOW"), entry("User:*", "10.9.9.9", "ALL", "DENY")]
    probe = [("TOPIC", "bench-orders", "LITERAL", [entry("User:alice", "*", "READ", "ALLOW"),
                                                    entry("User:alice", "10.0.0.7", "WRITE", "ALLOW")]),
             ("TOPIC", "bench-", "PREFIXED", [entry("User:mallory", "*", "ALL", "DENY")])]
    fill = acls - len(wildcard) - sum(len(p[3]) for p in probe)
    if fill < 0:
        raise SystemExit(f"--sizes: at least {acls - fill} ACLs")
    with path.open("w", encoding="utf-8") as handle:
        block(handle, "TOPIC", "*", "LITERAL", wildcard)
        done, r = 0, 0
        while done < fill:
            if done >= fill // 2 and probe:
                for rtype, name, ptype, entries in probe:
                    block(handle, rtype, name, ptype, entries)
                probe = []
            rtype = {3: "GROUP", 7: "TRANSACTIONAL_ID"}.get(r % 10, "TOPIC")
            ptype, name = ("PREFIXED", f"team-{r}-") if r % 5 == 0 else ("LITERAL", f"team-{r - r % 5}-events-{r}")
            seen: set[str] = set()
            for _ in range(min(rnd.randint(1, 7), fill - done)):
                while True:
                    host = "*" if rnd.random() < 6 / 7 else f"10.{rnd.randrange(4)}.{rnd.randrange(256)}.{rnd.randrange(256)}"
                    text = entry(f"User:app-{rnd.randrange(2000)}", host, rnd.choice(OPS),
                                 "DENY" if rnd.random() < 0.1 else "ALLOW")
                    if text not in seen:
                        break
                seen.add(text)
            block(handle, rtype, name, ptype, sorted(seen))
            done += len(seen)
            r += 1
    return lines


def export(revision: str, into: Path) -> Path:
    """The code at ``revision``, importable as ``kafka_conformance`` from the folder returned."""
    tree = into / "tree"
    tree.mkdir()
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision], stdout=out, check=True)
    subprocess.run(["tar", "-xf", str(archive), "-C", str(tree)], check=True)
    archive.unlink()
    line = re.search(r"^package-dir\s*=\s*\{(.*)\}", (tree / "pyproject.toml").read_text(), re.M)
    dirs = dict(re.findall(r'"([\w.]+)"\s*=\s*"([\w./-]+)"', line.group(1))) if line else PACKAGE_DIRS
    top = tree / dirs["kafka_conformance"]
    for package, folder in dirs.items():
        if package != "kafka_conformance":
            (top / package.removeprefix("kafka_conformance.").replace(".", "/")).symlink_to(tree / folder)
    path = into / "path"
    path.mkdir()
    (path / "kafka_conformance").symlink_to(top)
    return path


class Run(NamedTuple):
    seconds: float | None
    """None: stopped at the timeout."""
    rss_mb: float
    stdout: str


def timed(argv: list[str], env: dict[str, str], timeout: float) -> Run:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - began > timeout:
                os.kill(child.pid, signal.SIGKILL)  # not reaped yet: the pid is still the child's
                _, status, usage = os.wait4(child.pid, 0)
                child.returncode = os.waitstatus_to_exitcode(status)
                return Run(None, usage.ru_maxrss / 1024, "")
            time.sleep(0.005)
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            sys.exit(f"{' '.join(argv)} exited {child.returncode}:\n{err.read().decode()[-2000:]}")
        return Run(seconds, usage.ru_maxrss / 1024, out.read().decode())


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="ACL counts, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="runs of each question per size and code")
    parser.add_argument("--questions", default=",".join(QUESTIONS), help=f"some of {', '.join(QUESTIONS)}")
    parser.add_argument("--before", metavar="REV", help="also time the code at this git revision")
    parser.add_argument("--before-timeout", type=float, default=180.0, help="seconds before a run is stopped")
    parser.add_argument("--layout", choices=["4.x", "scala"], default="4.x")
    parser.add_argument("--keep", type=Path, help="write the dumps here and keep them")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    questions = args.questions.split(",")
    if unknown := set(questions) - set(QUESTIONS):
        parser.error(f"unknown questions {sorted(unknown)}")
    scratch = Path(tempfile.mkdtemp(prefix="bench-explain-"))
    folder = args.keep or scratch
    folder.mkdir(parents=True, exist_ok=True)
    codes = {"after": dict(os.environ)}
    if args.before:
        path = os.pathsep.join(p for p in (str(export(args.before, scratch)), os.environ.get("PYTHONPATH")) if p)
        codes["before"] = {**os.environ, "PYTHONPATH": path}
    probe = [sys.executable, "-c", "import kafka_conformance.cli.explain as e; print(e.__file__)"]
    for label, env in codes.items():
        where = subprocess.run(probe, env=env, capture_output=True, text=True, check=True).stdout.strip()
        print(f"{label}: {where}" + (f" (git {args.before})" if label == "before" else ""))
    print(f"{os.cpu_count()} cores, {sys.executable} {sys.version.split()[0]}; load before: {load()}")
    rows = []
    given_up: set[str] = set()
    try:
        for size in sizes:
            dump = folder / f"acls-{size}.txt"
            began = time.perf_counter()
            lines = write_dump(dump, size, scala=args.layout == "scala")
            mb = dump.stat().st_size / 1e6
            print(f"\n{size:,} ACLs: {lines:,} lines, {mb:.1f} MB, written in {time.perf_counter() - began:.1f} s; "
                  f"load {load()}")
            for question in questions:
                argv = [sys.executable, "-m", "kafka_conformance.cli.main", "explain", str(dump), *QUESTIONS[question]]
                runs: dict[str, list[Run]] = {label: [] for label in codes}
                for n in range(args.runs):
                    order = list(codes) if n % 2 == 0 else list(reversed(codes))
                    for label in order:
                        if label in given_up:
                            continue
                        run = timed(argv, codes[label], args.before_timeout)
                        runs[label].append(run)
                        shown = f"{run.seconds:7.2f} s" if run.seconds is not None else f"> {args.before_timeout:.0f} s, stopped"
                        print(f"  {question:8} {label:6} run {n + 1}: {shown}, {run.rss_mb:,.0f} MB; load {load()}")
                        if run.seconds is None:
                            given_up.add(label)
                finished = {label: {r.stdout for r in rs if r.seconds is not None} for label, rs in runs.items()}
                answers = set().union(*finished.values())
                answer = next(iter(answers), "").splitlines()
                print(f"    {answer[1][:150] if len(answer) > 1 else '(no answer)'}")
                same = "-" if not all(finished.values()) else ("yes" if len(answers) == 1 else "no")
                for label, rs in runs.items():
                    done = [r.seconds for r in rs if r.seconds is not None]
                    stopped = len(rs) - len(done)
                    rows.append((size, lines, mb, question, label, len(rs), done, stopped,
                                 max((r.rss_mb for r in rs), default=0.0), same if len(codes) > 1 else ""))
            print(f"  load after {size:,}: {load()}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"\nload after: {load()}\n")
    print("| ACLs | lines | MB | question | code | runs | median s | worst s | max RSS MB | same output |")
    print("|---:|---:|---:|---|---|---:|---:|---:|---:|---|")
    for size, lines, mb, question, label, count, done, stopped, rss, same in rows:
        if not count:
            median = worst = "not run (stopped before)"
        elif stopped:
            median, worst = (f"{statistics.median(done):.2f}" if done else "-"), f"> {args.before_timeout:.0f} (stopped)"
        else:
            median, worst = f"{statistics.median(done):.2f}", f"{max(done):.2f}"
        memory = f"{rss:,.0f}" if count else "-"
        print(f"| {size:,} | {lines:,} | {mb:.1f} | {question} | {label} | {count} | {median} | {worst} | {memory} | {same} |")


if __name__ == "__main__":
    main()
