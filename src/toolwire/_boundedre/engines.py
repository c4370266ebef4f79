"""The two engines that run a :class:`~._program.Program`, each with a bound.

* :func:`pike` — a Pike VM (Thompson's NFA simulation with per-thread captures, threads
  kept in priority order so the match and its groups are the ones Python's backtracking
  engine finds). Every position of the text is visited once with at most one thread
  per instruction, so the work is at most (program size) x (text length): linear in the
  text, whatever the pattern. It runs every program without back-references or atomic
  groups; a look-around is a nested run, its answer remembered per position.
* :func:`backtrack` — plain backtracking, for back-references and atomic groups (where no
  linear algorithm exists), stopped after a number of steps.

Steps are counted against one :class:`Budget`; running out raises
:class:`BudgetExceeded`. The backtracking engine's steps count, and the Pike VM's inside
look-arounds (each a run of its own, which the memo per position keeps to one per
position, but which may each read to the end of the text); the Pike VM's own work, linear
in the text, costs none. A zero-width assertion reads the whole text around the
position (``\\b`` and look-behinds see characters before the search's start), as
:mod:`re` does.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from .program import ASSERT, BACKREF, CHAR, CHECK, JMP, LOOK, MATCH, SAVE, SPLIT, Program

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Budget", "BudgetExceeded", "backtrack", "is_word", "pike", "starts"]


class BudgetExceeded(Exception):
    """The search took more steps than its budget allows."""


class Budget:
    """Steps left for one search (shared by its nested look-around runs)."""

    __slots__ = ("left", "total")

    def __init__(self, steps: int) -> None:
        self.total = steps
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise BudgetExceeded(self.total)


def is_word(char: str, flags: int) -> bool:
    if flags & re.ASCII:
        return char.isascii() and (char.isalnum() or char == "_")
    return char.isalnum() or char == "_"


def holds(name: str, flags: int, text: str, pos: int) -> bool:
    """Whether a zero-width assertion holds at ``pos``."""
    size = len(text)
    if name == "bol":
        return pos == 0 or (bool(flags & re.MULTILINE) and text[pos - 1] == "\n")
    if name == "eol":
        if pos == size or (pos == size - 1 and text[pos] == "\n"):
            return True
        return bool(flags & re.MULTILINE) and pos < size and text[pos] == "\n"
    if name == "start":
        return pos == 0
    if name == "end":
        return pos == size
    before = pos > 0 and is_word(text[pos - 1], flags)
    after = pos < size and is_word(text[pos], flags)
    if name == "word":
        return before != after
    return size > 0 and before == after  # not_word: never on the empty text (Python 3.11)


def starts(program: Program, text: str, pos: int) -> int:
    """The first position at or after ``pos`` where a match can start, or -1."""
    if program.anchored:
        return 0 if pos == 0 else -1
    if program.prefix:
        return text.find(program.prefix, pos)
    if program.first is not None:
        hit = program.first.search(text, pos)
        return -1 if hit is None else hit.start()
    return pos if pos <= len(text) else -1


def pike(
    program: Program, text: str, pos: int, budget: Budget, *, anchored_at: int = -1,
    start_pc: int = 0, must_advance: bool = False, capture: bool = True,
    charged: bool = False,
) -> list[int] | None:
    """The slots of the leftmost-first match at or after ``pos`` (only at ``pos`` when
    ``anchored_at`` is ``pos``), or None. ``capture=False`` keeps no groups (a yes/no
    answer is all the caller needs). ``charged``: this run's steps are spent from
    ``budget`` (a look-around's run); the look-arounds it asks are charged either way."""
    code = program.code
    size = len(text)
    marks = [-1] * len(code)
    loops = program.slots - program.marks_from
    registers = range(program.marks_from, program.slots) if loops <= 6 else range(0)
    seen: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    looks: dict[tuple[int, int], Any] = {}
    base = [-1] * program.slots
    clist: list[tuple[int, list[int]]] = []
    matched: list[int] | None = None
    at = pos
    steps = 0
    keep_from = 0 if capture else program.marks_from  # slot 0 and loop marks: always

    add = _thread_adder(program, text, budget, capture, registers, keep_from, marks, seen, looks)

    while True:
        if matched is None and (anchored_at < 0 or at == anchored_at):
            if not clist and anchored_at < 0:
                at = starts(program, text, at)
                if at < 0:
                    break
            steps += add(clist, start_pc, base[:], at)
        if not clist:
            if matched is not None or anchored_at >= 0 or at >= size:
                break
            at += 1  # nothing started here: the next start is found above
            continue
        nlist: list[tuple[int, list[int]]] = []
        char = text[at] if at < size else None
        for pc, slots in clist:
            ins = code[pc]
            if ins[0] == MATCH:
                if must_advance and slots[0] == pos and at == pos:
                    continue  # finditer: no empty match where the last one ended
                matched = slots
                break
            if char is not None and (ins[2] == char if ins[2] is not None else ins[1](char)):
                steps += add(nlist, pc + 1, slots, at + 1)
        steps += len(clist)
        if steps > 4096:
            if charged:
                budget.spend(steps)
            steps = 0
        if at >= size:
            break
        clist = nlist
        seen.pop(at, None)
        at += 1
    if charged:
        budget.spend(steps)
    return matched


def _thread_adder(
    program: Program, text: str, budget: Budget, capture: bool, registers: range,
    keep_from: int, marks: list[int], seen: dict[int, set[tuple[Any, ...]]],
    looks: dict[tuple[int, int], Any],
) -> Callable[[list[tuple[int, list[int]]], int, list[int], int], int]:
    """:func:`pike`'s ``add``: follow the jumps, splits, saves and checks from ``pc`` at
    ``here``, appending each thread that reaches a character or the match to ``target``
    (once per instruction, or per loop state); it returns the steps it took."""
    code = program.code

    def add(target: list[tuple[int, list[int]]], pc: int, slots: list[int], here: int) -> int:
        steps = 0
        stack = [(pc, slots)]
        while stack:
            pc, slots = stack.pop()
            if registers:
                # A thread is its instruction and, for each loop whose body can match
                # empty, whether its iteration began here: that decides its CHECK.
                key = (pc, *[slots[r] == here for r in registers])
                if key in seen[here]:
                    continue
                seen[here].add(key)
            elif marks[pc] == here:
                continue
            else:
                marks[pc] = here
            steps += 1
            ins = code[pc]
            op = ins[0]
            if op in (CHAR, MATCH):
                target.append((pc, slots))
            elif op == JMP:
                stack.append((ins[1], slots))
            elif op == SPLIT:
                stack.append((ins[2], slots))
                stack.append((ins[1], slots))
            elif op == SAVE:
                if ins[1] >= keep_from or ins[1] == 0:
                    slots = slots[:]
                    slots[ins[1]] = here
                stack.append((pc + 1, slots))
            elif op == CHECK:
                stack.append((ins[2] if slots[ins[1]] == here else pc + 1, slots))
            elif op == ASSERT:
                if holds(ins[1], ins[2], text, here):
                    stack.append((pc + 1, slots))
            elif op == LOOK:
                found = looks.get((pc, here), False)
                if found is False:
                    found = _look(program, text, ins, here, budget, capture)
                    looks[pc, here] = found
                if found is not None:
                    stack.append((pc + 1, _merged(slots, found) if found else slots))
            else:  # pragma: no cover - BACKREF programs go to backtrack()
                raise AssertionError("a back-reference in the linear engine")
        return steps

    return add

def _merged(slots: list[int], found: dict[int, int]) -> list[int]:
    merged = slots[:]
    for slot, value in found.items():
        merged[slot] = value
    return merged


def _look(
    program: Program, text: str, ins: tuple[Any, ...], here: int, budget: Budget,
    capture: bool,
) -> dict[int, int] | None:
    """A look-around at ``here``: None when it fails, else the slots it set."""
    _, kind, negate, start, width = ins
    begin = here - width if kind == "behind" else here
    result = None
    if begin >= 0:
        result = pike(program, text, begin, budget, anchored_at=begin, start_pc=start,
                      capture=capture, charged=True)
    if negate:
        return {} if result is None else None
    if result is None:
        return None
    return {i: v for i, v in enumerate(result) if v != -1}  # the body's own groups


def backtrack(
    program: Program, text: str, pos: int, budget: Budget, *, must_advance: bool = False,
) -> list[int] | None:
    """The leftmost-first match at or after ``pos`` by backtracking, within ``budget``."""
    at = pos
    while True:
        at = starts(program, text, at)
        if at < 0:
            return None
        caps = [-1] * program.slots
        end = _attempt(program, text, 0, at, caps, budget, pos if must_advance else -1)
        if end is not None:
            return caps
        at += 1
        if at > len(text):
            return None


def _attempt(program: Program, text: str, pc: int, at: int, caps: list[int], budget: Budget,
             no_empty_at: int) -> int | None:
    """Match from ``pc`` at ``at`` exactly there; ``caps`` updated in place on success."""
    code = program.code
    size = len(text)
    stack: list[tuple[int, int, int]] = []  # (0, pc, pos): an alternative; (1, slot, old): undo
    start = at
    steps = 0
    failed: set[tuple[int, ...]] = set()
    while True:
        steps += 1
        if steps > 4096:
            budget.spend(steps)
            steps = 0
        ins = code[pc]
        op = ins[0]
        if op == CHAR:
            if at < size and (ins[2] == text[at] if ins[2] is not None else ins[1](text[at])):
                pc += 1
                at += 1
                continue
        elif op == MATCH:
            if not at == start == no_empty_at:
                budget.spend(steps)
                return at
        elif op == JMP:
            pc = ins[1]
            continue
        elif op == SPLIT:
            # A state met before (same place, same groups) failed then: it fails again.
            # Nested loops reach one state by many paths; this keeps them from multiplying.
            state = (pc, at, *caps)
            if state not in failed:
                if len(failed) < 100_000:
                    failed.add(state)
                stack.append((0, ins[2], at))
                pc = ins[1]
                continue
        elif op == SAVE:
            stack.append((1, ins[1], caps[ins[1]]))
            caps[ins[1]] = at
            pc += 1
            continue
        elif op == CHECK:
            pc = ins[2] if caps[ins[1]] == at else pc + 1
            continue
        elif op == ASSERT:
            if holds(ins[1], ins[2], text, at):
                pc += 1
                continue
        elif op == BACKREF:
            begin, end = caps[2 * ins[1]], caps[2 * ins[1] + 1]
            if begin >= 0 and end >= begin:
                piece = text[begin:end]
                here = text[at:at + len(piece)]
                same = (here.lower() == piece.lower() if ins[2] & re.IGNORECASE
                        else here == piece)
                if same and len(here) == len(piece):
                    at += len(piece)
                    pc += 1
                    continue
        else:  # LOOK
            budget.spend(steps)
            steps = 0
            after = _around(program, text, ins, at, caps, stack, budget)
            if after is not None:
                at = after
                pc += 1
                continue
        while stack:  # fail: back to the latest alternative, undoing the slots set since
            kind_, first, second = stack.pop()
            if kind_ == 1:
                caps[first] = second
                continue
            pc, at = first, second
            break
        else:
            budget.spend(steps)
            return None


def _around(
    program: Program, text: str, ins: tuple[Any, ...], at: int, caps: list[int],
    stack: list[tuple[int, int, int]], budget: Budget,
) -> int | None:
    """A look-around or atomic group at ``at`` for :func:`_attempt`: None when it fails,
    else where matching goes on (an atomic group's end, else ``at``). A positive one's
    groups are set in ``caps``, each change pushed on ``stack`` to be undone on failure."""
    _, kind, negate, sub, width = ins
    begin = at - width if kind == "behind" else at
    inner = caps[:]
    end = None if begin < 0 else _attempt(program, text, sub, begin, inner, budget, -1)
    if negate:
        return at if end is None else None
    if end is None:
        return None
    for slot, value in enumerate(inner):
        if value != caps[slot]:
            stack.append((1, slot, caps[slot]))
            caps[slot] = value
    return end if kind == "atomic" else at
