"""Time to a verdict: one default ``check authorizer`` run, as a user waits for it, for two installs of the kit.

    python benchmarks/bench_verdict.py --kit /tmp/venv-base/bin/kafka-conformance --kit kafka-conformance \\
        --target python:my_authorizer:factory --cwd examples/python_authorizer --seeds 1 2 3 4 5

Each seed runs every kit in turn (A B A B ...), so a drift of the machine's speed falls on
all of them; the whole command is timed (``perf_counter``), start-up included.  The table
gives each kit's median and worst over the seeds and the ratio of each kit to the first,
taken seed by seed (median and worst).  The load average is printed before and after.
Saved cases go to a fresh folder per run, so no run is shortened by an earlier one's
findings.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def timed(argv: list[str], cwd: str | None) -> tuple[float, str]:
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=cwd)
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):
        sys.exit(f"{shlex.join(argv)} exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    lines = done.stdout.strip().splitlines()
    return seconds, lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kit", action="append", required=True, help="a kafka-conformance command (repeat: A, B, ...)")
    parser.add_argument("--target", default="python:my_authorizer:factory")
    parser.add_argument("--cwd", default=None, help="run the commands here (where a python: target imports from)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--mode", default="mixed")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    times: dict[str, list[float]] = {kit: [] for kit in args.kit}
    for seed in args.seeds:
        for kit in args.kit:
            with tempfile.TemporaryDirectory() as saves:
                argv = [*shlex.split(kit), "check", "authorizer", "--target", args.target, "--seed", str(seed),
                        "--mode", args.mode, "--quiet", "--failures-dir", saves]
                seconds, verdict = timed(argv, args.cwd)
            times[kit].append(seconds)
            print(f"seed {seed}  {seconds:6.2f} s  {kit}: {verdict}")
    print(f"load after: {os.getloadavg()}")
    first = times[args.kit[0]]
    print("\n| kit | median s | worst s | ratio to the first, median | worst |\n|---|---|---|---|---|")
    for kit, values in times.items():
        ratios = [a / b for a, b in zip(values, first, strict=True)]
        print(f"| `{kit}` | {statistics.median(values):.2f} | {max(values):.2f} | {statistics.median(ratios):.2f}x | "
              f"{max(ratios):.2f}x |")


if __name__ == "__main__":
    main()
