"""Reasoning regions: the parts of a reply the model thought in, kept apart from its answer.

Reasoning models write their thinking between markers (``<think>…</think>``,
``<seed:think>…</seed:think>``). A text spec declares them under ``reasoning``; the
scanner then never reads calls inside a region unless the spec says the model calls
tools while thinking (``calls: true``), and :func:`toolwire.read_text` returns the
regions' text separately from the answer.

Chat templates of several models (Qwen3, DeepSeek-R1) put the open marker into the
prompt, so the reply starts inside the region and only its close marker shows. With
``open_in_prompt: true`` a close marker that comes before any open marker ends a
region that began at the reply's start. A region whose close marker never comes runs
to the end of the reply: a model cut off while thinking gave no answer — unless the
spec names literals that end it then (``ends_at``: Kimi K2 opening its tool-call
section without closing its thinking, as vLLM's reasoning parser reads it).
"""

from __future__ import annotations

from typing import NamedTuple

from .occurrences import Occurrences

__all__ = ["Region", "RegionSpan", "find_regions"]


class Region(NamedTuple):
    """One declared kind of reasoning region, markers rendered."""

    open: str
    close: str
    open_in_prompt: bool
    calls: bool
    ends_at: tuple[str, ...] = ()


class RegionSpan(NamedTuple):
    """Where one region sits: ``[start, end)`` with markers, ``[inner, inner_end)`` without;
    ``closed`` is false for a region the reply ends inside."""

    start: int
    inner: int
    inner_end: int
    end: int
    calls: bool
    closed: bool = True


def find_regions(text: str, occ: Occurrences, regions: tuple[Region, ...]) -> list[RegionSpan]:
    """The reasoning regions of ``text``, in order and not overlapping; linear."""
    found: list[RegionSpan] = []
    pos = 0
    opens = tuple(region.open for region in regions)
    first_open, _ = occ.earliest(opens, 0)
    first: tuple[int, Region] | None = None  # the earliest close before any open marker
    for region in regions:
        if not region.open_in_prompt:
            continue
        close_at = occ.first(region.close, 0)
        if (
            close_at != -1
            and (first_open == -1 or close_at < first_open)
            and (first is None or close_at < first[0])
        ):
            first = (close_at, region)
    if first is not None:
        close_at, region = first
        pos = close_at + len(region.close)
        found.append(RegionSpan(0, 0, close_at, pos, region.calls))
    by_open = {region.open: region for region in regions}
    while True:
        at, length = occ.earliest(opens, pos)
        if at == -1:
            return found
        region = by_open[text[at : at + length]]
        inner = at + length
        close_at = occ.first(region.close, inner)
        if close_at == -1:
            stop, _ = occ.earliest(region.ends_at, inner) if region.ends_at else (-1, 0)
            if stop == -1:
                found.append(RegionSpan(at, inner, len(text), len(text), region.calls, False))
                return found
            found.append(RegionSpan(at, inner, stop, stop, region.calls))
            pos = stop  # the literal that ended the region is read as text
            continue
        end = close_at + len(region.close)
        found.append(RegionSpan(at, inner, close_at, end, region.calls))
        pos = end
