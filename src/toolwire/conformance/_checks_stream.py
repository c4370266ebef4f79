"""The checks of stream cases (specs/README.md §4, §9): the case's expectation, then the
derived properties every implementation is held to.

* The ready order, the reply (or the error, raised again by ``reply()``), the bound format,
  and, where the test gives one, equality with ``read()`` of the ``equivalent_response``.
* Prefix safety: fed only the first *k* events, an implementation hands out the calls the
  whole stream hands out first, in order (a call handed out is final), and every call of
  its partial reply (``allow_incomplete``) is ``incomplete`` or the whole stream's call in
  that place; the partial text is a prefix.
* Byte splits: raw text cut at every byte offset, and fed one byte at a time, gives the
  same updates and the same outcome as the whole.

The requests for the cuts and splits are derived here, so an implementation only answers
``stream`` requests.
"""

from __future__ import annotations

from typing import Any

from .._values.arguments import decode_arguments
from ._checks_wire import Check, reply_shape_problems
from ._wire_cases import differences, same_json

__all__ = ["check_stream", "ready_text", "update_json"]

SAMPLE_SPLITS = False
"""Whether a stream check sends a sample of the single-split requests (``True``) instead of
one per byte offset: every offset next to a line end or inside a multi-byte character, and
every 16th. The request that feeds the text one byte at a time is sent either way, so every
offset is still a boundary once. Not part of the protocol (specs/README.md §10 sends them
all, and ``toolwire conformance`` does): the project's default test run samples, its
``exhaustive`` group sends them all (tests/conformance.py)."""

_CORE = ("name", "arguments", "id", "arguments_undecodable", "arguments_error_code",
         "incomplete")
_PROVENANCE = ("raw_arguments", "item_index", "fate", "record")


def _core(call: dict[str, Any]) -> dict[str, Any]:
    """The fields of a call the stream suite compares (others are other parts')."""
    data = {k: call[k] for k in _CORE if k in call}
    data.setdefault("incomplete", False)
    return data


def _value(call: dict[str, Any]) -> dict[str, Any]:
    """A call as ToolCall equality sees it: without its provenance, fate and record."""
    return {k: v for k, v in call.items() if k not in _PROVENANCE}


def update_json(update: dict[str, Any]) -> dict[str, Any]:
    """One update's JSON as the suite compares it: a refused update's ``reason`` (each
    implementation's own wording where the type is unknown) left out."""
    return {k: v for k, v in update.items() if k != "reason"}


def ready_text(update: dict[str, Any]) -> str:
    """One update as the suite spells it: kind, then the call's id (or name) or item type."""
    kind = update.get("kind")
    if kind == "call":
        call = update.get("call") or {}
        return f"call:{call.get('id') or call.get('name')}"
    if kind == "server_call":
        return f"server_call:{(update.get('server_call') or {}).get('type')}"
    if kind == "finished":
        reason = update.get("finish_reason")
        return f"finished:{'None' if reason is None else reason}"
    return f"{kind}:{update.get('item_type')}"


