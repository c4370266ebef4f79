"""Realistic replies for the benchmark, one builder per wire format.

Each builder returns a reply as the provider's API sends it (the fields its SDK types
declare, usage and ids included) holding ``n`` client tool calls with the reasoning and
text a model writes around them; ``n == 0`` is the no-call reply that ends a tool loop.
The benchmark times toolwire against hand-written code and the SDKs on these bodies, so
they carry what real bodies carry, not a minimal shape that flatters the interpreter.

A format that ``extends`` another (an OpenAI-compatible dialect) answers in its base's
shape, so it borrows the base's builder (:func:`builder_for`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["BUILDERS", "KINDS", "builder_for", "lineage", "replies"]

Builder = Callable[[int], dict[str, Any]]

KINDS: tuple[tuple[str, int], ...] = (
    ("realistic", 3),
    ("100 calls", 100),
    ("10000 calls", 10_000),
    ("no call", 0),
)
"""The reply kinds every format is measured on, with their number of calls."""

_TOOLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("get_weather", {"location": "Paris, France", "unit": "celsius"}),
    ("get_local_time", {"timezone": "Europe/Paris", "format": "24h"}),
    ("search_flights", {"from": "CDG", "to": "LIS", "date": "2025-06-14", "passengers": 2,
                        "cabin": "economy", "flexible": True}),
)
_THOUGHT = (
    "The user wants the weather in Paris, the local time there and flights to Lisbon. "
    "Those are three independent lookups, so I can call the three tools in parallel."
)
_PREAMBLE = "Let me check the weather, the time and the flights for you."
_ANSWER = (
    "It is 18°C and sunny in Paris, 14:05 local time, and the cheapest flight to Lisbon "
    "on 14 June leaves CDG at 09:40 for 2 x €89."
)


def _call(i: int) -> tuple[str, dict[str, Any]]:
    """The i-th call's tool name and arguments (three tools in turn, each call distinct)."""
    name, arguments = _TOOLS[i % len(_TOOLS)]
    return name, {**arguments, "request": i}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _tool_defs() -> list[dict[str, Any]]:
    """Function tool definitions as the Responses API echoes them back."""
    return [
        {
            "type": "function",
            "name": name,
            "description": f"The {name.replace('_', ' ')} tool.",
            "parameters": {
                "type": "object",
                "properties": {key: {"type": "string"} for key in arguments},
                "required": list(arguments),
                "additionalProperties": False,
            },
            "strict": True,
        }
        for name, arguments in _TOOLS
    ]


def openai(n: int) -> dict[str, Any]:
    """A Chat Completions ``chat.completion`` (openai-python ChatCompletion)."""
    tool_calls = []
    for i in range(n):
        name, arguments = _call(i)
        tool_calls.append(
            {
                "id": f"call_{i:08d}aB3xYz",
                "type": "function",
                "function": {"name": name, "arguments": _json(arguments)},
            }
        )
    message: dict[str, Any] = {
        "role": "assistant",
        "content": _PREAMBLE if n else _ANSWER,
        "refusal": None,
        "annotations": [],
    }
    if n:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-BpT4kq9Zr1dE7cGfL0aXm2nW8yHs",
        "object": "chat.completion",
        "created": 1751900000,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": "tool_calls" if n else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 412,
            "completion_tokens": 19 * max(n, 1),
            "total_tokens": 412 + 19 * max(n, 1),
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
                "reasoning_tokens": 0,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": "fp_b3f1157249",
    }


def responses(n: int) -> dict[str, Any]:
    """A Responses API ``response`` (openai-python responses.Response)."""
    output: list[dict[str, Any]] = [
        {
            "id": "rs_68a1c0ffee5e8190a1b2c3d4e5f60718",
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": _THOUGHT}],
        },
        {
            "id": "msg_68a1c0ffee5e8190a1b2c3d4e5f60719",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [
                {
                    "type": "output_text",
                    "text": _PREAMBLE if n else _ANSWER,
                    "annotations": [],
                    "logprobs": [],
                }
            ],
        },
    ]
    for i in range(n):
        name, arguments = _call(i)
        output.append(
            {
                "id": f"fc_68a1c0ffee5e8190{i:016x}",
                "type": "function_call",
                "status": "completed",
                "call_id": f"call_{i:08d}Qw7Er",
                "name": name,
                "arguments": _json(arguments),
            }
        )
    return {
        "id": "resp_68a1c0ffee5e8190a1b2c3d4e5f60717",
        "object": "response",
        "created_at": 1751900000,
        "status": "completed",
        "background": False,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": "gpt-5-2025-08-07",
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": _tool_defs(),
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": 412,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": 19 * max(n, 1),
            "output_tokens_details": {"reasoning_tokens": 64},
            "total_tokens": 412 + 19 * max(n, 1),
        },
        "user": None,
        "metadata": {},
    }


