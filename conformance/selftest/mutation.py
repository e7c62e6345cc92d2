"""Mutation testing of the reference: does the coverage phase check every decision the spec takes?

The zoo (:mod:`.zoo`) is a list of bugs someone thought of.  This is the mechanical
version: Cosmic Ray (a maintained mutation-testing tool) makes every small change it knows
to the reference's authorizer and ACL model, one at a time, and each changed reference is
checked as a target against the unchanged one.  A change the kit does not notice (a
*survivor*) is either equivalent (it cannot change an answer; kept, with the reason, in
:mod:`.equivalent`) or a gap in the suite's inputs.

Why these choices:

* **Only the coverage phase judges.**  Its cases run first, in order, on every seed and in
  every mode, so a mutant it catches is caught on every seed.  A mutant only random search
  finds would be caught on some seeds: that is the instability this run exists to rule out.
* **A process boundary.**  The mutated copy (a copy of the installed package in a work
  folder, which Cosmic Ray edits in place) is served over the subprocess protocol
  (:mod:`kafka_conformance.adapters.jsonlines.serve`); the judge imports the installed,
  unmutated package in its own process.  Two versions of one package cannot share an
  interpreter.
* **One mode.**  The coverage phase of ``mixed`` holds every case of the ``well-formed`` and
  ``hostile`` phases (``tests/quality/test_mutation.py`` holds that), so a mutant no mode catches
  is one ``mixed`` does not catch; judging the other two as well would triple the run for nothing.
* **Every release class.**  A mutant of a version flag shows only under a release where
  the flag matters, so each mutant is checked under one profile of each distinct set of
  flag values (:func:`representative_profiles`), newest first, until one catches it; and once
  more answering ``authorizeByResourceType`` with the KIP-679 contract itself (``truth``), the
  variant the kit holds a target to when the target declares it.
* **Identity by text.**  A mutant is named by its file, the function or class it is in, its
  operator and the text of the line before and after the change, not by a line number or a
  counter that every edit elsewhere would shift; so the reviewed lists survive edits around
  them, and a stale entry (a mutant it names now caught, or none left) is reported.
"""

from __future__ import annotations

import enum
import importlib.util
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs
from hypothesis import settings as Settings

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.authorizer.check import check_authorizer
from kafka_conformance.authorizer.domain.strategies import MODES
from kafka_conformance.authorizer.report import PropertyResult, Status
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.values import AclOperation, ResourceType
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.profiles import KAFKA_BUGS, Flavour, KafkaBugs, Profile, profile_for
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import APACHE_KAFKA_RELEASES
from kafka_conformance.selftest.equivalent import (
    EQUIVALENT,
    KNOWN_GAPS,
    OUTSIDE_PROTOCOL,
    Equivalent,
    KnownGap,
    Outside,
)
from kafka_conformance.selftest.mutation_broker import BROKER_MUTATED, broker_releases, judge_broker
from kafka_conformance.selftest.mutation_skips import Span, not_run_reason, scope_at, scopes, skip_not_run
from kafka_conformance.selftest.reviewed_broker import BROKER_EQUIVALENT, BROKER_KNOWN_GAPS

__all__ = [
    "AUTHORIZER_MUTATED",
    "MUTATED",
    "CosmicRayFailed",
    "MutantResult",
    "MutationRun",
    "Outcome",
    "Served",
    "judge",
    "match_reviewed",
    "representative_profiles",
    "run_mutation",
    "to_text",
    "workspace",
]

AUTHORIZER_MUTATED = ("reference/authorizer", "reference/acl")
"""The authorizer spec and the ACL model it stands on, judged as a served authorizer."""

MUTATED = (*AUTHORIZER_MUTATED, *BROKER_MUTATED)
"""The parts of the package that are mutated, as paths inside it; the broker spec is judged as a
served test broker (:mod:`.mutation_broker`)."""

