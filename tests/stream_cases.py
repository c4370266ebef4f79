"""Running one stream conformance case (``specs/conformance/<format>/stream_*.json``).

Shared by the case test and the property tests: feeding a case's events (or raw ``sse``
text), the ready order as the suite spells it, and comparing calls on the fields every
implementation carries.
"""

from __future__ import annotations

from typing import Any

import toolwire

from conformance import Case, cases, each_test

STREAM_CASES = cases(stream=True)
STREAM_TESTS = list(each_test(STREAM_CASES))

CORE = ("name", "arguments", "id", "arguments_undecodable", "arguments_error_code", "incomplete")


def core(call: dict[str, Any]) -> dict[str, Any]:
    """The fields of ToolCall.to_dict() the stream suite compares (others are other parts')."""
    data = {k: call[k] for k in CORE if k in call}
    data.setdefault("incomplete", False)
    return data


def ready_text(update: Any) -> str:
    """One update as the suite spells it: kind, then the call's id (or name) or item type."""
    if update.kind == "call":
        return f"call:{update.call.id or update.call.name}"
    if update.kind == "server_call":
        return f"server_call:{update.server_call.type}"
    if update.kind == "finished":
        return f"finished:{update.finish_reason}"
    return f"{update.kind}:{update.item_type}"


def events_of(test: dict[str, Any]) -> list[Any]:
    return list(test.get("events") or ())


def run(fmt: str | None, test: dict[str, Any], *, events: list[Any] | None = None,
        chunks: list[bytes] | None = None) -> tuple[Any, list[Any], Exception | None]:
    """Feed a test: (accumulator, updates, the error feeding raised or None)."""
    acc = toolwire.Accumulator(fmt)
    updates: list[Any] = []
    try:
        if chunks is not None:
            for chunk in chunks:
                updates.extend(acc.feed_bytes(chunk))
            updates.extend(acc.close())
        elif events is None and test.get("sse") is not None:
            updates.extend(acc.feed_bytes(test["sse"].encode("utf-8")))
            updates.extend(acc.close())
        else:
            for event in events if events is not None else events_of(test):
                updates.extend(acc.feed(event))
    except toolwire.errors.ToolwireError as exc:
        return acc, updates, exc
    return acc, updates, None


__all__ = ["STREAM_CASES", "STREAM_TESTS", "Case", "core", "events_of", "ready_text", "run"]
