"""``toolwire batch IN... --out OUT``: recorded replies (JSON Lines) → rows, on every core.

This module holds the command's options, its progress bar and its summary table; the
work is :mod:`toolwire.batch`, imported only when the command runs. The progress bar
goes to stderr and only when stderr is a terminal: piped or redirected, the command
prints nothing but its summary. The summary goes to stdout, or to stderr when the rows
themselves go to stdout (``--out -``). The run checks that every line read gave its
summary row and says so; a mismatch (never expected) exits 1.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import argparse

    from ..batch import Progress, Tally

__all__ = ["add_parser", "run"]


class UsageError(Exception):
    """A bad command line: one line on stderr, exit 2."""


def add_parser(commands: Any) -> None:
    """The ``batch`` subcommand's options, on the CLI's subparsers object."""
    batch = commands.add_parser(
        "batch", help="read JSON Lines of recorded replies into rows (JSON Lines or Parquet)"
    )
    batch.add_argument("inputs", nargs="+", metavar="IN",
                       help="JSON Lines files, plain or gzip ('-': standard input)")
    batch.add_argument("--out", "-o", required=True, metavar="OUT",
                       help="the rows: FILE.jsonl, FILE.jsonl.gz, FILE.parquet or '-' (stdout)")
    batch.add_argument("--field", metavar="PATH",
                       help="the reply is this field of each line (dotted: response.body)")
    batch.add_argument("--format", "-f", help="every reply's wire format (default: sniffed)")
    batch.add_argument("--format-field", metavar="PATH", help="each line's format is this field")
    batch.add_argument("--tools-field", metavar="PATH",
                       help="each line's request tool list is this field")
    batch.add_argument("--id-field", metavar="PATH",
                       help="each line's record id is this field (default: FILE:LINE)")
    batch.add_argument("-j", "--jobs", nargs="?", type=int, const=0, default=1, metavar="N",
                       help="worker processes; -j alone or -j 0: one per core (default: 1)")
    batch.add_argument("--strict", action="store_true", default=None,
                       help="refuse unknown item types (default: each spec's own rule)")
    batch.add_argument("--no-progress", action="store_true",
                       help="no progress bar, even on a terminal")


def run(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Run ``toolwire batch``; returns the exit code."""
    err = err or sys.stderr
    try:
        return _run(args, out, err)
    except UsageError as exc:
        print(f"toolwire: usage: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print("toolwire: batch: interrupted; the output is incomplete", file=err)
        return 130
    except BrokenPipeError:  # --out - into `head`: stop, quietly flushing nothing more
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print("toolwire: batch: the output was closed before the end", file=err)
        return 1


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..batch import LineReader, cpu_count, run_batch
    from ..batch.sink import open_sink
    from ..batch.source import open_inputs

    jobs = args.jobs if args.jobs > 0 else cpu_count()
    if args.jobs < 0:
        raise UsageError(f"-j {args.jobs}: the number of processes must be 0 (every core) or more")
    if args.format is not None and args.format_field is not None:
        raise UsageError("--format and --format-field exclude each other")
    if args.out != "-" and args.out in args.inputs:
        raise UsageError(f"--out {args.out}: that is one of the inputs")
    if args.inputs.count("-") > 1:
        raise UsageError("standard input ('-') can be read only once")
    if args.format is not None:
        from ..registry import Registry

        known = Registry.default().formats()
        if args.format not in known:
            raise UsageError(f"--format {args.format}: unknown; known: {', '.join(known)}")
    reader = LineReader(args.field, args.format, args.format_field, args.tools_field,
                        args.id_field, args.strict)
    try:
        inputs = open_inputs(args.inputs)
    except OSError as exc:
        raise UsageError(f"{exc.filename}: {exc.strerror}") from None
    try:
        try:
            sink = open_sink(args.out)
        except ImportError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:
            raise UsageError(f"--out {exc.filename}: {exc.strerror}") from None
        bar = _Bar(err) if err.isatty() and not args.no_progress else None
        started = time.monotonic()
        try:
            tally = run_batch(inputs, sink, reader, jobs, bar.show if bar else None)
        finally:
            if bar is not None:
                bar.clear()
            sink.close()
    finally:
        for source in inputs:
            source.close()
    seconds = time.monotonic() - started
    report = err if args.out == "-" else out
    _summary(tally, seconds, jobs, len(args.inputs), report)
    return 0 if tally.records == tally.replies else 1


class _Bar:
    """A one-line progress bar with rate and ETA, redrawn at most ten times a second."""

    WIDTH = 24

    def __init__(self, err: TextIO) -> None:
        self._err = err
        self._last = 0.0

    def show(self, progress: Progress) -> None:
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        rate = progress.records / progress.seconds if progress.seconds > 0 else 0.0
        total = progress.bytes_total
        if total:
            share = min(progress.bytes_done / total, 1.0)
            filled = int(share * self.WIDTH)
            left = progress.seconds * (1 - share) / share if share > 0 else 0.0
            head = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {share:4.0%}"
            tail = f"  ETA {_clock(left)}"
        else:
            head, tail = "[reading]", ""
        self._err.write(f"\r{head}  {progress.records:,} replies  {rate:,.0f}/s{tail}\x1b[K")
        self._err.flush()

    def clear(self) -> None:
        self._err.write("\r\x1b[K")
        self._err.flush()


def _clock(seconds: float) -> str:
    whole = int(seconds + 0.5)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _summary(tally: Tally, seconds: float, jobs: int, files: int, out: TextIO) -> None:
    """The table of replies, calls, server calls, refused items, truncations and errors
    (records toolwire could not read apart from the provider's own error bodies)."""
    rate = tally.records / seconds if seconds > 0 else 0.0
    out.write(
        f"toolwire batch: {tally.records:,} records from {files} input(s) in {seconds:.1f} s,"
        f" {rate:,.0f} replies/s with {jobs} process(es)\n"
    )
    header = ("format", "replies", "calls", "server calls", "refused", "truncated", "unreadable",
              "provider errors")
    rows = [
        (fmt, *(f"{n:,}" for n in figures))
        for fmt, figures in sorted(tally.formats.items(), key=lambda kv: (-kv[1][0], kv[0]))
    ]
    totals = [sum(f[i] for f in tally.formats.values()) for i in range(len(header) - 1)]
    rows.append(("total", *(f"{n:,}" for n in totals)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:],
                                                                           strict=True)]
        out.write("  ".join(cells) + "\n")
    unreadable = sorted((c, n) for c, n in tally.errors.items() if c != "provider_error")
    if unreadable:
        shown = ", ".join(f"{code} {n:,}" for code, n in unreadable)
        out.write(f"unreadable by code: {shown}\n")
    kinds = ", ".join(f"{kind} {tally.kinds.get(kind, 0):,}"
                      for kind in ("reply", "call", "server_call", "refused"))
    out.write(f"rows out: {kinds}\n")
    verdict = "ok" if tally.records == tally.replies else "MISMATCH: lines were lost"
    out.write(f"check: {tally.records:,} lines in, {tally.replies:,} reply rows out: {verdict}\n")
