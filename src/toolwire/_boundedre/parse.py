"""A regular expression in Python's ``re`` syntax read into a small tree.

The pattern has already compiled with :mod:`re` (the authority on what is valid), so this
reader only has to take it apart the same way. Every atom that consumes one character (a
literal, a class, ``.``, ``\\d``…) is kept as its own source text with the flags in force
there: the engines test a character by matching that one-character pattern with :mod:`re`
itself, which cannot backtrack, so a class means exactly what Python says it means.

A construct this reader does not take apart (``(?x)`` verbose patterns, conditionals
``(?(1)…)``) raises :class:`Unsupported` with the reason; the caller refuses the pattern
rather than run it unbounded.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_NESTING", "Node", "Parsed", "Unsupported", "nesting", "parse"]

MAX_NESTING = 245
"""The deepest nesting of groups a pattern may have (every implementation refuses deeper)."""

_IGNORECASE, _DOTALL, _MULTILINE, _ASCII = re.IGNORECASE, re.DOTALL, re.MULTILINE, re.ASCII
_FLAG_LETTERS = {"i": _IGNORECASE, "s": _DOTALL, "m": _MULTILINE, "a": _ASCII, "u": 0,
                 "L": -1, "x": -2}
_SIMPLE_ESCAPES = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_CLASS_ESCAPES = frozenset("dDsSwW")
_ASSERT_ESCAPES = {"b": "word", "B": "not_word", "A": "start", "Z": "end"}
_OCTAL = frozenset("01234567")
_DIGITS = frozenset("0123456789")


class Unsupported(Exception):
    """A pattern (valid for :mod:`re`) that the bounded engines do not run."""


class Node:
    """One node of the tree.

    ``kind`` is ``char`` (``source``/``flags``: a one-character pattern; ``literal``: the
    character when it is one exact character), ``empty``, ``cat`` and ``alt``
    (``children``), ``repeat`` (``children[0]`` from ``low`` to ``high`` times, ``None``:
    unbounded; ``greedy``; ``possessive``), ``group`` (``index`` or None; ``children[0]``),
    ``assert`` (``name``: ``bol``, ``eol``, ``start``, ``end``, ``word``, ``not_word``),
    ``backref`` (``index``; ``flags``), ``look`` (``name``: ``ahead``/``behind``;
    ``negate``; ``children[0]``) and ``atomic`` (``children[0]``).
    """

    __slots__ = ("children", "flags", "greedy", "high", "index", "kind", "literal", "low",
                 "name", "negate", "possessive", "source")

    def __init__(
        self, kind: str, children: tuple[Node, ...] = (), *, source: str = "", flags: int = 0,
        literal: str | None = None, low: int = 0, high: int | None = None, greedy: bool = True,
        possessive: bool = False, index: int | None = None, name: str = "",
        negate: bool = False,
    ) -> None:
        self.kind = kind
        self.children = children
        self.source = source
        self.flags = flags
        self.literal = literal
        self.low = low
        self.high = high
        self.greedy = greedy
        self.possessive = possessive
        self.index = index
        self.name = name
        self.negate = negate


class Parsed:
    """The tree, the number of capturing groups, and their names."""

    __slots__ = ("flags", "groupindex", "groups", "root")

    def __init__(self, root: Node, groups: int, groupindex: dict[str, int], flags: int) -> None:
        self.root = root
        self.groups = groups
        self.groupindex = groupindex
        self.flags = flags


def parse(pattern: str, flags: int = 0) -> Parsed:
    """``pattern`` (already known to compile with :mod:`re` and ``flags``) as a tree."""
    if flags & re.VERBOSE:
        raise Unsupported("verbose patterns (re.VERBOSE) are not run by the bounded engines")
    reader = _Reader(pattern, flags)
    root = reader.alternation()
    if reader.pos != len(pattern):
        raise Unsupported(f"unbalanced parenthesis at {reader.pos}")
    return Parsed(root, reader.groups, reader.groupindex, reader.flags)


def class_end(text: str, start: int) -> int:
    """The index just past the ``]`` that closes the class opening at ``start``."""
    pos = start + 1
    if pos < len(text) and text[pos] == "^":
        pos += 1
    if pos < len(text) and text[pos] == "]":
        pos += 1
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "]":
            return pos + 1
        pos += 1
    raise Unsupported("unterminated character class")


_NOT_A_GROUP = re.compile(r"\(\?(?:#(?:\\.|[^)\\])*|P=[^)]*|[aiLmsux-]*)\)")


def nesting(pattern: str) -> int:
    """How deep the groups of ``pattern`` nest (look-arounds and ``(?:…)`` included; a
    comment, a named back-reference and a flags-only ``(?i)`` are no groups), read without
    recursion so that any pattern, however deep, can be measured before :mod:`re` reads it."""
    depth = deepest = pos = 0
    while pos < len(pattern):
        char = pattern[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "[":
            try:
                pos = class_end(pattern, pos)
            except Unsupported:
                break
            continue
        if char == "(":
            plain = _NOT_A_GROUP.match(pattern, pos)
            if plain is not None:
                pos = plain.end()
                continue
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth = max(depth - 1, 0)
        pos += 1
    return deepest


class _Reader:
    def __init__(self, pattern: str, flags: int) -> None:
        self.text = pattern
        self.pos = 0
        self.flags = flags
        self.groups = 0
        self.groupindex: dict[str, int] = {}

    # -- structure ------------------------------------------------------------------

    def alternation(self) -> Node:
        branches = [self.sequence()]
        while self.pos < len(self.text) and self.text[self.pos] == "|":
            self.pos += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else Node("alt", tuple(branches))

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.pos < len(self.text) and self.text[self.pos] not in "|)":
            # a group read here, not through atom(): one frame less per level of nesting
            atom = self.group() if self.text[self.pos] == "(" else self.atom()
            if atom is None:
                continue
            items.append(self.quantified(atom))
        if not items:
            return Node("empty")
        return items[0] if len(items) == 1 else Node("cat", tuple(items))

    def quantified(self, atom: Node) -> Node:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in "*+?":
                low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
                self.pos += 1
            elif char == "{":
                bounds = self._braces()
                if bounds is None:
                    return atom
                low, high = bounds
            else:
                return atom
            greedy, possessive = True, False
            if self.pos < len(text) and text[self.pos] == "?":
                greedy = False
                self.pos += 1
            elif self.pos < len(text) and text[self.pos] == "+":
                possessive = True
                self.pos += 1
            atom = Node("repeat", (atom,), low=low, high=high, greedy=greedy,
                        possessive=possessive)
        return atom

    def _braces(self) -> tuple[int, int | None] | None:
        # ASCII digits only, as re reads a count: "x{٣}" is the literal text x{٣}
        match = re.compile(r"\{([0-9]*)(,?)([0-9]*)\}").match(self.text, self.pos)
        if match is None or (not match.group(1) and not match.group(2)):
            return None  # a literal "{"
        low_text, comma, high_text = match.groups()
        low = int(low_text) if low_text else 0
        high = int(high_text) if high_text else (None if comma else low)
        self.pos = match.end()
        return low, high

    def atom(self) -> Node | None:
        text, pos = self.text, self.pos
        char = text[pos]
        if char == "[":
            end = class_end(text, pos)
            self.pos = end
            return self._char(text[pos:end], None)
        if char == ".":
            self.pos += 1
            return self._char(".", None)
        if char == "^":
            self.pos += 1
            return Node("assert", name="bol", flags=self.flags)
        if char == "$":
            self.pos += 1
            return Node("assert", name="eol", flags=self.flags)
        if char == "\\":
            return self.escape()
        self.pos += 1
        return self._char(re.escape(char), char)

    def _char(self, source: str, literal: str | None) -> Node:
        flags = self.flags & (_IGNORECASE | _DOTALL | _ASCII)
        exact = literal if literal is not None and not flags & _IGNORECASE else None
        return Node("char", source=source, flags=flags, literal=exact)

    def group(self) -> Node | None:
        text = self.text
        self.pos += 1
        if not text.startswith("?", self.pos):
            self.groups += 1
            index = self.groups  # before the body: its own groups come after
            return self._close(Node("group", (self.alternation(),), index=index))
        self.pos += 1
        head = text[self.pos:self.pos + 3]
        if head.startswith("#"):
            end = text.index(")", self.pos)
            self.pos = end + 1
            return None
        if head.startswith(":"):
            self.pos += 1
            return self._close(Node("group", (self.alternation(),)))
        if head.startswith("P<"):
            end = text.index(">", self.pos)
            name = text[self.pos + 2:end]
            self.pos = end + 1
            self.groups += 1
            self.groupindex[name] = index = self.groups
            return self._close(Node("group", (self.alternation(),), index=index))
        if head.startswith("P="):
            end = text.index(")", self.pos)
            index = self.groupindex[text[self.pos + 2:end]]
            self.pos = end + 1
            return Node("backref", index=index, flags=self.flags)
        for prefix, name, negate in (("<=", "behind", False), ("<!", "behind", True),
                                     ("=", "ahead", False), ("!", "ahead", True)):
            if head.startswith(prefix):
                self.pos += len(prefix)
                return self._close(Node("look", (self.alternation(),), name=name,
                                        negate=negate))
        if head.startswith(">"):
            self.pos += 1
            return self._close(Node("atomic", (self.alternation(),)))
        if head.startswith("("):
            raise Unsupported("conditional groups (?(…)…) are not run by the bounded engines")
        return self._flag_group()

    def _flag_group(self) -> Node | None:
        text = self.text
        match = re.compile(r"([aiLmsux]*)(?:-([imsx]*))?([:)])").match(text, self.pos)
        if match is None:
            raise Unsupported(f"unknown group syntax at {self.pos}")
        on = self._flag_bits(match.group(1))
        off = self._flag_bits(match.group(2) or "")
        self.pos = match.end()
        if match.group(3) == ")":  # global flags (re allows them only at the start)
            self.flags |= on
            return None
        if on & _ASCII and not self.flags & _ASCII:
            raise Unsupported("a scoped (?a:…) group (re applies it unevenly: not to \\w)")
        saved = self.flags
        self.flags = (self.flags | on) & ~off
        try:
            node = self._close(Node("group", (self.alternation(),)))
        finally:
            self.flags = saved
        return node

    @staticmethod
    def _flag_bits(letters: str) -> int:
        bits = 0
        for letter in letters:
            value = _FLAG_LETTERS[letter]
            if value == -2:
                raise Unsupported("verbose patterns (?x) are not run by the bounded engines")
            if value == -1:
                raise Unsupported("the locale flag (?L) is for bytes patterns only")
            bits |= value
        return bits

    def _close(self, node: Node) -> Node:
        if not self.text.startswith(")", self.pos):
            raise Unsupported(f"missing ) at {self.pos}")
        self.pos += 1
        return node

    # -- escapes --------------------------------------------------------------------

    def escape(self) -> Node:
        text, start = self.text, self.pos
        if start + 1 >= len(text):
            raise Unsupported("a trailing backslash")
        char = text[start + 1]
        self.pos = start + 2
        if char in _CLASS_ESCAPES:
            return self._char(text[start:self.pos], None)
        if char in _ASSERT_ESCAPES:
            return Node("assert", name=_ASSERT_ESCAPES[char], flags=self.flags)
        if char in _SIMPLE_ESCAPES:
            return self._char(text[start:self.pos], _SIMPLE_ESCAPES[char])
        if char in _DIGITS:
            return self._number_escape(start, char)
        width = {"x": 2, "u": 4, "U": 8}.get(char)
        if width is not None:
            self.pos = start + 2 + width
            return self._char(text[start:self.pos], chr(int(text[start + 2:self.pos], 16)))
        if char == "N":
            end = text.index("}", start)
            self.pos = end + 1
            return self._char(text[start:self.pos], unicodedata.lookup(text[start + 3:end]))
        return self._char(text[start:self.pos], char)

    def _number_escape(self, start: int, first: str) -> Node:
        """``\\0``/octal escapes and group references, told apart as :mod:`re` does."""
        text = self.text
        if first == "0":
            end = start + 2
            while end < len(text) and end < start + 4 and text[end] in _OCTAL:
                end += 1
            self.pos = end
            return self._char(text[start:end], chr(int(text[start + 1:end], 8)))
        end = start + 2
        if text[end:end + 1] in _DIGITS and end < len(text):
            if first in _OCTAL and text[end] in _OCTAL and text[end + 1:end + 2] in _OCTAL \
                    and end + 1 < len(text):
                self.pos = end + 2
                return self._char(text[start:self.pos], chr(int(text[start + 1:self.pos], 8)))
            end += 1
        self.pos = end
        return Node("backref", index=int(text[start + 1:end]), flags=self.flags)