JUDGE_TIMEOUT_S = 600.0
"""Cosmic Ray's bound on one mutant's judging: every profile and mode of a survivor, with room.
A mutant that makes the reference loop is stopped sooner, by the kit's own per-call timeout."""


class Outcome(enum.Enum):
    CAUGHT = "caught"
    """The coverage phase failed the mutated reference: on every seed, in that mode."""
    EQUIVALENT = "equivalent"
    """Not caught, and reviewed as unable to change any answer (:mod:`.equivalent`)."""
    KNOWN_GAP = "known gap"
    """Not caught, reviewed as a gap in the suite's inputs and listed as open (:data:`.KNOWN_GAPS`)."""
    SURVIVED = "survived"
    """Not caught and not reviewed: a gap in the suite's inputs, or an equivalent to review."""
    NOT_RUN = "not run"
    """Equivalent by construction, so never judged: marked skipped in Cosmic Ray's session before
    the run (a filter, Cosmic Ray's documented way to leave mutants out).  Two kinds
    (:data:`~.mutation_skips.NOT_RUN_REASONS`): a change inside a type annotation, and ``is`` swapped with ``==``
    (or ``is not`` with ``!=``) where one side is an enum member or None."""


@attrs.frozen
class MutantResult:
    file: str
    """Inside the package: ``reference/acl/values.py``."""
    operator: str
    line: str
    """The text of the changed line, stripped."""
    after: str
    """The same line as the mutant has it."""
    scope: str
    """The innermost function or class holding the line (``Profile.has_not_ready_state``), or ""."""
    follows: str
    """The text of the line before it, stripped: tells apart identical lines in one scope."""
    line_number: int
    outcome: Outcome
    caught_by: str = ""
    """The profile, mode, property and anomaly that caught it."""
    diff: str = ""
    reason: str = ""
    """For an equivalent mutant, why it cannot change an answer."""

    def named_by(self, entry: Equivalent | KnownGap) -> bool:
        """Whether a reviewed entry names this mutant: same file, operator and line, and the same
        changed text and scope where the entry gives them (an entry without them names every
        variant of the operator on that line)."""
        return (entry.file == self.file and entry.operator == self.operator and entry.line == self.line
                and entry.after in ("", self.after) and entry.scope in ("", self.scope)
                and entry.follows in ("", self.follows))


@attrs.frozen
class MutationRun:
    modules: tuple[str, ...]
    profiles: tuple[str, ...]
    modes: tuple[str, ...]
    results: tuple[MutantResult, ...]
    stale: tuple[Equivalent | KnownGap, ...]
    """Reviewed entries that no mutant of this run matched, or whose mutant was caught: the list
    no longer says what is true."""
    seconds: float

    def count(self, outcome: Outcome) -> int:
        return sum(r.outcome is outcome for r in self.results)

    @property
    def perfect(self) -> bool:
        return self.count(Outcome.SURVIVED) == 0 and not self.stale


@attrs.frozen
class Served:
    """The reference of one profile, as the mutated copy serves it: the release's own by-type
    variant or another one named, answering as the release does or as Kafka documents
    (``kafka_bugs``), and judged the same way."""

    profile: Profile
    by_type: ByTypeVariant | None = None
    kafka_bugs: KafkaBugs = KafkaBugs.AS_RELEASED

    @classmethod
    def parse(cls, text: str) -> Served:
        version, flavour, *rest = text.split(":")
        bugs = KafkaBugs.DOCUMENTED if rest and rest[-1] == KafkaBugs.DOCUMENTED.value else KafkaBugs.AS_RELEASED
        variant = rest[:-1] if bugs is KafkaBugs.DOCUMENTED else rest
        return cls(profile_for(version, flavour), ByTypeVariant.parse(variant[0]) if variant else None, bugs)

    @property
    def argument(self) -> str:
        p = self.profile
        return (f"{p.version}:{p.flavour.value}" + (f":{self.by_type.value}" if self.by_type else "")
                + (f":{self.kafka_bugs.value}" if self.kafka_bugs is KafkaBugs.DOCUMENTED else ""))

    def __str__(self) -> str:
        return (str(self.profile) + (f" by-type {self.by_type.value}" if self.by_type else "")
                + (" as documented" if self.kafka_bugs is KafkaBugs.DOCUMENTED else ""))


