"""Writing rows: JSON Lines (plain, gzip by a ``.gz`` name, or stdout) or Parquet.

JSON Lines rows are compact: a null column is left out of its object, which readers
(pandas, DuckDB, Spark) read as null; the columns and their types are the schema's
(:mod:`toolwire.batch.schema`). Parquet needs ``pyarrow`` (the ``parquet`` extra) and
writes every column with its Arrow type, one row group per few tens of thousands of rows.

A file is never written under its final name while it is being written: rows go to a
temporary file beside the target (:class:`Target`), renamed onto the target only by
:meth:`Sink.finish`, once the whole run went through. A run that stops early calls
:meth:`Sink.abandon` instead, which leaves the rows so far as ``NAME.partial``: a reader
can never take an interrupted output for a complete one, and the input a user named by
mistake as the output is never truncated. ``NAME.partial`` obeys the rule ``NAME`` does:
never an input, never an existing file without ``force`` (:func:`check_target` checks both
before the run; :meth:`Target.abandon` renames without replacing, so a file that appeared
there meanwhile is kept too).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import sys
from typing import IO, Any

from ._schema import COLUMNS

__all__ = [
    "EXTENSIONS", "JsonLinesSink", "ParquetSink", "Sink", "Target", "TargetError",
    "UnwritableOutput", "arrow_schema", "open_sink",
]

PARQUET_GROUP_ROWS = 65_536

EXTENSIONS = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz", ".parquet")
"""The output names a sink knows, by their ending (any case); ``-`` is standard output."""

PARTIAL = ".partial"
"""What an output that stopped early is called: its final name and this."""


class TargetError(ValueError):
    """An output that must not be written: an input, an existing file, an unknown kind."""


class UnwritableOutput(Exception):
    """Rows that could not be written (a full disk, a lost folder): ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Target:
    """The file of an output: written under a temporary name beside ``path``, then renamed.

    The temporary file is created new (never opened through an existing file or link), in
    the target's own folder, so the rename is atomic and replaces a link at ``path`` rather
    than writing through it.
    """

    __slots__ = ("handle", "path", "replace", "temporary")

    def __init__(self, path: str, *, replace: bool = False) -> None:
        self.path = path
        self.replace = replace  # whether abandon() may replace an existing NAME.partial
        folder, name = os.path.split(os.path.abspath(path))
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        for _attempt in range(100):
            temporary = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tmp")
            try:
                descriptor = os.open(temporary, flags, 0o666)  # the umask applies, as to open()
            except FileExistsError:
                continue
            break
        else:  # pragma: no cover - a hundred random names all taken
            raise FileExistsError(f"no free temporary name beside {path}")
        self.temporary = temporary
        self.handle: IO[bytes] = os.fdopen(descriptor, "wb")

    def finish(self) -> None:
        """The written file under its final name."""
        self.handle.close()
        os.replace(self.temporary, self.path)

    def abandon(self) -> str | None:
        """The written file as ``NAME.partial`` (its path); under its temporary name when a
        ``NAME.partial`` exists that may not be replaced; removed if neither works (None)."""
        with contextlib.suppress(OSError):
            self.handle.close()
        partial = self.path + PARTIAL
        try:
            if self.replace:
                os.replace(self.temporary, partial)
            else:
                _rename_new(self.temporary, partial)
        except FileExistsError:
            return self.temporary
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(self.temporary)
            return None
        return partial


