"""Write the fuzzers' seed corpora and token dictionaries from the conformance suite.

Seeds are generated, never committed: every response of ``specs/conformance`` (and the
bundled examples) as compact JSON for the reply harnesses, every spec text for the loader
harness, every model text for the text harness. Beside each corpus, a libFuzzer
dictionary of the tokens that matter (JSON punctuation, the field names and item types
the specs name, YAML and JMESPath syntax, the text formats' tags), so byte mutations
reach the interesting shapes quickly.

    python tools/fuzz/make_corpus.py OUT_DIR   # OUT_DIR/<harness>/ and OUT_DIR/<harness>.dict
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import _common

SUITE = _common.ROOT / "specs" / "conformance"
SPECS = _common.ROOT / "specs"

JSON_TOKENS = [
    "{", "}", "[", "]", ":", ",", '"', "null", "true", "false", "0", "-0", "1e400", "-1e400",
    "1.5", "9007199254740993", "NaN", "Infinity", '"\\ud800"', '"\\u0000"', '"\\udc00x"',
    '""', "{}", "[]", '"{}"', '"[1]"', '"{\\"a\\":1}"', '"{\\"a\\":', "\xef\xbb\xbf",
]
YAML_TOKENS = [
    ": ", "- ", "\n", "  ", "\n  - ", "{", "}", "[", "]", "&a ", "*a", "!!str ", "---\n",
    "...\n", '"', "'", "|\n", ">-\n", "# ", "yes", "no", "2024-01-01", "1:20", ".nan", "~",
    "? ", "x-note: ", "null", "true",
]
JMESPATH_TOKENS = [
    "@", "&", "|", "||", "&&", "!", "==", "!=", "<", "<=", ">", ">=", "[*]", "[]", "[?",
    "[0]", "[-1]", "[::-1]", ".*", "`null`", "`true`", "`[]`", "`{}`", "'a'", "\"a\"",
    "{a: b}", "[a, b]", "(", ")", ",",
]
FUNCTIONS = [
    "abs", "avg", "ceil", "contains", "ends_with", "floor", "join", "keys", "length", "map",
    "max", "max_by", "merge", "min", "min_by", "not_null", "reverse", "sort", "sort_by",
    "starts_with", "sum", "to_array", "to_number", "to_string", "type", "values",
]
SPEC_KEYS = [
    "spec_version", "format", "title", "doc_ref", "description", "extends", "sniff", "when",
    "priority", "items", "select", "single", "type_field", "type_by_key", "type_const",
    "type_default", "nested", "truncated", "finish_reason", "unknown_items", "refuse",
    "report", "calls", "server_side", "ignore", "type", "name", "arguments", "id", "status",
    "reason", "note", "kind", "text",
]


def _cases() -> Iterator[tuple[Path, dict[str, Any]]]:
    for path in sorted(SUITE.rglob("*.json")):
        yield path, json.loads(path.read_text(encoding="utf-8"))


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield from node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            yield node


def _dict_line(token: str | bytes) -> str:
    raw = token.encode("utf-8") if isinstance(token, str) else token
    body = "".join(
        chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\x{b:02x}" for b in raw
    )
    return f'"{body}"'


def _write(folder: Path, seeds: Iterable[bytes], tokens: Iterable[str]) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for seed in dict.fromkeys(seeds):
        name = hashlib.sha1(seed).hexdigest()
        (folder / name).write_bytes(seed)
        count += 1
    lines = sorted({_dict_line(t) for t in tokens if t and len(t.encode("utf-8")) <= 64})
    folder.with_suffix(".dict").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count


def responses() -> Iterator[tuple[str | None, Any]]:
    """(format or None, response) for every wire response in the suite and the examples."""
    for path, case in _cases():
        for test in case.get("tests", []):
            if "response" in test:
                fmt = case.get("format") or test.get("expect", {}).get("sniff")
                yield (fmt if "interpreter" not in path.parts else None), test["response"]
    for path in sorted((SPECS / "examples").glob("*.json")):
        yield path.stem, json.loads(path.read_text(encoding="utf-8"))


def spec_texts() -> Iterator[str]:
    """Every wire spec, spec-validation text and interpreter spec (as YAML and as JSON)."""
    import yaml

    for path in sorted((SPECS / "wire").glob("*.yaml")):
        yield path.read_text(encoding="utf-8")
    for _, case in _cases():
        if "spec_text" in case:
            yield case["spec_text"]
        if isinstance(case.get("spec"), dict):
            yield yaml.safe_dump(case["spec"], sort_keys=False, allow_unicode=True)
            yield json.dumps(case["spec"], indent=1)


def texts() -> Iterator[tuple[dict[str, Any], str, str]]:
    """(params, format, text) of every text conformance test."""
    for path, case in _cases():
        if "text" not in path.relative_to(SUITE).parts[:1]:
            continue
        for test in case.get("tests", []):
            if isinstance(test.get("text"), str):
                fmt = case.get("format") or path.parent.name
                yield test.get("params") or {}, fmt, test["text"]


# Schemas a tool check must survive without retrieving, looping or hanging.
HOSTILE_SCHEMAS: list[dict[str, Any]] = [
    {"$ref": "#"},
    {"type": "object", "properties": {"x": {"$ref": "file:///etc/hostname"}}},
    {"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}},
    {"type": "object", "properties": {"child": {"$ref": "#"}}, "additionalProperties": False},
    {"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"anyOf": [{"$ref": "#"}]}}},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^([A-Za-z0-9]+\\s?)*$"}}},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(\\w+\\s?)*\\1!$"}}},
    {"type": "object", "patternProperties": {"^([a-z]+_?)*$": {"type": "integer"}}},
    {"type": "object", "properties": {"d": {"type": "string", "format": "date-time"},
                                      "e": {"type": "string", "format": "email"}}},
]
TOOL_TOKENS = ['"$ref"', '"#"', '"#/$defs/', '"$defs"', '"$id"', '"$anchor"', '"pattern"',
               '"patternProperties"', '"format"', '"date-time"', '"ipv6"', '"allOf"', '"anyOf"',
               '"not"', '"if"', '"additionalProperties"', '"required"', '"properties"',
               '"type"', '"object"', '"string"', '"file:///"', '"http://"', "(", ")*", "\\1"]


def tool_seeds(choices: list[str], schemas_choice: str) -> Iterator[bytes]:
    """(selector + body) for every tools conformance test, and hostile schemas."""
    import toolwire

    for path, case in _cases():
        if "tools" not in path.relative_to(SUITE).parts[:1]:
            continue
        fmt = case.get("format")
        for test in case.get("tests", []):
            try:
                calls = [c.arguments for c in toolwire.extract(fmt, test["response"])]
            except toolwire.errors.ToolwireError:
                calls = []  # a seed without arguments is still a seed
            if fmt in choices:
                body = {"tools": test["tools"], "arguments": calls}
                yield bytes([choices.index(fmt)]) + _compact(body)
    long_text = "a" * 40 + "!"
    for schema in HOSTILE_SCHEMAS:
        body = {"schemas": {"f": schema}, "arguments": [
            {"s": long_text, "x": 1, "child": {"child": {}}, "a" * 30 + "!": 1,
             "d": "2024-02-30T00:00:00Z", "e": "x@"}]}
        yield bytes([choices.index(schemas_choice)]) + _compact(body)


def streams() -> Iterator[tuple[str | None, bytes]]:
    """(format or None, raw bytes) of every stream case: its SSE text, its events as SSE
    and as JSON lines."""
    for _, case in _cases():
        if case.get("kind") != "stream":
            continue
        for test in case.get("tests", []):
            if isinstance(test.get("sse"), str):
                yield case.get("format"), test["sse"].encode("utf-8")
            events = [e for e in test.get("events") or () if isinstance(e, dict)]
            if events:
                yield case.get("format"), b"".join(b"data: " + _compact(e) + b"\n\n"
                                                   for e in events)
                yield case.get("format"), b"".join(_compact(e) + b"\n" for e in events)


def main(out: Path) -> None:
    import fuzz_stream_framing
    import fuzz_text
    import fuzz_tools

    import toolwire

    registry = toolwire.Registry.default()
    formats = registry.formats()
    all_responses = list(responses())
    words = {s for _, r in all_responses for s in _strings(r) if len(s) <= 40}
    words |= {e.type for spec in registry.specs().values() for e in spec.entries}

    read_seeds = []
    for fmt, response in all_responses:
        for name in {fmt, *formats} if fmt is None else {fmt}:
            if name in formats:
                read_seeds.append(bytes([formats.index(name)]) + _compact(response))
    counts = {"read": _write(out / "read", read_seeds, JSON_TOKENS + sorted(words))}
    counts["extract_sniff"] = _write(
        out / "extract_sniff", (_compact(r) for _, r in all_responses), JSON_TOKENS + sorted(words)
    )
    spec_tokens = YAML_TOKENS + JMESPATH_TOKENS + FUNCTIONS + SPEC_KEYS + sorted(words)
    counts["spec_loader"] = _write(
        out / "spec_loader", (t.encode("utf-8") for t in spec_texts()), spec_tokens
    )
    choices = fuzz_text.text_choices(toolwire)
    text_seeds = []
    for params, fmt, text in texts():
        if (fmt, params) in choices:
            text_seeds.append(bytes([choices.index((fmt, params))]) + text.encode("utf-8"))
    text_tokens = ["<tool_call>", "</tool_call>", '{"name": "f", "arguments": {}}', '"name"',
                   '"arguments"', "<", ">", "</", "\n", "```", "```json\n", *JSON_TOKENS]
    counts["text"] = _write(out / "text", text_seeds, text_tokens)
    seeds = tool_seeds(fuzz_tools.tool_choices(toolwire), fuzz_tools.FROM_SCHEMAS)
    counts["tools"] = _write(out / "tools", seeds, JSON_TOKENS + TOOL_TOKENS + sorted(words))
    stream_formats = fuzz_stream_framing.stream_formats(toolwire)
    stream_seeds = [bytes([stream_formats.index(fmt), 7]) + data
                    for fmt, data in streams() if fmt in stream_formats]
    stream_tokens = ["data: ", "data:", "event: ", ": keep-alive", "\n\n", "\r\n", "\r",
                     "[DONE]", "id: 1", "retry: 10", "\ufeff", "\xff", *JSON_TOKENS]
    counts["stream_framing"] = _write(out / "stream_framing", stream_seeds,
                                      stream_tokens + sorted(words))
    for name, count in counts.items():
        print(f"{name}: {count} seeds", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: make_corpus.py OUT_DIR")
    main(Path(sys.argv[1]))
