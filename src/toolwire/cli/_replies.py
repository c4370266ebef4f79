"""Reply text from a file or standard input, parsed the one way every command shares.

``extract``, ``sniff`` and ``explain`` all answer a bad input with the same one line:
empty input, a byte-order mark, text that is not JSON (with the line and column the
parser stopped at) and JSON that is not an object are each a ``malformed_response``
naming the file. ``--jsonl`` reads JSON Lines: one reply per non-blank line, each
problem naming its line.
"""

from __future__ import annotations

from .._registry.registry import Registry
from .._speed import TYPE_CHECKING
from .._values.arguments import loads_strict
from ..errors import MalformedResponse

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

__all__ = ["parse_reply", "reply_lines", "stream_hint"]

_BOM = "\ufeff"


def _position(text: str) -> str:
    """`` at line L, column C`` where Python's parser stops on ``text``, else ``""``."""
    import json  # lazy: the json package (0.6x a cold start) only to place an error

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f" at line {exc.lineno}, column {exc.colno}"
    except (ValueError, RecursionError):
        pass
    return ""


def _bom(origin: str) -> str:
    return f"{origin} starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"


def parse_reply(text: str, origin: str) -> dict[str, Any]:
    """``text`` as one reply object; a :class:`MalformedResponse` naming ``origin`` if not."""
    if text.startswith(_BOM):
        raise MalformedResponse(None, _bom(origin))
    if not text.strip():
        raise MalformedResponse(None, f"{origin} is empty; a reply is a JSON object")
    try:
        data = loads_strict(text)
    except ValueError as exc:
        several = getattr(exc, "code", None) == "trailing-text" or str(exc) == "Extra data"
        hint = stream_hint(text) or (
            "; one reply per line? read them with --jsonl" if several else "")
        raise MalformedResponse(
            None, f"{origin} is not JSON: {exc}{_position(text)}{hint}"
        ) from None
    if not isinstance(data, dict):
        kind = "null" if data is None else {list: "an array", str: "a string", bool: "a boolean"
                                            }.get(type(data), "a number")
        raise MalformedResponse(None, f"{origin} is {kind}, not a JSON object (a reply)")
    return data


def stream_hint(text: str) -> str:
    """``; it looks like an openai stream (SSE): …--stream`` where ``text`` is a stream's
    SSE text or JSON lines of stream events, else ``""`` (specs/README.md §9.9, §9.10)."""
    body = text.lstrip()
    if not body:
        return ""
    if body[0] in "deir:":
        payload = next((line[5:].strip() for line in body.splitlines()[:64]
                        if line.startswith("data:")), None)
        if payload is None:
            return ""
        kind = "SSE"
    elif body[0] == "{":
        payload, kind = body.split("\n", 1)[0], "JSON lines of events"
    else:
        return ""
    try:
        event = loads_strict(payload)
    except ValueError:
        event = None
    fmt = None
    if isinstance(event, dict):
        # lazy: the stream reader (17 ms) only for a stream event given as a reply
        from .._stream.identify import stream_format

        fmt = stream_format(Registry.default(), event)
    if fmt is None and kind != "SSE":
        return ""  # JSON lines that are not events: replies, one per line
    named = f"{'an' if fmt[:1] in 'aeiou' else 'a'} {fmt} stream" if fmt else "a stream"
    return f"; it looks like {named} ({kind}): read it with toolwire extract --stream"


def reply_lines(text: str, origin: str) -> Iterator[tuple[int, dict[str, Any] | MalformedResponse]]:
    """JSON Lines: ``(line number, reply or its problem)`` for every non-blank line."""
    if text.startswith(_BOM):  # the whole input is refused, as for a single reply
        raise MalformedResponse(None, _bom(origin))
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            yield number, parse_reply(line, f"{origin}:{number}")
        except MalformedResponse as exc:
            yield number, exc
