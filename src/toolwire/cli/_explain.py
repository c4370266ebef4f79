"""``toolwire explain FORMAT [FILE]``: the trace of reading one reply, for a spec author.

Item by item it shows which entry matched (or why none did), what each selector returned,
the sniff verdict and what ``read`` finally said (:mod:`toolwire._registry.explain`). Readable
text by default, ``--json`` for machines. The specs are those ``extract`` uses: the
bundled ones plus ``TOOLWIRE_SPEC_PATH``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .._registry.explain import explain
from ._choice import add_options as add_choice
from ._choice import checked_choice
from ._common import emit, read_text
from ._names import wire_format
from ._replies import parse_reply

if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

    from .._registry.registry import Registry

__all__ = ["add_parser", "render", "run"]


def add_parser(commands: Any) -> None:
    """The ``explain`` command."""
    parser = commands.add_parser(
        "explain", help="trace how a reply is read: entries matched, selectors' values",
        description="Show, item by item, which spec entry matched a reply's items (or why"
        " none did), what each selector returned, and the sniff verdict.")
    parser.add_argument("format", metavar="FORMAT", help="the wire format to read it as")
    parser.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    parser.add_argument("--json", action="store_true", help="print the trace as JSON")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--strict", action="store_true", help="refuse unknown item types")
    group.add_argument("--lenient", action="store_true", help="report unknown item types")
    add_choice(parser)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 120 else f"{text[:117]}..."


def _selector(name: str, found: dict[str, Any]) -> str:
    got = f"error: {found['error']}" if "error" in found else _shown(found.get("value"))
    extra = ""
    if "decoded" in found:
        extra = "  (decodes)" if found["decoded"] else f"  (undecodable: {found['error_code']})"
    if "note" in found:
        extra += f"  -- {found['note']}"
    return f"      {name}: {found['expression']} -> {got}{extra}"


def render(trace: dict[str, Any]) -> str:
    """The trace as text, one fact a line."""
    lines = [f"format {trace['format']}  (spec {trace['spec']})"]
    sniff = trace.get("sniff")
    if sniff is not None:
        own = sniff["own_predicate"]
        own_text = ("none of its own (sniffs as its base)" if own is None
                    else f"{own['expression']} -> {_shown(own.get('value', own.get('error')))}")
        lines.append(f"sniff: its predicate {own_text}; the reply sniffs as"
                     f" {sniff['sniffs_as'] or 'nothing'}"
                     + (f" (holding: {', '.join(sniff['holding'])})" if sniff["holding"] else ""))
    if "choice" in trace:
        count = trace["choice"]["count"]
        lines.append(f"choice {trace['choice']['read']}"
                     + ("" if count is None else f" of {count}")
                     + f"; unknown items: {trace['unknown_items']}")
    for source in trace.get("sources", []):
        lines.append(f"source {source['select']} ({source['typed_by']}): {source['found']}")
        for item in source["items"]:
            lines.append(f"  {item['location']}  type {_shown(item['type'])}")
            for tried in item.get("entries_tried", []):
                when = tried["when"]
                cond = "no when" if when is None else (
                    f"when {when['expression']} -> {_shown(when.get('value', when.get('error')))}")
                lines.append(f"    {tried['entry']}: {cond}: {'holds' if tried['holds'] else 'no'}")
            if "why_no_entry" in item:
                lines.append(f"    no entry: {item['why_no_entry']}")
            for name, found in item.get("selectors", {}).items():
                lines.append(_selector(name, found))
            lines.append(f"    => {item['outcome']}")
    for key in ("truncated", "finish_reason"):
        if trace.get(key) is not None:
            found = trace[key]
            lines.append(f"{key}: {found['expression']} ->"
                         f" {_shown(found.get('value', found.get('error')))}")
    verdict = trace["verdict"]
    if "error" in verdict:
        lines.append(f"read: {verdict['error']}: {verdict['message']}")
    else:
        lines.append(f"read: {len(verdict['calls'])} call(s) {', '.join(verdict['calls'])}".rstrip()
                     + f"; {verdict['server_calls']} server call(s); unknown types"
                     f" {verdict['unknown_types'] or 'none'}; {verdict['skipped']} skipped;"
                     f" fates {verdict['fates'] or 'none'}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Explain how ``args.file`` reads as ``args.format``."""

    fmt = wire_format(registry, args.format)
    origin = "standard input" if args.file in (None, "-") else str(args.file)
    data = parse_reply(read_text(args.file), origin)
    strict = True if args.strict else (False if args.lenient else None)
    choice = 0
    if args.choice is not None:
        choice = checked_choice(registry, fmt, data, args.choice)
    trace = explain(registry, fmt, data, strict=strict, choice=choice)
    if args.json:
        emit(trace, out)
    else:
        out.write(render(trace))
    return 0
