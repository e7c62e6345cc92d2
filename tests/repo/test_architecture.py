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
CLI_SHELL = re.compile(r"cli(_\w+)?\.py")
"""The command-line shell (conformance/cli.py, conformance/cli_*.py) sits on top of every part:
it may also import corpora, but only inside the function that runs the command."""
HEAVY = ("pyspark", "py4j", "kafka", "confluent_kafka", "aiokafka", "pyarrow")


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
        shell = folder == "conformance" and CLI_SHELL.fullmatch(path.name) is not None
        for line, module, top in _imports(path):
            part = _part_of(module)
            if shell and part == "corpora" and not top:
                continue
            if part is not None and part not in ALLOWED[folder]:
                violations.append(f"{path.relative_to(ROOT)}:{line} imports {module} ({folder} may not import {part})")
    assert not violations, "\n".join(violations)


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
        "import sys, kafka_conformance, kafka_conformance.reference, kafka_conformance.cli;"
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
