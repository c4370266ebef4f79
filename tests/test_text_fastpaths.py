"""The text scanner's fast paths answer exactly what their general paths answer.

A fast path (a regular expression for the common case, a string taken as written) is
allowed only where it reads the same values, types and end positions as the general
reader it stands in front of, and falls back to it on everything else, faults
included. Each test reads generated input twice, once with the fast path switched
off, and compares: ``repr`` tells ``True`` from ``1`` and ``-0.0`` from ``0.0``.
The generators lean on the edges: escapes, NUL, CR, newlines, lone surrogates,
leading zeros, long numbers, repeated keys, constants as keys, Unicode blanks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire._text.grammars import pyliteral
from toolwire._text.occurrences import Occurrences

_NEVER = re.compile(r"(?!)")

_CHARS = st.sampled_from(
    ["a", "é", " ", "'", '"', "\\", "\n", "\r", "\x00", "\ud800", "\udfff", "\t", "N",
     "{", "}", "x", "0", "\u2028", "\U0001f600"]
)
_TEXT = st.lists(_CHARS, max_size=8).map("".join)
_BLANK = st.sampled_from(["", "", "", " ", "\n", "\t ", "\u3000", "\x0c"])
_IDENT = st.sampled_from(
    ["city", "a", "b", "_x", "ünit", "True", "true", "None", "null", "1a", "a.b", "r", "u"]
)
_NUMBER = st.sampled_from(
    ["0", "00", "05", "-0", "-5", "- 5", "+5", "7", "1_000", "0x1F", "1.5", "-0.0", "1.",
     ".5", "1e5", "1e400", "01.5", "1.5j", "123456789012345678", "1234567890123456789",
     "1234567890123456.5", "12345678901234567.5", "0.12345678901234567",
     "0.123456789012345678"]
)
_WORD = st.sampled_from(["True", "False", "None", "true", "false", "null", "Truex", "nil"])


def _quoted(body: str, quote: str, prefix: str) -> str:
    return f"{prefix}{quote}{body}{quote}"


_STRING = st.builds(
    _quoted, _TEXT, st.sampled_from(["'", '"', "'''", '"""']),
    st.sampled_from(["", "", "", "r", "u", "R", "b", "f"]),
)


def _values(depth: int) -> st.SearchStrategy[str]:
    plain = st.one_of(_STRING, _NUMBER, _WORD, st.builds("{}{}".format, _STRING, _STRING))
    if depth == 0:
        return plain
    inner = _values(depth - 1)
    return st.one_of(
        plain, plain, plain,
        st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(st.tuples(_STRING, inner), max_size=2).map(
            lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
        ),
    )


@st.composite
def _calls(draw: st.DrawFn) -> str:
    """``name(key=value, …)`` with random blanks, separators and endings."""
    name = draw(st.sampled_from(["get_weather", "f", "tools.f", "1f", "f .g", ""]))
    parts = [name, draw(_BLANK), "("]
    count = draw(st.integers(0, 3))
    for i in range(count):
        parts += [draw(_BLANK), draw(_IDENT), draw(_BLANK), draw(st.sampled_from(["=", "=", ":"])),
                  draw(_BLANK), draw(_values(2)), draw(_BLANK)]
        if i < count - 1:
            parts.append(draw(st.sampled_from([",", ",", ",,", ""])))
    parts += [draw(st.sampled_from(["", "", ",", ", ", ",,"])), draw(_BLANK),
              draw(st.sampled_from([")", ")", ")", "", "]"])),
              draw(st.sampled_from(["", ")", " x"]))]
    return "".join(parts)


def _outcome(read: Callable[[], Any]) -> str:
    try:
        return repr(read())
    except pyliteral.LiteralError as exc:
        return f"LiteralError({exc})"


@contextmanager
def _general() -> Iterator[None]:
    """The general reader only: the flat-call and plain-string fast paths switched off."""
    with mock.patch.object(pyliteral._Reader, "flat_call", lambda self, pos: None), \
            mock.patch.object(pyliteral, "_PLAIN_TEXT", _NEVER):
        yield


def _both(read: Callable[[], Any]) -> tuple[str, str]:
    fast = _outcome(read)
    with _general():
        general = _outcome(read)
    return fast, general


@settings(max_examples=600, deadline=None)
@given(_calls(), st.booleans())
def test_flat_calls_read_as_the_general_reader_reads_them(text: str, json_constants: bool) -> None:
    fast, general = _both(lambda: pyliteral._Reader(text, json_constants).call(0))
    assert fast == general, text


@settings(max_examples=200, deadline=None)
@given(st.lists(_calls(), min_size=1, max_size=3), st.booleans(), st.booleans())
def test_call_lists_and_lines_read_as_the_general_reader_reads_them(
    calls: list[str], lines: bool, json_constants: bool
) -> None:
    read = pyliteral.read_call_lines if lines else pyliteral.read_call_list
    text = "\n".join(calls) if lines else "[" + ", ".join(calls) + "]"
    fast, general = _both(lambda: read(text, 0, json_constants=json_constants))
    assert fast == general, text


@settings(max_examples=600, deadline=None)
@given(st.lists(_STRING, min_size=1, max_size=3), _BLANK)
def test_strings_without_escapes_read_as_literal_eval_reads_them(
    strings: list[str], blank: str
) -> None:
    text = blank.join(strings)
    fast, general = _both(lambda: pyliteral._Reader(text).strings(0))
    assert fast == general, text


def test_the_fast_paths_answer_the_common_cases() -> None:
    """Guards the guard: the fast paths do take the flat calls they are for."""
    reader = pyliteral._Reader("get_weather(city='Paris', days=3, ok=True, t=-1.5, u=\"é\",)")
    assert reader.flat_call(0) is not None
    assert pyliteral._PLAIN_TEXT.fullmatch("Paris, é \n x") is not None


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab<>", min_size=4, max_size=60),
    st.lists(st.tuples(st.sampled_from(["a", "ab", "<a>", "b<", ">"]), st.integers(-3, 65)),
             min_size=4, max_size=60),
    st.booleans(),
)
def test_occurrences_answer_as_find_answers(
    text: str, questions: list[tuple[str, int]], increasing: bool
) -> None:
    """Whatever the order of the questions: the cached answers, then the index."""
    if increasing:
        questions.sort(key=lambda question: question[1])
    occ = Occurrences(text)
    for marker, pos in questions * 3:  # repeated, so that some markers get their index
        assert occ.first(marker, pos) == text.find(marker, max(pos, 0)), (marker, pos)


def test_a_marker_asked_back_and_forth_gets_its_index() -> None:
    """Guards the guard: the index behind the cached answers is reached, and agrees."""
    text = "x" * 50 + "<a>" + "x" * 50
    occ = Occurrences(text)
    for pos in [90, 0, 80, 10, 70, 20, 60, 30, 95, 0, 53, 40]:
        assert occ.first("<a>", pos) == text.find("<a>", pos)
    assert "<a>" in occ._found
