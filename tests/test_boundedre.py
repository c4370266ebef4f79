"""toolwire._boundedre: a developer's regular expression on a model's text, with a bound.

The engines agree with :mod:`re` (the generated patterns below: where and whether they
match, and their groups outside loops whose body can match empty); the patterns that
take :mod:`re` exponential time take linear time here (ratios of n and 4n, never a
fixed time); a pattern that needs backtracking stops at its step budget.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from growth import GROWTH_BOUND, growth
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire import _boundedre as boundedre
from toolwire._boundedre.parse import Node, parse
from toolwire._boundedre.program import _nullable
from toolwire.errors import RegexBudgetExceeded, ToolwireError

# --- the same answers as re -------------------------------------------------------------

ATOMS = st.sampled_from(["a", "b", "A", ".", "[ab]", "[^a]", r"\w", r"\W", r"\s", r"\d",
                         " ", "(?i:a)", r"\."])
ZERO_WIDTH = st.sampled_from(["^", "$", r"\b", r"\B", r"\A", r"\Z", "(?<=a)", "(?<!b)"])
QUANTIFIERS = st.sampled_from(["*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{0,2}?", "{,2}"])


def _patterns() -> st.SearchStrategy[str]:
    return st.recursive(
        ATOMS | ZERO_WIDTH,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda p: f"({p[0]}|{p[1]})"),
            st.tuples(inner, inner).map(lambda p: f"(?:{p[0]}|{p[1]})"),
            st.tuples(inner, QUANTIFIERS).map(lambda p: f"({p[0]}){p[1]}"),
            inner.map(lambda p: f"(?={p})"),
            inner.map(lambda p: f"(?!{p})"),
            st.tuples(inner, inner).map(lambda p: f"({p[0]})\\1{p[1]}"),
        ),
        max_leaves=6,
    )


TEXTS = st.text(alphabet="abAB 1\n_é", max_size=10)


def _empty_loop(node: Node) -> bool:
    """A repetition whose body can match empty (where groups may differ from re's)."""
    if node.kind == "repeat" and (node.high is None or node.high > 1) and _nullable(
            node.children[0]):
        return True
    return any(_empty_loop(child) for child in node.children)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.sampled_from(["", "(?m)", "(?s)", "(?i)"]), TEXTS, st.integers(0, 10))
def test_matches_agree_with_re(pattern: str, flags: str, text: str, pos: int) -> None:
    pattern = flags + pattern
    try:
        expected = re.compile(pattern)
    except re.error:
        return
    bounded = boundedre.compile(pattern)
    pos = min(pos, len(text))
    got, want = bounded.search(text, pos), expected.search(text, pos)
    assert (got and got.span()) == (want and want.span()), (pattern, text, pos)
    assert bounded.test(text) == (expected.search(text) is not None)
    assert [m.span() for m in bounded.finditer(text)] == [
        m.span() for m in expected.finditer(text)]
    if got is not None and want is not None and not _empty_loop(parse(pattern).root):
        assert got.groups() == want.groups(), (pattern, text, pos)


def test_named_groups_and_match_methods_behave_as_re() -> None:
    bounded = boundedre.compile(r"<(?P<key>\w+)>\s*(?P<value>.*?)\s*</(?P=key)>", re.DOTALL)
    match = bounded.search("x <a> one </a><b>two</b>")
    assert match is not None
    assert (match.span(), match.group("key"), match.groupdict()) == (
        (2, 14), "a", {"key": "a", "value": "one"})
    assert [m.group("value") for m in bounded.finditer("<a>1</a><b>2</b>")] == ["1", "2"]
    assert bounded.groupindex == {"key": 1, "value": 2}
    assert bounded.engine == "backtracking"
    assert boundedre.compile(r"<tool_call>\s*(?P<name>\w+)").engine == "linear"


