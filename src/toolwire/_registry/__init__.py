"""The registry: specs by format name, and the operations of :mod:`toolwire` on them.

:mod:`.registry` holds :class:`Registry`; :mod:`.loading` reads spec folders into it;
:mod:`.explain` tells how a registry reads one reply, item by item (``toolwire explain``).
"""

from __future__ import annotations

from .registry import Registry

__all__ = ["Registry"]
