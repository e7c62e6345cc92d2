"""``kafka-conformance explain`` on large ACL files (issue 33): a big ``kafka-acls --list`` dump
gets the answer the reference gives on the few ACLs that matter, and the work grows linearly
with the ACLs.  Work is counted in Python calls, never timed (see benchmarks/bench_explain.py
for the times).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import kafka_conformance.reference.indexed.authorizer as indexed
from kafka_conformance.cli.main import main
from kafka_conformance.reference import ReferenceAuthorizer

SMALL = Path(__file__).resolve().parents[1] / "data" / "acls" / "kafka-3.9-list.txt"
"""Kafka 3.9's ``--list`` layout: a LITERAL ``*``, a PREFIXED DENY, a name with commas."""
OPS = ("READ", "WRITE", "DESCRIBE", "ALL", "CREATE", "DELETE", "ALTER", "DESCRIBE_CONFIGS")


def filler_blocks(acls: int, seed: int = 7) -> list[str]:
    """``--list`` blocks (4.x layout) of ``acls`` ACLs that no question below can see: other
    principals (``User:app-N``), on names no name asked about matches, LITERAL or PREFIXED."""
    rnd = random.Random(seed)
    blocks = []
    for r in range(0, acls, 4):
        rtype = "GROUP" if r % 40 == 0 else "TOPIC"
        ptype, name = ("PREFIXED", f"fill-{r}-") if r % 20 == 0 else ("LITERAL", f"fill-{r}-topic")
        lines = [f"Current ACLs for resource `ResourcePattern(resourceType={rtype}, name={name}, patternType={ptype})`:"]
        for _ in range(min(4, acls - r)):
            host = "*" if rnd.random() < 0.8 else f"10.0.{rnd.randrange(4)}.{rnd.randrange(256)}"
            permission = "DENY" if rnd.random() < 0.1 else "ALLOW"
            lines.append(f"\t(principal=User:app-{rnd.randrange(1000)}, host={host}, "
                         f"operation={rnd.choice(OPS)}, permissionType={permission})")
        blocks.append("\n".join(lines) + "\n")
    return blocks


def big_dump(path: Path, filler: int) -> Path:
    """The small file's blocks, in their order, spread through ``filler`` ACLs no question sees."""
    small = [block for block in SMALL.read_text().split("\n\n") if block.strip()]
    fill = filler_blocks(filler)
    out = []
    for j, block in enumerate(small):
        out += fill[j * len(fill) // len(small) : (j + 1) * len(fill) // len(small)]
        out.append(block + "\n")
    out += fill[len(small) * len(fill) // len(small) :]
    path.write_text("\n".join(out))
    return path


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return big_dump(tmp_path_factory.mktemp("explain-scale") / "big.txt", 50_000)


class _Spec(ReferenceAuthorizer):
    """The executable spec itself, counted so the test knows it was the one asked."""

    made = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type(self).made += 1
        super().__init__(*args, **kwargs)


def explain(path: Path, question: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["explain", str(path), *question])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


QUESTIONS = {
    "implied-allow": ("--principal", "User:alice", "--operation", "DESCRIBE", "--resource-type", "TOPIC",
                      "--name", "orders"),
    "prefixed-deny": ("--principal", "User:mallory", "--operation", "READ", "--resource-type", "TOPIC",
                      "--name", "logs-app"),
    "none-applies": ("--principal", "User:bob", "--operation", "WRITE", "--resource-type", "TOPIC",
                     "--name", "orders", "--kafka-version", "3.9.0", "--flavour", "acl"),
    "by-type-truth": ("--principal", "User:alice", "--operation", "READ", "--resource-type", "TOPIC",
                      "--by-type", "--variant", "truth"),
}


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_big_dump_gets_the_references_answer_on_the_acls_that_matter(
    name: str, big: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    question = QUESTIONS[name]
    answer = explain(big, question, capsys)
    with monkeypatch.context() as patched:
        # explain() takes its engine from this module: the spec answers the small file instead.
        patched.setattr(indexed, "IndexedAuthorizer", _Spec)
        made = _Spec.made
        expected = explain(SMALL, question, capsys)
        assert _Spec.made == made + 1, "explain() no longer takes its engine from reference.indexed.authorizer"
    assert "because" in expected and "note:" not in expected
    assert answer == expected


def _calls(path: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """Python function calls made by one ``explain`` (imports done by an earlier call)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        explain(path, QUESTIONS["none-applies"], capsys)
    finally:
        sys.setprofile(before)
    return count


@pytest.fixture
def sizes(tmp_path: Path) -> list[Path]:
    return [big_dump(tmp_path / f"{n}.txt", n) for n in (1_000, 2_000, 3_000)]


def test_explain_does_linear_work_in_the_acls(sizes: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Each thousand ACLs more adds the same number of calls, give or take; a step that compares
    every ACL with every other (the spec's store loading a snapshot) adds more each time (5:3)."""
    explain(sizes[0], QUESTIONS["none-applies"], capsys)  # imports, caches
    calls = [_calls(path, capsys) for path in sizes]
    first, second = calls[1] - calls[0], calls[2] - calls[1]
    assert first > 0 and second < 1.2 * first, calls
