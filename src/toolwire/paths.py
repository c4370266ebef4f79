"""Where the bundled specs live, in a wheel and in a source checkout alike.

A wheel carries the repository's ``specs/`` folder inside the package as ``_specs``;
an editable install (or ``PYTHONPATH=src``) finds the checkout's own ``specs/`` two
levels above this file. Both give the same files, so a test run from the checkout
checks exactly what users install.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["bundled_specs_dir"]

_PACKAGE = Path(__file__).resolve().parent


def bundled_specs_dir() -> Path:
    """The folder holding ``schema/``, ``wire/`` and ``text/`` of the bundled specs."""
    inside = _PACKAGE / "_specs"
    if inside.is_dir():
        return inside
    checkout = _PACKAGE.parent.parent / "specs"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"toolwire's bundled specs are missing: looked in {inside} and {checkout}"
    )
