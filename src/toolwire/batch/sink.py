"""Writing rows: JSON Lines (plain, gzip by a ``.gz`` name, or stdout) or Parquet.

JSON Lines rows are compact: a null column is left out of its object, which readers
(pandas, DuckDB, Spark) read as null; the columns and their types are the schema's
(:mod:`toolwire.batch.schema`). Parquet needs ``pyarrow`` (the ``parquet`` extra) and
writes every column with its Arrow type, one row group per few tens of thousands of rows.
"""

from __future__ import annotations

import gzip
import sys
from typing import IO, Any

from .schema import COLUMNS

__all__ = ["JsonLinesSink", "ParquetSink", "Sink", "arrow_schema", "open_sink"]

PARQUET_GROUP_ROWS = 65_536


class Sink:
    """Where rows go; ``text`` says whether it takes JSON Lines text or row dicts."""

    text = True

    def write(self, payload: Any) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class JsonLinesSink(Sink):
    def __init__(self, path: str) -> None:
        self._stdout = path == "-"
        if self._stdout:
            self._out: IO[str] = sys.stdout
        elif path.endswith(".gz"):
            self._out = gzip.open(path, "wt", encoding="utf-8")  # noqa: SIM115 - see close()
        else:
            self._out = open(path, "w", encoding="utf-8")  # noqa: SIM115 - see close()

    def write(self, payload: Any) -> None:
        self._out.write(payload)

    def close(self) -> None:
        if self._stdout:
            self._out.flush()
        else:
            self._out.close()


def arrow_schema() -> Any:
    """The rows' schema as a ``pyarrow.Schema`` (JSON columns are strings)."""
    import pyarrow as pa

    types = {"string": pa.string(), "json": pa.string(), "int": pa.int64(), "bool": pa.bool_()}
    return pa.schema([pa.field(c.name, types[c.type], nullable=True) for c in COLUMNS])


def rows_to_arrow(rows: list[dict[str, Any]]) -> Any:
    """Compact rows as a ``pyarrow.RecordBatch`` of the schema (absent columns null)."""
    import pyarrow as pa

    return pa.RecordBatch.from_pylist(rows, schema=arrow_schema())


class ParquetSink(Sink):
    text = False

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        self._schema = arrow_schema()
        self._writer = pq.ParquetWriter(path, self._schema, compression="zstd")
        self._pending: list[dict[str, Any]] = []

    def write(self, payload: Any) -> None:
        self._pending.extend(payload)
        if len(self._pending) >= PARQUET_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            import pyarrow as pa

            self._writer.write_table(pa.Table.from_pylist(self._pending, schema=self._schema))
            self._pending = []

    def close(self) -> None:
        self._flush()
        self._writer.close()


def open_sink(path: str) -> Sink:
    """The sink for ``path``: Parquet for a ``.parquet`` name, JSON Lines otherwise.

    Raises :class:`ImportError` (with the fix) when Parquet is asked for without pyarrow.
    """
    if path.endswith(".parquet"):
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise ImportError(
                f"{path}: writing Parquet needs pyarrow: pip install 'toolwire[parquet]'"
            ) from None
        return ParquetSink(path)
    return JsonLinesSink(path)
