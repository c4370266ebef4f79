"""SDK response objects read exactly as their JSON bodies.

For every conformance reply of a format, the SDK of that format builds its response
object the way it does from an HTTP body (Stainless' ``construct`` for openai and
anthropic, google-genai's ``_from_response``, cohere's ``construct_type``, pydantic
validation for mistralai and ollama); ``read(fmt, obj)`` must then equal
``read(fmt, body)`` — calls, provider data, truncation, records, or the same error. A
reply the SDK's own model refuses is skipped with the SDK's reason: it cannot reach a
user as an object. The SDKs are test extras; without one its tests skip visibly.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import pytest

import toolwire
from toolwire.errors import MalformedResponse, ToolwireError

from conformance import cases, each_test


def _openai_chat(body: dict[str, Any]) -> Any:
    from openai.types.chat import ChatCompletion

    return ChatCompletion.construct(**body)


def _openai_responses(body: dict[str, Any]) -> Any:
    from openai.types.responses import Response

    return Response.construct(**body)


def _anthropic(body: dict[str, Any]) -> Any:
    from anthropic.types.beta import BetaMessage  # the GA union plus the beta blocks

    return BetaMessage.construct(**body)


def _gemini(body: dict[str, Any]) -> Any:
    from google.genai import types

    return types.GenerateContentResponse._from_response(response=body, kwargs={})


def _mistral(body: dict[str, Any]) -> Any:
    from mistralai.client.models import ChatCompletionResponse

    # The SDK requires `usage`, which the cases leave out as beside the point.
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    return ChatCompletionResponse.model_validate({"usage": usage, **body})


def _cohere(body: dict[str, Any]) -> Any:
    import cohere
    from cohere.core.unchecked_base_model import construct_type

    return construct_type(type_=cohere.V2ChatResponse, object_=body)


def _ollama(body: dict[str, Any]) -> Any:
    import ollama

    return ollama.ChatResponse.model_validate(body)


# format -> (pip package, builder); OpenAI-compatible dialects are read with openai's types.
BUILDERS: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {
    "openai": ("openai", _openai_chat),
    "deepseek": ("openai", _openai_chat),
    "groq": ("openai", _openai_chat),
    "xai": ("openai", _openai_chat),
    "vllm": ("openai", _openai_chat),
    "llamacpp": ("openai", _openai_chat),
    "openrouter": ("openai", _openai_chat),
    "responses": ("openai", _openai_responses),
    "anthropic": ("anthropic", _anthropic),
    "gemini": ("google.genai", _gemini),
    "mistral": ("mistralai", _mistral),
    "cohere": ("cohere", _cohere),
    "ollama": ("ollama", _ollama),
}

CASES = [
    (name, case.data["format"], test)
    for name, case, test in each_test(cases())
    if case.data.get("format") in BUILDERS and isinstance(test.get("response"), dict)
]


def _outcome(
    fmt: str, data: Any, strict: bool | None, registry: toolwire.Registry | None = None
) -> tuple[Any, ...]:
    registry = registry or toolwire.Registry.default()
    try:
        reply = registry.read(fmt, data, strict=strict)
    except ToolwireError as exc:
        return ("error", exc.code, getattr(exc, "item_index", None))
    calls = [c.to_dict() for c in reply.calls]
    # An SDK object is read as its model_dump(exclude_none=True) (toolwire._sdk_objects): the
    # turn keeps its items as they came, so a field the body sends as null is absent there.
    value = reply.to_dict()
    if value.get("turn") is not None:
        value["turn"] = _without_nulls(value["turn"])
    return ("reply", value, calls, [c.to_dict() for c in registry.extract(fmt, data)]
            if strict is None else None)


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _build(fmt: str, body: dict[str, Any]) -> Any:
    package, builder = BUILDERS[fmt]
    pytest.importorskip(package, reason=f"{package} is a test extra: pip install -e '.[test]'")
    try:
        return builder(body)
    except Exception as exc:  # the SDK's own model refuses the reply
        first = str(exc).splitlines()[:3]
        pytest.skip(f"the {package} SDK cannot build this reply: {' '.join(first)}")


def _lost(body: Any, kept: Any, where: str = "") -> str | None:
    """The first place where ``body`` holds a value the SDK object's JSON lacks."""
    if isinstance(body, dict):
        if not isinstance(kept, dict):
            return where or "the reply"
        for key, value in body.items():
            if value is not None:
                found = _lost(value, kept.get(key), f"{where}.{key}" if where else key)
                if found:
                    return found
        return None
    if isinstance(body, list):
        if not isinstance(kept, list) or len(kept) != len(body):
            return where
        for index, value in enumerate(body):
            found = _lost(value, kept[index], f"{where}[{index}]")
            if found:
                return found
        return None
    return None if body == kept else where


