"""Hostile replies stay cheap: linear time, no recursion errors, no evaluation.

The bounds are generous on purpose and counted in the test thread's CPU seconds (time spent
waiting for a core on a busy machine is not counted, so load cannot fail them); they catch a
hang. The per-megabyte flatness from 1 MB to 10 MB is measured by ``tools/bench_text.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from toolwire._text import bundled_text_specs, extract_from_text, extract_text, read_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import bench_text

MB = 1_000_000
SECONDS_FOR_ONE_MB = 10.0
"""CPU seconds, far above the bench's figures: a hang fails it, a slowdown does not."""


@pytest.mark.parametrize("fmt", sorted(bundled_text_specs()))
def test_a_hostile_megabyte_is_read_within_a_generous_bound(fmt: str) -> None:
    text = bench_text.hostile_text(fmt, MB)
    assert len(text) == MB
    spec = bundled_text_specs()[fmt]
    started = time.thread_time()
    extract_text(spec, text)
    assert time.thread_time() - started < SECONDS_FOR_ONE_MB


@pytest.mark.parametrize("fmt", sorted(bundled_text_specs()))
def test_a_normal_megabyte_yields_every_call(fmt: str) -> None:
    text = bench_text.normal_text(fmt, MB)
    sample = bench_text.sample(fmt)
    _, calls = extract_from_text(fmt, text)
    assert len(calls) == text.count(sample.unit) * sample.calls
    assert not any(call.arguments_undecodable for call in calls)


def test_thousands_of_unclosed_open_tags_stay_text() -> None:
    text = "<tool_call>" * 20_000
    clean, calls = extract_from_text("hermes", text)
    assert (clean, calls) == (text, [])


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("hermes", "<tool_call>" + "[" * 200_000),
        ("hermes", '<tool_call>{"name": "f", "arguments": ' + "{\"a\": " * 100_000),
        ("llama3_json", "{" * 200_000),
        ("granite", "[" * 200_000),
        ("mistral", "[TOOL_CALLS]" + "[" * 200_000),
    ],
    ids=lambda v: v[:24] if isinstance(v, str) else v,
)
def test_deeply_nested_brackets_leave_the_block_as_text_without_recursion_errors(
    fmt: str, text: str
) -> None:
    clean, calls = extract_from_text(fmt, text)
    assert calls == []
    assert clean == text.strip()


@pytest.mark.parametrize(
    "text",
    ["[f(a=" + "[" * 200_000, "[f(a=" + "(" * 200_000, "[f(a=" + "{'k': " * 200_000],
    ids=lambda v: v[:24],
)
def test_deeply_nested_brackets_cut_off_after_a_call_name_give_it_flagged_without_recursion(
    text: str,
) -> None:
    reply = read_text("pythonic", text)
    assert [(c.name, c.arguments_error_code, c.incomplete) for c in reply.calls] == [
        ("f", "call-unfinished", True)
    ]
    assert reply.truncated


def test_a_pythonic_literal_just_within_the_depth_limit_still_reads() -> None:
    clean, calls = extract_from_text("pythonic", "[f(a=" + "[" * 60 + "]" * 60 + ")]")
    assert clean == ""
    assert len(calls) == 1


def test_a_long_unterminated_string_is_read_once() -> None:
    text = "[f(a='" + "x" * (2 * MB)
    started = time.thread_time()
    clean, calls = extract_from_text("pythonic", text)
    assert clean == "" and [(c.name, c.incomplete) for c in calls] == [("f", True)]
    assert time.thread_time() - started < SECONDS_FOR_ONE_MB


def test_pythonic_text_is_never_evaluated(tmp_path: Path) -> None:
    marker = tmp_path / "evaluated"
    text = f"[f(x=open({str(marker)!r}, 'w').close())]"
    clean, calls = extract_from_text("pythonic", text)
    assert clean == ""
    assert [(c.name, c.arguments, c.arguments_undecodable) for c in calls] == [("f", {}, True)]
    assert not marker.exists()