def _rename_new(source: str, name: str) -> None:
    """Rename ``source`` to ``name`` only if nothing is there (else FileExistsError): a hard
    link is made without replacing, atomically; where links are not supported, a check and
    a rename."""
    try:
        os.link(source, name, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if os.path.lexists(name):
            raise FileExistsError(name) from None
        os.rename(source, name)
        return
    os.unlink(source)


class Sink:
    """Where rows go; ``text`` says whether it takes JSON Lines text or row dicts.

    A run ends with exactly one of :meth:`finish` (complete: the output under its name)
    or :meth:`abandon` (stopped early: ``NAME.partial``, whose path it returns).
    """

    text = True
    target: Target | None = None

    def write(self, payload: Any) -> None:
        raise NotImplementedError

    def put(self, payload: Any) -> None:
        """:meth:`write`, a failure to write (a full disk) raised as :class:`UnwritableOutput`;
        a reader of standard output gone stays a ``BrokenPipeError``."""
        try:
            self.write(payload)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise UnwritableOutput(exc.strerror or str(exc)) from exc

    def _close(self) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        self._close()
        if self.target is not None:
            self.target.finish()

    def abandon(self) -> str | None:
        with contextlib.suppress(Exception):  # what was written stays; the run already failed
            self._close()
        return self.target.abandon() if self.target is not None else None


class JsonLinesSink(Sink):
    def __init__(self, path: str, target: Target | None = None) -> None:
        self.target = target
        if target is None:  # standard output
            self._out: IO[str] = sys.stdout
        elif path.lower().endswith(".gz"):
            # The gzip header names the final file, not the temporary one.
            packed = gzip.GzipFile(filename=path, mode="wb", fileobj=target.handle)
            self._out = io.TextIOWrapper(packed, encoding="utf-8")
        else:
            self._out = io.TextIOWrapper(target.handle, encoding="utf-8")

    def write(self, payload: Any) -> None:
        self._out.write(payload)

    def _close(self) -> None:
        if self.target is None:
            self._out.flush()
            return
        assert isinstance(self._out, io.TextIOWrapper)
        inner = self._out.detach()  # flushed; the file itself stays open for the target
        if isinstance(inner, gzip.GzipFile):
            inner.close()  # the gzip trailer; a GzipFile never closes a fileobj it was given


def arrow_schema() -> Any:
    """The rows' schema as a ``pyarrow.Schema`` (JSON columns are strings)."""
    import pyarrow as pa  # lazy: pyarrow (an optional extra) only for Parquet

    types = {"string": pa.string(), "json": pa.string(), "int": pa.int64(), "bool": pa.bool_()}
    return pa.schema([pa.field(c.name, types[c.type], nullable=True) for c in COLUMNS])


def rows_to_arrow(rows: list[dict[str, Any]]) -> Any:
    """Compact rows as a ``pyarrow.RecordBatch`` of the schema (absent columns null)."""
    import pyarrow as pa  # lazy: as above

    return pa.RecordBatch.from_pylist(rows, schema=arrow_schema())


class ParquetSink(Sink):
    text = False

    def __init__(self, target: Target) -> None:
        import pyarrow.parquet as pq  # lazy: as above

        self.target = target
        self._schema = arrow_schema()
        self._writer = pq.ParquetWriter(target.handle, self._schema, compression="zstd")
        self._pending: list[dict[str, Any]] = []

    def write(self, payload: Any) -> None:
        self._pending.extend(payload)
        if len(self._pending) >= PARQUET_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            import pyarrow as pa  # lazy: as above

            self._writer.write_table(pa.Table.from_pylist(self._pending, schema=self._schema))
            self._pending = []

    def _close(self) -> None:
        self._flush()
        self._writer.close()


def check_target(path: str, inputs: list[str], *, force: bool = False) -> None:
    """Raise :class:`TargetError` for an output that must not be written.

    ``path`` must end in one of :data:`EXTENSIONS` (or be ``-``), must not be any input
    (compared as files, links and hard links resolved: never by name), and must not exist
    unless ``force``; its folder must exist. ``path.partial``, where a run that stops early
    leaves its rows, obeys the same rules.
    """
    if path == "-":
        return
    partial = path + PARTIAL
    for name in inputs:
        for written in (path, partial):
            if _same_file(written, name):
                shown = "standard input" if name == "-" else name
                what = "that" if written == path else f"{partial}, where an early stop leaves" \
                    " the rows,"
                raise TargetError(f"{path}: {what} is the input {shown}; the output must be"
                                  " another file")
    if not path.lower().endswith(EXTENSIONS):
        raise TargetError(f"{path}: unknown output kind; name it {', '.join(EXTENSIONS)}"
                          " or '-' (standard output)")
    if os.path.lexists(path):
        if os.path.isdir(path):
            raise TargetError(f"{path}: is a folder")
        if not force:
            raise TargetError(f"{path} exists; pass --force to replace it")
    if os.path.lexists(partial):
        if os.path.isdir(partial):
            raise TargetError(f"{path}: {partial}, where an early stop leaves the rows, is a"
                              " folder")
        if not force:
            raise TargetError(f"{path}: {partial} exists (left by a run that stopped early?);"
                              " pass --force to replace it, or move it away")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise TargetError(f"{path}: no such folder {folder}")


def _same_file(path: str, name: str) -> bool:
    """Whether output ``path`` is input ``name`` (``-``: whatever standard input reads)."""
    try:
        out = os.stat(path)
        source = os.fstat(sys.stdin.fileno()) if name == "-" else os.stat(name)
    except (OSError, ValueError):
        return False
    return os.path.samestat(out, source)


def open_sink(path: str, *, force: bool = False) -> Sink:
    """The sink for ``path`` (see :func:`check_target` first): Parquet for a ``.parquet``
    name, JSON Lines otherwise, standard output for ``-``; ``force``: an early stop may
    replace an existing ``path.partial``.

    Raises :class:`ImportError` (with the fix) when Parquet is asked for without pyarrow.
    """
    if path == "-":
        return JsonLinesSink(path)
    if path.lower().endswith(".parquet"):
        try:
            import pyarrow.parquet  # lazy: as above, checked before any input is read  # noqa: F401
        except ImportError:
            raise ImportError(
                f"{path}: writing Parquet needs pyarrow: pip install 'toolwire[parquet]'"
            ) from None
        target = Target(path, replace=force)
        try:
            return ParquetSink(target)
        except BaseException:
            target.abandon()
            raise
    target = Target(path, replace=force)
    return JsonLinesSink(path, target)
