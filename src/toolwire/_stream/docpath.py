"""Document paths: where a stream rule writes in the document it rebuilds.

A path is ``ident ("." ident | "[" n "]")*`` — write-only, never JMESPath: writing needs
to create the missing objects on the way, which a query language does not say how to do.
Reading a value back for a rule's own logic (``first``, ``append``) uses the same steps.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["STEP", "Path", "get", "parse", "put"]

Path = tuple[str | int, ...]

STEP: Final = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]")


def parse(text: str) -> Path:
    """The steps of a path (the meta-schema has checked its syntax)."""
    steps: list[str | int] = []
    for match in STEP.finditer(text):
        name, index = match.groups()
        steps.append(name if name is not None else int(index))
    return tuple(steps)


class PathError(ValueError):
    """A path crosses a value that is not an object (or a list index that is absent)."""


def get(root: Any, path: Path) -> Any:
    """The value at ``path``, or None where any step is missing."""
    value = root
    for step in path:
        if type(step) is int:
            if type(value) is not list or step >= len(value):
                return None
        elif type(value) is not dict:
            return None
        value = value[step] if type(step) is int else value.get(step)
    return value


def put(root: dict[str, Any], path: Path, value: Any) -> None:
    """Write ``value`` at ``path``, creating missing objects on the way."""
    target: Any = root
    for position, step in enumerate(path[:-1]):
        following = path[position + 1]
        if type(step) is int:
            if type(target) is not list or step >= len(target):
                raise PathError(f"no element [{step}] to write into")
            target = target[step]
        else:
            if type(target) is not dict:
                raise PathError(f"cannot write field {step!r} into a non-object")
            nxt = target.get(step)
            if nxt is None:
                if type(following) is int:
                    raise PathError(f"no list {step!r} to index")
                nxt = target[step] = {}
            target = nxt
    last = path[-1]
    if type(last) is int:
        if type(target) is not list or last >= len(target):
            raise PathError(f"no element [{last}] to write")
        target[last] = value
    else:
        if type(target) is not dict:
            raise PathError(f"cannot write field {last!r} into a non-object")
        target[last] = value


def show(path: Path) -> str:
    """A path as written in the spec."""
    text = ""
    for step in path:
        text += f"[{step}]" if type(step) is int else (f".{step}" if text else str(step))
    return text
