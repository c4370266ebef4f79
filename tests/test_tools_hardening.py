"""A tool schema is the developer's and the arguments are the model's: checking one
against the other fetches nothing, never loops, and never hangs.

* ``$ref`` resolves inside the schema or the tools are refused when built: nothing is
  read from a file or the network (a secret in a referenced file never reaches a
  message), on every path that builds tools (``Tools``, ``read(tools=)``, streams);
* a schema that applies itself to the same value forever is refused when built; one that
  recurses through the value checks deep arguments with a flag, never RecursionError;
* ``pattern`` runs bounded (toolwire._boundedre): the pattern that takes ``re`` 36 s on 33
  characters is linear here, and a search that runs out of steps flags the call
  ``regex_budget``; every pattern is compiled when the tools are built;
* ``format`` is asserted for the providers' formats (specs/README.md §8.2).
"""

from __future__ import annotations

import itertools
import json
import socket
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from growth import GROWTH_BOUND, growth

import toolwire
from toolwire import ToolCall, Tools
from toolwire.errors import InvalidTools

SECRET = "sk-live-SECRET-1234"


@pytest.fixture
def no_io(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Any URL opened or socket connected is recorded and refused."""
    attempts: list[str] = []

    def refuse(what: str) -> Callable[..., Any]:
        def fail(*args: Any, **kwargs: Any) -> Any:
            attempts.append(f"{what} {args[:2]!r}")
            raise AssertionError(f"{what} attempted")
        return fail

    monkeypatch.setattr(urllib.request, "urlopen", refuse("urlopen"))
    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    yield attempts


def _chat_request(schema: dict[str, Any]) -> dict[str, Any]:
    return {"tools": [{"type": "function", "function": {"name": "f", "parameters": schema}}]}


def _chat_reply(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "f", "arguments": json.dumps(arguments)}}]},
            "finish_reason": "tool_calls"}]}


# --- no retrieval ------------------------------------------------------------------------


def test_a_file_ref_is_refused_at_build_and_its_secret_read_nowhere(
    tmp_path: Path, no_io: list[str]
) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"enum": [SECRET]}), encoding="utf-8")
    schema = {"type": "object", "properties": {"x": {"$ref": secret.as_uri()}}}
    with pytest.raises(InvalidTools) as caught:
        Tools.from_schemas({"f": schema})
    error = caught.value
    assert (error.tool, error.pointer) == ("f", "/properties/x/$ref")
    assert "never retrieves" in error.reason
    assert SECRET not in str(error) and SECRET not in json.dumps(error.to_dict())
    assert no_io == []


@pytest.mark.parametrize("ref", ["http://example.com/schema.json",
                                 "https://example.com/s.json#/$defs/x", "other.json"])
def test_a_remote_ref_is_refused_at_build_without_any_network(
    ref: str, no_io: list[str]
) -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": ref}}}
    with pytest.raises(InvalidTools, match="does not resolve inside the schema"):
        Tools("openai", _chat_request(schema))
    with pytest.raises(InvalidTools):
        toolwire.read("openai", _chat_reply({"x": 1}), tools=_chat_request(schema))
    accumulator = toolwire.Accumulator("openai", tools=_chat_request(schema))
    with pytest.raises(InvalidTools):
        for event in _chat_events():
            accumulator.feed(event)
        accumulator.reply()
    assert no_io == []


def _chat_events() -> list[dict[str, Any]]:
    call = {"index": 0, "id": "c1", "type": "function",
            "function": {"name": "f", "arguments": "{\"x\": 1}"}}
    return [{"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]


def test_refs_inside_the_schema_resolve_and_check(no_io: list[str]) -> None:
    schema = {
        "$id": "https://example.com/tool.json", "type": "object",
        "properties": {"city": {"$ref": "#/$defs/city"}, "at": {"$ref": "tool.json#/$defs/at"},
                       "units": {"$ref": "#units"}},
        "$defs": {"city": {"type": "string", "minLength": 2}, "at": {"type": "integer"},
                  "u": {"$anchor": "units", "enum": ["c", "f"]}},
    }
    tools = Tools.from_schemas({"f": schema})
    checked = tools.check(ToolCall("f", {"city": "P", "at": "noon", "units": "k"}))
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [
        ("/at", "type"), ("/city", "minLength"), ("/units", "enum")]
    assert no_io == []


# --- refs that loop or point nowhere ------------------------------------------------------


@pytest.mark.parametrize("schema, pointer", [
    ({"$ref": "#"}, ""),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}},
     "/properties/a/$ref"),
    ({"allOf": [{"$ref": "#/$defs/b"}], "$defs": {"b": {"anyOf": [{"$ref": "#"}]}}}, None),
    ({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}},
      "properties": {"x": {"$ref": "#/$defs/a"}}}, None),
])
def test_a_ref_that_loops_or_resolves_nowhere_is_refused_at_build(
    schema: dict[str, Any], pointer: str | None
) -> None:
    with pytest.raises(InvalidTools) as caught:
        Tools.from_schemas({"f": schema})
    if pointer is not None:
        assert caught.value.pointer == pointer
    assert caught.value.code == "invalid_tools"


def _nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["child"] = {}
        node = node["child"]
    return root


def test_a_recursive_schema_checks_trees_and_flags_arguments_too_deep_to_follow() -> None:
    tree = {"type": "object", "properties": {"child": {"$ref": "#"}},
            "additionalProperties": False}
    tools = Tools.from_schemas({"f": tree})
    assert tools.check(ToolCall("f", _nested(20))).arguments_errors == ()
    bad = _nested(5)
    bad["child"]["child"]["extra"] = 1
    assert [e.keyword for e in tools.check(ToolCall("f", bad)).arguments_errors] == [
        "additionalProperties"]
    deep = tools.check(ToolCall("f", _nested(100_000)))
    assert deep.arguments_invalid
    assert [(e.pointer, e.keyword) for e in deep.arguments_errors] == [("", "too_deep")]


# --- bounded patterns ----------------------------------------------------------------------


def _pattern_tools(pattern: str) -> Tools:
    return Tools("openai", _chat_request({
        "type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}))




def test_the_pattern_that_takes_re_36_seconds_is_checked_in_linear_time() -> None:
    tools = _pattern_tools(r"^([A-Za-z0-9]+\s?)*$")
    checked = tools.check(ToolCall("f", {"s": "a" * 33 + "!"}))  # re: 36 s, checked twice
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [("/s", "pattern")]

    fresh = itertools.count()  # new arguments every run: a repeated call is not checked again

    def check(n: int) -> Callable[[], Any]:
        return lambda: [tools.check(ToolCall("f", {"s": "a" * n + str(next(fresh)) + "!"}))
                        for _ in range(3)]

    ratio = growth(check, 2_000)
    assert ratio < GROWTH_BOUND, f"4x the argument took {ratio:.1f}x the time (linear: 4)"


def test_a_pattern_that_runs_out_of_steps_flags_the_call_regex_budget() -> None:
    from toolwire import _boundedre as boundedre

    tools = _pattern_tools(r"^(\w+\s?)*\1!$")  # a back-reference: backtracking, budgeted
    assert boundedre.compile(r"^(\w+\s?)*\1!$").engine == "backtracking"
    checked = tools.check(ToolCall("f", {"s": "ab" * 200 + "?"}))
    assert checked.arguments_invalid
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [
        ("/s", "regex_budget")]
    assert "could not be checked" in toolwire.Reply.error_result(checked)


def test_one_call_spends_one_budget_on_all_its_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire import _boundedre as boundedre

    monkeypatch.setattr(boundedre, "DEFAULT_STEPS", 20_000)
    spent: list[int] = []
    spend = boundedre.Budget.spend

    def counted(budget: boundedre.Budget, steps: int) -> None:
        spent.append(steps)
        spend(budget, steps)

    monkeypatch.setattr(boundedre.Budget, "spend", counted)
    tools = Tools.from_schemas({"f": {"type": "object", "properties": {"s": {
        "type": "array", "items": {"type": "string", "pattern": r"^(\w+\s?)*\1!$"}}}}})
    strings = [f"{n:02d}" + "ab" * 30 + "?" for n in range(16)]
    checked = tools.check(ToolCall("f", {"s": strings}))
    assert sorted((e.pointer, e.keyword) for e in checked.arguments_errors) == sorted(
        (f"/s/{n}", "regex_budget") for n in range(16))
    one_call = sum(spent)
    assert 20_000 < one_call <= 20_000 + 4_096  # one budget, not sixteen
    tools.check(ToolCall("f", {"s": strings}))  # the next check has a budget of its own
    assert sum(spent) == 2 * one_call


def test_pattern_properties_keys_are_searched_bounded() -> None:
    tools = Tools.from_schemas({"f": {"type": "object", "patternProperties": {
        r"^([a-z]+_?)*$": {"type": "integer"}}}})
    checked = tools.check(ToolCall("f", {"a" * 40 + "!": "x", "ok_key": "y"}))
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [("/ok_key", "type")]


def test_a_pattern_no_bounded_engine_runs_is_refused_at_build() -> None:
    with pytest.raises(InvalidTools) as caught:
        _pattern_tools(r"(a)?(?(1)b|c)")
    assert caught.value.pointer == "/properties/s/pattern"
    assert "bound" in caught.value.reason


@pytest.mark.parametrize("build", ["from_schemas", "Tools"])
def test_a_pattern_nested_500_deep_is_invalid_tools_naming_tool_and_pointer(build: str) -> None:
    schema = {"type": "object",
              "properties": {"s": {"type": "string", "pattern": "(" * 500 + "a" + ")" * 500}}}
    with pytest.raises(InvalidTools) as caught:
        if build == "from_schemas":
            Tools.from_schemas({"deep": schema})
        else:
            Tools("openai", {"tools": [{"type": "function",
                                        "function": {"name": "deep", "parameters": schema}}]})
    assert caught.value.tool == "deep"
    assert caught.value.pointer == "/properties/s/pattern"
    assert "245" in caught.value.reason


def test_a_pattern_nested_245_deep_is_run() -> None:
    tools = _pattern_tools("(" * 245 + "a" + ")" * 245)
    assert not tools.check(ToolCall("f", {"s": "xa"})).arguments_invalid
    assert tools.check(ToolCall("f", {"s": "b"})).arguments_invalid


# --- formats --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt, good, bad", [
    ("date-time", "2024-02-29T10:30:00.5+02:00", "2023-02-29T10:30:00Z"),
    ("date", "2024-12-31", "2024-13-01"),
    ("time", "23:59:60Z", "10:00:00"),
    ("duration", "P1Y2M3DT4H", "P1H"),
    ("email", "ada@example.org", "ada@"),
    ("hostname", "api.example.org", "-bad-.org"),
    ("ipv4", "192.0.2.1", "192.0.2.256"),
    ("ipv6", "2001:db8::1", "2001:db8:::1"),
    ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"),
    ("uri", "https://example.org/a?b#c", "example.org path"),
])
def test_the_providers_formats_are_asserted(fmt: str, good: str, bad: str) -> None:
    tools = Tools.from_schemas({"f": {"type": "object",
                                      "properties": {"v": {"type": "string", "format": fmt}}}})
    assert tools.check(ToolCall("f", {"v": good})).arguments_errors == ()
    assert [(e.pointer, e.keyword) for e in tools.check(
        ToolCall("f", {"v": bad})).arguments_errors] == [("/v", "format")]


# Every digit of a decimal class that is not ASCII: `\\d` and int() take them all.
_OTHER_DIGITS = ("\uff10", "\u0660", "\u06f0", "\u0966", "\U0001d7ce")


@pytest.mark.parametrize("fmt, good", [
    ("date-time", "2024-01-01T10:30:00.5+02:00"),
    ("date", "2024-01-01"),
    ("time", "10:30:00.5+02:00"),
    ("duration", "P1Y2M3DT4H"),
    ("ipv4", "192.0.2.1"),
    ("ipv6", "2001:db8::192.0.2.1"),
    ("email", "ada@[192.0.2.1]"),
])
def test_the_formats_take_ascii_digits_only(fmt: str, good: str) -> None:
    tools = Tools.from_schemas({"f": {"type": "object",
                                      "properties": {"v": {"type": "string", "format": fmt}}}})
    assert tools.check(ToolCall("f", {"v": good})).arguments_errors == ()
    for zero in _OTHER_DIGITS:
        # each ASCII digit in turn written as the same digit of another script
        for at in [i for i, c in enumerate(good) if c.isascii() and c.isdigit()]:
            bad = good[:at] + chr(ord(zero) + int(good[at])) + good[at + 1:]
            assert [(e.pointer, e.keyword) for e in tools.check(
                ToolCall("f", {"v": bad})).arguments_errors] == [("/v", "format")], bad


def test_other_formats_stay_annotations() -> None:
    tools = Tools.from_schemas({"f": {"type": "object", "properties": {
        "v": {"type": "string", "format": "password"}, "n": {"type": "integer",
                                                          "format": "int32"}}}})
    assert tools.check(ToolCall("f", {"v": "x", "n": 2**40})).arguments_errors == ()


# --- found by tools/fuzz/fuzz_tools.py --------------------------------------------------


@pytest.mark.parametrize("build", [
    lambda: Tools("openai", "9007199254740993"),  # JSON text that is no body and no list
    lambda: Tools("openai", {"tools": [{"type": "function", "function": {
        "name": "f", "strict": True, "parameters": {"type": "object", "properties": 3}}}]}),
    lambda: Tools.from_schemas({"": {"type": "object"}}),  # no call could name it
])
def test_a_tool_list_a_fuzzer_broke_is_invalid_tools(build: Callable[[], Any]) -> None:
    with pytest.raises(InvalidTools):
        build()


def test_a_failing_pattern_is_searched_once_per_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire import _boundedre as boundedre

    searches: list[str] = []
    original = boundedre.BoundedPattern._run

    def counted(self: Any, text: str, *args: Any) -> Any:
        searches.append(text)
        return original(self, text, *args)

    monkeypatch.setattr(boundedre.BoundedPattern, "_run", counted)
    tools = _pattern_tools(r"^[a-z]+$")
    checked = tools.check(ToolCall("f", {"s": "fails-the-fast-check-and-the-validator"}))
    assert [e.keyword for e in checked.arguments_errors] == ["pattern"]
    assert searches == ["fails-the-fast-check-and-the-validator"]
