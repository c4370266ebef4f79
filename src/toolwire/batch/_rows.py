"""One recorded reply → flat rows: a summary row, then one row per call, server call, refused item.

This is the unit every batch engine runs (the CLI's worker processes, Spark's Arrow
batches, a user's own pool): a pure module-level function, so it pickles by name, with
no state but the registry each process builds once. A record that cannot be read is
never an exception here: it is a summary row carrying the error's code and message, so
a run over millions of records never stops at the first bad one and never loses one.

Rows come out *compact* from :func:`compact_rows` (null columns left out, which is what
the JSON Lines writer wants and what costs least) and full from :func:`rows`.
"""

from __future__ import annotations

import json
from typing import Any

from .._registry.registry import Registry
from .._values.reply import ItemRecord, Reply
from .._values.toolcall import ToolCall
from ..errors import ToolwireError
from ._schema import NAMES

__all__ = ["compact_rows", "reply_rows", "rows"]


def _encoder() -> Any:
    """Compact JSON text of a JSON value, at the C encoder's own speed.

    ``json.dumps`` spends half of its time on a small row in Python-level setup; calling
    the C encoder it builds directly skips that (ASCII output: the escape path of the C
    encoder is also its fastest). Falls back to the plain encoder where there is no C one.
    """
    plain = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain.encode
    try:
        fast = make(None, plain.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                    False, False, False)
    except TypeError:  # another signature in another Python
        return plain.encode
    join = "".join

    def dumps(value: Any) -> str:
        return join(fast(value, 0))

    return dumps if dumps({"a": [1, "é"]}) == plain.encode({"a": [1, "é"]}) else plain.encode


dumps = _encoder()


def rows(
    body: Any,
    format: str | None = None,
    tools: Any = None,
    *,
    record_id: str | None = None,
    strict: bool | None = None,
    registry: Registry | None = None,
) -> list[dict[str, Any]]:
    """The rows of one record, every column present (see :mod:`toolwire.batch.schema`).

    ``body`` is the reply as a dict or as JSON text (str or bytes); ``format`` names its
    wire format (``None`` sniffs it); ``tools`` is the request's tool list (or body), the
    calls checked against it by ``read(..., tools=)``; without it ``tools_checked`` is false
    and the verdict columns stay null.
    """
    return [
        {name: row.get(name) for name in NAMES}
        for row in compact_rows(body, format, tools, record_id, strict, registry)
    ]


def compact_rows(
    body: Any,
    format: str | None = None,
    tools: Any = None,
    record_id: str | None = None,
    strict: bool | None = None,
    registry: Registry | None = None,
) -> list[dict[str, Any]]:
    """As :func:`rows`, with the null columns left out (the JSON Lines form)."""
    reg = registry or Registry.default()
    checked = tools is not None
    try:
        if checked:
            reply = reg.read(format, body, strict=strict, tools=tools)
        else:
            reply = reg.read(format, body, strict=strict)
        return reply_rows(reply, record_id, tools_checked=checked)
    except ToolwireError as exc:
        return _error_rows(exc, exc.code, record_id, format, checked)
    except (TypeError, ValueError) as exc:  # a record of the wrong shape: not a reply at all
        return _error_rows(exc, "bad_record", record_id, format, checked)
    except Exception as exc:  # a bug or a hostile record (RecursionError): reported, not fatal
        return _error_rows(exc, "internal_error", record_id, format, checked)


def reply_rows(
    reply: Reply, record_id: str | None = None, *, tools_checked: bool = False
) -> list[dict[str, Any]]:
    """The compact rows of a reply already read."""
    fmt = reply.format
    calls = reply.calls
    fates = reply.fates()
    out: list[dict[str, Any]] = []
    summary: dict[str, Any] = {
        "record_id": record_id, "kind": "reply", "format": fmt, "truncated": reply.truncated,
        "n_calls": len(calls), "n_runnable": fates.count("runnable"),
        "n_dropped": fates.count("dropped"), "n_rejected": fates.count("rejected"),
        "n_server_calls": len(reply.server_calls), "tools_checked": tools_checked,
    }
    if reply.finish_reason is not None:
        summary["finish_reason"] = reply.finish_reason
    out.append(summary)
    call_items, server_items, unknown_items = _items_by_kind(reply)
    for index, call in enumerate(calls):
        out.append(_call_row(call, index, fates[index], call_items[index] if call_items else None,
                             fmt, record_id, tools_checked))
    paired = len(server_items) == len(reply.server_calls)
    for index, server in enumerate(reply.server_calls):
        row = {"record_id": record_id, "kind": "server_call", "format": fmt, "index": index,
               "item_type": server.type, "call_id": server.id}
        if paired:
            row["item_index"] = server_items[index].item_index
            row["location"] = server_items[index].location
        if server.name is not None:
            row["name"] = server.name
        if server.status is not None:
            row["status"] = server.status
        out.append(row)
    refused = _refused(reply, unknown_items, record_id) if reply.skipped or unknown_items else []
    for index, row in enumerate(refused):
        row["index"] = index
        row["format"] = fmt
        out.append(row)
    summary["n_refused"] = len(refused)
    if record_id is None:
        for row in out:
            del row["record_id"]
    return out


