"""The column schema of batch rows: one flat table for every kind of row, stable by version.

An audit of recorded traffic ends in a table (Parquet, a Spark DataFrame, DuckDB over
JSON Lines), and a table needs columns fixed in advance: so every row — a reply's
summary, a call, a server call, a refused item — has the same columns, and a column
that does not apply to a row's kind is null. The schema changes only with
:data:`SCHEMA_VERSION`; new columns are added at the end, none is renamed or retyped.

Types are ``string``, ``int`` (64-bit), ``bool`` and ``json`` (JSON text in a string
column: arguments and provider data have no fixed shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "COLUMNS", "KINDS", "NAMES", "SCHEMA_VERSION", "Column", "empty_row", "markdown_table",
]

SCHEMA_VERSION = 1

KINDS = ("reply", "call", "server_call", "refused")
"""The row kinds, in the order a reply's rows come out: its summary row first."""


@dataclass(frozen=True, slots=True, init=False)
class Column:
    """One column: its ``name``, ``type``, the row ``kinds`` it is set on, and what it means."""

    name: str
    type: str
    kinds: tuple[str, ...]
    description: str

    def __init__(self, name: str, type: str, kinds: tuple[str, ...], description: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "description", description)


_ALL = KINDS
_REPLY = ("reply",)
_CALL = ("call",)
_ITEMS = ("call", "server_call", "refused")

COLUMNS: tuple[Column, ...] = (
    Column("record_id", "string", _ALL,
           "the caller's id of the record (the CLI: `FILE:LINE`, or `--id-field`)"),
    Column("kind", "string", _ALL, "`reply`, `call`, `server_call` or `refused`"),
    Column("format", "string", _ALL, "the wire format read (given or sniffed); null if unknown"),
    Column("error_code", "string", _REPLY,
           "why the record could not be read, a stable code (`unknown_format`,"
           " `malformed_response`, `unmapped_call`, `unknown_item_type`, `bad_record`…);"
           " null when it was read"),
    Column("error_message", "string", _REPLY, "the error's message, naming format, item, field"),
    Column("truncated", "bool", _REPLY, "the reply was cut at its token limit"),
    Column("finish_reason", "string", _REPLY, "the provider's stop reason as sent"),
    Column("n_calls", "int", _REPLY, "client calls in the reply (its `call` rows)"),
    Column("n_runnable", "int", _REPLY, "calls to run"),
    Column("n_dropped", "int", _REPLY, "calls cut off by truncation: neither run nor answered"),
    Column("n_rejected", "int", _REPLY, "calls to answer with an error (undecodable arguments)"),
    Column("n_server_calls", "int", _REPLY, "calls the provider ran itself (`server_call` rows)"),
    Column("n_refused", "int", _REPLY, "items not turned into calls (`refused` rows)"),
    Column("tools_checked", "bool", _REPLY,
           "the request's tool list was checked (`unknown_tool`, `arguments_invalid` are set)"),
    Column("index", "int", _ITEMS, "the row's position among the reply's rows of its kind"),
    Column("item_index", "int", _ITEMS, "the index of the item in the reply, where known"),
    Column("item_type", "string", _ITEMS, "the item's type as the reply names it"),
    Column("location", "string", _ITEMS, "where the item stands in the reply (`output[1]`)"),
    Column("name", "string", ("call", "server_call"), "the tool name"),
    Column("call_id", "string", ("call", "server_call"), "the provider's call id (`\"\"`: none)"),
    Column("arguments", "json", _CALL, "the decoded arguments, a JSON object"),
    Column("raw_arguments", "string", _CALL,
           "the arguments as sent, where recorded: the text itself, or an object's JSON text"),
    Column("arguments_undecodable", "bool", _CALL, "the raw arguments were no JSON object"),
    Column("arguments_error", "string", _CALL, "why they could not be decoded"),
    Column("arguments_error_code", "string", _CALL, "the stable code of that reason"),
    Column("fate", "string", _CALL, "`runnable`, `dropped` or `rejected`"),
    Column("synthetic", "bool", _CALL, "a call toolwire made up (a forced tool's answer)"),
    Column("incomplete", "bool", _CALL, "a streamed call whose end never arrived"),
    Column("unknown_tool", "bool", _CALL, "no offered tool has this name; null: not checked"),
    Column("arguments_invalid", "bool", _CALL,
           "the arguments fail the offered tool's schema; null: not checked"),
    Column("arguments_errors", "json", _CALL,
           "the schema failures: a list of `{pointer, keyword, message}`"),
    Column("provider_data", "json", _CALL, "what the provider needs back on the next turn"),
    Column("status", "string", ("server_call",), "the server call's status as sent"),
    Column("reason", "string", ("refused",), "why the item was refused"),
)
"""Every column, in table order."""

NAMES: tuple[str, ...] = tuple(c.name for c in COLUMNS)

_EMPTY: dict[str, Any] = dict.fromkeys(NAMES)


def empty_row() -> dict[str, Any]:
    """A row with every column, all null: what a compact row is filled up to."""
    return dict(_EMPTY)


def markdown_table() -> str:
    """The schema as docs/batch.md's Markdown table (a test keeps the page's copy current)."""
    lines = ["| column | type | on rows | meaning |", "|---|---|---|---|"]
    for c in COLUMNS:
        kinds = "all" if c.kinds == KINDS else ", ".join(c.kinds)
        lines.append(f"| `{c.name}` | {c.type} | {kinds} | {c.description} |")
    return "\n".join(lines) + "\n"
