"""The audit table: every wire format on one page, as a reviewer compares them.

A reviewer of a new spec, or of a change to one, wants to see it beside the others: where
the calls are, which fields make the name, arguments and id, what runs on the server, what
is ignored or refused, when a reply counts as truncated, how it is sniffed, and what a
dialect changes in its base. :func:`formats_markdown` renders that from the loaded specs
(``toolwire specs table``); ``docs/formats.md`` is its output for the bundled specs, and a
test fails when the two differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from .._registry.registry import Registry
from .._spec import CallEntry, Entry, WireSpec

__all__ = ["COLUMNS", "format_row", "formats_markdown", "formats_table"]

COLUMNS: Final = (
    "format",
    "title",
    "calls found at",
    "call fields: name / arguments / id",
    "server-side",
    "ignored",
    "refused",
    "unknown types",
    "truncated when",
    "sniff (priority)",
    "stream",
    "extends",
)

_LISTS: Final = ("calls", "server_side", "ignore", "refuse")
_INHERITED: Final = ("items", "truncated", "finish_reason", "unknown_items")
_STREAM_OPS: Final = ("init", "set", "append", "open", "update", "close", "extend", "end")

GENERATE_COMMAND: Final = "toolwire specs table --bundled > docs/formats.md"


def _code(text: str) -> str:
    """A Markdown code span, fenced longer than any backtick run inside (JMESPath literals)."""
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(run) for run in re.findall("`+", text)) + 1)
    return f"{fence} {text} {fence}"


def _cell(text: str) -> str:
    """A table cell: one line, its pipes escaped (JMESPath's ``||`` included)."""
    return " ".join(text.split()).replace("|", "\\|") or "—"


def _typed(entry: Entry) -> str:
    shown = _code(entry.type)
    return f"{shown} when {_code(entry.when.source)}" if entry.when is not None else shown


def _types(spec: WireSpec, kind: str) -> str:
    entries = [e for e in spec.entries if e.kind == kind]
    return ", ".join(_typed(e) for e in entries)


def _sources(spec: WireSpec) -> str:
    lines: list[str] = []
    for source in spec.sources:
        select = _code(source.select.source) + (" (one object)" if source.single else "")
        how, value, default = source.typing
        if how == "type_field":
            typed = f"typed by {_code(value)}"
            if default is not None:
                typed += f", default {_code(default)}"
        elif how == "type_by_key":
            typed = "typed by the first key present"
        else:
            typed = f"all {_code(value)}"
        lines.append(f"{select}: {typed}")
        for nested in source.nested:
            lines.append(f"↳ {_code(nested.select.source)} of items where"
                         f" {_code(nested.when.source)}")
    return "<br>".join(lines)


def _call_fields(spec: WireSpec) -> str:
    lines: list[str] = []
    for entry in spec.entries:
        if isinstance(entry, CallEntry):
            id_text = _code(entry.id.source) if entry.id is not None else "none"
            lines.append(
                f"{_typed(entry)}: {_code(entry.name.source)} / "
                f"{_code(entry.arguments.source)} / {id_text}"
            )
    return "<br>".join(lines)


def _sniff(spec: WireSpec, specs: Mapping[str, WireSpec]) -> str:
    if spec.sniff is not None:
        return f"{_code(spec.sniff.source)} ({spec.sniff_priority})"
    base = _sniffing_base(spec, specs)
    return f"none: sniffs as {_code(base)}" if base else "never sniffed"


def _sniffing_base(spec: WireSpec, specs: Mapping[str, WireSpec]) -> str | None:
    seen: set[str] = set()
    current: WireSpec | None = spec
    while current is not None and current.sniff is None and current.format not in seen:
        seen.add(current.format)
        base = current.extends
        current = specs.get(base) if base is not None else None
    return current.format if current is not None and current.sniff is not None else None


def _entry_keys(data: Mapping[str, Any]) -> dict[tuple[str, str, Any], Any]:
    keys: dict[tuple[str, str, Any], Any] = {}
    for kind in _LISTS:
        for entry in data.get(kind) or ():
            keys[(kind, entry["type"], entry.get("when"))] = entry
    return keys


def _difference(spec: WireSpec, base: WireSpec) -> list[str]:
    """What a derived spec changes in its base, as short phrases."""
    declared, base_declared = spec.declared(), base.declared()
    changed = [key for key in _INHERITED if declared.get(key) != base_declared.get(key)]
    mine, theirs = _entry_keys(declared), _entry_keys(base_declared)
    for key in mine:
        kind, item_type, _ = key
        if key not in theirs:
            changed.append(f"+{kind} {_code(item_type)}")
        elif mine[key] != theirs[key]:
            changed.append(f"~{kind} {_code(item_type)}")
    changed += [f"-{k[0]} {_code(k[1])}" for k in theirs if k not in mine]
    mine_rules = {r["name"]: r for r in (spec.stream_part or {}).get("rules") or ()}
    base_rules = {r["name"]: r for r in (base.stream_part or {}).get("rules") or ()}
    for name, rule in mine_rules.items():
        if name not in base_rules:
            changed.append(f"+stream rule {_code(name)}")
        elif rule != base_rules[name]:
            changed.append(f"~stream rule {_code(name)}")
    return changed


def _extends(spec: WireSpec, specs: Mapping[str, WireSpec]) -> str:
    base_name = spec.extends
    if base_name is None:
        return ""
    base = specs.get(base_name)
    if base is None:
        return _code(base_name)
    changed = _difference(spec, base)
    return f"{_code(base_name)}; changes: {', '.join(changed) if changed else 'none'}"


def _stream(spec: WireSpec) -> str:
    """The stream part in one cell: framing, ready policy, end signal, rules as name(op)."""
    stream = spec.stream_part
    if stream is None:
        return "not streamed"
    rules = ", ".join(
        f"{rule['name']}({next(op for op in _STREAM_OPS if op in rule)})"
        for rule in stream.get("rules") or ()
    )
    ends = [f"complete {_code(stream['complete'])}"] if "complete" in stream else []
    if any("end" in rule for rule in stream.get("rules") or ()):
        ends.append("an end rule")
    parts = [f"{stream['framing']}, ready {_code(stream['ready'])}"]
    if "sentinel" in stream:
        parts.append(f"sentinel {_code(stream['sentinel'])}")
    if stream.get("sentinel_completes") is True:
        ends.append("the sentinel")
    parts.append(f"ends on {' or '.join(ends) or 'nothing'}")
    if "sniff" in stream:
        parts.append(f"first event {_code(stream['sniff']['when'])}")
    if stream.get("refuse"):
        parts.append(f"{len(stream['refuse'])} refused feature(s)")
    return "; ".join(parts) + f"<br>rules: {rules}"


def format_row(spec: WireSpec, specs: Mapping[str, WireSpec]) -> tuple[str, ...]:
    """One format's cells, in :data:`COLUMNS` order (unescaped Markdown)."""
    return (
        _code(spec.format),
        spec.title,
        _sources(spec),
        _call_fields(spec),
        _types(spec, "server_side"),
        _types(spec, "ignore"),
        _types(spec, "refuse"),
        spec.unknown_items,
        _code(spec.truncated.source) if spec.truncated is not None else "never",
        _sniff(spec, specs),
        _stream(spec),
        _extends(spec, specs),
    )


def formats_table(specs: Mapping[str, WireSpec]) -> str:
    """The Markdown table of ``specs``, one row per format, sorted by name."""
    rows: Iterable[tuple[str, ...]] = (format_row(specs[name], specs) for name in sorted(specs))
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def formats_markdown(registry: Registry) -> str:
    """The whole ``docs/formats.md`` page for ``registry``'s wire formats."""
    return f"""# Wire formats

<!-- Generated from specs/wire/*.yaml by `{GENERATE_COMMAND}`
     (or `python tools/gen_formats_doc.py`). Do not edit by hand: a test compares them. -->

Every wire format toolwire reads, one row each, as its spec defines it
(specs/README.md is the reference for each column's meaning):

- **calls found at**: each source of items (`select`, and how its items are typed), in
  response order; ↳ marks items nested inside items.
- **call fields**: per call type, the expressions for the tool's name, its arguments and the
  id the tool result must echo.
- **server-side / ignored / refused**: item types the provider ran itself, item types that are
  not calls, and client actions toolwire refuses to map (`UnmappedCall`).
- **unknown types**: what an item of an unlisted type does (`refuse`: fail closed; `report`).
- **sniff**: the predicate `sniff_format` tries, highest priority first. A spec without one is
  never sniffed; a dialect that `extends` another and shares its shape sniffs as its base (a
  DeepSeek reply sniffs as `openai`): read it with its own format name to get its differences.
- **stream**: how the format's stream is accumulated (specs/README.md §9): framing, when a
  call is handed out (`ready`), what ends the stream, and each rule as name(operation).
- **extends**: the base, and what the dialect changes in it (+ added, ~ replaced, - removed
  entries; changed keys by name).

{formats_table(registry.specs())}"""
