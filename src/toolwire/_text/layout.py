"""Where the markers and expressions of a text spec sit, named in one place.

The loader checks every marker's placeholders and compiles every expression; the
builder renders the same markers with the caller's values. Both walk the spec with
these functions, so a new marker key is declared once. Values of the wrong type are
skipped: the meta-schema reports those.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

__all__ = ["EXPRESSION_KEYS", "expressions", "markers", "objects"]

_MARKER_KEYS: Final = {
    "json": ("separator",),
    "head-json": (
        "head_end",
        "arguments_start",
        "name_prefix",
        "index_suffix",
        "id_marker",
        "arguments_prefix",
        "arguments_suffix",
    ),
    "xml-parameters": ("name_end",),
    "pythonic": (),
    "call-object": ("call_prefix", "string_delimiter"),
    "xml-elements": (),
}
_TAG_GROUPS: Final = {
    "xml-parameters": ("function", "parameter"),
    "xml-elements": ("function", "element"),
}

EXPRESSION_KEYS: Final = ("when", "name", "arguments", "id")
"""Keys of a ``json`` payload that hold JMESPath expressions."""


def objects(value: Any) -> list[tuple[int, dict[str, Any]]]:
    """The mappings of a list, with their indexes."""
    if not isinstance(value, list):
        return []
    return [(i, v) for i, v in enumerate(value) if isinstance(v, dict)]


def _strings(pointer: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                yield f"{pointer}/{i}", item


def markers(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(pointer, text)`` of every marker in the spec, in document order."""
    for group in ("section", "block"):
        entry = data.get(group)
        if isinstance(entry, dict):
            for key in ("open", "close"):
                yield from _strings(f"/{group}/{key}", entry.get(key))
            for i, opening in objects(entry.get("open")):  # an open marker with its own close
                for key in ("open", "close"):
                    yield from _strings(f"/{group}/open/{i}/{key}", opening.get(key))
    messages = data.get("messages")
    if isinstance(messages, dict):
        for key in ("start", "channel", "message", "ends", "recipient", "calls_prefix"):
            yield from _strings(f"/messages/{key}", messages.get(key))
    for i, entry in objects(data.get("reasoning")):
        for key in ("open", "close", "ends_at"):
            yield from _strings(f"/reasoning/{i}/{key}", entry.get(key))
    for i, entry in objects(data.get("payload")):
        base = f"/payload/{i}"
        grammar = entry.get("grammar")
        for key in _MARKER_KEYS.get(grammar, ()) if isinstance(grammar, str) else ():
            yield from _strings(f"{base}/{key}", entry.get(key))
        groups = _TAG_GROUPS.get(grammar) if isinstance(grammar, str) else None
        for group in groups or ():
            tags = entry.get(group)
            if isinstance(tags, dict):
                for key in ("open", "name_end", "value_open", "close", "type_open", "type_close"):
                    yield from _strings(f"{base}/{group}/{key}", tags.get(key))


def expressions(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(pointer, source)`` of every JMESPath expression in the spec."""
    for i, entry in objects(data.get("payload")):
        if entry.get("grammar") != "json":
            continue
        for key in EXPRESSION_KEYS:
            if isinstance(entry.get(key), str):
                yield f"/payload/{i}/{key}", entry[key]
