"""Unquoted ``null``, ``true`` and ``false``: field names that read as literals.

In JMESPath only `` `null` `` is the null literal; an unquoted ``null`` is the field named
``null``. ``type == null`` therefore compares ``type`` with a reply's ``"null"`` key, and
holds by accident on replies that lack one, flipping on one that has it. The loader
refuses such a field step (``bare-literal-name``, specs/README.md §1.2).

The parse tree cannot tell ``null`` from ``"null"`` (both are a ``field`` node), so the
check reads the lexer's tokens: an ``unquoted_identifier`` token is a field step unless it
names a function (the next token is ``(``) or a multi-select hash key (the next is ``:``).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final

__all__ = ["BARE_NAMES", "bare_literal_message", "bare_literal_name"]

BARE_NAMES: Final = frozenset({"null", "true", "false"})
_NOT_A_FIELD_AFTER: Final = frozenset({"lparen", "colon"})


def bare_literal_name(source: str) -> tuple[int, str] | None:
    """The 0-based offset and name of the first unquoted null/true/false field, or None.

    ``source`` has already compiled, so the lexer accepts it.
    """
    from jmespath.lexer import Lexer  # lazy: jmespath (13 ms) only when a spec file is checked

    tokens = list(Lexer().tokenize(source))
    for token, following in pairwise(tokens):  # the last is the lexer's eof
        if (token["type"] == "unquoted_identifier" and token["value"] in BARE_NAMES
                and following["type"] not in _NOT_A_FIELD_AFTER):
            return int(token["start"]), str(token["value"])
    return None


def bare_literal_message(name: str) -> str:
    """The problem's words: what the name means in JMESPath and the two ways to write it."""
    return (f"unquoted {name} is a field name in JMESPath, not the literal: write `{name}`"
            f" (backquoted) for the value, or \"{name}\" (quoted) for a field named {name}")
