"""Running text conformance cases (specs/README.md §1b.12, §4) and saying how a reading differs.

One comparison for the Python suite (``tests/test_text_conformance.py``) and for
``toolwire conformance`` (the ``text`` operation, §10), so the two cannot drift: a test's
``expect`` is held key by key against the *reading* as JSON — ``clean_text``
(``extract_from_text``'s) beside the :class:`~toolwire.TextReply`'s JSON (``text``,
``reasoning``, ``calls`` with their fates, ``skipped``, ``truncated``, ``refused``) — or against
the ``unmapped_call`` error whose ``reply`` is the partial TextReply's JSON. Every difference
comes back as a line naming the place; an empty list is a pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._registry.registry import Registry
from .._text import TextReply
from ..errors import ToolwireError, UnmappedCall
from ._wire_cases import call_view, differences

__all__ = [
    "CHECK_KEYS", "TEXT_EXPECT_KEYS", "reading_problems", "run_text_test", "text_call_view",
    "text_differences", "text_reading",
]

TEXT_EXPECT_KEYS = (
    "clean_text", "calls", "text", "reasoning", "skipped", "truncated", "fates", "checked",
    "error", "refused",
)
"""Every key a text test's ``expect`` may give; each is compared where given."""

CHECK_KEYS = ("unknown_tool", "arguments_invalid", "arguments_errors")
"""A call's verdict against the test's tools: compared by ``checked``, never by ``calls``."""

_REGION_KEYS = {"skipped": ("start", "end", "code"), "refused": ("start", "end", "recipient")}
"""The keys of a region a case compares (the rest, ``text`` and ``reason``, are held to the
reply's text and left as prose)."""


def text_call_view(call: Any) -> dict[str, Any]:
    """A call (a ToolCall or its JSON) as a text case's ``calls`` gives it: :func:`call_view`
    without the verdict against the tools (:data:`CHECK_KEYS`)."""
    data = call_view(call)
    for key in CHECK_KEYS:
        data.pop(key, None)
    return data


def text_reading(registry: Registry, fmt: str, text: str, *, params: Mapping[str, str],
                 tools: Any = None) -> dict[str, Any]:
    """The whole reading of ``text`` as JSON: ``clean_text`` (``extract_from_text``'s) and
    ``read_text``'s TextReply JSON. Raises what ``read_text`` raises (``UnmappedCall`` with
    the partial TextReply as its ``reply``)."""
    reply = registry.read_text(fmt, text, tools=tools, **params)
    clean, _ = registry.extract_from_text(fmt, text, tools=tools, **params)
    return {"clean_text": clean, **reply.to_dict()}


def reading_problems(where: str, reading: Mapping[str, Any], text: str) -> list[str]:
    """Whether ``reading`` (without ``clean_text``) is a TextReply's JSON that reads back —
    each call's fate agreeing with its fields — and each region's ``text`` is the reply's
    text between its offsets."""
    prefix = f"{where}: " if where else ""
    try:
        TextReply.from_dict({k: v for k, v in reading.items() if k != "clean_text"})
    except (TypeError, ValueError, KeyError) as exc:
        return [f"{prefix}not a TextReply's JSON (specs/README.md §1b.12): {exc}"]
    return [f"{prefix}{key}[{index}].text: expected {text[r['start']:r['end']]!r}"
            f" (the reply's text at {r['start']}:{r['end']}), got {r['text']!r}"
            for key in _REGION_KEYS for index, r in enumerate(reading[key])
            if r["text"] != text[r["start"]:r["end"]]]


def text_differences(test: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """How the outcome of reading a text test (``{"result": reading}`` or ``{"error":
    error JSON}``) differs from its ``expect``: the clean text, or the error's code and
    ``item_type`` with its partial reply; then every other key the test gives."""
    expect = test["expect"]
    error = outcome.get("error")
    if "error" in expect:
        wanted = expect["error"]
        if error is None:
            calls = len(outcome["result"]["calls"])
            return [f"error: expected {wanted['code']}, got a reading with {calls} call(s)"]
        out = differences("error.code", wanted["code"], error.get("code"))
        if "item_type" in wanted:
            out += differences("error.item_type", wanted["item_type"], error.get("item_type"))
        reading, where = error.get("reply"), "error.reply"
        if not isinstance(reading, Mapping):
            return [*out, f"error.reply: expected the partial TextReply, got {reading!r}"]
    else:
        if error is not None:
            return [f"expected a reading, got error {error.get('code')}:"
                    f" {error.get('message', '')}".rstrip()]
        reading, where = outcome["result"], ""
        out = differences("clean_text", expect["clean_text"], reading["clean_text"])
    out += reading_problems(where, reading, test["text"])
    calls = reading["calls"]
    got: dict[str, Any] = {"calls": [text_call_view(c) for c in calls]}
    for key in ("text", "reasoning", "truncated"):
        if key in expect:
            got[key] = reading[key]
    for key, keys in _REGION_KEYS.items():
        if key in expect:
            got[key] = [{k: region.get(k) for k in keys} for region in reading[key]]
    if "fates" in expect:
        got["fates"] = [call.get("fate") for call in calls]
    if "checked" in expect:
        got["checked"] = [{"unknown_tool": call.get("unknown_tool", False),
                           "arguments_invalid": call.get("arguments_invalid", False)}
                          for call in calls]
    prefix = f"{where}." if where else ""
    return out + [d for key, value in got.items()
                  for d in differences(prefix + key, expect[key], value)]


def run_text_test(registry: Registry, fmt: str, test: Mapping[str, Any]) -> list[str]:
    """Run one test of a text case against ``registry``: the differences, [] for a pass.

    The reading is compared as JSON (:func:`text_differences`), as ``toolwire conformance``
    compares another implementation's answers. Besides the expectation it holds the library
    to its own promises: ``extract_from_text`` refuses as ``read_text`` does and otherwise
    gives its calls, an ``UnmappedCall``'s reply is a TextReply, and the TextReply's JSON
    round-trips.
    """
    params, tools = test.get("params", {}), test.get("tools")
    out: list[str] = []
    try:
        reply = registry.read_text(fmt, test["text"], tools=tools, **params)
    except UnmappedCall as exc:
        if not isinstance(exc.reply, TextReply):
            out.append(f"read_text: the error's reply is a {type(exc.reply).__name__},"
                       " not a TextReply")
        try:
            registry.extract_from_text(fmt, test["text"], tools=tools, **params)
        except UnmappedCall:
            pass
        else:
            out.append("extract_from_text: raised nothing, read_text raised unmapped_call")
        return out + text_differences(test, {"error": exc.to_dict()})
    except ToolwireError as exc:
        return text_differences(test, {"error": exc.to_dict()})
    try:
        clean, calls = registry.extract_from_text(fmt, test["text"], tools=tools, **params)
    except ToolwireError as exc:
        return [f"extract_from_text: raised {exc.code}, read_text gave a reply"]
    out += text_differences(test, {"result": {"clean_text": clean, **reply.to_dict()}})
    if calls != list(reply.calls):
        out.append("extract_from_text: its calls differ from read_text's")
    if TextReply.from_dict(reply.to_dict()) != reply:
        out.append("TextReply.from_dict(reply.to_dict()) differs from the reply")
    return out
