"""``toolwire batch IN... --out OUT``: recorded replies (JSON Lines) → rows, on every core.

This module holds the command's options, its progress bar and its summary table; the
work is :mod:`toolwire.batch`, imported only when the command runs. The progress bar
goes to stderr and only when stderr is a terminal: piped or redirected, the command
prints nothing but its summary. The summary goes to stdout, or to stderr when the rows
themselves go to stdout (``--out -``). The run checks that every record read gave its
summary row and says so; a mismatch (never expected) exits 1, and so does a run that could
read no record at all (naming the ``--field`` to pass when the lines wrap their replies).

The output is never under its name until the run is complete: the rows go to a
temporary file beside it, renamed at the end. A run that stops early — SIGINT, SIGTERM,
a dead worker, an input that cannot be read on — leaves ``OUT.partial``, says so in one
line and exits non-zero (130 for SIGINT, 143 for SIGTERM, 1 otherwise).
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from .._registry.registry import Registry

if TYPE_CHECKING:
    import argparse

    from ..batch import Progress, Tally

__all__ = ["add_parser", "run"]


class UsageError(Exception):
    """A bad command line: one line on stderr, exit 2."""


def add_parser(commands: Any) -> None:
    """The ``batch`` subcommand's options, on the CLI's subparsers object."""
    batch = commands.add_parser(
        "batch", help="read JSON Lines of recorded replies into rows (JSON Lines or Parquet)",
        description="Read JSON Lines of recorded replies into flat rows: one reply row per"
        " line, then one row per call, server call and refused item.",
    )
    batch.add_argument("inputs", nargs="+", metavar="IN",
                       help="JSON Lines files, plain or gzip ('-': standard input)")
    batch.add_argument("--out", "-o", required=True, metavar="OUT",
                       help="the rows: FILE.jsonl, FILE.jsonl.gz, FILE.parquet or '-' (stdout);"
                       " written under a temporary name, renamed when complete")
    batch.add_argument("--force", action="store_true", help="replace an existing OUT")
    batch.add_argument("--field", metavar="PATH",
                       help="the reply is this field of each line (dotted: response.body)")
    batch.add_argument("--format", "-f", help="every reply's wire format (default: sniffed)")
    batch.add_argument("--format-field", metavar="PATH", help="each line's format is this field")
    batch.add_argument("--tools-field", metavar="PATH",
                       help="each line's request tool list is this field")
    batch.add_argument("--id-field", metavar="PATH",
                       help="each line's record id is this field (default: FILE:LINE)")
    batch.add_argument("-j", "--jobs", nargs="?", type=int, const=0, default=1, metavar="N",
                       help="worker processes; -j alone or -j 0: one per core (default: 1;"
                       " at most 4 per core)")
    batch.add_argument("--max-line-bytes", type=_size, default=None, metavar="SIZE",
                       help="a longer line is its record's error row, never held in memory"
                       " (default: 32M; K, M, G suffixes; 0: no bound)")
    batch.add_argument("--strict", action="store_true", default=None,
                       help="refuse unknown item types (default: each spec's own rule)")
    batch.add_argument("--no-progress", action="store_true",
                       help="no progress bar, even on a terminal")


def _size(text: str) -> int:
    """A byte count as typed: ``1048576``, ``512K``, ``32M``, ``1G``."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    scale = units.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale != 1 else text
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (a number, or 32M, 512K, 1G)")
    return int(digits) * scale


class _Stopped(BaseException):
    """A signal that ends the run (SIGTERM), raised where the run stood: a BaseException,
    as KeyboardInterrupt is, so that no handler of a record's own errors takes it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def run(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Run ``toolwire batch``; returns the exit code."""
    err = err or sys.stderr
    try:
        return _run(args, out, err)
    except UsageError as exc:
        print(f"toolwire: usage: {exc}", file=err)
        return 2
    except BrokenPipeError:  # --out - into `head`: stop, quietly flushing nothing more

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print("toolwire: batch: the output was closed before the end", file=err)
        return 1


def _checked_jobs(args: argparse.Namespace) -> int:
    """The number of processes to run, once the options agree (else :class:`UsageError`)."""
    # lazy: the batch engine only when batch runs (the parser imports this module)
    from ..batch import MAX_JOBS_PER_CORE, cpu_count, max_jobs
    from ..batch._sink import TargetError, check_target  # lazy: as above

    jobs = args.jobs if args.jobs > 0 else cpu_count()
    if args.jobs < 0:
        raise UsageError(f"-j {args.jobs}: the number of processes must be 0 (every core) or more")
    if jobs > max_jobs():
        raise UsageError(f"-j {args.jobs}: at most {max_jobs()} processes here"
                         f" ({MAX_JOBS_PER_CORE} per core)")
    if args.format is not None and args.format_field is not None:
        raise UsageError("--format and --format-field exclude each other")
    if args.inputs.count("-") > 1:
        raise UsageError("standard input ('-') can be read only once")
    try:
        check_target(args.out, args.inputs, force=args.force)
    except TargetError as exc:
        raise UsageError(f"--out {exc}") from None
    if args.format is not None:
        known = Registry.default().formats()
        if args.format not in known:
            raise UsageError(f"--format {args.format}: unknown; known: {', '.join(known)}")
    return jobs


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # lazy: the batch engine only when batch runs (the parser imports this module)
    from ..batch import LineReader, run_batch
    from ..batch._sink import open_sink  # lazy: as above
    from ..batch._source import MAX_LINE_BYTES, open_inputs  # lazy: as above

    jobs = _checked_jobs(args)
    reader = LineReader(args.field, args.format, args.format_field, args.tools_field,
                        args.id_field, args.strict)
    max_line = MAX_LINE_BYTES if args.max_line_bytes is None else args.max_line_bytes
    try:
        inputs = open_inputs(args.inputs, max_line)
    except OSError as exc:
        raise UsageError(f"{exc.filename}: {exc.strerror}") from None
    try:
        try:
            sink = open_sink(args.out, force=args.force)
        except ImportError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:
            raise UsageError(f"--out {args.out}: {exc.strerror}") from None
        bar = _Bar(err) if err.isatty() and not args.no_progress else None
        started = time.monotonic()
        try:
            with _SigtermStops():
                tally = run_batch(inputs, sink, reader, jobs, bar.show if bar else None)
        except BaseException as exc:
            if bar is not None:
                bar.clear()
            left = sink.abandon()
            code = _stopped(exc, left, args.out, err)
            if code is None:
                raise
            return code
        if bar is not None:
            bar.clear()
        complete = tally.records == tally.replies
        left = None
        if complete:
            try:
                sink.finish()
            except BrokenPipeError:
                raise
            except OSError as exc:  # the last rows or the rename: a full disk, a lost folder
                left = sink.abandon()
                if args.out == "-":
                    _silence(sys.stdout)
                print(f"toolwire: batch: cannot write {_shown(args.out)}: {exc.strerror or exc};"
                      f" {_left(left, args.out)}", file=err)
                return 1
        else:
            left = sink.abandon()
    finally:
        for source in inputs:
            source.close()
    seconds = time.monotonic() - started
    return _finish(args, tally, seconds, jobs, complete, left, out, err)


