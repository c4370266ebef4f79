"""An implementation's answers held against the reference's, on every field.

A case compares what its ``expect`` names; an implementation can pass every case and still
answer differently elsewhere (an error's facts, a stream update's keys, a call's check keys).
``toolwire conformance --diff-reference`` sends each request to the program *and* to toolwire
in-process (:mod:`._reference`), and lists every path where the two answers differ. Only the
sentences for people are left out — a ``message``, a ``reason`` and a call's
``arguments_error``, which §7 and §10 leave to each implementation — and numbers compare
by value, as the cases compare them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ._reference import answer
from ._wire_cases import same_json

__all__ = ["FREE_KEYS", "ReferenceDiff", "answer_differences"]

FREE_KEYS = frozenset({"message", "reason", "arguments_error"})
"""Keys whose values are each implementation's own wording, never compared."""

_DERIVED = (":cut", ":split", ":bytes")


def _show(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


def answer_differences(got: Any, want: Any) -> list[str]:
    """Every JSON pointer where ``got`` differs from ``want``, with both values."""
    found: list[str] = []
    pending: list[tuple[str, Any, Any]] = [("", got, want)]
    while pending:
        where, a, b = pending.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), reverse=True):
                if key in FREE_KEYS:
                    continue
                here = f"{where}/{key}"
                if key not in a:
                    found.append(f"{here}: missing, the reference has {_show(b[key])}")
                elif key not in b:
                    found.append(f"{here}: {_show(a[key])}, the reference has no such key")
                else:
                    pending.append((here, a[key], b[key]))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            pending.extend((f"{where}/{i}", x, y)
                           for i, x, y in reversed(list(zip(range(len(a)), a, b, strict=True))))
        elif not same_json(a, b):
            found.append(f"{where or '/'}: {_show(a)}, the reference has {_show(b)}")
    return found


class ReferenceDiff:
    """Wraps an ``ask``: every answer it gives is also held against the reference's.

    The requests a stream check derives (every cut and byte split) are left out: their
    answers are compared with the whole stream's answer, which is diffed."""

    def __init__(self, ask: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
        self._ask = ask
        self._reference = answer
        self.differences: dict[str, list[str]] = {}

    def __call__(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        answers = self._ask(requests)
        for request, got in zip(requests, answers, strict=False):
            tail = request["id"].rpartition("::")[2]
            if any(mark in tail for mark in _DERIVED):
                continue
            want = self._reference(request)
            found = answer_differences({k: v for k, v in got.items() if k != "id"},
                                       {k: v for k, v in want.items() if k != "id"})
            if found:
                case = request["id"].partition("::")[0]
                self.differences.setdefault(case, []).extend(
                    f"{request['id']}: {line}" for line in found)
        return answers
