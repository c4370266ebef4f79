"""``toolwire extract`` and ``toolwire sniff``: a reply (or model text) in, JSON out.

Every option that does not apply to the input chosen is a usage error rather than
ignored: ``--example`` with a FILE, ``--format``/``--strict``/``--lenient``/``--jsonl``
with ``--text``, ``--param`` without it. Names are checked before any input is read.
"""

from __future__ import annotations

import sys

from .._speed import TYPE_CHECKING
from ..errors import MalformedResponse, ToolwireError, UnknownFormat
from ._common import UsageError, emit, emit_line, example_path, read_text
from ._replies import parse_reply, reply_lines

if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

    from .._registry.registry import Registry

__all__ = ["run_extract", "run_sniff"]


def _params(pairs: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--param takes NAME=VALUE, not {pair!r}")
        if key in params:
            raise UsageError(f"--param {key} is given twice")
        params[key] = value
    return params


def _origin(args: argparse.Namespace) -> str:
    if getattr(args, "example", None) is not None:
        return f"example {args.example}"
    return "standard input" if args.file in (None, "-") else str(args.file)


def _refuse_together(args: argparse.Namespace, first: str, others: tuple[str, ...]) -> None:
    for other in others:
        value = getattr(args, other.lstrip("-").replace("-", "_"), None)
        if value:
            raise UsageError(f"{other} does not go with {first}")


def _run_text(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    from ._names import text_format  # lazy: the name checks only with --text (they load typing)

    _refuse_together(args, "--text", ("--format", "--example", "--strict", "--lenient",
                                      "--jsonl", "--text-in-content", "--tools"))
    fmt = text_format(registry, args.text)
    params = _params(args.param)
    try:
        registry.text_spec(fmt).resolve(params)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"--param: {exc}") from None
    text = read_text(args.file)
    clean, calls = registry.extract_from_text(fmt, text, **params)
    emit({"format": fmt, "clean_text": clean, "calls": [c.to_dict() for c in calls]}, out)
    return 0


def _checked(args: argparse.Namespace, registry: Registry) -> Any:
    """A function checking a reply against ``--tools`` (the reply itself without it)."""
    if getattr(args, "tools", None) is None:
        return lambda reply: reply
    from ._tools import from_args  # lazy: --tools's module only with --tools

    option = from_args(args, registry)
    assert option is not None
    return option.check


def _jsonl(args: argparse.Namespace, registry: Registry, out: TextIO, fmt: str | None,
           strict: bool | None) -> int:
    checked = _checked(args, registry)
    origin = _origin(args)
    failed = 0
    for number, item in reply_lines(read_text(args.file), origin):
        try:
            if isinstance(item, MalformedResponse):
                raise item
            emit_line(checked(registry.read(fmt, item, strict=strict)).to_dict(), out)
        except ToolwireError as exc:
            failed += 1
            where = "" if isinstance(item, MalformedResponse) else f"{origin}:{number}: "
            message = f"{where}{exc}"
            print(f"toolwire: {exc.code}: {message}", file=sys.stderr)
            emit_line({"error": {"code": exc.code, "message": message, "line": number}}, out)
    return 1 if failed else 0


def run_extract(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Print the reply (``--jsonl``: each line's) as JSON; the text format's calls with --text."""
    choice = getattr(args, "choice", None)
    if choice is not None:
        from ._choice import refuse_with  # lazy: --choice's module only with --choice

        refuse_with(args)
    if getattr(args, "response_template", None) is not None:
        # lazy: --response-template's module only with it
        from ._response_template import with_template

        registry = with_template(args, registry)
    if getattr(args, "stream", False) or getattr(args, "follow", False):
        from ._stream import run as run_stream  # lazy: --stream's module only with --stream

        return run_stream(args, registry, out)
    if getattr(args, "allow_incomplete", False):
        raise UsageError("--allow-incomplete goes with --stream (a stream cut short)")
    if args.text is not None:
        return _run_text(args, registry, out)
    in_content = getattr(args, "text_in_content", None) is not None
    if args.param and not in_content:
        raise UsageError("--param goes with --text or --text-in-content")
    if args.example is not None and args.file is not None:
        raise UsageError(f"--example reads a bundled reply; it does not go with FILE {args.file}")
    if args.example is not None and getattr(args, "jsonl", False):
        raise UsageError("--jsonl does not go with --example (an example is one reply)")
    fmt = args.format
    if fmt is not None:  # imported only then: a plain extract sniffs or names an example
        # lazy: the name checks only with --format (they load typing)
        from ._names import wire_format

        fmt = wire_format(registry, fmt)
    strict = True if args.strict else (False if args.lenient else None)
    if getattr(args, "jsonl", False):
        if in_content:
            raise UsageError("--jsonl does not go with --text-in-content")
        return _jsonl(args, registry, out, fmt, strict)
    checked = _checked(args, registry)
    if args.example is not None:
        path = example_path(args.example)
        if fmt is None and args.example in registry.formats():
            fmt = args.example
        data: Any = parse_reply(read_text(path), _origin(args))
    else:
        data = parse_reply(read_text(args.file), _origin(args))
    if in_content:
        # lazy: --text-in-content's module only with it
        from ._names import text_format  # lazy: the name checks, as above
        from ._text_in_content import read_with_text

        text_format(registry, args.text_in_content, "--text-in-content")
        reply = read_with_text(args, registry, fmt, data, strict,
                                               _params(args.param))
    elif choice is not None:
        from ._choice import checked_choice  # lazy: --choice's module only with --choice

        chosen = checked_choice(registry, fmt, data, choice)
        reply = registry.read(fmt, data, strict=strict, choice=chosen)
    else:
        reply = registry.read(fmt, data, strict=strict)
    emit(checked(reply).to_dict(), out)
    return 0


def run_sniff(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Print the format name each reply looks like; exit 1 where none fits."""

    origin = _origin(args)
    if not getattr(args, "jsonl", False):
        fmt = registry.sniff_format(parse_reply(read_text(args.file), origin))
        if fmt is None:
            raise UnknownFormat(None)
        out.write(f"{fmt}\n")
        return 0
    failed = 0
    for number, item in reply_lines(read_text(args.file), origin):
        if isinstance(item, MalformedResponse):
            print(f"toolwire: {item.code}: {item}", file=sys.stderr)
            failed += 1
            out.write("-\n")
            continue
        fmt = registry.sniff_format(item)
        if fmt is None:
            print(f"toolwire: unknown_format: {origin}:{number}: no format recognises this"
                  " reply's shape", file=sys.stderr)
            failed += 1
        out.write(f"{fmt or '-'}\n")
    return 1 if failed else 0
