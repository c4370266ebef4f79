"""Nothing the model wrote as a call is lost from model text (specs/README.md §1b.12).

A property test per grammar family: replies built with a known number of calls, with prose
around them and strings that quote the format's own markers, then cut anywhere or with a
field removed. Whatever happens, every call whose region started before the cut comes out
as a call (flagged or not), or the reply says it is not clean — a skipped region, or
``truncated`` — or the read raises a ``ToolwireError``. Never a clean ``TextReply`` with
fewer calls: that is the "0 calls means the model is done" bug, in text.

Examples are bounded and derandomized (the module runs in seconds);
``TOOLWIRE_PROPERTY_EXAMPLES=5000`` hunts longer.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolwire._text import TextReply, read_text
from toolwire.errors import ToolwireError

BAR = "\uff5c"  # the fullwidth bar of DeepSeek's tokens
HUNT = os.environ.get("TOOLWIRE_PROPERTY_EXAMPLES")
SETTINGS = settings(
    max_examples=int(HUNT) if HUNT else 60,
    deadline=None,
    derandomize=not HUNT,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NAMES = st.sampled_from(["get_weather", "get_time", "search", "f", "do.it"])
WORDS = st.sampled_from(["Paris", "x", "", "a b", "3", "true", "naïve", "é\n2"])


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict[str, str]


Written = tuple[str, list[int]]
"""A reply's call area and where each call starts in it."""


@dataclass(frozen=True)
class Family:
    """One grammar family: a format, how it writes calls (with prose between, where calls stand
    alone), its markers (to quote in strings), and whether prose may come first."""

    format: str
    write: Callable[[list[Call], list[str]], Written]
    markers: tuple[str, ...]
    lead: bool = True
    opens: tuple[str, ...] = ()  # what opens a call region: a stretch removed keeps them whole


def _json(call: Call) -> str:
    return json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)


def _py(call: Call) -> str:
    args = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in call.arguments.items())
    return f"{call.name}({args})"


def _xml_qwen(call: Call) -> str:
    params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in call.arguments.items())
    return f"<tool_call>\n<function={call.name}>\n{params}</function>\n</tool_call>"


def _glm(call: Call) -> str:
    params = "".join(
        f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n" for k, v in call.arguments.items()
    )
    return f"<tool_call>{call.name}\n{params}</tool_call>"


def _gemma(call: Call) -> str:
    args = ",".join(f'{k}:<|"|>{v}<|"|>' for k, v in call.arguments.items())
    return f"<|tool_call>call:{call.name}{{{args}}}<tool_call|>"


def _harmony(call: Call) -> str:
    return (
        f"<|start|>assistant<|channel|>commentary to=functions.{call.name} <|constrain|>json"
        f"<|message|>{json.dumps(call.arguments, ensure_ascii=False)}<|call|>"
    )


def _deepseek(call: Call) -> str:
    return (
        f"<{BAR}tool▁call▁begin{BAR}>{call.name}<{BAR}tool▁sep{BAR}>"
        f"{json.dumps(call.arguments, ensure_ascii=False)}<{BAR}tool▁call▁end{BAR}>"
    )


def _each(write: Callable[[Call], str]) -> Callable[[list[Call], list[str]], Written]:
    """Calls that stand alone, prose between them."""
    def written(calls: list[Call], gaps: list[str]) -> Written:
        text, starts = "", []
        for call, gap in zip(calls, ["", *gaps], strict=True):
            text += gap
            starts.append(len(text))
            text += write(call)
        return text, starts
    return written


def _list(
    opening: str, write: Callable[[Call], str], between: str, closing: str
) -> Callable[[list[Call], list[str]], Written]:
    """Calls in one list: the first starts where the list opens."""
    def written(calls: list[Call], gaps: list[str]) -> Written:
        text, starts = opening, []
        for i, call in enumerate(calls):
            if i:
                text += between
            starts.append(0 if i == 0 else len(text))
            text += write(call)
        return text + closing, starts
    return written


