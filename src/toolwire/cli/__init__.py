"""The ``toolwire`` command line (:func:`main`); ``python -m toolwire.cli`` runs it too.

:mod:`.main` wires the parser and dispatches; each command's logic is a module of its
own (:mod:`.extract`, :mod:`.specs`, :mod:`.specs_check`, ...), with what they share in
:mod:`.common`, :mod:`.names` and :mod:`.replies`. The CLI sits on top of everything else
and nothing imports it.
"""

from __future__ import annotations

from ._main import main

__all__ = ["main"]
