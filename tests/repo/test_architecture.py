"""The import rules of ARCHITECTURE.md, enforced by parsing every module's imports."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {
    "reference": "kafka_conformance.reference",
    "adapters": "kafka_conformance.adapters",
    "corpora": "kafka_conformance.corpora",
    "conformance": "kafka_conformance",
}
# Which of our parts each part may import (by folder).
ALLOWED = {
    "reference": {"reference"},
    "adapters": {"reference", "adapters"},
    "conformance": {"reference", "adapters", "conformance"},
    "corpora": {"reference", "adapters", "conformance", "corpora"},
}
CLI_SHELL = "conformance.cli"
"""The command-line shell (conformance/cli/) sits on top of every part: it may also
import corpora, but only inside the function that runs the command."""

# Which units of ours each unit may import besides itself.  A unit is a subpackage
# (``reference.authorizer``) or a top-level module (``reference.errors``); ``X.*`` is
# every unit of part X.  The table is ARCHITECTURE.md's, line for line.
UNITS: dict[str, set[str]] = {
    # reference: the two specs never import each other; engines sit beside the spec
    "reference.__init__": {"reference.*"},
    "reference.errors": set(),
    "reference.bounded": set(),
    "reference.releases": {"reference.errors"},
    "reference.message_format": set(),
    "reference.acl": {"reference.errors"},
    "reference.aclfiles": {"reference.acl", "reference.errors", "reference.bounded"},
    "reference.authorizer": {"reference.acl", "reference.errors", "reference.releases"},
    "reference.indexed": {"reference.authorizer", "reference.acl", "reference.errors", "reference.releases"},
    "reference.requests": {"reference.authorizer", "reference.acl", "reference.errors", "reference.releases"},
    "reference.broker": {"reference.errors", "reference.releases"},
    "reference.traces": {"reference.broker", "reference.errors", "reference.releases"},
    "reference.cluster": {"reference.broker", "reference.traces", "reference.errors", "reference.releases"},
    "reference.producer": {"reference.broker", "reference.traces", "reference.errors", "reference.releases"},
    "reference.delivery": {"reference.broker", "reference.traces", "reference.producer", "reference.errors", "reference.releases"},
    "reference.transactions": {"reference.broker", "reference.errors", "reference.releases"},
    # adapters
    "adapters.__init__": set(),
    "adapters.protocol": {"reference.*"},
    "adapters.reaper": set(),
    "adapters.case": {"reference.*", "adapters.protocol", "adapters.reaper"},
    "adapters.sandbox": {"adapters.protocol", "adapters.reaper"},
    "adapters.timed": {"adapters.protocol", "adapters.case", "adapters.sandbox"},
    "adapters.reference_adapter": {"reference.*", "adapters.protocol"},
    # serve.py hosts the kit's reference, or a Python target named in the one grammar, behind the protocol
    "adapters.jsonlines": {"reference.*", "adapters.protocol", "adapters.case", "adapters.reaper", "adapters.timed",
                           "adapters.reference_adapter", "adapters.targets"},
    "adapters.jvm": {"reference.*", "adapters.protocol", "adapters.case", "adapters.reaper"},
    "adapters.brokers": {"reference.*", "adapters.reaper", "adapters.jvm", "adapters.targets"},
    "adapters.clients": {"reference.*", "adapters.jvm", "adapters.reaper"},
    "adapters.toolcache": set(),
    "adapters.go": {"reference.*", "adapters.reaper", "adapters.brokers", "adapters.clients", "adapters.toolcache"},
    "adapters.node": {"reference.*", "adapters.clients", "adapters.toolcache"},
    # the one target grammar and its one error: below every suite, above only the reference's releases
    "adapters.targets": {"reference.releases", "reference.errors"},
    # conformance: the three suites never import each other
    "conformance.__init__": {"conformance.authorizer", "conformance.producer", "conformance.broker", "conformance.report",
                             "conformance.requests", "conformance.transactions", "conformance.options"},
    "conformance.casefiles": {"reference.bounded"},
    # which releases answer a finding alike, as one value for every suite
    "conformance.agreement": {"reference.releases"},
    # the trust boundary: passwords held and masked, files written whole; below every suite
    "conformance.credentials": set(),
    "conformance.outputs": {"conformance.credentials"},
    # public strategies for users' own tests: the suites' value types and strategies, read-only
    "conformance.strategies": {"reference.*", "conformance.authorizer", "conformance.producer", "conformance.broker"},
    "conformance.format_report": {"reference.*"},
    # what every check_* callable shares, as one value: below every suite
    "conformance.options": {"adapters.targets", "adapters.timed", "conformance.terminal"},
    "conformance.authorizer": {"conformance.options", "reference.*", "adapters.targets", "conformance.agreement",
                               "adapters.protocol", "adapters.case", "adapters.reference_adapter", "adapters.jsonlines",
                               "adapters.jvm", "adapters.timed", "adapters.sandbox", "adapters.reaper", "conformance.casefiles",
                               "conformance.__init__", "conformance.terminal", "conformance.outputs"},
    "conformance.producer": {"conformance.options", "reference.*", "adapters.targets",
                             "adapters.brokers", "adapters.clients", "adapters.go", "adapters.node", "adapters.reaper",
                             "conformance.casefiles", "conformance.terminal", "conformance.outputs"},
    "conformance.broker": {"conformance.options", "reference.*", "adapters.targets", "conformance.agreement",
                           "adapters.brokers", "adapters.go", "adapters.reaper", "conformance.casefiles",
                           "conformance.terminal", "conformance.outputs", "conformance.credentials"},
    # what a person sees while a suite runs: the suites report to it, it imports none of them
    "conformance.terminal": {"conformance.credentials"},
    "conformance.requests": {"conformance.options", "reference.*", "adapters.targets",
                             "adapters.brokers", "adapters.go", "adapters.reaper", "conformance.terminal",
                             "conformance.credentials"},
    "conformance.transactions": {"conformance.options", "reference.*", "adapters.targets", "adapters.brokers", "adapters.go",
                                 "adapters.clients", "adapters.node", "conformance.terminal"},
    "conformance.selftest": {"conformance.options", "reference.*", "adapters.protocol", "adapters.targets", "adapters.jsonlines",
                             "conformance.authorizer", "conformance.broker", "adapters.brokers", "adapters.reaper"},
    # the report sits on the suites (it reads their report values) and never the reverse
    "conformance.report": {"conformance.options", "reference.*", "adapters.targets", "conformance.agreement",
                           "adapters.jvm", "adapters.brokers", "adapters.clients", "adapters.go", "conformance.authorizer",
                           "conformance.producer", "conformance.broker", "conformance.transactions",
                           "conformance.requests", "conformance.casefiles", "conformance.__init__",
                           "conformance.terminal", "conformance.outputs", "conformance.credentials"},
    "conformance.pytest_wire": {"conformance.options", "conformance.producer", "conformance.broker", "reference.releases",
                                "adapters.targets"},
    "conformance.pytest_plugin": {"conformance.options", "conformance.authorizer", "conformance.pytest_wire", "adapters.reaper"},
    "conformance.cli": {"reference.*", "adapters.*", "conformance.*"},
    # corpora sits on top of everything
    **{f"corpora.{name}": {"reference.*", "adapters.*", "conformance.*", "corpora.*"} for name in (
        "__init__", "aggregate", "campaign", "fuzz", "generate", "hypothesis_draw", "manifest", "parquet_io",
        "shards", "shrink", "spark_job", "summary", "suites", "verdicts")},
}
HEAVY = ("pyspark", "py4j", "kafka", "confluent_kafka", "aiokafka", "pyarrow", "playwright", "rich")


def _part_of(module: str) -> str | None:
    if not module.startswith("kafka_conformance"):
        return None
    for folder in ("reference", "adapters", "corpora"):
        if module == FOLDERS[folder] or module.startswith(FOLDERS[folder] + "."):
            return folder
    return "conformance"


def _imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, module, at top level) for every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module, id(node) in top))
    return found


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_import_rules(folder: str) -> None:
    violations = []
    for path in _files(folder):
        shell = _unit_of_file(path) == CLI_SHELL
        for line, module, top in _imports(path):
            part = _part_of(module)
            if shell and part == "corpora" and not top:
                continue
            if part is not None and part not in ALLOWED[folder]:
                violations.append(f"{path.relative_to(ROOT)}:{line} imports {module} ({folder} may not import {part})")
    assert not violations, "\n".join(violations)


def _unit_of_file(path: Path) -> str:
    rel = path.relative_to(ROOT)
    inner = rel.parts[1:]
    return f"{rel.parts[0]}.{inner[0] if len(inner) > 1 else Path(inner[0]).stem}"


def _unit_of_module(module: str, names: tuple[str, ...] = ()) -> list[str]:
    """The units an import statement reaches: ``from kafka_conformance.reference import acl``
    reaches reference.acl; ``from kafka_conformance.reference import Action`` reaches its __init__."""
    folder = _part_of(module)
    if folder is None:
        return []
    prefix = FOLDERS[folder]
    rest = module[len(prefix) + 1:] if module != prefix else ""
    if rest:
        return [f"{folder}.{rest.split('.')[0]}"]
    found = []
    for name in names or ("__init__",):
        sub = ROOT / folder / name
        found.append(f"{folder}.{name}" if sub.is_dir() or sub.with_suffix(".py").is_file() else f"{folder}.__init__")
    return found


def _unit_imports(path: Path) -> list[tuple[int, str, bool]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, u, id(node) in top) for a in node.names for u in _unit_of_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = tuple(a.name for a in node.names)
            found += [(node.lineno, u, id(node) in top) for u in _unit_of_module(node.module, names)]
    return found


def _allowed(unit: str, target: str) -> bool:
    rules = UNITS[unit]
    return target == unit or target in rules or f"{target.split('.')[0]}.*" in rules


def test_every_unit_has_a_rule_and_architecture_md_points_here() -> None:
    """The unit-by-unit rules live here, once; ARCHITECTURE.md says why, names the parts and
    points to this file rather than copying the table (copies drift)."""
    units = {_unit_of_file(p) for folder in FOLDERS for p in _files(folder)}
    assert units == set(UNITS), f"units without a rule: {sorted(units - set(UNITS))}; rules without a unit: {sorted(set(UNITS) - units)}"
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "tests/repo/test_architecture.py" in text
    for folder in FOLDERS:
        assert f"**`{folder}/`" in text, f"ARCHITECTURE.md does not describe {folder}/"
    assert len(text.splitlines()) <= 110, "ARCHITECTURE.md is prose and a picture, not a second copy of the rules"


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_import_rules_between_units(folder: str) -> None:
    """The finer rules: subpackage to subpackage, as ARCHITECTURE.md draws them."""
    violations = []
    for path in _files(folder):
        unit = _unit_of_file(path)
        for line, target, top in _unit_imports(path):
            if unit == CLI_SHELL and target.startswith("corpora.") and not top:
                continue
            if not _allowed(unit, target):
                violations.append(f"{path.relative_to(ROOT)}:{line}: {unit} may not import {target}")
    assert not violations, "\n".join(violations)


def test_every_subpackage_says_what_it_owns() -> None:
    missing = []
    for folder in FOLDERS:
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            if not ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))):
                missing.append(str(init.relative_to(ROOT)))
    assert not missing, f"subpackages without a docstring: {missing}"


def test_folders_and_modules_stay_small() -> None:
    """About 15 modules per folder, 500 lines per module: past that, a concept wants its own folder."""
    too_many, too_long = [], []
    for folder in FOLDERS:
        for directory in {p.parent for p in (ROOT / folder).rglob("*.py")}:
            modules = [p for p in directory.glob("*.py") if p.name != "__init__.py"]
            if len(modules) > 15:
                too_many.append(f"{directory.relative_to(ROOT)}: {len(modules)} modules")
        for path in _files(folder):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > 500:
                too_long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not too_many and not too_long, too_many + too_long


def test_packaging_lists_every_subpackage() -> None:
    """pyproject lists packages by hand (the parts are mapped onto one namespace); a new folder must be in it."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'^\s+"(kafka_conformance[\w.]*)",$', text, flags=re.MULTILINE))
    present = set()
    for folder, prefix in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            present.add(".".join((prefix, *rel)))
    assert listed == present, (sorted(present - listed), sorted(listed - present))


