"""``read``: the whole reply at once, with every loose end recorded, and the choice read.

:mod:`.interpreter` walks and classifies; this module turns the walk into a
:class:`~toolwire.Reply`. Two rules of its own (``specs/README.md`` §1.3, §1.8):

* **Nothing raises half-way.** A refused item (or an unknown one where the spec fails
  closed) does not stop the walk: every item is classified first, then the first refusal
  is raised with the partial reply attached (``err.reply``), its ``refused`` listing every
  refused item and its reason. A loop can answer the calls it has and report the rest.
* **Alternatives are never ignored silently.** Where the spec declares ``choices`` (the
  list of a reply's alternatives, ``n > 1``), the reply records how many there are, and
  ``choice=k`` reads alternative ``k`` through the very same selectors: the response is
  viewed with that list replaced by the one-element list ``[list[k]]``, so every
  ``choices[0]`` of the spec reads alternative ``k``.
"""

from __future__ import annotations

from .._spec import CallEntry, FailedCall, RefuseEntry, ServerEntry, WireSpec
from .._speed import TYPE_CHECKING
from .._values.records import call_record, item_record
from .._values.reply import (
    CallRecord,
    ItemRecord,
    RefusedItem,
    Reply,
    SkippedItem,
    UnknownItem,
    read_reply_value,
)
from .._values.server_call import ServerToolCall
from .._values.toolcall import ToolCall
from .._values.turn import Turn
from ..errors import MalformedResponse, NotDeclared, ToolwireError, UnmappedCall
from .reply_text import assistant_text
from .walk import (
    built,
    call_name,
    guarded,
    match,
    plain_text,
    refusal,
    refuses_unknown,
    response_of,
    walk_located,
)

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "choice_view", "failed_call", "failed_calls", "read_reply", "server_call", "turn_values",
    "unknown_reason",
]


def _check_choice(choice: Any) -> int:
    if type(choice) is not int:
        raise TypeError(f"choice must be an int, not {type(choice).__name__}")
    if choice < 0:
        raise ValueError(f"choice must be 0 or more, not {choice}")
    return choice


def choice_view(
    spec: WireSpec, response: dict[str, Any], choice: int
) -> tuple[dict[str, Any], int | None]:
    """The response as the spec reads alternative ``choice``, and how many there are.

    The count is ``None`` where the spec declares no ``choices``, and 0 where the list is
    absent or not a list. Asking for an alternative the reply does not hold is a
    :class:`MalformedResponse` naming the count; asking a format without alternatives for
    one other than 0 is :class:`NotDeclared`.
    """
    _check_choice(choice)
    path = spec.choices
    if path is None:
        if choice:
            raise NotDeclared(spec.format, "choices", f"it has no choice {choice} to read")
        return response, None
    parents = [response]
    for step in path[:-1]:
        node = parents[-1].get(step)
        if type(node) is not dict:
            node = {}
        parents.append(node)
    alternatives = parents[-1].get(path[-1])
    count = len(alternatives) if type(alternatives) is list else 0
    if choice == 0:
        return response, count
    if choice >= count:
        raise MalformedResponse(
            spec.format,
            f"choice {choice} asked for, but the reply holds {count} alternative"
            f"{'' if count == 1 else 's'} in {'.'.join(path)}",
            field=".".join(path),
        )
    assert type(alternatives) is list
    # Rebuild the path with shallow copies: the caller's response is never changed.
    value: Any = [alternatives[choice]]
    for parent, step in zip(reversed(parents), reversed(path), strict=True):
        value = {**parent, step: value}
    return value, count


def server_call(entry: ServerEntry, item: dict[str, Any], shown: str | None) -> ServerToolCall:
    server_id = entry.id.evaluate(item)
    return ServerToolCall(
        shown or "",
        server_id if type(server_id) is str else "",
        plain_text(entry.name.evaluate(item)),
        plain_text(entry.status.evaluate(item)),
        item,
        entry.input.evaluate(item) if entry.input is not None else None,
    )


def unknown_reason(spec: WireSpec, item_type: Any) -> str:
    if item_type is None:
        return "the item carries no type, so no entry of the spec can match it"
    if not isinstance(item_type, str):
        return f"the item's type is a {type(item_type).__name__}, not a string"
    return f"the {spec.format} spec lists no item type {str(item_type)!r}"