@pytest.mark.parametrize("pattern, reason", [
    ("(?x) a b", "verbose"),
    (r"(a)?(?(1)b|c)", "conditional"),
    ("a{1000}" * 30, "expand"),
])
def test_constructs_no_engine_bounds_are_refused_by_name(pattern: str, reason: str) -> None:
    with pytest.raises(boundedre.Unsupported, match=reason):
        boundedre.compile(pattern)


@pytest.mark.parametrize("pattern, depth", [
    ("a", 0), ("(a)(b)", 1), ("((?:a)|(?=b))", 2), ("(?<!x)(?P<n>a)", 1),
    (r"\((a)\)", 1), ("[(]((a))[)]", 2), ("(?i)(?#(c))(?P=n)a", 0), ("(?i:a)", 1),
])
def test_nesting_counts_groups_and_look_arounds_not_flags_or_comments(pattern: str,
                                                                      depth: int) -> None:
    assert boundedre.nesting(pattern) == depth


def test_groups_nested_245_deep_compile_from_a_deep_caller_and_246_are_refused() -> None:
    def at_depth(frames: int, pattern: str) -> Any:
        if frames:
            return at_depth(frames - 1, pattern)
        return boundedre.compile(pattern)

    deepest = "(" * boundedre.MAX_NESTING + "a" + ")" * boundedre.MAX_NESTING
    assert at_depth(600, deepest).test("xa")
    with pytest.raises(boundedre.Unsupported, match="246 deep"):
        boundedre.compile("(?:" * 246 + "a" + ")" * 246)
    with pytest.raises(boundedre.Unsupported, match="500 deep"):
        boundedre.compile("(" * 500 + "a" + ")" * 500)


def test_a_pattern_re_refuses_is_refused_as_re_does() -> None:
    with pytest.raises(re.error):
        boundedre.compile("(unclosed")


# --- bounds ------------------------------------------------------------------------------






def test_the_schema_pattern_re_takes_36_seconds_on_is_linear() -> None:
    pattern = boundedre.compile(r"^([A-Za-z0-9]+\s?)*$")
    assert pattern.search("a" * 33 + "!") is None  # re: 36 s
    assert pattern.test("a" * 33 + "!") is False
    ratio = growth(lambda n: lambda: pattern.search("a" * n + "!"), 2_000)
    assert ratio < GROWTH_BOUND, f"4x the text took {ratio:.1f}x the time (linear: 4)"
    ratio = growth(lambda n: lambda: boundedre.compile(r"^([A-Za-z0-9]+\s?)*$").test(
        "a" * n + "?"), 20_000)
    assert ratio < GROWTH_BOUND, f"4x the text took {ratio:.1f}x the time (linear: 4)"


def test_the_template_open_pattern_re_takes_33_seconds_on_is_linear() -> None:
    pattern = boundedre.compile(r"<tool_call>(\s*\w+)*:", re.DOTALL)
    assert pattern.search("<tool_call>" + " word" * 9) is None  # re: 33 s
    ratio = growth(lambda n: lambda: pattern.search("<tool_call>" + " word" * n), 500)
    assert ratio < GROWTH_BOUND, f"4x the words took {ratio:.1f}x the time (linear: 4)"


def test_a_backtracking_pattern_stops_at_its_budget_with_a_toolwire_error() -> None:
    pattern = boundedre.compile(r"^(\w+\s?)*\1!$", steps=20_000)
    assert pattern.engine == "backtracking"
    with pytest.raises(RegexBudgetExceeded) as caught:
        pattern.search("ab" * 30 + "?")
    assert isinstance(caught.value, ToolwireError)
    assert caught.value.code == "regex_budget"
    assert caught.value.to_dict()["steps"] == 20_000
    with pytest.raises(RegexBudgetExceeded):  # remembered: the second answer is the same
        pattern.test("ab" * 30 + "?")


