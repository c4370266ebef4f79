"""Ids for calls that came without one (Gemini's, model text's), the same in every language.

A result is paired with its call by id in most formats, so a call without one cannot be
answered there. :func:`mint_id` gives the deterministic id of specs/README.md §6.3 — the same
reply always gets the same ids, so the assistant turn and the answers agree, and a gateway can
pair the results that come back — and :func:`with_ids` gives one to each call without an id,
by ``"mint"`` or by the caller's function. ``convert(..., ids=)`` and ``read(...,
text_format=, ids=)`` both go through here.
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING
from .toolcall import ToolCall

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    IdGiver = str | Callable[[ToolCall, int], str]

__all__ = ["arguments_text", "mint_id", "with_ids"]


def arguments_text(call: ToolCall) -> str:
    """The call's arguments as text, as a render template's ``call.arguments_text`` writes
    them: raw text byte for byte, any other raw JSON value (or else the decoded arguments)
    as compact JSON."""
    raw = call.raw_arguments
    if isinstance(raw, str):
        return raw
    value: Any = raw if raw is not None else call.arguments
    import json  # lazy: the json package (0.6x a cold start) only where arguments are written

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def mint_id(call: ToolCall, index: int) -> str:
    """The id ``ids="mint"`` gives the call at ``index`` (specs/README.md §6.3): the first 9
    hexadecimal digits of the SHA-256 of ``index``, the name and the arguments text, one per
    line. Nine alphanumerics: what the strictest provider accepts (Mistral's
    ``^[a-zA-Z0-9]{9}$``)."""
    import hashlib  # lazy: hashlib (3 ms) only for minted ids

    seed = f"{index}\n{call.name}\n{arguments_text(call)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(seed).hexdigest()[:9]


def with_ids(
    calls: Sequence[ToolCall], ids: IdGiver, given: Sequence[bool], taken: set[str],
) -> tuple[ToolCall, ...] | str:
    """``calls`` with each call at a position where ``given`` is true and that has no id
    given one by ``ids`` (``"mint"``, or a function of the call and its index), no id in
    ``taken`` (which grows by each one given); a minted id already taken is the one of the
    index plus a multiple of ``len(calls)``. A function's bad id is returned as the
    sentence that says so, for the caller's error."""
    found: list[ToolCall] = []
    for index, call in enumerate(calls):
        if call.id or not given[index]:
            found.append(call)
            continue
        if ids == "mint":
            new, salt = mint_id(call, index), 0
            while new in taken:  # two calls alike in every field: the next index's id
                salt += 1
                new = mint_id(call, index + salt * len(calls))
        else:
            new = ids(call, index)  # type: ignore[operator]
            if not isinstance(new, str) or not new or new in taken:
                return (f"ids() gave {new!r} for call {index} ({call.name}): an id must be a"
                        " non-empty string no other call has")
        taken.add(new)
        found.append(call.replace(id=new))
    return tuple(found)
