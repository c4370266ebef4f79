"""One Registry, many threads: the same answers as one thread gives.

Agent servers read replies on many threads at once with the one default registry. A
registry is immutable once built and the interpreter is a pure function, so eight threads
extracting different replies at once must get exactly what a single thread gets; the
interpreter's switch interval is cut to the minimum so threads interleave inside every
call, not between them.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import toolwire._registry.registry
from toolwire import Registry
from toolwire.errors import ToolwireError

from conformance import cases, each_test

THREADS = 8
ROUNDS = 4


@pytest.fixture(autouse=True)
def _interleave_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def jobs(registry: Registry) -> list[tuple[str, Callable[[], Any]]]:
    """Every conformance reply (wire and text) as a job answering comparable data."""
    found: list[tuple[str, Callable[[], Any]]] = []
    for name, case, test in each_test(cases()):
        fmt, response, strict = case.data["format"], test["response"], test.get("strict")

        def wire(fmt: str | None = fmt, response: Any = response, strict: Any = strict) -> Any:
            reply = registry.read(fmt, response, strict=strict)
            return reply.to_dict(), [s.raw for s in reply.server_calls]

        found.append((name, wire))
    for name, case, test in each_test(cases(under="text")):
        fmt = case.data.get("format")
        if fmt not in registry.text_formats() or not isinstance(test.get("text"), str):
            continue
        params = test.get("params") or {}

        def text(fmt: str = fmt, text: str = test["text"], params: Any = params) -> Any:
            clean, calls = registry.extract_from_text(fmt, text, **params)
            return clean, [c.to_dict() for c in calls]

        found.append((name, text))
    return found


def answer(run: Callable[[], Any]) -> Any:
    try:
        return "ok", run()
    except ToolwireError as exc:
        return "error", exc.to_dict()


def run_in_threads(work: list[tuple[str, Callable[[], Any]]]) -> list[dict[str, Any]]:
    """Each thread runs every job ROUNDS times in its own shuffled order."""
    barrier = threading.Barrier(THREADS)

    def thread(seed: int) -> dict[str, Any]:
        order = [job for _ in range(ROUNDS) for job in work]
        random.Random(seed).shuffle(order)
        barrier.wait()
        seen: dict[str, Any] = {}
        for name, run in order:
            got = answer(run)
            assert seen.setdefault(name, got) == got, f"{name} changed between rounds"
        return seen

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(thread, range(THREADS)))


def test_eight_threads_on_one_registry_agree_with_one_thread() -> None:
    registry = Registry.default()
    work = jobs(registry)
    assert len(work) >= 100
    expected = {name: answer(run) for name, run in work}
    for seen in run_in_threads(work):
        assert seen == expected


def test_a_fresh_registry_warms_up_safely_under_threads() -> None:
    registry = Registry.from_paths()  # nothing cached yet: scanners and the like built on demand
    work = jobs(registry)
    results = run_in_threads(work)
    expected = {name: answer(run) for name, run in jobs(Registry.from_paths())}
    for seen in results:
        assert seen == expected


def test_the_default_registry_is_built_once_under_a_race(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toolwire._registry.registry, "_DEFAULT", None)
    barrier = threading.Barrier(THREADS)

    def build(_: int) -> int:
        barrier.wait()
        return id(Registry.default())

    with ThreadPoolExecutor(THREADS) as pool:
        assert len(set(pool.map(build, range(THREADS)))) == 1


class _Finalised:
    """Garbage whose finalizer runs Python code: lets threads switch inside a C call."""

    def __init__(self) -> None:
        self.cycle = self

    def __del__(self) -> None:
        sum(range(50))


@pytest.mark.skipif("pythonic" not in Registry.default().text_formats(), reason="no pythonic")
def test_python_literal_text_is_read_safely_by_eight_threads() -> None:
    # Regression: pythonic calls decode string tokens with ast.literal_eval, whose AST
    # builder in CPython 3.11 keeps its recursion depth in shared state; eight threads
    # (a finalizer switching them mid-call) raised "AST constructor recursion depth
    # mismatch" SystemError until toolwire serialised those calls.
    registry = Registry.default()
    text = "[get_weather(city='San Francisco', note='a\\nb'), f(x='y' 'z')]"
    expected = answer(lambda: registry.extract_from_text("pythonic", text))
    barrier = threading.Barrier(THREADS)

    def thread(_: int) -> list[Any]:
        barrier.wait()
        seen = []
        for _ in range(400):
            _Finalised()
            seen.append(answer(lambda: registry.extract_from_text("pythonic", text)))
        return seen

    with ThreadPoolExecutor(THREADS) as pool:
        for seen in pool.map(thread, range(THREADS)):
            assert all(got == expected for got in seen)
