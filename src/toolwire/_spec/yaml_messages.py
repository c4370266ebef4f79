"""YAML syntax errors in a spec author's words: which key, which line, what to do.

PyYAML reports what its parser expected (``expected <block end>, but found '<block mapping
start>'``), which says little to someone who indented one key by a space too many. This
module turns the common failures into a sentence naming the line, the key read last before
the failure (where the author should look) and the fix. The place (line, column) stays
where the parser stopped and the pointer the document's (specs/README.md §2): parsers of
other languages stop elsewhere in the tree, so only the message is implementation-specific.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import yaml

__all__ = ["LastKey", "QuotedValue", "syntax_message"]


@dataclass(frozen=True)
class LastKey:
    """The mapping key read last before the failure: its pointer, line and column."""

    pointer: str
    line: int
    col: int

    def words(self) -> str:
        name = self.pointer.rsplit("/", 1)[-1]
        inside = self.pointer.rsplit("/", 1)[0] or "the top level"
        return f"key {name!r} (line {self.line}, in {inside})"


@dataclass(frozen=True)
class QuotedValue:
    """The quoted scalar read last before the failure: the line and column of its opening
    quote and the line of its closing one."""

    line: int
    col: int
    end_line: int


def _line(mark: yaml.Mark | None) -> int:
    return mark.line + 1 if mark is not None else 0


def _indentation(exc: yaml.MarkedYAMLError, last: LastKey | None) -> str:
    mark = exc.problem_mark
    where = f"line {_line(mark)}"
    col = mark.column + 1 if mark is not None else 0
    opened = _line(exc.context_mark)
    if last is None:
        return f"{where} is indented differently from the block that starts at line {opened}"
    start = f"{where} is indented {'more' if col > last.col else 'less'} (column {col}) than"
    start += f" {last.words()} at column {last.col}: a key lines up with the keys beside it"
    if col > last.col:
        name = last.pointer.rsplit("/", 1)[-1]
        return f"{start}; to nest keys under {name!r}, leave its value empty ('{name}:')"
    return f"{start}, or with those of the mapping around them"


def syntax_message(
    exc: yaml.MarkedYAMLError, last: LastKey | None, quoted: QuotedValue | None = None
) -> str:
    """The sentence for one PyYAML syntax error, ``last`` being the key read last and
    ``quoted`` the quoted scalar read last.

    A quote left open runs on over the next lines until the next quote of its kind, and
    the parser fails just after that one, far from the mistake: a quoted value spanning
    lines that ends on the failing line is told as the unclosed quote it most likely is.
    """
    problem = str(exc.problem or "")
    context = str(exc.context or "")
    line = _line(exc.problem_mark)
    after = f" (after {last.words()})" if last is not None else ""
    if quoted is not None and quoted.line < quoted.end_line == line:
        return (f"the quoted value opened at line {quoted.line}, column {quoted.col} runs on"
                f" to line {line}: is its closing quote missing on line {quoted.line}?")
    if problem.startswith("expected <block end>"):
        return _indentation(exc, last)
    if problem == "mapping values are not allowed here":
        return (f"line {line} has a ':' where no key can start{after}: quote a value that"
                " holds ': ', or indent this line like the keys beside it")
    if "'\\t'" in problem:
        return f"line {line} is indented with a tab: YAML indents with spaces only"
    if "quoted scalar" in context:
        opened = exc.context_mark
        col = f", column {opened.column + 1}" if opened is not None else ""
        return f"the quoted value opened at line {_line(opened)}{col} is never closed"
    if "flow mapping" in context or "flow sequence" in context:
        brackets = "{...}" if "mapping" in context else "[...]"
        return (f"the {brackets} opened at line {_line(exc.context_mark)} is not closed, or"
                f" lacks a ',' before line {line}{after}")
    if problem == "could not find expected ':'":
        return (f"line {_line(exc.context_mark)} is neither a key (it has no ':') nor a list"
                f" item{after}")
    raw = " ".join(part for part in (context, problem) if part)
    return f"the YAML does not parse here{after}: {raw}"
