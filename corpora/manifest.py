"""Run and corpus manifests: the JSON file that says what a directory holds.

A directory that already holds shards is resumed only when its manifest equals
the new one field by field; otherwise it is refused with the fields that
differ, so no shard of one run is ever counted in another.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kafka_conformance.casefiles import read_json_file

__all__ = ["IncompatibleDirectory", "read_manifest", "write_or_check_manifest"]


class IncompatibleDirectory(ValueError):
    """The output directory holds another run or corpus (the CLI's exit code 2)."""


def read_manifest(path: Path, fmt: str) -> dict[str, Any]:
    return read_json_file(path, fmt, f"{fmt} manifest")


def write_or_check_manifest(path: Path, body: dict[str, Any]) -> bool:
    """Write ``body`` to ``path``, or check that the one there is equal.  True when
    resuming (a compatible manifest was already there)."""
    if path.exists():
        old = read_manifest(path, body["format"])
        differ = [f"{k}: {old.get(k)!r} there, {body.get(k)!r} now" for k in sorted({*old, *body}) if old.get(k) != body.get(k)]
        if differ:
            raise IncompatibleDirectory(
                f"{path.parent} already holds a different {body['format']} ({'; '.join(differ)}); "
                "choose another directory or remove it"
            )
        return True
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return False
