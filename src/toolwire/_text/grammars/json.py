"""The ``json`` payload grammar: call objects written as JSON (Hermes, Llama, Mistral, Granite).

A block holds one JSON value, or several joined by a separator (Llama's ``;``); each
value is a call object or an array of them, as the spec's ``shape`` allows. The name,
arguments and id of a call object are read with the spec's JMESPath expressions, and
the arguments go through the one decoding table every format shares.

A block is all or nothing: if any value is not a call object (invalid JSON, not an
object, no name, a ``when`` that does not hold), the block carries no call and stays
in the text where it was. Splitting a JSON array's text to keep half of it would
hand back a reply that never existed.

A separator made of whitespace only (MiniMax's ``"\n"``) is found in the whitespace
between two values, which is where such a separator stands: one object per line. A spec
may give several separators (Llama's ``;`` and a line break).

A value the block's text ends inside (a call object cut at the token limit, or ended by
the block's close marker) is read for what it wrote whole (:mod:`.partial_json`): the
call objects before the cut are calls, and an object cut after its name is a call with
``call-unfinished`` arguments; an object cut before its name yields nothing. The block is
then ``unfinished`` (specs/README.md §1b.12).

With ``single_key`` a call object is ``{"NAME": ARGUMENTS}``, one key (Apertus).

With ``arguments_keys`` the spec names the keys a call object may carry its arguments
under (Hermes: ``arguments``, then ``parameters`` as Llama-style models write it). An
object with none of them is a call without arguments only if every key it holds is one
of ``call_keys`` (name, id, type); one that holds some other key put its arguments
somewhere the spec does not know, and becomes a call with ``arguments_undecodable``
naming that key: arguments are never emptied silently.

A number beyond the float range (``1e400``) would decode to infinity, which the
decoding table refuses (§1.4): the call object is read again leniently, and a call
whose arguments hold such a number is kept with ``arguments_undecodable``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from ..._expression import Expression
from ..._values.arguments import decode_arguments_coded
from ..._values.jsontext import classify
from ..._values.toolcall import ToolCall
from ..occurrences import Occurrences
from ..typed import Schemas
from .base import (
    OUT_OF_RANGE,
    OUT_OF_RANGE_CODE,
    RAN_OUT,
    UNFINISHED,
    UNFINISHED_CODE,
    OutOfRange,
    Parsed,
    decode_json_at,
    decode_json_lenient_at,
    has_infinity,
    skip_blanks,
)
from .partial_json import read_partial

__all__ = ["JsonGrammar"]

SHAPES: Final = frozenset({"object", "array", "object-or-array"})
DEFAULT_CALL_KEYS: Final = ("name", "id", "type")
JSON_BLANKS: Final = " \t\n\r"
"""JSON's whitespace: a separator made only of it is looked for between values (§1b.6)."""
MISPLACED_CODE: Final = "arguments-key-unknown"
"""``arguments_error_code`` of a call object whose arguments sit under a key the spec does
not accept."""