@pytest.mark.parametrize(("name", "fmt", "test"), CASES, ids=[c[0] for c in CASES])
def test_sdk_object_reads_as_its_body(name: str, fmt: str, test: dict[str, Any]) -> None:
    from toolwire._sdk_objects import to_wire_json

    body = test["response"]
    obj = _build(fmt, body)
    assert not isinstance(obj, dict)
    strict = test.get("strict")
    got, expected = _outcome(fmt, obj, strict), _outcome(fmt, body, strict)
    if got != expected:
        # Only an SDK whose model drops part of the reply may differ, and only there.
        try:
            lost = _lost(body, to_wire_json(obj, None, fmt))
        except ToolwireError:
            lost = None
        assert lost is not None, "the object and its body read differently"
        pytest.skip(f"the {BUILDERS[fmt][0]} SDK's model drops {lost}: its object lacks it")


def test_an_sdk_object_reads_the_same_through_generated_code_and_the_interpreter() -> None:
    generated, walked = toolwire.Registry.bundled(), toolwire.Registry.bundled(generated=False)
    answered = 0
    for _name, fmt, test in CASES:
        try:
            obj = BUILDERS[fmt][1](test["response"])
        except Exception:  # an SDK that cannot build the reply (the test above skips it)
            continue
        strict = test.get("strict")
        for _ in range(2):  # the first reply walks, the second is read by generated code
            fast = _outcome(fmt, obj, strict, generated)
        assert fast == _outcome(fmt, obj, strict, walked)
        answered += 1
    assert answered >= 100
    assert all(spec.code.read for spec in generated.specs().values()
               if spec.format in {fmt for _, fmt, _ in CASES})


def test_every_sdk_format_has_cases() -> None:
    formats = {fmt for _, fmt, _ in CASES}
    assert formats == set(BUILDERS), set(BUILDERS) - formats


# --- google-genai's natural dumps -------------------------------------------------------

def _gemini_reply() -> Any:
    types = pytest.importorskip("google.genai.types", reason="google-genai is a test extra")
    call = types.Part(
        function_call=types.FunctionCall(name="get_weather", args={"city_name": "Lisbon"}),
        thought_signature=b"\xfb\xff\x01signature",
    )
    candidate = types.Candidate(
        content=types.Content(role="model", parts=[types.Part(text="Checking."), call]),
        finish_reason=types.FinishReason.MAX_TOKENS,
    )
    return types.GenerateContentResponse(candidates=[candidate], model_version="gemini-x")


@pytest.mark.parametrize(
    "dump",
    ["object", "model_dump", "model_dump_json_mode", "to_json_dict", "model_dump_json"],
)
def test_google_genai_dumps_read_like_the_object(dump: str) -> None:
    reply = _gemini_reply()
    data = {
        "object": lambda: reply,
        "model_dump": reply.model_dump,
        "model_dump_json_mode": lambda: reply.model_dump(mode="json"),
        "to_json_dict": reply.to_json_dict,
        "model_dump_json": reply.model_dump_json,
    }[dump]()
    read = toolwire.read("gemini", data)
    assert [c.name for c in read.calls] == ["get_weather"]
    assert read.calls[0].arguments == {"city_name": "Lisbon"}  # user keys are never renamed
    # The bytes as sent; an SDK's JSON dump writes them URL-safe, which the API reads too.
    signature = read.calls[0].provider_data["thoughtSignature"]
    assert base64.urlsafe_b64decode(signature.replace("+", "-").replace("/", "_")) == (
        b"\xfb\xff\x01signature"
    )
    if dump in ("object", "model_dump"):
        assert signature == "+/8Bc2lnbmF0dXJl"
    assert read.truncated is True
    assert read.finish_reason == "MAX_TOKENS"
    assert toolwire.extract("gemini", data) == list(read.calls)
    assert toolwire.sniff_format(data) == "gemini"


