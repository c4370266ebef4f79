"""A yes/no answer for a program without look-arounds or back-references, by a lazy DFA.

JSON Schema's ``pattern`` asks only whether the pattern matches somewhere. For that the
threads' order and groups do not matter, only the set of instructions alive, so each
position's set is the previous set stepped over one character: a transition computed
once per (set, character, context) and then looked up. The context is what zero-width
assertions read at the next position (the character consumed, the one after it, whether
it is the last), so ``^``, ``$``, ``\\b`` need no special case. The work per character is
one dictionary lookup once the transitions are known, and never more than the Pike VM's
(one pass over the program) when they are not: linear in the text either way, so it
spends no budget (a pattern such as ``a.{60}c``, whose sets rarely repeat, costs a pass
over the program per character, and never fails for it).
"""

from __future__ import annotations

from typing import Any

from .engines import is_word, starts
from .program import ASSERT, CHAR, CHECK, JMP, MATCH, SAVE, SPLIT, Program

__all__ = ["dfa_test", "usable"]

_MAX_TRANSITIONS = 20_000


def usable(program: Program) -> bool:
    """Whether :func:`dfa_test` can answer for ``program``."""
    return not program.backtracking and all(ins[0] <= ASSERT for ins in program.code)


class _Tables:
    __slots__ = ("accepting", "ids", "match_pc", "moves", "sets", "starts")

    def __init__(self) -> None:
        self.match_pc = -1
        self.accepting: list[bool] = []
        self.ids: dict[frozenset[int], int] = {}
        self.sets: list[frozenset[int]] = []
        self.moves: dict[tuple[Any, ...], int] = {}
        self.starts: dict[tuple[Any, ...], frozenset[int]] = {}


_TABLES: dict[int, tuple[Program, _Tables]] = {}


def _tables(program: Program) -> _Tables:
    held = _TABLES.get(id(program))
    if held is not None and held[0] is program:
        return held[1]
    tables = _Tables()
    tables.match_pc = next(i for i, ins in enumerate(program.code) if ins[0] == MATCH)
    if len(_TABLES) >= 256:
        _TABLES.clear()
    _TABLES[id(program)] = (program, tables)
    return tables


def _holds(name: str, flags: int, context: tuple[Any, ...]) -> bool:
    before, after, last = context
    multiline = flags & 8  # re.MULTILINE
    if name == "bol":
        return before is None or bool(multiline and before == "\n")
    if name == "eol":
        return after is None or (last and after == "\n") or bool(multiline and after == "\n")
    if name == "start":
        return before is None
    if name == "end":
        return after is None
    left = before is not None and is_word(before, flags)
    right = after is not None and is_word(after, flags)
    if name == "word":
        return left != right
    return (before is not None or after is not None) and left == right


def _closure(program: Program, pcs: list[int], context: tuple[Any, ...]) -> frozenset[int]:
    code = program.code
    found: set[int] = set()
    seen: set[int] = set()
    stack = pcs[::-1]
    while stack:
        pc = stack.pop()
        if pc in seen:
            continue
        seen.add(pc)
        ins = code[pc]
        op = ins[0]
        if op in (CHAR, MATCH):
            found.add(pc)
        elif op == JMP:
            stack.append(ins[1])
        elif op == SPLIT:
            stack.append(ins[2])
            stack.append(ins[1])
        elif op == SAVE:
            stack.append(pc + 1)
        elif op == CHECK:  # for a yes/no answer, leaving and looping again both stay open
            stack.append(ins[2])
            stack.append(pc + 1)
        elif op == ASSERT and _holds(ins[1], ins[2], context):
            stack.append(pc + 1)
    return frozenset(found)


def dfa_test(program: Program, text: str) -> bool:
    """Whether ``program`` matches anywhere in ``text``."""
    tables = _tables(program)
    ids, sets, moves = tables.ids, tables.sets, tables.moves
    code = program.code
    size = len(text)
    match_pc = tables.match_pc

    def state_id(pcs: frozenset[int]) -> int:
        found = ids.get(pcs)
        if found is None:
            found = ids[pcs] = len(sets)
            sets.append(pcs)
            tables.accepting.append(match_pc in pcs)
        return found

    def start(context: tuple[Any, ...]) -> frozenset[int]:
        found = tables.starts.get(context)
        if found is None:
            found = tables.starts[context] = _closure(program, [0], context)
        return found

    empty = state_id(frozenset())
    accepting = tables.accepting
    pos = 0
    context: tuple[Any, ...] = (None, text[0] if size else None, size == 1)
    current = state_id(start(context))
    anchored = program.anchored
    while True:
        if accepting[current]:
            return True
        if pos >= size:
            return False
        if current == empty:
            if anchored:
                return False
            nxt = starts(program, text, pos + 1)
            if nxt < 0:
                return False
            pos = nxt
            context = (text[pos - 1], text[pos] if pos < size else None, pos == size - 1)
            current = state_id(start(context))
            continue
        char = text[pos]
        pos += 1
        after = text[pos] if pos < size else None
        key = (current, char, after, pos == size - 1)
        moved = moves.get(key)
        if moved is None:
            context = (char, after, pos == size - 1)
            stepped = [pc + 1 for pc in sorted(sets[current])
                       if code[pc][0] == CHAR and (code[pc][2] == char if code[pc][2] is not None
                                                    else code[pc][1](char))]
            pcs = _closure(program, stepped, context)
            if not anchored:
                pcs |= start(context)
            if len(moves) >= _MAX_TRANSITIONS:
                moves.clear()
            moved = moves[key] = state_id(pcs)
            if len(sets) >= _MAX_TRANSITIONS:  # too many sets: start the tables afresh
                _TABLES.pop(id(program), None)
                tables = _tables(program)
                ids, sets, moves = tables.ids, tables.sets, tables.moves
                accepting = tables.accepting
                empty = state_id(frozenset())
                moved = state_id(pcs)
        current = moved
