"""The release campaign: Apache Kafka's own authorizers, release by release, judging the reference.

Every property of the authorizer suite runs against ``kafka:VERSION:FLAVOUR`` for
each release the kit runs, in both modes (well-formed and hostile), held to the
reference profile of the same release and flavour.  A divergence here means the
reference disagrees with real Kafka: it is settled from Kafka's source, either
by fixing the reference or by a profile flag with its ticket.

The result is a table (release x flavour x mode -> per property: agrees /
diverges, with the saved case), written as Markdown for ``docs/kafka-versions.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from kafka_conformance.adapters.jvm.kafka_releases import KafkaRelease, all_releases, parse_kafka_target
from kafka_conformance.adapters.jvm.kafka_target import not_runnable_reason
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.report import Status
from kafka_conformance.options import Options

__all__ = ["CampaignRow", "releases_named", "run_campaign", "to_markdown"]

MODES = ("well-formed", "hostile")


@attrs.frozen
class CampaignRow:
    release: str
    mode: str
    outcome: str
    """``agrees``, ``diverges`` or ``could not run: why``."""
    properties: tuple[tuple[str, str, int, str], ...] = ()
    """(property, status, examples, saved case or reason) per property."""
    seconds: float = 0.0


def releases_named(names: Sequence[str]) -> list[KafkaRelease]:
    """``kafka:VERSION[:FLAVOUR]`` names, or every release the kit runs when none are given."""
    if not names:
        return all_releases()
    return [parse_kafka_target(n.removeprefix("kafka:")) for n in names]


def run_campaign(
    releases: Sequence[KafkaRelease], *, modes: Sequence[str] = MODES, max_examples: int = 50, seed: int = 0,
    failures_dir: Path = Path("kafka-conformance-failures/kafka-versions"),
    on_row: Callable[[CampaignRow], object] = lambda _: None,
) -> list[CampaignRow]:
    rows = []
    for release in releases:
        for mode in modes:
            started = time.monotonic()
            reason = not_runnable_reason(release)
            if reason is not None:
                row = CampaignRow(release.spec, mode, f"could not run: {reason}")
            else:
                folder = failures_dir / f"{release.version}-{release.flavour.value}-{mode}"
                report = check_authorizer(release.spec, Options(seed=seed, max_examples=max_examples, failures_dir=folder),
                                          mode=mode)
                props = tuple((r.name, r.status.value, r.examples, r.saved_to or r.reason) for r in report.results)
                failed = any(r.status in (Status.FAILED, Status.ERROR) for r in report.results)
                row = CampaignRow(release.spec, mode, "diverges" if failed else "agrees", props,
                                  round(time.monotonic() - started, 1))
            rows.append(row)
            on_row(row)
    return rows


def to_markdown(rows: Sequence[CampaignRow], *, command: str, max_examples: int, seed: int) -> str:
    names: list[str] = []
    for row in rows:
        for name, *_ in row.properties:
            if name not in names:
                names.append(name)
    mark = {"passed": "agrees", "failed": "**diverges**", "error": "**error**", "skipped": "n/a"}
    lines = [
        "| release | mode | verdict | " + " | ".join(f"`{n}`" for n in names) + " | seconds |",
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    for row in rows:
        by_name = {name: status for name, status, _, _ in row.properties}
        cells = [mark.get(by_name.get(n, ""), "—") for n in names]
        lines.append(f"| `{row.release}` | {row.mode} | {row.outcome} | " + " | ".join(cells) + f" | {row.seconds} |")
    divergences = [(row, p) for row in rows for p in row.properties if p[1] in ("failed", "error")]
    out = [
        "# Apache Kafka's authorizers, release by release, against the reference",
        "",
        "Written by `kafka-conformance kafka-versions` (do not edit by hand; `tox -e kafka-versions` rewrites it).",
        "Each row runs every property of the authorizer suite against Apache Kafka's own authorizer of that",
        "release (`kafka:VERSION:FLAVOUR`, jars from Maven checked against the kit's lock), held to the",
        "reference profile of the same release and flavour. *agrees*: every generated case answered as the",
        "reference says; *n/a*: outside what that release implements. What the campaign found, and how each",
        "finding was settled, is in `docs/jvm-adapter.md`.",
        "",
        f"Command: `{command}` ({max_examples} examples per property, seed {seed}).",
        "",
        *lines,
        "",
    ]
    if divergences:
        out += ["Divergences (each a saved, replayable case):", ""]
        out += [f"- `{row.release}` {row.mode} `{name}`: {where}" for row, (name, _, _, where) in divergences]
    else:
        out.append("No divergence: on every release and mode above, Kafka's authorizer and the reference "
                   "profile of the same release answered alike on every generated case.")
    return "\n".join(out) + "\n"