def judged_under() -> tuple[Served, ...]:
    """Every release class; the newest release with the ground-truth by-type variant; then, for
    each of Kafka's own bugs, the newest release class having it, held to the documentation
    (so the code that answers as documented is judged too)."""
    profiles = representative_profiles()
    documented: dict[Profile, None] = {}
    for bug in KAFKA_BUGS:
        documented.setdefault(next(p for p in profiles if getattr(p, bug.flag)))
    return (*(Served(p) for p in profiles), Served(profiles[0], ByTypeVariant.GROUND_TRUTH),
            *(Served(p, kafka_bugs=KafkaBugs.DOCUMENTED) for p in documented))


def representative_profiles() -> tuple[Profile, ...]:
    """One profile per distinct set of the reference's release flags (the newest release of each),
    standard before acl, newest first: every behaviour a release can select, each once."""
    sample = profile_for(APACHE_KAFKA_RELEASES[-1], Flavour.STANDARD)
    flags = [name for name in dir(sample) if not name.startswith("_") and isinstance(getattr(sample, name), bool)]
    kinds: list[enum.Enum] = [*ResourceType, *AclOperation]
    chosen: dict[tuple[object, ...], Profile] = {}
    for version in APACHE_KAFKA_RELEASES:
        for flavour in Flavour:
            try:
                profile = profile_for(version, flavour)
            except AclValueError:
                continue
            key = (flavour, *(getattr(profile, f) for f in flags), *(profile.supports(k) for k in kinds))
            chosen[key] = profile  # releases ascend: the newest of each class stays
    return tuple(sorted(chosen.values(), key=lambda p: (p.flavour is not Flavour.STANDARD,
                                                         (-p.version.major, -p.version.minor, -p.version.patch))))


def workspace(folder: Path, name: str = "src") -> Path:
    """A copy of the installed package under ``folder/name``; returns that folder.  Two are made:
    ``src``, which Cosmic Ray edits, and ``judge``, the unmutated kit the test command imports, so
    that a run judges with the kit as it was when it started, whatever happens to the installed one."""
    src = folder / name
    top = src / "kafka_conformance"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(_folder_of("kafka_conformance"), top, ignore=skip)
    for name in ("reference", "adapters"):
        if not (top / name).exists():  # an editable install maps these folders from elsewhere
            shutil.copytree(_folder_of(f"kafka_conformance.{name}"), top / name, ignore=skip)
    return src


def _folder_of(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"cannot find the installed package {package}")
    return Path(next(iter(spec.submodule_search_locations)))


def _served(source: Path, served: Served) -> str:
    p = served.profile
    variant = ["--by-type", served.by_type.value] if served.by_type else []
    if served.kafka_bugs is KafkaBugs.DOCUMENTED:
        variant += ["--kafka-bugs", served.kafka_bugs.value]
    command = ["env", f"PYTHONPATH={source}", "PYTHONDONTWRITEBYTECODE=1", sys.executable, "-m",
               "kafka_conformance.adapters.jsonlines.serve", *variant, f"reference:{p.version}:{p.flavour.value}"]
    return "cmd:" + shlex.join(command)


def judge(source: Path, profiles: Sequence[Served], modes: Sequence[str]) -> str:
    """The reference under ``source`` (mutated) against the installed one, the coverage phase only:
    what caught it (``profile mode property: anomaly``), or "" when nothing did."""
    from kafka_conformance.adapters.jsonlines.adapter import close_shared_sessions

    no_database = Settings(database=None)  # max_examples=0 already keeps Hypothesis to the coverage phase
    try:
        for profile in profiles:
            spec = _served(source, profile)
            for mode in modes:
                try:
                    report = check_authorizer(spec, Options(max_examples=0, settings=no_database), mode=mode,
                                              stop_at_first_failure=True, kafka_bugs=profile.kafka_bugs.value)
                except TargetError as exc:
                    return f"{profile} {mode}: the mutated reference did not start ({exc})"
                for result in report.results:
                    if result.status in (Status.FAILED, Status.ERROR):
                        return f"{profile} {mode} {result.name}: {_what(result)}"
            close_shared_sessions()
    finally:
        close_shared_sessions()
    return ""


