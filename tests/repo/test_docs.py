"""Documentation that must stay true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kafka_conformance.authorizer.anomalies import CATALOGUE
from kafka_conformance.authorizer.properties import PROPERTIES

ROOT = Path(__file__).resolve().parents[2]


def _documented(section: str) -> set[str]:
    text = (ROOT / "docs" / "anomalies.md").read_text()
    body = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", body, flags=re.MULTILINE))


def test_anomaly_catalogues_are_documented() -> None:
    from kafka_conformance.broker.compare import BROKER_ANOMALIES
    from kafka_conformance.reference.delivery.verdicts import DELIVERY_ANOMALIES

    for section, names in (("Authorizers", CATALOGUE), ("Producer delivery", DELIVERY_ANOMALIES), ("Brokers", BROKER_ANOMALIES)):
        documented = _documented(section)
        assert documented == set(names), (section, sorted(documented ^ set(names)))


def _ci_command(marker: str) -> str:
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip().startswith(marker)]
    assert len(lines) == 1, (marker, lines)
    return lines[0]


def _ci_test_command() -> str:
    return _ci_command("python3 -m tox run")


def test_readme_names_the_two_setup_commands_used_by_ci() -> None:
    """The README's first command (install, then the main job: the report) and its test command are what CI runs."""
    readme = (ROOT / "README.md").read_text()
    assert _ci_test_command() in readme
    main_job = _ci_command("kafka-conformance ")
    assert main_job.startswith("kafka-conformance report"), main_job
    assert f"python3 -m pip install -e '.[dev]' && {main_job}" in readme


def test_the_readme_first_command_writes_the_page_it_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The main job, run as CI runs it (in its own folder here), holds on the embedded defaults and says where the page is."""
    import shlex

    from kafka_conformance.cli.main import main

    argv = shlex.split(_ci_command("kafka-conformance "))[1:]
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "report: kafka-conformance-report/index.html" in out and "verdict: holds" in out
    assert "[a demonstration: a planted bug, not counted]" in out  # what a finding looks like, not counted
    page = (tmp_path / "kafka-conformance-report" / "index.html").read_text(encoding="utf-8")
    assert page.count("<table>") >= 2 and '<td class="holds">' in page  # the matrix of what ran: authorizer, producer
    assert 'id="findings"' in page and "A demonstration:" in page


OUTSIDE_THE_GATE = {"sweeps": ("kafka-brokers", "tests/wire_brokers/test_kafka_broker.py"),
                    "wire_go": ("go", "tests/wire_brokers/test_go_light.py")}
"""Heavy sweeps with a tox environment of their own, each with its light version in the gate."""


def test_every_test_directory_runs_in_the_ci_gate() -> None:
    """A suite moved out of the default environment must land in another gate environment, never nowhere;
    a sweep kept outside the gate has its own tox environment and a light version inside it."""
    import configparser

    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    envs = re.search(r"-e (\S+)", _ci_test_command()).group(1).split(",")  # type: ignore[union-attr]
    covered: set[str] = set()
    every = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.rglob("test_*.py"))}
    for env in envs:
        section = f"testenv:{env}" if tox.has_section(f"testenv:{env}") and tox.has_option(f"testenv:{env}", "commands") else "testenv"
        found = re.search(r"pytest \{posargs:([^}]*)\}", tox.get(section, "commands"))
        if found is None:
            continue  # lint
        args = found.group(1).split()
        ignored = {a.removeprefix("--ignore=tests/") for a in args if a.startswith("--ignore=tests/")}
        dirs = {a.removeprefix("tests/") for a in args if a.startswith("tests/")}
        covered |= (every - ignored) if "tests" in args else dirs
    for folder, (env, light) in OUTSIDE_THE_GATE.items():
        assert f"tests/{folder}" in tox.get(f"testenv:{env}", "commands"), (folder, env)
        assert (ROOT / light).is_file(), light
        covered.add(folder)
    assert every <= covered, f"test directories no gate environment runs: {sorted(every - covered)}"


def test_property_names_are_stable_identifiers() -> None:
    for prop in PROPERTIES:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", prop.name), prop.name


def test_classifiers_match_tox_envs() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    tox = (ROOT / "tox.ini").read_text()
    for minor in ("11", "12", "13"):
        assert f"Programming Language :: Python :: 3.{minor}" in pyproject
        assert f"py3{minor}" in tox


def _doc_files() -> list[Path]:
    docs = sorted((ROOT / "docs").glob("*.md"))
    return [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *docs, *sorted((ROOT / "benchmarks").glob("*.md"))]


NOT_IMPORT_PATHS = {
    "kafka_conformance.targets",  # the entry-point group third parties register under
    "kafka_conformance.librdkafka",  # a logger name
}


def test_every_import_path_in_the_docs_resolves() -> None:
    """A dotted ``kafka_conformance.x.y`` in the docs names a module, or an attribute of one."""
    import importlib

    bad = []
    for doc in _doc_files():
        for dotted in sorted(set(re.findall(r"\bkafka_conformance(?:\.\w+)+", doc.read_text(encoding="utf-8")))):
            if dotted in NOT_IMPORT_PATHS or dotted.startswith("kafka_conformance.jvm."):  # Java classes of our shim
                continue
            parts = dotted.split(".")
            for cut in range(len(parts), 0, -1):
                try:
                    obj: object = importlib.import_module(".".join(parts[:cut]))
                except ImportError:
                    continue
                try:
                    for attr in parts[cut:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    bad.append(f"{doc.name}: {dotted}")
                break
            else:
                bad.append(f"{doc.name}: {dotted}")
    assert not bad, bad


def test_every_source_path_in_the_docs_exists() -> None:
    bad = []
    for doc in _doc_files():
        text = doc.read_text(encoding="utf-8")
        folders = "reference|conformance|adapters|corpora|tests|examples|benchmarks"
        pattern = rf"(?<![\w/~.-])((?:{folders})/[\w/.-]*(?:\.py|\.java|\.md|\.json|/))(?![\w*])"
        for path in sorted(set(re.findall(pattern, text))):
            if not (ROOT / path).exists():
                bad.append(f"{doc.name}: {path}")
    assert not bad, bad


def test_every_input_class_is_documented() -> None:
    from kafka_conformance.authorizer.domain.classes import DOMAIN

    text = (ROOT / "docs" / "input-domain.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+:[a-z0-9-]+)` \|", text, flags=re.MULTILINE))
    assert documented == {c.name for c in DOMAIN}, sorted(documented ^ {c.name for c in DOMAIN})
