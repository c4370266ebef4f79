"""``toolwire extract --tools REQUEST``: calls checked against the tools the request offered.

REQUEST is the JSON of the request body exactly as it was sent (or its tool list). The
tool list is compiled once per wire format (:class:`toolwire.Tools`) and every printed
reply's calls are checked against it: an unknown name sets ``unknown_tool``, arguments
failing the tool's schema set ``arguments_invalid`` and ``arguments_errors``, and both
calls are rejected in the Reply's fates. A request that cannot be read, or a tool list
that does not compile, is an input error (exit 1) naming the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._values.arguments import loads_strict
from ..errors import ToolwireError
from ._common import InputError, read_text

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .._registry.registry import Registry
    from .._tools import Tools
    from .._values.reply import Reply

__all__ = ["ToolsOption", "add_options", "from_args"]


def add_options(extract: argparse.ArgumentParser) -> None:
    """Add ``--tools`` to the extract command's parser."""
    extract.add_argument(
        "--tools",
        metavar="REQUEST",
        help="a JSON file of the request (or its tool list): check the calls against its tools",
    )


class ToolsOption:
    """The request's tools, compiled on first use for each format met."""

    def __init__(self, path: str, request: Any, registry: Registry) -> None:
        self._path = path
        self._request = request
        self._registry = registry
        self._compiled: dict[str, Tools] = {}

    @property
    def request(self) -> Any:
        """The request (or tool list) as read from the file."""
        return self._request

    def check(self, reply: Reply) -> Reply:
        """``reply`` with its calls checked against the request's tools."""
        from .._tools import Tools  # lazy: the tool checks (jsonschema: 66 ms) only with --tools

        tools = self._compiled.get(reply.format)
        if tools is None:
            try:
                tools = Tools(reply.format, self._request, registry=self._registry)
            except ToolwireError as exc:
                raise InputError(f"{exc.code}: --tools {self._path}: {exc}") from None
            self._compiled[reply.format] = tools
        return tools.check_reply(reply)


def from_args(args: argparse.Namespace, registry: Registry) -> ToolsOption | None:
    """The ``--tools`` option read, or None when it was not given."""
    path = getattr(args, "tools", None)
    if path is None:
        return None

    text = read_text(path)
    try:
        request = loads_strict(text)
    except ValueError as exc:
        raise InputError(f"malformed_response: --tools {path}: not JSON ({exc})") from None
    return ToolsOption(path, request, registry)
