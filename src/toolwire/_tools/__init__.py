"""Calls checked against the tools the request offered (specs/README.md §8).

A call that decodes is not yet a call a loop can run: models invent tool names, drop
required arguments, send ``"3"`` for an integer. :class:`Tools` compiles a request's tool
list once — read through the format's spec, each schema made JSON Schema in its provider's
dialect, its validator built — and then flags each call with ``unknown_tool`` or
``arguments_invalid`` (and every error as an :class:`~toolwire.types.ArgumentError`), never
changing what the model sent. ``toolwire.read(fmt, reply, tools=request)`` does it in one
step.

Imported only when tools are used: a plain ``extract``/``read`` never loads this package
or ``jsonschema``.
"""

from __future__ import annotations

from .compiled_tools import Tools, as_tools
from .definition import ToolDefinition

__all__ = ["ToolDefinition", "Tools", "as_tools"]
