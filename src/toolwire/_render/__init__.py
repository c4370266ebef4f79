"""Provider-native messages out of a reply: the assistant turn to echo, the tool results to
send, and a reply's turn in another format — each format's ``render`` part (JSON templates,
specs/README.md §6) filled from :class:`~toolwire.Reply` values. Loaded on first use only:
reading a reply never imports it."""

from __future__ import annotations

from .tool_loop import answer, assistant_message, convert, mint_id, render_call, reply_body

__all__ = ["answer", "assistant_message", "convert", "mint_id", "render_call", "reply_body"]
