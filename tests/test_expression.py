"""Spec expressions: the portable JMESPath subset, compiled to closures at load."""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

import jmespath
import pytest
from jmespath import functions as jmespath_functions

from toolwire._expression.closures import SIGNATURES
from toolwire._expression.compiler import (
    MAX_DEPTH,
    MAX_LENGTH,
    STANDARD_FUNCTIONS,
    EvaluationError,
    Expression,
    ExpressionError,
    compile_expression,
)

DOC: dict[str, Any] = {
    "choices": [
        {"index": 0, "finish_reason": "tool_calls",
         "message": {"role": "assistant", "content": None,
                     "tool_calls": [{"id": "c1", "type": "function",
                                     "function": {"name": "f", "arguments": "{}"}},
                                    {"id": "c2", "type": "function",
                                     "function": {"name": "g", "arguments": "{}"}}]}},
        {"index": 1, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}},
    ],
    "nums": [3, 1, 2],
    "words": ["b", "a", "c"],
    "nested": [[1, 2], [3], 4],
    "obj": {"x": 1, "y": None, "z": 3},
    "people": [{"name": "b", "age": 30}, {"name": "a", "age": 20}, {"name": "c", "age": None}],
    "empty": [],
    "s": "hello",
    "zero": 0,
    "t": True,
    "f": False,
}


def ev(source: str, document: Any = DOC) -> Any:
    """Evaluate with the closures, after checking jmespath.py gives the same value."""
    result = compile_expression(source)(document)
    assert result == jmespath.search(source, document)
    assert type(result) is type(jmespath.search(source, document))
    return result


# --- node kinds -----------------------------------------------------------------------

def test_field_reads_a_key_and_is_null_on_anything_but_an_object() -> None:
    assert ev("s") == "hello"
    assert ev("missing") is None
    for document in ([1], "text", 3, None, True):
        assert ev("a", document) is None


def test_field_reads_a_dict_subclass() -> None:
    assert ev("a", OrderedDict(a=1)) == 1
    assert ev("a.b", OrderedDict(a=OrderedDict(b=2))) == 2


def test_quoted_field_reads_a_key_with_spaces() -> None:
    assert ev('"x y"', {"x y": 1}) == 1


def test_subexpression_chains_fields_and_stops_at_null() -> None:
    assert ev("choices") is DOC["choices"]
    assert ev("obj.x") == 1
    assert ev("obj.y.z") is None
    assert ev("a.b.c.d.e", {"a": {"b": {"c": {"d": {"e": 5}}}}}) == 5
    assert ev("s.length") is None


def test_index_reads_from_either_end_and_is_null_out_of_range() -> None:
    assert ev("nums[0]") == 3
    assert ev("nums[-1]") == 2
    assert ev("nums[3]") is None
    assert ev("nums[-4]") is None
    assert ev("s[0]") is None
    assert ev("[0]", [7]) == 7


def test_mixed_chain_of_fields_and_indexes() -> None:
    assert ev("choices[0].message.tool_calls[1].function.name") == "g"
    assert ev("choices[5].message") is None
    assert ev("choices[0].message.content.x") is None
    assert ev("nested[0][1]") == 2


def test_slice_is_pythons_on_arrays_and_null_otherwise() -> None:
    assert ev("nums[1:]") == [1, 2]
    assert ev("nums[::-1]") == [2, 1, 3]
    assert ev("nums[-2:10:1]") == [1, 2]
    assert ev("s[0:2]") is None


def test_projection_drops_nulls() -> None:
    assert ev("people[*].age") == [30, 20]
    assert ev("choices[*].message.tool_calls[0].id") == ["c1"]
    assert ev("obj[*]") is None
    assert ev("[*]", [1, None, 2]) == [1, 2]


def test_slice_projects() -> None:
    assert ev("people[:2].name") == ["b", "a"]


def test_value_projection_walks_an_objects_values() -> None:
    assert ev("obj.*") == [1, 3]
    assert ev("*.x", {"a": {"x": 1}, "b": {"x": None}, "c": 2}) == [1]
    assert ev("nums.*") is None


def test_flatten_merges_one_level() -> None:
    assert ev("nested[]") == [1, 2, 3, 4]
    assert ev("choices[].message.role") == ["assistant", "assistant"]
    assert ev("s[]") is None


