"""The assistant's text of a wire reply, and the tool calls a model wrote inside it.

Every wire spec names where the reply's assistant text is with a ``content``
expression (specs/README.md §1.10): a string, or a list whose strings are joined (the
text blocks of an Anthropic or Responses reply). :func:`assistant_text` reads it for
:attr:`toolwire.Reply.text`.

Servers run without a tool parser pass the model's calls through as text:
``choices[0].message.content`` holds ``<tool_call>{…}</tool_call>``. With
``read(fmt, data, text_format="hermes")`` :func:`lift_text_calls` reads that text with
the text spec and returns the reply with those calls after the wire calls and the
clean text (reasoning regions cut out) as its ``text``; the call regions of the text that
gave no call are in its ``skipped`` after the wire's records (:func:`text_skipped`), so a
loop that trusts ``skipped`` hears of a call the text holds but could not be read.
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING
from .._speed.record import setfield
from .._values.call_ids import with_ids
from .._values.records import SkippedItem
from .._values.turn import Turn
from ..errors import MalformedResponse, UnmappedCall

if TYPE_CHECKING:
    from typing import Any

    from .._spec import WireSpec
    from .._text import TextSpec
    from .._values.reply import Reply

__all__ = ["assistant_text", "lift_text_calls", "text_of", "text_skipped"]


def assistant_text(spec: WireSpec, response: Any) -> str | None:
    """The reply's assistant text by the spec's ``content``, or None when it has none.

    A string is the text; a list's strings are joined with nothing between them (its
    other members, null text fields of non-text blocks, are skipped); anything else,
    and a spec without ``content``, is no text.
    """
    expression = spec.content
    if expression is None:
        return None
    try:
        value = expression.evaluate(response)
    except ValueError as exc:
        raise MalformedResponse(spec.format, f"content: {exc}") from None
    return text_of(value)


def text_of(value: Any) -> str | None:
    """The text of the value the spec's ``content`` selected (see :func:`assistant_text`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [part for part in value if isinstance(part, str)]
        return "".join(parts) if parts else None
    return None


def lift_text_calls(
    reply: Reply, text_spec: TextSpec, tools: Any, params: dict[str, str], ids: Any = None,
) -> Reply:
    """``reply`` with the calls written in its text lifted out by ``text_spec``.

    A message the text spec refuses (a Harmony message to a built-in tool) is refused here
    too: :class:`~toolwire.errors.UnmappedCall` carries this reply, the text's calls lifted, as its
    partial reply. A call the end of the text cut keeps its ``incomplete`` flag. ``ids``
    (``"mint"`` or a function of the call and its index in ``reply.calls``) gives each
    lifted call without an id one (:mod:`toolwire._values.call_ids`); the turn carries the
    lifted calls after the reply's items, so the assistant turn and the answers agree.
    """
    if reply.text is None:
        return reply
    # lazy: the text reader (47 ms) only with text_format=
    from .._text import TextReply, read_text_spec

    try:
        found = read_text_spec(text_spec, reply.text, tools=tools, **params)
    except UnmappedCall as exc:
        if not isinstance(exc.reply, TextReply):
            raise
        exc.reply = _lifted(reply, exc.reply, text_spec.format, ids)
        raise
    return _lifted(reply, found, text_spec.format, ids)


def text_skipped(regions: Any, text_format: str) -> tuple[SkippedItem, ...]:
    """The skipped records of the text's ``regions`` (a TextReply's ``skipped``): each about
    the reply's assistant text rather than one of its items (``item_index`` None), at
    ``content[START:END]`` (character offsets into that text), ``item_type`` the region's code
    (``cut-off``, ``not-a-call``), the reason saying the text held it."""
    return tuple(
        SkippedItem(None, f"content[{region.start}:{region.end}]", region.code,
                    f"in the assistant text read as {text_format}, characters"
                    f" {region.start}-{region.end}: {region.reason}")
        for region in regions
    )


def _lifted(reply: Reply, found: Any, text_format: str, ids: Any) -> Reply:
    values = {name: getattr(reply, name) for name in reply._fields}
    calls = reply.calls + found.calls
    if ids is not None and found.calls:
        given = [False] * len(reply.calls) + [True] * len(found.calls)
        named = with_ids(calls, ids, given, {c.id for c in reply.calls if c.id})
        if isinstance(named, str):
            raise ValueError(named)
        calls = named
    values["calls"] = calls
    turn = reply.turn
    if turn is not None and found.calls:  # the lifted calls, after the items that held them
        values["turn"] = Turn.read(
            turn._items + tuple(range(len(reply.calls), len(calls))), turn._response)
    values["text"] = found.text
    values["skipped"] = reply.skipped + text_skipped(found.skipped, text_format)
    lifted = object.__new__(type(reply))
    for name, value in values.items():
        setfield(lifted, name, value)
    return lifted