def test_a_str_enum_finish_reason_is_text() -> None:
    types = pytest.importorskip("google.genai.types", reason="google-genai is a test extra")
    body = {"candidates": [{"content": {"parts": [{"text": "cut"}]},
                            "finishReason": types.FinishReason.MAX_TOKENS}]}
    reply = toolwire.read("gemini", body)
    assert reply.truncated is True
    assert reply.finish_reason == "MAX_TOKENS" and type(reply.finish_reason) is str


# --- what cannot be read is an error naming the type and the fix --------------------------

def test_a_sub_object_passed_as_the_reply_is_refused() -> None:
    reply = _gemini_reply()
    with pytest.raises(MalformedResponse) as caught:
        toolwire.read("gemini", reply.candidates[0].content)
    assert "google.genai.types.Content is not a whole gemini reply" in str(caught.value)


def test_an_openai_message_passed_as_the_reply_is_refused() -> None:
    pytest.importorskip("openai", reason="openai is a test extra")
    completion = _openai_chat({
        "id": "c", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                                                 "function": {"name": "f", "arguments": "{}"}}]}}],
    })
    assert [c.id for c in toolwire.extract("openai", completion)] == ["call_1"]
    for part in (completion.choices[0].message, completion.choices[0]):
        with pytest.raises(MalformedResponse) as caught:
            toolwire.extract("openai", part)
        assert type(part).__name__ in str(caught.value)
        assert "pass the response object the SDK returned" in str(caught.value)


def test_an_sdk_object_nested_in_plain_data_is_named() -> None:
    reply = _gemini_reply()
    for data in ({"candidates": [reply.candidates[0]]},
                 {"candidates": [{"content": {"parts": reply.candidates[0].content.parts}}]}):
        for operation in (toolwire.read, toolwire.extract, toolwire.locate):
            with pytest.raises(MalformedResponse) as caught:
                operation("gemini", data)
            assert "google.genai.types." in str(caught.value)


def test_an_object_of_no_known_kind_is_refused_with_its_type() -> None:
    class Opaque:
        pass

    for fmt in ("openai", None):
        with pytest.raises(MalformedResponse) as caught:
            toolwire.read(fmt, Opaque())
        assert "Opaque is not a response toolwire can read" in str(caught.value)


def test_a_non_json_value_inside_an_sdk_object_is_named_with_its_place() -> None:
    from toolwire._sdk_objects import jsonable

    with pytest.raises(MalformedResponse) as caught:
        jsonable({"a": [{"b": object()}]}, "openai")
    assert "a[0].b is a object" in str(caught.value)


def test_boto3_converse_dicts_read_as_they_are() -> None:
    # boto3 returns plain dicts, with bytes where a block carries binary data.
    reply = {
        "ResponseMetadata": {"RequestId": "r", "HTTPStatusCode": 200},
        "output": {"message": {"role": "assistant", "content": [
            {"image": {"format": "png", "source": {"bytes": b"\x89PNG"}}},
            {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"x": 1}}},
        ]}},
        "stopReason": "tool_use",
    }
    assert [(c.name, c.id, c.arguments) for c in toolwire.extract("bedrock", reply)] == [
        ("f", "t1", {"x": 1})
    ]
    assert toolwire.sniff_format(reply) == "bedrock"


# --- how a model is dumped: its own model_dump where it has one; odd values made JSON ------

