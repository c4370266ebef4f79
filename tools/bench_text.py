"""Time per MB of text extraction on normal and hostile replies, 1 MB to 10 MB (run by hand).

    PYTHONPATH=src python tools/bench_text.py [--sizes 1,2,5,10] [--formats hermes,kimi_k2]

For every bundled text format it times ``extract_text`` on two inputs of each size:

normal
    A realistic reply (prose and calls in the format) repeated.
hostile
    The format's worst cases, a quarter each: thousands of open markers never
    closed, brackets nested a quarter of the input deep, a string that never ends,
    and stray close markers. Formats that read a call at the reply's start begin
    with the nested brackets, so that reading starts there.

Formats without a hand-written sample below get one derived from the spec and the
format's conformance suite: the normal reply is the ``text_around_calls`` case's first
text, the hostile one built from the spec's own markers (:func:`derived_sample`).

It prints CPU seconds per MB for each, with PASS or FAIL per format and input for
"time per MB stays within 1.5x across the sizes" (slowest over fastest), the property
that rules out quadratic scanning; then PASS or FAIL per format for "normal time per
MB within 2x of Hermes's" (the slowest format may cost at most twice the
reference format's time on its own realistic reply), the ratio being the largest over
the sizes. Hermes is timed whenever a ratio is asked for, ``--formats`` or not.
``run(sizes)`` returns the rows, ``verdicts(rows)`` and ``hermes_verdicts(rows)`` the
judgements, for ``tools/bench.py``.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from toolwire._text import bundled_text_specs, extract_text

__all__ = [
    "FLAT_WITHIN",
    "FORMATS",
    "HERMES_WITHIN",
    "derived_sample",
    "hermes_verdicts",
    "hostile_text",
    "main",
    "normal_text",
    "run",
    "sample",
    "verdicts",
]

MB = 1_000_000
FLAT_WITHIN = 1.5
HERMES_WITHIN = 2.0
CASES = Path(__file__).resolve().parent.parent / "specs" / "conformance" / "text"
DEFAULT_SIZES = (1, 2, 5, 10)
REFERENCE = "hermes"


def _deepseek(words: str) -> str:
    """A DeepSeek special token: fullwidth bars around words joined by U+2581."""
    return "<\uff5c" + words.replace(" ", "\u2581") + "\uff5c>"


_DS = tuple(map(_deepseek, ("tool calls begin", "tool calls end", "tool call begin",
                            "tool call end", "tool sep")))
_KIMI = ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_begin|>",
         "<|tool_call_end|>", "<|tool_call_argument_begin|>")


@dataclass(frozen=True)
class Sample:
    """What the bench feeds one format.

    ``unit`` is a normal reply carrying ``calls`` calls; ``unclosed`` is repeated;
    ``deep`` is a prefix and the bracket it is followed by; ``endless`` opens a
    string that never closes; ``stray`` is repeated noise; ``prefix`` opens the
    whole hostile text (a section).
    """

    unit: str
    calls: int
    unclosed: str
    deep: tuple[str, str]
    endless: str
    stray: str
    prefix: str = ""
    starts_deep: bool = False


def _v3(name: str, args: str) -> str:
    return f"{_DS[2]}function{_DS[4]}{name}\n```json\n{args}\n```{_DS[3]}"


FORMATS: dict[str, Sample] = {
    "hermes": Sample(
        'Let me look that up.\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Paris", "unit": "celsius"}}\n</tool_call>\n', 1,
        '<tool_call>{"name": "f", "arguments": {"a": [', ("<tool_call>", "["),
        '<tool_call>{"name": "f", "arguments": {"a": "', "</tool_call>"),
    "mistral": Sample(
        'Checking now.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]\n',
        1, '[TOOL_CALLS]f[ARGS]{"a": [', ("[TOOL_CALLS]", "["),
        '[TOOL_CALLS][{"name": "f", "arguments": {"a": "', "[ARGS]{"),
    "llama3_json": Sample(
        'Looking it up.<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};'
        ' {"name": "get_time", "parameters": {}}\n', 2,
        '<|python_tag|>{"name": "f", "parameters": {"a": [', ("", "{"),
        '<|python_tag|>{"name": "f", "parameters": {"a": "', ";{", starts_deep=True),
    "pythonic": Sample(
        "Checking.<|python_start|>[get_weather(city='Paris', unit='celsius'), get_time()]"
        "<|python_end|>\n", 2, "<|python_start|>[f(a=[", ("[f(a=", "["),
        "<|python_start|>[f(a='", "<|python_end|>", starts_deep=True),
    "qwen3_coder": Sample(
        "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
        "</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n", 1,
        "<tool_call><function=f><parameter=a>",
        ("<tool_call><function=f><parameter=a>", "["), "<tool_call><function=f><parameter=a>\"",
        "</parameter>"),
    "glm45": Sample(
        "Let me check.<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing"
        "</arg_value>\n</tool_call>\n", 1,
        "<tool_call>f\n<arg_key>a</arg_key><arg_value>",
        ("<tool_call>f\n<arg_key>a</arg_key><arg_value>", "["),
        "<tool_call>f\n<arg_key>a</arg_key><arg_value>\"", "</arg_value>"),
    "deepseek_v3": Sample(
        "Let me check." + _DS[0] + _v3("get_weather", '{"city": "Tokyo"}')
        + _v3("get_time", "{}") + _DS[1] + "\n", 2,
        _DS[2] + f"function{_DS[4]}f\n```json\n{{", (_DS[2] + f"function{_DS[4]}f\n", "["),
        _DS[2] + f'function{_DS[4]}f\n```json\n{{"a": "', _DS[3], prefix=_DS[0]),
    "deepseek_v31": Sample(
        "Let me check." + _DS[0] + f'{_DS[2]}get_weather{_DS[4]}{{"city": "Tokyo"}}{_DS[3]}'
        + f"{_DS[2]}get_time{_DS[4]}{{}}{_DS[3]}" + _DS[1] + "\n", 2,
        _DS[2] + f"f{_DS[4]}{{", (_DS[2] + f"f{_DS[4]}", "["), _DS[2] + f'f{_DS[4]}{{"a": "',
        _DS[3], prefix=_DS[0]),
    "kimi_k2": Sample(
        "I'll check. " + _KIMI[0] + f'{_KIMI[2]}functions.get_weather:0{_KIMI[4]}{{"city": '
        f'"Beijing"}}{_KIMI[3]}{_KIMI[2]}functions.get_time:1{_KIMI[4]}{{}}{_KIMI[3]}'
        + _KIMI[1] + "\n", 2,
        _KIMI[2] + f"functions.f:0{_KIMI[4]}{{", (_KIMI[2] + f"functions.f:0{_KIMI[4]}", "["),
        _KIMI[2] + f'functions.f:0{_KIMI[4]}{{"a": "', _KIMI[3], prefix=_KIMI[0]),
    "gpt_oss": Sample(
        "<|channel|>analysis<|message|>The user wants the weather.<|end|><|start|>assistant"
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
        '{"city": "Paris"}<|call|>\n', 1,
        "<|start|>assistant<|channel|>commentary to=functions.f<|message|>{\"a\": [",
        ("<|start|>assistant<|channel|>commentary to=functions.f<|message|>", "["),
        "<|start|>assistant<|channel|>commentary to=functions.f<|message|>\"", "<|call|>"),
    "granite": Sample(
        'Let me check.\n<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\n',
        1, '<|tool_call|>[{"name": "f", "arguments": {"a": [', ("", "["),
        '<|tool_call|>[{"name": "f", "arguments": {"a": "', "]", starts_deep=True),
}


@cache
def derived_sample(fmt: str) -> Sample:
    """A sample for ``fmt`` from its spec's markers and its ``text_around_calls`` case."""
    case = json.loads((CASES / fmt / "text_around_calls.json").read_text("utf-8"))
    first = next(t for t in case["tests"] if t["expect"]["calls"])
    spec = bundled_text_specs()[fmt]
    scanner = spec.scanner(spec.resolve({}))
    opening = scanner.opens[0]
    prefix = scanner.section[0] if scanner.section else ""
    return Sample(
        first["text"] + "\n", len(first["expect"]["calls"]),
        opening + '{"name": "f", "arguments": {"a": [', (opening, "["),
        opening + '{"name": "f", "arguments": {"a": "', scanner.close or opening[:1],
        prefix=prefix,
    )