def test_filter_keeps_elements_whose_condition_is_truthy() -> None:
    assert ev("people[?age > `25`].name") == ["b"]
    assert ev("choices[?finish_reason == 'stop'].index") == [1]
    assert ev("people[?age].name") == ["b", "a"]
    assert ev("obj[?x]") is None


def test_pipe_stops_a_projection() -> None:
    assert ev("people[*].name | [0]") == "b"
    assert ev("people[*].name[0]") == []


def test_or_returns_the_first_truthy_operand() -> None:
    assert ev("missing || s") == "hello"
    assert ev("empty || `{}` || ''") == ""
    assert ev("zero || s") == 0


def test_and_returns_the_first_falsy_operand_or_the_last() -> None:
    assert ev("s && nums") == [3, 1, 2]
    assert ev("empty && s") == []
    assert ev("f && s") is False


def test_not_follows_jmespath_truthiness_and_every_number_is_truthy() -> None:
    assert ev("!empty") is True
    assert ev("!s") is False
    assert ev("!zero") is False
    assert ev("!`0.0`") is False
    assert ev("!missing") is True


def test_equality_tells_booleans_from_numbers_at_the_top_level() -> None:
    assert ev("`1` == `1.0`") is True
    assert ev("`1` == `true`") is False
    assert ev("`0` != `false`") is True
    assert ev("`2` == `true`") is False
    assert ev("obj == `{\"x\": 1, \"y\": null, \"z\": 3}`") is True


def test_equality_inside_arrays_follows_pythons_one_equals_true() -> None:
    """jmespath.py quirk: nested values compare with Python's ==, so [1] == [true]."""
    assert ev("`[1]` == `[true]`") is True


def test_ordering_compares_numbers_and_strings_and_is_null_otherwise() -> None:
    assert ev("`1` < `2`") is True
    assert ev("nums[0] >= `3`") is True
    assert ev("words[0] > words[1]") is True  # jmespath.py orders strings too
    assert ev("nums < `1`") is None
    assert ev("t < `1`") is None


def test_ordering_a_number_against_a_string_raises_on_both_paths() -> None:
    expression = compile_expression("nums[0] < s")
    with pytest.raises(EvaluationError):
        expression(DOC)
    with pytest.raises(EvaluationError):
        expression.reference(DOC)


def test_literals_and_raw_strings() -> None:
    assert ev("`{\"a\": [1, 2]}`") == {"a": [1, 2]}
    assert ev("'raw'") == "raw"
    assert ev("`null`") is None


def test_current_node_is_the_document() -> None:
    assert ev("@", [1]) == [1]
    assert ev("nums[?@ > `1`]") == [3, 2]


def test_multi_select_list_and_dict() -> None:
    assert ev("[s, zero]") == ["hello", 0]
    assert ev("{a: s, b: missing}") == {"a": "hello", "b": None}
    assert ev("people[*].[name, age]") == [["b", 30], ["a", 20], ["c", None]]
    assert ev("missing.[a, b]") is None
    assert ev("missing.{a: a}") is None


