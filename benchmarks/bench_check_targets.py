"""A default ``check authorizer`` run against a real target beside the in-process reference at the same release.

    kafka-conformance fetch kafka:4.3.1 kafka:3.9.1:acl
    python benchmarks/bench_check_targets.py --target kafka:4.3.1 --target kafka:3.9.1:acl
    python benchmarks/bench_check_targets.py --target kafka:4.3.1 --kit /tmp/venv-base/bin/kafka-conformance --kit kafka-conformance

What a user waits for: the whole command, from start to verdict, JVM start-up and
all (wall clock, ``perf_counter``).  For each target, the yardstick is
``--target reference --kafka-version V --flavour F`` at the target's own release
and flavour, the in-process reference.  Every round runs each kit on the target and
on the yardstick, in turn, so that a drift of the machine's speed falls on both;
the table gives the median and the worst of each, and the ratio target/yardstick
taken round by round (median and worst).  With several ``--kit`` commands (two
installs of the kit, to compare code versions), the kits alternate too.  The load
average is printed before and after.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time

from kafka_conformance.adapters.jvm.kafka_releases import parse_kafka_target


def timed(argv: list[str]) -> tuple[float, str]:
    """Seconds for the whole command, and its verdict line (the last line it printed)."""
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):
        sys.exit(f"{shlex.join(argv)} exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    lines = done.stdout.strip().splitlines()
    return seconds, lines[-1] if lines else ""


def yardstick(target: str) -> list[str]:
    """The in-process reference at the target's release and flavour."""
    release = parse_kafka_target(target.removeprefix("kafka:"))
    return ["--target", "reference", "--kafka-version", str(release.version), "--flavour", release.flavour.value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", action="append", required=True, help="a kafka:VERSION[:FLAVOUR] target (repeatable)")
    parser.add_argument("--kit", action="append", help="the kafka-conformance command to time (repeatable; default: kafka-conformance)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--args", default="", help="more arguments for check authorizer (one shell-quoted string)")
    args = parser.parse_args()
    kits = args.kit or ["kafka-conformance"]
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; "
          f"{args.rounds} rounds, seed {args.seed}")
    for target in args.target:
        times: dict[tuple[str, str], list[float]] = {}
        verdicts: dict[tuple[str, str], str] = {}
        for _ in range(args.rounds):
            for kit in kits:
                for label, spec in (("target", ["--target", target]), ("reference", yardstick(target))):
                    argv = [*shlex.split(kit), "check", "authorizer", *spec, "--seed", str(args.seed), *shlex.split(args.args)]
                    seconds, verdict = timed(argv)
                    times.setdefault((kit, label), []).append(seconds)
                    verdicts[(kit, label)] = verdict
        for kit in kits:
            own, ref = times[(kit, "target")], times[(kit, "reference")]
            ratios = [a / b for a, b in zip(own, ref, strict=True)]
            print(f"{target} [{kit}]: target median {statistics.median(own):.1f} s (worst {max(own):.1f}), "
                  f"reference median {statistics.median(ref):.1f} s (worst {max(ref):.1f}), "
                  f"ratio median {statistics.median(ratios):.2f}x (worst {max(ratios):.2f}x)")
            print(f"    {verdicts[(kit, 'target')][:150]}")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
