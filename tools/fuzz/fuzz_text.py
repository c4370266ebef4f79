"""Fuzz the text formats: ``extract_from_text`` for every text spec, and the Hermes shortcut.

Input: one selector byte (text format and its parameters, as the conformance suite uses
them), then the model's text as UTF-8 (undecodable bytes replaced). The answer must be
``(clean_text, calls)`` or a toolwire error; the clean text is never longer than the text;
every call round-trips through ``to_dict``/``from_dict`` and JSON.

    python tools/fuzz/fuzz_text.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import json
import sys
from typing import Any

import _common

# (format, params) pairs: each text format with no parameters, then every params object
# the conformance suite passes it.
CHOICES: list[tuple[str, dict[str, Any]]] = []


def text_choices(toolwire: Any) -> list[tuple[str, dict[str, Any]]]:
    """Each text format with no parameters, then every params object the suite gives it."""
    formats = toolwire.Registry.default().text_formats()
    choices: list[tuple[str, dict[str, Any]]] = [(fmt, {}) for fmt in formats]
    suite = _common.ROOT / "specs" / "conformance" / "text"
    for path in sorted(suite.rglob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        for test in case.get("tests", []):
            choice = (case.get("format") or path.parent.name, test.get("params") or {})
            if choice[0] in formats and choice not in choices:
                choices.append(choice)
    return choices


def setup() -> None:
    global toolwire
    toolwire = _common.import_instrumented()
    CHOICES.extend(text_choices(toolwire))
    if not CHOICES:
        raise SystemExit("fuzz_text: no text formats are registered yet")


def _check_result(text: str, result: Any) -> None:
    clean, calls = result
    assert isinstance(clean, str), type(clean)
    assert len(clean) <= len(text), "the clean text grew"
    for call in calls:
        _common.check_call(call)


def check(selector: int, text: str) -> None:
    from toolwire.errors import ToolwireError

    fmt, params = CHOICES[selector % len(CHOICES)]
    try:
        result = toolwire.extract_from_text(fmt, text, **params)
    except ToolwireError:
        result = None
    if result is not None:
        _check_result(text, result)
    if fmt == "hermes" and set(params) <= {"tag"}:
        try:
            hermes = toolwire.extract_hermes_from_text(text, **params)
        except ToolwireError:
            hermes = None
        assert (hermes is None) == (result is None)
        if hermes is not None and result is not None:
            assert hermes[0] == result[0] and hermes[1] == list(result[1])


def test_one_input(raw: bytes) -> None:
    if raw:
        check(raw[0], raw[1:].decode("utf-8", "replace"))


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


toolwire: Any = None

if __name__ == "__main__":
    main(sys.argv)
