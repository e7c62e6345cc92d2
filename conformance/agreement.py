"""Which Kafka releases answer a finding's minimal case as the implementation did, as a value.

Each suite finds the releases its own way (the authorizer suite asks every modelled
authorizer profile, the broker suite replays a crafted case on every modelled broker
release); the value and the way a person reads it are one, here.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES

__all__ = ["Agreement", "release_runs"]


@attrs.frozen
class Agreement:
    """Releases (``flavour@release`` or ``release``, oldest first) answering a case as the
    implementation did, and those answering as expected; a release in neither answers otherwise."""

    alike: tuple[str, ...]
    expected: tuple[str, ...]

    def describe(self) -> str:
        """One line, the releases as runs: ``acl 2.0.0-2.7.2, standard 3.2.0``."""
        return (f"Kafka releases answering as this implementation did: {release_runs(self.alike) or 'none'}; "
                f"as expected: {release_runs(self.expected) or 'none'}")


def release_runs(names: tuple[str, ...]) -> str:
    """Consecutive releases (of one flavour, where named) as one range; a gap starts another."""
    index = {str(v): i for i, v in enumerate(IDEMPOTENCE_RELEASES)}
    runs: list[tuple[str, str, str, int]] = []  # flavour, first, last, index of the last
    for name in names:
        flavour, _, release = name.rpartition("@")
        at = index.get(release, -2)
        if runs and runs[-1][0] == flavour and runs[-1][3] == at - 1:
            runs[-1] = (flavour, runs[-1][1], release, at)
        else:
            runs.append((flavour, release, release, at))
    return ", ".join((f"{f} " if f else "") + a + (f"-{b}" if b != a else "") for f, a, b, _ in runs)