def _what(result: PropertyResult) -> str:
    cx = result.counterexample
    if cx is not None and cx.divergence is not None:
        return cx.divergence.anomaly
    if cx is not None and cx.adapter_error:
        return f"could not answer: {cx.adapter_error[:200]}"
    return result.reason or "failed"


class CosmicRayFailed(RuntimeError):
    """Cosmic Ray itself failed (its installation, its session file, its work folder): the run has no
    verdict; the message ends with the tail of its stderr."""


def _cosmic_ray(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CosmicRayFailed(f"cosmic-ray {' '.join(args)} failed (exit {done.returncode}) in {cwd}: "
                              f"{done.stderr[-2000:]}")
    return done


_JUDGE_MODULE = {"authorizer": "mutation", "broker": "mutation_broker"}
"""The test command's module per suite: what judges one mutant."""


def _config(folder: Path, suite: str, modules: Sequence[str], judged: Sequence[str]) -> Path:
    """Cosmic Ray's configuration for one suite's modules; its test command judges each mutant."""
    test = ["env", f"PYTHONPATH={folder / 'judge'}", sys.executable, "-m",
            f"kafka_conformance.selftest.{_JUDGE_MODULE[suite]}", "--source", "src", *judged]
    paths = ", ".join(json.dumps(f"src/kafka_conformance/{m}") for m in modules)
    text = (
        "[cosmic-ray]\n"
        f"module-path = [{paths}]\n"
        f"timeout = {JUDGE_TIMEOUT_S}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(shlex.join(test))}\n\n"
        "[cosmic-ray.distributor]\nname = \"local\"\n"
    )
    path = folder / f"cosmic-ray-{suite}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _inside(modules: Sequence[str], parts: Sequence[str]) -> tuple[str, ...]:
    return tuple(m for m in modules if any(m == part or m.startswith(part + "/") for part in parts))


def run_mutation(modules: Iterable[str] = MUTATED, *, modes: Sequence[str] = ("mixed",),
                 profiles: Sequence[Served] | None = None, releases: Sequence[str] | None = None,
                 work: Path | None = None,
                 equivalent: Sequence[Equivalent] = (*EQUIVALENT, *BROKER_EQUIVALENT),
                 known_gaps: Sequence[KnownGap] = (*KNOWN_GAPS, *BROKER_KNOWN_GAPS),
                 outside: Sequence[Outside] = OUTSIDE_PROTOCOL,
                 on_start: Callable[[str], None] | None = None) -> MutationRun:
    """Mutate ``modules`` (paths inside the package, files or folders) with Cosmic Ray and judge
    every mutant with the coverage phase; survivors are matched against ``equivalent``.  The
    authorizer spec's mutants are served as an authorizer under ``profiles`` in ``modes``; the
    broker spec's as the test broker under ``releases`` (:func:`.mutation_broker.broker_releases`)."""
    started = time.monotonic()
    chosen = tuple(profiles) if profiles is not None else judged_under()
    versions = tuple(releases) if releases is not None else broker_releases()
    modules = tuple(m.strip("/") for m in modules)
    suites = {"authorizer": _inside(modules, AUTHORIZER_MUTATED), "broker": _inside(modules, BROKER_MUTATED)}
    elsewhere = [m for m in modules if m not in suites["authorizer"] + suites["broker"]]
    if elsewhere:
        raise ValueError(f"{', '.join(elsewhere)}: the mutation run judges the spec served as a target (an authorizer "
                         f"or the test broker), so it mutates only what those run: {', '.join(MUTATED)} and what is "
                         "inside them")
    judged = {"authorizer": ["--profiles", ",".join(p.argument for p in chosen), "--modes", ",".join(modes)],
              "broker": ["--releases", ",".join(versions)]}
    results: list[MutantResult] = []
    with tempfile.TemporaryDirectory(prefix="kafka-conformance-mutation-") as scratch:
        folder = work if work is not None else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        src = workspace(folder)
        workspace(folder, "judge")
        missing = [m for m in modules if not (src / "kafka_conformance" / m).exists()]
        if missing:
            raise ValueError(f"no such module in the package: {', '.join(missing)}")
        for suite, part in suites.items():
            if not part:
                continue
            unmutated = judge(src, chosen[:1], modes[:1]) if suite == "authorizer" else judge_broker(src, versions)
            if unmutated:
                raise RuntimeError(f"the unmutated reference, served, does not conform to itself: {unmutated}")
            if on_start is not None:
                under = (f"{len(chosen)} profiles in {', '.join(modes)}" if suite == "authorizer" else
                         f"{len(versions)} broker releases")
                on_start(f"mutating {', '.join(part)}; judging under {under}")
            config = _config(folder, suite, part, judged[suite])
            session = f"session-{suite}.sqlite"
            _cosmic_ray("init", str(config), session, cwd=folder)
            skip_not_run(folder / session, folder, outside)
            _cosmic_ray("exec", str(config), session, cwd=folder)
            results += _results(_cosmic_ray("dump", session, cwd=folder).stdout, src)
    matched, stale = match_reviewed(results, (*equivalent, *known_gaps), modules)
    judged_under_text = (*(str(p) for p in chosen if suites["authorizer"]),
                         *(f"broker@{v}" for v in versions if suites["broker"]))
    return MutationRun(modules, judged_under_text, tuple(modes), matched, stale, time.monotonic() - started)


def _after(diff: str, fallback: str) -> str:
    added = [d[1:].strip() for d in diff.splitlines() if d.startswith("+") and not d.startswith("+++")]
    return added[0] if added else fallback


def _results(dumped: str, src: Path) -> tuple[MutantResult, ...]:
    out: list[MutantResult] = []
    lines_of: dict[str, list[str]] = {}
    scopes_of: dict[str, list[tuple[str, Span]]] = {}
    for line in dumped.splitlines():
        if not line.strip():
            continue
        item, result = json.loads(line)
        (mutation,) = item["mutations"]
        path = Path(mutation["module_path"])
        file = path.relative_to("src/kafka_conformance").as_posix() if not path.is_absolute() else \
            path.relative_to(src / "kafka_conformance").as_posix()
        text = lines_of.setdefault(file, (src / "kafka_conformance" / file).read_text(encoding="utf-8").splitlines())
        number = mutation["start_pos"][0]
        source_line = text[number - 1].strip()
        operator = mutation["operator_name"].removeprefix("core/")
        scope = scope_at(scopes_of.setdefault(file, scopes(src / "kafka_conformance" / file)), number)
        if result is None:
            raise RuntimeError(f"cosmic-ray left a mutant unjudged: {file}:{number} {operator}")
        output = (result.get("output") or "").strip()
        caught = result.get("test_outcome") == "killed"
        skipped = result.get("worker_outcome") == "skipped"
        removed = "(removed)" if operator.startswith("RemoveDecorator") else source_line
        follows = text[number - 2].strip() if number > 1 else ""
        out.append(MutantResult(file, operator, source_line, _after(result.get("diff") or "", removed), scope, follows,
                                number,
                                Outcome.NOT_RUN if skipped else Outcome.CAUGHT if caught else Outcome.SURVIVED,
                                caught_by=output.splitlines()[-1] if caught and output else "",
                                diff=result.get("diff") or "",
                                reason=not_run_reason(output) if skipped else ""))
    return tuple(out)


def match_reviewed(results: Sequence[MutantResult], equivalent: Sequence[Equivalent | KnownGap],
                   modules: Sequence[str]) -> tuple[tuple[MutantResult, ...], tuple[Equivalent | KnownGap, ...]]:
    """The results with reviewed survivors marked equivalent or known gaps, and the stale entries of
    the modules run (an entry naming no mutant, or one that was caught)."""
    out = []
    named: dict[int, list[MutantResult]] = {id(e): [] for e in equivalent}
    for r in results:
        entry = next((e for e in equivalent if r.named_by(e)), None)
        if entry is not None:
            named[id(entry)].append(r)
            if r.outcome is Outcome.SURVIVED and isinstance(entry, KnownGap):
                r = attrs.evolve(r, outcome=Outcome.KNOWN_GAP, reason=entry.gap)
            elif r.outcome is Outcome.SURVIVED and isinstance(entry, Equivalent):
                r = attrs.evolve(r, outcome=Outcome.EQUIVALENT, reason=entry.reason)
        out.append(r)
    in_scope = [e for e in equivalent if any(e.file == m or e.file.startswith(m.rstrip("/") + "/") for m in modules)]
    # Stale: names no mutant, or names one that was caught (its claim is then false).
    stale = tuple(e for e in in_scope
                  if not named[id(e)] or any(r.outcome is Outcome.CAUGHT for r in named[id(e)]))
    return tuple(out), stale


def to_text(run: MutationRun) -> str:
    lines = [
        f"mutation run of the reference ({', '.join(run.modules)}): {len(run.results)} mutants: "
        f"{run.count(Outcome.CAUGHT)} caught by the coverage phase, {run.count(Outcome.EQUIVALENT)} reviewed "
        f"equivalent, {run.count(Outcome.NOT_RUN)} equivalent by construction (not run), "
        f"{run.count(Outcome.KNOWN_GAP)} known gaps, {run.count(Outcome.SURVIVED)} survived; {run.seconds:.0f} s",
        f"  judged under {len(run.profiles)} profiles ({', '.join(run.profiles)}) in {', '.join(run.modes)}",
    ]
    gaps: dict[str, list[MutantResult]] = {}
    for r in run.results:
        if r.outcome is Outcome.KNOWN_GAP:
            gaps.setdefault(r.reason, []).append(r)
    for gap, found in gaps.items():
        lines.append(f"  KNOWN GAP ({len(found)} mutants): {gap}")
    for r in run.results:
        if r.outcome is Outcome.SURVIVED:
            lines.append(f"  SURVIVED {r.file}:{r.line_number} {r.operator}: {r.line}")
            lines.extend("      " + d for d in r.diff.splitlines() if d.startswith(("+", "-")) and not d.startswith(("+++", "---")))
    for e in run.stale:
        lines.append(f"  STALE entry (its mutant is caught now, or no longer exists): {e.file} {e.operator}: {e.line}")
    verdict = ("every mutant caught, equivalent or a known gap" if run.perfect else
               "survivors or stale entries above: close the gap, or review the mutant (docs/selftest.md)")
    lines.append("verdict: " + verdict)
    return "\n".join(lines)


def _main(argv: Sequence[str] | None = None) -> int:
    """Cosmic Ray's test command: exit 0 when the mutated reference passes (the mutant survives)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m kafka_conformance.selftest.mutation")
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--profiles", required=True, help="VERSION:FLAVOUR[:BY-TYPE-VARIANT],...")
    parser.add_argument("--modes", default="mixed")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modes.split(",") if m not in MODES]
    if unknown:
        parser.error(f"unknown mode {unknown[0]!r}")
    profiles = [Served.parse(p) for p in args.profiles.split(",")]
    caught = judge(args.source.resolve(), profiles, args.modes.split(","))
    print(f"caught: {caught}" if caught else "not caught")
    return 1 if caught else 0


if __name__ == "__main__":
    sys.exit(_main())
