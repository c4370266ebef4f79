"""The ``toolwire`` command line (:func:`main`); ``python -m toolwire.cli`` runs it too.

:mod:`.main` reads the command line and dispatches; :mod:`.audit` renders the
``specs table`` audit table. The CLI sits on top of everything else and nothing
imports it.
"""

from __future__ import annotations

from .main import main

__all__ = ["main"]
