"""Time growth measured as a ratio in one run: how much longer 4n takes than n.

A fixed time would fail on a loaded machine; a ratio of two runs side by side does not, and
still tells linear (about 4x) from quadratic (about 16x) apart.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

GROWTH_BOUND = 8.0
"""Linear growth gives about 4x for 4n; quadratic about 16x. Between them, with room for noise."""


def seconds(run: Callable[[], object]) -> float:
    """The best of three runs, the collector held off while the clock runs."""
    best = float("inf")
    for _ in range(3):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def growth(prepare: Callable[[int], Callable[[], object]], n: int) -> float:
    """How much longer 4n takes than n (inputs are built before the clock starts)."""
    small, large = prepare(n), prepare(4 * n)
    return seconds(large) / max(seconds(small), 1e-6)