def _python_mode_model() -> Any:
    """A pydantic model whose JSON-mode dump runs a serializer of its own, so toolwire
    dumps it in Python mode and makes the dump JSON itself (as for cohere's models)."""
    pydantic = pytest.importorskip("pydantic")

    class Reply(pydantic.BaseModel):
        message: Any = None

        @pydantic.model_serializer(mode="wrap", when_used="json")
        def _json_only(self, handler: Any) -> Any:
            return handler(self)

    return Reply


def test_a_model_that_overrides_model_dump_is_dumped_by_its_override() -> None:
    pydantic = pytest.importorskip("pydantic")
    seen: list[dict[str, Any]] = []

    class Reply(pydantic.BaseModel):
        message: Any = None

        def model_dump(self, **kwargs: Any) -> dict[str, Any]:
            seen.append(kwargs)
            data: dict[str, Any] = super().model_dump(**kwargs)
            data["message"]["tool_calls"][0]["function"]["name"] = "renamed"
            return data

    reply = Reply(message={"role": "assistant", "tool_calls": [
        {"function": {"name": "f", "arguments": {}}}]})
    assert [c.name for c in toolwire.extract("ollama", reply)] == ["renamed"]
    assert seen and seen[0]["by_alias"] is True and seen[0]["exclude_none"] is True


def test_odd_values_of_a_python_mode_dump_are_made_json_where_they_sit() -> None:
    import enum

    class Color(enum.StrEnum):
        RED = "red"

    reply = _python_mode_model()(message={"role": "assistant", "tool_calls": [
        {"function": {"name": Color.RED, "arguments": {"k": ["x", b"\x00\xff", Color.RED],
                                                       "n": {"deep": [Color.RED]}}}}]})
    [call] = toolwire.extract("ollama", reply)
    assert call.name == "red" and type(call.name) is str
    assert call.arguments == {"k": ["x", "AP8=", "red"], "n": {"deep": ["red"]}}
    assert [type(v) for v in call.arguments["k"]] == [str, str, str]
    assert type(call.arguments["n"]["deep"][0]) is str


def test_a_value_the_quick_walk_does_not_know_goes_to_the_careful_one() -> None:
    import datetime

    model = _python_mode_model()
    when = datetime.datetime(2025, 7, 7, 14, 53, 20, tzinfo=datetime.UTC)
    reply = model(message={"role": "assistant", "tool_calls": [
        {"function": {"name": "f", "arguments": {"at": [when]}}}]})
    [call] = toolwire.extract("ollama", reply)
    assert call.arguments == {"at": ["2025-07-07T14:53:20+00:00"]}
    with pytest.raises(MalformedResponse) as caught:
        toolwire.extract("ollama", model(message={"role": "assistant", "tool_calls": [
            {"function": {"name": "f", "arguments": {1: "x"}}}]}))
    assert "has a key 1 that is not a string" in str(caught.value)


def test_bytes_inside_a_dict_read_as_the_base64_text_the_api_writes() -> None:
    import json

    from google.genai import types

    response = types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=[
            types.Part(text="Paris?", thought=True, thought_signature=b"\x99\x01"),
            types.Part(function_call=types.FunctionCall(name="get_weather",
                                                        args={"city": "Paris"}),
                       thought_signature=b"\x01\x02sig")]),
        finish_reason="STOP")])
    dumped = response.model_dump(by_alias=True)  # Python mode: the signatures are bytes
    assert isinstance(dumped["candidates"][0]["content"]["parts"][1]["thoughtSignature"], bytes)
    reply = toolwire.read("gemini", dumped)
    assert reply.calls[0].provider_data == {"thoughtSignature": "AQJzaWc="}
    assert reply.calls[0].provider_data == toolwire.read("gemini", response).calls[0].provider_data
    json.dumps(reply.to_dict(raw=True))
    turn = json.loads(json.dumps(reply.assistant_message()))
    assert [p.get("thoughtSignature") for p in turn["parts"]] == ["mQE=", "AQJzaWc="]
