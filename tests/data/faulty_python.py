"""In-process targets that misbehave: the example Python authorizer wrapped so that its
``authorize`` hangs, answers None, or fails now and then (``python:faulty_python:NAME``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python_authorizer"))

from my_authorizer import MyAuthorizerAdapter, factory

CALLS = [0]


class _Faulty(MyAuthorizerAdapter):
    fault = "none"

    def __init__(self) -> None:
        inner = factory()
        self.__dict__.update(inner.__dict__)

    def authorize(self, context: Any, actions: Any) -> Any:
        CALLS[0] += 1
        if self.fault == "hang" and CALLS[0] > 20:
            while True:
                time.sleep(0.05)
        if self.fault == "busy" and CALLS[0] > 20:
            while True:  # pure Python, holding the interpreter
                pass
        if self.fault == "none":
            return None
        if self.fault == "flaky" and CALLS[0] % 37 == 0:
            raise RuntimeError("a fault that comes and goes")
        return super().authorize(context, actions)


def _make(fault: str) -> Any:
    cls = type(f"Faulty_{fault}", (_Faulty,), {"fault": fault})
    return lambda: cls()


hang = _make("hang")
busy = _make("busy")
returns_none = _make("none")
flaky = _make("flaky")
