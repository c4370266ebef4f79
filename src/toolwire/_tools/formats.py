"""The string ``format`` s a tool call's arguments are checked against.

JSON Schema makes ``format`` an annotation unless a validator chooses to assert it, and
jsonschema's own checkers depend on which optional packages happen to be installed. So
toolwire asserts exactly the formats the providers document for tool schemas — OpenAI's
strict mode (``date-time``, ``time``, ``date``, ``duration``, ``email``, ``hostname``,
``ipv4``, ``ipv6``, ``uuid``) and Anthropic's (the same, and ``uri``) — each by the rule
written here and in specs/README.md §8.2, the same in every implementation; any other
``format`` stays an annotation. Every check is linear in the text.

Digits are the ASCII ``0``-``9`` only (RFC 3339's and RFC 5234's ``DIGIT``): the patterns
with ``\\d`` are compiled with :data:`re.ASCII`, since ``\\d`` alone also matches every other
Unicode decimal digit (fullwidth, Arabic-Indic, ...), which ``int()`` then reads as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["FORMATS", "check_format"]

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_TIME = re.compile(
    r"(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))", re.ASCII
)
_DURATION = re.compile(
    r"P(?:\d+W|(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?"
    r"|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))",
    re.ASCII,
)
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*|\"(?:[^\"\\\r\n]|\\[^\r\n])*\"")
_IPV4 = re.compile(r"(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}", re.ASCII)
_HEX4 = re.compile(r"[0-9A-Fa-f]{1,4}")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_URI = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*"
)
_DAYS: Final = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date(text: str) -> bool:
    """RFC 3339 ``full-date``, the day existing in its month (29 February in leap years)."""
    match = _DATE.fullmatch(text)
    if match is None:
        return False
    year, month, day = (int(g) for g in match.groups())
    if not 1 <= month <= 12 or day < 1 or day > _DAYS[month - 1]:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return not (month == 2 and day == 29 and not leap)


def _time(text: str) -> bool:
    """RFC 3339 ``full-time``: hours, minutes, seconds (60 for a leap second), an
    optional fraction and the offset, which is required."""
    match = _TIME.fullmatch(text)
    if match is None:
        return False
    hour, minute, second = int(match[1]), int(match[2]), int(match[3])
    if hour > 23 or minute > 59 or second > 60:
        return False
    return match[4] is None or (int(match[4]) <= 23 and int(match[5]) <= 59)


def _date_time(text: str) -> bool:
    """RFC 3339 ``date-time``: a date, ``T`` (either case), a time."""
    return len(text) > 11 and text[10] in "Tt" and _date(text[:10]) and _time(text[11:])


def _duration(text: str) -> bool:
    """RFC 3339 Appendix A ``duration`` (``P1Y2M``, ``PT1H30M``, ``P3W``)."""
    return _DURATION.fullmatch(text) is not None


def _hostname(text: str) -> bool:
    """RFC 1123: dot-separated labels of letters, digits and inner hyphens, each at most
    63 characters, 253 in all (a final dot allowed)."""
    name = text[:-1] if text.endswith(".") else text
    return 0 < len(name) <= 253 and all(_LABEL.fullmatch(p) for p in name.split("."))


def _ipv4(text: str) -> bool:
    """Four decimal numbers 0-255 without leading zeros."""
    return _IPV4.fullmatch(text) is not None and all(int(p) <= 255 for p in text.split("."))


def _ipv6(text: str) -> bool:
    """RFC 4291 §2.2: eight hexadecimal groups, ``::`` for one run of zero groups, an
    IPv4 address for the last two; no zone."""
    head, sep, tail = text.partition("::")
    if "::" in tail:
        return False
    parts = [p for p in (head.split(":") if head else [])] + (
        [p for p in tail.split(":")] if sep and tail else [])
    if not sep and not head:
        return False
    groups = 0
    for index, part in enumerate(parts):
        if index == len(parts) - 1 and "." in part:
            if not _ipv4(part):
                return False
            groups += 2
        elif _HEX4.fullmatch(part):
            groups += 1
        else:
            return False
    return groups < 8 if sep else groups == 8


def _email(text: str) -> bool:
    """RFC 5321 ``Mailbox``: a dot-atom or quoted local part, ``@``, then a hostname or
    an address literal (``[192.0.2.1]``, ``[IPv6:…]``)."""
    local, at, domain = text.rpartition("@")
    if not at or _LOCAL.fullmatch(local) is None:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        inner = domain[1:-1]
        return _ipv6(inner[5:]) if inner[:5].lower() == "ipv6:" else _ipv4(inner)
    return _hostname(domain) and not domain.endswith(".")


def _uuid(text: str) -> bool:
    """RFC 9562: 32 hexadecimal digits in groups of 8-4-4-4-12."""
    return _UUID.fullmatch(text) is not None


def _uri(text: str) -> bool:
    """RFC 3986 ``URI``, by its characters: a scheme, ``:``, then only characters a URI
    may hold, percent-escapes complete."""
    return _URI.fullmatch(text) is not None


FORMATS: Final[dict[str, Callable[[str], bool]]] = {
    "date-time": _date_time, "date": _date, "time": _time, "duration": _duration,
    "email": _email, "hostname": _hostname, "ipv4": _ipv4, "ipv6": _ipv6, "uuid": _uuid,
    "uri": _uri,
}
"""Each asserted format and its check (a string in that format: True)."""


def check_format(name: str, value: str) -> bool:
    """Whether ``value`` is in format ``name``; True for a format toolwire does not assert."""
    check = FORMATS.get(name)
    return check is None or check(value)
