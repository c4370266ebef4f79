"""JSON in and out through CPython's C accelerator, without importing the ``json`` package.

Why: ``import json`` imports ``re``, and ``re`` imports ``enum``: together about half
the time Python takes to start, paid by every short-lived process before it reads a
byte (a CLI call, a serverless function). The parsing and the string
escaping that matter are in the ``_json`` C module anyway, which needs none of them.

- :func:`loads` decodes ``str`` text exactly as ``json.loads`` does: the C scanner reads
  the value, and any text it does not accept is handed to ``json.loads`` itself, so a
  caller sees the very ``JSONDecodeError`` (message, line, column) it always saw.
- :func:`dumps` writes ``json.dumps(value, indent=..., ensure_ascii=...)`` text, with
  the default separators, for plain JSON values (exact ``dict``, ``list``, ``tuple``,
  ``str``, ``int``, ``float``, ``bool``, ``None``); anything else — an ``int``
  subclass, a cycle, an object ``json`` refuses — goes to ``json.dumps``, which answers
  (or raises) as before. ``tests/test_jsonc.py`` holds both to ``json`` on generated values.
- :func:`make_scan` is the C scanner with a decoder's hooks (``parse_float``,
  ``parse_constant``), for :mod:`toolwire._values.jsontext`.

Where ``_json`` is missing (another Python), everything is ``json``'s own.
"""

from __future__ import annotations

from . import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Scan = Callable[[str, int], tuple[Any, int]]

_make_scanner: Any
try:
    from _json import encode_basestring, encode_basestring_ascii
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - CPython always has it
    _make_scanner = None

__all__ = ["dumps", "loads", "make_scan"]

_BLANK = " \t\n\r"


class _Hooks:
    """What ``_json.make_scanner`` reads off a ``json.JSONDecoder``: its hooks."""

    def __init__(self, parse_float: Any, parse_constant: Any) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = parse_float
        self.parse_int = int
        self.parse_constant = parse_constant
        self.memo: dict[str, str] = {}


def _constant(name: str) -> float:
    return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def make_scan(parse_float: Any = float, parse_constant: Any = _constant) -> Scan:
    """``scan(text, index) -> (value, end)``: one JSON value starting at ``index``;
    raises (``StopIteration`` or ``ValueError``) where none starts there."""
    if _make_scanner is None:  # pragma: no cover
        import json  # lazy: the json package only for unusual hooks

        decoder = json.JSONDecoder(parse_float=parse_float, parse_constant=parse_constant)
        scan: Scan = decoder.scan_once  # type: ignore[attr-defined]
        return scan
    made: Scan = _make_scanner(_Hooks(parse_float, parse_constant))
    return made


_SCAN = make_scan()


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, the same value and the same errors (see the module docstring)."""
    if type(text) is str:
        start = len(text) - len(text.lstrip(_BLANK))
        try:
            value, end = _SCAN(text, start)
        except Exception:  # StopIteration, or a JSONDecodeError raised by the scanner
            end = -1
        if end == len(text) or (end > 0 and not text[end:].strip(_BLANK)):
            return value
    import json  # lazy: the json package only for unusual values

    return json.loads(text)


class _Unusual(Exception):
    """A value the writer below does not write itself: ``json.dumps`` does."""


def dumps(value: Any, *, indent: int | None = None, ensure_ascii: bool = True) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)`` (see the docstring)."""
    if _make_scanner is not None:
        quote = encode_basestring_ascii if ensure_ascii else encode_basestring
        parts: list[str] = []
        try:
            if indent is None:
                _write_flat(value, quote, parts.append)
            else:
                _write(value, quote, parts.append, "\n", " " * indent)
        except (_Unusual, RecursionError):
            pass
        else:
            return "".join(parts)
    import json  # lazy: the json package (0.6x a cold start) only for unusual values

    return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)


def _scalar(value: Any, quote: Callable[[str], str]) -> str:
    kind = type(value)
    if kind is str:
        return quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value in (_INF, -_INF):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise _Unusual


_INF = float("inf")


def _key(key: Any, quote: Callable[[str], str]) -> str:
    if type(key) is str:
        return quote(key)
    if key is None or type(key) in (bool, int, float):  # json.dumps spells them as strings
        return quote(_scalar(key, quote))
    raise _Unusual


def _write(
    value: Any, quote: Callable[[str], str], out: Callable[[str], Any], newline: str,
    step: str,
) -> None:
    """``value`` as ``json.dumps(indent=...)`` writes it, ``newline`` ending each line."""
    kind = type(value)
    if kind is dict:
        if not value:
            out("{}")
            return
        inner = newline + step
        out("{")
        first = True
        for key, item in value.items():
            out(inner if first else "," + inner)
            first = False
            out(_key(key, quote))
            out(": ")
            _write(item, quote, out, inner, step)
        out(newline)
        out("}")
    elif kind is list or kind is tuple:
        if not value:
            out("[]")
            return
        inner = newline + step
        out("[")
        first = True
        for item in value:
            out(inner if first else "," + inner)
            first = False
            _write(item, quote, out, inner, step)
        out(newline)
        out("]")
    else:
        out(_scalar(value, quote))


def _write_flat(value: Any, quote: Callable[[str], str], out: Callable[[str], Any]) -> None:
    """``value`` as ``json.dumps()`` writes it on one line (``", "`` and ``": "``)."""
    kind = type(value)
    if kind is dict:
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(", ")
            first = False
            out(_key(key, quote))
            out(": ")
            _write_flat(item, quote, out)
        out("}")
    elif kind is list or kind is tuple:
        out("[")
        first = True
        for item in value:
            if not first:
                out(", ")
            first = False
            _write_flat(item, quote, out)
        out("]")
    else:
        out(_scalar(value, quote))
