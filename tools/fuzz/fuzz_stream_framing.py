"""Fuzz ``Accumulator.feed_bytes`` on raw stream bytes: SSE and NDJSON framing, then the rules.

Input: one selector byte (the format, or None to sniff; a small maximum event size or the
default), then the raw stream. The harness feeds the bytes whole and split in two at a place
the input chooses, closes the input and asks for the reply, and checks the promises of
specs/README.md §9.5 and §9.10: only toolwire errors, never another exception (bytes that are
not UTF-8 included); the same outcome however the bytes are split (what was handed out, the
error's code, the reply); a failed or closed stream refuses every later chunk; every call
handed out is a call of the reply and round-trips.

    python tools/fuzz/fuzz_stream_framing.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import sys
from typing import Any

import _common

LIMITS = (None, 512)


def stream_formats(toolwire: Any) -> list[str | None]:
    """None (sniff the first event), then every format with a stream part."""
    registry = toolwire.Registry.default()
    return [None, *(f for f in registry.formats() if "stream" in registry.spec(f).data)]


def setup() -> None:
    global toolwire, FORMATS
    toolwire = _common.import_instrumented()
    FORMATS = stream_formats(toolwire)


def _outcome(fmt: str | None, chunks: list[bytes], limit: int | None) -> tuple[Any, ...]:
    options = {} if limit is None else {"max_event_size": limit}
    acc = toolwire.Accumulator(fmt, **options)
    ready: list[Any] = []
    handed: list[Any] = []
    error = None
    try:
        for chunk in chunks:
            for update in acc.feed_bytes(chunk):
                ready.append(update.to_dict())
                if update.call is not None:
                    handed.append(update.call)
        ready.extend(u.to_dict() for u in acc.close())
        reply = acc.reply()
    except toolwire.errors.ToolwireError as exc:
        error = exc.code
        reply = None
    try:
        acc.feed_bytes(b"data: {}\n\n")
    except toolwire.errors.ToolwireError:
        pass
    else:
        raise AssertionError("a closed or failed stream took another chunk")
    if reply is not None:
        for call in reply.calls:
            _common.check_call(call)
        for call in handed:
            assert call in reply.calls, f"a call handed out is not in the reply: {call!r}"
        return ("reply", ready, reply.to_dict())
    return ("error", ready, error)


def check(fmt: str | None, data: bytes, split: int, limit: int | None) -> None:
    """Whole and split, the same outcome; only toolwire errors."""
    whole = _outcome(fmt, [data], limit)
    cut = split % (len(data) + 1)
    parts = _outcome(fmt, [data[:cut], data[cut:]], limit)
    assert parts == whole, f"split at {cut} differs:\n{parts}\n{whole}"


def test_one_input(raw: bytes) -> None:
    if len(raw) < 2:
        return
    fmt = FORMATS[raw[0] % len(FORMATS)]
    limit = LIMITS[(raw[0] // 64) % 2]
    check(fmt, raw[2:], raw[1] * 31, limit)


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


toolwire: Any = None
FORMATS: list[str | None] = []

if __name__ == "__main__":
    main(sys.argv)
