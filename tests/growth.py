"""Time growth measured as a ratio in one run: how much longer 4n takes than n.

A fixed time would fail on a loaded machine, and so can a ratio of wall-clock times: a burst
of other work during the 4n run alone inflates it. So the clock here is the thread's own CPU
time (``time.thread_time``: time spent waiting for a core is not counted), n and 4n are
timed in alternation (a slower phase of the machine hits both), each side keeps its best
round, and a ratio over the bound is measured again before it fails. Linear code gives about
4x for 4n, quadratic code about 16x on every attempt, so the verdict still tells them apart.
The timing itself, as a figure, is the benches' (``tools/bench*.py``); the suite only checks
the growth.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

GROWTH_BOUND = 8.0
"""Linear growth gives about 4x for 4n; quadratic about 16x. Between them, with room for noise."""

ROUNDS = 3
"""Rounds per attempt; each times n and 4n once, in alternation."""

ATTEMPTS = 3
"""Attempts before a ratio over the bound is the answer: noise must push every one of them
past the bound, a quadratic cost does so each time."""


def seconds(run: Callable[[], object]) -> float:
    """The best of three runs in thread CPU seconds, the collector held off meanwhile."""
    return min(_once(run) for _ in range(ROUNDS))


def _once(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        run()
        return time.thread_time() - start
    finally:
        gc.enable()


def ratio(small: Callable[[], object], large: Callable[[], object],
          bound: float = GROWTH_BOUND) -> float:
    """How much longer ``large`` takes than ``small``: the best rounds of the two, timed in
    alternation, and measured again (up to :data:`ATTEMPTS` times) while over ``bound``.
    Returns the lowest ratio seen."""
    best_ratio = float("inf")
    for _ in range(ATTEMPTS):
        small_best = large_best = float("inf")
        for _ in range(ROUNDS):
            small_best = min(small_best, _once(small))
            large_best = min(large_best, _once(large))
        best_ratio = min(best_ratio, large_best / max(small_best, 1e-6))
        if best_ratio < bound:
            break
    return best_ratio


def growth(prepare: Callable[[int], Callable[[], object]], n: int,
           bound: float = GROWTH_BOUND) -> float:
    """How much longer 4n takes than n (inputs are built before the clock starts)."""
    return ratio(prepare(n), prepare(4 * n), bound)