def sample(fmt: str) -> Sample:
    """The hand-written sample of ``fmt``, or one derived from its spec and cases."""
    return FORMATS.get(fmt) or derived_sample(fmt)


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def normal_text(fmt: str, size: int) -> str:
    """Whole copies of the format's normal reply, at least ``size`` characters."""
    unit = sample(fmt).unit
    return unit * -(-size // len(unit))


def hostile_text(fmt: str, size: int) -> str:
    """Exactly ``size`` characters of the format's worst cases (see the module docstring)."""
    chosen = sample(fmt)
    share = size // 4
    deep = chosen.deep[0] + chosen.deep[1] * (share - len(chosen.deep[0]))
    endless = chosen.endless + "x" * (share - len(chosen.endless))
    unclosed, stray = _repeat(chosen.unclosed, share), _repeat(chosen.stray, share)
    parts = [deep, unclosed, endless, stray] if chosen.starts_deep else [
        unclosed, deep, endless, stray
    ]
    text = chosen.prefix + "".join(parts)
    return (text + " " * size)[:size]


def _cpu_seconds(fmt: str, text: str) -> float:
    """CPU seconds of one extraction.

    CPU time of this process, not wall time: on a shared machine other processes
    would otherwise make a flat curve look bent. The garbage collector is paused
    while a run is timed, as :mod:`timeit` does: its collections fire at moments
    that depend on what else the process holds, which measures the heap rather than
    the scanner (with it on, the same input varies by 1.5x from run to run).
    """
    spec = bundled_text_specs()[fmt]
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        extract_text(spec, text)
        return time.process_time() - started
    finally:
        gc.enable()


def run(
    sizes: Sequence[int] = DEFAULT_SIZES, formats: Iterable[str] | None = None, rounds: int = 3
) -> list[dict[str, Any]]:
    """One row per format, input and size: ``format, input, mb, seconds, seconds_per_mb``,
    and on normal rows ``hermes_ratio`` when Hermes is among the formats.

    Every round times every format, input and size once, in that order, and the best
    round counts: a noisy moment on a shared machine then hits every format alike. The
    ratio to Hermes is paired: each normal timing is taken right after a Hermes timing of
    the same size, and the row gives the median of those per-round ratios, so a burst of
    load hits both sides of a pair, not one Hermes timing taken minutes before. Each text
    is built afresh for its timing (cheap beside reading it), not all held at once.
    """
    chosen = list(formats or sorted(bundled_text_specs()))
    kinds = (("normal", normal_text), ("hostile", hostile_text))
    best: dict[tuple[str, str, int], float] = {}
    length: dict[tuple[str, str, int], int] = {}
    paired: dict[tuple[str, int], list[float]] = {}
    for _ in range(rounds):
        for fmt in chosen:
            for kind, make in kinds:
                for mb in sizes:
                    text = make(fmt, mb * MB)
                    key = (fmt, kind, mb)
                    length[key] = len(text)
                    reference = None
                    if kind == "normal" and fmt != REFERENCE and REFERENCE in chosen:
                        hermes = normal_text(REFERENCE, mb * MB)
                        reference = _cpu_seconds(REFERENCE, hermes) / (len(hermes) / MB)
                        del hermes
                    seconds = _cpu_seconds(fmt, text)
                    best[key] = min(best.get(key, float("inf")), seconds)
                    if reference:
                        paired.setdefault((fmt, mb), []).append(
                            seconds / (len(text) / MB) / reference)
                    del text
    rows = []
    for fmt in chosen:
        for kind, _ in kinds:
            for mb in sizes:
                key = (fmt, kind, mb)
                row: dict[str, Any] = {
                    "format": fmt, "input": kind, "mb": mb, "seconds": best[key],
                    "seconds_per_mb": best[key] / (length[key] / MB)}
                if kind == "normal" and REFERENCE in chosen:
                    row["hermes_ratio"] = (
                        1.0 if fmt == REFERENCE else statistics.median(paired[(fmt, mb)]))
                rows.append(row)
    return rows


def verdicts(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per format and input: slowest over fastest time per MB, and whether it is flat."""
    groups: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        groups.setdefault((row["format"], row["input"]), []).append(row["seconds_per_mb"])
    result = []
    for (fmt, kind), per_mb in groups.items():
        ratio = max(per_mb) / min(per_mb) if min(per_mb) > 0 else float("inf")
        result.append({"format": fmt, "input": kind, "ratio": ratio,
                       "passed": ratio <= FLAT_WITHIN})
    return result


def hermes_verdicts(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per format: its normal time per MB over Hermes's (the paired ratio of :func:`run`),
    the largest over the sizes, and whether it is within :data:`HERMES_WITHIN`. Empty
    without Hermes."""
    ratios: dict[str, float] = {}
    for row in rows:
        if row["input"] == "normal" and "hermes_ratio" in row:
            ratios[row["format"]] = max(row["hermes_ratio"], ratios.get(row["format"], 0.0))
    return [{"format": fmt, "ratio": ratio, "passed": ratio <= HERMES_WITHIN}
            for fmt, ratio in ratios.items()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                        help="sizes in MB, comma-separated (default 1,2,5,10)")
    parser.add_argument("--formats", default="",
                        help="formats, comma-separated (default all; Hermes is always timed)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (default 3)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    formats = [f for f in args.formats.split(",") if f] or None
    if formats is not None and REFERENCE not in formats:
        formats = [REFERENCE, *formats]
    rows = run(sizes, formats, args.rounds)
    print(f"{'format':14} {'input':8} " + " ".join(f"{mb:>7} MB" for mb in sizes) + "   s/MB")
    by_key: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        by_key.setdefault((row["format"], row["input"]), []).append(row)
    judged = {(v["format"], v["input"]): v for v in verdicts(rows)}
    for (fmt, kind), group in by_key.items():
        cells = " ".join(f"{r['seconds_per_mb']:10.3f}" for r in group)
        verdict = judged[(fmt, kind)]
        mark = "PASS" if verdict["passed"] else "FAIL"
        print(f"{fmt:14} {kind:8} {cells}   {mark} ({verdict['ratio']:.2f}x)")
    compared = hermes_verdicts(rows)
    print("\nnormal time per MB over Hermes's, largest over the sizes"
          f" (target <= {HERMES_WITHIN}x):")
    for verdict in compared:
        mark = "PASS" if verdict["passed"] else "FAIL"
        print(f"  {verdict['format']:16} {verdict['ratio']:5.2f}x {mark}")
    failed = [v for v in judged.values() if not v["passed"]]
    slow = [v["format"] for v in compared if not v["passed"]]
    print(f"\ntime per MB flat within {FLAT_WITHIN}x from {min(sizes)} MB to {max(sizes)} MB:",
          "PASS" if not failed else f"FAIL ({len(failed)} of {len(judged)})")
    print(f"normal time per MB within {HERMES_WITHIN}x of Hermes's:",
          "PASS" if not slow else f"FAIL ({len(slow)} of {len(compared)}: {', '.join(slow)})")
    return 1 if failed or slow else 0


if __name__ == "__main__":
    sys.exit(main())
