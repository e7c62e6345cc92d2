"""Serve the reference while recording which of its functions run: ``traced_serve.py OUT ARGS...``.

A helper of ``tests/quality/test_mutation.py`` (not a test module): the arguments after ``OUT``
are those of ``python -m kafka_conformance.adapters.jsonlines.serve``; at exit, ``OUT`` holds
the ``[file, qualified name]`` of every function of ``reference/`` that was entered.
"""

from __future__ import annotations

import atexit
import json
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import kafka_conformance.reference as reference
from kafka_conformance.adapters.jsonlines.serve import main

ROOT = Path(reference.__path__[0])
entered: set[tuple[str, str]] = set()


def _profile(frame: FrameType, event: str, arg: Any) -> None:
    if event == "call":
        code = frame.f_code
        if code.co_filename.startswith(str(ROOT)):
            entered.add(("reference/" + Path(code.co_filename).relative_to(ROOT).as_posix(), code.co_qualname))


def _dump() -> None:
    sys.setprofile(None)
    Path(sys.argv[1]).write_text(json.dumps(sorted(entered)), encoding="utf-8")


if __name__ == "__main__":
    atexit.register(_dump)
    sys.setprofile(_profile)
    status = main(sys.argv[2:])
    sys.exit(status)
