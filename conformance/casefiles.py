"""The JSON files the kit writes (saved cases of every suite, run and corpus
manifests): reading them with errors that name the file and the line, and
routing a file by its ``format`` field.

Shared by the three suites and the corpora, so that it belongs to none of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["case_format", "read_json_file"]


def read_json_file(path: str | Path, fmt: str, kind: str) -> dict[str, Any]:
    """The JSON object in ``path`` whose ``format`` field is ``fmt``: every saved case and
    manifest of the kit is one.  ValueError names the file, the line, and what is wrong."""
    p = Path(path)
    try:
        body = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{p}: cannot read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}:{exc.lineno}: not valid JSON: {exc.msg}") from exc
    if not isinstance(body, dict) or body.get("format") != fmt:
        raise ValueError(f"{p}: not a {kind}")
    return body


def case_format(path: str | Path) -> str | None:
    """The ``format`` field of a saved case file (None when unreadable): how ``replay`` routes it."""
    try:
        body = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    fmt = body.get("format") if isinstance(body, dict) else None
    return fmt if isinstance(fmt, str) else None
