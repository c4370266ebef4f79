"""Reading JSON Lines inputs (plain or gzip, files or stdin) as chunks of lines, streamed.

Nothing is loaded whole: a file is read line by line and handed on in chunks of a
bounded size, so memory stays flat however large the logs are. Progress is measured
in bytes of the file as stored (compressed bytes for ``.gz``), which is what is known
in advance; gzip is recognised by its magic bytes, whatever the file is called.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from collections.abc import Iterator
from typing import IO

from .records import Chunk

__all__ = ["Input", "chunks", "open_inputs"]

CHUNK_LINES = 400
CHUNK_BYTES = 1 << 20


class Input:
    """One input: its name in record ids, its size on disk (None: unknown), its lines."""

    __slots__ = ("_raw", "_stream", "name", "size")

    def __init__(self, name: str) -> None:
        self.name = name
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
        except OSError:
            return 0

    def lines(self) -> Iterator[bytes]:
        """Each line without its end (``\\n`` or ``\\r\\n``); a last line without one counts."""
        for line in self._stream:
            if line.endswith(b"\n"):
                line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
            yield line

    def close(self) -> None:
        if self._stream is not self._raw:
            self._stream.close()
        if self._raw is not sys.stdin.buffer:
            self._raw.close()


def open_inputs(names: list[str]) -> list[Input]:
    """Every input opened up front, so a missing file fails before any work is done."""
    opened: list[Input] = []
    try:
        for name in names:
            opened.append(Input(name))
    except OSError:
        for done in opened:
            done.close()
        raise
    return opened


def chunks(source: Input) -> Iterator[Chunk]:
    """The lines of ``source`` in chunks of at most ``CHUNK_LINES`` lines / ``CHUNK_BYTES``."""
    batch: list[bytes] = []
    size = 0
    first = 1
    for line in source.lines():
        batch.append(line)
        size += len(line)
        if len(batch) >= CHUNK_LINES or size >= CHUNK_BYTES:
            yield Chunk(source.name, first, tuple(batch))
            first += len(batch)
            batch = []
            size = 0
    if batch:
        yield Chunk(source.name, first, tuple(batch))