def anthropic(n: int) -> dict[str, Any]:
    """A Messages API ``message`` (anthropic-sdk-python Message)."""
    content: list[dict[str, Any]] = [
        {"type": "thinking", "thinking": _THOUGHT, "signature": "EqQBCkYIBRgCKkB" + "a" * 88},
        {"type": "text", "text": _PREAMBLE if n else _ANSWER, "citations": None},
    ]
    for i in range(n):
        name, arguments = _call(i)
        content.append(
            {"type": "tool_use", "id": f"toolu_01{i:020d}", "name": name, "input": arguments}
        )
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": "tool_use" if n else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 412,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 19 * max(n, 1),
            "service_tier": "standard",
        },
    }


def gemini(n: int) -> dict[str, Any]:
    """A ``GenerateContentResponse`` (REST, camelCase keys)."""
    parts: list[dict[str, Any]] = [
        {"text": _THOUGHT, "thought": True},
        {"text": _PREAMBLE if n else _ANSWER},
    ]
    for i in range(n):
        name, arguments = _call(i)
        part: dict[str, Any] = {"functionCall": {"name": name, "args": arguments}}
        if i == 0:
            part["thoughtSignature"] = "CiQB0e2Kb7+/" + "x" * 80  # valid base64, as sent
        parts.append(part)
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": parts},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 412,
            "candidatesTokenCount": 19 * max(n, 1),
            "totalTokenCount": 412 + 19 * max(n, 1),
            "thoughtsTokenCount": 64,
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "mKx7aPq1NZ2Xz7IPyL3WoQ8",
    }


def ollama(n: int) -> dict[str, Any]:
    """An ``/api/chat`` reply (non-streamed), as Ollama 0.12 sends it."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "" if n else _ANSWER,
        "thinking": _THOUGHT,
    }
    if n:
        message["tool_calls"] = [
            {"id": f"call_{i:08d}olla", "function": {"index": i, "name": name, "arguments": args}}
            for i, (name, args) in enumerate(_call(i) for i in range(n))
        ]
    return {
        "model": "qwen3:8b",
        "created_at": "2025-07-07T14:53:20.000000Z",
        "message": message,
        "done": True,
        "done_reason": "stop",
        "total_duration": 4_883_583_458,
        "load_duration": 1_334_875,
        "prompt_eval_count": 412,
        "prompt_eval_duration": 342_546_000,
        "eval_count": 19 * max(n, 1),
        "eval_duration": 4_535_599_000,
    }


def bedrock(n: int) -> dict[str, Any]:
    """A Bedrock Converse reply (``ConverseResponse``)."""
    content: list[dict[str, Any]] = [
        {"reasoningContent": {
            "reasoningText": {"text": _THOUGHT, "signature": "EqoBCkgIAx" + "s" * 80}
        }},
        {"text": _PREAMBLE if n else _ANSWER},
    ]
    for i in range(n):
        name, arguments = _call(i)
        content.append(
            {"toolUse": {"toolUseId": f"tooluse_{i:08d}kXq2", "name": name, "input": arguments}}
        )
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use" if n else "end_turn",
        "usage": {"inputTokens": 412, "outputTokens": 19 * max(n, 1),
                  "totalTokens": 412 + 19 * max(n, 1)},
        "metrics": {"latencyMs": 1840},
    }


def cohere(n: int) -> dict[str, Any]:
    """A Cohere v2 chat reply."""
    message: dict[str, Any] = {"role": "assistant"}
    if n:
        message["tool_plan"] = _PREAMBLE
        message["tool_calls"] = [
            {"id": f"{name}_{i:08d}hvq", "type": "function",
             "function": {"name": name, "arguments": _json(args)}}
            for i, (name, args) in enumerate(_call(i) for i in range(n))
        ]
    else:
        message["content"] = [{"type": "text", "text": _ANSWER}]
    return {
        "id": "5e1c8d58-3b2a-4d7e-9a51-0f6f3c2b9a10",
        "finish_reason": "TOOL_CALL" if n else "COMPLETE",
        "message": message,
        "usage": {
            "billed_units": {"input_tokens": 412, "output_tokens": 19 * max(n, 1)},
            "tokens": {"input_tokens": 1024, "output_tokens": 19 * max(n, 1) + 40},
        },
    }


BUILDERS: Mapping[str, Builder] = {
    "anthropic": anthropic,
    "bedrock": bedrock,
    "cohere": cohere,
    "gemini": gemini,
    "ollama": ollama,
    "openai": openai,
    "responses": responses,
}
"""The builders by format name; dialects borrow their base's (see :func:`builder_for`)."""


def lineage(fmt: str, extends: Callable[[str], str | None]) -> list[str]:
    """``fmt``, then the format it extends, and so on (``extends`` names each one's base)."""
    chain = [fmt]
    while (base := extends(chain[-1])) is not None and base not in chain:
        chain.append(base)
    return chain


def builder_for(fmt: str, extends: Callable[[str], str | None]) -> Builder | None:
    """The format's own builder, else the nearest base's, else None."""
    return next((BUILDERS[f] for f in lineage(fmt, extends) if f in BUILDERS), None)


def replies(builder: Builder) -> dict[str, dict[str, Any]]:
    """Every reply kind of :data:`KINDS`, built by ``builder``."""
    return {kind: builder(n) for kind, n in KINDS}
