"""``python -m toolwire.cli``: the same command as the ``toolwire`` script."""

from __future__ import annotations

from ._main import main

raise SystemExit(main())
