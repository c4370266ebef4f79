"""Every pattern jsonschema searches while checking a call runs on the bounded engine.

``pattern`` and ``patternProperties`` search patterns themselves; ``additionalProperties``
and ``unevaluatedProperties`` search ``patternProperties``' keys to know which properties
are left over. With Python's ``re`` those searches take time exponential in a model's
property name (``^([a-z]+_?)*$`` on 22 characters: 0.18 s, four times more for every
two characters); here the time grows with the name, never with its power. Growth is
checked as a ratio of n and 4n in one run, never against the clock.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from growth import GROWTH_BOUND, growth

from toolwire import ToolCall, Tools
from toolwire._tools.references import no_retrieval
from toolwire._tools.validators import bounded_class

NESTED = r"^([a-z]+_?)*$"  # re: exponential on "aaa…a!"
BACKREF = r"^(\w+\s?)*\1!$"  # a back-reference: backtracking, stopped by its budget




def _growth(tools: Tools, n: int) -> float:
    """How much longer checking a call with a name of 4n letters takes than one of n."""
    fresh = itertools.count()  # new names every run: a repeated call is not checked again

    def check(length: int) -> Callable[[], Any]:
        return lambda: [tools.check(ToolCall("f", {"a" * length + str(next(fresh)) + "!": 1}))
                        for _ in range(20)]

    return growth(check, n)


LEFT_OVER = {
    "additionalProperties": {"type": "object", "patternProperties": {NESTED: {}},
                             "additionalProperties": False},
    "unevaluatedProperties": {"type": "object", "patternProperties": {NESTED: {}},
                              "unevaluatedProperties": False},
    "unevaluatedProperties through allOf and $ref": {
        "type": "object", "allOf": [{"$ref": "#/$defs/named"}],
        "$defs": {"named": {"patternProperties": {NESTED: {}}}},
        "unevaluatedProperties": False},
}


@pytest.mark.parametrize("schema", LEFT_OVER.values(), ids=list(LEFT_OVER))
def test_left_over_properties_are_found_in_time_linear_in_the_name(schema: Any) -> None:
    tools = Tools.from_schemas({"f": schema})
    ratio = _growth(tools, 5)  # re: 20 letters take 45 ms, 5 a few microseconds
    assert ratio < GROWTH_BOUND, f"a name 4x longer took {ratio:.1f}x the time (linear: at most 4)"
    keyword = "additionalProperties" if "additionalProperties" in schema else (
        "unevaluatedProperties")
    checked = tools.check(ToolCall("f", {"a" * 60 + "!": 1, "ok_key": 2}))
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [("", keyword)]
    assert tools.check(ToolCall("f", {"ok_key": 2})).arguments_errors == ()


@pytest.mark.parametrize("keyword", ["additionalProperties", "unevaluatedProperties"])
def test_a_left_over_search_out_of_steps_is_regex_budget_and_nothing_more(keyword: str) -> None:
    tools = Tools.from_schemas({"f": {"type": "object", "patternProperties": {BACKREF: {}},
                                      keyword: False}})
    name = "ab" * 200 + "?"
    checked = tools.check(ToolCall("f", {name: 1}))
    assert [(e.pointer, e.keyword) for e in checked.arguments_errors] == [
        (f"/{name}", "regex_budget")]


@pytest.mark.parametrize("draft", [jsonschema.Draft7Validator, jsonschema.Draft201909Validator,
                                   jsonschema.Draft202012Validator])
def test_every_draft_searches_left_over_properties_bounded(draft: Any) -> None:
    schema = {"patternProperties": {NESTED: {}}, "additionalProperties": False}
    if "unevaluatedProperties" in draft.VALIDATORS:
        schema = {"allOf": [{"patternProperties": {NESTED: {}}}],
                  "unevaluatedProperties": False}
    validator = bounded_class(draft)(schema, registry=no_retrieval())
    errors = list(validator.iter_errors({"a" * 60 + "!": 1}))  # re: years
    assert [e.validator for e in errors] == [next(iter(schema.keys() - {"allOf",
                                                                       "patternProperties"}))]


def test_a_draft_gains_no_keyword_it_does_not_have() -> None:
    validator = bounded_class(jsonschema.Draft7Validator)(
        {"unevaluatedProperties": False}, registry=no_retrieval())
    assert validator.is_valid({"anything": 1})  # draft 7 knows no unevaluatedProperties


@pytest.mark.parametrize("schema, arguments, found", [
    ({"properties": {"a": {}}, "patternProperties": {"^x_": {}}, "additionalProperties": False},
     {"a": 1, "x_1": 2, "b": 3, "c": 4},
     [("", "additionalProperties", "'b', 'c' do not match any of the regexes: '^x_'")]),
    ({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}},
     {"a": "s", "b": "t"}, [("/b", "type", "'t' is not of type 'integer'")]),
    ({"if": {"patternProperties": {"^x_": {"type": "integer"}}},
      "then": {"properties": {"t": {}}}, "unevaluatedProperties": False},
     {"x_1": 1, "t": 2, "u": 3},
     [("", "unevaluatedProperties", "Unevaluated properties are not allowed ('u' was"
                                    " unexpected)")]),
    ({"dependentSchemas": {"d": {"patternProperties": {"^x_": {}}}},
      "properties": {"d": {}}, "unevaluatedProperties": {"type": "string"}},
     {"d": 1, "x_1": 2, "u": 3},
     [("", "unevaluatedProperties", "Unevaluated properties are not valid under the given"
                                    " schema ('u' was unevaluated and invalid)")]),
])
def test_left_over_properties_keep_jsonschemas_verdicts(
    schema: Any, arguments: Any, found: list[tuple[str, str, str]]
) -> None:
    plain = jsonschema.Draft202012Validator(schema, registry=no_retrieval())
    expected = sorted(("".join(f"/{p}" for p in e.absolute_path), str(e.validator), e.message)
                      for e in plain.iter_errors(arguments))
    assert expected == found
    checked = Tools.from_schemas({"f": schema}).check(ToolCall("f", arguments))
    assert [(e.pointer, e.keyword, e.message) for e in checked.arguments_errors] == found
