"""Regular expressions on model text, with a bound on what one search may cost.

A tool schema's ``pattern`` and a response template's delimiters are a developer's; the
text they run on is a model's. Python's :mod:`re` backtracks, and some patterns take
exponential time on some texts (``^([A-Za-z0-9]+\\s?)*$`` on 33 characters: 36 s), with
no way to interrupt it. So toolwire runs such patterns here instead:

* a pattern without back-references or atomic groups (possessive quantifiers included)
  runs on a Pike VM (:mod:`._run`): linear in the text for every pattern, with the
  same match and groups as :mod:`re` (Python's leftmost-first rules);
* a pattern with them runs by backtracking, its steps counted against a budget (default
  :data:`DEFAULT_STEPS`): :class:`~toolwire.errors.RegexBudgetExceeded` when it runs out.

What costs budget: each step of the backtracking engine, and each step of a look-around's
own run inside the Pike VM (one per position it is asked at). The linear engines' own
work costs none: a pattern with neither back-references, atomic groups nor look-arounds
never runs out. The budget is one per search, unless a caller opens one for a whole piece
of work (:class:`one_budget`: a tool call's check, one reply read through a template):
then every search inside draws on it, so many strings cost one budget, not one each.

A pattern is first compiled by :mod:`re` (the authority on its syntax and on what each
character class means); :func:`compile` raises :class:`re.error` where :mod:`re` does,
and :class:`Unsupported` for the few constructs neither engine runs (``re.VERBOSE``,
conditional groups, counted repetitions that expand past
:data:`~._program.MAX_PROGRAM` instructions, groups nested deeper than
:data:`MAX_NESTING`). Known departure: a group inside a loop
whose body can match the empty string may capture differently from :mod:`re`; whether
a pattern matches, and where, does not differ.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar, Token
from typing import Any

from ..errors import RegexBudgetExceeded
from .dfa import dfa_test, usable
from .engines import Budget, BudgetExceeded, backtrack, pike
from .parse import MAX_NESTING, nesting, parse
from .parse import Unsupported as _Unsupported
from .program import MAX_PROGRAM, Program, build

__all__ = ["DEFAULT_STEPS", "MAX_NESTING", "MAX_PROGRAM", "BoundedMatch", "BoundedPattern",
           "Budget", "Unsupported", "compile", "nesting", "one_budget"]

DEFAULT_STEPS = 1_000_000
"""Steps one budget holds (about a second of Python), then its searches fail."""

_SHARED: ContextVar[Budget | None] = ContextVar("toolwire_regex_budget", default=None)


class one_budget:  # used as a context manager, named as one
    """``with one_budget() as budget:`` every search run inside (in this thread or task)
    draws on ``budget`` (``steps`` steps, default :data:`DEFAULT_STEPS`) instead of a budget
    of its own: once it is spent, every further search that costs budget fails at once.
    Scopes do not nest: an inner one holds a budget of its own until it closes."""

    __slots__ = ("_token", "budget")

    def __init__(self, steps: int | None = None) -> None:
        self.budget = Budget(DEFAULT_STEPS if steps is None else steps)
        self._token: Token[Budget | None] | None = None

    def __enter__(self) -> Budget:
        self._token = _SHARED.set(self.budget)
        return self.budget

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _SHARED.reset(self._token)
            self._token = None


class Unsupported(ValueError):
    """A pattern :mod:`re` reads that the bounded engines do not run (the reason says why)."""


_SHALLOW = 32
"""Groups nested deeper than this are compiled on a fresh stack (:func:`_on_a_fresh_stack`)."""


def _built(pattern: str, flags: int) -> tuple[re.Pattern[str], Program, bool]:
    """``pattern`` compiled by :mod:`re` (the authority on its syntax), then read and built
    for the bounded engines: the program, and whether the DFA can run it."""
    compiled = re.compile(pattern, flags)
    try:
        program = build(parse(pattern, flags))
    except _Unsupported as exc:
        raise Unsupported(str(exc)) from None
    except RecursionError:
        raise Unsupported("the pattern nests too deeply") from None
    return compiled, program, usable(program)


def _on_a_fresh_stack(
    build_it: Callable[[str, int], tuple[re.Pattern[str], Program, bool]], pattern: str,
    flags: int,
) -> tuple[re.Pattern[str], Program, bool]:
    """``build_it(pattern, flags)`` run in a thread of its own, whose stack starts empty.

    :mod:`re` and the reader here recurse once (or a few times) per level of nesting, so
    whether a deep pattern compiles would otherwise depend on how deep the caller already
    was: a pattern of :data:`MAX_NESTING` levels compiles from any caller this way. Where
    no thread can be started, it runs here.
    """
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, build_it(pattern, flags)))
        except BaseException as exc:  # handed to the caller's thread
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="toolwire-regex-compile", daemon=True)
    try:
        thread.start()
    except RuntimeError:
        return build_it(pattern, flags)
    thread.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value  # type: ignore[no-any-return]


class BoundedMatch:
    """A match, with the part of :class:`re.Match`'s interface toolwire uses."""

    __slots__ = ("_slots", "pattern", "string")

    def __init__(self, pattern: BoundedPattern, string: str, slots: list[int]) -> None:
        self.pattern = pattern
        self.string = string
        self._slots = slots

    def _index(self, group: int | str) -> int:
        index = self.pattern.groupindex[group] if isinstance(group, str) else group
        if not 0 <= index <= self.pattern.groups:
            raise IndexError("no such group")
        return index

    def span(self, group: int | str = 0) -> tuple[int, int]:
        index = self._index(group)
        start, end = self._slots[2 * index], self._slots[2 * index + 1]
        return (start, end) if start >= 0 and end >= 0 else (-1, -1)

    def start(self, group: int | str = 0) -> int:
        return self.span(group)[0]

    def end(self, group: int | str = 0) -> int:
        return self.span(group)[1]

    def group(self, group: int | str = 0) -> str | None:
        start, end = self.span(group)
        return None if start < 0 else self.string[start:end]

    def groups(self, default: Any = None) -> tuple[Any, ...]:
        return tuple(default if (g := self.group(i)) is None else g
                     for i in range(1, self.pattern.groups + 1))

    def groupdict(self, default: Any = None) -> dict[str, Any]:
        return {name: default if (g := self.group(name)) is None else g
                for name in self.pattern.groupindex}

    def __repr__(self) -> str:
        return f"<BoundedMatch span={self.span()} match={self.group()!r}>"


