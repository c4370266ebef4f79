"""Batches of logged replies → batches of rows, for Arrow and pandas engines (Spark's mapIn*).

:class:`RowsFrom` is the function Spark's ``mapInArrow`` and ``mapInPandas`` call: an
iterator of input batches in, an iterator of row batches of the batch schema out. It is a
plain class instance (its options as fields), so Spark's pickler ships it by reference to
this module; pyarrow and pandas are imported on the executors, when batches arrive.
The input column holds each reply as JSON text (a string or binary column: what logs
hold) or as a struct (read as a dict); a null is a ``bad_record`` row, as in the CLI.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._rows import compact_rows, dumps
from ._schema import COLUMNS
from ._sink import rows_to_arrow

__all__ = ["RowsFrom", "spark_ddl"]

_SPARK_TYPES = {"string": "STRING", "json": "STRING", "int": "BIGINT", "bool": "BOOLEAN"}


def spark_ddl() -> str:
    """The rows' schema as a Spark DDL string (``mapInArrow`` takes it as it is)."""
    return ", ".join(f"{c.name} {_SPARK_TYPES[c.type]}" for c in COLUMNS)


class RowsFrom:
    """Rows of the replies in column ``column`` of each batch (see the module docstring).

    ``format`` pins one wire format, or ``format_column`` names a column holding each
    record's; ``tools_column`` the request's tool list (JSON text or a list);
    ``id_column`` a column whose value becomes ``record_id`` (as text).
    """

    __slots__ = ("column", "format", "format_column", "id_column", "strict", "tools_column")

    def __init__(
        self,
        column: str,
        *,
        format: str | None = None,
        format_column: str | None = None,
        tools_column: str | None = None,
        id_column: str | None = None,
        strict: bool | None = None,
    ) -> None:
        if not isinstance(column, str) or not column:
            raise TypeError(f"the reply column must be a column name, not {column!r}")
        if format is not None and format_column is not None:
            raise ValueError("format and format_column exclude each other")
        self.column = column
        self.format = format
        self.format_column = format_column
        self.tools_column = tools_column
        self.id_column = id_column
        self.strict = strict

    def __repr__(self) -> str:
        return f"toolwire.spark.calls_from({self.column!r})"

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            if hasattr(batch, "to_pylist"):  # a pyarrow.RecordBatch: mapInArrow
                yield self._arrow(batch)
            else:  # a pandas.DataFrame: mapInPandas
                yield self._pandas(batch)

    def rows(self, columns: dict[str, list[Any]], count: int) -> list[dict[str, Any]]:
        """The compact rows of ``count`` records given as columns of Python values."""
        replies = self._column(columns, self.column)
        formats = columns.get(self.format_column) if self.format_column else None
        tools = columns.get(self.tools_column) if self.tools_column else None
        ids = columns.get(self.id_column) if self.id_column else None
        out: list[dict[str, Any]] = []
        for i in range(count):
            record_id = None
            try:
                record_id = None if ids is None or ids[i] is None else _text(ids[i])
                body = replies[i]
                if body is None:
                    out.append(_error(record_id, "bad_record",
                                      f"column {self.column!r} is null: no reply"))
                    continue
                fmt = formats[i] if formats is not None else self.format
                offered = tools[i] if tools is not None else None
                if isinstance(offered, (str, bytes)):
                    offered = _json_or_as_is(offered)
                out.extend(compact_rows(body, fmt, offered, record_id, self.strict))
            except Exception as exc:  # this record's error row: a task never fails for one
                out.append(_error(record_id, "internal_error", f"{type(exc).__name__}: {exc}"))
        if ids is None:
            for row in out:
                row.pop("record_id", None)
        return out

    def _column(self, columns: dict[str, list[Any]], name: str) -> list[Any]:
        if name not in columns:
            raise KeyError(
                f"toolwire.spark: no column {name!r} in the DataFrame (columns: {sorted(columns)})"
            )
        return columns[name]

    def _needed(self) -> list[str]:
        names = [self.column, self.format_column, self.tools_column, self.id_column]
        return [n for n in names if n is not None]

    def _arrow(self, batch: Any) -> Any:
        present = set(batch.schema.names)
        columns = {n: batch.column(n).to_pylist() for n in self._needed() if n in present}
        return rows_to_arrow(self.rows(columns, batch.num_rows))

    def _pandas(self, frame: Any) -> Any:
        import pandas as pd  # lazy: pandas only for mapInPandas batches
        import pyarrow as pa  # lazy: pyarrow only when batches arrive


        na = pd.NA
        columns = {n: [None if v is na or _nan(v) else v for v in frame[n].tolist()]
                   for n in self._needed() if n in frame.columns}
        table = rows_to_arrow(self.rows(columns, len(frame)))
        nullable = {pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()}
        return table.to_pandas(types_mapper=nullable.get)


def _json_or_as_is(text: str | bytes) -> Any:
    """A tool list logged as JSON text, decoded; other text handed on for read() to report."""
    import json  # lazy: json only for a column that is not text

    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _error(record_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"record_id": record_id, "kind": "reply", "tools_checked": False,
            "error_code": code, "error_message": message}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value)


def _nan(value: Any) -> bool:
    """pandas' float stand-in for a null in an object column."""
    return isinstance(value, float) and value != value
