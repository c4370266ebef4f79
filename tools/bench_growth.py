"""Growth: how much longer 4n takes than n, for every cost the suite holds to linear growth.

    python tools/bench_growth.py [--quick]      (also run by tools/bench.py)

The suite checks each of these growths in the test thread's CPU time, measured again before
it fails, so a busy machine cannot fail it (``tests/growth.py``); the figures are here. Each
row times one workload at n and at 4n back to back in every round (wall clock,
``time.perf_counter``, the collector held off); its figure is the median of the per-round
ratios, so a burst of load hits both sides of a round alike. Linear code gives about 4x,
quadratic about 16x; the target is 6x, tighter than the suite's 8x:

- streams: one SSE event or NDJSON line fed in 4 KB pieces, keep-alive comments without a
  blank line, blank bytes before the first event, Gemini parts held undecodable, fragments
  matched by id, a name sent in thousands of fragments;
- bounded regular expressions on text ``re`` takes tens of seconds on, directly, through a
  tool's ``pattern`` and ``additionalProperties``, and as a response template's open pattern;
- text formats read past a marker quoted in a payload, thousands of times;
- ``Reply.answer`` keyed by call, by id and by an equal call, on thousands of calls.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import toolwire  # noqa: E402
from toolwire import Registry, ToolCall, Tools  # noqa: E402
from toolwire import _boundedre as boundedre  # noqa: E402
from toolwire._text import read_text  # noqa: E402

MAX_GROWTH = 6.0
"""The target for 4n against n: linear gives about 4x, quadratic about 16x."""

Prepare = Callable[[int], Callable[[], object]]


def _chunks(data: bytes, size: int = 4096) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def _feeding(fmt: str, chunks: list[bytes]) -> Callable[[], object]:
    def run() -> None:
        acc = toolwire.Accumulator(fmt)
        for chunk in chunks:
            acc.feed_bytes(chunk)
    return run


def _feeding_dicts(fmt: str, chunks: list[dict[str, Any]]) -> Callable[[], object]:
    def run() -> None:
        acc = toolwire.Accumulator(fmt)
        for chunk in chunks:
            acc.feed(chunk)
        acc.reply(allow_incomplete=True)
    return run


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "id": "c1", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _sse_event(n: int) -> Callable[[], object]:
    event = _chat_chunk({"content": "x" * (n * 1024)})
    return _feeding("openai", _chunks(f"data: {json.dumps(event)}\n\n".encode()))


def _ndjson_line(n: int) -> Callable[[], object]:
    line = json.dumps({"model": "m", "message": {"role": "assistant", "content": "y" * n},
                       "done": False})
    return _feeding("ollama", _chunks(line.encode() + b"\n"))


def _gemini_undecodable(n: int) -> Callable[[], object]:
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": "x"}}]}}]} for _ in range(n)]
    chunks.append({"candidates": [{"content": {"role": "model", "parts": []},
                                   "finishReason": "STOP"}]})
    return _feeding_dicts("gemini", chunks)


def _calls_by_id(n: int) -> Callable[[], object]:
    chunks = [_chat_chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                           "function": {"name": "f", "arguments": "{"}}]})
              for i in range(n)]
    chunks += [_chat_chunk({"tool_calls": [{"id": f"call_{i}", "function": {"arguments": "}"}}]})
               for i in range(n)]
    return _feeding_dicts("openai", [*chunks, _chat_chunk({}, "tool_calls")])


def _name_in_fragments(n: int) -> Callable[[], object]:
    chunks = [_chat_chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                                           "function": {"name": "f", "arguments": ""}}]})]
    chunks += [_chat_chunk({"tool_calls": [{"index": 0, "function": {"name": "n"}}]})
               for _ in range(n)]
    return _feeding_dicts("openai", [*chunks, _chat_chunk({}, "tool_calls")])


NESTED = r"^([A-Za-z0-9]+\s?)*$"  # re: 36 s on 33 letters and a "!"


def _pattern_search(n: int) -> Callable[[], object]:
    pattern, text = boundedre.compile(NESTED), "a" * n + "!"
    return lambda: pattern.search(text)


def _open_pattern_search(n: int) -> Callable[[], object]:
    pattern = boundedre.compile(r"<tool_call>(\s*\w+)*:")  # re: 33 s on 9 words
    text = "<tool_call>" + " word" * n
    return lambda: pattern.search(text)


def _tool_pattern(n: int) -> Callable[[], object]:
    tools = Tools("openai", {"tools": [{"type": "function", "function": {"name": "f",
              "parameters": {"type": "object",
                             "properties": {"s": {"type": "string", "pattern": NESTED}}}}}]})
    fresh = itertools.count()  # new arguments every run: a repeated call is not checked again
    return lambda: [tools.check(ToolCall("f", {"s": "a" * n + str(next(fresh)) + "!"}))
                    for _ in range(3)]


def _left_over_name(n: int) -> Callable[[], object]:
    tools = Tools.from_schemas({"f": {"type": "object",
                                      "patternProperties": {r"^([a-z]+_?)*$": {}},
                                      "additionalProperties": False}})
    fresh = itertools.count()
    return lambda: [tools.check(ToolCall("f", {"a" * n + str(next(fresh)) + "!": 1}))
                    for _ in range(20)]


_TEMPLATE = Registry.from_response_template({
    "start_anchor": "<|assistant|>", "fields": {
        "content": {"content": "text"},
        "tool_calls": {"open_pattern": r"<tool_call>(\s*\w+)*:", "close": "</tool_call>",
                       "content": "json", "repeats": True}}}, name="tpl",
    base=Registry.bundled())


def _template_open_pattern(n: int) -> Callable[[], object]:
    text = "<tool_call>" + " word" * n
    return lambda: _TEMPLATE.extract_from_text("tpl", text)


def _quoted_marker(fmt: str, unit: str) -> Prepare:
    def prepare(n: int) -> Callable[[], object]:
        text = unit * n
        return lambda: read_text(fmt, text)
    return prepare


def _answering(key: str) -> Prepare:
    def prepare(n: int) -> Callable[[], object]:
        parts = [{"functionCall": {"name": "roll", "args": {"n": i}, "id": f"c{i}"}}
                 for i in range(n)]
        reply = toolwire.read("gemini", {"candidates": [{"content": {"parts": parts}}]})
        keys: list[Any] = (
            [c.id for c in reply.calls] if key == "id"
            else [ToolCall.from_dict(c.to_dict()) for c in reply.calls] if key == "equal call"
            else list(reply.calls))
        results = dict.fromkeys(keys, "ok")
        return lambda: reply.answer(results)
    return prepare


WORKLOADS: tuple[tuple[str, Prepare, int], ...] = (
    ("stream: one SSE event in 4 KB pieces (KB)", _sse_event, 1024),
    ("stream: keep-alive comments, no blank line",
     lambda n: _feeding("openai", [b": keep-alive\n"] * n), 10_000),
    ("stream: one NDJSON line in 4 KB pieces (bytes)", _ndjson_line, 2 * 1024 * 1024),
    ("stream: blank bytes before the first event",
     lambda n: _feeding("openai", _chunks(b"\r\n" * n)), 1024 * 1024),
    ("stream: Gemini parts held undecodable", _gemini_undecodable, 1000),
    ("stream: fragments matched by id (calls)", _calls_by_id, 2000),
    ("stream: a name in many fragments", _name_in_fragments, 4000),
    ("regex: nested repeat, letters", _pattern_search, 2000),
    ("regex: open pattern, words", _open_pattern_search, 500),
    ("tools: pattern on an argument (letters)", _tool_pattern, 2000),
    ("tools: additionalProperties on a name", _left_over_name, 5),
    ("template: open pattern, words", _template_open_pattern, 500),
    ("text: hermes, quoted marker (blocks)",
     _quoted_marker("hermes", '<tool_call>{"a": "</tool_call>'), 2000),
    ("text: mistral, quoted marker (blocks)",
     _quoted_marker("mistral", '[TOOL_CALLS]{"a": "[TOOL_CALLS]'), 2000),
    ("text: qwen3_coder, quoted marker (blocks)",
     _quoted_marker("qwen3_coder", "<tool_call><function=f><parameter=a>x</tool_call>"), 2000),
    ("answer: by call (calls)", _answering("call"), 2500),
    ("answer: by id (calls)", _answering("id"), 2500),
    ("answer: by an equal call (calls)", _answering("equal call"), 2500),
)


def _seconds(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def run(quick: bool = False) -> list[dict[str, Any]]:
    """One row per workload: n, the medians at n and 4n, and the median per-round ratio."""
    rounds = 5 if quick else 15
    rows = []
    for name, prepare, n in WORKLOADS:
        small, large = prepare(n), prepare(4 * n)
        small(), large()  # warm: caches, compiled patterns
        pairs = [(_seconds(small), _seconds(large)) for _ in range(rounds)]
        rows.append({"workload": name, "n": n,
                     "small": statistics.median(s for s, _ in pairs),
                     "large": statistics.median(large for _, large in pairs),
                     "ratio": statistics.median(large / max(s, 1e-9) for s, large in pairs)})
    return rows


def report(rows: list[dict[str, Any]]) -> list[tuple[str, str, str, bool]]:
    """Print the table; (target, workload, figure, passed) per row."""
    print(f"  {'workload':<48} {'n':>9} {'n (ms)':>9} {'4n (ms)':>9} {'4n / n':>7}")
    verdicts = []
    for row in rows:
        print(f"  {row['workload']:<48} {row['n']:>9,} {row['small'] * 1e3:9.2f}"
              f" {row['large'] * 1e3:9.2f} {row['ratio']:6.2f}x")
        verdicts.append((f"growth: 4n / n <= {MAX_GROWTH:g}x", row["workload"],
                         f"{row['ratio']:.2f}x", row["ratio"] <= MAX_GROWTH))
    return verdicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 15")
    args = parser.parse_args(argv)
    verdicts = report(run(args.quick))
    for target, workload, figure, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {target}  {workload}: {figure}")
    return 0 if all(ok for *_, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
