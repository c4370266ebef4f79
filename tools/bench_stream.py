"""Streaming speed: toolwire's Accumulator beside the SDKs' own accumulators.

    python tools/bench_stream.py [--quick]      (also run by tools/bench.py)

Rows, each a median over rounds in which the contenders are timed back to back:

- a Chat Completions stream of 2,000 chunks carrying 4 parallel calls: ``Accumulator``
  (feed every chunk dict, then ``reply()``) against the OpenAI SDK's
  ``ChatCompletionStreamState`` (``handle_chunk`` on the SDK's chunk objects, built before the
  clock starts, then ``get_final_completion()``) — target: toolwire at least as fast;
- an Anthropic Messages stream of the same size: ``Accumulator`` against the Anthropic SDK's
  ``accumulate_event`` on its event objects — target: at least as fast;
- time per chunk at 100, 1,000, 10,000 and 100,000 chunks (one call whose arguments arrive in
  that many pieces), and the same for a text answer (``delta.content`` in that many pieces,
  joined into ``Reply.text``), for Gemini parts whose arguments do not decode (each held until
  the end) and for a Chat stream of one call per id whose arguments find it by id alone:
  target slowest/fastest <= 1.3 (no quadratic string building, no re-scan per event);
- the same 2,000-chunk Chat stream fed as the SDK's ``ChatCompletionChunk`` objects against
  feeding their dicts: the cost of normalising SDK event objects (informative);
- ``feed_bytes`` framing: the SSE framer on the stream's bytes in 4 KB chunks against the naive
  ``str.split`` framing a hand-rolled client writes (split lines, keep ``data: `` payloads) —
  target: within 3x. The whole ``feed_bytes`` path (framing, JSON, accumulation) is shown too.
"""

from __future__ import annotations

import gc
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
from toolwire._stream.framing import SseFramer  # noqa: E402

TARGET_SDK = 1.0
TARGET_FLAT = 1.3
TARGET_SPLIT = 3.0


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """One Chat Completions chunk of choice 0, as the API streams it."""
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4.1", "choices": [{"index": 0, "delta": delta,
                                              "logprobs": None, "finish_reason": finish}]}


def chat_chunks(n: int, calls: int = 4) -> list[dict[str, Any]]:
    """``n`` chunks: the calls open in turn, then argument pieces round-robin, then the finish."""
    out = [chunk({"role": "assistant", "content": None})]
    for i in range(calls):
        out.append(chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                          "function": {"name": f"tool_{i}",
                                                       "arguments": '{"text": "'}}]}))
    pieces = max(n - len(out) - calls - 1, 0)
    for k in range(pieces):
        out.append(chunk({"tool_calls": [{"index": k % calls,
                                          "function": {"arguments": "ab "}}]}))
    for i in range(calls):
        out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": '"}'}}]}))
    out.append(chunk({}, "tool_calls"))
    return out


def chat_text_chunks(n: int) -> list[dict[str, Any]]:
    """``n`` chunks of a text answer: the role, ``delta.content`` pieces, the finish."""
    pieces = [chunk({"content": "ab "}) for _ in range(max(n - 2, 0))]
    return [chunk({"role": "assistant", "content": ""}), *pieces, chunk({}, "stop")]


def anthropic_events(n: int, calls: int = 4) -> list[dict[str, Any]]:
    """``n`` events: ``calls`` tool_use blocks one after another, their input in pieces."""
    out: list[dict[str, Any]] = [{"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}}]
    per = max((n - 3) // calls - 3, 1)
    for i in range(calls):
        out.append({"type": "content_block_start", "index": i, "content_block": {
            "type": "tool_use", "id": f"toolu_{i}", "name": f"tool_{i}", "input": {}}})
        out.append({"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": '{"text": "'}})
        for _ in range(per):
            out.append({"type": "content_block_delta", "index": i,
                        "delta": {"type": "input_json_delta", "partial_json": "ab "}})
        out.append({"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": '"}'}})
        out.append({"type": "content_block_stop", "index": i})
    out.append({"type": "message_delta", "delta": {"stop_reason": "tool_use",
                "stop_sequence": None}, "usage": {"output_tokens": 500}})
    out.append({"type": "message_stop"})
    return out


def gemini_undecodable_chunks(n: int) -> list[dict[str, Any]]:
    """``n`` chunks, each one part whose ``args`` do not decode (held until the finish)."""
    part = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": "x"}}]}}]}
    return [part] * (n - 1) + [{"candidates": [{"content": {"role": "model", "parts": []},
                                                "finishReason": "STOP"}]}]


def chat_by_id_chunks(n: int) -> list[dict[str, Any]]:
    """``n`` chunks: calls opened by index and id, their arguments sent by id alone."""
    calls = max((n - 1) // 2, 1)
    out = [chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                  "function": {"name": "f", "arguments": "{"}}]})
           for i in range(calls)]
    out += [chunk({"tool_calls": [{"id": f"call_{i}", "function": {"arguments": "}"}}]})
            for i in range(calls)]
    return [*out, chunk({}, "tool_calls")]