FAMILIES = [
    Family("hermes", _each(lambda c: f"<tool_call>\n{_json(c)}\n</tool_call>"),
           ("<tool_call>", "</tool_call>", "<think>"), opens=("<tool_call>",)),
    Family("llama3_json", _list("", _json, "; ", ""), ("<|python_tag|>", ";"), lead=False,
           opens=("{",)),
    Family("mistral", _list("[TOOL_CALLS][", _json, ", ", "]"), ("[TOOL_CALLS]", "]", "[ARGS]"),
           opens=("[TOOL_CALLS]",)),
    Family("deepseek_v31",
           _list(f"<{BAR}tool▁calls▁begin{BAR}>", _deepseek, "", f"<{BAR}tool▁calls▁end{BAR}>"),
           (f"<{BAR}tool▁call▁end{BAR}>", f"<{BAR}tool▁sep{BAR}>"),
           opens=(f"<{BAR}tool▁calls▁begin{BAR}>", f"<{BAR}tool▁call▁begin{BAR}>")),
    Family("qwen3_coder", _each(_xml_qwen), ("</tool_call>", "<tool_call>", "</parameter>"),
           opens=("<tool_call>", "<function=")),
    Family("glm45", _each(_glm), ("</tool_call>", "<arg_value>", "\n"), opens=("<tool_call>",)),
    Family("pythonic", _list("[", _py, ", ", "]"), ("]", ")", "<|python_end|>"), lead=False,
           opens=("[",)),
    Family("gemma4", _each(_gemma), ("<tool_call|>", "}", "<|tool_call>"),
           opens=("<|tool_call>",)),
    Family("gpt_oss", _each(_harmony), ("<|call|>", "<|end|>", "<|start|>"), lead=False,
           opens=("<|start|>", "to=functions.")),
]


@st.composite
def replies(draw: st.DrawFn, family: Family) -> Written:
    """A reply of ``family`` and where each call's region starts."""
    markers = st.sampled_from(family.markers)
    word = st.one_of(WORDS, st.tuples(WORDS, markers, WORDS).map("".join))
    calls = draw(st.lists(
        st.builds(Call, NAMES, st.dictionaries(st.sampled_from(["city", "q", "n"]), word,
                                               max_size=2)),
        min_size=1, max_size=3,
    ))
    prose = st.sampled_from(["", "Checking. ", "\n", "Done."])
    gaps = [draw(prose) for _ in calls[1:]]
    area, starts = family.write(calls, gaps if family.format != "gpt_oss" else ["" for _ in gaps])
    lead = draw(prose) if family.lead else ""
    return lead + area + draw(prose), [len(lead) + s for s in starts]


def _head(family: Family, text: str, start: int) -> int:
    """How much of a call must stand for it to have started: half of the marker opening it."""
    for marker in family.opens:
        if text.startswith(marker, start):
            return (len(marker) + 1) // 2
    return 1


def _occurrences(text: str, marker: str) -> list[int]:
    found, at = [], text.find(marker)
    while at != -1:
        found.append(at)
        at = text.find(marker, at + 1)
    return found


def _read(family: Family, text: str) -> TextReply | None:
    try:
        return read_text(family.format, text)
    except ToolwireError:
        return None  # an error is an answer: the loop never takes it for "done"


def _check(reply: TextReply | None, started: int) -> None:
    if reply is None:
        return
    clean = not reply.skipped and not reply.truncated
    assert len(reply.calls) >= started or not clean, (
        f"a clean reply with {len(reply.calls)} calls of {started}: {reply!r}"
    )


@pytest.mark.parametrize("family", FAMILIES, ids=[f.format for f in FAMILIES])
@SETTINGS
@given(data=st.data())
def test_a_cut_reply_never_reads_as_clean_with_fewer_calls(family: Family, data: Any) -> None:
    """A call has started once its first character stands — or, where a marker opens it, half
    of that marker (less may be prose: a reply may end with ``<``; specs/README.md §1b.12)."""
    text, starts = data.draw(replies(family))
    cut = data.draw(st.integers(0, len(text)))
    prefix = text[:cut]
    _check(_read(family, prefix), sum(1 for s in starts if cut >= s + _head(family, text, s)))


@pytest.mark.parametrize("family", FAMILIES, ids=[f.format for f in FAMILIES])
@SETTINGS
@given(data=st.data())
def test_markers_quoted_in_strings_never_lose_a_call(family: Family, data: Any) -> None:
    text, starts = data.draw(replies(family))
    _check(_read(family, text), len(starts))


@pytest.mark.parametrize("family", FAMILIES, ids=[f.format for f in FAMILIES])
@SETTINGS
@given(data=st.data())
def test_a_removed_stretch_never_reads_as_clean_with_fewer_calls(
    family: Family, data: Any
) -> None:
    """A field (or any stretch) removed from inside a call: the calls before it stay, and the
    call it was in comes out, flagged, or the reply is not clean."""
    text, starts = data.draw(replies(family))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 40)))
    # a marker that opens a call region broken is no call region at all: keep those whole
    assume(not any(
        at < end and start < at + len(marker)
        for marker in family.opens for at in _occurrences(text, marker)
    ))
    mutated = text[:start] + text[end:]
    untouched = sum(1 for s in starts if s < start)  # the calls before the removal began
    reply = _read(family, mutated)
    if reply is not None and not reply.skipped and not reply.truncated:
        assert len(reply.calls) >= min(untouched, len(starts) - 1) or any(
            c.arguments_undecodable for c in reply.calls
        ), f"{mutated!r}: {reply!r}"
