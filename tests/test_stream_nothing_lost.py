"""Nothing lost in a stream, as a property: every call put in comes out, or the stream fails.

For each base format a stream of N generated calls is built the way the provider sends it
(the calls' arguments split into pieces), then mutated — cut after any event or at any byte,
a key removed from an object that describes a call, a marker (``"}``, ``[DONE]``, an SSE
boundary, a closing tag) injected into one of a call's strings, an event sent twice, the
event that closes one call dropped, or the whole stream replaced by the finished reply — and
fed as events or as raw bytes split anywhere. The outcome is a ``ToolwireError`` (from
``feed``, ``feed_bytes``, ``close`` or ``reply``), or a reply that accounts for every one of
the N calls: as a call (flagged or not), a ``skipped`` entry, a refused or an unknown item —
and where a call's closing event was dropped, that call is never runnable. A clean reply with
fewer calls is the failure this test exists for ("0 calls" on input not understood).

Examples are bounded and derandomized; ``TOOLWIRE_PROPERTY_EXAMPLES=5000`` hunts longer.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire

HUNT = os.environ.get("TOOLWIRE_PROPERTY_EXAMPLES")
SETTINGS = settings(
    max_examples=int(HUNT) if HUNT else 300,
    deadline=None,
    derandomize=not HUNT,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Call = tuple[str, str, list[str]]
"""(id, name, the arguments' JSON text in pieces)."""
Built = tuple[list[dict[str, Any]], list[tuple[int, tuple[Any, ...]]]]
"""(the events, where each object describing a call is: (event index, path))."""
CLOSERS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "anthropic": lambda e: e.get("type") == "content_block_stop",
    "responses": lambda e: e.get("type") == "response.output_item.done",
    "bedrock": lambda e: "contentBlockStop" in e,
    "cohere": lambda e: e.get("type") == "tool-call-end",
}
"""The event that closes one call, in the formats whose calls close by an event (§9.6)."""

MARKERS = ['"}', "[DONE]", "\n\ndata: [DONE]\n\n", "</tool_call>", "\r\n", "data: ", '{"',
           "\u2028", "\\"]


def _chat(calls: list[Call]) -> Built:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    events = [chunk({"role": "assistant", "content": None})]
    where: list[tuple[int, tuple[Any, ...]]] = []
    for index, (call_id, name, pieces) in enumerate(calls):
        for number, piece in enumerate(pieces):
            fragment: dict[str, Any] = {"index": index, "function": {"arguments": piece}}
            if number == 0:
                fragment.update(id=call_id, type="function")
                fragment["function"]["name"] = name
            where.append((len(events), ("choices", 0, "delta", "tool_calls", 0)))
            events.append(chunk({"tool_calls": [fragment]}))
    events.append(chunk({}, "tool_calls"))
    return events, where


def _anthropic(calls: list[Call]) -> Built:
    events: list[dict[str, Any]] = [{"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "content": [],
        "stop_reason": None}}]
    where: list[tuple[int, tuple[Any, ...]]] = []
    for index, (call_id, name, pieces) in enumerate(calls):
        where.append((len(events), ("content_block",)))
        events.append({"type": "content_block_start", "index": index, "content_block": {
            "type": "tool_use", "id": call_id, "name": name, "input": {}}})
        for piece in pieces:
            where.append((len(events), ("delta",)))
            events.append({"type": "content_block_delta", "index": index,
                           "delta": {"type": "input_json_delta", "partial_json": piece}})
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": "tool_use"}})
    events.append({"type": "message_stop"})
    return events, where


def _responses(calls: list[Call]) -> Built:
    response = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    where: list[tuple[int, tuple[Any, ...]]] = []
    done = []
    for index, (call_id, name, pieces) in enumerate(calls):
        item = {"type": "function_call", "id": f"fc_{index}", "call_id": call_id, "name": name,
                "arguments": "", "status": "in_progress"}
        where.append((len(events), ("item",)))
        events.append({"type": "response.output_item.added", "output_index": index,
                       "item": item})
        for piece in pieces:
            events.append({"type": "response.function_call_arguments.delta",
                           "output_index": index, "delta": piece})
        final = {**item, "arguments": "".join(pieces), "status": "completed"}
        done.append(final)
        where.append((len(events), ("item",)))
        events.append({"type": "response.output_item.done", "output_index": index,
                       "item": copy.deepcopy(final)})
    events.append({"type": "response.completed",
                   "response": {**response, "status": "completed", "output": done}})
    return events, where


