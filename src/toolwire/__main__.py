"""``python -m toolwire``: the same command as the ``toolwire`` script (and ``-m toolwire.cli``)."""

from __future__ import annotations

from .cli._main import main

raise SystemExit(main())
