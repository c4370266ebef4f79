"""toolwire on Apache Spark: a ``mapInArrow`` / ``mapInPandas`` function and the rows' schema.

::

    import toolwire.spark
    rows = df.mapInArrow(toolwire.spark.calls_from("response"), toolwire.spark.schema)

gives, for each logged reply in the string column ``response``, the rows of
:func:`toolwire.batch.rows` — a ``reply`` summary row, then one per call, server call and
refused item — under the batch column schema (:data:`toolwire.batch.COLUMNS`). The same
function works with ``mapInPandas``. Nothing here imports pyspark: :data:`schema` is a DDL
string Spark parses itself, and :func:`struct_type` builds the ``StructType`` on demand.
"""

from __future__ import annotations

from typing import Any

from .batch._arrow import RowsFrom, spark_ddl

__all__ = ["RowsFrom", "calls_from", "schema", "struct_type"]

schema: str = spark_ddl()
"""The rows' Spark schema as DDL (``record_id STRING, kind STRING, …``)."""


def calls_from(
    column: str,
    *,
    format: str | None = None,
    format_column: str | None = None,
    tools_column: str | None = None,
    id_column: str | None = None,
    strict: bool | None = None,
) -> RowsFrom:
    """The function for ``df.mapInArrow(…, schema)`` / ``df.mapInPandas(…, schema)``.

    ``column`` holds each reply (JSON text, binary, or a struct); ``format`` pins the wire
    format (default: sniffed per reply) or ``format_column`` names a column holding it;
    ``tools_column`` the request's tool list; ``id_column`` a column copied into
    ``record_id`` (keep your request id there to join the rows back).
    """
    return RowsFrom(column, format=format, format_column=format_column,
                    tools_column=tools_column, id_column=id_column, strict=strict)


def struct_type() -> Any:
    """The rows' schema as a ``pyspark.sql.types.StructType`` (imports pyspark)."""
    from pyspark.sql.types import StructType  # lazy: pyspark only when a StructType is asked for

    return StructType.fromDDL(schema)
