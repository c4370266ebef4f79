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
import math
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


def _finite_float(text: str) -> float:
    # A literal beyond the float range (1e400) would decode to ±Infinity, which is no
    # more JSON than the Infinity literal: refused the same way, so no ToolCall ever
    # holds a value its to_dict() cannot write back as JSON.
    value = float(text)
    if value in (math.inf, -math.inf):
        raise _NonStandardConstant("number out of range")
    return value


_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
_SCAN: Final[Any] = _DECODER.scan_once  # type: ignore[attr-defined]  # set in __init__


def loads_strict(text: str) -> Any:
    """Parse ``text`` as strict RFC 8259 JSON.

    Raises :class:`ValueError` whose message is the parser's own, without position,
    for text that does not decode (``NaN``, trailing garbage, nesting beyond what the
    interpreter's stack allows).
    """
    try:
        # The common case, a value filling the whole text, straight from the C scanner;
        # anything else (surrounding whitespace, any error) takes the full way below,
        # which gives the exact message. Parsing has no side effects, so once more is safe.
        value, end = _SCAN(text, 0)
        if end == len(text):
            return value
    except Exception:  # the full parse below raises what is due
        pass
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
