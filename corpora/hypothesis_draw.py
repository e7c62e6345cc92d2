"""Deterministic draws from a Hypothesis strategy, through Hypothesis's public API.

``@given`` with ``@seed``, no example database, only the generate phase and
every health check off: Hypothesis's own generation, seeded, so a seed yields
the same examples on every machine with the same Hypothesis version (a test
checks it across processes).  The settings start from Hypothesis's ``default``
profile, not the active one, so a user's profile cannot change a corpus.

One more input has to be pinned: Hypothesis (6.13x and later) occasionally
draws constants found in the source of every *local* module the process has
imported (anything outside site-packages and the standard library: an
editable install of the kit, the user's adapter module...).  A seed's examples
would then depend on what else happened to be imported: a pytest process, a
Spark worker and a user's shell would disagree.  Generation therefore runs with
that local pool empty (:func:`_without_local_constants`); Hypothesis's global
constants, fixed for a Hypothesis version, are still drawn.  Versions without
the pool need nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st

from kafka_conformance.corpora.shards import derive_seed

__all__ = ["draw_examples"]

T = TypeVar("T")

_MAX_ROUNDS = 20


def draw_examples(strategy: st.SearchStrategy[T], count: int, base_seed: int) -> list[T]:
    """Exactly ``count`` examples.  Hypothesis may stop a run early (it believes the
    space exhausted); further rounds with derived seeds then fill up the rest."""
    out: list[T] = []
    batch: list[T] = []
    for round_ in range(_MAX_ROUNDS):
        need = count - len(out)
        if need <= 0:
            break
        batch.clear()
        run_settings = settings(
            settings.get_profile("default"),
            max_examples=need,
            database=None,
            phases=[Phase.generate],
            deadline=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            print_blob=False,
        )

        @run_settings
        @seed(derive_seed(base_seed, round_))
        @given(strategy)
        def collect(example: T) -> None:
            batch.append(example)

        with _without_local_constants():
            collect()
        out += batch[:need]
    if len(out) < count:
        raise RuntimeError(f"Hypothesis produced only {len(out)} of {count} examples in {_MAX_ROUNDS} rounds")
    return out


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    """Hypothesis's pool of constants from local modules, empty for the duration
    (its cache of permitted constants is cleared on the way in and out, so runs
    outside see their usual pool)."""
    from hypothesis.internal.conjecture import providers

    real: Any = getattr(providers, "_get_local_constants", None)
    cache: Any = getattr(providers, "CONSTANTS_CACHE", None)
    make_empty: Any = getattr(providers, "Constants", None)
    if real is None or cache is None or make_empty is None:
        yield
        return
    empty = make_empty()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = real
        cache.cache.clear()