def _items_by_kind(reply: Reply) -> tuple[list[ItemRecord], list[ItemRecord], list[ItemRecord]]:
    """The reply's call, server and unknown item records; the call items only when they pair
    up one to one with the calls (else none: the item columns come from the calls' own)."""
    call_items: list[ItemRecord] = []
    server_items: list[ItemRecord] = []
    unknown_items: list[ItemRecord] = []
    for record in reply.items:  # one pass; the records are in reply order
        kind = record.kind
        if kind == "calls":
            call_items.append(record)
        elif kind == "server_side":
            server_items.append(record)
        elif kind == "unknown":
            unknown_items.append(record)
    if reply.skipped and call_items:  # each call item gives a call or a skipped item
        skipped = {s.location for s in reply.skipped}
        call_items = [r for r in call_items if r.location not in skipped]
    if len(call_items) != len(reply.calls):
        call_items = []  # they do not pair up: leave the item columns to the calls' own
    return call_items, server_items, unknown_items


def _call_row(call: ToolCall, index: int, fate: str, record: ItemRecord | None, fmt: str,
              record_id: str | None, tools_checked: bool) -> dict[str, Any]:
    """The row of one call: its fields, and its item's place when the items pair up."""
    row: dict[str, Any] = {
        "record_id": record_id, "kind": "call", "format": fmt, "index": index,
        "name": call.name, "call_id": call.id, "arguments": dumps(call._arguments),
        "arguments_undecodable": call.arguments_undecodable, "fate": fate,
        "synthetic": call.synthetic, "incomplete": call.incomplete,
    }
    if record is not None:
        row["item_index"] = record.item_index
        row["location"] = record.location
        if record.item_type is not None:
            row["item_type"] = record.item_type
    elif call.item_index is not None:
        row["item_index"] = call.item_index
    raw = call._raw_arguments
    if raw is not None:
        row["raw_arguments"] = raw if type(raw) is str else dumps(raw)
    if call.arguments_error is not None:
        row["arguments_error"] = call.arguments_error
    if call.arguments_error_code is not None:
        row["arguments_error_code"] = call.arguments_error_code
    if tools_checked:
        row["unknown_tool"] = call.unknown_tool
        row["arguments_invalid"] = call.arguments_invalid
    if call.arguments_errors:
        row["arguments_errors"] = dumps([e.to_dict() for e in call.arguments_errors])
    if call._provider_data:
        row["provider_data"] = dumps(call._provider_data)
    return row


def _refused(
    reply: Reply, unknown_items: list[ItemRecord], record_id: str | None
) -> list[dict[str, Any]]:
    """Items the spec did not turn into calls: skipped (no usable name) and unknown types."""
    found: list[tuple[int, dict[str, Any]]] = []
    for skip in reply.skipped:
        # A failed call the reply reports (item_index None) is about the reply: it goes last.
        at = skip.item_index if skip.item_index is not None else len(reply.items)
        found.append((at, _refused_row(
            skip.item_index, skip.item_type, skip.location, skip.reason, record_id)))
    for record in unknown_items:
        what = repr(record.item_type) if record.item_type is not None else "none"
        found.append((record.item_index, _refused_row(
            record.item_index, record.item_type, record.location,
            f"unknown item type {what}: no entry of the spec lists it", record_id)))
    found.sort(key=lambda pair: pair[0])
    return [row for _index, row in found]


def _refused_row(
    item_index: int | None, item_type: str | None, location: str | None, reason: str,
    record_id: str | None = None,
) -> dict[str, Any]:
    row: dict[str, Any] = {"record_id": record_id, "kind": "refused", "reason": reason}
    if item_index is not None:
        row["item_index"] = item_index
    if item_type is not None:
        row["item_type"] = item_type
    if location:
        row["location"] = location
    return row


def _error_rows(
    exc: BaseException, code: str, record_id: str | None, format: str | None, checked: bool
) -> list[dict[str, Any]]:
    """A record that could not be read: its summary row with the error, and what it holds.

    An :class:`~toolwire.errors.UnmappedCall` may carry the partial reply (``exc.reply``): its
    rows come out too, and the unmapped item itself as a refused row.
    """
    message = str(exc) if code != "internal_error" else f"{type(exc).__name__}: {exc}"
    partial = getattr(exc, "reply", None)
    out: list[dict[str, Any]] = (
        reply_rows(partial, record_id, tools_checked=checked) if isinstance(partial, Reply)
        else [{"record_id": record_id, "kind": "reply", "tools_checked": checked}]
    )
    summary = out[0]
    if record_id is None:
        summary.pop("record_id", None)
    fmt = getattr(exc, "format", None) or format
    if isinstance(fmt, str):
        summary["format"] = fmt
    summary["error_code"] = code
    summary["error_message"] = message
    item_index = getattr(exc, "item_index", None)
    reason = getattr(exc, "reason", None)
    if code in ("unmapped_call", "unknown_item_type") and isinstance(reason, str):
        already = {r.get("item_index") for r in out if r["kind"] == "refused"}
        if item_index not in already:
            row = _refused_row(item_index if type(item_index) is int else None,
                               getattr(exc, "item_type", None),
                               getattr(exc, "location", None), reason, record_id)
            if record_id is None:
                del row["record_id"]
            row["index"] = summary.get("n_refused", 0)
            if isinstance(fmt, str):
                row["format"] = fmt
            out.append(row)
            summary["n_refused"] = summary.get("n_refused", 0) + 1
    return out
