"""A Griffe extension: the API reference lists a class's special members (``__eq__``,
``__iter__``, ``__slots__``, ...) only where they say something.

Griffe counts every special member as public (they are used through public means:
comparing, iterating), and the site shows members without a docstring so that every public
name appears. Together that would list a bare ``__eq__`` or ``__hash__`` under each value
class: noise, saying nothing the class's own docstring does not. This extension takes each
special member without a docstring of its own out of the loaded package (the source files
are not touched); one with a docstring stays. ``__init__`` stays too: the site merges it into
its class (``merge_init_into_class``), whose signature then shows the constructor's parameters.
"""

from __future__ import annotations

from typing import Any

import griffe

KEPT = frozenset({"__init__"})
"""Kept whatever their docstring: the constructor, shown in its class's signature."""


def is_special(name: str) -> bool:
    """Whether ``name`` is special (``__eq__``), not ``_private`` or ``__mangled``."""
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def undocumented_specials(cls: griffe.Class) -> list[str]:
    """The names of ``cls``'s own special members without a docstring (``KEPT`` aside)."""
    found = []
    for name, member in cls.members.items():
        if not is_special(name) or name in KEPT or member.is_alias:
            continue
        if not (member.docstring and member.docstring.value.strip()):
            found.append(name)
    return found


def classes(obj: griffe.Object) -> list[griffe.Class]:
    """Every class defined in ``obj`` (a module or a class), nested ones included."""
    found: list[griffe.Class] = []
    stack = [obj]
    while stack:
        here = stack.pop()
        for member in here.members.values():
            if member.is_alias:
                continue
            if member.is_class or member.is_module:
                stack.append(member)
            if member.is_class:
                found.append(member)
    return found


class SpecialMembers(griffe.Extension):
    """Drop the undocumented special members of every class (see the module's docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for cls in classes(pkg):
            for name in undocumented_specials(cls):
                cls.del_member(name)