def failed_calls(spec: WireSpec, response: dict[str, Any]) -> list[SkippedItem]:
    """The calls the reply says the model attempted and that did not come out
    (specs/README.md §1.13): a ``skipped`` record each, about the reply as a whole."""
    return [
        failed_call(failed, failed.reason.evaluate(response) if failed.reason else None)
        for failed in spec.failed_calls if failed.when.evaluate(response) is True
    ]


def failed_call(failed: FailedCall, reason: Any) -> SkippedItem:
    """The ``skipped`` record of one failed call that holds, ``reason`` the value of its
    ``reason`` expression (its own words where that is a non-empty string)."""
    if not isinstance(reason, str) or not reason:
        reason = (f"the reply reports a call the model attempted that did not come out"
                  f" ({failed.type})")
    return SkippedItem(None, "", failed.type, str.__str__(reason))


def turn_values(spec: WireSpec, response: dict[str, Any]) -> dict[str, Any]:
    """Each ``${response:…}`` expression of the spec's ``render`` part on the reply, by its
    text (null ones left out: a null placeholder is absent), for :class:`Turn`."""
    found = {}
    if spec.render is not None:
        for source, expression in spec.render.expressions.items():
            value = expression.evaluate(response)
            if value is not None:
                found[source] = value
    return found


def read_reply(spec: WireSpec, data: Any, strict: bool | None = None, choice: int = 0) -> Reply:
    """Everything at once: calls, server-side calls, truncation and every loose end."""
    whole = response_of(spec, data)
    response, count = choice_view(spec, whole, choice)
    refuse_unknown = refuses_unknown(spec, strict)
    calls: list[ToolCall] = []
    call_records: list[CallRecord] = []
    server_calls: list[ServerToolCall] = []
    unknown_types: list[str] = []
    unknown: list[UnknownItem] = []
    skipped: list[SkippedItem] = []
    refused: list[RefusedItem] = []
    errors: list[UnmappedCall] = []
    records: list[ItemRecord] = []
    echoed: list[Any] | None = [] if spec.render is not None else None
    try:
        for index, key, where, item, item_type in walk_located(spec, response):
            entry = match(spec, item, item_type)
            if echoed is not None and key[2] is None and type(entry) is not CallEntry:
                echoed.append(item)  # a top-level item the turn gives back as it is
            # isinstance: an UnlistedKey is reported by its name (and never matched).
            shown = str(item_type) if isinstance(item_type, str) else None
            if entry is None or type(entry) is RefuseEntry:
                error = refusal(spec, index, key, item_type, entry, refuse_unknown)
                records.append(item_record(
                    index, where, shown, "unknown" if entry is None else "refuse",
                    None if entry is None else entry.index,
                ))
                if error is not None:
                    errors.append(error)
                    refused.append(RefusedItem(index, where, shown, error.code, error.reason))
                else:
                    reason = unknown_reason(spec, item_type)
                    unknown.append(UnknownItem(index, where, shown, reason))
                    if shown is not None and shown not in unknown_types:
                        unknown_types.append(shown)
                continue
            records.append(item_record(index, where, shown, entry.kind, entry.index))
            if type(entry) is CallEntry:
                name = call_name(entry, item)
                if type(name) is not str:
                    skipped.append(SkippedItem(index, where, shown, name[1]))
                    continue
                raw = entry.arguments.evaluate(item)
                if echoed is not None and key[2] is None:
                    echoed.append(len(calls))  # a call item: written back from its call
                calls.append(built(entry, item, name, raw, index))
                call_records.append(call_record(index, where, shown, entry.index, raw is not None))
            elif type(entry) is ServerEntry:
                server_calls.append(server_call(entry, item, shown))
    except ToolwireError:
        if not errors:  # a refusal earlier in response order is the answer: see below
            raise
    except ValueError as exc:
        if not errors:
            raise guarded(spec, exc) from None
    try:
        truncated = spec.truncated is not None and spec.truncated.evaluate(response) is True
        finish = spec.finish_reason.evaluate(response) if spec.finish_reason else None
        if spec.failed_calls:
            skipped.extend(failed_calls(spec, response))
        turn = None if echoed is None else Turn.read(tuple(echoed), turn_values(spec, response))
    except ValueError as exc:
        if not errors:
            raise guarded(spec, exc) from None
        truncated, finish, turn = False, None, None
    reply = read_reply_value(
        spec.format, tuple(calls), tuple(server_calls), truncated, plain_text(finish),
        tuple(unknown_types), tuple(skipped), tuple(records), tuple(unknown), tuple(refused),
        tuple(call_records), choice, count, assistant_text(spec, response), turn,
    )
    if errors:
        first = errors[0]
        first.reply = reply
        raise first
    return reply
