"""Properties every stream case must keep, derived from the cases themselves.

* Prefix safety: for every cut point of every event stream, no call already handed out
  differs from the full stream's call, and every call of the cut stream's partial reply is
  either flagged ``incomplete`` or equal to the full stream's call in that place. This is
  "never silently repaired" made executable.
* Text grows: at every cut point the partial reply's text is a prefix of the full
  stream's (pieces are appended in order, never reordered or lost).
* Byte splits: raw SSE / NDJSON text cut in two at a byte offset (and fed one byte at a time)
  gives the same outcome as the whole text. The default run cuts each case at a sample of
  its offsets: on each side of every byte a framing rule reads (CR, LF, the field's colon, a
  byte of a multi-byte character), the first and last, and every 16th from a start that
  differs per case; feeding one byte at a time still splits at every offset at once. The
  ``exhaustive`` group (``pytest -m exhaustive``, run by CI) cuts at every offset.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
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


STRIDE = 16
"""The sampled run's step between the offsets it cuts at besides the framing bytes'."""

_FRAMING_BYTES = frozenset(b"\r\n:")


def sampled_offsets(name: str, data: bytes) -> list[int]:
    """The offsets the default run cuts ``data`` at: on each side of every byte a framing rule
    reads (CR, LF, the colon after a field name, every byte of a multi-byte character), the
    first and last offset, and every :data:`STRIDE`-th from a start fixed by the case's name
    (so the cases between them cover every residue)."""
    offsets = {1, len(data) - 1}
    for index, byte in enumerate(data):
        if byte in _FRAMING_BYTES or byte > 0x7F:
            offsets.update((index, index + 1))
    offsets.update(range(1 + zlib.crc32(name.encode()) % STRIDE, len(data), STRIDE))
    return sorted(o for o in offsets if 0 < o < len(data))


def _assert_splits_keep_the_outcome(case: Any, test: dict[str, Any],
                                    offsets: Iterable[int]) -> None:
    fmt = case.data["format"]
    data = test["sse"].encode("utf-8")
    whole = _outcome(fmt, test, [data])
    for offset in offsets:
        assert _outcome(fmt, test, [data[:offset], data[offset:]]) == whole, offset
    assert _outcome(fmt, test, [data[i:i + 1] for i in range(len(data))]) == whole


@pytest.mark.parametrize(("name", "case", "test"), BYTE_TESTS, ids=[t[0] for t in BYTE_TESTS])
def test_raw_bytes_split_at_the_sampled_offsets_give_the_same_outcome(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    offsets = sampled_offsets(name, test["sse"].encode("utf-8"))
    _assert_splits_keep_the_outcome(case, test, offsets)


@pytest.mark.exhaustive
@pytest.mark.parametrize(("name", "case", "test"), BYTE_TESTS, ids=[t[0] for t in BYTE_TESTS])
def test_raw_bytes_split_anywhere_give_the_same_outcome(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    _assert_splits_keep_the_outcome(case, test, range(1, len(test["sse"].encode("utf-8"))))


def test_the_sampled_offsets_cut_around_every_framing_byte_and_step_from_a_start_per_case(
) -> None:
    data = "data: {\"a\": \"é\"}\r\n\r\n".encode()
    offsets = sampled_offsets("a case", data)
    for index, byte in enumerate(data):
        if byte in b"\r\n:" or byte > 0x7F:
            assert {index, index + 1} - {0, len(data)} <= set(offsets), index
    assert all(0 < o < len(data) for o in offsets)
    plain = b"x" * 40  # no framing byte: the first and last offset and the stride alone
    samples = {tuple(sampled_offsets(t[0], plain)) for t in BYTE_TESTS}
    assert all({1, 39} <= set(sample) and len(sample) <= 2 + 40 // STRIDE + 1
               for sample in samples)
    assert len(samples) > 1  # the stride starts where the case's name says, not always at 1
