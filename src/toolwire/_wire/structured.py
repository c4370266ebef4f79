"""The forced-tool fallback: a reply whose text is the JSON answer, read as a tool call.

A client that needs one tool's arguments and nothing else either forces the tool
(``tool_choice``) or, where forcing is unsupported or unreliable, asks for a response
format (a JSON schema) and gets the arguments back as the reply's *text*. Both should
end in the same place: one :class:`~toolwire.ToolCall` of that tool. This module reads
the text through the spec's declared ``structured_output.text`` selector
(``specs/README.md`` §1.7) and decodes it by the decoding table — a call marked
``synthetic=True``, because no provider sent a call; toolwire made it up from text.

Decoding is never repair: text wrapped in a Markdown fence, cut off at the token limit,
or holding a list makes the call ``arguments_undecodable`` with the reason, exactly as a
provider's broken arguments would. One departure from the table, for this path only: an
empty text is undecodable (``empty text``, code ``unexpected-end``), not ``{}``: the table's
"empty means no arguments" is a provider convention for calls, and an empty answer is no
answer.
"""

from __future__ import annotations

from .._spec import WireSpec
from .._speed import TYPE_CHECKING
from .._values.toolcall import ToolCall
from ..errors import MalformedResponse, NotDeclared
from .reading import choice_view
from .walk import guarded, response_of

if TYPE_CHECKING:
    from typing import Any

__all__ = ["structured_call"]


def _joined(value: Any) -> Any:
    """The selector's value as one text: a list of strings is their concatenation, in
    order (the text parts of a reply), and an empty list is no text at all (null)."""
    if type(value) is list and all(type(v) is str for v in value):
        return "".join(value) if value else None
    return value


def structured_call(spec: WireSpec, data: Any, tool_name: str, choice: int = 0) -> ToolCall:
    """A ``synthetic`` call of ``tool_name`` whose arguments are the reply's JSON text."""
    if not isinstance(tool_name, str) or not tool_name:
        raise ValueError(f"tool_name must be a non-empty str, not {tool_name!r}")
    if spec.structured_output is None:
        raise NotDeclared(
            spec.format, "structured_output", "its replies' text cannot be read as a call"
        )
    response, _ = choice_view(spec, response_of(spec, data), choice)
    try:
        text = _joined(spec.structured_output.evaluate(response))
    except ValueError as exc:
        raise guarded(spec, exc) from None
    if text is None:
        raise MalformedResponse(
            spec.format,
            "the reply carries no text to read as the structured output"
            f" (selector {spec.structured_output.source!r} found nothing)",
            field="structured_output",
        )
    if type(text) is not str:
        kind = "a list holding non-text" if type(text) is list else f"a {type(text).__name__}"
        raise MalformedResponse(
            spec.format,
            f"the structured output selector yields {kind}, not text",
            field="structured_output",
        )
    if text == "":
        return ToolCall(
            tool_name, {}, synthetic=True, arguments_undecodable=True,
            arguments_error="empty text", arguments_error_code="unexpected-end",
            raw_arguments=text,
        )
    call = ToolCall.from_raw(tool_name, text, synthetic=True)
    return call.replace(raw_arguments=text)
