"""The tree of :mod:`._parse` compiled to a program both engines run.

Instructions are tuples, the opcode first:

====================  ==================================================================
``(CHAR, test, lit)``  consume one character for which ``test`` holds (``lit``: the exact
                       character, when the atom is one)
``(MATCH,)``           the pattern (or a look-around's body) has matched
``(JMP, to)``          continue at ``to``
``(SPLIT, a, b)``      try ``a`` first, then ``b``
``(SAVE, slot)``       remember the position in ``slot`` (groups, and loop marks)
``(CHECK, slot, to)``  a loop body that may match empty ends here: when it consumed
                       nothing since its mark (``slot``), leave the loop (``to``), as
                       Python's backtracking engine does, instead of looping again
``(ASSERT, name, f)``  a zero-width assertion (``bol``, ``eol``, ``start``, ``end``,
                       ``word``, ``not_word``) under flags ``f``
``(BACKREF, n, f)``    the text group ``n`` matched, again
``(LOOK, kind, neg,    a look-around (``ahead``, ``behind``) or atomic group whose body
  start, width)``      starts at ``start``; ``width``: a look-behind's fixed width
====================  ==================================================================

A character test is the atom's own one-character pattern matched with :mod:`re` (a
single character cannot backtrack), its answers remembered per character.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator
from typing import Any, TypeVar

from .parse import Node, Parsed, Unsupported

__all__ = ["ASSERT", "BACKREF", "CHAR", "CHECK", "JMP", "LOOK", "MATCH", "MAX_PROGRAM",
           "SAVE", "SPLIT", "Program", "build"]

CHAR, MATCH, JMP, SPLIT, SAVE, CHECK, ASSERT, BACKREF, LOOK = range(9)

MAX_PROGRAM = 20_000
"""Counted repetitions are written out; a pattern whose program grows beyond this is refused."""

Test = Callable[[str], bool]
_T = TypeVar("_T")
_TESTS: dict[tuple[str, int], Test] = {}


def char_test(source: str, flags: int, literal: str | None) -> Test:
    """Whether one character matches the atom ``source`` (shared per atom and flags)."""
    if literal is not None:
        return literal.__eq__
    key = (source, flags)
    test = _TESTS.get(key)
    if test is not None:
        return test
    tiny = re.compile(source, flags).match
    seen: dict[str, bool] = {}

    def matches(char: str) -> bool:
        known = seen.get(char)
        if known is None:
            known = tiny(char) is not None
            if len(seen) < 4096:
                seen[char] = known
        return known

    if len(_TESTS) >= 4096:
        _TESTS.clear()
    _TESTS[key] = matches
    return matches


class Program:
    """A compiled pattern: its code, how many slots a match records (groups' first,
    loop marks from ``marks_from``), whether it needs backtracking, and what the
    search may skip (``prefix``: a literal every match starts with; ``first``: a
    :mod:`re` pattern of the characters a match can start with; ``anchored``: a match
    can only start at position 0)."""

    __slots__ = ("anchored", "backtracking", "code", "first", "marks_from", "prefix", "slots")

    def __init__(self, code: list[tuple[Any, ...]], slots: int, marks_from: int,
                 backtracking: bool, prefix: str, first: Any, anchored: bool) -> None:
        self.code = code
        self.slots = slots
        self.marks_from = marks_from
        self.backtracking = backtracking
        self.prefix = prefix
        self.first = first
        self.anchored = anchored


def _walk(steps: Callable[[Node], Generator[Node, Any, _T]], root: Node) -> _T:
    """``steps(root)`` run to its value, where each ``steps`` generator yields a child node
    instead of calling itself on it and is sent the child's value back: a tree of any depth
    is walked on this one frame, so how deep a pattern nests never meets the interpreter's
    recursion limit."""
    stack = [steps(root)]
    value: Any = None
    while True:
        try:
            child = stack[-1].send(value)
        except StopIteration as done:
            stack.pop()
            if not stack:
                return done.value  # type: ignore[no-any-return]
            value = done.value
            continue
        stack.append(steps(child))
        value = None


def build(parsed: Parsed) -> Program:
    """The program of a parsed pattern."""
    compiler = _Compiler(parsed.groups)
    code = compiler.code
    code.append((SAVE, 0))
    compiler.emit(parsed.root)
    code.append((SAVE, 1))
    code.append((MATCH,))
    while compiler.pending:
        start, node = compiler.pending.pop(0)
        code[start] = (*code[start][:3], len(code), *code[start][4:])
        compiler.emit(node)
        code.append((MATCH,))
        compiler.check_size()
    atoms, nullable = _first(parsed.root)
    first = None
    if atoms and not nullable and len({f for _, f in atoms}) == 1:
        sources = dict.fromkeys(source for source, _ in atoms)
        first = re.compile("|".join(sources), atoms[0][1])
    return Program(code, compiler.slots, 2 * (parsed.groups + 1), compiler.backtracking,
                   _prefix(parsed.root), first, _anchored(parsed.root))


class _Compiler:
    """Emits the code of a tree: each ``_steps`` generator appends its node's code and
    yields a child where the child's code goes (:func:`_walk` emits it there)."""

    def __init__(self, groups: int) -> None:
        self.code: list[tuple[Any, ...]] = []
        self.slots = 2 * (groups + 1)
        self.backtracking = False
        self.pending: list[tuple[int, Node]] = []

    def check_size(self) -> None:
        if len(self.code) > MAX_PROGRAM:
            raise Unsupported(f"the pattern's counted repetitions expand to more than"
                              f" {MAX_PROGRAM} steps")

    def emit(self, node: Node) -> None:
        _walk(self._steps, node)

    def _steps(self, node: Node) -> Generator[Node, Any, None]:
        kind, code = node.kind, self.code
        if kind == "char":
            code.append((CHAR, char_test(node.source, node.flags, node.literal), node.literal))
        elif kind == "empty":
            pass
        elif kind == "cat":
            for child in node.children:  # noqa: UP028  # each yield is sent its child's value
                yield child
        elif kind == "alt":
            yield from self._alternation(node.children)
        elif kind == "group":
            if node.index is not None:
                code.append((SAVE, 2 * node.index))
            yield node.children[0]
            if node.index is not None:
                code.append((SAVE, 2 * node.index + 1))
        elif kind == "repeat":
            yield from self._repeat(node)
        elif kind == "assert":
            code.append((ASSERT, node.name, node.flags))
        elif kind == "backref":
            self.backtracking = True
            code.append((BACKREF, node.index, node.flags))
        elif kind == "look":
            width = _width(node.children[0]) if node.name == "behind" else 0
            self.pending.append((len(code), node.children[0]))
            code.append((LOOK, node.name, node.negate, -1, width))
        elif kind == "atomic":
            self.backtracking = True
            self.pending.append((len(code), node.children[0]))
            code.append((LOOK, "atomic", False, -1, 0))
        else:  # pragma: no cover - the parser makes no other kind
            raise Unsupported(f"unknown node {kind}")
        self.check_size()

    def _alternation(self, branches: tuple[Node, ...]) -> Generator[Node, Any, None]:
        code = self.code
        jumps: list[int] = []
        for branch in branches[:-1]:
            split = len(code)
            code.append((SPLIT, split + 1, -1))
            yield branch
            jumps.append(len(code))
            code.append((JMP, -1))
            code[split] = (SPLIT, split + 1, len(code))
        yield branches[-1]
        for at in jumps:
            code[at] = (JMP, len(code))

    def _repeat(self, node: Node) -> Generator[Node, Any, None]:
        body = node.children[0]
        if node.possessive:
            yield Node("atomic", (Node("repeat", (body,), low=node.low, high=node.high,
                                       greedy=node.greedy),))
            return
        for _ in range(node.low):
            yield body
        if node.high is None:
            yield from self._star(body, node.greedy)
            return
        code = self.code
        holes: list[int] = []
        for _ in range(node.high - node.low):
            holes.append(len(code))
            code.append((SPLIT, -1, -1))
            yield body
        for at in holes:
            here, out = at + 1, len(code)
            code[at] = (SPLIT, here, out) if node.greedy else (SPLIT, out, here)

    def _star(self, body: Node, greedy: bool) -> Generator[Node, Any, None]:
        code = self.code
        loop = len(code)
        code.append((SPLIT, -1, -1))
        mark = None
        if _nullable(body):
            mark = self.slots
            self.slots += 1
            code.append((SAVE, mark))
        yield body
        if mark is not None:
            code.append((CHECK, mark, -1))
            check = len(code) - 1
        code.append((JMP, loop))
        out = len(code)
        code[loop] = (SPLIT, loop + 1, out) if greedy else (SPLIT, out, loop + 1)
        if mark is not None:
            code[check] = (CHECK, mark, out)


