"""The one error of a tool list: :class:`InvalidTools`, raised when it is compiled.

A tool list is checked whole when a :class:`~toolwire.tools.Tools` is built, never on the
first call that needs a tool: a loop learns that its request is broken before the model has
answered, and a reply is never half checked.
"""

from __future__ import annotations

from ..errors import ToolwireError

__all__ = ["InvalidTools"]


class InvalidTools(ToolwireError, ValueError):
    """A tool list that cannot be compiled: unreadable, a definition no spec entry reads, a
    tool without a name, two tools of one name, or a schema that is no valid schema.

    ``tool`` is the tool's name where it has one, ``index`` its position among the
    definitions read (0-based, in request order), ``pointer`` where inside its schema the
    problem is (``""`` for the whole schema, ``None`` when the problem is not in a schema).
    """

    code = "invalid_tools"

    def __init__(
        self,
        format: str | None,
        reason: str,
        *,
        tool: str | None = None,
        index: int | None = None,
        pointer: str | None = None,
    ) -> None:
        self.format = format
        self.reason = reason
        self.tool = tool
        self.index = index
        self.pointer = pointer
        where = f"{format} tools" if format else "tools"
        if index is not None:
            where += f": tool #{index}" + (f" {tool!r}" if tool else "")
        elif tool:
            where += f": tool {tool!r}"
        if pointer is not None:
            where += f", schema at {pointer or '/'}"
        super().__init__(f"{where}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.format, self.reason, self.tool, self.index, self.pointer))

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "format": self.format,
            "tool": self.tool,
            "index": self.index,
            "pointer": self.pointer,
        }


def _rebuild(
    format: str | None, reason: str, tool: str | None, index: int | None, pointer: str | None
) -> InvalidTools:
    return InvalidTools(format, reason, tool=tool, index=index, pointer=pointer)
