"""When a closed slot is handed out (specs/README.md §9.6), in time linear in the slots.

A closed slot is classified once: when its ready policy releases it. A call whose arguments
do not decode is then *deferred* — its fate (rejected or dropped) is known only at
completion — and is looked at again only then, never re-classified per event (a stream of
2,000 undecodable Gemini parts was quadratic). Held slots wait per list, so a slot opening
releases the held slots of its own list without scanning the others.
"""

from __future__ import annotations

from collections.abc import Callable

from .docpath import Path
from .engine import Engine
from .slots import Slot
from .stream_rules import CompiledStream
from .updates import StreamUpdate

__all__ = ["Ready"]

Classify = Callable[[Slot], "StreamUpdate | None"]


def _undecodable_call(update: StreamUpdate | None) -> bool:
    return (update is not None and update.kind == "call" and update.call is not None
            and update.call.arguments_undecodable)


def _same(before: StreamUpdate, after: StreamUpdate | None) -> bool:
    """The same update, as the stream's promise compares it (a call by its value)."""
    if after is None or before.kind != after.kind or before.item_type != after.item_type:
        return False
    if before.call is not None or after.call is not None:
        return before.call == after.call
    if before.server_call is not None and after.server_call is not None:
        old, new = before.server_call, after.server_call
        return (old.type, old.id, old.name, old.status) == (new.type, new.id, new.name, new.status)
    return True


class Ready:
    """The held and deferred slots of one stream, and what each event releases."""

    def __init__(self, stream: CompiledStream, classify: Classify) -> None:
        self._policy = stream.ready
        self._classify = classify
        self._held: dict[Path, list[Slot]] = {}  # closed, waiting for their policy
        self._deferred: list[Slot] = []  # released, but their undecodable call waits
        self.cut: set[int] = set()  # orders of slots cut at the sentinel: flagged incomplete
        self.handed: dict[int, StreamUpdate] = {}  # what each released slot handed out

    def after_event(self, engine: Engine) -> list[StreamUpdate]:
        """What the event's closed and created slots release, in creation order."""
        released: list[Slot] = []
        if engine.closed:
            if self._policy == "at_close":
                released.extend(engine.closed)
            else:
                for slot in engine.closed:
                    self._held.setdefault(slot.list_path, []).append(slot)
        if self._policy == "hold_last" and engine.opened and self._held:
            for opened in engine.opened:  # generation went on past the held slots before it
                held = self._held.get(opened.list_path)
                if held:
                    released.extend(s for s in held if s.order < opened.order)
                    self._held[opened.list_path] = [s for s in held if s.order >= opened.order]
        if not released:
            return []
        released.sort(key=lambda s: s.order)
        updates: list[StreamUpdate] = []
        for slot in released:
            update = self._classify(slot)
            if _undecodable_call(update):
                self._deferred.append(slot)  # its fate is known only at completion
                continue
            slot.released = True
            if update is not None:
                self.handed[slot.order] = update
                updates.append(update)
        return updates

    def changed(self, slots: list[Slot]) -> Slot | None:
        """The first slot already handed out whose item now reads differently (a terminal
        response contradicting an item it streamed), or None."""
        for slot in slots:
            before = self.handed.get(slot.order)
            if before is not None and not _same(before, self._classify(slot)):
                return slot
        return None

    def hold(self, slots: list[Slot]) -> None:
        """Hold slots closed by completion itself (a Chat call ends with its stream)."""
        for slot in slots:
            self._held.setdefault(slot.list_path, []).append(slot)

    def at_completion(self, engine: Engine, truncated: bool,
                      at_sentinel: bool) -> list[StreamUpdate]:
        """What completion releases: every held and deferred slot, in creation order, but
        the calls §9.6 drops (a truncated reply's last call and undecodable ones; at the
        sentinel, undecodable ones, flagged cut). Unfinished slots are never released."""
        remaining = [*self._deferred, *(s for held in self._held.values() for s in held)]
        self._deferred, self._held = [], {}
        remaining.sort(key=lambda s: s.order)
        last_call = self._last_call(engine.slots) if truncated else None
        updates: list[StreamUpdate] = []
        for slot in remaining:
            update = self._classify(slot)
            slot.released = True
            if update is None:
                continue
            if update.kind == "call":
                if truncated and (slot is last_call or _undecodable_call(update)):
                    continue  # dropped: cut off, never to run
                if at_sentinel and _undecodable_call(update):
                    self.cut.add(slot.order)  # cut: its end never came
                    continue
            updates.append(update)
        return updates

    def _last_call(self, slots: list[Slot]) -> Slot | None:
        """The last slot, in creation order, that yields a call (unfinished ones included)."""
        for slot in reversed(slots):
            update = self._classify(slot)
            if update is not None and update.kind == "call":
                return slot
        return None
