"""The ``head-json`` payload grammar: a head naming the call, a literal, then JSON arguments.

DeepSeek V3 (``function``, the tool-sep token, ``NAME``, a newline, fenced JSON),
DeepSeek V3.1 (``NAME``, tool-sep, JSON), Kimi K2
(``functions.NAME:0<|tool_call_argument_begin|>{…}``)
and Mistral v11 (``NAME[ARGS]{…}``, ``NAME[CALL_ID]ID[ARGS]{…}``) all write the name
before the arguments. So the name is known even when the arguments are not: a block
whose head reads gives a call, and arguments that do not decode make it a call with
``arguments_undecodable`` (the tool loop answers it with an error, or drops it when
the reply was truncated) rather than text the loop never sees.

The payload is ``unfinished`` (specs/README.md §1b.12) when its arguments run into the
end of the block's text: empty there, or JSON the text ends inside; and a body whose
head never ends yields no call but is unfinished too when the block was cut. The JSON
arguments end by their own syntax, so :meth:`HeadGrammar.extent` says where, for a block
whose close marker stands inside them.
"""

from __future__ import annotations

from ..._values.arguments import decode_arguments_coded
from ..._values.jsontext import classify
from ..._values.toolcall import ToolCall
from ..occurrences import Occurrences
from ..typed import Schemas
from .base import (
    RAN_OUT,
    UNFINISHED,
    UNFINISHED_CODE,
    Parsed,
    decode_json_at,
    plausible_name,
    skip_blanks,
)

__all__ = ["HeadGrammar"]


class HeadGrammar:
    """Reads ``HEAD <head_end> ARGUMENTS``; see the module docstring."""

    __slots__ = (
        "_arguments_prefix",
        "_arguments_start",
        "_arguments_suffix",
        "_head_end",
        "_id_from_head",
        "_id_marker",
        "_index_suffix",
        "_name_prefix",
    )

    def __init__(
        self,
        *,
        head_end: tuple[str, ...],
        arguments_start: tuple[str, ...] = (),
        name_prefix: str | None = None,
        index_suffix: str | None = None,
        id_marker: str | None = None,
        id_from_head: bool = False,
        arguments_prefix: str | None = None,
        arguments_suffix: str | None = None,
    ) -> None:
        self._head_end = head_end
        self._arguments_start = arguments_start
        self._name_prefix = name_prefix
        self._index_suffix = index_suffix
        self._id_marker = id_marker
        self._id_from_head = id_from_head
        self._arguments_prefix = arguments_prefix
        self._arguments_suffix = arguments_suffix

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        split = self._split(chunk, 0, len(chunk))
        if split is None:
            return Parsed([], len(chunk), True) if cut else None
        head_stop, rest = split
        named = self._name_and_id(chunk[:head_stop].strip())
        if named is None:
            return None
        name, call_id = named
        raw, end = self._raw_arguments(chunk, rest, fill)
        if raw == "" and cut and end == len(chunk):
            call = ToolCall._trusted(name, {}, call_id, True, UNFINISHED, UNFINISHED_CODE)
            return Parsed([call], end, True)
        arguments, undecodable, error, code = decode_arguments_coded(raw)
        call = ToolCall._trusted(name, arguments, call_id, undecodable, error, code)
        return Parsed([call], end, undecodable and end == len(chunk) and code in RAN_OUT)

    def extent(self, text: str, start: int, limit: int, occ: Occurrences) -> int:
        """Where the call starting at ``start`` of the whole reply ends when its JSON
        arguments are read past any marker (after them blanks and ``arguments_suffix``
        may follow); -1 when they do not read. The head ends before ``limit``: a marker
        stands in the arguments, never in the name."""
        split = self._split(text, start, limit)
        if split is None:
            return -1
        at = skip_blanks(text, split[1])
        prefix, suffix = self._arguments_prefix, self._arguments_suffix
        if prefix and text.startswith(prefix, at):
            at = skip_blanks(text, at + len(prefix))
        code, end = classify(text, at, whole=False)  # reads the value only (see JsonGrammar)
        if code != "ok":
            return -1
        after = skip_blanks(text, end)
        if suffix and text.startswith(suffix, after):
            end = after + len(suffix)
        return end

    def _split(self, chunk: str, begin: int, end: int) -> tuple[int, int] | None:
        """Where the head (from ``begin``, ending before ``end``) stops and the arguments
        start, by the earliest literal.

        The literals are looked for after a leading ``name_prefix``: Step-Audio 2's prefix is
        the line ``function``, and its head ends at the next line break.
        """
        best: tuple[int, int] | None = None
        start = begin
        prefix = self._name_prefix
        if prefix:
            lead = begin
            while lead < end and chunk[lead].isspace():
                lead += 1
            if chunk.startswith(prefix, lead):
                start = lead + len(prefix)
        for marker in self._head_end:
            at = chunk.find(marker, start, end)
            if at != -1 and (best is None or at < best[0]):
                best = (at, at + len(marker))
        for marker in self._arguments_start:
            at = chunk.find(marker, start, end)
            if at != -1 and (best is None or at < best[0]):
                best = (at, at)
        return best

    def _name_and_id(self, head: str) -> tuple[str, str] | None:
        call_id = head if self._id_from_head else ""
        name = head
        if self._id_marker and self._id_marker in head:
            name, _, call_id = head.partition(self._id_marker)
            name, call_id = name.strip(), call_id.strip()
        if self._name_prefix and name.startswith(self._name_prefix):
            name = name[len(self._name_prefix) :].strip()
        if self._index_suffix:
            name, found, index = name.rpartition(self._index_suffix)
            if not found or not (index.isascii() and index.isdigit()):
                return None
        if not plausible_name(name):
            return None
        return name, call_id

    def _raw_arguments(self, chunk: str, start: int, fill: bool) -> tuple[str, int]:
        """The arguments' text, trimmed and unfenced, and where the payload ends.

        Without a close marker (``fill`` false) the arguments are one JSON value and
        what follows it is plain text; if no value decodes there, the rest of the
        block is the arguments (and will not decode, which the call then says).
        """
        end = len(chunk)
        if not fill:
            at = skip_blanks(chunk, start)
            try:
                _, value_end = decode_json_at(chunk, at)
            except ValueError:
                pass
            else:
                start, end = at, value_end
        raw = chunk[start:end].strip()
        prefix, suffix = self._arguments_prefix, self._arguments_suffix
        if prefix and raw.startswith(prefix):
            raw = raw[len(prefix) :].strip()
        if suffix and raw.endswith(suffix):
            raw = raw[: -len(suffix)].strip()
        return raw, end
