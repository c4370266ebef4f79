"""``toolwire extract --stream`` and ``--follow``: a stream on the command line.

The input is raw SSE text or JSON lines (one event per line), from a file or standard
input, read in chunks as it arrives, so ``curl -N … | toolwire extract --stream --follow``
prints each call the moment the format proves it complete. Without ``--follow`` the Reply
is printed once the stream ends, exactly as ``extract`` prints a full response's.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

if TYPE_CHECKING:
    import argparse

    from ..registry import Registry

__all__ = ["add_arguments", "run", "wants_stream"]

_CHUNK = 65536


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The two options, on the ``extract`` parser."""
    parser.add_argument("--stream", action="store_true",
                        help="the input is a stream: SSE text or JSON lines of events")
    parser.add_argument("--follow", action="store_true",
                        help="with --stream: print each ready call (JSON line) as it arrives")


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
    from ..errors import ToolwireError
    from ..wire.stream import Accumulator
    from .common import UsageError
    from .names import wire_format

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
    acc = Accumulator(fmt, strict=strict, registry=registry)
    follow = bool(args.follow)
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
            for chunk in _chunks(handle):
                updates = acc.feed_bytes(chunk)
                if follow:
                    _lines(updates, out)
            updates = acc.close()
            if follow:
                _lines(updates, out)
        finally:
            if close:
                handle.close()
        reply = acc.reply()
    except ToolwireError as exc:
        print(f"toolwire: {exc.code}: {exc}", file=sys.stderr)
        return 1
    if not follow:
        out.write(json.dumps(reply.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return 0


def _lines(updates: Any, out: TextIO) -> None:
    for update in updates:
        out.write(json.dumps(update.to_dict(), ensure_ascii=False) + "\n")
    if updates:
        out.flush()