def _gemini(calls: list[Call]) -> Built:
    events: list[dict[str, Any]] = []
    where: list[tuple[int, tuple[Any, ...]]] = []
    for _, name, pieces in calls:
        where.append((len(events), ("candidates", 0, "content", "parts", 0, "functionCall")))
        events.append({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": name, "args": json.loads("".join(pieces))}}]}}]})
    events.append({"candidates": [{"content": {"role": "model", "parts": []},
                                   "finishReason": "STOP"}]})
    return events, where


def _ollama(calls: list[Call]) -> Built:
    events: list[dict[str, Any]] = []
    where: list[tuple[int, tuple[Any, ...]]] = []
    for _, name, pieces in calls:
        where.append((len(events), ("message", "tool_calls", 0, "function")))
        events.append({"model": "m", "message": {"role": "assistant", "content": "",
                       "tool_calls": [{"function": {"name": name,
                                                    "arguments": json.loads("".join(pieces))}}]},
                       "done": False})
    events.append({"model": "m", "message": {"role": "assistant", "content": ""}, "done": True,
                   "done_reason": "stop"})
    return events, where


def _bedrock(calls: list[Call]) -> Built:
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    where: list[tuple[int, tuple[Any, ...]]] = []
    for index, (call_id, name, pieces) in enumerate(calls):
        where.append((len(events), ("contentBlockStart", "start", "toolUse")))
        events.append({"contentBlockStart": {"start": {"toolUse": {
            "toolUseId": call_id, "name": name}}, "contentBlockIndex": index}})
        for piece in pieces:
            where.append((len(events), ("contentBlockDelta", "delta", "toolUse")))
            events.append({"contentBlockDelta": {"delta": {"toolUse": {"input": piece}},
                                                 "contentBlockIndex": index}})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
    events.append({"messageStop": {"stopReason": "tool_use"}})
    events.append({"metadata": {"usage": {"inputTokens": 1, "outputTokens": 1}}})
    return events, where


def _cohere(calls: list[Call]) -> Built:
    events: list[dict[str, Any]] = [{"type": "message-start", "id": "msg_1",
                                     "delta": {"message": {"role": "assistant"}}}]
    where: list[tuple[int, tuple[Any, ...]]] = []
    for index, (call_id, name, pieces) in enumerate(calls):
        where.append((len(events), ("delta", "message", "tool_calls")))
        events.append({"type": "tool-call-start", "index": index, "delta": {"message": {
            "tool_calls": {"id": call_id, "type": "function",
                           "function": {"name": name, "arguments": ""}}}}})
        for piece in pieces:
            events.append({"type": "tool-call-delta", "index": index, "delta": {"message": {
                "tool_calls": {"function": {"arguments": piece}}}}})
        events.append({"type": "tool-call-end", "index": index})
    events.append({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}})
    return events, where


def _finished(fmt: str, calls: list[Call]) -> dict[str, Any]:
    """The finished reply holding the calls, as a non-streamed request returns it."""
    args = [("".join(pieces), json.loads("".join(pieces))) for _, _, pieces in calls]
    if fmt == "openai":
        return {"id": "c", "object": "chat.completion", "model": "m", "choices": [{
            "index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None, "tool_calls": [
                    {"id": i, "type": "function", "function": {"name": n, "arguments": a[0]}}
                    for (i, n, _), a in zip(calls, args, strict=True)]}}]}
    if fmt == "anthropic":
        return {"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
                "content": [{"type": "tool_use", "id": i, "name": n, "input": a[1]}
                            for (i, n, _), a in zip(calls, args, strict=True)]}
    if fmt == "responses":
        return {"id": "resp_1", "object": "response", "status": "completed", "output": [
            {"type": "function_call", "id": f"fc_{k}", "call_id": i, "name": n,
             "arguments": a[0], "status": "completed"}
            for k, ((i, n, _), a) in enumerate(zip(calls, args, strict=True))]}
    if fmt == "gemini":
        return {"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
            {"functionCall": {"name": n, "args": a[1]}}
            for (_, n, _), a in zip(calls, args, strict=True)]}}]}
    if fmt == "ollama":
        return {"model": "m", "done": True, "done_reason": "stop", "message": {
            "role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": n, "arguments": a[1]}}
                for (_, n, _), a in zip(calls, args, strict=True)]}}
    if fmt == "bedrock":
        return {"stopReason": "tool_use", "output": {"message": {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": i, "name": n, "input": a[1]}}
            for (i, n, _), a in zip(calls, args, strict=True)]}}}
    return {"id": "msg_1", "finish_reason": "TOOL_CALL", "message": {
        "role": "assistant", "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a[0]}}
            for (i, n, _), a in zip(calls, args, strict=True)]}}


BUILDERS: dict[str, Callable[[list[Call]], Built]] = {
    "openai": _chat, "anthropic": _anthropic, "responses": _responses, "gemini": _gemini,
    "ollama": _ollama, "bedrock": _bedrock, "cohere": _cohere,
}
SENTINEL = {"openai": "data: [DONE]\n\n", "cohere": "data: [DONE]\n\n"}

