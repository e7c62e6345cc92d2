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
                    "wire_go": ("go", "tests/wire_brokers/test_go_light.py"),
                    "wire_node": ("node", "tests/wire_brokers/test_node_light.py")}
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
    docs = [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "spec").glob("*.md"))]
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


# -- the spec is self-contained (issue 34) ------------------------------------------------------------

CODE_FOLDERS = ("reference", "conformance", "adapters", "corpora", "benchmarks", "tests")
"""The folders whose docstrings and comments cite documents."""


def _git_files(*patterns: str) -> list[Path]:
    """The repository's files (tracked, and new ones not ignored) matching ``patterns``."""
    import subprocess

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of the repository's files")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", *patterns],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode("utf-8")
    return [ROOT / name for name in sorted(set(listed.split("\0"))) if name and (ROOT / name).is_file()]


def _prose(source: str) -> list[tuple[int, str]]:
    """The docstrings (any string standing alone as a statement) and comments of a module, with their line."""
    import ast
    import io
    import tokenize

    found = [(node.lineno, node.value.value) for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
    found += [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
              if token.type == tokenize.COMMENT]
    return found


def test_every_docs_path_cited_in_a_docstring_or_comment_exists() -> None:
    """A ``docs/...`` path in the prose of the code names a file (or folder) of the repository."""
    bad = []
    for path in _git_files(*(f"{folder}/*.py" for folder in CODE_FOLDERS)):
        for line, text in _prose(path.read_text(encoding="utf-8")):
            for cited in re.findall(r"(?<![\w/.-])docs/[\w./-]*\w", text):
                if not (ROOT / cited).exists():
                    bad.append(f"{path.relative_to(ROOT)}:{line}: {cited}")
    assert not bad, bad


OUTSIDE_CITATION = re.compile(r"\b(?:memo\s*\(?§|facts\s*\(?§|facts\s+file)", re.IGNORECASE)
"""A section of a document outside the repository: the old authorizer memo or idempotence facts file."""

def test_no_file_cites_a_document_outside_the_repository() -> None:
    """The executable spec is checked against ``docs/spec/authorization.md``, ``docs/spec/idempotence.md``
    and ``docs/spec/transactions.md``,
    never against a memo or a facts file that lives somewhere else."""
    bad = []
    for path in _git_files("*.py", "*.md"):
        name = path.relative_to(ROOT).as_posix()
        if name == "tests/repo/test_docs.py":
            continue  # this test names what it looks for
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE_CITATION.search(line):
                bad.append(f"{name}:{number}: {line.strip()}")
    assert not bad, bad


def test_the_spec_documents_cover_every_section_the_code_cites() -> None:
    """Every section of a spec document (``docs/spec/``) that the code cites is a heading (or a numbered item) of it."""
    headings: dict[str, set[str]] = {}
    for doc in sorted((ROOT / "docs" / "spec").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        headings[f"docs/spec/{doc.name}"] = set(re.findall(r"^(?:#+|-) (§[\d.]+) ", text, flags=re.MULTILINE))
    assert set(headings) == {"docs/spec/authorization.md", "docs/spec/idempotence.md", "docs/spec/transactions.md"}, \
        sorted(headings)
    bad = []
    for path in _git_files(*(f"{folder}/*.py" for folder in CODE_FOLDERS)):
        for line, text in _prose(path.read_text(encoding="utf-8")):
            for doc, section in re.findall(r"(docs/spec/[\w-]+\.md)``?\s+(§[\d.]*\d)", text):
                if section not in headings.get(doc, set()):
                    bad.append(f"{path.relative_to(ROOT)}:{line}: {doc} {section}")
    assert not bad, bad


MACHINE_PATH = re.compile(r"(?:^|[^\w.~-])/(?:work|root|home|Users)/|\b[A-Za-z]:(?:\\\\|\\|/)+Users\b")
"""An absolute path of somebody's machine: a work tree, a home folder (Linux, macOS, Windows)."""

MACHINE_PATH_ALLOWED = {"tests/unit/test_trust_boundaries.py": 1}
"""Files that hold such a path on purpose, with how many lines do: the trust tests feed the kit a message
shaped like a Windows path, as input to escape, not as a place on any machine."""


def test_no_tracked_file_names_a_path_on_a_developers_machine() -> None:
    """Nothing the repository ships names a folder of the machine it was written on."""
    found: dict[str, list[str]] = {}
    for path in _git_files("*.py", "*.md", "*.ini", "*.toml", "*.json", "*.txt"):
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.setdefault(name, []).append(f"{name}:{number}: {line.strip()[:160]}")
    bad = [hit for name, hits in found.items() if len(hits) != MACHINE_PATH_ALLOWED.get(name, 0) for hit in hits]
    assert not bad, bad
    assert {name: len(hits) for name, hits in found.items()} == MACHINE_PATH_ALLOWED
