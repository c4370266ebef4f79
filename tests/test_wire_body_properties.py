"""Every call put into a wire body comes out, or the reply says why, or the read fails.

Replies of every bundled format are built with a known number of calls
(``tools/bench_replies.py``, realistic bodies), then damaged: fields inside a call item
removed or retyped, an object or list on the way to the calls replaced by a value of
another kind, a top-level field removed, the JSON text cut, the body read as another
format, or an error body read in its place. Whatever the damage, ``read`` answers with the
calls (flagged or not), records each missing one as ``skipped``, ``unknown`` or
``refused``, or raises a ``ToolwireError`` — never a clean reply with fewer calls. The
undamaged body gives exactly its calls.

Two kinds of damage are left out because they make another legitimate reply, which no
reader can tell from the damaged one: emptying a container or setting it to null (a
message without ``tool_calls``, a Gemini candidate without ``content``), and removing the
key a ``type_by_key`` source types a part by (a Gemini call part without its
``functionCall`` is a part holding only its ``thoughtSignature``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire import Registry
from toolwire.errors import ProviderError, ToolwireError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench_replies  # a tool's module, found on the path set above

REGISTRY = Registry.bundled()
FORMATS = list(REGISTRY.formats())
SETTINGS = settings(max_examples=250, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OTHER_KIND: dict[type, list[Any]] = {  # never null, never an empty value of the same kind
    dict: [1, "x", True, [], [{}]],
    list: [1, "x", True, {}, {"0": {}}],
}
ODD = [None, 1, 0.5, "x", "", True, [], {}, [None], {"a": 1}]
ERROR_BODIES = [
    {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}},
    {"object": "error", "message": "context too long", "type": "BadRequestError", "code": 400},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}},
    {"id": "r1", "object": "response", "status": "failed", "output": [],
     "error": {"code": "server_error", "message": "The server had an error."}},
    {"error": "model 'llama9' not found"},
    {"message": "too many tokens"},
    {"Error": {"Code": "ThrottlingException", "Message": "Too many requests"}},
]


def _base(fmt: str) -> str | None:
    base = REGISTRY.spec(fmt).data.get("extends")
    return base if isinstance(base, str) else None


def body_of(fmt: str, n: int) -> dict[str, Any]:
    builder = bench_replies.builder_for(fmt, _base)
    assert builder is not None, fmt
    return builder(n)


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def steps_of(location: str) -> list[str | int]:
    """``choices[0].message.tool_calls[1]`` as ``['choices', 0, 'message', 'tool_calls', 1]``."""
    return [key if key else int(index) for key, index in _STEP.findall(location)]


def at(value: Any, steps: list[str | int]) -> Any:
    for step in steps:
        value = value[step]
    return value


def accounted(fmt: str, body: Any) -> int | None:
    """How many calls the read accounts for (calls, skipped, unknown); None if it raised."""
    try:
        reply = REGISTRY.read(fmt, body)
    except ToolwireError:
        return None
    return len(reply.calls) + len(reply.skipped) + len(reply.unknown)


def paths_inside(value: Any, prefix: list[str | int], depth: int = 3) -> list[list[str | int]]:
    """Every key or index path below ``value`` (``prefix`` first), ``depth`` levels deep."""
    found: list[list[str | int]] = []
    if depth == 0:
        return found
    children: list[tuple[str | int, Any]] = (
        list(value.items()) if isinstance(value, dict)
        else list(enumerate(value)) if isinstance(value, list) else [])
    for key, child in children:
        found.append([*prefix, key])
        found.extend(paths_inside(child, [*prefix, key], depth - 1))
    return found


def typing_keys(fmt: str) -> set[str]:
    return {key for source in REGISTRY.spec(fmt).data["items"]
            for key in source.get("type_by_key", ())}


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, str, Any, int]:
    """(format built, format read as, the damaged body, how many calls were put in)."""
    fmt = draw(st.sampled_from(FORMATS))
    n = draw(st.integers(0, 4))
    body = body_of(fmt, n)
    records = REGISTRY.read(fmt, body).call_records
    assert len(records) == n, (fmt, n)
    kind = draw(st.sampled_from(
        ["none", "inside a call", "a container", "a top-level key", "cut text", "as another"]))
    if kind == "inside a call" and n:
        item = steps_of(draw(st.sampled_from([r.location for r in records])))
        inside = [p for p in paths_inside(at(body, item), item)
                  if not (len(p) == len(item) + 1 and p[-1] in typing_keys(fmt))]
        path = draw(st.sampled_from(inside))
        parent = at(body, path[:-1])
        if isinstance(parent, dict) and draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(st.sampled_from(ODD))
    elif kind == "a container" and n:
        location = steps_of(draw(st.sampled_from([r.location for r in records])))
        path = location[: draw(st.integers(1, len(location) - 1))]
        old = at(body, path)
        at(body, path[:-1])[path[-1]] = draw(st.sampled_from(OTHER_KIND[type(old)]))
    elif kind == "a top-level key":
        del body[draw(st.sampled_from(sorted(body)))]
    elif kind == "cut text":
        text = json.dumps(body)
        return fmt, fmt, text[: draw(st.integers(0, len(text) - 1))], n
    elif kind == "as another":
        return fmt, draw(st.sampled_from(FORMATS)), body, n
    return fmt, fmt, body, n


@SETTINGS
@given(damaged())
def test_no_call_put_into_a_body_goes_missing_without_a_word(
    drawn: tuple[str, str, Any, int],
) -> None:
    built, read_as, body, n = drawn
    found = accounted(read_as, body)
    assert found is None or found >= n, (built, read_as, n, found, body)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(FORMATS), st.integers(0, 4))
def test_an_undamaged_body_gives_exactly_its_calls(fmt: str, n: int) -> None:
    reply = REGISTRY.read(fmt, body_of(fmt, n))
    assert len(reply.calls) == n and reply.skipped == () and reply.unknown == ()


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.sampled_from(ERROR_BODIES), st.sampled_from([None, *FORMATS]))
def test_an_error_body_read_as_any_format_is_a_provider_error(
    body: dict[str, Any], fmt: str | None,
) -> None:
    try:
        REGISTRY.read(fmt, body)
    except ProviderError:
        return
    raise AssertionError(f"{body} read as {fmt} gave no provider error")
