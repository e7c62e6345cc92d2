"""The README's Python example runs as written (with a real ACL dump)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_readme_python_example_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\nfrom kafka_conformance.reference import \((.*?)```", readme, re.S)
    assert block is not None
    code = "from kafka_conformance.reference import (" + block.group(1)
    (tmp_path / "acls.txt").write_text((ROOT / "tests" / "data" / "acls" / "kafka-3.9-list.txt").read_text())
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "ALLOWED because" in out and "InitProducerId" in out
