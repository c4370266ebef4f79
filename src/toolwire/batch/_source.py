"""Reading JSON Lines inputs (plain or gzip, files or stdin) as chunks of lines, streamed.

Nothing is loaded whole: a file is read line by line and handed on in chunks of a
bounded size, so memory stays flat however large the logs are. Progress is measured
in bytes of the file as stored (compressed bytes for ``.gz``), which is what is known
in advance; gzip is recognised by its magic bytes, whatever the file is called.

One line is held in memory at most ``max_line`` bytes long (:data:`MAX_LINE_BYTES` by
default): a longer one is read past, not kept, and handed on as a :class:`LongLine`,
which becomes that record's error row. An input that cannot be read on — a gzip stream
cut short or corrupt, a read error — raises :class:`UnreadableInput` naming the file and
the last line read whole, after the lines before it were handed on.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import sys
import zlib
from collections.abc import Iterator
from typing import IO

from ._records import Chunk, LongLine

__all__ = ["MAX_LINE_BYTES", "Input", "UnreadableInput", "chunks", "open_inputs"]

CHUNK_LINES = 400
CHUNK_BYTES = 1 << 20

MAX_LINE_BYTES = 32 << 20
"""The longest line read by default (32 MiB, its end excluded). Reading a reply costs
several times its size in memory, so this bounds a worker's peak; ``0``: no bound."""

_SKIP_PIECE = 1 << 20


class UnreadableInput(Exception):
    """An input that cannot be read on: ``name``, the ``line`` being read, and why (every
    line before it was read whole)."""

    def __init__(self, name: str, line: int, reason: str) -> None:
        shown = "standard input" if name == "-" else name
        super().__init__(f"{shown}: line {line:,}: {reason}")
        self.name = name
        self.line = line
        self.reason = reason


def _reason(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "the gzip data is cut short (the file ends before its end marker)"
    if isinstance(exc, (gzip.BadGzipFile, zlib.error)):
        return f"the gzip data is corrupt ({exc})"
    if isinstance(exc, OSError):
        return f"cannot read on: {exc.strerror or exc}"
    return f"cannot read on: {exc}"


class Input:
    """One input: its name in record ids, its size on disk (None: unknown), its lines."""

    __slots__ = ("_raw", "_stream", "max_line", "name", "size")

    def __init__(self, name: str, max_line: int = MAX_LINE_BYTES) -> None:
        self.name = name
        self.max_line = max_line
        if name == "-":
            self._raw: IO[bytes] = sys.stdin.buffer
            self.size: int | None = None
        else:
            self._raw = open(name, "rb")  # noqa: SIM115 - closed by close()
            self.size = os.fstat(self._raw.fileno()).st_size
        head = self._raw.peek(2)[:2] if isinstance(self._raw, io.BufferedReader) else b""
        self._stream: IO[bytes] = (
            gzip.GzipFile(fileobj=self._raw, mode="rb")  # type: ignore[assignment]
            if head == b"\x1f\x8b" else self._raw
        )

    def position(self) -> int:
        """Bytes of the stored file consumed so far (0 for stdin)."""
        if self.size is None:
            return 0
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def lines(self) -> Iterator[bytes | LongLine]:
        """Each line without its end (``\\n`` or ``\\r\\n``); a last line without one counts.

        A line longer than ``max_line`` is a :class:`LongLine`; a read failure is an
        :class:`UnreadableInput` after the lines read whole.
        """
        limit = self.max_line
        read = self._stream.readline
        # Room for the longest line allowed and its "\r\n": a read that fills it without
        # reaching a line end is a line too long.
        room = limit + 2 if limit > 0 else -1
        number = 0
        try:
            while True:
                line = read(room)
                if not line:
                    return
                number += 1
                if line.endswith(b"\n"):
                    line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                elif len(line) == room:
                    yield LongLine(self._skip_rest(len(line)), limit)
                    continue
                if 0 < limit < len(line):
                    yield LongLine(len(line), limit)
                    continue
                yield line
        except (EOFError, OSError, zlib.error) as exc:
            raise UnreadableInput(self.name, number + 1, _reason(exc)) from exc

    def _skip_rest(self, size: int) -> int:
        """Read past the rest of a line too long to keep; its whole size."""
        read = self._stream.readline
        while True:
            piece = read(_SKIP_PIECE)
            if not piece:
                return size
            if piece.endswith(b"\n"):
                return size + len(piece) - (2 if piece.endswith(b"\r\n") else 1)
            size += len(piece)

    def close(self) -> None:
        if self._stream is not self._raw:
            with contextlib.suppress(EOFError, OSError, zlib.error):
                self._stream.close()
        if self._raw is not sys.stdin.buffer:
            self._raw.close()


def open_inputs(names: list[str], max_line: int = MAX_LINE_BYTES) -> list[Input]:
    """Every input opened up front, so a missing file fails before any work is done."""
    opened: list[Input] = []
    try:
        for name in names:
            opened.append(Input(name, max_line))
    except OSError:
        for done in opened:
            done.close()
        raise
    return opened


def chunks(source: Input) -> Iterator[Chunk]:
    """The lines of ``source`` in chunks of at most ``CHUNK_LINES`` lines / ``CHUNK_BYTES``.

    An :class:`UnreadableInput` comes after the chunk of the lines read before it.
    """
    batch: list[bytes | LongLine] = []
    size = 0
    first = 1
    try:
        for line in source.lines():
            batch.append(line)
            size += len(line) if type(line) is bytes else 0
            if len(batch) >= CHUNK_LINES or size >= CHUNK_BYTES:
                yield Chunk(source.name, first, tuple(batch))
                first += len(batch)
                batch = []
                size = 0
    except UnreadableInput:
        if batch:
            yield Chunk(source.name, first, tuple(batch))
        raise
    if batch:
        yield Chunk(source.name, first, tuple(batch))
