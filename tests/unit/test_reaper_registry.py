"""What a module keeps open across cases is closed through one registry, never found in sys.modules."""

from __future__ import annotations

import pytest

from kafka_conformance.adapters import reaper


def test_every_registered_closer_runs_once_even_after_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reaper, "_CLOSERS", [])
    ran: list[str] = []

    def broken() -> None:
        ran.append("broken")
        raise RuntimeError("a pooled process would not stop")

    def fine() -> None:
        ran.append("fine")

    reaper.closes_shared(broken)
    reaper.closes_shared(fine)
    reaper.closes_shared(fine)  # registering twice (a module imported again) closes once
    with pytest.raises(RuntimeError, match="would not stop"):
        reaper.close_shared()
    assert ran == ["broken", "fine"]


def test_the_pooling_adapters_register_their_closers_when_imported() -> None:
    from kafka_conformance.adapters.jsonlines.adapter import close_shared_sessions

    assert close_shared_sessions in reaper._CLOSERS
