"""Fuzz the sniffing entry points: ``sniff_format``, ``extract_sniff`` and ``read(None, …)``.

Input: the reply body as bytes. Beyond the oracle of :mod:`_common`, the three must agree:
an unrecognised shape is ``None`` / ``[]`` / :class:`toolwire.errors.UnknownFormat` — or, for a
provider's error body, ``None`` and the same :class:`toolwire.errors.ProviderError` from both
readers — a recognised one gives the calls of ``read`` on the sniffed format.

    python tools/fuzz/fuzz_extract_sniff.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import sys
from typing import Any

import _common


def setup() -> None:
    global toolwire
    toolwire = _common.import_instrumented()


def _calls(value: Any) -> list[dict[str, Any]]:
    return [c.to_dict() for c in value]


def check(body: bytes) -> None:
    """Sniffing on bytes and on the parsed dict agree with each other and with read()."""
    sniffed = _common.outcome(lambda: toolwire.sniff_format(body))
    assert sniffed[0] == "ok", f"sniff_format raised {sniffed}"
    calls = _common.outcome(lambda: toolwire.extract_sniff(body), _calls)
    read = _common.outcome(lambda: toolwire.read(None, body), _common.reply_data)
    if sniffed[1] is None:
        assert calls in (("ok", []), read), f"unknown shape gave {calls}"
        assert read[0] == "error" and read[1]["code"] in (
            "unknown_format", "malformed_response", "provider_error")
        if read[1]["code"] == "provider_error":
            assert calls == read, f"extract_sniff and read(None) disagree:\n{calls}\n{read}"
    else:
        assert read[0] == "error" or read[1]["format"] == sniffed[1]
        expected = ("ok", read[1]["tool_calls"]) if read[0] == "ok" else read
        assert calls == expected, f"extract_sniff and read(None) disagree:\n{calls}\n{read}"
        reply = toolwire.read(None, body) if read[0] == "ok" else None
        for call in reply.calls if reply else ():
            _common.check_call(call)
    data = _common.parse_json(body)
    if isinstance(data, dict):
        before = _common.copy_value(data)
        assert _common.outcome(lambda: toolwire.sniff_format(data)) == sniffed
        assert _common.outcome(lambda: toolwire.extract_sniff(data), _calls) == calls
        assert _common.outcome(lambda: toolwire.read(None, data), _common.reply_data) == read
        assert _common.same_json(data, before), "sniffing changed its input"


def test_one_input(raw: bytes) -> None:
    check(raw)


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    return _common.mutate_json(data, max_size, seed, offset=0)


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input, custom_mutator=mutate)
    atheris.Fuzz()


toolwire: Any = None

if __name__ == "__main__":
    main(sys.argv)
