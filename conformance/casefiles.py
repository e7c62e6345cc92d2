"""The JSON files the kit writes (saved cases of every suite, run and corpus
manifests): reading them with errors that name the file and the line, and
routing a file by its ``format`` field.

Shared by the three suites and the corpora, so that it belongs to none of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kafka_conformance.reference.bounded import MAX_DOCUMENT_BYTES, BoundsError, json_loads, read_bytes

__all__ = ["case_format", "known_fields", "read_json_file"]


def read_json_file(path: str | Path, fmt: str, kind: str) -> dict[str, Any]:
    """The JSON object in ``path`` whose ``format`` field is ``fmt``: every saved case and
    manifest of the kit is one.  ValueError names the file, the line, and what is wrong."""
    p = Path(path)
    try:
        body = json_loads(read_bytes(p, limit=_LIMIT).decode("utf-8"), str(p))
    except OSError as exc:
        raise ValueError(f"{p}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}: not UTF-8 (byte {exc.start}); a saved case is UTF-8 JSON") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}:{exc.lineno}: not valid JSON: {exc.msg}") from exc
    except BoundsError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(body, dict):
        raise ValueError(f"{p}: not a {kind}: the file holds a JSON {type(body).__name__}, not an object")
    if body.get("format") != fmt:
        found = body.get("format")
        raise ValueError(f"{p}: not a {kind}: its format field is {str(found)[:80]!r}, expected {fmt!r}")
    return body


_LIMIT = min(MAX_DOCUMENT_BYTES, 64 * 1024 * 1024)
"""A saved case is a minimal counterexample: kilobytes, never tens of megabytes."""


def case_format(path: str | Path) -> str | None:
    """The ``format`` field of a saved case file (None when unreadable): how ``replay`` routes it."""
    try:
        body = json_loads(read_bytes(path, limit=_LIMIT).decode("utf-8"), str(path))
    except (OSError, ValueError):
        return None
    fmt = body.get("format") if isinstance(body, dict) else None
    return fmt if isinstance(fmt, str) else None


def known_fields(body: Any, allowed: frozenset[str], where: str) -> None:
    """Refuse an object with a field this kit never writes: a misspelt key must not make a case
    run as an emptier one (and ``replay`` call it FIXED)."""
    if not isinstance(body, dict):
        raise ValueError(f"{where}: expected an object, got {type(body).__name__}")
    unknown = sorted(str(k) for k in body if k not in allowed)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(repr(k[:40]) for k in unknown[:5])}; "
                         f"the fields are {', '.join(sorted(allowed))}")