def _finish(args: argparse.Namespace, tally: Tally, seconds: float, jobs: int, complete: bool,
            left: str | None, out: TextIO, err: TextIO) -> int:
    """The summary, then the exit status: 1 when lines were lost or no record could be read."""
    report = err if args.out == "-" else out
    try:
        _summary(tally, seconds, jobs, len(args.inputs), report)
        report.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:  # the summary's own stream is full: the rows are written
        _silence(report)
        print(f"toolwire: batch: cannot write the summary: {exc.strerror or exc}; the rows"
              f" are in {_shown(args.out)}", file=err)
        return 1
    if not complete:
        print(f"toolwire: batch: lines were lost; {_left(left, args.out)}", file=err)
        return 1
    if tally.records and tally.unreadable == tally.records:
        print(f"toolwire: batch: no record could be read ({tally.unreadable:,} unreadable);"
              f" {_advice(tally)}", file=err)
        return 1
    return 0


def _advice(tally: Tally) -> str:
    """What to try when no record could be read: the field the replies sit in, if seen."""
    if tally.wrapped:
        path = max(tally.wrapped, key=lambda p: (tally.wrapped[p], p))
        return f"each line holds its reply in field {path!r}: pass --field {path}"
    return "see the rows' error_message (each line must be a reply, or --field name it)"


def _shown(out: str) -> str:
    return "standard output" if out == "-" else out


def _silence(stream: TextIO) -> None:
    """Point a standard stream that cannot be written at the null device, so that the
    interpreter's last flush of what it still holds finds nothing to complain about."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # no file (a test's buffer)
        pass


def _left(left: str | None, out: str) -> str:
    """Where the rows of a run that stopped early are, in words."""
    if left is not None:
        return f"the rows so far are in {left}"
    return "the output is incomplete" if out == "-" else f"nothing was written to {out}"


def _stopped(exc: BaseException, left: str | None, out: str, err: TextIO) -> int | None:
    """The one line and exit code of a run that stopped early; None: not ours to tell."""
    from ..batch import UnreadableInput, WorkerDied  # lazy: as above
    from ..batch._sink import UnwritableOutput  # lazy: as above

    where = _left(left, out)
    if isinstance(exc, KeyboardInterrupt):
        print(f"toolwire: batch: interrupted; {where}", file=err)
        return 128 + signal.SIGINT
    if isinstance(exc, _Stopped):
        name = signal.Signals(exc.signum).name
        print(f"toolwire: batch: stopped by {name}; {where}", file=err)
        return 128 + exc.signum
    if isinstance(exc, (WorkerDied, UnreadableInput)):
        print(f"toolwire: batch: {exc}; {where}", file=err)
        return 1
    if isinstance(exc, UnwritableOutput):
        if out == "-":
            _silence(sys.stdout)
        print(f"toolwire: batch: cannot write {_shown(out)}: {exc.reason}; {where}", file=err)
        return 1
    return None


class _SigtermStops:
    """SIGTERM raises :class:`_Stopped` in the main thread while the run lasts, so the
    run ends as on Ctrl-C (its output left as ``.partial``) instead of dying mid-write."""

    def __enter__(self) -> None:
        def stop(signum: int, _frame: Any) -> None:
            raise _Stopped(signum)

        self._taken = False
        try:
            self._old: Any = signal.signal(signal.SIGTERM, stop)
        except ValueError:  # not the main thread: signals are not ours to take
            return
        self._taken = True

    def __exit__(self, *_exc: object) -> None:
        if self._taken:
            signal.signal(signal.SIGTERM, self._old if self._old is not None else signal.SIG_DFL)


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
    for path, n in sorted(tally.wrapped.items(), key=lambda kv: (-kv[1], kv[0])):
        out.write(f"hint: {n:,} line(s) hold a reply in field {path!r}: pass --field {path}\n")
    kinds = ", ".join(f"{kind} {tally.kinds.get(kind, 0):,}"
                      for kind in ("reply", "call", "server_call", "refused"))
    out.write(f"rows out: {kinds}\n")
    verdict = "ok" if tally.records == tally.replies else "MISMATCH: lines were lost"
    blank = f", {tally.blank:,} blank (skipped)" if tally.blank else ""
    out.write(f"check: {tally.lines:,} lines in{blank}, {tally.replies:,} reply rows out:"
              f" {verdict}\n")