def test_a_search_is_never_run_twice_for_one_text() -> None:
    runs = []

    class Counting(boundedre.BoundedPattern):
        def _run(self, *args: Any) -> Any:
            runs.append(args)
            return super()._run(*args)

    pattern = Counting("^[a-z]+$")
    assert pattern.test("abc") and pattern.test("abc")
    assert not pattern.test("ab1") and not pattern.test("ab1")
    assert len(runs) == 2


# --- what costs budget, and whose budget it is --------------------------------------------


def _spent(budget: boundedre.Budget) -> int:
    return budget.total - budget.left


def test_a_repetition_count_is_read_in_ascii_digits_only() -> None:
    pattern = boundedre.compile("x{\u0663}")  # ARABIC-INDIC DIGIT THREE: not a count for re
    assert re.search("x{\u0663}", "x{\u0663}") is not None
    assert pattern.test("x{\u0663}") is True
    assert pattern.test("xxx") is False
    assert boundedre.compile("x{3}").test("xxx") is True


def test_a_pattern_without_back_references_spends_no_budget() -> None:
    text = "ab" * 1_500 + "a" + "b" * 60 + "c"  # the DFA's sets rarely repeat on it
    pattern = boundedre.compile("a.{60}c", steps=1)
    assert pattern.test(text) is True
    assert pattern.search(text) is not None
    assert pattern.test(text[:-1]) is False
    with boundedre.one_budget(steps=1) as budget:
        assert boundedre.compile(r"^([A-Za-z0-9]+\s?)*$").test("a" * 3_000 + "!") is False
        assert boundedre.compile(r"<t>(\s*\w+)*:").search("<t>" + " w" * 1_000) is None
    assert _spent(budget) == 0


def test_a_look_around_run_is_charged_to_the_budget() -> None:
    with boundedre.one_budget() as budget:
        assert boundedre.compile(r"(?=\w*!)a").test("ab" * 200) is False
    assert _spent(budget) > 0


def test_searches_in_one_budget_share_it_and_stop_once_it_is_spent() -> None:
    pattern = boundedre.compile(r"^(\w+\s?)*\1!$")
    texts = [f"{n:02d}" + "ab" * 30 + "?" for n in range(16)]
    with boundedre.one_budget(steps=20_000) as budget:
        with pytest.raises(RegexBudgetExceeded):
            pattern.search(texts[0])
        after_first = _spent(budget)
        for text in texts[1:]:
            with pytest.raises(RegexBudgetExceeded) as caught:
                pattern.test(text)
            assert caught.value.steps == 20_000
    assert 20_000 < after_first <= 20_000 + 4_096
    assert _spent(budget) == after_first  # a spent budget fails every later search at once


def test_an_overrun_is_remembered_with_its_budget_only() -> None:
    pattern = boundedre.compile(r"^(\w+\s?)*\1!$")
    text = "cd" * 30 + "?"
    with boundedre.one_budget(steps=20_000) as first:
        with pytest.raises(RegexBudgetExceeded):
            pattern.test(text)
        with pytest.raises(RegexBudgetExceeded):
            pattern.test(text)  # the same budget: remembered, no second run
    with boundedre.one_budget(steps=20_000) as second, pytest.raises(RegexBudgetExceeded):
        pattern.test(text)  # a new budget: searched again
    assert _spent(first) == _spent(second) > 20_000


def test_a_remembered_answer_is_charged_the_steps_its_search_took() -> None:
    pattern = boundedre.compile(r"^(\w+\s?)*\1!$")
    text = "ef efef!"
    with boundedre.one_budget() as first:
        assert pattern.test(text) is True
    with boundedre.one_budget() as second:
        assert pattern.test(text) is True  # remembered, and charged as if searched
    assert _spent(first) == _spent(second) > 0
    with boundedre.one_budget(steps=_spent(first) - 1), pytest.raises(RegexBudgetExceeded):
        pattern.test(text)  # a budget the search would overrun: the memo overruns it too