# --- functions --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("abs(`-2`)", 2),
        ("avg(nums)", 2.0),
        ("avg(empty)", None),
        ("ceil(`1.2`)", 2),
        ("floor(`1.8`)", 1),
        ("contains(words, 'a')", True),
        ("contains(s, 'ell')", True),
        ("contains(`[1]`, `true`)", True),  # Python's `in`: jmespath.py quirk
        ("ends_with(s, 'lo')", True),
        ("starts_with(s, 'he')", True),
        ("join('-', words)", "b-a-c"),
        ("keys(obj)", ["x", "y", "z"]),
        ("values(obj)", [1, None, 3]),
        ("length(s)", 5),
        ("length(nums)", 3),
        ("length(obj)", 3),
        ("map(&age, people)", [30, 20, None]),
        ("max(nums)", 3),
        ("min(words)", "a"),
        ("max(empty)", None),
        ("max_by(people[:2], &age).name", "b"),
        ("min_by(people, &name).name", "a"),
        ("merge(obj, `{\"x\": 9}`)", {"x": 9, "y": None, "z": 3}),
        ("not_null(missing, obj.y, zero)", 0),
        ("not_null(missing)", None),
        ("reverse(s)", "olleh"),
        ("reverse(nums)", [2, 1, 3]),
        ("sort(nums)", [1, 2, 3]),
        ("sort(words)", ["a", "b", "c"]),
        ("sort_by(people[:2], &age)[*].name", ["a", "b"]),
        ("sort_by(empty, &age)", []),
        ("sum(nums)", 6),
        ("to_array(s)", ["hello"]),
        ("to_array(nums)", [3, 1, 2]),
        ("to_number('12')", 12),
        ("to_number('1.5')", 1.5),
        ("to_number('x')", None),
        ("to_number(t)", None),
        ("to_string(obj)", '{"x":1,"y":null,"z":3}'),
        ("to_string(s)", "hello"),
        ("type(obj)", "object"),
        ("type(t)", "boolean"),
        ("type(zero)", "number"),
        ("type(missing)", "null"),
        ("length(choices[0].message.tool_calls) > `0`", True),
    ],
)
def test_standard_function(source: str, expected: Any) -> None:
    assert ev(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "length(zero)",  # wrong argument type
        "abs(t)",  # a boolean is not a number
        "sum(words)",  # array of the wrong element type
        "max(`[1, \"a\"]`)",  # mixed element types
        "join('-', nums)",
        "keys(nums)",
        "sort_by(people, &age)",  # a null sort key
        "sort_by(`[{\"a\": 1}, {\"a\": \"x\"}]`, &a)",  # keys of two types
        "max_by(`[{\"a\": 1}, {\"a\": \"x\"}]`, &a)",  # number against string
        "min_by(people, &@)",  # an object key
        "contains(s, zero)",  # Python: `0 in 'hello'` is a TypeError
        "starts_with(s, zero)",
        "merge(obj, nums)",  # only merge's first argument is type-checked
    ],
)
def test_function_type_error_raises_evaluation_error_on_both_paths(source: str) -> None:
    expression = compile_expression(source)
    with pytest.raises(EvaluationError):
        expression(DOC)
    with pytest.raises(EvaluationError):
        expression.reference(DOC)
    with pytest.raises(Exception):  # noqa: B017 - jmespath.py raises assorted classes
        jmespath.search(source, DOC)


def test_evaluation_error_is_a_value_error() -> None:
    assert issubclass(EvaluationError, ValueError)


def test_function_errors_inside_a_projection_propagate() -> None:
    with pytest.raises(EvaluationError):
        compile_expression("people[*].length(age)")(DOC)


def test_signatures_match_jmespath_py() -> None:
    table = jmespath_functions.Functions.FUNCTION_TABLE
    assert set(SIGNATURES) == set(table) == STANDARD_FUNCTIONS
    for name, (params, variadic) in SIGNATURES.items():
        theirs = table[name]["signature"]
        assert [tuple(p["types"]) for p in theirs] == [tuple(p) for p in params], name
        assert bool(theirs[-1].get("variadic")) is variadic, name


# --- refusals ---------------------------------------------------------------------------

def test_custom_function_is_not_portable() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression("my_func(a)")
    assert caught.value.rule == "expression-not-portable"


def test_ordering_on_a_string_literal_is_not_portable() -> None:
    for source in ("a < 'x'", "`\"x\"` >= a", "a > `null`"):
        with pytest.raises(ExpressionError) as caught:
            compile_expression(source)
        assert caught.value.rule == "expression-not-portable", source


def test_ordering_on_a_number_literal_is_portable() -> None:
    assert compile_expression("a < `1.5`")({"a": 1}) is True


def test_syntax_error_carries_the_offset_the_parser_blamed() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression("foo bar")
    assert (caught.value.rule, caught.value.offset) == ("expression-syntax", 4)


def test_incomplete_expression_is_blamed_at_its_end() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression("a ==")
    assert (caught.value.rule, caught.value.offset) == ("expression-syntax", 4)


def test_lexer_error_keeps_the_lexers_message() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression("a.$b")
    assert caught.value.offset == 2
    assert "$" in caught.value.message


def test_non_string_source_is_a_syntax_error() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(3)  # type: ignore[arg-type]
    assert caught.value.rule == "expression-syntax"