def _nullable(node: Node) -> bool:
    return _first(node)[1]


_Atoms = tuple[list[tuple[str, int]] | None, bool]


def _first(node: Node) -> _Atoms:
    """The atoms a match of ``node`` can start with (None: any character), and whether
    it can match the empty string."""
    return _walk(_first_steps, node)


def _first_steps(node: Node) -> Generator[Node, _Atoms, _Atoms]:
    kind = node.kind
    if kind == "char":
        return [(node.source, node.flags)], False
    if kind in ("empty", "assert", "look"):
        return [], True
    if kind == "backref":
        return None, True
    if kind in ("group", "atomic"):
        return (yield node.children[0])
    if kind == "repeat":
        atoms, nullable = yield node.children[0]
        return atoms, nullable or node.low == 0
    if kind == "alt":
        found: list[tuple[str, int]] | None = []
        empty = False
        for child in node.children:
            atoms, nullable = yield child
            found = None if found is None or atoms is None else found + atoms
            empty = empty or nullable
        return found, empty
    found = []
    for child in node.children:  # cat
        atoms, nullable = yield child
        found = None if found is None or atoms is None else found + atoms
        if not nullable:
            return found, False
    return found, True


def _prefix(node: Node) -> str:
    """The literal text every match starts with (case-sensitive atoms only)."""
    parts = list(node.children) if node.kind == "cat" else [node]
    text = ""
    for part in parts:
        if part.kind != "char" or part.literal is None:
            break
        text += part.literal
    return text


def _anchored(node: Node) -> bool:
    head = node.children[0] if node.kind == "cat" and node.children else node
    return head.kind == "assert" and (
        head.name == "start" or (head.name == "bol" and not head.flags & re.MULTILINE)
    )


def _width(node: Node) -> int:
    """A look-behind body's fixed width (Python refuses any other)."""
    return _walk(_width_steps, node)


def _width_steps(node: Node) -> Generator[Node, int, int]:
    kind = node.kind
    if kind == "char":
        return 1
    if kind in ("empty", "assert", "look"):
        return 0
    if kind in ("group", "atomic"):
        return (yield node.children[0])
    if kind == "cat":
        total = 0
        for child in node.children:
            total += yield child
        return total
    if kind == "alt":
        widths = set()
        for child in node.children:
            widths.add((yield child))
        if len(widths) == 1:
            return widths.pop()
    if kind == "repeat" and node.high == node.low:
        return node.low * (yield node.children[0])
    raise Unsupported("a look-behind whose width is not fixed")
