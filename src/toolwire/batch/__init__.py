"""Batch reading of recorded replies: one record → flat rows, a stable schema, the CLI's engine.

The face of the subpackage: :func:`rows` (one record → rows, never raising on a bad
record), the column schema (:data:`COLUMNS`, :data:`SCHEMA_VERSION`) and
:func:`run_batch`, which ``toolwire batch`` runs. Spark's entry point is
:mod:`toolwire.spark`. Nothing here is imported by ``import toolwire``.
"""

from __future__ import annotations

from ._records import LineReader, Tally
from ._rows import compact_rows, reply_rows, rows
from ._run import MAX_JOBS_PER_CORE, Progress, WorkerDied, cpu_count, max_jobs, run_batch
from ._schema import COLUMNS, KINDS, NAMES, SCHEMA_VERSION, Column, empty_row
from ._source import MAX_LINE_BYTES, UnreadableInput

__all__ = [
    "COLUMNS",
    "KINDS",
    "MAX_JOBS_PER_CORE",
    "MAX_LINE_BYTES",
    "NAMES",
    "SCHEMA_VERSION",
    "Column",
    "LineReader",
    "Progress",
    "Tally",
    "UnreadableInput",
    "WorkerDied",
    "compact_rows",
    "cpu_count",
    "empty_row",
    "max_jobs",
    "reply_rows",
    "rows",
    "run_batch",
]
