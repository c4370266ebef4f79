"""Names written as quoted attributes: ``<invoke name="f">``, ``name="city" string="true"``.

MiniMax-M2, Step-3 and DeepSeek-V3.2 put a function's or a parameter's name in a quoted
attribute, and DeepSeek-V3.2 adds ``string="true|false"`` to each parameter, saying
whether its value is a string as written or JSON. The tag text between the marker
that opens it and its ``>`` is read here: the first token is the name (quotes, single
or double, removed), the rest ``key="value"`` attributes. An unquoted first token is
the name as written, as the engines read it.
"""

from __future__ import annotations

__all__ = ["read_tag"]


def read_tag(text: str, name_attribute: str | None = None) -> tuple[str, dict[str, str]] | None:
    """``(name, attributes)`` of a tag's text, or None when it does not read.

    With ``name_attribute`` the text is attributes only and the name is that one's
    value (Kimi K3's ``tool="python" index="1"``).
    """
    text = text.strip()
    if not text:
        return None
    if name_attribute is not None:
        attributes = _attributes(text)
        if attributes is None or name_attribute not in attributes:
            return None
        return attributes.pop(name_attribute), attributes
    if text[0] in "\"'":
        close = text.find(text[0], 1)
        if close == -1:
            return None
        name, rest = text[1:close], text[close + 1 :]
    else:
        cut = len(text)
        for i, char in enumerate(text):
            if char.isspace():
                cut = i
                break
        name, rest = text[:cut], text[cut:]
    attributes = _attributes(rest)
    return None if attributes is None else (name, attributes)


def _attributes(rest: str) -> dict[str, str] | None:
    """``key="value"`` pairs separated by blanks, or None when the text is not that."""
    attributes: dict[str, str] = {}
    rest = rest.strip()
    while rest:
        key, equals, after = rest.partition("=")
        key = key.strip()
        after = after.lstrip()
        if not equals or not key or not after or after[0] not in "\"'":
            return None
        close = after.find(after[0], 1)
        if close == -1:
            return None
        attributes[key] = after[1:close]
        rest = after[close + 1 :].strip()
    return attributes
