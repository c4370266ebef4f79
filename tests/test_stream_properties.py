"""Properties every stream case must keep, derived from the cases themselves.

* Prefix safety: for every cut point of every event stream, no call already handed out
  differs from the full stream's call, and every call of the cut stream's partial reply is
  either flagged ``incomplete`` or equal to the full stream's call in that place. This is
  "never silently repaired" made executable.
* Text grows: at every cut point the partial reply's text is a prefix of the full
  stream's (pieces are appended in order, never reordered or lost).
* Byte splits: raw SSE / NDJSON text cut at every byte offset (and fed one byte at a time)
  gives the same outcome as the whole text.
"""

from __future__ import annotations

from typing import Any

import pytest
from stream_cases import STREAM_TESTS, events_of, run

import toolwire

EVENT_TESTS = [t for t in STREAM_TESTS if t[2].get("events")]
BYTE_TESTS = [t for t in STREAM_TESTS if t[2].get("sse") is not None]


def _full_calls(fmt: str | None, test: dict[str, Any]) -> tuple[toolwire.ToolCall, ...] | None:
    acc, _, _ = run(fmt, test)
    try:
        return acc.reply(allow_incomplete=True).calls
    except toolwire.errors.ToolwireError:
        return None


@pytest.mark.parametrize(("name", "case", "test"), EVENT_TESTS, ids=[t[0] for t in EVENT_TESTS])
def test_no_cut_point_hands_out_or_shows_a_repaired_call(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    fmt = case.data["format"]
    full = _full_calls(fmt, test)
    events = events_of(test)
    _, whole, _ = run(fmt, test)
    handed = [u.call for u in whole if u.kind == "call"]  # a refused stream's, before it failed
    for cut in range(len(events) + 1):
        acc, updates, error = run(fmt, test, events=events[:cut])
        early = [u.call for u in updates if u.kind == "call"]
        assert early == handed[:len(early)], (cut, early)
        for call in early:
            assert full is None or call in full, (cut, call)
        if error is not None or full is None:
            continue
        try:
            partial = acc.reply(allow_incomplete=True)
        except toolwire.errors.ToolwireError:
            continue
        assert len(partial.calls) <= len(full)
        for index, call in enumerate(partial.calls):
            assert call.incomplete or call == full[index], (cut, index, call)
        if not acc.complete:
            assert all(f != "runnable" for c, f in zip(partial.calls, partial.fates(),
                                                        strict=True) if c.incomplete)


@pytest.mark.parametrize(("name", "case", "test"), EVENT_TESTS, ids=[t[0] for t in EVENT_TESTS])
def test_the_text_at_every_cut_point_is_a_prefix_of_the_full_text(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    fmt = case.data["format"]
    acc, _, error = run(fmt, test)
    try:
        full = acc.reply(allow_incomplete=True).text or ""
    except toolwire.errors.ToolwireError:
        pytest.skip("the whole stream has no reply (it is refused): no text to grow into")
    events = events_of(test)
    for cut in range(len(events)):
        acc, _, error = run(fmt, test, events=events[:cut])
        if error is not None:
            continue
        try:
            text = acc.reply(allow_incomplete=True).text or ""
        except toolwire.errors.ToolwireError:
            continue
        assert full.startswith(text), (cut, text, full)


def _outcome(fmt: str | None, test: dict[str, Any], chunks: list[bytes]) -> Any:
    acc, updates, error = run(fmt, test, chunks=chunks)
    ready = [(u.kind, u.call) for u in updates]
    if error is not None:
        return ("error", error.code, ready)
    try:
        return ("reply", acc.reply(allow_incomplete=True).to_dict(), ready)
    except toolwire.errors.ToolwireError as exc:
        return ("error", exc.code, ready)


@pytest.mark.parametrize(("name", "case", "test"), BYTE_TESTS, ids=[t[0] for t in BYTE_TESTS])
def test_raw_bytes_split_anywhere_give_the_same_outcome(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    fmt = case.data["format"]
    data = test["sse"].encode("utf-8")
    whole = _outcome(fmt, test, [data])
    for offset in range(1, len(data)):
        assert _outcome(fmt, test, [data[:offset], data[offset:]]) == whole, offset
    assert _outcome(fmt, test, [data[i:i + 1] for i in range(len(data))]) == whole
