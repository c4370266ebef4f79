"""What toolwire caches lives and goes with what it was built from: a registry a service
builds per tenant or per request is freed once dropped, streams read with it included."""

from __future__ import annotations

import gc
from pathlib import Path

import toolwire
from toolwire._spec import WireSpec
from toolwire._stream import Accumulator

PROBE = """\
spec_version: 1
format: probe_fmt
extends: openai
title: Probe
doc_ref: https://example.invalid/probe
"""

EVENTS = [
    {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {
        "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                        "function": {"name": "f", "arguments": "{}"}}]}}]},
    {"id": "c", "object": "chat.completion.chunk",
     "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
]


def _specs_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, WireSpec))


def _streams_read_with_a_new_registry(folder: Path) -> None:
    registry = toolwire.Registry.from_paths(folder)
    for fmt in (None, "probe_fmt"):  # sniffed (every spec's sniff tried), then pinned
        accumulator = Accumulator(fmt, registry=registry)
        for event in EVENTS:
            accumulator.feed(event)
        assert [c.name for c in accumulator.reply().calls] == ["f"]


def test_streams_read_with_a_registry_keep_none_of_its_specs_once_it_is_dropped(
    tmp_path: Path,
) -> None:
    (tmp_path / "probe_fmt.yaml").write_text(PROBE, encoding="utf-8")
    _streams_read_with_a_new_registry(tmp_path)  # module caches filled once
    before = _specs_alive()
    for _ in range(3):
        _streams_read_with_a_new_registry(tmp_path)
    assert _specs_alive() == before
