"""SDK stream-event objects accumulate exactly as their JSON.

For every stream conformance case of a format, the format's SDK builds its event objects
the way it does from the wire (Stainless' ``construct_type`` for openai, anthropic and
cohere, google-genai's ``_from_response``, pydantic validation for ollama and mistralai,
whose ``chat.stream()`` wraps each chunk in a ``CompletionEvent`` the mistral spec unwraps);
feeding them must give what feeding the JSON events gives: the same updates, the same
Reply (calls, server calls, text, finish) or the same error. An event the SDK cannot
build, or whose object drops a field the JSON has, skips the case with the SDK's reason:
it never reaches a user as an object. Events that are not JSON objects stay as they are
(the case checks that they are refused). Bedrock has no event objects: boto3 yields dicts.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from stream_cases import STREAM_TESTS

import toolwire
from toolwire.errors import ToolwireError


def _openai_chunk(event: dict[str, Any]) -> Any:
    from openai._models import construct_type
    from openai.types.chat import ChatCompletionChunk

    return construct_type(type_=ChatCompletionChunk, value=event)


def _openai_responses(event: dict[str, Any]) -> Any:
    from openai._models import construct_type
    from openai.types.responses import ResponseStreamEvent

    return construct_type(type_=ResponseStreamEvent, value=event)


def _anthropic(event: dict[str, Any]) -> Any:
    from anthropic._models import construct_type
    from anthropic.types.beta import BetaRawMessageStreamEvent  # GA events plus beta blocks

    return construct_type(type_=BetaRawMessageStreamEvent, value=event)


def _gemini(event: dict[str, Any]) -> Any:
    from google.genai import types

    return types.GenerateContentResponse._from_response(response=event, kwargs={})


def _cohere(event: dict[str, Any]) -> Any:
    import cohere
    from cohere.core.unchecked_base_model import construct_type

    return construct_type(type_=cohere.StreamedChatResponseV2, object_=event)


def _ollama(event: dict[str, Any]) -> Any:
    import ollama

    return ollama.ChatResponse.model_validate(event)


def _mistral(event: dict[str, Any]) -> Any:
    from mistralai.client.models import CompletionChunk

    return CompletionChunk.model_validate(event)


def _mistral_event(event: dict[str, Any]) -> Any:
    from mistralai.client.models import CompletionChunk, CompletionEvent

    # What chat.stream() yields: the chunk in an envelope, which the mistral spec unwraps.
    return CompletionEvent(data=CompletionChunk.model_validate(event))


# (pip package, builder, the formats whose stream cases it builds)
SDKS: dict[str, tuple[str, Callable[[dict[str, Any]], Any], tuple[str, ...]]] = {
    "openai-chat": ("openai", _openai_chunk, ("openai", "mistral")),
    "openai-responses": ("openai", _openai_responses, ("responses",)),
    "anthropic": ("anthropic", _anthropic, ("anthropic",)),
    "google-genai": ("google.genai", _gemini, ("gemini",)),
    "cohere": ("cohere", _cohere, ("cohere",)),
    "ollama": ("ollama", _ollama, ("ollama",)),
    "mistralai": ("mistralai", _mistral, ("openai", "mistral")),
    "mistralai-events": ("mistralai", _mistral_event, ("openai", "mistral")),
}
READ_AS = {"mistralai-events": "mistral"}  # the envelope is the mistral spec's (stream.unwrap)

CASES = [
    (f"{sdk}:{name}", sdk, READ_AS.get(sdk, case.data["format"]), test)
    for sdk, (_, _, formats) in SDKS.items()
    for name, case, test in STREAM_TESTS
    if case.data["format"] in formats
]


def _events(test: dict[str, Any]) -> list[Any]:
    """The test's events; a raw ``sse`` text split into its JSON payloads (an SDK decodes
    the framing itself and hands out the events)."""
    if test.get("sse") is None:
        return list(test["events"])
    from toolwire._stream.framing import framer_for

    text = test["sse"]
    framer = framer_for(text.lstrip("\ufeff \t\r\n")[:1].encode("utf-8"))
    if framer is None:
        pytest.skip("the case's bytes are refused before any event is framed: no event for"
                    " an SDK to build")
    events = [json.loads(data) for _, data in framer.feed(text.encode("utf-8"))
              if data.strip() != "[DONE]"]
    for _, data in framer.end():  # as close(): a cut last line is never half-parsed
        with contextlib.suppress(ValueError):
            events.append(json.loads(data))
    return events


def _outcome(fmt: str | None, events: list[Any]) -> tuple[Any, ...]:
    acc = toolwire.Accumulator(fmt)
    updates: list[Any] = []
    try:
        for event in events:
            updates.extend(u.to_dict() for u in acc.feed(event))
        reply = acc.reply()
    except ToolwireError as exc:
        partial = getattr(exc, "reply", None)
        return ("error", exc.code, updates, partial.to_dict() if partial is not None else None)
    return ("reply", updates, reply.to_dict())


def _objects(sdk: str, events: list[Any]) -> list[Any]:
    package, builder, _ = SDKS[sdk]
    pytest.importorskip(package, reason=f"{package} is a test extra: pip install -e '.[test]'")
    built: list[Any] = []
    for index, event in enumerate(events):
        if not isinstance(event, dict):
            built.append(event)  # the case checks that a non-object is refused
            continue
        try:
            obj = builder(event)
        except Exception as exc:  # the SDK's own model refuses the event
            first = " ".join(str(exc).splitlines()[:3])
            pytest.skip(f"the {package} SDK cannot build event {index}: {first}")
        if not hasattr(type(obj), "model_dump"):
            pytest.skip(f"the {package} SDK has no event type for event {index}"
                        f" ({event.get('type', 'untyped')}): it yields a {type(obj).__name__}")
        built.append(obj)
    return built


@pytest.mark.parametrize(("name", "sdk", "fmt", "test"), CASES, ids=[c[0] for c in CASES])
def test_sdk_event_objects_accumulate_as_their_json(
    name: str, sdk: str, fmt: str | None, test: dict[str, Any]
) -> None:
    from toolwire._sdk_objects import to_wire_json

    events = _events(test)
    objects = _objects(sdk, events)
    assert any(not isinstance(o, dict) for o in objects) or not events
    got, expected = _outcome(fmt, objects), _outcome(fmt, events)
    if got != expected:
        # Only an SDK whose model drops or adds part of an event may differ, and only there.
        changes = [
            f"event {index}: {change}"
            for index, (event, obj) in enumerate(zip(events, objects, strict=True))
            if isinstance(event, dict)
            for change in _changes(event, _unwrapped(to_wire_json(obj, None, fmt)))
        ]
        if changes:
            pytest.skip(f"the {SDKS[sdk][0]} SDK's model changes the events: "
                        + "; ".join(changes[:4]))
        assert got == expected, "the objects and their JSON accumulate differently"


def _unwrapped(dumped: dict[str, Any]) -> Any:
    """A mistralai CompletionEvent's chunk (compared with the event it was built from)."""
    return dumped["data"] if set(dumped) == {"data"} else dumped