def test_generic_top_level_names_are_not_imported() -> None:
    """Our folders are only ever imported under kafka_conformance.*."""
    bad = []
    for folder in FOLDERS:
        for path in _files(folder):
            for line, module, _ in _imports(path):
                if module.split(".")[0] in ("reference", "adapters", "corpora", "conformance"):
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def test_heavy_dependencies_only_inside_functions_outside_their_modules() -> None:
    """pyspark, py4j and Kafka clients are optional: never imported at module level."""
    bad = []
    for folder in FOLDERS:
        for path in _files(folder):
            for line, module, top in _imports(path):
                if top and module.split(".")[0] in HEAVY:
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module} at module level")
    assert not bad, "\n".join(bad)


def test_import_kafka_conformance_is_light() -> None:
    code = (
        "import sys, kafka_conformance, kafka_conformance.reference, kafka_conformance.cli.main;"
        f"heavy = [m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m == 'hypothesis'];"
        "print(heavy); sys.exit(1 if heavy else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_generic_packages_installed() -> None:
    """Only kafka_conformance lands in site-packages, never a top-level `reference` or `adapters`."""
    code = (
        "import importlib.util, sys;"
        "found = [n for n in ('reference', 'adapters', 'corpora', 'conformance') "
        "if (s := importlib.util.find_spec(n)) is not None and 'site-packages' in (s.origin or '')];"
        "print(found); sys.exit(1 if found else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd="/")
    assert done.returncode == 0, done.stdout
