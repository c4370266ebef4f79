"""Every public value pickles, copies and deep-copies, and ``read`` runs in a process pool.

A ``multiprocessing`` pool ships each result back pickled; a value that does not
survive that (an error with keyword fields, say) hangs
the pool or garbles the error. The public value types are found through the ``__all__``
of ``toolwire``, ``toolwire.errors`` and ``toolwire.types``, so a type added there is
covered or this test says it is not.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import multiprocessing
import pickle
import pickletools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire import Reply, ServerToolCall, ToolCall
from toolwire._speed.record import Record
from toolwire.errors import (
    MalformedResponse,
    NotDeclared,
    SpecError,
    SpecProblem,
    ToolwireError,
    UnknownFormat,
    UnknownItemType,
    UnmappedCall,
)
from toolwire.types import ArgumentError, ItemRecord, SkippedItem

from conformance import cases, each_test

# Public classes that are not values: they hold compiled code, not data.
NOT_VALUES = {
    "Registry": "a set of compiled specs (a service, rebuilt per process from its folders)",
    "Tools": "compiled validators (a service: pickle the request and build it again)",
    "Accumulator": "a running stream's state, like an open parser (StreamUpdate, Reply pickle)",
}

WIRE_TESTS = list(each_test(cases()))


def _read_case(test: dict[str, Any], fmt: str | None) -> Reply | ToolwireError:
    try:
        return toolwire.read(fmt, test["response"], strict=test.get("strict"))
    except ToolwireError as exc:
        return exc


def _walk(value: object) -> Iterator[object]:
    """The value and every public value inside it (a reply's calls, an error's reply…)."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, Record):
            stack.extend(getattr(item, name) for name in item._fields)
        elif dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, ToolwireError):
            stack.extend(vars(item).values())
        elif isinstance(item, ToolCall):
            stack.extend(item.arguments_errors)


def _made_by_hand() -> list[object]:
    rich_call = ToolCall(
        "get_weather", {"city": "Paris", "days": [1, 2]}, "call_1",
        raw_arguments='{"city": "Paris", "days": [1, 2]}', provider_data={"thoughtSignature": "s"},
        item_index=3, arguments_invalid=True,
        arguments_errors=(ArgumentError("/days/0", "type", "must be a string"),),
        unknown_tool=True, incomplete=True, arguments_error_code="x",
    )
    server = ServerToolCall("web_search_call", "ws_1", "web_search", "completed",
                            {"type": "web_search_call", "action": {"query": "paris"}})
    tools = toolwire.Tools.from_schemas({"f": {"type": "object"}, "g": None})
    return [
        *tools.definitions,
        toolwire.errors.InvalidTools("openai", "bad", tool="f", index=2, pointer="/type"),
        rich_call,
        ToolCall.from_raw("f", '{"a": ', "c"),
        ToolCall("g", {}, synthetic=True),
        server,
        ArgumentError("", "required", "'city' is a required property"),
        ItemRecord(0, "/output/0", "function_call", "calls", 0),
        SkippedItem(1, "/output/1", "function_call", "no name"),
        SpecProblem("spec.yaml", 3, 5, "/calls/0", "unknown key", "unknown-key"),
        Reply("responses", (rich_call,), (server,), True, "length", ("x",),
              (SkippedItem(1, "", None, "r"),), (ItemRecord(0, "", None, "unknown", None),)),
        ToolwireError("plain"),
        UnknownFormat("opena", ["openai", "responses"]),
        UnknownFormat(None, ["openai"]),
        UnmappedCall("responses", 2, "custom_tool_call", "not mapped", "/output/2"),
        UnknownItemType("anthropic", 0, "mystery", "unlisted"),
        MalformedResponse("openai", "not an object", 1, "function", "/choices/0"),
        SpecError([SpecProblem("a.yaml", 1, 1, "", "bad", "bad-expression")]),
        NotDeclared("anthropic", "choices", "it has no choice 1 to read"),
        toolwire.errors.NotJSONValue("NaN is no JSON number"),
        toolwire.read_text("hermes", 'hi <tool_call>{"name": "f", "arguments": {}}</tool_call>'),
        *toolwire.read_text("hermes", "<tool_call>{not json</tool_call>").skipped,
        toolwire.errors.RenderError("anthropic", "call 0 (f) has no id"),
        toolwire.StreamUpdate("call", call=rich_call),
        toolwire.StreamUpdate("finished", finish_reason="stop"),
        toolwire.errors.IncompleteStream("openai", Reply("openai", (rich_call,)), 1, None, 3),
        toolwire.errors.StreamError("anthropic", "overloaded_error", "Overloaded", None, 4),
        toolwire.errors.MalformedStream("anthropic", "spliced", 2, "start"),
        toolwire.errors.UnsupportedStream("gemini", "partialArgs", 0),
        toolwire.errors.RegexBudgetExceeded(r"^(\w+)*\1$", 1000),
    ]


