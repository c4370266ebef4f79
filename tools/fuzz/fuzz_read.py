"""Fuzz ``toolwire.read`` (and ``extract``, ``locate``, ``from_fmt``) on JSON reply bodies.

Input: one selector byte (format, ``strict``), then the reply body as bytes. The harness
reads the body as bytes and, where it is a JSON object, as a dict too, and checks the
oracle of :mod:`_common`: only toolwire errors, the same answer for both, the dict left
untouched, every call round-tripping, ``extract``/``locate``/``from_fmt`` agreeing with
``read``.

    python tools/fuzz/fuzz_read.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import sys
from typing import Any

import _common

STRICT = (None, True, False)


def setup() -> None:
    global toolwire, FORMATS
    toolwire = _common.import_instrumented()
    FORMATS = toolwire.Registry.default().formats()


def check(fmt: str, body: bytes, strict: bool | None) -> None:
    """Every promise of the wire entry points on one (format, body, strict)."""
    as_bytes = _common.outcome(lambda: toolwire.read(fmt, body, strict=strict), _common.reply_data)
    data = _common.parse_json(body)
    if isinstance(data, dict):
        before = _common.copy_value(data)
        as_dict = _common.outcome(
            lambda: toolwire.read(fmt, data, strict=strict), _common.reply_data
        )
        assert _common.same_json(data, before), "read() changed its input"
        assert as_dict == as_bytes, f"dict and bytes differ:\n{as_dict}\n{as_bytes}"
    calls = _common.outcome(
        lambda: toolwire.extract(fmt, body, strict=strict), lambda v: [c.to_dict() for c in v]
    )
    located = _common.outcome(lambda: toolwire.locate(fmt, body, strict=strict))
    if as_bytes[0] == "error":
        assert calls == as_bytes, f"extract and read disagree:\n{calls}\n{as_bytes}"
        assert located == as_bytes, f"locate and read disagree:\n{located}\n{as_bytes}"
        return
    assert calls == ("ok", as_bytes[1]["tool_calls"]), "extract and read disagree"
    assert located[0] == "ok" and len(located[1]) >= len(calls[1]), "locate lost a call"
    reply = toolwire.read(fmt, body, strict=strict)
    for call in reply.calls:
        _common.check_call(call)
    for item in located[1]:
        one = _common.outcome(lambda item=item: toolwire.from_fmt(fmt, item))
        assert one[0] == "ok", f"from_fmt refused a located item: {one}"


def test_one_input(raw: bytes) -> None:
    if not raw:
        return
    fmt = FORMATS[raw[0] % len(FORMATS)]
    strict = STRICT[(raw[0] // 16) % 3]
    check(fmt, raw[1:], strict)


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    return _common.mutate_json(data, max_size, seed, offset=1)


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input, custom_mutator=mutate)
    atheris.Fuzz()


toolwire: Any = None
FORMATS: tuple[str, ...] = ()

if __name__ == "__main__":
    main(sys.argv)
