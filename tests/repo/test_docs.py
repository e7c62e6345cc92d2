"""Documentation that must stay true."""

from __future__ import annotations

import re
from pathlib import Path

from kafka_conformance.anomalies import CATALOGUE
from kafka_conformance.properties import PROPERTIES

ROOT = Path(__file__).resolve().parents[2]


def test_anomaly_catalogue_is_documented() -> None:
    text = (ROOT / "docs" / "anomalies.md").read_text()
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, flags=re.MULTILINE))
    assert documented == set(CATALOGUE) | set(), sorted(documented ^ set(CATALOGUE))


def test_readme_names_the_two_setup_commands_used_by_ci() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = "python3 -m tox run -e py311,lint,jvm"
    assert command in readme and command in ci
    assert "kafka-conformance check authorizer --target reference" in readme


def test_property_names_are_stable_identifiers() -> None:
    for prop in PROPERTIES:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", prop.name), prop.name


def test_classifiers_match_tox_envs() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    tox = (ROOT / "tox.ini").read_text()
    for minor in ("11", "12", "13"):
        assert f"Programming Language :: Python :: 3.{minor}" in pyproject
        assert f"py3{minor}" in tox
