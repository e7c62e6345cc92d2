"""In-process targets that try to bend the verdict (issue 33): the kit's reference, wrapped so
that it ends the run, fakes a Ctrl-C, leaves a thread, moves the working directory, forks,
rewrites the values it is handed, or never closes (``python:hostile_python:NAME``)."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.reference.acl.values import AclPermissionType
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for
from kafka_conformance.reference.releases import DEFAULT_VERSION

CALLS = [0]
LATE = 3
"""The hostile act comes on this call of authorize(): after the run has started for real."""


class _Hostile(ReferenceTarget):
    act = "none"

    def __init__(self) -> None:
        super().__init__(profile_for(DEFAULT_VERSION, Flavour.STANDARD))

    def authorize(self, context: Any, actions: Any) -> Any:
        CALLS[0] += 1
        if CALLS[0] == LATE:
            self._strike()
        return super().authorize(context, actions)

    def _strike(self) -> None:
        if self.act == "exit0":
            sys.exit(0)
        if self.act == "os-exit0":
            os._exit(0)
        if self.act == "interrupt":
            raise KeyboardInterrupt
        if self.act == "generator-exit":
            raise GeneratorExit
        if self.act == "thread":
            threading.Thread(target=lambda: time.sleep(3600), name="hostile-forever").start()
        if self.act == "chdir":
            os.chdir(os.environ.get("HOSTILE_DIR", "/"))
        if self.act == "fork" and os.fork() == 0:
            return  # the child goes on answering, as the parent does

    def load_snapshot(self, acls: Any) -> None:
        if self.act == "rewrite":  # turn every DENY handed over into an ALLOW, in place
            for binding in acls.values():
                if binding.entry.permission_type is AclPermissionType.DENY:
                    object.__setattr__(binding.entry, "permission_type", AclPermissionType.ALLOW)
        super().load_snapshot(acls)

    def apply(self, record: Any) -> None:
        binding = getattr(record, "binding", None)
        if self.act == "rewrite" and binding is not None and binding.entry.permission_type is AclPermissionType.DENY:
            object.__setattr__(binding.entry, "permission_type", AclPermissionType.ALLOW)
        super().apply(record)

    def close(self) -> None:
        if self.act == "close-hangs" and CALLS[0] >= LATE:
            while True:
                time.sleep(0.05)
        super().close()


def _make(act: str) -> Any:
    cls = type(f"Hostile_{act}", (_Hostile,), {"act": act})
    return lambda: cls()


exit0 = _make("exit0")
os_exit0 = _make("os-exit0")
interrupt = _make("interrupt")
generator_exit = _make("generator-exit")
thread = _make("thread")
chdir = _make("chdir")
fork = _make("fork")
rewrite = _make("rewrite")
close_hangs = _make("close-hangs")
