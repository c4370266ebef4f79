"""``toolwire extract --stream`` and ``--follow``: a stream on the command line.

The input is raw SSE text or JSON lines (one event per line), from a file or standard
input, read in chunks as it arrives, so ``curl -N … | toolwire extract --stream --follow``
prints each call the moment the format proves it complete. Without ``--follow`` the Reply
is printed once the stream ends, exactly as ``extract`` prints a full response's. With
``--tools REQUEST`` every call is checked against the request's tools as it becomes ready:
a ``--follow`` line then carries the call's flags (``unknown_tool``, ``arguments_invalid``
with ``arguments_errors``) and its fate (``rejected``), and the Reply's calls are checked too.
A stream cut short (or failed by the provider) is an error; with ``--allow-incomplete`` its
partial Reply is printed instead, every unfinished call flagged ``incomplete`` (never
runnable), and the problem is one line on standard error.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from .._values.arguments import loads_strict
from ..errors import IncompleteStream, MalformedStream, ProviderError, StreamError, ToolwireError
from ._common import InputError, UsageError
from ._names import wire_format
from ._tools import from_args

if TYPE_CHECKING:
    import argparse

    from .._registry.registry import Registry

__all__ = ["add_arguments", "run", "wants_stream"]

_CHUNK = 65536


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The two options, on the ``extract`` parser."""
    parser.add_argument("--stream", action="store_true",
                        help="the input is a stream: SSE text or JSON lines of events")
    parser.add_argument("--follow", action="store_true",
                        help="with --stream: print each ready call (JSON line) as it arrives")
    parser.add_argument("--allow-incomplete", action="store_true",
                        help="with --stream: print the partial reply of a stream cut short or"
                             " failed by the provider (unfinished calls flagged incomplete)")


def wants_stream(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a stream."""
    return bool(getattr(args, "stream", False) or getattr(args, "follow", False))


def _chunks(handle: BinaryIO) -> Any:
    read = getattr(handle, "read1", handle.read)
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            return
        yield chunk


def run(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Accumulate the input; print the Reply (or, with --follow, each update); exit code."""
    from .._stream import Accumulator  # lazy: the stream reader (17 ms) only with --stream

    if getattr(args, "text", None) is not None or getattr(args, "example", None) is not None:
        raise UsageError("--stream reads a stream from FILE or standard input;"
                         " --text and --example do not go with it")
    if getattr(args, "jsonl", False) or getattr(args, "text_in_content", None) is not None:
        raise UsageError("--stream reads one stream; --jsonl and --text-in-content do not go"
                         " with it")
    if getattr(args, "param", None):
        raise UsageError("--param goes with --text or --text-in-content")
    fmt = args.format if args.format is None else wire_format(registry, args.format)
    strict = True if args.strict else (False if args.lenient else None)
    tools = _tools(args, registry, fmt)
    acc = Accumulator(fmt, strict=strict, registry=registry, tools=tools)
    follow = bool(args.follow)
    allow = bool(getattr(args, "allow_incomplete", False))
    try:
        handle: BinaryIO
        if args.file in (None, "-"):
            handle = sys.stdin.buffer
            close = False
        else:
            try:
                handle = open(args.file, "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                print(f"toolwire: input: {exc}", file=sys.stderr)
                return 1
            close = True
        try:
            seen: list[bytes] | None = []  # the input while no event was read
            for chunk in _chunks(handle):
                if seen is not None:
                    seen.append(chunk)
                try:
                    updates = acc.feed_bytes(chunk)  # updates before a failure come first
                except MalformedStream as exc:
                    if seen is None or exc.event_index != 0:
                        raise
                    raise _one_document(exc, b"".join(seen), handle, registry, fmt) from None
                if seen is not None and acc.events:
                    seen = None
                if follow:
                    _lines(updates, out)
            updates = acc.close()
            if follow:
                _lines(updates, out)
        finally:
            if close:
                handle.close()
        reply = acc.reply()
    except (IncompleteStream, StreamError) as exc:
        if not allow:
            print(f"toolwire: {exc.code}: {_advice(exc)}", file=sys.stderr)
            return 1
        done = ("its unfinished calls were never printed" if follow else
                "printing the partial reply: its unfinished calls are flagged incomplete")
        print(f"toolwire: {exc.code}: {_summary(exc)}; --allow-incomplete: {done}",
              file=sys.stderr)
        reply = acc.reply(allow_incomplete=True)
    except ToolwireError as exc:
        # A bad tool list met at a sniffed stream's first event: the input error it is
        # when the format is given (and for extract --tools without --stream).
        where = f"input: {exc.code}: --tools {args.tools}" if exc.code == "invalid_tools" else (
            exc.code)
        hint = " (without --stream, toolwire extract reads it)" if getattr(
            exc, "finished_reply", False) else (
            " (the input is one JSON error body, not a stream)" if isinstance(
                exc, ProviderError) else "")
        print(f"toolwire: {where}: {exc}{hint}", file=sys.stderr)
        return 1
    if not follow:
        out.write(json.dumps(reply.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return 0


def _one_document(failure: MalformedStream, head: bytes, handle: BinaryIO,
                  registry: Registry, fmt: str | None) -> ToolwireError:
    """What to report for an input whose first line failed: where the input is one
    pretty-printed JSON body (its first line a lone ``{``, as OpenAI's error bodies and
    ``json.dumps(indent=…)`` write it), what that body is — the provider's error body (its
    ``provider_error``) or a finished reply, named — else the failure as it was."""
    from .._stream.framing import MAX_EVENT_SIZE  # lazy: the stream reader, only with --stream

    first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0].strip()
    if first != b"{":
        return failure
    data = head + handle.read(MAX_EVENT_SIZE + 1 - len(head))  # the rest, bounded
    if len(data) > MAX_EVENT_SIZE:
        return failure
    try:
        body = loads_strict(data.decode("utf-8-sig"))
    except ValueError:  # not UTF-8, or not one JSON value: not a body either
        return failure
    if type(body) is not dict:
        return failure
    try:
        reply = registry.read(fmt, body)
    except ProviderError as error:
        return error
    except ToolwireError:
        return failure
    return MalformedStream(fmt, f"the input is one JSON document over several lines, a finished"
                           f" {reply.format} reply, not a stream of events",
                           looks_like=reply.format, finished_reply=True)


def _summary(exc: Any) -> str:
    """What went wrong, without the Python API's advice."""
    return str(getattr(exc, "summary", None) or exc)


def _advice(exc: Any) -> str:
    """The error with the command line's way to see the partial reply."""
    return (f"{_summary(exc)}; add --allow-incomplete to print the partial reply, whose"
            " unfinished calls are flagged incomplete")


def _tools(args: argparse.Namespace, registry: Registry, fmt: str | None) -> Any:
    """The ``--tools`` request, compiled now when the format is given (a bad tool list is
    an input error before any byte is read); a sniffed stream compiles it on its first
    event."""
    option = from_args(args, registry)
    if option is None:
        return None
    if fmt is None:
        return option.request
    from .._tools import Tools  # lazy: the tool checks (jsonschema: 66 ms) only with --tools

    try:
        return Tools(fmt, option.request, registry=registry)
    except ToolwireError as exc:
        raise InputError(f"{exc.code}: --tools {args.tools}: {exc}") from None


def _lines(updates: Any, out: TextIO) -> None:
    for update in updates:
        out.write(json.dumps(update.to_dict(), ensure_ascii=False) + "\n")
    if updates:
        out.flush()