class JsonGrammar:
    """Reads JSON call objects; see the module docstring."""

    __slots__ = (
        "_arguments",
        "_arguments_keys",
        "_arrays",
        "_blank_separators",
        "_call_keys",
        "_id",
        "_name",
        "_objects",
        "_separated",
        "_single_key",
        "_starts",
        "_when",
    )

    def __init__(
        self,
        *,
        shape: str,
        separator: str | tuple[str, ...] | None,
        when: Expression | None,
        name: Expression,
        arguments: Expression | None,
        id: Expression | None,
        arguments_keys: tuple[str, ...] = (),
        call_keys: tuple[str, ...] = DEFAULT_CALL_KEYS,
        single_key: bool = False,
    ) -> None:
        if shape not in SHAPES:
            raise ValueError(f"unknown JSON shape {shape!r}")
        self._objects = shape != "array"
        self._arrays = shape != "object"
        # the first character of a value the shape takes (an object, an array)
        self._starts = frozenset(("{",) * self._objects + ("[",) * self._arrays)
        separators = (separator,) if isinstance(separator, str) else tuple(separator or ())
        # A blank separator ("\n": one object per line) lies in the blanks between two
        # values; any other is blanks, the separator, blanks: one match where skip_blanks,
        # startswith and skip_blanks were three calls (possessive: skip_blanks gives
        # nothing back).
        self._blank_separators = tuple(
            s for s in separators if s and not s.strip(JSON_BLANKS)
        )
        others = [s for s in separators if s.strip(JSON_BLANKS)]
        self._separated = (
            re.compile(
                r"[ \t\n\r]*+(?:" + "|".join(re.escape(s) for s in others) + r")[ \t\n\r]*+"
            )
            if others else None
        )
        self._when = when
        self._name = name
        self._arguments = arguments
        self._id = id
        self._arguments_keys = arguments_keys
        self._call_keys = frozenset(call_keys) | frozenset(arguments_keys)
        self._single_key = single_key

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        try:
            values, end, cut_at, stray = self._values(chunk, decode_json_at, 0)
            lenient = False
        except OutOfRange:
            values, end, cut_at, stray = self._values(chunk, decode_json_lenient_at, 0)
            lenient = True
        if not values and cut_at == -1:
            return None
        if cut_at == -1 and fill and skip_blanks(chunk, end) != len(chunk):
            return None
        calls: list[ToolCall] = []
        for value in values:
            items = self._items(value)
            if items is None:
                return None
            for item in items:
                call = self._call(item, lenient)
                if call is None:
                    return None
                calls.append(call)
        if cut_at == -1:
            return Parsed(calls, end, False, -1 if fill else stray)
        partial = read_partial(chunk, cut_at)
        if partial is not None and partial.value:
            items = self._items(partial.value)
            if items is None:  # a value of a shape the spec does not take: not a call
                return None
            for item in items:
                if id(item) in partial.open:  # the object the text ends inside
                    call = self._unfinished(item)
                    if call is not None:
                        calls.append(call)
                    break
                call = self._call(item, lenient)
                if call is None:
                    return None
                calls.append(call)
        return Parsed(calls, len(chunk), True)

    def starts_value(self, chunk: str) -> bool:
        """Whether a value of the spec's shape starts ``chunk`` (blanks aside): the reply's
        start is then a call region (specs/README.md §1b.12)."""
        return chunk[skip_blanks(chunk, 0) :][:1] in self._starts

    def extent(self, text: str, start: int, limit: int, occ: Occurrences) -> int:
        """Where the values starting at ``start`` of the whole reply end, read past any
        marker; -1 when none reads.

        Found by :func:`~toolwire._values.jsontext.classify`, which reads only the value: the C
        decoder's error counts the lines of the whole reply up to where it failed."""
        end = _value_end(text, skip_blanks(text, start), self._starts)
        if end == -1:
            return -1
        separated, blanks = self._separated, self._blank_separators
        while separated is not None or blanks:
            match = separated.match(text, end) if separated is not None else None
            if match is not None:
                at = match.end()
            elif blanks:
                at = skip_blanks(text, end)
                if not any(text.find(s, end, at) != -1 for s in blanks):
                    break
            else:
                break
            after = _value_end(text, at, self._starts)
            if after == -1:
                break
            end = after
        return end

    def _items(self, value: Any) -> list[Any] | None:
        """The call objects a top-level value holds, as the shape allows; None if it may not."""
        if isinstance(value, dict) and self._objects:
            return [value]
        if isinstance(value, list) and self._arrays and value:
            return value
        return None

    def _values(
        self, chunk: str, decode: Decode, start: int, *, partial: bool = True
    ) -> tuple[list[Any], int, int, int]:
        """The top-level values from ``start``, where the last one ends, where a value the
        text ends inside starts, and where one after a separator starts that does not decode
        (each -1 when there is none).

        Raises :class:`OutOfRange` when a value holds a number beyond the float range.
        """
        at = skip_blanks(chunk, start)
        starts = self._starts
        if chunk[at : at + 1] not in starts:  # no value of the shape starts here: no decoding
            return [], 0, -1, -1
        try:
            value, end = decode(chunk, at)
        except OutOfRange:
            raise
        except ValueError as exc:
            ran_out = partial and _fault_code(exc, chunk, at) in RAN_OUT
            return [], 0, at if ran_out else -1, -1
        values = [value]
        separated = self._separated
        blanks = self._blank_separators
        while separated is not None or blanks:
            match = separated.match(chunk, end) if separated is not None else None
            if match is not None:
                at = match.end()
            elif blanks:
                # One object per line: the separator lies in the blanks after the value.
                at = skip_blanks(chunk, end)
                if not any(chunk.find(s, end, at) != -1 for s in blanks):
                    break
            else:
                break
            if chunk[at : at + 1] not in starts:
                break  # a separator not followed by a value is plain text
            try:
                value, after = decode(chunk, at)
            except OutOfRange:
                raise
            except ValueError as exc:
                if partial and _fault_code(exc, chunk, at) in RAN_OUT:
                    return values, end, at, -1
                return values, end, -1, at  # a value that does not decode: text
            values.append(value)
            end = after
        return values, end, -1, -1

    def _unfinished(self, item: Any) -> ToolCall | None:
        """The call an object cut inside names, with ``call-unfinished`` arguments; None
        when its name (or a ``when`` the members read so far satisfy) is not there."""
        if not isinstance(item, dict):
            return None
        try:
            if self._when is not None and self._when.evaluate(item) is not True:
                return None
            if self._single_key:
                if len(item) != 1:
                    return None
                name = next(iter(item))
            else:
                name = self._name.evaluate(item)
            call_id = self._id.evaluate(item) if self._id is not None else ""
        except (ValueError, TypeError, RecursionError):
            return None
        if not isinstance(name, str) or not name:
            return None
        if not isinstance(call_id, str):
            call_id = ""
        return ToolCall._trusted(name, {}, call_id, True, UNFINISHED, UNFINISHED_CODE)

    def _call(self, item: Any, lenient: bool) -> ToolCall | None:
        if not isinstance(item, dict):
            return None
        # Expression.evaluate is the compiled closure: called directly, one frame less per
        # expression and call object.
        when = self._when
        try:
            if when is not None and when.evaluate(item) is not True:
                return None
            if self._single_key:
                if len(item) != 1:
                    return None
                ((name, raw_arguments),) = item.items()
            else:
                name = self._name.evaluate(item)
                expression = self._arguments
                raw_arguments = (
                    expression.evaluate(item) if expression is not None
                    else self._raw_arguments(item)
                )
            call_id = self._id.evaluate(item) if self._id is not None else ""
        except (ValueError, TypeError, RecursionError):
            return None  # a function given the wrong type at run time: not a call object
        if not isinstance(name, str) or not name:
            return None
        if not isinstance(call_id, str):
            call_id = ""
        if isinstance(raw_arguments, _Misplaced):
            return ToolCall._trusted(
                name, {}, call_id, True, raw_arguments.message, MISPLACED_CODE
            )
        if lenient and has_infinity(raw_arguments):
            return ToolCall._trusted(name, {}, call_id, True, OUT_OF_RANGE, OUT_OF_RANGE_CODE)
        if type(raw_arguments) is dict:  # what decode_arguments_coded returns for a dict
            return ToolCall._trusted(name, raw_arguments, call_id, False, None)
        arguments, undecodable, error, code = decode_arguments_coded(raw_arguments)
        # The arguments dict comes from this block's own fresh parse: nobody else holds it.
        return ToolCall._trusted(name, arguments, call_id, undecodable, error, code)

    def _raw_arguments(self, item: dict[str, Any]) -> Any:
        """The raw arguments by the spec's expression or its first present key."""
        keys = self._arguments_keys
        if self._arguments is not None:
            return self._arguments.evaluate(item)
        for key in keys:
            if key in item:
                return item[key]
        stray = [key for key in item if key not in self._call_keys]
        if not stray:
            return None
        accepted = ", ".join(repr(key) for key in keys)
        held = ", ".join(repr(key) for key in stray[:4])
        return _Misplaced(f"the call object has no arguments key ({accepted}) but holds {held}")


def _fault_code(exc: ValueError, chunk: str, at: int) -> str | None:
    """The §1.4.1 code of a value that did not decode: the strict decoder's, or (the lenient
    one's errors carry none) the classifier's, numbers beyond the double range allowed."""
    code = getattr(exc, "code", None)
    if code is None:
        code = classify(chunk, at, whole=False, infinite=True)[0]
    return code if isinstance(code, str) else None


def _value_end(text: str, at: int, starts: frozenset[str]) -> int:
    """The end of the JSON value of a shape ``starts`` allows at ``at``, or -1."""
    if text[at : at + 1] not in starts:
        return -1
    code, end = classify(text, at, whole=False)
    return end if code == "ok" else -1


class _Misplaced:
    """Arguments under a key the spec does not accept; carries the message."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


Decode = Callable[[str, int], tuple[Any, int]]
