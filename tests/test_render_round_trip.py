"""Calls rendered back to their wire read again as the same calls.

For every conformance reply of every format with a ``render`` part, ``read()`` → the
assistant turn (``assistant_message()``, and ``convert`` to the same format, which builds
the turn from the calls alone) → a reply body of that format (``render.reply``) →
``read()`` again gives equal calls: name, arguments, id, provider data, and where the
format writes arguments as text, the very same raw text byte for byte. A call the format
could only write by changing it (undecodable arguments where calls carry an object) is a
render error, never a silent rewrite.
"""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from toolwire import Registry
from toolwire._render import convert, reply_body
from toolwire._render.template import placeholders
from toolwire.errors import RenderError, ToolwireError

from conformance import cases, each_test

REGISTRY = Registry.default()
RENDERED = [
    (name, case.data["format"], test)
    for name, case, test in each_test(cases())
    if case.data.get("format") and REGISTRY.spec(case.data["format"]).render is not None
    and "error" not in test["expect"]
]


def _writes_text(fmt: str) -> bool:
    spec = REGISTRY.spec(fmt)
    assert spec.render is not None
    names = placeholders(spec.render.templates["call"])
    return "call.arguments_text" in names or "call.arguments_raw" in names


def _same_call(before: toolwire.ToolCall, after: toolwire.ToolCall, text: bool) -> None:
    assert (after.name, after.id) == (before.name, before.id)
    assert dict(after.provider_data) == dict(before.provider_data)
    assert after.arguments == before.arguments
    assert after.arguments_undecodable == before.arguments_undecodable
    if text and isinstance(before.raw_arguments, str):
        assert after.raw_arguments == before.raw_arguments  # byte for byte


def _round_trip(fmt: str, reply: toolwire.Reply, turn: Any) -> None:
    spec = REGISTRY.spec(fmt)
    assert spec.render is not None
    from toolwire._render.template import Scope, fill

    body = fill(spec.render.templates["reply"],
                Scope(fmt, {"assistant": turn, "finish_reason": reply.finish_reason}))
    _check(fmt, reply, toolwire.read(fmt, body, strict=False))


def _check(fmt: str, reply: toolwire.Reply, again: toolwire.Reply) -> None:
    kept = [c for c, f in zip(reply.calls, reply.fates(), strict=True) if f != "dropped"]
    assert len(again.calls) == len(kept)
    for before, after in zip(kept, again.calls, strict=True):
        _same_call(before, after, _writes_text(fmt))


@pytest.mark.parametrize(("name", "fmt", "test"), RENDERED, ids=[r[0] for r in RENDERED])
def test_rendered_calls_read_back_as_the_same_calls(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    try:
        reply = toolwire.read(fmt, test["response"], strict=test.get("strict"))
    except ToolwireError:
        pytest.skip("the reply does not read (its case expects an error)")
    kept = [c for c, f in zip(reply.calls, reply.fates(), strict=True) if f != "dropped"]
    if any(c.arguments_undecodable for c in kept) and not _writes_text(fmt):
        with pytest.raises(RenderError):
            reply.assistant_message()
        return
    items = reply.turn.items if reply.turn else ()
    if not kept and not reply.text and all(type(e) is int for e in items):
        with pytest.raises(RenderError, match="no assistant turn to write back"):
            reply.assistant_message()  # nothing to append: a reply body still reads back
    else:
        _round_trip(fmt, reply, reply.assistant_message())
    spec = REGISTRY.spec(fmt)
    assert spec.render is not None
    if spec.render.templates.get("requires_id") and any(not c.id for c in kept):
        with pytest.raises(RenderError, match="has no id"):
            convert(reply, fmt, lossy=True)
    else:
        _round_trip(fmt, reply, convert(reply, fmt, lossy=True))
    _check(fmt, reply, toolwire.read(fmt, reply_body(reply), strict=False))


def test_every_rendering_format_is_round_tripped() -> None:
    formats = {fmt for _, fmt, _ in RENDERED}
    assert {"openai", "responses", "anthropic", "gemini", "bedrock", "ollama", "cohere",
            "mistral", "deepseek"} <= formats