class BoundedPattern:
    """A compiled pattern: ``search`` and ``finditer`` as :class:`re.Pattern` has them,
    and ``test`` for a yes/no answer; each search bounded (see the module)."""

    __slots__ = ("_dfa", "_program", "_seen", "flags", "groupindex", "groups", "pattern", "steps")

    def __init__(self, pattern: str, flags: int = 0, steps: int = DEFAULT_STEPS) -> None:
        depth = nesting(pattern)
        if depth > MAX_NESTING:  # measured first: re itself recurses once per level
            raise Unsupported(f"the pattern nests groups {depth} deep (at most {MAX_NESTING})")
        built = _built(pattern, flags) if depth <= _SHALLOW else _on_a_fresh_stack(
            _built, pattern, flags)
        compiled, program, dfa = built
        self.pattern = pattern
        self.flags = compiled.flags
        self.groups = compiled.groups
        self.groupindex = dict(compiled.groupindex)
        self.steps = steps
        self._program: Program = program
        self._dfa = dfa
        self._seen: dict[str, tuple[bool | None, int, Budget | None]] = {}

    @property
    def engine(self) -> str:
        """``linear`` (the Pike VM) or ``backtracking`` (bounded by ``steps``)."""
        return "backtracking" if self._program.backtracking else "linear"

    def _budget(self) -> Budget:
        """The budget a search now draws on: the open :class:`one_budget`'s, else its own."""
        shared = _SHARED.get()
        return Budget(self.steps) if shared is None else shared

    def _run(self, text: str, pos: int, must_advance: bool, capture: bool,
             budget: Budget | None = None) -> list[int] | None:
        if not isinstance(text, str):
            raise TypeError(f"expected a str, not {type(text).__name__}")
        program = self._program
        budget = self._budget() if budget is None else budget
        try:
            if not capture and self._dfa:
                return [] if dfa_test(program, text) else None
            if program.backtracking:
                budget.spend(0)  # a budget already spent fails every search at once
                return backtrack(program, text, pos, budget, must_advance=must_advance)
            return pike(program, text, pos, budget, must_advance=must_advance,
                        capture=capture)
        except BudgetExceeded:
            raise RegexBudgetExceeded(self.pattern, budget.total) from None

    def search(self, text: str, pos: int = 0) -> BoundedMatch | None:
        """The leftmost-first match at or after ``pos``, as :meth:`re.Pattern.search`."""
        slots = self._run(text, max(pos, 0), False, True)
        return None if slots is None else BoundedMatch(self, text, slots)

    def finditer(self, text: str, pos: int = 0) -> Iterator[BoundedMatch]:
        """Every non-overlapping match, as :meth:`re.Pattern.finditer`."""
        must_advance = False
        while pos <= len(text):
            slots = self._run(text, pos, must_advance, True)
            if slots is None:
                return
            yield BoundedMatch(self, text, slots)
            must_advance = slots[1] == slots[0]
            pos = slots[1]

    def test(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text`` (JSON Schema's ``pattern``).

        The last answers are remembered, so a value checked twice in a row (a fast
        check, then the validator that reports the error) costs one search. A remembered
        answer is charged the steps its search took, so what a budget allows never depends
        on what was searched before it; a search that ran out of steps is remembered with
        the budget it ran out of (None: a search's own), and stands for that budget only.
        """
        shared = _SHARED.get()
        known = self._seen.get(text)
        if known is not None:
            answer, cost, owner = known
            if answer is not None:
                if cost and shared is not None:
                    try:
                        shared.spend(cost)
                    except BudgetExceeded:
                        raise RegexBudgetExceeded(self.pattern, shared.total) from None
                return answer
            if owner is shared:
                raise RegexBudgetExceeded(self.pattern, cost)
        budget = Budget(self.steps) if shared is None else shared
        before = budget.left
        try:
            answer = self._run(text, 0, False, False, budget) is not None
        except RegexBudgetExceeded:
            self._remember(text, (None, budget.total, shared))
            raise
        self._remember(text, (answer, before - budget.left, None))
        return answer

    def _remember(self, text: str, known: tuple[bool | None, int, Budget | None]) -> None:
        seen = self._seen
        if len(seen) >= 64:
            seen.clear()
        seen[text] = known

    def __repr__(self) -> str:
        return f"toolwire._boundedre.compile({self.pattern!r}) [{self.engine}]"


_CACHE: dict[tuple[str, int, int], BoundedPattern] = {}


def compile(pattern: str, flags: int = 0, *, steps: int = DEFAULT_STEPS) -> BoundedPattern:
    """``pattern`` compiled for bounded searches (kept: one pattern compiles once)."""
    key = (pattern, flags, steps)
    found = _CACHE.get(key)
    if found is None:
        found = BoundedPattern(pattern, flags, steps)
        if len(_CACHE) >= 1024:
            _CACHE.clear()
        _CACHE[key] = found
    return found
