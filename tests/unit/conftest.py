"""Fixtures the unit tests share."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

settings.register_profile("kc-tests-random", settings.get_profile("default"), derandomize=False)
settings.register_profile("kc-tests-derandomized", settings.get_profile("default"), derandomize=True)


@pytest.fixture
def hypothesis_profile() -> Iterator[Callable[[str], None]]:
    """Load a Hypothesis profile for one test (``kc-tests-random`` or ``kc-tests-derandomized``).

    Under ``CI`` Hypothesis loads its own ``ci`` profile, which derandomizes; a test of what a
    run without a seed does names the profile it means, so it asks the same thing everywhere."""
    before = settings.get_current_profile_name()
    yield settings.load_profile
    settings.load_profile(before)