def accumulate(fmt: str, events: list[dict[str, Any]]) -> toolwire.Reply:
    acc = toolwire.Accumulator(fmt)
    feed = acc.feed
    for event in events:
        feed(event)
    return acc.reply()


def timed(contenders: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Seconds per run of each contender, one sample per round each, in rotating order."""
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()
    names = list(contenders)
    gc.collect()
    for index in range(rounds):
        for name in names[index % len(names):] + names[:index % len(names)]:
            start = time.perf_counter()
            contenders[name]()
            samples[name].append(time.perf_counter() - start)
    return samples


def ratio(samples: dict[str, list[float]], slow: str, fast: str) -> float:
    return statistics.median(a / b for a, b in zip(samples[slow], samples[fast], strict=True))


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Every row: name, figures (ms / us), ratio, target, passed (None: informative)."""
    rounds = 7 if quick else 25
    rows: list[dict[str, Any]] = []
    chunks = chat_chunks(2000)
    assert len(accumulate("openai", chunks).calls) == 4
    try:
        from openai.lib.streaming.chat import ChatCompletionStreamState
        from openai.types.chat import ChatCompletionChunk
    except ImportError:
        rows.append({"name": "chat 2,000 chunks vs ChatCompletionStreamState",
                     "note": "openai not installed (pip install -e '.[bench]')"})
    else:
        objects = [ChatCompletionChunk.model_validate(c) for c in chunks]

        def sdk_chat() -> object:
            state: Any = ChatCompletionStreamState()
            for obj in objects:
                state.handle_chunk(obj)
            return state.get_final_completion()

        assert len(sdk_chat().choices[0].message.tool_calls) == 4
        s = timed({"toolwire": lambda: accumulate("openai", chunks), "sdk": sdk_chat}, rounds)
        r = ratio(s, "sdk", "toolwire")
        rows.append({"name": "chat 2,000 chunks, 4 calls: SDK ChatCompletionStreamState / toolwire",
                     "toolwire_ms": statistics.median(s["toolwire"]) * 1e3,
                     "other_ms": statistics.median(s["sdk"]) * 1e3, "ratio": r,
                     "target": f">= {TARGET_SDK}", "passed": r >= TARGET_SDK})
    events = anthropic_events(2000)
    assert len(accumulate("anthropic", events).calls) == 4
    try:
        from anthropic.lib.streaming._messages import accumulate_event
        from anthropic.types import RawMessageStreamEvent
        from pydantic import TypeAdapter
    except ImportError:
        rows.append({"name": "anthropic 2,000 events vs accumulate_event",
                     "note": "anthropic not installed (pip install -e '.[bench]')"})
    else:
        adapter: Any = TypeAdapter(RawMessageStreamEvent)
        typed = [adapter.validate_python(e) for e in events]

        def sdk_anthropic() -> object:
            snapshot: Any = None
            bufs: dict[int, bytes] = {}
            for event in typed:
                snapshot = accumulate_event(event=event, current_snapshot=snapshot,
                                            json_bufs=bufs)
            return snapshot

        assert len(sdk_anthropic().content) == 4
        s = timed({"toolwire": lambda: accumulate("anthropic", events),
                   "sdk": sdk_anthropic}, rounds)
        r = ratio(s, "sdk", "toolwire")
        rows.append({"name": "anthropic 2,000 events, 4 calls: SDK accumulate_event / toolwire",
                     "toolwire_ms": statistics.median(s["toolwire"]) * 1e3,
                     "other_ms": statistics.median(s["sdk"]) * 1e3, "ratio": r,
                     "target": f">= {TARGET_SDK}", "passed": r >= TARGET_SDK})
    rows.append(_flat("time per chunk, 100 -> 100,000 chunks (slowest / fastest)",
                      lambda n: chat_chunks(n, calls=1), quick))
    rows.append(_flat("text stream: time per chunk, 100 -> 100,000 chunks",
                      chat_text_chunks, quick))
    rows.append(_flat("held undecodable Gemini calls: time per chunk, 100 -> 100,000 chunks",
                      gemini_undecodable_chunks, quick, fmt="gemini"))
    rows.append(_flat("Chat calls found by id: time per chunk, 100 -> 100,000 chunks",
                      chat_by_id_chunks, quick))
    rows.append(_sdk_objects(chunks, rounds))
    data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode() + b"data: [DONE]\n\n"
    pieces = [data[i:i + 4096] for i in range(0, len(data), 4096)]

    def framer() -> object:
        f = SseFramer()
        return [e for p in pieces for e in f.feed(p)]

    def naive() -> object:
        text = b"".join(pieces).decode("utf-8")
        return [line[6:] for line in text.split("\n") if line.startswith("data: ")]

    def whole() -> object:
        acc = toolwire.Accumulator("openai")
        for p in pieces:
            acc.feed_bytes(p)
        return acc.reply()

    assert len(framer()) == len(naive())  # type: ignore[arg-type]
    s = timed({"framer": framer, "naive": naive, "whole": whole}, rounds * 2)
    r = ratio(s, "framer", "naive")
    mb = len(data) / 1e6
    rows.append({"name": "feed_bytes SSE framing / naive str.split framing",
                 "toolwire_ms": statistics.median(s["framer"]) * 1e3,
                 "other_ms": statistics.median(s["naive"]) * 1e3, "ratio": r,
                 "target": f"<= {TARGET_SPLIT}", "passed": r <= TARGET_SPLIT,
                 "whole_mb_s": mb / statistics.median(s["whole"]),
                 "framer_mb_s": mb / statistics.median(s["framer"])})
    return rows


def _flat(name: str, make: Callable[[int], list[dict[str, Any]]], quick: bool,
          fmt: str = "openai") -> dict[str, Any]:
    """Time per chunk of ``make(n)`` streams, n from 100 to 100,000: the flatness row.

    The cyclic garbage collector is paused while timing: its full passes cost in proportion
    to every live object of the process (100,000 input chunks among them), which is the
    interpreter's growth, not the accumulator's (tests/test_stream_hardening.py times the
    same way).
    """
    per_chunk: dict[int, float] = {}
    for n in (100, 1_000, 10_000, 100_000):
        stream = make(n)
        reps = max(3, 200_000 // n) if not quick else max(1, 50_000 // n)
        times = []
        for _ in range(3 if quick else 5):
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                for _ in range(reps):
                    accumulate(fmt, stream)
                times.append((time.perf_counter() - start) / reps / len(stream))
            finally:
                gc.enable()
        per_chunk[n] = min(times)
    flat = max(per_chunk.values()) / min(per_chunk.values())
    return {"name": name, "per_chunk_us": {n: t * 1e6 for n, t in per_chunk.items()},
            "ratio": flat, "target": f"<= {TARGET_FLAT}", "passed": flat <= TARGET_FLAT}


def _sdk_objects(chunks: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    """Feeding the SDK's chunk objects against feeding their dicts (informative)."""
    name = "chat 2,000 chunks as SDK ChatCompletionChunk objects / as dicts"
    try:
        from openai.types.chat import ChatCompletionChunk
    except ImportError:
        return {"name": name, "note": "openai not installed (pip install -e '.[bench]')"}
    objects = [ChatCompletionChunk.model_validate(c) for c in chunks]
    assert accumulate("openai", objects) == accumulate("openai", chunks)  # type: ignore[arg-type]
    s = timed({"dicts": lambda: accumulate("openai", chunks),
               "objects": lambda: accumulate("openai", objects)}, rounds)  # type: ignore[arg-type]
    return {"name": name, "toolwire_ms": statistics.median(s["objects"]) * 1e3,
            "other_ms": statistics.median(s["dicts"]) * 1e3,
            "ratio": ratio(s, "objects", "dicts"), "target": "informative", "passed": None}


def report(rows: list[dict[str, Any]]) -> list[tuple[str, str, bool]]:
    """Print the rows; return (target, figure, passed) for the judged ones."""
    judged = []
    for row in rows:
        if "note" in row:
            print(f"  {row['name']}: skipped, {row['note']}")
            continue
        if "per_chunk_us" in row:
            shown = ", ".join(f"{n:,}: {t:.2f} us" for n, t in row["per_chunk_us"].items())
            print(f"  {row['name']}: {shown}; {row['ratio']:.2f}x (target {row['target']})")
        else:
            extra = ""
            if "whole_mb_s" in row:
                extra = (f"; framer {row['framer_mb_s']:.0f} MB/s, whole feed_bytes path"
                         f" (framing + JSON + rules) {row['whole_mb_s']:.1f} MB/s")
            print(f"  {row['name']}: toolwire {row['toolwire_ms']:.2f} ms, other"
                  f" {row['other_ms']:.2f} ms, ratio {row['ratio']:.2f}x"
                  f" (target {row['target']}){extra}")
        if row["passed"] is not None:
            judged.append((row["name"], f"{row['ratio']:.2f}x", bool(row["passed"])))
    return judged


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    print("Streams (tools/bench_stream.py):")
    judged = report(run(quick))
    return 0 if all(ok for *_, ok in judged) else 1


if __name__ == "__main__":
    raise SystemExit(main())