_values = st.one_of(st.integers(-5, 500), st.text(max_size=8), st.booleans(), st.none())
_arguments = st.dictionaries(st.sampled_from(["city", "q", "n", "path", "tz"]), _values,
                             max_size=3)


@st.composite
def _calls(draw: st.DrawFn) -> list[Call]:
    calls = []
    for index in range(draw(st.integers(1, 4))):
        text = json.dumps(draw(_arguments))
        cuts = sorted(draw(st.sets(st.integers(1, max(len(text) - 1, 1)), max_size=3)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        name = draw(st.sampled_from(["get_weather", "search", "f", "delete_path"]))
        calls.append((f"call_{index}", name, [p for p in pieces if p]))
    return calls


def _at(event: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        event = event[step]
    return event


def _mutated(draw: st.DrawFn, fmt: str, calls: list[Call], events: list[dict[str, Any]],
             where: list[tuple[int, tuple[Any, ...]]]) -> tuple[str, list[dict[str, Any]], str]:
    """(the mutation, the events, the id of a call whose closing event was dropped, or "")."""
    kind = draw(st.sampled_from(["none", "cut", "remove", "marker", "twice", "unclosed",
                                 "finished"]))
    events = copy.deepcopy(events)
    if kind == "finished":
        return kind, [_finished(fmt, calls)], ""
    if kind == "unclosed" and fmt in CLOSERS:
        closers = [i for i, e in enumerate(events) if CLOSERS[fmt](e)]
        number = draw(st.integers(0, len(closers) - 1))
        return kind, events[:closers[number]] + events[closers[number] + 1:], calls[number][0]
    if kind == "cut":
        return kind, events[:draw(st.integers(0, len(events)))], ""
    if kind == "twice":
        index = draw(st.integers(0, len(events) - 1))
        return kind, [*events[:index + 1], copy.deepcopy(events[index]), *events[index + 1:]], ""
    if kind not in ("remove", "marker") or not where:
        return "none", events, ""
    index, path = draw(st.sampled_from(where))
    target = _at(events[index], path)
    if kind == "remove" and isinstance(target, dict) and target:
        del target[draw(st.sampled_from(sorted(target)))]
    elif kind == "marker":
        strings = sorted(k for k, v in target.items() if isinstance(v, str))
        if strings:
            key = draw(st.sampled_from(strings))
            at = draw(st.integers(0, len(target[key])))
            target[key] = target[key][:at] + draw(st.sampled_from(MARKERS)) + target[key][at:]
    return kind, events, ""


def _outcome(fmt: str, events: list[dict[str, Any]], chunks: list[bytes] | None) -> Any:
    acc = toolwire.Accumulator(fmt)
    try:
        if chunks is None:
            for event in events:
                acc.feed(event)
        else:
            for chunk in chunks:
                acc.feed_bytes(chunk)
        return acc.reply()
    except toolwire.errors.ToolwireError as exc:
        return exc


def _accounted(reply: toolwire.Reply) -> int:
    return len(reply.calls) + len(reply.skipped) + len(reply.refused) + len(reply.unknown)


@SETTINGS
@given(st.data())
def test_every_streamed_call_comes_out_or_the_stream_fails(data: st.DataObject) -> None:
    fmt = data.draw(st.sampled_from(sorted(BUILDERS)), label="format")
    calls = data.draw(_calls(), label="calls")
    built, where = BUILDERS[fmt](calls)
    kind, events, unclosed = _mutated(data.draw, fmt, calls, built, where)
    as_bytes = data.draw(st.booleans(), label="as bytes")
    chunks = None
    if as_bytes:
        text = ("".join(json.dumps(e) + "\n" for e in events) if fmt == "ollama" else
                "".join(f"data: {json.dumps(e)}\n\n" for e in events))
        if kind not in ("cut", "unclosed", "finished"):
            text += SENTINEL.get(fmt, "")  # a cut stream never gets its sentinel
        raw = text.encode()
        end = data.draw(st.integers(0, len(raw)), label="byte cut") if data.draw(
            st.booleans(), label="cut bytes") else len(raw)
        split = data.draw(st.integers(0, end), label="split")
        chunks = [raw[:split], raw[split:end]]
    outcome = _outcome(fmt, events, chunks)
    if isinstance(outcome, toolwire.errors.ToolwireError):
        return  # accounted: the stream failed, loudly
    assert _accounted(outcome) >= len(calls), (fmt, kind, outcome)
    if unclosed:  # a call whose item never closed is never runnable (§9.6)
        assert all(c.id != unclosed for c in outcome.runnable_calls), (fmt, outcome)
    if kind == "none" and (chunks is None or sum(map(len, chunks)) == len(raw)):
        assert [c.name for c in outcome.runnable_calls] == [c[1] for c in calls]
