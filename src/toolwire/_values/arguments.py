"""Turning a provider's raw ``arguments`` value into a JSON object, or saying why not.

One table governs every wire format and every text format (specs/README.md §1.4):

=====================================  ==========  ============  ======================
raw arguments                          arguments   undecodable   arguments_error_code
=====================================  ==========  ============  ======================
absent / None / ``""``                 ``{}``      no            None
a dict (already decoded)               it          no            None
a str decoding to a JSON object        it          no            None
a str decoding to a non-object         ``{}``      yes           ``not-an-object``
a str that does not decode             ``{}``      yes           the fault's code
anything else (list, number, bool)     ``{}``      yes           ``not-an-object``
=====================================  ==========  ============  ======================

Decoding is strict RFC 8259 with the portable limits of :mod:`toolwire._values.jsontext`;
the code is stable across languages and the ``arguments_error`` message is the
code's sentence (``a string is not terminated``), stable enough to show a model.
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING
from .jsontext import JsonFault, loads

if TYPE_CHECKING:
    from typing import Any, Final

    DecodedArguments = tuple[dict[str, Any], bool, "str | None"]
    """``(arguments, undecodable, error)`` as the table above gives them."""
    CodedArguments = tuple[dict[str, Any], bool, "str | None", "str | None"]
    """``(arguments, undecodable, error, error_code)``."""
else:  # the names exist at run time too, without importing typing for Any
    DecodedArguments = CodedArguments = tuple

__all__ = [
    "NOT_AN_OBJECT",
    "DecodedArguments",
    "decode_arguments",
    "decode_arguments_coded",
    "loads_strict",
]

NOT_AN_OBJECT: Final = "not a JSON object"
NOT_AN_OBJECT_CODE: Final = "not-an-object"


def loads_strict(text: str) -> Any:
    """Parse ``text`` as strict RFC 8259 JSON within the portable limits.

    Raises :class:`toolwire._values.jsontext.JsonFault` (a :class:`ValueError` with a ``code``)
    for text that does not decode.
    """
    return loads(text)


def decode_arguments_coded(raw: Any) -> CodedArguments:
    """Apply the decoding table to one raw ``arguments`` value, with the fault's code.

    A dict is returned as given: callers that hand over a dict they still own copy it
    themselves (``ToolCall`` does).
    """
    if raw is None or raw == "":
        return {}, False, None, None
    if isinstance(raw, dict):
        return raw, False, None, None
    if isinstance(raw, str):
        try:
            value = loads(raw)
        except JsonFault as fault:
            return {}, True, str(fault), fault.code
        if isinstance(value, dict):
            return value, False, None, None
    return {}, True, NOT_AN_OBJECT, NOT_AN_OBJECT_CODE


def decode_arguments(raw: Any) -> DecodedArguments:
    """Apply the decoding table: ``(arguments, undecodable, error)``, without the code."""
    arguments, undecodable, error, _ = decode_arguments_coded(raw)
    return arguments, undecodable, error