def _samples() -> list[object]:
    found = _made_by_hand()
    for _name, case, test in WIRE_TESTS:
        found.extend(_walk(_read_case(test, case.data["format"])))
    return found


SAMPLES = _samples()
PUBLIC_CLASSES = sorted(
    f"{module.__name__}.{name}"
    for module in (toolwire, toolwire.errors, toolwire.types) for name in module.__all__
    if isinstance(getattr(module, name), type) and name not in NOT_VALUES
)


def _same(left: object, right: object) -> bool:
    if type(left) is not type(right):
        return False
    if isinstance(left, BaseException):
        assert isinstance(right, BaseException)
        return left.args == right.args and vars(left) == vars(right) and str(left) == str(right)
    if left != right:
        return False
    to_dict = getattr(left, "to_dict", None)
    return to_dict is None or bool(to_dict() == right.to_dict())  # type: ignore[attr-defined]


ROUND_TRIPS: dict[str, Callable[[object], object]] = {
    **{
        f"pickle-{p}": functools.partial(
            lambda v, p: pickle.loads(pickle.dumps(v, protocol=p)), p=p
        )
        for p in range(2, pickle.HIGHEST_PROTOCOL + 1)
    },
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
def test_every_public_value_type_pickles_copies_and_deep_copies(name: str) -> None:
    module, _, short = name.rpartition(".")
    cls = getattr(__import__(module, fromlist=[short]), short)
    mine = [s for s in SAMPLES if type(s) is cls]
    assert mine, (
        f"{name} is public but no sample of it is here: add one to _made_by_hand()"
        " (every public value must pickle) or, if it is no value, to NOT_VALUES with why"
    )
    for sample in mine:
        for how, trip in ROUND_TRIPS.items():
            back = trip(sample)
            assert _same(sample, back), f"{name} changed through {how}: {sample!r} -> {back!r}"


def test_the_public_classes_are_found_and_the_exceptions_are_public() -> None:
    assert {"toolwire.ToolCall", "toolwire.ServerToolCall", "toolwire.Reply",
            "toolwire.errors.UnmappedCall", "toolwire.types.ItemRecord"} <= set(PUBLIC_CLASSES)
    assert set(NOT_VALUES) <= set(toolwire.__all__)


def test_the_samples_hold_server_calls_and_unmapped_calls_from_the_conformance_replies() -> None:
    from_cases = [v for _n, c, t in WIRE_TESTS for v in _walk(_read_case(t, c.data["format"]))]
    assert any(isinstance(v, ServerToolCall) for v in from_cases)
    assert any(isinstance(v, UnmappedCall) for v in from_cases)


def test_a_deep_copy_of_a_reply_with_server_calls_is_equal_and_independent() -> None:
    replies = [r for _n, c, t in WIRE_TESTS
               if isinstance(r := _read_case(t, c.data["format"]), Reply) and r.server_calls]
    assert replies
    for reply in replies:
        twin = copy.deepcopy(reply)
        assert twin == reply
        raw = twin.server_calls[0].raw
        if isinstance(raw, dict):
            raw["tampered"] = True
            assert "tampered" not in reply.server_calls[0].raw


def test_a_pickled_error_keeps_its_fields_notes_and_class() -> None:
    error = UnmappedCall("responses", 2, "custom_tool_call", "not mapped", "/output/2")
    error.add_note("seen in batch 7")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is UnmappedCall
    assert (back.format, back.item_index, back.item_type, back.reason, back.location) == (
        "responses", 2, "custom_tool_call", "not mapped", "/output/2")
    assert back.__notes__ == ["seen in batch 7"]
    assert back.to_dict() == error.to_dict()
    unknown = pickle.loads(pickle.dumps(UnknownFormat("opena", ["openai"])))
    assert (unknown.format, unknown.known) == ("opena", ("openai",))


def test_read_runs_in_a_spawn_process_pool_as_in_process() -> None:
    with_server = [(c.data["format"], t) for _n, c, t in WIRE_TESTS
                   if isinstance(r := _read_case(t, c.data["format"]), Reply) and r.server_calls]
    failing = [(c.data["format"], t) for _n, c, t in WIRE_TESTS
               if isinstance(_read_case(t, c.data["format"]), ToolwireError)]
    assert len(with_server) >= 3 and failing
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        pending = [pool.apply_async(toolwire.read, (fmt, test["response"]),
                                    {"strict": test.get("strict")})
                   for fmt, test in with_server]
        for (fmt, test), result in zip(with_server, pending, strict=True):
            got = result.get(timeout=120)  # a value that does not pickle would hang here
            assert _same(got, toolwire.read(fmt, test["response"], strict=test.get("strict")))
        for fmt, test in failing:
            expected = _read_case(test, fmt)
            result = pool.apply_async(toolwire.read, (fmt, test["response"]),
                                      {"strict": test.get("strict")})
            with pytest.raises(ToolwireError) as caught:
                result.get(timeout=120)
            assert _same(caught.value, expected)


PUBLISHED_MODULES = {"toolwire", "toolwire.errors", "toolwire.types"}
PICKLES = Path(__file__).parent / "pickles"


def _public_classes() -> list[type]:
    return [getattr(module, name)
            for module in (toolwire, toolwire.errors, toolwire.types) for name in module.__all__
            if isinstance(getattr(module, name), type)]


def _modules_named(data: bytes) -> set[str]:
    """Every module a pickle names: GLOBAL's argument, and STACK_GLOBAL's pushed string."""
    named: set[str] = set()
    strings: list[str] = []
    for opcode, arg, _pos in pickletools.genops(data):
        if opcode.name == "GLOBAL":
            named.add(str(arg).split(" ")[0])
        elif opcode.name == "STACK_GLOBAL":
            named.add(strings[-2])
        if isinstance(arg, str):
            strings.append(arg)
    return named


def test_every_public_class_reports_the_module_it_is_published_in() -> None:
    for cls in _public_classes():
        assert cls.__module__ in PUBLISHED_MODULES, cls
        published = getattr(__import__(cls.__module__, fromlist=["_"]), cls.__qualname__)
        assert published is cls, f"{cls.__module__}.{cls.__qualname__} is not {cls!r}"


def test_pickles_of_every_public_value_name_no_private_module() -> None:
    assert SAMPLES
    for sample in SAMPLES:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            named = _modules_named(pickle.dumps(sample, protocol=protocol))
            private = sorted(m for m in named if m.startswith("toolwire._"))
            assert not private, f"a pickle of {sample!r} (protocol {protocol}) names {private}"


def test_the_module_scan_sees_a_private_module_when_a_pickle_names_one() -> None:
    from toolwire._values import jsontext

    assert "toolwire._values.jsontext" in _modules_named(pickle.dumps(jsontext.JsonFault))


@pytest.mark.parametrize("protocol", [2, 5])
def test_pickles_written_by_toolwire_0_2_0_still_load(protocol: int) -> None:
    data = (PICKLES / f"toolwire-0.2.0-protocol-{protocol}.pickle").read_bytes()
    assert any(m.startswith("toolwire._") for m in _modules_named(data))  # the old names
    expected = json.loads((PICKLES / "toolwire-0.2.0.json").read_text(encoding="utf-8"))
    values = pickle.loads(data)
    assert len(values) == len(expected) == 31
    for value, then in zip(values, expected, strict=True):
        assert type(value).__qualname__ == then["class"].rpartition(".")[2]
        if then["to_dict"] is not None:
            assert json.loads(json.dumps(value.to_dict(), default=repr)) == then["to_dict"]
        else:
            assert repr(value) == then["repr"]
        if then["str"] is not None:
            assert str(value) == then["str"]
        assert _same(pickle.loads(pickle.dumps(value)), value)


def test_a_pickled_record_with_a_field_this_version_lacks_is_refused_by_name() -> None:
    record = ItemRecord(0, "/output/0", "function_call", "calls", 0)
    state = record.__getstate__()
    with pytest.raises(ValueError, match=r"unknown fields \['future'\]"):
        ItemRecord.__new__(ItemRecord).__setstate__({**state, "future": 1})
    with pytest.raises(ValueError, match=r"missing fields \['entry'\]"):
        ItemRecord.__new__(ItemRecord).__setstate__(
            {k: v for k, v in state.items() if k != "entry"})


def test_a_pickled_call_keeps_every_field_by_name() -> None:
    call = _made_by_hand()[3]
    assert isinstance(call, ToolCall) and call.arguments_errors
    state = call.__getstate__()
    assert state["provider_data"] == {"thoughtSignature": "s"} and state["incomplete"] is True
    back = pickle.loads(pickle.dumps(call))
    assert back.to_dict() == call.to_dict()
    plain = ToolCall("f", {"a": 1}, "c")
    assert set(plain.__getstate__()) == {"name", "arguments", "id", "raw_arguments", "item_index"}
