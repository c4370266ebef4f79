"""A Griffe extension: toolwire's docstrings, written in reStructuredText's habits, read as
the Markdown mkdocstrings renders.

The docstrings cite each other with Sphinx roles (``:class:`~toolwire.Reply```), end a
paragraph with ``::`` before a literal block, and lay out small tables as simple RST tables.
Rendered as Markdown those show as raw markup; this extension rewrites them once the package
is loaded (the source files are not touched):

- a role becomes a cross-reference to the object it names, resolved from the docstring's own
  scope as Python resolves the name (``ToolCall`` in ``toolwire/_values/reply.py`` is
  ``toolwire._values.toolcall.ToolCall``, which the site shows as ``toolwire.ToolCall``); a
  leading ``~`` shows the last part only. A reference to an object the site does not render
  (a private helper) is plain code, never a broken link;
- ``text::`` becomes ``text:`` (a ``::`` alone is dropped): the indented block after it is
  already a code block in Markdown;
- a simple table (rows between ``====  ====`` rules) becomes a Markdown table.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|meth|func|mod|data|attr|exc|obj):`(~?)([^`]+)`")
RULE = re.compile(r"^(=+)((?: +=+)+)\s*$")


class RstDocstrings(griffe.Extension):
    """Rewrite every docstring of the loaded package (see the module's docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value, obj)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """The package itself (``on_object`` sees only what it holds); rewriting twice is
        rewriting once, so a package seen both ways is safe."""
        self.on_object(obj=pkg)


def markdown(text: str, scope: griffe.Object) -> str:
    """The docstring ``text`` of ``scope`` in Markdown."""
    text = ROLE.sub(lambda m: reference(m[2], m[1] == "~", scope), text)
    text = re.sub(r"(?m)^[ \t]*::[ \t]*$", "", text)
    text = re.sub(r"(?m)(\S)::[ \t]*$", r"\1:", text)
    return tables(text)


def reference(target: str, short: bool, scope: griffe.Object) -> str:
    """An autorefs cross-reference to ``target`` as written in ``scope``; unresolved, code."""
    shown = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
    path = resolve(target, scope)
    return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'


def resolve(target: str, scope: griffe.Object) -> str:
    """The full dotted path of ``target`` (``Name``, ``Name.attr``, ``.module``,
    ``package.module.Name``) as seen from ``scope``; ``target`` itself when it does not
    resolve."""
    if target.startswith("."):
        module = scope if scope.is_module else scope.module
        base = module.path if module.is_package else module.parent.path  # type: ignore[union-attr]
        for _ in range(len(target) - len(target.lstrip(".")) - 1):
            base = base.rsplit(".", 1)[0]
        return f"{base}.{target.lstrip('.')}"
    head, _, rest = target.partition(".")
    try:
        path = scope.resolve(head)
    except (griffe.NameResolutionError, AttributeError, KeyError):
        return target
    return f"{path}.{rest}" if rest else path


def tables(text: str) -> str:
    """Every simple RST table of ``text`` (two columns or more, one rule above the rows and one
    below, optionally a header row between two rules) as a Markdown table."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        match = RULE.match(lines[index])
        end = next((j for j in range(index + 1, len(lines)) if RULE.match(lines[j])), None)
        if match is None or end is None:
            out.append(lines[index])
            index += 1
            continue
        starts = [m.start() for m in re.finditer(r"=+", lines[index])]
        body = lines[index + 1:end]
        header: list[str] | None = None
        after = end + 1
        following = next((j for j in range(after, len(lines)) if RULE.match(lines[j])), None)
        if len(body) == 1 and following is not None:  # a header row, then the rows
            header, body, after = _cells(body[0], starts), lines[end + 1:following], following + 1
        rows = _rows(body, starts)
        if header is None:
            header = [""] * len(starts)
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(starts))
        out.extend("| " + " | ".join(row) + " |" for row in rows)
        index = after
    return "\n".join(out)


def _cells(line: str, starts: list[int]) -> list[str]:
    bounds = [*starts[1:], None]
    return [line[start:stop].strip() for start, stop in zip(starts, bounds, strict=True)]


def _rows(lines: list[str], starts: list[int]) -> list[list[str]]:
    """The table's rows: a line whose first column is blank continues the row above."""
    rows: list[list[str]] = []
    for line in lines:
        if not line.strip():
            continue
        cells = _cells(line, starts)
        if rows and not cells[0]:
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return rows
