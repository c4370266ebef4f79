"""Turning a provider's raw ``arguments`` value into a JSON object, or saying why not.

One table governs every wire format and every text format (DESIGN.md §1):

=====================================  ==========  ============  ====================
raw arguments                          arguments   undecodable   arguments_error
=====================================  ==========  ============  ====================
absent / None / ``""``                 ``{}``      no            None
a dict (already decoded)               it          no            None
a str decoding to a JSON object        it          no            None
a str decoding to a non-object         ``{}``      yes           ``not a JSON object``
a str that does not decode             ``{}``      yes           the parser's message
anything else (list, number, bool)     ``{}``      yes           ``not a JSON object``
=====================================  ==========  ============  ====================

Decoding is strict RFC 8259: ``NaN`` and ``Infinity`` are refused, and the error text
is the parser's message without its line and column (``Expecting ',' delimiter``),
so the text is stable enough to show a model in an error result.
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = ["NOT_AN_OBJECT", "DecodedArguments", "decode_arguments", "loads_strict"]

NOT_AN_OBJECT: Final = "not a JSON object"
TOO_DEEP: Final = "nesting too deep"

DecodedArguments = tuple[dict[str, Any], bool, "str | None"]
"""``(arguments, undecodable, error)`` as the table above gives them."""


class _NonStandardConstant(ValueError):
    """Raised from the parser when it meets NaN or ±Infinity."""


def _refuse_constant(name: str) -> Any:
    raise _NonStandardConstant(f"{name} is not valid JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant)


def loads_strict(text: str) -> Any:
    """Parse ``text`` as strict RFC 8259 JSON.

    Raises :class:`ValueError` whose message is the parser's own, without position,
    for text that does not decode (``NaN``, trailing garbage, nesting beyond what the
    interpreter's stack allows).
    """
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise ValueError(exc.msg) from None
    except _NonStandardConstant as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError(TOO_DEEP) from None


def decode_arguments(raw: Any) -> DecodedArguments:
    """Apply the decoding table to one raw ``arguments`` value.

    A dict is returned as given: callers that hand over a dict they still own copy it
    themselves (``ToolCall`` does).
    """
    if raw is None or raw == "":
        return {}, False, None
    if isinstance(raw, dict):
        return raw, False, None
    if isinstance(raw, str):
        try:
            value = loads_strict(raw)
        except ValueError as exc:
            return {}, True, str(exc)
        if isinstance(value, dict):
            return value, False, None
        return {}, True, NOT_AN_OBJECT
    return {}, True, NOT_AN_OBJECT