@pytest.mark.parametrize(
    "source",
    [
        "length(a, b)",  # jmespath.py raises ArityError only when the call runs
        "not_null()",
        "sort_by(a, b)",  # a value where an &expression belongs
        "length(&a)",  # an &expression where a value belongs
        "&a",
        "[&a]",
        "a[::0]",
    ],
)
def test_static_error_is_refused_at_load(source: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(source)
    assert caught.value.rule == "expression-syntax"


def test_absurdly_long_expression_is_refused() -> None:
    with pytest.raises(ExpressionError):
        compile_expression("a" + ".a" * MAX_LENGTH)


@pytest.mark.parametrize(
    "source",
    [
        "(" * 5000 + "a" + ")" * 5000,
        "!" * 9000 + "a",
        " || ".join(["a"] * (MAX_DEPTH + 1)),
        "a[*]" * (MAX_DEPTH + 1),
        "[" * 4000 + "a" + "]" * 4000,
    ],
)
def test_absurdly_deep_expression_is_refused_not_a_recursion_error(source: str) -> None:
    with pytest.raises(ExpressionError):
        compile_expression(source)


def test_deep_but_reasonable_expression_compiles() -> None:
    source = " || ".join(["missing"] * 30 + ["s"])
    assert compile_expression(source)(DOC) == "hello"


# --- documents --------------------------------------------------------------------------

def _deep(levels: int, key: str | None = None) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {key: value} if key else [value]
    return value


def test_deep_document_evaluates_without_recursing_per_level() -> None:
    document = {"a": _deep(100_000, "a"), "l": _deep(100_000)}
    assert compile_expression("a.a.a.a")(document) is document["a"]["a"]["a"]["a"]
    assert compile_expression("length(l[])")(document) == 1
    assert compile_expression("type(a) == 'object' && !empty")(document) is True
    (third,) = compile_expression("l[*][0][0]")(document)
    assert third is document["l"][0][0][0]


def test_comparing_too_deep_documents_raises_evaluation_error() -> None:
    document = {"a": _deep(100_000), "b": _deep(100_000)}
    for source in ("a == b", "a != b", "to_string(a)", "contains(b, a)", "[a] == [b]"):
        expression = compile_expression(source)
        with pytest.raises(EvaluationError):
            expression(document)
        with pytest.raises(EvaluationError):
            expression.reference(document)


# --- the Expression object --------------------------------------------------------------

def test_expression_keeps_its_source_and_ast() -> None:
    expression = compile_expression("a.b")
    assert expression.source == "a.b"
    assert expression.ast == jmespath.compile("a.b").parsed
    assert repr(expression) == "Expression('a.b')"
    assert expression({"a": {"b": 1}}) == expression.evaluate({"a": {"b": 1}}) == 1


def test_from_ast_compiles_a_stored_ast_without_parsing() -> None:
    source = "choices[?finish_reason == 'tool_calls'].message.tool_calls[].function.name"
    ast = copy.deepcopy(jmespath.compile(source).parsed)
    expression = Expression.from_ast(source, ast)
    assert expression(DOC) == ["f", "g"] == compile_expression(source)(DOC)


def test_from_ast_checks_portability() -> None:
    ast = {"type": "function_expression", "value": "custom", "children": []}
    with pytest.raises(ExpressionError) as caught:
        Expression.from_ast("custom()", ast)
    assert caught.value.rule == "expression-not-portable"


@pytest.mark.parametrize(
    "ast",
    [
        {"type": "field", "value": 3, "children": []},
        {"type": "field", "value": "a"},
        {"type": "index", "value": True, "children": []},
        {"type": "pipe", "children": [{"type": "field", "value": "a", "children": []}]},
        {"type": "slice", "children": [0, "1", None]},
        {"type": "comparator", "value": "like", "children": [
            {"type": "literal", "value": 1, "children": []},
            {"type": "literal", "value": 1, "children": []}]},
        {"type": "key_val_pair", "value": "k", "children": [{"type": "current", "children": []}]},
        {"type": "multi_select_dict", "children": [{"type": "current", "children": []}]},
        {"type": "literal", "children": []},
        ["not", "a", "node"],
    ],
)
def test_from_ast_refuses_a_malformed_ast(ast: Any) -> None:
    with pytest.raises(ExpressionError) as caught:
        Expression.from_ast("?", ast)
    assert caught.value.rule == "expression-syntax"


def test_from_ast_refuses_an_absurdly_deep_ast() -> None:
    ast: dict[str, Any] = {"type": "current", "children": []}
    for _ in range(100_000):
        ast = {"type": "not_expression", "children": [ast]}
    with pytest.raises(ExpressionError):
        Expression.from_ast("!!!", ast)


def test_reference_is_jmespath_py() -> None:
    expression = compile_expression("people[?age > `25`].name")
    assert expression.reference(DOC) == ["b"] == expression(DOC)