def _reply_differences(where: str, reply: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    got: dict[str, Any] = {}
    want: dict[str, Any] = {}
    if "calls" in expect:
        got["calls"] = [_core(c) for c in reply["calls"]]
        want["calls"] = [_core(c) for c in expect["calls"]]
    if "server_calls" in expect:
        got["server_calls"] = [{k: v for k, v in s.items() if k in ("type", "id", "name",
                                                                     "status")}
                               for s in reply["server_calls"]]
    for key in ("server_calls", "truncated", "finish_reason", "text", "unknown_types"):
        if key in expect:
            want[key] = expect[key]
            if key != "server_calls":
                got[key] = reply.get(key)
    return differences(where, want, got)


def _decoded_input(server_call: dict[str, Any]) -> dict[str, Any]:
    """A server call whose input a stream delivered as JSON text pieces holds that text
    where the whole body holds the object: both compare through the decoding table."""
    value = server_call.get("input")
    if isinstance(value, str):
        decoded, undecodable, _ = decode_arguments(value)
        if not undecodable:
            return {**server_call, "input": decoded}
    return server_call


def _without_provenance(reply: dict[str, Any]) -> dict[str, Any]:
    calls = [{k: v for k, v in c.items() if k != "raw_arguments"} for c in reply["calls"]]
    turn = reply.get("turn")
    if turn is not None:  # the turn holds the server items whose input streamed as text
        items = [i if type(i) is int else _decoded_input(i) for i in turn["items"]]
        turn = {**turn, "items": items}
    return {**reply, "calls": calls, "turn": turn,
            "server_calls": [_decoded_input(s) for s in reply["server_calls"]]}


def _stream_request(rid: str, fmt: str | None, *, events: list[Any] | None = None,
                    sse: str | None = None, splits: list[int] | None = None) -> dict[str, Any]:
    return {"id": rid, "op": "stream", "format": fmt, "events": events, "sse": sse,
            "splits": splits or []}


def _expectation(rid: str, fmt: str | None, test: dict[str, Any],
                 answer: dict[str, Any]) -> Check:
    """The test's own ``expect`` on the answer of the whole stream."""
    expect = test["expect"]
    if "error" in answer:
        return [f"stream: the request failed: {answer['error'].get('code')}:"
                f" {answer['error'].get('message', '')}"]
    result = answer["result"]
    out: list[str] = []
    if "ready" in expect:
        out += differences("ready", expect["ready"], [ready_text(u) for u in result["ready"]])
    if "ready_updates" in expect:
        out += differences("ready_updates", expect["ready_updates"],
                           [update_json(u) for u in result["ready"]])
    if "stream_complete" in expect:
        out += differences("stream_complete", expect["stream_complete"], result["complete"])
    if "format" in expect:
        out += differences("format", expect["format"], result["format"])
    failure, reply = result["error"], result["reply"]
    wanted = expect.get("error")
    if failure is not None and wanted is None:
        return [*out, f"feeding raised {failure.get('code')}: {failure.get('message', '')}"]
    if wanted is not None:
        if failure is not None:
            out += differences("error.code", wanted["code"], failure.get("code"))
        if "error" not in reply:
            return [*out, f"reply(): expected {wanted['code']}, got a reply"]
        out += differences("reply().error.code", wanted["code"], reply["error"].get("code"))
        if "error_code" in wanted:
            out += differences("reply().error.error_code", wanted["error_code"],
                               reply["error"].get("error_code"))
        if "event_index" in wanted:
            out += differences("reply().error.event_index", wanted["event_index"],
                               reply["error"].get("event_index"))
        if test.get("allow_incomplete"):
            partial = result["incomplete_reply"]
            if "error" in partial:
                return [*out, "reply(allow_incomplete=true): expected a reply, got error"
                        f" {partial['error'].get('code')}"]
            out += reply_shape_problems("reply(allow_incomplete=true)", partial["result"])
            out += _reply_differences("", partial["result"], expect)
        return out
    if "error" in reply:
        return [*out, f"reply(): expected a reply, got error {reply['error'].get('code')}:"
                f" {reply['error'].get('message', '')}"]
    whole = reply["result"]
    out += reply_shape_problems("reply()", whole)
    if out:
        return out
    out += _reply_differences("", whole, expect)
    calls = [_value(c) for c in whole["calls"]]
    for update in result["ready"]:
        if update.get("kind") == "call" and not any(
                same_json(_value(update["call"]), c) for c in calls):
            out.append(f"ready: the call handed out {_value(update['call'])} is not in"
                       " reply().calls")
    if test.get("equivalent_response") is not None:
        (read,) = yield [{"id": f"{rid}:equivalent", "op": "read",
                          "format": fmt or result["format"], "spec": None,
                          "response": test["equivalent_response"], "strict": None,
                          "choice": None, "tools": None}]
        if "error" in read:
            return [*out, f"read(equivalent_response): got error {read['error'].get('code')}"]
        out += differences("reply() against read(equivalent_response)",
                           _without_provenance(read["result"]), _without_provenance(whole))
    return out


def _partial(answer: dict[str, Any]) -> dict[str, Any] | None:
    """The reply(allow_incomplete=true) of an answer, None where feeding or it failed."""
    if "error" in answer or answer["result"]["error"] is not None:
        return None
    partial: dict[str, Any] = answer["result"]["incomplete_reply"]
    return partial.get("result")


def _cuts(rid: str, fmt: str | None, events: list[Any], whole: dict[str, Any]) -> Check:
    """Prefix safety at every cut of the events: the calls a cut hands out are the whole
    stream's, in order (also where the whole stream fails later: what it handed out before
    failing is final), and the cut's partial reply agrees with the whole one."""
    full = _partial(whole) if "error" not in whole else None
    full_calls = None if full is None else [_value(c) for c in full["calls"]]
    handed_by_whole = [] if "error" in whole else [
        _value(u["call"]) for u in whole["result"]["ready"] if u.get("kind") == "call"]
    answers = yield [_stream_request(f"{rid}:cut{cut}", fmt, events=events[:cut])
                     for cut in range(len(events))]
    out: list[str] = []
    for cut, answer in enumerate(answers):
        where = f"cut after {cut} event(s)"
        if "error" in answer:
            out.append(f"{where}: the request failed: {answer['error'].get('code')}")
            continue
        handed = [u["call"] for u in answer["result"]["ready"] if u.get("kind") == "call"]
        for index, call in enumerate(handed):
            if index >= len(handed_by_whole) or not same_json(
                    _value(call), handed_by_whole[index]):
                out.append(f"{where}: hands out {_value(call)} as call {index}, which the"
                           " whole stream does not")
        partial = _partial(answer)
        if partial is None or full is None or full_calls is None:
            continue
        if len(partial["calls"]) > len(full_calls):
            out.append(f"{where}: {len(partial['calls'])} calls, the whole stream"
                       f" {len(full_calls)}")
            continue
        for index, call in enumerate(partial["calls"]):
            if not call.get("incomplete") and not same_json(_value(call), full_calls[index]):
                out.append(f"{where}: call {index} is neither incomplete nor the whole"
                           f" stream's: {_value(call)}")
            if call.get("incomplete") and not answer["result"]["complete"] \
                    and call.get("fate") == "runnable":
                out.append(f"{where}: incomplete call {index} is runnable")
        text, full_text = partial.get("text") or "", full.get("text") or ""
        if not full_text.startswith(text):
            out.append(f"{where}: the text {text!r} is not a prefix of the whole"
                       f" stream's {full_text!r}")
    return out


def _split_key(answer: dict[str, Any]) -> list[Any]:
    if "error" in answer:
        return ["request failed", answer["error"].get("code")]
    result = answer["result"]
    ready = [[u.get("kind"), _value(u["call"]) if u.get("call") else None]
             for u in result["ready"]]
    if result["error"] is not None:
        return ["error", result["error"].get("code"), ready]
    partial = result["incomplete_reply"]
    if "error" in partial:
        return ["error", partial["error"].get("code"), ready]
    return ["reply", partial["result"], ready]


def _sampled(data: bytes, at: int) -> bool:
    """Whether the sample of :data:`SAMPLE_SPLITS` keeps the split at byte ``at``."""
    return at % 16 == 0 or any(byte in b"\r\n" or byte >= 0x80 for byte in data[at - 1:at + 1])


def _splits(rid: str, fmt: str | None, sse: str, whole: dict[str, Any]) -> Check:
    """The raw text cut at every byte offset, and fed one byte at a time."""
    data = sse.encode("utf-8")
    offsets = list(range(1, len(data)))
    split_at = [at for at in offsets if _sampled(data, at)] if SAMPLE_SPLITS else offsets
    answers = yield [
        *(_stream_request(f"{rid}:split{at}", fmt, sse=sse, splits=[at]) for at in split_at),
        _stream_request(f"{rid}:bytes", fmt, sse=sse, splits=offsets),
    ]
    want = _split_key(whole)
    out = []
    for label, answer in zip([f"split at byte {at}" for at in split_at] + ["one byte at a time"],
                             answers, strict=True):
        got = _split_key(answer)
        if not same_json(got, want):
            out.append(f"{label}: {got!r} differs from the whole text's {want!r}")
            if len(out) >= 3:
                break
    return out


def _stream_test(rid: str, fmt: str | None, test: dict[str, Any]) -> Check:
    events, sse = test.get("events"), test.get("sse")
    (whole,) = yield [_stream_request(rid, fmt, events=events, sse=sse)]
    out: list[str] = yield from _expectation(rid, fmt, test, whole)
    if events:
        out += yield from _cuts(rid, fmt, events, whole)
    elif sse is not None:
        out += yield from _splits(rid, fmt, sse, whole)
    return out


def check_stream(name: str, data: dict[str, Any]) -> Check:
    """A stream case: each test's expectation, then its derived properties."""
    out: list[str] = []
    for index, test in enumerate(data["tests"]):
        if ("events" in test) == ("sse" in test):
            out.append(f"tests[{index}]: a stream test has exactly one of events and sse")
            continue
        found = yield from _stream_test(f"{name}::{index}", data["format"], test)
        out += [f"tests[{index}]: {d}" for d in found]
    return out