def _changes(event: Any, dumped: Any, where: str = "") -> list[str]:
    """Every place where an object's JSON differs from its event's: a value dropped (the
    ollama SDK's tool-call ids) or added (a model default, such as mistralai's
    ``ToolCall.id`` of ``"null"``); nulls count as absent."""
    if isinstance(event, dict) and isinstance(dumped, dict):
        found: list[str] = []
        for key in [*event, *(k for k in dumped if k not in event)]:
            place = f"{where}.{key}" if where else key
            mine, theirs = event.get(key), dumped.get(key)
            if mine is None and theirs is not None:
                found.append(f"adds {place}={json.dumps(theirs)}")
            elif mine is not None and theirs is None:
                found.append(f"drops {place}")
            else:
                found.extend(_changes(mine, theirs, place))
        return found
    if isinstance(event, list) and isinstance(dumped, list) and len(event) == len(dumped):
        return [c for i, (e, d) in enumerate(zip(event, dumped, strict=True))
                for c in _changes(e, d, f"{where}[{i}]")]
    return [] if event == dumped else [f"changes {where or 'the event'}"]


def test_every_sdk_has_stream_cases() -> None:
    assert {sdk for _, sdk, _, _ in CASES} == set(SDKS)


class _Opaque:
    """Not JSON, not a model, not a mapping."""


def test_an_event_object_toolwire_cannot_read_is_an_error_naming_its_type() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        acc.feed(_Opaque())
    message = str(caught.value)
    assert "test_stream_sdk_events._Opaque" in message and "event 0" in message
    assert "feed_bytes" in message  # the fix is named


def test_a_non_json_value_inside_an_event_object_is_an_error_naming_it() -> None:
    pydantic = pytest.importorskip("pydantic", reason="pydantic comes with the SDK extras")

    class Event(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
        object: str
        choices: list[Any]
        thing: _Opaque

    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        toolwire.read_stream("openai", [Event(object="chat.completion.chunk", choices=[],
                                              thing=_Opaque())])
    assert "Event" in str(caught.value)


def test_google_genai_snake_case_chunk_dumps_accumulate_like_the_objects() -> None:
    types = pytest.importorskip("google.genai.types", reason="google-genai is a test extra")
    first = types.GenerateContentResponse(candidates=[types.Candidate(content=types.Content(
        role="model", parts=[types.Part(text="Let me look. ")]))])
    second = types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(
            name="get_weather", args={"city_name": "Lisbon"}))]),
        finish_reason=types.FinishReason.STOP)])
    expected = toolwire.read_stream("gemini", [first, second])
    assert [c.name for c in expected.calls] == ["get_weather"]
    assert expected.text == "Let me look. " and expected.finish_reason == "STOP"
    for dump in (lambda c: c.model_dump(), lambda c: c.model_dump(mode="json"),
                 lambda c: c.model_dump_json()):
        reply = toolwire.read_stream(None, [dump(first), dump(second)])
        assert reply.calls == expected.calls
        assert reply.calls[0].arguments == {"city_name": "Lisbon"}  # user keys kept
        assert (reply.text, reply.finish_reason) == (expected.text, expected.finish_reason)
